/*
 * rpg_tmap.h - an OHRRPGCE map's lumps as map.tmx and map.png read them
 * (rpg_tiled.c; map.png drawn in rpg_mappng.c).
 */
#ifndef GFS_RPG_TMAP_H
#define GFS_RPG_TMAP_H

#include "rpg.h"
#include "gfs_record.h"

#define MAP_RENDER_MAX	((uint64_t)16 << 20)	/* pixels of map.png */
#define MAP_WALK_LAYER	31		/* MAP field: layers drawn below the walkabouts (0: 2) */
#define MAP_ENABLE	19		/* MAP field: bit k-1 shows layer k (layer 0 is always drawn) */
#define L_SLOTS		300		/* NPC slots of a .L (npcs.csv) */
#define DOORS		100		/* doors of a map's DOX record (doors.csv) */
#define NPC_OBJ		1		/* object ids: NPC slot s is 1 + s, door d 1 + 300 + d */
#define DOOR_OBJ	(NPC_OBJ + L_SLOTS)
#define NEXT_OBJ	(DOOR_OBJ + DOORS)
#define WALK_SETS	32		/* walkabout tilesets a map.tmx shows NPCs with */
#define WALK_FRAMES	8

/* The tile-map lump (.T/.P/.E), declared once (rpg_mapfile.c): 7 bytes, int16 width and height, layers */
extern const struct gfs_record rpg_map_rec;
/* rpg_map_dims() of lump l (NULL: 0) as len bytes long (layers may be NULL) */
int rpg_map_lump_dims(struct gfs_archive *ar, struct rpg_lump *l, uint64_t len, unsigned *w, unsigned *h,
		      unsigned *layers);
/* Where cell (x, y) of layer k of a w x h map is in its lump */
size_t rpg_map_at(unsigned w, unsigned h, unsigned k, unsigned x, unsigned y);
/* The lump b with n layers (new ones zeros, before the bytes after the last), or -errno */
int rpg_map_layers(struct gfs_buf *b, unsigned n);
/* b a new w x h lump of layers zero layers, its first 7 bytes hdr's (NULL: zeros) */
int rpg_map_new(struct gfs_buf *b, const uint8_t *hdr, unsigned w, unsigned h, unsigned layers);
/* The lump b as a w x h map: each layer cut or padded with 0 at the right and bottom */
int rpg_map_resize(struct gfs_buf *b, unsigned w, unsigned h);
/* The format's record tables, for the fuzz target (gfs_format.layout) */
const struct gfs_record *rpg_layout_nth(size_t i);

/* The int16 tables of rpg_maps.c (npcs.csv, npc-types.csv, doors.csv, door-links.csv), columns of some */
enum { RPG_T_NPCS, RPG_T_NTYPES, RPG_T_DOORS, RPG_T_LINKS };
enum { NPC_X, NPC_Y, NPC_ID, NPC_DIR, NPC_FRAME, NPC_POOL };	/* y and id stored +1 */
enum { NTYPE_PICTURE, NTYPE_PALETTE };
enum { DOOR_X, DOOR_Y, DOOR_FLAGS };				/* y stored +1; flags bit 0: it exists */
enum { OBJ_X, OBJ_Y };						/* x, y: the same columns of both */
/* Column c of element i of table t in a lump of len bytes (rec: of doors.csv, the map): 1 and *at, or 0; in l, *v */
int rpg_tab_at(struct gfs_archive *ar, int t, size_t rec, uint64_t len, size_t i, unsigned c, size_t *at);
int rpg_tab_get(struct gfs_archive *ar, struct rpg_lump *l, int t, size_t rec, size_t i, unsigned c, int16_t *v);

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
	long map;				/* the map's number (its record in DOX) */
	unsigned npc_pool;			/* .L has the pool array */
	long walk[WALK_SETS];			/* walkabout sets the NPC objects show, first use order */
	unsigned nwalk;
};

enum { G_T, G_P, G_E, G_WALK };

void rpg_tmap_release(struct rpg_tmap *tm);
/* The map's lumps, read (a missing or unusable .P/.E has n = 0). */
int rpg_tmap_load(struct gfs_archive *ar, struct gfs_node *n, struct rpg_tmap *tm);
/* The int16 of column c (NPC_X...; door: DOOR_X...) of NPC slot i (door: door i); is it used? */
uint8_t *rpg_obj_word(const struct rpg_tmap *tm, int door, unsigned c, unsigned i);
int rpg_obj_used(const struct rpg_tmap *tm, int door, unsigned i);
/* NPC type id (global: of GLOBALNPCS1.N) of map: its walkabout set and palette; 0 when there is none */
int rpg_npc_look(struct gfs_archive *ar, long map, long id, int global, long *set, long *pal);
/* Does the engine draw tile layer k (map.ini's layer_enable)? */
int rpg_layer_shown(const struct rpg_tmap *tm, unsigned k);
/* Byte (x, y) of layer k of grid, 0 outside it */
uint8_t rpg_cell(const struct rpg_grid *g, unsigned k, unsigned x, unsigned y);

extern const struct gfs_node_ops rpg_mappng_ops;

#endif
