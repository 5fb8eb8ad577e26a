# tng format: sources, tests and fixtures (included by the top Makefile.am)
libgamefs_a_SOURCES += src/formats/tng/tng_driver.c src/formats/tng/tng.h \
	src/formats/tng/tng.c src/formats/tng/tng_map.c src/formats/tng/tng_sprite.c \
	src/formats/tng/tng_view.c src/formats/tng/tng_tiled.c src/formats/tng/tng_save.c src/formats/tng/tng_crc.c \
	src/formats/tng/tng_script.c src/formats/tng/tng_script.h src/formats/tng/tng_logic.c src/formats/tng/tng_handlers.c src/formats/tng/tng_media.c \
	src/formats/tng/tng_records.c src/formats/tng/tng_rec.h src/formats/tng/tng_reshape.c src/formats/tng/tng_refs.c src/formats/tng/tng_names.c src/formats/tng/tng_walk.c src/formats/tng/tng_sprview.c \
	src/formats/tng/tng_maps.c
CORE_TESTS += \
	tests/tng/t2001-generated.sh tests/tng/t2002-corpus.sh tests/tng/t2003-edits.sh \
	tests/tng/t2004-bad-input.sh tests/tng/t2005-diff.sh tests/tng/t2006-layout.sh \
	tests/tng/t2007-strips.sh tests/tng/t2008-map-bomb.sh tests/tng/t2009-atlas-checks.sh \
	tests/tng/t2010-scripts.sh tests/tng/t2011-media.sh tests/tng/t2012-records.sh \
	tests/tng/t2013-sections.sh tests/tng/t2014-record-names.sh \
	tests/tng/t2015-tiled.sh tests/tng/t2016-map-png.sh tests/tng/t2017-hostile.sh \
	tests/tng/t2018-value-checks.sh tests/tng/t2019-cut-short.sh tests/tng/t2020-demo.sh \
	tests/tng/t2021-new-records.sh tests/tng/t2022-new-map.sh tests/tng/t2023-new-media.sh \
	tests/tng/t2024-new-map-tmx.sh tests/tng/t2025-rename.sh tests/tng/t2026-grow-demo.sh
EXTRA_DIST += tests/tng/tngpy.py tests/tng/village.py tests/tng/edits.sh tests/tng/mappng.py src/formats/tng/MANUAL.mdoc

# unit tests (TAP): the script codec (every opcode and command, random round trips, errors)
check_PROGRAMS += tests/unit-tngs
tests_unit_tngs_SOURCES = tests/tng/unit-tngs.c tests/tng/names.h
tests_unit_tngs_LDADD = $(GFS_LIBS)
TESTS += tests/tng/unit-tngs.t
EXTRA_DIST += tests/tng/unit-tngs.t

# unit tests (TAP): the records as INI (random records of every kind round-trip, edits, errors)
check_PROGRAMS += tests/unit-tngrec
tests_unit_tngrec_SOURCES = tests/tng/unit-tngrec.c tests/tng/names.h
tests_unit_tngrec_LDADD = $(GFS_LIBS)
TESTS += tests/tng/unit-tngrec.t
EXTRA_DIST += tests/tng/unit-tngrec.t
