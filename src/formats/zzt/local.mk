# zzt format: sources, tests and fixtures (included by the top Makefile.am)
libgamefs_a_SOURCES += src/formats/zzt/zzt.c src/formats/zzt/zzt.h src/formats/zzt/zzt_board.c \
	src/formats/zzt/zzt_view.c src/formats/zzt/zzt_text.c \
	src/formats/zzt/zzt_cp437.c src/formats/zzt/zzt_png.c src/formats/zzt/zzt_refs.c \
	src/formats/zzt/zzt_engine.c src/formats/zzt/zzt_engine.h

# board.png's 8x14 code page 437 glyphs, generated at build time from the
# IBM VGA code page fonts of Debian's console-data (no font file in the sources)
ZZT_FONTDIR = /usr/share/consolefonts
ZZT_FONTS = IBM865=$(ZZT_FONTDIR)/cp865-8x14.psf.gz IBM850=$(ZZT_FONTDIR)/cp850-8x14.psf.gz
nodist_libgamefs_a_SOURCES = src/formats/zzt/zzt-font.c
noinst_PROGRAMS += zzt-mkfont
zzt_mkfont_SOURCES = src/formats/zzt/mkfont.c src/formats/zzt/zzt_cp437.c src/core/rd.c
zzt_mkfont_LDADD = $(ZLIB_LIBS)
src/formats/zzt/zzt-font.c: zzt-mkfont$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) src/formats/zzt && ./zzt-mkfont$(EXEEXT) $@ $(ZZT_FONTS)
MOSTLYCLEANFILES = src/formats/zzt/zzt-font.c

CORE_TESTS += \
	tests/zzt/t4001-corpus.sh \
	tests/zzt/t4002-edits.sh \
	tests/zzt/t4003-bad-input.sh \
	tests/zzt/t4004-bad-edits.sh \
	tests/zzt/t4005-png.sh \
	tests/zzt/t4006-stats-code.sh \
	tests/zzt/t4007-shell-redirect.sh \
	tests/zzt/t4008-draw.sh \
	tests/zzt/t4009-corpus-render.sh \
	tests/zzt/t4010-diff.sh \
	tests/zzt/t4011-csv-dialect.sh \
	tests/zzt/t4016-boards-rename.sh \
	tests/zzt/t4012-boards-grow.sh \
	tests/zzt/t4013-szt-generated.sh \
	tests/zzt/t4014-szt-edits.sh \
	tests/zzt/t4015-szt-corpus.sh
EXTRA_DIST += tests/zzt/zztlib.py tests/zzt/sztlib.py src/formats/zzt/MANUAL.mdoc

# unit tests (TAP): code page 437, RLE, random edits of every view
check_PROGRAMS += tests/unit-zzt
tests_unit_zzt_SOURCES = tests/zzt/unit-zzt.c
tests_unit_zzt_LDADD = $(GFS_LIBS)
TESTS += tests/zzt/unit-zzt.t
EXTRA_DIST += tests/zzt/unit-zzt.t
