/*
 * rpg.h - the OHRRPGCE model shared by the files of the rpg format.
 *
 * Layers, each using only the ones above it:
 *   reload.c     RELOAD binary <-> text (pure bytes)
 *   rpg_model.c  the lump index of a lumped file, each lump's current
 *                content, the name rules, save and committed; a record of
 *                a lump as INI (rpg_record_render/_store, for map.ini and
 *                the per-record views)
 *   rpg_gfx.c    graphics views: tilesets/, backdrops/, sprites/, palettes/,
 *                font.png
 *   rpg_maps.c   record views: a map's npcs.csv, npc-types.csv, doors.csv,
 *                door-links.csv, map.ini; game/ (GEN, BINSIZE, FIXBITS)
 *   rpg_tiled.c  maps/NN-name/map.tmx and map.png, maps/tilesets/ (for Tiled)
 *   rpg_scripts.c  scripts/: the HSP's lumps and sources, PLOTSCR.LST
 *   rpg_hsp.c    scripts/<name>.hss: the compiled scripts decompiled
 *                (rpg_hsz.c, rpg_hsz_cmds.c, rpg_hsz.h)
 *   rpg_text.c   text fields, the name lists' names, textboxes/ (rpg_text.h)
 *   rpg_records.c  per-record INI views (vehicles/, formations/, items/ ...)
 *   rpg_views.c  the other decoded views (reload/, names/, maps/,
 *                strings.txt ...) and
 *                which lump gets which
 *   rpg_grow.c   new records at the end of a record lump, the last removed
 *   rpg_newmap.c new maps (mkdir, cp -r of a map folder), the last removed
 *   rpg_gfxnew.c new tileset pages, backdrops, sprite sets (cp of a PNG), the last removed
 *   rpg.c        the driver: bid, load (builds the tree), tree operations
 */
#ifndef GFS_RPG_H
#define GFS_RPG_H

#include "gfs_driver.h"

#define RPG_NAME_MAX	50
#define RPG_MAX_LUMPS	1000000

struct rpg_lump {
	char name[RPG_NAME_MAX + 1];	/* as stored on disk */
	struct gfs_node *node;		/* the raw lump (root, or lumps/ of a game) */
	uint64_t off, len;		/* its data in the archive file now */
	uint64_t new_off, new_len;	/* in the file being saved */
	struct gfs_buf *data;		/* content a decoded view set, until commit */
	struct gfs_node **views;	/* its decoded views (their priv: struct rpg_vpriv) */
	size_t nviews;
	int kind;			/* RPG_K_*: which views it has */
};

enum { RPG_K_NONE, RPG_K_RELOAD, RPG_K_NAMES, RPG_K_SAY, RPG_K_MAP, RPG_K_GFX, RPG_K_STT, RPG_K_SCRIPTS,
       RPG_K_REC, RPG_K_RECORDS };

/* The ops of the editable view NAME: NAME_render, NAME_store; its struct rpg_vpriv freed with it. */
#define RPG_VIEW_OPS(name) \
	static const struct gfs_node_ops name##_ops = { .render = name##_render, .store = name##_store, .free = free }

/* priv of every decoded view node */
struct rpg_vpriv {
	struct rpg_lump *l;		/* NULL once the lump was deleted */
	size_t rec;			/* record (text boxes) */
	const void *desc;		/* what the view decodes (name lists) */
	int fresh;			/* a record just created: empty until written (rpg_grow.c) */
};

struct rpg_model {
	struct rpg_lump **lumps;
	size_t n, cap;
	int game;			/* has a GEN lump: lumps/ and decoded views */
	char archinym[RPG_NAME_MAX + 1];	/* stem of the GEN lump, as stored */
	struct gfs_node *lumpdir;	/* where the raw lumps live */
	struct rpg_genundo *undo;	/* GEN fields before records were added (rpg_grow.c) */
	size_t nundo;
};

/* ---- rpg_model.c ---- */
int rpg_name_char(int c);
/* Read len bytes at off of a lumped file (0 or -errno). */
typedef int (*rpg_read_fn)(void *ctx, uint8_t *buf, size_t len, uint64_t off);
/* Called with each lump of an index: its name, data offset and length; non-zero stops. */
typedef int (*rpg_lump_fn)(void *ctx, const char *name, uint64_t off, uint64_t len);
/*
 * Walk the lump index of a lumped file of end bytes read through rd (the
 * archive, or a lump holding a lumped file): fn for each lump in order.
 * -EBADMSG for a bad index, why saying what is wrong at byte *at.
 */
int rpg_index_walk(rpg_read_fn rd, void *rctx, uint64_t end, rpg_lump_fn fn, void *ctx,
		   char *why, size_t whylen, uint64_t *at);
/* Read the lump index of ar into a new model (ar->priv); no nodes made. */
int rpg_index_load(struct gfs_archive *ar);
int rpg_lump_append(struct rpg_model *m, struct rpg_lump *l);
/* New names: 1..50 of [A-Za-z0-9._-~ ], unique ignoring case (self excepted). */
int rpg_check_name(struct gfs_archive *ar, const char *name, const struct rpg_lump *self);
/*
 * The lump's current content: what a view or the raw file last stored
 * (data), else the archive's bytes (for a lump without views, its raw
 * file's edit, if any).
 */
int rpg_lump_read(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_buf *out);
/* The lump of that name (ignoring case), or NULL. */
struct rpg_lump *rpg_lump_named(struct rpg_model *m, const char *name);
/* Is l named pat (ignoring case), or <archinym>pat when pat starts with '.'? */
int rpg_lump_is(const struct rpg_model *m, const struct rpg_lump *l, const char *pat);
/* Record size idx of BINSIZE.BIN, or legacy when it has none. */
unsigned rpg_binsize(struct gfs_archive *ar, unsigned idx, unsigned legacy);
/* len bytes at off of the lump's current content (-EBADMSG past its end). */
/* Room in out for len more bytes: past 2 GiB it becomes a memfd (gfs_buf_stage); -EFBIG past that. */
int rpg_buf_room(struct gfs_buf *out, uint64_t len);
int rpg_lump_range(struct gfs_archive *ar, struct rpg_lump *l, uint64_t off, size_t len, uint8_t *buf);
/* A view, or the raw file of a lump with views, replaces its content (copied). */
int rpg_lump_set(struct gfs_archive *ar, struct rpg_lump *l, const uint8_t *data, size_t len);
/* Node ops of a raw lump that has decoded views (its content can change under it). */
extern const struct gfs_node_ops rpg_lump_ops;
/* Set the lump to bin unless it already holds exactly that. */
int rpg_set_if_changed(struct gfs_archive *ar, struct rpg_lump *l, const uint8_t *bin, size_t len);
/* A view's store ends: after r == 0, l set to b (if it changed); b released; r. */
int rpg_lump_done(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_buf *b, int r);
struct gfs_record;
/* Record rec of l (tab->size bytes each, from the lump's start) as INI (gfs_record.h). */
int rpg_record_render(struct gfs_archive *ar, struct rpg_lump *l, size_t rec, const struct gfs_record *tab,
		      struct gfs_buf *out);
struct gfs_rec_refs;
/* The same with the table's GFS_FK_REF fields shown and read through refs. */
int rpg_record_render_refs(struct gfs_archive *ar, struct rpg_lump *l, size_t rec, const struct gfs_record *tab,
			   const struct gfs_rec_refs *refs, struct gfs_buf *out);
int rpg_record_store_refs(struct gfs_archive *ar, struct rpg_lump *l, size_t rec, const char *view,
			  const struct gfs_record *tab, const struct gfs_rec_refs *refs, const uint8_t *data,
			  size_t len, int (*fix)(void *ctx, const uint8_t *old, uint8_t *p), void *ctx);
/*
 * The INI view data[0..len) of record rec of l parsed back: only changed
 * fields patched, then fix(ctx, old, new) (may be NULL) may refuse (-EINVAL
 * after gfs_err()) or complete the new bytes; l set when all went well.
 */
int rpg_record_store(struct gfs_archive *ar, struct rpg_lump *l, size_t rec, const char *view,
		     const struct gfs_record *tab, const uint8_t *data, size_t len,
		     int (*fix)(void *ctx, const uint8_t *old, uint8_t *p), void *ctx);
/* GEN (BSAVE + int16s) field idx, or -1 when the lump is too short. */
long rpg_gen(struct gfs_archive *ar, struct rpg_model *m, unsigned idx);
#define RPG_MAP_HDR 11		/* .T/.P/.E: 7 ignored bytes, int16 width, height */
#define RPG_MAP_MAX_LAYERS 16
/* Map number and lump letter (T, P, E, L...) of <arch>.<X><NN> or <N>.<X>; -1 if none. */
long rpg_map_of(struct rpg_model *m, const char *name, char *letter);
/* w, h and layer count of a .T/.P/.E lump from its 11-byte header; 0 when unusable. */
int rpg_map_dims(const uint8_t *hdr, uint64_t len, unsigned *w, unsigned *h, unsigned *layers);
/* The directory at path ("a/b") under the root, made when missing; NULL on ENOMEM. */
struct gfs_node *rpg_subdir(struct gfs_archive *ar, const char *path);
/* A decoded view of l named name (made unique) in dir; priv a new struct rpg_vpriv. */
int rpg_add_view(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_node *dir, const char *name,
		 const struct gfs_node_ops *ops, size_t rec, const void *desc);
int rpg_save(struct gfs_archive *ar, struct gfs_writer *w);
void rpg_committed(struct gfs_archive *ar);
void rpg_free(struct gfs_archive *ar);

/* ---- rpg_gfx.c ---- */
/* Is l a graphics lump with views (RPG_K_GFX), judged at load from its name and head? */
int rpg_gfx_kind(struct gfs_archive *ar, struct rpg_lump *l);
/* Make the views of a graphics lump. */
int rpg_gfx_build(struct gfs_archive *ar, struct rpg_lump *l);
/*
 * How many sets of sprite kind ('0' heroes .PT0 / HEROES.RGFX, '4'
 * walkabouts .PT4 / WALKABOUTS.RGFX...) the game has: the rgfx lump's
 * highest spriteset id + 1 where the game has one (the engine prefers it),
 * else the PT lump's whole records; -1 when it has neither.
 */
long rpg_sprite_sets(struct gfs_archive *ar, char kind);
/* A lump of pages (tilesets/, backdrops/) or 4-bit sprite sets with views: what rpg_gfxnew.c grows */
struct rpg_image {
	const char *view;	/* "tilesets", "sprites/walkabouts" */
	size_t bytes;		/* a record */
	int pages;		/* named NN.png, else NNN.png */
	char defpal;		/* DEFPALn.BIN's n, else 0 or '-' */
	int count;		/* GEN's field counts them (backdrops), else it is the last's number */
	unsigned gen;		/* that field */
	const void *desc;	/* rpg_vpriv.desc of its views */
};
/* l's, when it is one: 1; else 0. */
int rpg_gfx_image(struct gfs_archive *ar, struct rpg_lump *l, struct rpg_image *im);
/* The ops of a record's PNG view (priv: struct rpg_vpriv, desc what rpg_gfx.c gave it). */
extern const struct gfs_node_ops rpg_image_ops;
/* PNG data as record rec of l (rpg_gfx_image's) into out (its bytes); -EINVAL naming why, as name. */
int rpg_gfx_png(struct gfs_archive *ar, struct rpg_lump *l, size_t rec, const char *name, const uint8_t *data,
		size_t len, uint8_t *out);
/* ---- rpg_gfxnew.c: a new page or sprite set (cp x.png tilesets/NN.png ...), the last removed; 1: none ---- */
int rpg_gfx_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out);
int rpg_gfx_unlink(struct gfs_archive *ar, struct gfs_node *n);
/* The game's master palette, 256 RGB triples (what tilesets/ draws with). */
void rpg_master_palette(struct gfs_archive *ar, uint8_t *rgb);
/*
 * Frame f (0-7: up, up, right, right, down, down, left, left) of walkabout
 * set `set` (WALKABOUTS.RGFX, else the PT4 lump): its 16-colour indices in
 * px (RPG_WALK_W x RPG_WALK_H, row by row; 0 is clear) and the master
 * palette index of each in master[16], from PAL palette pal or, when
 * pal < 0, the set's default (DEFPAL4.BIN).  -ENOENT without that frame.
 */
#define RPG_WALK_W 20
#define RPG_WALK_H 20
int rpg_walkabout_frame(struct gfs_archive *ar, long set, long pal, unsigned f, uint8_t *px, uint8_t *master);

/* ---- rpg_maps.c ---- */
/* RPG_K_REC for .L/.N/.D, DOX, MAP, GEN, BINSIZE.BIN, FIXBITS.BIN that fit, else RPG_K_NONE. */
int rpg_maps_kind(struct gfs_archive *ar, struct rpg_lump *l);
/* In map dir: the views of RPG_K_REC lump l, or (l the map's .T) its DOX and MAP records. */
int rpg_maps_build(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_node *dir, long map);
/* game/gen.ini, binsize.ini, fixbits.ini (read-only). */
int rpg_maps_build_game(struct gfs_archive *ar);
/* The map's lump <arch>.<letter><NN> (or <N>.<letter>) when it has the views of kind, else NULL. */
struct rpg_lump *rpg_map_lump(struct rpg_model *m, long map, char letter, int kind);
/* check: NPCs beyond .N or outside the map, door links to missing doors or maps. */
size_t rpg_maps_check(struct gfs_archive *ar, FILE *out);
/* ---- rpg_tiled.c ---- */
/* In map dir: map.tmx and map.png of map, whose .T lump is t. */
int rpg_tiled_build(struct gfs_archive *ar, struct rpg_lump *t, struct gfs_node *dir, long map);
/* maps/tilesets/: the tilesets the TMX views point at that are no view of their own. */
int rpg_tiled_sets(struct gfs_archive *ar);
/* ---- rpg_scripts.c ---- */
/* Has l read-only views under scripts/ (HSP, PLOTSCR.LST, LOOKUP1.BIN)? */
int rpg_scripts_kind(struct gfs_archive *ar, struct rpg_lump *l);
int rpg_scripts_build(struct gfs_archive *ar);
/* ---- rpg_hsp.c ---- */
/* scripts/<name>.hss of each compiled script of HSP lump l, as views with ops and desc (rec: its lump). */
int rpg_hsp_build(struct gfs_archive *ar, struct rpg_lump *l, const struct gfs_node_ops *ops, const void *desc);
/* The decompiled text of lump k of HSP lump l. */
int rpg_hsp_render(struct gfs_archive *ar, struct rpg_lump *l, size_t k, struct gfs_buf *out);

/* ---- rpg_text.c (text fields, name lists, text boxes: rpg_text.h) ---- */
/*
 * The name of record id of the names/ list over lump (".ITM", ".DT0", ".DT1",
 * ".DT6", ".TMN", ".SHO", "SONGDATA.BIN", "SFXDATA.BIN", ".MN"), escaped as
 * names/ shows it, appended to out: 0, or -ENOENT when there is none.
 */
int rpg_record_name(struct gfs_archive *ar, const char *lump, long id, struct gfs_buf *out);
/* The view textboxes/NNNN.txt of text box rec of l (a record added by rpg_grow.c). */
int rpg_say_add(struct gfs_archive *ar, struct rpg_lump *l, size_t rec);

/* ---- rpg_records.c ---- */
/* What a reference field leads to: items (the number is the item; ITEM1: item + 1), ... */
enum { RF_ITEM, RF_ITEM1, RF_ATTACK1, RF_ENEMY1, RF_FORMATION1, RF_SONG1, RF_SFX1, RF_TAG, RF_HERO, RF_SCRIPT };
/*
 * The int16 v (its 16 bits) of a reference of kind ref (RF_*; ctx the
 * archive) as text: the number, then " ; " and the name of what it leads to
 * when that has one (a tag below 0: "; not NAME").  (struct gfs_rec_refs' fmt.)
 */
int rpg_ref_fmt(void *ctx, int ref, uint64_t v, struct gfs_buf *out);
/* Has l per-record INI views (a record lump with a known record size)? */
int rpg_records_kind(struct gfs_archive *ar, struct rpg_lump *l);
int rpg_records_build(struct gfs_archive *ar);
/* The INI view of record rec of l (a record added by rpg_grow.c), in its directory. */
int rpg_records_add(struct gfs_archive *ar, struct rpg_lump *l, size_t rec);
/*
 * What in the record lumps refers to record id of the kind whose lump is
 * target (".ITM", ".DT0", ".DT1", ".DT6" attacks, ".FOR", ".SAY" text
 * boxes): "dir/NNN key" appended to who, ", " between, the first six; how
 * many in all.  The record itself is not counted.
 */
size_t rpg_records_refs(struct gfs_archive *ar, const char *target, long id, struct gfs_buf *who);

/* ---- rpg_views.c ---- */
/* Which views a lump of a game has (RPG_K_*); reads RELOAD lumps whole. */
int rpg_view_kind(struct gfs_archive *ar, struct rpg_lump *l);
/* Make the decoded views of a game (after its lumps/ nodes exist). */
int rpg_views_build(struct gfs_archive *ar);
/* `gamefs check` of a game: inconsistencies as warning lines; returns how many. */
size_t rpg_views_check(struct gfs_archive *ar, FILE *out);
/* The views of map (layers, zones, its records, Tiled's) into dir, as the load makes them. */
int rpg_views_map(struct gfs_archive *ar, long map, struct gfs_node *dir);
/* A map layer's CSV (rpg_maps.c); tiles-K.csv of a layer l has now, if dir lacks it */
extern const struct gfs_node_ops rpg_layer_ops;
int rpg_maps_layer_view(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_node *dir, unsigned k);
/* Detach the views of a lump being deleted. */
void rpg_views_drop(struct gfs_archive *ar, struct rpg_lump *l);

#endif
