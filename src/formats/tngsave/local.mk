# tngsave format: sources, tests and fixtures (included by the top Makefile.am)
libgamefs_a_SOURCES += src/formats/tngsave/tngsave.c src/formats/tngsave/tsv_model.c src/formats/tngsave/tsv_views.c \
	src/formats/tngsave/tngsave.h
CORE_TESTS += tests/tngsave/t3001-corpus.sh tests/tngsave/t3002-generated.sh \
	tests/tngsave/t3003-edits.sh tests/tngsave/t3004-bad-edits.sh \
	tests/tngsave/t3005-bad-input.sh tests/tngsave/t3006-names-limits.sh \
	tests/tngsave/t3007-delete.sh tests/tngsave/t3008-record-views.sh
EXTRA_DIST += tests/tngsave/tngsave.py \
	src/formats/tngsave/MANUAL.mdoc
