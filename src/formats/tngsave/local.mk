# tngsave format: sources, tests and fixtures (included by the top Makefile.am)
libgamefs_a_SOURCES += src/formats/tngsave/tngsave.c src/formats/tngsave/tsv_views.c \
	src/formats/tngsave/tngsave.h
