/*
 * tng.h - private model of the TirNanoG game driver.
 *
 * Files, each calling only the ones below it (no circles):
 *   tng_driver.c the driver table: probe, load, the tree, check, and the
 *                dispatch of create/rename/unlink/mkdir/rmdir (the top)
 *   tng_maps.c   nodes of assets and maps; maps made (mkdir, cp -r, a TMX
 *                saved into maps/) and removed (rm -r)
 *   tng_tiled.c  maps/<name>.tmx (Tiled, read and written back), the map
 *                and tileset PNGs: on the map views and sprites of tng_view.c
 *   tng_view.c   render/store of every view      tng_save.c  the writer
 *   tng_media.c  media files created, renamed, removed; records removed;
 *                numbered atlases, backgrounds and sprites made and removed
 *   tng_logic.c  scripts as assembly, records as INI, their files, references
 *   tng.c        the model: sections, assets, their content, gaps, file CRC,
 *                the section registry (the bottom, beside this header)
 *   codecs: tng_script.c bytecode <-> assembly, tng_handlers.c the scripts'
 *   places inside records, tng_records.c records and sections <-> INI
 *   (tables on the core record codec), tng_map.c, tng_sprite.c,
 *   tng_crc.c (CRC-32)
 *
 * On disk:
 *   0   64-byte header (magic, id, sizes, counts, uid, CRC at 56, key at 60)
 *   64  u32 n, the size of the compressed section block plus its CRC
 *   68  deflated section block (zlib or raw), then its u32 CRC
 *   68+n  assets, each found through a 16-byte descriptor in a section;
 *         asset offsets are relative to 68+n; map assets come last.
 * The inflated section block is a table of 8-byte entries (u32 offset,
 * u24 length, u8 type) followed by the section data.
 *
 * The model keeps the header, the inflated block as loaded, each section's
 * place in it (or its edited bytes), and one struct tng_asset per asset
 * descriptor.  Asset bodies stay in the file until a view needs them.
 */
#ifndef TNG_H
#define TNG_H

#include <stdint.h>
#include <stdio.h>
#include "gfs_driver.h"

#define TNG_MAGIC		"#!/usr/bin/tngp\n"
#define TNG_MAGIC_LEN		16
#define TNG_HDR_SIZE		64
#define TNG_OFF_ID		16
#define TNG_ID_LEN		16
#define TNG_OFF_REV		32
#define TNG_OFF_TYPE		33
#define TNG_OFF_TILEW		34
#define TNG_OFF_TILEH		35
#define TNG_OFF_MAPSIZE		36
#define TNG_OFF_ATLAS		37
#define TNG_OFF_FREQ		38
#define TNG_OFF_FPS		39
#define TNG_OFF_ACTIONS		40
#define TNG_OFF_LAYERS		41
#define TNG_OFF_TRANSPORTS	42
#define TNG_OFF_MAXCMD		43
#define TNG_OFF_DELTAY		44
#define TNG_OFF_SPRPERLAYER	45
#define TNG_OFF_PAD		46
#define TNG_OFF_UID		48
#define TNG_OFF_CRC		56
#define TNG_OFF_ENC		60
#define TNG_OFF_BLOCKLEN	64
#define TNG_OFF_BLOCK		68

#define TNG_TABENT		8	/* section table entry */
#define TNG_DESC		16	/* asset descriptor */
#define TNG_LANG_HDR		18	/* translation section header */
#define TNG_LANG_ASSET		2	/* its text asset descriptor */
#define TNG_DESC_LEN		8	/* descriptor: u32 length at 8 */
#define TNG_DESC_NAME		12	/* descriptor: u32 name at 12 */
#define TNG_SPR_DIRS		15	/* sprite descriptor: direction count */
#define TNG_SPR_HDR		6	/* sprite direction record header */
#define TNG_SPR_FRAME		14	/* sprite frame descriptor */
#define TNG_SPR_MAXFRAMES	32
#define TNG_SPR_MAXDIRS		8
#define TNG_SPR_MAXDIM		2048
/* the most bytes a sprite asset can hold */
#define TNG_SPR_MAX (TNG_SPR_MAXDIRS * (TNG_SPR_HDR + TNG_SPR_MAXFRAMES * TNG_SPR_FRAME))
#define TNG_MAP_HDR		34
#define TNG_MAP_PARALLAX	10
#define TNG_MAP_NPAR		29	/* u8 parallax records */
#define TNG_MAP_NPATH		30	/* u8 patrol paths */
#define TNG_MAP_RLELEN		31	/* u24 bytes of the layers' RLE */
#define TNG_LAYER_NPCS		5	/* a map layer of NPCs (section 28) by number */
#define TNG_LAYER_SPAWNERS	6	/* of spawners (section 29); the others hold tile sprites */

#define TNG_BLOCK_MAX		((size_t)64 << 20)	/* inflated section block cap */
#define TNG_ASSETS_MAX		((size_t)1 << 19)	/* asset descriptors cap */
#define TNG_LOAD_BUDGET		((uint64_t)512 << 20)	/* bytes inflated to check maps at load */
#define TNG_ZASSET_MAX		((size_t)32 << 20)	/* inflated asset cap */
#define TNG_SPLIT_MAX		((size_t)4 << 20)	/* records split into scripts at listing */
#define TNG_MAP_MAX		((size_t)96 << 20)	/* inflated map cap (16M RLE + paths) */
#define TNG_CHUNK		((size_t)1 << 20)	/* file bytes read at once */
#define TNG_MAP_CELLS_MAX	((size_t)16 << 20)	/* decoded map cells cap */

/* How a section is shown. */
enum tng_view {
	TNG_V_RAW,	/* sections/<NN>-<kind>.bin */
	TNG_V_STRINGS,	/* strings.txt */
	TNG_V_LANG,	/* lang/<code>/... */
	TNG_V_MEDIA,	/* named stored assets */
	TNG_V_IMAGE,	/* numbered PNG assets */
	TNG_V_SPRITE,	/* sprites/<cat>/ */
	TNG_V_ZBIN,	/* <kind>/<NNNN>.bin, inflated */
	TNG_V_MAP,	/* maps/<name>/ */
};

/* Section types (DESIGN.md section 5): the one set of their numbers. */
enum tng_stype {
	TNG_S_STRINGS, TNG_S_LANG, TNG_S_FONTS, TNG_S_MUSIC, TNG_S_SOUNDS, TNG_S_MOVIES,
	TNG_S_ATLASES, TNG_S_UISPR, TNG_S_TILESPR, TNG_S_CHARSPR, TNG_S_PORTRAITS, TNG_S_BACKS,
	TNG_S_UIELEM = 16, TNG_S_MAINMENU, TNG_S_HUD, TNG_S_EQUIP, TNG_S_ALERTS, TNG_S_CREDITS,
	TNG_S_CHOOSERS, TNG_S_CUTSCENES, TNG_S_STARTUP, TNG_S_ATTRS, TNG_S_ACTIONS, TNG_S_CHAROPTS,
	TNG_S_NPCS, TNG_S_SPAWNERS, TNG_S_DIALOGS, TNG_S_OBJECTS, TNG_S_CRAFTS, TNG_S_TILESMETA,
	TNG_S_MAPS, TNG_S_QUESTS, TNG_S_N
};

/* Where the scripts inside a section's (inflated) records are. */
enum tng_rkind {
	TNG_R_NONE,	/* no script */
	TNG_R_WHOLE,	/* the asset is one script (startup 24, default actions 26) */
	TNG_R_NPC,	/* 28: a list of event handlers */
	TNG_R_OBJECT,	/* 31: a list of event handlers */
	TNG_R_QUEST,	/* 35: the on-complete script */
	TNG_R_CUTSCENE,	/* 23: the cutscene script */
};

struct gfs_record;

/* What a section type is: one row of the section registry (tng.c). */
struct tng_kind {
	const char *name;	/* sections/<NN>-<name>.bin, or the directory */
	enum tng_view view;
	const char *ext;	/* media extension */
	unsigned recsize;	/* raw sections: record size, 0 = free form */
	const struct gfs_record *rec;	/* its records' (or the section's) table, or NULL */
	enum tng_rkind script;	/* the scripts inside its compressed records */
	int ref;		/* the enum tngs_ref that names its assets in scripts, or -1 */
	const char *index_field;	/* the descriptor's last field is this column, not a name */
};

/* The section registry (DESIGN.md section 5); an unknown type: a raw "unknown" row. */
const struct tng_kind *tng_kind_of(unsigned type);
/* The section type whose assets reference kind k names, or TNG_S_N for none. */
unsigned tng_ref_section(int k);

struct tng_sec {
	uint8_t type;
	uint32_t off, len;		/* in the inflated block as loaded */
	struct gfs_buf *edit;		/* replaced record data, or NULL */
	int raw_bad;			/* records do not fit: shown raw */
	struct gfs_node *dir;		/* media sections: where a new file becomes an asset */
};

enum tng_akind { TNG_A_STORED, TNG_A_ZBIN, TNG_A_TEXT, TNG_A_SPRITE, TNG_A_MAP };

struct tng_asset {
	unsigned sec;			/* section index */
	uint32_t dpos;			/* descriptor position in the section */
	unsigned idx;			/* record index in its section */
	enum tng_akind kind;
	uint64_t off, len;		/* relative to the data start */
	int wrap;			/* -1 unknown, else enum gfs_zwrap */
	uint8_t ndirs;			/* sprites: direction count */
	struct gfs_buf *pending;	/* new content (inflated if compressed) */
	struct gfs_node *node;		/* main node */
	struct gfs_node *dir;		/* its directory (sprite pngs, maps) */
	struct gfs_node *lazy_dir;	/* node not made yet: made when this directory is first used */
	unsigned num;			/* number in its kind (for names) */
	uint32_t nameoff;		/* its name in the strings section, or 0 */
	uint8_t named;			/* a record whose files are named by nameoff (tng_rec_stem) */
	uint64_t ino;			/* inode its lazily made node gets (reserved at load) */
	int gone;			/* removed: no descriptor, its bytes dropped at save */
	/* save scratch */
	struct gfs_buf *enc;
	uint64_t new_off, new_len;
};

struct tng {
	uint8_t hdr[TNG_HDR_SIZE];	/* current header (edits included) */
	uint64_t fsize;
	uint32_t blocklen;		/* n at offset 64 */
	uint64_t base;			/* 68 + n */
	struct gfs_buf block;		/* inflated section block as loaded */
	int bwrap;			/* enum gfs_zwrap of the block */
	int crc_comp;			/* section CRC over the compressed bytes */
	int hdr_crc_ok, sec_crc_ok;	/* -1 not checked yet */
	int hdr_edited;
	int secs_added;			/* sections made since the last commit (tng_sec_new) */
	long strsec;			/* index of the strings section, -1 none */
	int broken_assets;		/* assets shown raw because they do not decode */
	uint64_t budget;		/* inflating left for checks at load */
	struct tng_sec *secs;
	size_t nsecs;
	struct tng_asset *assets;
	size_t nassets;
	struct tng_ref *refpool;	/* the load's refs, one allocation (GFS_POOLS) */
	size_t refpool_len, refpool_used;
	/* save scratch */
	struct gfs_buf *new_block;
	uint32_t *new_secoff;
	uint32_t new_blocklen;
	uint64_t new_fsize;
	uint32_t new_crc;
	struct tng_crctab *crctab;	/* the whole-file pass: NULL before the load's end */
};

/*
 * One pass over the archive file (at mount, in the background for big
 * games, and after each commit over the new file): the header CRC's
 * verdict, and the CRC of every TNG_TAB_CHUNK of the file, from which a
 * commit combines the CRC of any span it copies without reading the old
 * file again (tng_crc_region()).
 */
#define TNG_TAB_CHUNK		((uint64_t)256 << 10)
#define TNG_CRC_NOW_MAX		((uint64_t)16 << 20)	/* checked during the load up to this size */
struct tng_crctab {
	uint64_t fsize;			/* of the file scanned */
	uint32_t stored;		/* its header's CRC field */
	uint32_t whole;			/* its CRC, the CRC field counted as zero */
	uint32_t *crc;			/* of each chunk; chunk 0 with the CRC field zeroed */
	size_t n;
	int ok;				/* the pass finished: whole and crc are right */
};

/* A node's handle on the model. */
#define TNG_NEW_ASSET ((size_t)-2)	/* a media file created, not stored yet */
struct tng_ref {
	struct tng *t;
	size_t asset;			/* index into t->assets, (size_t)-1, or TNG_NEW_ASSET */
	size_t sec;			/* index into t->secs */
	int sub;			/* layer or direction */
	int fresh;			/* a new map's file: empty until first written */
};

/* A parsed map asset (tng_map.c): offsets of its parts in p. */
struct tng_map {
	const uint8_t *p;
	size_t len;
	unsigned npar, npath;
	size_t rle, rlelen, tail;
	uint16_t *cells;	/* layers * size * size, when decoded */
	size_t ncells;
};

/* tng_sprite.c: the sprite map codec */
int tng_sprite_parse(const uint8_t *p, size_t len, uint8_t *ndirs, char *why, size_t whylen);
const char *tng_dir_name(unsigned dir);

/*
 * tng_map.c: map.ini's table (the header, parallax records, patrol paths;
 * its references: a title number or -1, a string, a sprite category:index)
 * and the map codec; ms is the map side, layers its layer count.
 */
enum { TNG_MREF_TITLE, TNG_MREF_STR, TNG_MREF_SPRITE };
struct gfs_record;
extern const struct gfs_record tng_map_rec;

int tng_map_parse(unsigned ms, unsigned layers, const uint8_t *p, size_t len, struct tng_map *m,
		  int decode, char *why, size_t whylen);
/* N of a layer's name "layerNN" followed by tail (".csv", ""), two digits; else ~0u. */
unsigned tng_layer_of(const char *name, const char *tail);
int tng_map_validate(unsigned ms, unsigned layers, const uint8_t *p, size_t len, char *why,
		     size_t whylen);
/* Appends head[0..headlen) (the header, parallaxes, paths) with rlelen set, rle, tail; -EINVAL: too long. */
int tng_map_build(const uint8_t *head, size_t headlen, const uint8_t *rle, size_t rlelen, const uint8_t *tail,
		  size_t taillen, struct gfs_buf *out);

/* tng.c: the model */
/* The asset a node of the tree shows. */
struct tng_asset *tng_ref_asset(struct gfs_node *n);
const uint8_t *tng_sec_data(struct tng *t, size_t i, size_t *len);
const char *tng_string_at(struct tng *t, uint32_t off, size_t *len);
/* The column name of the descriptor's name field in sections 24, 26, 31; NULL: it is a name. */
int tng_asset_content(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
		      size_t max, struct gfs_buf *out);
int tng_stored_equal(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
		     const uint8_t *p, size_t len);
int tng_stored_equal_buf(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
			 const struct gfs_buf *b);
int tng_asset_wrap(struct gfs_archive *ar, struct tng *t, struct tng_asset *a);
unsigned tng_map_size(const struct tng *t);
unsigned tng_map_layers(const struct tng *t);
struct tng_ref *tng_ref_new(struct tng *t, size_t asset, size_t sec, int sub);
void tng_ref_release(struct tng_ref *r);	/* NULL is fine */
/* tng_crc.c: the whole-file pass (a gfs_check_fn) and spans' CRCs from it */
struct tng_crctab *tng_crctab_new(const struct tng *t);
void tng_crctab_free(struct tng_crctab *tab);
int tng_crc_scan(struct gfs_archive *ar, void *arg, char *why, size_t whylen);
/*
 * Read the file [0, fsize) a TNG_CHUNK at a time, its CRC field zeroed, and
 * hand each piece to fn; -ECANCELED when the archive closes meanwhile, a
 * read error with *erroff where it failed.
 */
typedef void (*tng_walk_fn)(void *arg, const uint8_t *buf, uint64_t off, size_t n);
int tng_file_walk(struct gfs_archive *ar, uint64_t fsize, tng_walk_fn fn, void *arg,
		  uint64_t *erroff);
int tng_crc_region(struct gfs_archive *ar, const struct tng_crctab *tab, uint64_t off, uint64_t len,
		   uint32_t *crc);
/* After the load or a commit: check the file (now when small, else in the background). */
int tng_crc_schedule(struct gfs_archive *ar, struct tng *t);
void tng_ref_free(void *p);		/* ops->free of nodes holding a struct tng_ref */
/*
 * Adopt nb (taken) as the new content of n's asset, unless it equals the
 * current content: writing a view back unchanged changes nothing.
 */
void tng_set_pending(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *nb);
/* The same without the comparison, for a store that compared already. */
void tng_keep_pending(struct gfs_node *n, struct gfs_buf *nb);
/* Is p what asset a holds now (its pending content, else its bytes in the file)? */
int tng_asset_same(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
		   const uint8_t *p, size_t len);
/* CRC-32 of the archive file as it is now, its CRC field counted as zero. */
int tng_file_crc(struct gfs_archive *ar, struct tng *t, uint32_t *crc);
/* The bytes of the asset area no descriptor covers (out NULL: count them). */
int tng_gaps(struct gfs_archive *ar, struct tng *t, struct gfs_buf *out, uint64_t *total);
/* Indices of the assets with bytes, by offset (malloc'd); *n their count. */
size_t *tng_sorted_assets(struct tng *t, size_t *n);
/* Section i's data as an edit of its own (made from the current data on first use). */
struct gfs_buf *tng_sec_edit(struct tng *t, size_t i);
/* The offset of string s in the strings section, added at its end if it is not there. */
int tng_string_add(struct tng *t, const char *s, uint32_t *off);
/* The asset's name in its descriptor: name (added to the strings section); -EFBIG when that is full. */
int tng_asset_rename(struct tng *t, struct tng_asset *a, const char *name);
/* A new stored asset at the end of section si, named nameoff, empty: *ai its index. */
int tng_asset_new(struct tng *t, size_t si, uint32_t nameoff, size_t *ai);
/* A new empty section of type at the end of the table: *si its index. */
int tng_sec_new(struct tng *t, unsigned type, size_t *si);
/* Remove asset ai: its descriptor goes from its section, its bytes at the next save. */
int tng_asset_drop(struct tng *t, size_t ai);
/*
 * Numbered assets (atlases/NNNN.png, backs/NNNN.png, sprites/<cat>/NNNN.txt):
 * the section whose new files directory dir takes (the last of its type), or
 * -1; the next number of section si's type (removed assets do not count);
 * whether name is that number's file (-EINVAL said if not); and the first
 * content of a created file made its asset (a descriptor at the end of its
 * section, nameless: sprites get their direction count at save).
 */
long tng_numbered_section(const struct tng *t, const struct gfs_node *dir);
unsigned tng_numbered_next(const struct tng *t, size_t si);
int tng_numbered_name(struct gfs_archive *ar, const struct tng *t, size_t si, const char *name);
int tng_numbered_adopt(struct gfs_archive *ar, struct gfs_node *n);

/* tng_view.c */
extern const struct gfs_node_ops tng_lazy_dir_ops;
extern const struct gfs_node_ops tng_header_ops;
extern const struct gfs_node_ops tng_strings_ops;
extern const struct gfs_node_ops tng_texts_ops;
extern const struct gfs_node_ops tng_media_ops;
extern const struct gfs_node_ops tng_image_ops;
extern const struct gfs_node_ops tng_zbin_ops;
extern const struct gfs_node_ops tng_raw_ops;
extern const struct gfs_node_ops tng_sprite_ops;
extern const struct gfs_node_ops tng_strip_ops;
extern const struct gfs_node_ops tng_mapini_ops;
extern const struct gfs_node_ops tng_layer_ops;
extern const struct gfs_node_ops tng_lang_ops;
extern const struct gfs_node_ops tng_index_ops;
extern const struct gfs_node_ops tng_gaps_ops;

/* The header's tile width and height (10 bits each). */
void tng_tile_size(const struct tng *t, unsigned *w, unsigned *h);
struct tng_asset *tng_nth_of_type(struct tng *t, unsigned type, unsigned nth);
/* Current map bytes of map view n's asset, parsed (decode: cells too, malloc'd). */
int tng_map_get(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *b,
		struct tng_map *m, int decode);
/*
 * The map of view n changed: map.ini's text ini[0..inilen) (NULL: kept) over
 * its header, parallaxes and paths, and cells (NULL: kept) as its layers,
 * re-encoded only when they differ; adopted as the asset's new content.
 * view names the file in messages.
 */
int tng_map_store(struct gfs_archive *ar, struct gfs_node *n, const char *view, const uint8_t *ini,
		  size_t inilen, const uint16_t *cells);
/* Decoded atlases, shared by the renders that draw sprites. */
struct tng_atlas {
	unsigned id;
	uint8_t *rgba;			/* NULL: missing or does not decode */
	uint32_t w, h;
};
struct tng_atlases {
	struct tng_atlas *a;
	size_t n, cap;
};
struct tng_atlas *tng_atlas_get(struct gfs_archive *ar, struct tng *t, struct tng_atlases *c,
				unsigned id);
void tng_atlases_release(struct tng_atlases *c);
/* The first frame of sprite spr's first direction as w x h RGBA (malloc'd). */
int tng_sprite_image(struct gfs_archive *ar, struct tng *t, struct tng_asset *spr,
		     struct tng_atlases *c, uint8_t **rgba, unsigned *w, unsigned *h);

/* tng_tiled.c: the maps for Tiled (maps/<name>.tmx), rendered maps and tilesets */
extern const struct gfs_node_ops tng_tmx_ops;
extern const struct gfs_node_ops tng_mappng_ops;
extern const struct gfs_node_ops tng_tileset_ops;	/* ref->sub: enum tng_tset */
enum tng_tset { TNG_TS_TILES, TNG_TS_NPCS, TNG_TS_SPAWNERS, TNG_TS_N };
extern const char *const tng_ts_name[TNG_TS_N];
/* Has the game type an orientation in Tiled (not 3D)? */
int tng_tiled_supported(const struct tng *t);

/* tng_handlers.c: the scripts inside records */
struct tng_hand {
	uint8_t type;		/* event handler type (lists) */
	uint32_t param;
	const uint8_t *code;
	size_t len;
};
struct tng_split {
	size_t pre;		/* bytes before the scripts */
	struct tng_hand *h;
	size_t nh;
	size_t tail;		/* offset of the bytes after them */
};
int tng_rkind_lists(enum tng_rkind k);
size_t tng_rec_prefix(enum tng_rkind k, const uint8_t *p, size_t len);
int tng_split(enum tng_rkind k, const uint8_t *p, size_t len, struct tng_split *s);
void tng_split_release(struct tng_split *s);
int tng_join(enum tng_rkind k, const uint8_t *pre, size_t prelen, const struct tng_hand *h,
	     size_t nh, const uint8_t *tail, size_t taillen, struct gfs_buf *out);
void tng_handler_name(unsigned type, char *out, size_t outlen);
int tng_handler_type(const char *name, size_t len);

/*
 * tng_records.c: records (22, 23, 27-32, 35) and sections (16-21, 25, 33) as
 * INI, tables on the core record codec; a record with scripts is given
 * without them (its bytes before the scripts).  transports: header byte 42
 * (section 33's record size).  Names come through nm (struct tngs_names).
 */
struct tngs_names;
/* The record tables of the section registry's rows (tng_records.c). */
extern const struct gfs_record tng_uielem_rec, tng_mainmenu_rec, tng_hud_rec, tng_equip_rec,
	tng_alerts_rec, tng_credits_rec, tng_chooser_rec, tng_cutscene_rec, tng_attrs_rec,
	tng_charopt_rec, tng_npc_rec, tng_spawner_rec, tng_dialog_rec, tng_object_rec, tng_craft_rec,
	tng_quest_rec;
/* The i-th record table of the registry (then the main menu's intro, lang.ini's), NULL past them: fuzz. */
const struct gfs_record *tng_layout_nth(size_t i);
extern const struct gfs_record tng_lang_rec;	/* tng_view.c */
int tng_rec_known(unsigned type);
/* Does p[0..len) decode, every byte in a field or group of the kind's table? */
int tng_rec_decodes(unsigned type, unsigned transports, const uint8_t *p, size_t len);
/* The shortest record of type that decodes, all zeros (every count 0): a new record's base. */
int tng_rec_blank(unsigned type, unsigned transports, struct gfs_buf *out);
int tng_rec_render(unsigned type, unsigned transports, const uint8_t *p, size_t len,
		   const struct tngs_names *nm, struct gfs_buf *out);
/* The INI text[0..len) over the bytes old: the new bytes into out; -EINVAL with the view named. */
int tng_rec_parse(struct gfs_archive *ar, const char *view, unsigned type, unsigned transports,
		  const uint8_t *old, size_t oldlen, const uint8_t *text, size_t len,
		  const struct tngs_names *nm, struct gfs_buf *out);
/* The same for a new record: over a blank one whose sprites are none (-1). */
int tng_rec_parse_new(struct gfs_archive *ar, const char *view, unsigned type, unsigned transports,
		      const uint8_t *text, size_t len, const struct tngs_names *nm, struct gfs_buf *out);
/* Does a record (or section) of this type name v as a k (enum tngs_ref: a media name, an attribute)? */
int tng_rec_refers(unsigned type, unsigned transports, const uint8_t *p, size_t len, int k,
		   uint32_t v);
/*
 * Calls fn with the name of each attribute of section 25 (up to the first
 * that does not decode); stops at fn's first non-zero return and returns it.
 */
int tng_attr_each(const uint8_t *p, size_t len, int (*fn)(uint32_t nameoff, void *ctx), void *ctx);
/* Section 25's attributes and their scripts: kind 1 on change, 2 expression, 0 none. */
int tng_attr_count(const uint8_t *p, size_t len, size_t *n);
int tng_attr_script(const uint8_t *p, size_t len, size_t k, uint32_t *nameoff,
		    const uint8_t **code, size_t *n);
/* The section with attribute k's script replaced: -ENOENT (none), -E2BIG (too long). */
int tng_attr_set_script(const uint8_t *p, size_t len, size_t k, const uint8_t *code, size_t n,
			struct gfs_buf *out);

/* tng_logic.c: the game logic as text */
/*
 * Record files are named by the record's name (its descriptor's string)
 * where that is a plain word (printable ASCII, no blank, '.', '/' or '\\',
 * not all digits, at most 64 bytes) no other record of its kind has, else
 * by the record's number NNNN.  Marked once at load (a->named).
 */
/* Can s[0..n) name a record's files: printable ASCII without blank, '.', '/', '\\', not all digits? */
int tng_stem_ok(const char *s, size_t n);
int tng_stems_mark(struct tng *t);
#define TNG_STEM_MAX	64	/* longest record name that names its files */
void tng_rec_stem(struct tng *t, const struct tng_asset *a, char *out, size_t outlen);
extern const struct gfs_node_ops tng_script_ops;	/* <kind>/<NNNN>.tngs, a whole asset */
extern const struct gfs_node_ops tng_recini_ops;	/* <kind>/<record>.ini: the record without its scripts */
extern const struct gfs_node_ops tng_hscript_ops;	/* <kind>/<record>.<handler>.tngs */
/* tng_names.c: the names of references against the game (release with tng_names_release()). */
struct tng_namectx {
	struct gfs_archive *ar;
	struct tng *t;
	int texts_loaded;
	struct gfs_buf texts;	/* the first language's texts, NUL-separated */
	size_t ntexts;		/* texts every language has */
	const char **text;	/* [ntexts] into texts */
};
struct tngs_names;
void tng_names(struct gfs_archive *ar, struct tng *t, struct tng_namectx *c, struct tngs_names *nm);
void tng_names_release(struct tng_namectx *c);
enum tng_rkind tng_rkind_of(const struct tng *t, const struct tng_asset *a);
/* A handler's sub-node number: its type and which of that type it is (0 the first). */
#define HSUB(type, occ)	((int)((unsigned)(type) | (unsigned)(occ) << 8))
#define HTYPE(sub)	((unsigned)(sub) & 0xff)
#define HOCC(sub)	((unsigned)(sub) >> 8)
/* The file name of a record's script: STEM.on_click.tngs, STEM.on_click-2.tngs, STEM.script.tngs... */
void tng_hscript_name(enum tng_rkind k, const char *stem, int sub, char *out, size_t outlen);
/* The assembly text of code, names resolved against the game (tng_logic.c). */
int tng_script_text(struct gfs_archive *ar, struct tng *t, const uint8_t *code, size_t len,
		    struct gfs_buf *out);
extern const struct gfs_node_ops tng_secini_ops;	/* sections/<NN>-<kind>.ini, attributes/attributes.ini */
extern const struct gfs_node_ops tng_ascript_ops;	/* attributes/<NAME>.on_change.tngs, .expression.tngs */
/* The nodes of section si as INI (and its scripts): 0, 1 (it does not decode: show it raw), -errno. */
int tng_logic_section(struct gfs_archive *ar, struct tng *t, size_t si);
/* The nodes of a record in dir: 0, 1 (it does not decode: show it whole, as bytes), or -errno. */
int tng_logic_nodes(struct gfs_archive *ar, struct tng *t, size_t ai, struct gfs_node *dir);
/*
 * The section a new NAME.ini in record directory dir becomes a record of
 * (the last of its kind; kinds with an INI view, not whole scripts); -1 none.
 */
long tng_record_section(struct gfs_archive *ar, const struct tng *t, const struct gfs_node *dir);
/* Another record of section si's kind than skip named s[0..n), or NULL. */
const struct tng_asset *tng_record_named(struct tng *t, size_t si, const struct tng_asset *skip,
					 const char *s, size_t n);
int tng_logic_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		     struct gfs_node **out);
int tng_logic_unlink(struct gfs_archive *ar, struct gfs_node *n);
/* `gamefs check` of the scripts: warnings printed to out, their count returned. */
size_t tng_logic_check(struct gfs_archive *ar, struct tng *t, FILE *out);
/*
 * Does a script, a record or a section refer to v as a k (enum tngs_ref)?
 * 1 and its file in who, else 0.
 */
int tng_logic_referrer(struct gfs_archive *ar, struct tng *t, int k, uint32_t v, char *who,
		       size_t wholen);

/* tng_media.c: media files created, renamed and removed */
int tng_media_dir(const struct tng *t, const struct gfs_node *dir);	/* takes new files? */
int tng_media_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		     struct gfs_node **out);
/* The first content of a created media file: its asset and name are made now. */
int tng_media_adopt(struct gfs_archive *ar, struct gfs_node *n);
int tng_media_unlink(struct gfs_archive *ar, struct gfs_node *n);
/*
 * Removing <kind>/NAME.ini: a record named by what refers to it when nothing
 * does, a numbered one when it is the last of its kind and no map places it;
 * removing atlases/NNNN.png, backs/NNNN.png, sprites/<cat>/NNNN.txt: the last
 * number, when nothing draws from it or shows it (EBUSY naming what does).
 */
int tng_asset_unlink(struct gfs_archive *ar, struct gfs_node *n);
int tng_media_rename(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		     const char *newname);
/* mv <kind>/OLD.ini <kind>/NEW.ini: the record renamed (EBUSY where something names it by its name). */
int tng_record_rename(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		      const char *newname);
/*
 * After a removal or a rename: the names added to the strings section since
 * the last commit, from its end, that nothing has or names any more go.
 */
void tng_names_trim(struct gfs_archive *ar, struct tng *t);
/* A new atlases/NNNN.png, backs/NNNN.png, sprites/<cat>/NNNN.txt (the next number); 1: not such a dir. */
int tng_numbered_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
			struct gfs_node **out);
#define TNG_IMAGE_MAX_SIDE	0xffff	/* a background image's side, at most */
/*
 * The largest side of an atlas: 2^atlas_size_log2 of the header (the
 * engine's atlas texture), or TNG_IMAGE_MAX_SIDE where that is 0 or past 15.
 */
uint32_t tng_atlas_max_side(const struct tng *t);
/* Do the frames of every sprite drawn from atlas fit in aw x ah pixels? 0 or -EINVAL and why */
int tng_atlas_fits(struct gfs_archive *ar, struct tng *t, const struct tng_asset *atlas,
		   uint32_t aw, uint32_t ah, char *why, size_t whylen);

/*
 * tng_maps.c: nodes of assets (a safe unique name; the ref freed on
 * failure), maps' nodes, and maps made and removed through the mount.
 */
struct gfs_node *tng_unique_dir(struct gfs_archive *ar, struct gfs_node *parent, const char *name);
struct gfs_node *tng_file(struct gfs_archive *ar, struct gfs_node *dir, const char *name, mode_t mode,
			  const struct gfs_node_ops *ops, struct tng_ref *ref);
struct gfs_node *tng_span(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
			  const struct gfs_node_ops *ops, struct tng_ref *ref, uint64_t off, uint64_t len);
/* "name.ext" from the descriptor's string, or "NNNN.ext". */
void tng_asset_name(struct tng *t, uint32_t stroff, unsigned idx, const char *ext, char *out,
		    size_t outlen);
/* File l of map asset ai's folder d: its map.ini (l -1, the asset's node) or layer l's CSV. */
struct gfs_node *tng_map_file(struct gfs_archive *ar, struct tng *t, size_t ai, struct gfs_node *d,
			      int l);
int tng_map_nodes(struct gfs_archive *ar, struct tng *t, struct tng_asset *a, struct gfs_node *maps,
		  uint32_t stroff, unsigned num, int files, struct gfs_node *tmx);
/* mkdir maps/NAME: a new empty map. */
int tng_map_mkdir(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		  struct gfs_node **out);
/* map.ini or layerNN.csv created in a map's folder; 1: dir is not a map's folder. */
int tng_map_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		   struct gfs_node **out);
/* maps/NAME.tmx created: a new map NAME when its content is stored; 1: not a .tmx. */
int tng_map_tmx_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		       struct gfs_node **out);
/* rm -r maps/NAME: its files (when nothing leads to the map), then the folder, the map. */
int tng_map_file_unlink(struct gfs_archive *ar, struct gfs_node *n);
int tng_map_tmx_is(const struct gfs_node *n);	/* maps/NAME.tmx? */
int tng_map_rmdir(struct gfs_archive *ar, struct gfs_node *dir);
/* mv maps/OLD maps/NEW (or OLD.tmx NEW.tmx): the map renamed, its TMX and PNG too. */
int tng_map_rename(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		   const char *newname);

/* tng_crc.c: the same CRC-32 as gfs_crc32(), faster on big buffers */
uint32_t tng_crc32(uint32_t crc, const uint8_t *p, size_t len);

/* tng_save.c */
int tng_save(struct gfs_archive *ar, struct gfs_writer *w);
void tng_committed(struct gfs_archive *ar);

#endif
