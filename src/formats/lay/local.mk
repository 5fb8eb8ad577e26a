# lay format: sources, tests and fixtures (included by the top Makefile.am)
libgamefs_a_SOURCES += src/formats/lay/lay.c src/formats/lay/lay.h \
	src/formats/lay/lay_view.c src/formats/lay/lay_draw.c src/formats/lay/lay_codec.c

CORE_TESTS += \
	tests/lay/t5001-corpus.sh tests/lay/t5002-variants.sh tests/lay/t5003-edits.sh \
	tests/lay/t5004-compressed.sh tests/lay/t5005-atlas.sh tests/lay/t5006-bad-input.sh \
	tests/lay/t5007-floats.sh tests/lay/t5008-two-file-commit.sh tests/lay/t5009-grow.sh
EXTRA_DIST += tests/lay/mklay.py src/formats/lay/MANUAL.mdoc
