# OHRRPGCE lumped files
libgamefs_a_SOURCES += src/formats/rpg/rpg.c src/formats/rpg/rpg.h \
	src/formats/rpg/rpg_model.c src/formats/rpg/rpg_views.c \
	src/formats/rpg/rpg_gfx.c src/formats/rpg/rpg_maps.c src/formats/rpg/rpg_scripts.c \
	src/formats/rpg/rpg_hsp.c src/formats/rpg/rpg_hsz.c src/formats/rpg/rpg_hsz_cmds.c src/formats/rpg/rpg_hsz.h \
	src/formats/rpg/rpg_records.c src/formats/rpg/rpg_tiled.c \
	src/formats/rpg/rpg_grow.c src/formats/rpg/rpg_grow.h src/formats/rpg/rpg_newmap.c \
	src/formats/rpg/rpg_tilesets.c src/formats/rpg/rpg_resize.c src/formats/rpg/rpg_mapfile.c src/formats/rpg/rpg_resize.h src/formats/rpg/rpg_mappng.c src/formats/rpg/rpg_tmap.h src/formats/rpg/rpg_draw.h src/formats/rpg/rpg_gfxnew.c src/formats/rpg/rpg_text.c src/formats/rpg/rpg_text.h \
	src/formats/rpg/reload.c src/formats/rpg/reload.h \
	src/formats/rpg/rgfx.c src/formats/rpg/rgfx.h
# RELOAD documents on their own: the reld driver shares the codec above
libgamefs_a_SOURCES += src/formats/reld/reld.c
CORE_TESTS += \
	tests/t0001-cli.sh \
	tests/t0002-mount-basics.sh \
	tests/t0003-commit-safety.sh \
	tests/t0004-fstab-install.sh \
	tests/t0005-gio.sh \
	tests/t0006-readonly-archive.sh \
	tests/t0007-kill-commit.sh \
	tests/t0008-concurrency.sh \
	tests/t0020-kill-backup.sh \
	tests/t0021-driver-door.sh \
	tests/t1001-rpg-corpus.sh \
	tests/t1002-rpg-edits.sh \
	tests/t1003-rpg-names.sh \
	tests/t1004-rpg-bad-input.sh \
	tests/t1005-rpg-many-lumps.sh \
	tests/rpg/t1006-rpg-views.sh \
	tests/rpg/t1007-reld.sh \
	tests/rpg/t1008-rpg-text.sh \
	tests/rpg/t1009-rpg-maps.sh \
	tests/rpg/t1010-rpg-tilesets.sh \
	tests/rpg/t1011-graphics.sh \
	tests/rpg/t1012-rpg-npcs-doors.sh tests/rpg/t1013-rpg-scripts-records.sh \
	tests/rpg/t1014-reld-rgfx.sh tests/rpg/t1015-rpg-tiled.sh \
	tests/rpg/t1016-reld-linear.sh tests/rpg/t1017-unsupported.sh \
	tests/rpg/t1018-value-checks.sh tests/rpg/t1019-cut-short.sh \
	tests/rpg/t1030-png-indices.sh tests/rpg/t1031-transparency.sh tests/rpg/t1032-vehicle-names.sh \
	tests/rpg/t1040-rpg-tiled-layers.sh tests/rpg/t1041-rpg-heroes-one-truth.sh \
	tests/rpg/t1042-rpg-tiled-objects.sh tests/rpg/t1043-rpg-grow-records.sh tests/rpg/t1044-rpg-grow-maps.sh \
	tests/rpg/t1045-rpg-grow-busy.sh tests/rpg/t1046-rpg-grow-reld-hero.sh tests/rpg/t1047-rpg-grow-gfx.sh tests/rpg/t1048-rpg-tiled-save-as.sh \
	tests/rpg/t1049-rpg-npc-draw.sh tests/rpg/t1050-hsz-decompile.sh tests/rpg/t1060-field-names.sh \
	tests/rpg/t1051-rpg-grow-modder.sh tests/rpg/t1052-rpg-tiled-new-layer.sh
EXTRA_DIST += tests/rpgtool.py tests/rpg/growgame.py tests/rpg/opaque-share.py tests/rpg/gfxgame.py tests/rpg/rpglib.sh \
	tests/rpg/hszlib.py tests/rpg/addlayer.py
