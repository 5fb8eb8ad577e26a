# tng format: sources, tests and fixtures (included by the top Makefile.am)
libgamefs_a_SOURCES += src/formats/tng/tng.c src/formats/tng/tng.h \
	src/formats/tng/tng_view.c src/formats/tng/tng_save.c
