/*
 * rpg_draw.h - OHRRPGCE tiles as the engine draws them: the TIL pages,
 * their TAP animations and the master palette (rpg_tilesets.c), shared by
 * map.png and map.tmx (rpg_tiled.c) and maps/tilesets/.
 */
#ifndef RPG_DRAW_H
#define RPG_DRAW_H

#include "rpg.h"

#define TILE		20
#define TS_COLS		16
#define TS_TILES	160		/* tiles of a TIL page */
#define ANIM_TILES	96		/* bytes 160-255: two ranges of 48 */
#define ANIM_RANGE	48
#define PAGE_W		320
#define PAGE_H		200
#define PAGE_BYTES	(PAGE_W * PAGE_H)
#define PAGE_PLANE	(PAGE_BYTES / 4)
#define TAP_REC		80		/* 2 patterns of 20 int16; the first is the start tile */
#define TAP_PATTERN	40
#define GID_SPAN	256
#define MASTER_BYTES	768

/* What the map's pixels come from: the TIL pages (read as they are needed), TAP, the master palette */
struct rpg_draw {
	struct gfs_archive *ar;
	struct rpg_lump *til;
	long ts[RPG_MAP_MAX_LAYERS];
	uint8_t *page[RPG_MAP_MAX_LAYERS];
	unsigned npages;
	struct gfs_buf tap;
	uint8_t rgb[MASTER_BYTES];
};


void rpg_draw_load(struct gfs_archive *ar, struct rpg_draw *d);
void rpg_draw_release(struct rpg_draw *d);
/* Page ts of the TIL lump, or NULL when there is none (its tiles draw colour 0) */
const uint8_t *rpg_page(struct rpg_draw *d, long ts);
/* The tile of page ts that byte v draws: itself, or its animation's first frame */
unsigned rpg_tile_of(const struct rpg_draw *d, long ts, unsigned v);
/* The colour index of pixel (x, y) of a tile of a Mode-X page */
uint8_t rpg_tile_px(const uint8_t *page, unsigned tile, unsigned x, unsigned y);

/* The first lump whose name ends in suffix, or NULL */
struct rpg_lump *rpg_kind_lump(struct rpg_model *m, const char *suffix);
/* A read-only view of lump l (record rec) named name in dir */
int rpg_add_ro(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_node *dir, const char *name,
	       const struct gfs_node_ops *ops, size_t rec);

#endif
