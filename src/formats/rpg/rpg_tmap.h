/*
 * rpg_tmap.h - an OHRRPGCE map's lumps as map.tmx and map.png read them
 * (rpg_tiled.c; map.png drawn in rpg_mappng.c).
 */
#ifndef GFS_RPG_TMAP_H
#define GFS_RPG_TMAP_H

#include "rpg.h"

#define MAP_RENDER_MAX	((uint64_t)16 << 20)	/* pixels of map.png */
#define MAP_WALK_LAYER	31		/* MAP field: layers drawn below the walkabouts (0: 2) */
#define MAP_ENABLE	19		/* MAP field: bit k-1 shows layer k (layer 0 is always drawn) */
#define L_HDR		7		/* .L: 7 bytes, then arrays of 300 int16: x, y+1, npc+1, dir, frame(, pool) */
#define L_SLOTS		300
#define DOX_REC		600		/* DOX: per map, arrays of 100 int16: x, y+1, flags (bit 0: exists) */
#define DOORS		100
#define NPC_OBJ		1		/* object ids: NPC slot s is 1 + s, door d 1 + 300 + d */
#define DOOR_OBJ	(NPC_OBJ + L_SLOTS)
#define NEXT_OBJ	(DOOR_OBJ + DOORS)
#define WALK_SETS	32		/* walkabout tilesets a map.tmx shows NPCs with */
#define WALK_FRAMES	8

/* One of the map's .T/.P/.E lumps, its content read */
struct rpg_grid {
	struct rpg_lump *l;
	struct gfs_buf b;
	unsigned w, h, n;
};

struct rpg_tmap {
	struct rpg_grid g[3];			/* T, P, E */
	long ts[RPG_MAP_MAX_LAYERS];		/* tileset of each tile layer */
	long used[RPG_MAP_MAX_LAYERS];		/* tilesets in first use order */
	unsigned nused;
	struct rpg_lump *mapl;			/* the MAP lump holding the map's record, or NULL */
	uint64_t enable_at;			/* where in it its layer_enable word is */
	uint64_t rec_at;			/* where in it the map's record is */
	unsigned rs;				/* that record's size */
	unsigned enable;			/* that word (bit k-1: layer k shown); 0xffff without one */
	unsigned walk_layer;			/* MAP field 31: layers drawn below the NPCs (0: 2) */
	struct rpg_lump *npcl, *doxl;		/* the map's .L (NPC instances) and DOX, when usable */
	struct gfs_buf npcb, doxb;
	size_t dox_at;				/* the map's record in DOX */
	unsigned npc_pool;			/* .L has the pool array */
	long walk[WALK_SETS];			/* walkabout sets the NPC objects show, first use order */
	unsigned nwalk;
};

enum { G_T, G_P, G_E, G_WALK };

void rpg_tmap_release(struct rpg_tmap *tm);
/* The map's lumps, read (a missing or unusable .P/.E has n = 0). */
int rpg_tmap_load(struct gfs_archive *ar, struct gfs_node *n, struct rpg_tmap *tm);
/* int16 c of entry i of the .L arrays (300 a column) */
uint8_t *rpg_npc_word(const struct rpg_tmap *tm, unsigned c, unsigned i);
int rpg_npc_used(const struct rpg_tmap *tm, unsigned s);
/* NPC type id (global: of GLOBALNPCS1.N) of map: its walkabout set and palette; 0 when there is none */
int rpg_npc_look(struct gfs_archive *ar, long map, long id, int global, long *set, long *pal);
/* Does the engine draw tile layer k (map.ini's layer_enable)? */
int rpg_layer_shown(const struct rpg_tmap *tm, unsigned k);
/* Byte (x, y) of layer k of grid, 0 outside it */
uint8_t rpg_cell(const struct rpg_grid *g, unsigned k, unsigned x, unsigned y);

extern const struct gfs_node_ops rpg_mappng_ops;

#endif
