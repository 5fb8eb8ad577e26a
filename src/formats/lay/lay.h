/*
 * lay.h - private header of the MAGES .lay sprite layout driver.
 *
 * The model is the decoded layout (sprite and chunk tables, trailing bytes)
 * plus what is known about the companion atlas image.  lay.c loads, saves
 * and builds the tree; lay_view.c renders and parses layout.ini,
 * sprites.csv and chunks.csv; lay_draw.c reads the atlas and composes the
 * variants.
 */
#ifndef GFS_LAY_H
#define GFS_LAY_H

#include <stddef.h>
#include <stdint.h>
#include "gfs_driver.h"
#include "gfs_record.h"

/* On-disk layout (all little-endian). */
#define LAY_HDR_SIZE		8	/* u32 sprite_count, u32 chunk_count */
#define LAY_H_SPRITES		0
#define LAY_H_CHUNKS		4
#define LAY_SPRITE_SIZE		12	/* u8 id, u8 dep, u8 c, u8 type, u32 offset, u32 count */
#define LAY_SP_ID		0
#define LAY_SP_DEP		1
#define LAY_SP_C		2
#define LAY_SP_TYPE		3
#define LAY_SP_OFF		4	/* u32: first chunk */
#define LAY_SP_COUNT		8	/* u32: chunks */
#define LAY_CHUNK_SIZE		16	/* f32 dst_x, dst_y, src_x, src_y */

/* Sprite types (the fourth info byte). */
#define LAY_T_BASE		0x00
#define LAY_T_SUB		0x20
#define LAY_T_DEP30		0x30
#define LAY_T_DEP40		0x40
#define LAY_T_OVERLAY		0x50
#define LAY_T_DEP60		0x60

/*
 * Geometry: chunks sit on a 32-pixel grid of the atlas with a 1-pixel
 * border; src points at the first interior pixel and the engine draws the
 * 30x30 interior at dst.
 */
#define LAY_CELL		30

/* Caps before any allocation. */
#define LAY_MAX_FILE		(64u << 20)	/* layout, raw or inflated */
#define LAY_MAX_SPRITES		65536u		/* more reads as compressed to the engine */
#define LAY_MAX_CHUNKS		(1u << 22)
#define LAY_MAX_COORD		16777216.0f	/* 2^24: beyond, floats skip integers */
#define LAY_MAX_DIM		16384u		/* atlas and canvas sides */
#define LAY_MAX_PIXELS		(1u << 24)	/* atlas and canvas area (64 MiB RGBA) */
#define LAY_MAX_ATLAS_FILE	(256u << 20)
#define LAY_MAX_VARIANTS	1024u		/* games have a few dozen */
#define LAY_MAX_DRAW		16384u		/* chunks drawn for one variant (games: ~1500) */
#define LAY_MAX_WARN		16		/* skip reasons logged at once */

struct lay_sprite {
	uint8_t id, dep, c, type;
	uint32_t off, count;
};

/* Raw IEEE bits, so untouched values are written back exactly. */
struct lay_chunk {
	uint32_t v[4];		/* dst_x, dst_y, src_x, src_y */
};

struct lay {
	struct lay_sprite *sp;
	size_t nsp;
	struct lay_chunk *ch;
	size_t nch;
	struct gfs_buf tail;	/* bytes after the chunk list (inside the stream if compressed) */
	struct gfs_buf ztail;	/* bytes after the zlib stream */
	struct gfs_buf orig;	/* the layout as last loaded or committed (inflated) */
	int compressed;		/* wanted on the next save */
	int file_compressed;	/* as on disk now */
	int edited;		/* model may differ from orig */
	struct gfs_buf pending;	/* raw image written by save(), adopted by committed() */
	int pending_valid;

	/* the companion image */
	char *atlas_opt;	/* -o atlas=PATH, NULL: NAME.png beside the layout */
	char *atlas_path;	/* NULL: none */
	int atlas_id;		/* its number as the archive's companion file */
	char *atlas_name;	/* shown in layout.ini */
	char note[256];		/* why there are no variants, "" otherwise */
	uint32_t aw, ah;	/* its size, 0 when unusable */
	uint8_t *rgba;		/* decoded, lazily */
	int atlas_bad;		/* decoding failed: do not retry until it changes */
	struct gfs_buf *atlas_new;	/* stored edit, not yet on disk */
	int atlas_saved;	/* save() gave atlas_new to the commit */

	/* the shared canvas: bounding box of all drawable chunks */
	int have_canvas;
	int32_t cx0, cy0;
	uint32_t cw, chh;
	char cnote[128];	/* why there is no canvas */

	struct gfs_node *vdir;	/* variants/, NULL without an atlas */
	struct gfs_node *tail_node;	/* tail.bin, NULL while there is none */
	size_t nvariants, nskipped;

	/* lookups for the variants (lay_draw.c), rebuilt when idx_valid is 0 */
	int idx_valid;
	size_t base_idx;	/* first base sprite, SIZE_MAX: none */
	size_t sub_of[256];	/* last sub sprite of each id, SIZE_MAX: none */
	uint32_t *next_bad;	/* [k]: first undrawable chunk >= k (nch: none) */
};

/* lay_codec.c: the layout (lay_file_rec: groups "sprites" and "chunks") and its two records */
extern const struct gfs_record lay_file_rec, lay_sprite_rec, lay_chunk_rec;
const struct gfs_record *lay_layout_nth(size_t i);
/* The sprite and chunk tables as stored, and one element of them back (lay.c). */
int lay_sprites_raw(const struct lay_sprite *sp, size_t n, struct gfs_buf *b);
int lay_chunks_raw(const struct lay_chunk *ch, size_t n, struct gfs_buf *b);
void lay_sprite_of(const uint8_t *p, size_t i, struct lay_sprite *s);
void lay_chunk_of(const uint8_t *p, size_t i, struct lay_chunk *c);

extern const struct gfs_node_ops lay_ini_ops, lay_sprites_ops, lay_chunks_ops, lay_bytes_ops;
float lay_f(uint32_t bits);
uint32_t lay_bits(float f);
int lay_is_int(float f);
void lay_canvas(struct lay *L);

/* lay_draw.c */
extern const struct gfs_node_ops lay_atlas_ops, lay_variant_ops;
int lay_png_dims(const uint8_t *data, size_t len, uint32_t *w, uint32_t *h);
int lay_atlas_probe(struct gfs_archive *ar, struct lay *L);
size_t lay_chain(struct lay *L, size_t i, size_t chain[3]);
int lay_variant_name(const struct lay *L, size_t i, char *buf, size_t len);
int lay_variant_ok(struct lay *L, size_t i, char *why, size_t whylen);
int lay_build_variants(struct gfs_archive *ar, struct lay *L, int warn);
int lay_atlas_save(struct gfs_archive *ar, struct lay *L, struct gfs_writer *w);
void lay_atlas_commit(struct lay *L);

#endif
