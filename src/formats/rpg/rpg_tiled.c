/*
 * rpg_tiled.c - OHRRPGCE maps for Tiled.
 *
 *   maps/NN-name/map.tmx   the map's .T layers (tiles-K), .P walls and .E
 *                          foes as tile layers of one orthogonal TMX of
 *                          20x20 tiles, the .T size; editable.  A tile
 *                          layer above 0 is visible="0" where the MAP
 *                          record's layer_enable hides it, and its
 *                          visibility is written back there.  Object
 *                          groups "npcs" (the used .L slots, object id
 *                          1 + slot) and "doors" (the map's existing DOX
 *                          doors, id 301 + door): 20x20 rectangles on
 *                          their tiles (an NPC whose picture the game
 *                          has: a tile object of tileset walkabout-NNN,
 *                          its frame 2 x direction); moving one moves its
 *                          NPC or door
 *   maps/NN-name/map.png   the shown .T layers drawn in order as the engine
 *                          does (layer 0 opaque; above it tile 0 and
 *                          colour 0 clear) and the NPCs at rest between
 *                          them (the walkabout layer), read-only
 *   maps/tilesets/         the tiles these draw from (rpg_tilesets.c)
 *
 * Gids: the tilesets the map's layers use (MAP fields 0, 22-30, 370-377)
 * in the order the layers first use them; the i-th has first gid
 * 1 + 256 i and is the 160 tiles of ../../tilesets/NN.png followed by the
 * 96 of NN-animated.png, so gid = first + tile byte.  walls and foes come
 * after them, gid = first + byte, and byte 0 (no wall, no foe) is gid 0.
 * Then, for each tileset a layer above 0 uses, NN-upper (all 256 bytes,
 * colour 0 clear as the engine draws those layers): the upper layers'
 * gids are first + byte of it, and their tile 0 is gid 0 (the engine
 * draws nothing).  Read back, a layer takes a gid of any of its
 * tileset's three.  An empty cell in a tile layer is tile 0.  A .P/.E
 * smaller than the .T shows 0 past its edge (and takes only 0 there); one
 * larger keeps its cells past the .T's edge.  A TMX of another size resizes
 * the map (rpg_resize.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gfs_tmx.h"
#include "rpg.h"
#include "rpg_draw.h"
#include "rpg_grow.h"
#include "rpg_resize.h"
#include "rpg_tmap.h"

/* the MAP fields of each layer's tileset (0: the map's, n: tileset n-1) */
static const unsigned layer_field[RPG_MAP_MAX_LAYERS] = {
	22, 23, 24, 26, 27, 28, 29, 30, 370, 371, 372, 373, 374, 375, 376, 377
};

static const char *const grid_name[3] = { "tiles", "walls", "foes" };

void rpg_tmap_release(struct rpg_tmap *tm)
{
	for (int i = 0; i < 3; i++)
		gfs_buf_release(&tm->g[i].b);
	gfs_buf_release(&tm->npcb);
	gfs_buf_release(&tm->doxb);
}

/* Where v is in a[0..n) (n: nowhere) */
static unsigned rpg_index(const long *a, unsigned n, long v)
{
	unsigned u = 0;

	while (u < n && a[u] != v)
		u++;
	return u;
}

/* The map's .L and DOX record, read; a missing or short one (npcs.csv's, doors.csv's) leaves its lump NULL. */
static int rpg_tmap_objects(struct gfs_archive *ar, long map, struct rpg_tmap *tm)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *l = rpg_map_lump(m, map, 'L', RPG_K_REC), *d = rpg_kind_lump(m, ".DOX");
	size_t at;
	int r;

	if (l && !(r = rpg_lump_read(ar, l, &tm->npcb)) && rpg_tab_at(NULL, RPG_T_NPCS, 0, tm->npcb.len, 0, 0, &at)) {
		tm->npcl = l;
		tm->npc_pool = rpg_tab_at(NULL, RPG_T_NPCS, 0, tm->npcb.len, 0, NPC_POOL, &at);
	} else if (l && r) {
		return r;
	}
	tm->map = map;
	if (d && d->kind == RPG_K_REC && !(r = rpg_lump_read(ar, d, &tm->doxb)) &&
	    rpg_tab_at(NULL, RPG_T_DOORS, (size_t)map, tm->doxb.len, 0, 0, &at))
		tm->doxl = d;
	else if (d && d->kind == RPG_K_REC && r)
		return r;
	return 0;
}

/* Each tile layer's tileset, from the map's MAP record (tileset 0 without one) */
static void rpg_tmap_tilesets(struct gfs_archive *ar, long map, struct rpg_tmap *tm)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *l = rpg_kind_lump(m, ".MAP");
	unsigned rs = rpg_binsize(ar, 4, 40);
	struct gfs_buf b = GFS_BUF_INIT;
	const uint8_t *rec = NULL;
	long def = 0;

	if (!rs)
		rs = 40;
	if (l && !rpg_lump_read(ar, l, &b) && (size_t)(map + 1) * rs <= b.len)
		rec = b.data + (size_t)map * rs;
	if (rec)
		def = (int16_t)gfs_le16(rec);
	tm->enable = 0xffff;
	if (rec && 2 * MAP_ENABLE + 2 <= rs) {
		tm->mapl = l;
		tm->rec_at = (uint64_t)map * rs;
		tm->rs = rs;
		tm->enable_at = (uint64_t)map * rs + 2 * MAP_ENABLE;
		tm->enable = gfs_le16(rec + 2 * MAP_ENABLE);
	}
	if (rec && 2 * MAP_WALK_LAYER + 2 <= rs)
		tm->walk_layer = gfs_le16(rec + 2 * MAP_WALK_LAYER) & 0xff;
	/* every layer's, a layer the TMX may add included; the TMX shows the tilesets of those there are */
	for (unsigned k = 0; k < RPG_MAP_MAX_LAYERS; k++) {
		long t = def, v = rec && 2 * layer_field[k] + 2 <= rs ? (int16_t)gfs_le16(rec + 2 * layer_field[k]) : 0;

		if (v > 0)
			t = v - 1;
		tm->ts[k] = t < 0 ? 0 : t;
		if (rpg_index(tm->used, tm->nused, tm->ts[k]) == tm->nused && k < tm->g[G_T].n)
			tm->used[tm->nused++] = tm->ts[k];
	}
	gfs_buf_release(&b);
}

/* The map's lumps, read (a missing or unusable .P/.E has n = 0). */
int rpg_tmap_load(struct gfs_archive *ar, struct gfs_node *n, struct rpg_tmap *tm)
{
	struct rpg_vpriv *v = n->priv;
	struct rpg_model *m = ar->priv;
	int r;

	memset(tm, 0, sizeof(*tm));
	if (!v->l)
		return -ENOENT;
	tm->g[G_T].l = v->l;
	tm->g[G_P].l = rpg_map_lump(m, (long)v->rec, 'P', RPG_K_MAP);
	tm->g[G_E].l = rpg_map_lump(m, (long)v->rec, 'E', RPG_K_MAP);
	for (int i = 0; i < 3; i++) {
		struct rpg_grid *g = &tm->g[i];

		if (!g->l)
			continue;
		if ((r = rpg_lump_read(ar, g->l, &g->b)))
			return r;
		if (!rpg_map_dims(g->b.data, g->b.len, &g->w, &g->h, &g->n)) {
			if (i == G_T)
				return gfs_err(ar, -EIO, "lump %s: not a tile map any more", g->l->name);
			g->n = 0;
		}
	}
	rpg_tmap_tilesets(ar, (long)v->rec, tm);
	return rpg_tmap_objects(ar, (long)v->rec, tm);
}

/* Does the engine draw tile layer k (map.ini's layer_enable)? */
int rpg_layer_shown(const struct rpg_tmap *tm, unsigned k)
{
	return !k || (tm->enable >> (k - 1) & 1);
}

static unsigned rpg_gid_first(const struct rpg_tmap *tm, int grid, long ts)
{
	if (grid != G_T)
		return 1 + GID_SPAN * (tm->nused + (unsigned)grid - 1);
	return 1 + GID_SPAN * rpg_index(tm->used, tm->nused, ts);
}

/* Does a tile layer above 0 draw from tileset used[u]?  Then NN-upper is in the TMX. */
static int rpg_upper_used(const struct rpg_tmap *tm, unsigned u)
{
	for (unsigned k = 1; k < tm->g[G_T].n; k++)
		if (tm->ts[k] == tm->used[u])
			return 1;
	return 0;
}

/* The first gid of tileset used[u]'s NN-upper: after the walls' and foes' */
static unsigned rpg_gid_upper(const struct rpg_tmap *tm, long ts)
{
	return 1 + GID_SPAN * (tm->nused + 2 + rpg_index(tm->used, tm->nused, ts));
}

/* The layer's name in the TMX: its CSV view's name without .csv */
static void rpg_layer_name(const struct rpg_tmap *tm, int grid, unsigned k, char *buf, size_t size)
{
	if (grid == G_T || tm->g[grid].n > 1)
		snprintf(buf, size, "%s-%u", grid_name[grid], k);
	else
		snprintf(buf, size, "%s", grid_name[grid]);
}

/* Byte (x, y) of layer k of grid, 0 outside it */
uint8_t rpg_cell(const struct rpg_grid *g, unsigned k, unsigned x, unsigned y)
{
	if (x >= g->w || y >= g->h)
		return 0;
	return g->b.data[rpg_map_at(g->w, g->h, k, x, y)];
}

/* ---- map.tmx ------------------------------------------------------------------ */

static int rpg_tmx_tileset(struct gfs_buf *out, unsigned first, const char *name, unsigned count,
			   const char *src, unsigned rows)
{
	return gfs_buf_printf(out, " <tileset firstgid=\"%u\" name=\"%s\" tilewidth=\"%u\" tileheight=\"%u\" "
			      "tilecount=\"%u\" columns=\"%u\">\n"
			      "  <image source=\"%s\" width=\"%u\" height=\"%u\"/>\n"
			      " </tileset>\n", first, name, TILE, TILE, count, TS_COLS, src, TS_COLS * TILE,
			      rows * TILE);
}

static int rpg_tmx_layer(struct gfs_buf *out, const struct rpg_tmap *tm, int grid, unsigned k, unsigned id)
{
	const struct rpg_grid *t = &tm->g[G_T], *g = &tm->g[grid];
	unsigned first = grid == G_T && k ? rpg_gid_upper(tm, tm->ts[k]) :
			 rpg_gid_first(tm, grid, grid == G_T ? tm->ts[k] : 0);
	char name[32];
	int r;

	rpg_layer_name(tm, grid, k, name, sizeof(name));
	r = gfs_buf_printf(out, " <layer id=\"%u\" name=\"%s\" width=\"%u\" height=\"%u\"%s>\n"
			   "  <data encoding=\"csv\">\n", id, name, t->w, t->h,
			   grid == G_E || (grid == G_T && !rpg_layer_shown(tm, k)) ? " visible=\"0\"" : "");
	for (unsigned y = 0; y < t->h && !r; y++)
		for (unsigned x = 0; x < t->w && !r; x++) {
			uint8_t v = rpg_cell(g, k, x, y);

			/* tile 0 of an upper layer is drawn as nothing: an empty cell */
			r = gfs_buf_add_dec(out, v || (grid == G_T && !k) ? first + v : 0);
			if (!r && (x + 1 < t->w || y + 1 < t->h))
				r = gfs_buf_adds(out, x + 1 < t->w ? "," : ",\n");
		}
	return r ? r : gfs_buf_adds(out, "\n</data>\n </layer>\n");
}

/* NPC type id (global: of GLOBALNPCS1.N) of map: its walkabout set and palette; 0 when there is none */
int rpg_npc_look(struct gfs_archive *ar, long map, long id, int global, long *set, long *pal)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *l = global ? rpg_lump_named(m, "GLOBALNPCS1.N") : rpg_map_lump(m, map, 'N', RPG_K_REC);
	int16_t s, p;

	if (id < 0 || !rpg_tab_get(ar, l, RPG_T_NTYPES, 0, (size_t)id, NTYPE_PICTURE, &s) ||
	    !rpg_tab_get(ar, l, RPG_T_NTYPES, 0, (size_t)id, NTYPE_PALETTE, &p))
		return 0;
	*set = s;
	*pal = p;
	return 1;
}

/*
 * The walkabout set NPC slot s shows in map.tmx (its type's picture, when
 * the game has that set), or -1: a rectangle.  Sets are numbered in first
 * use order in tm->walk.
 */
static long rpg_obj_walk(struct gfs_archive *ar, struct rpg_tmap *tm, long map, unsigned s, int add)
{
	long id = (int16_t)gfs_le16(rpg_obj_word(tm, 0, NPC_ID, s)) - 1, set, pal;
	int global = tm->npc_pool && gfs_le16(rpg_obj_word(tm, 0, NPC_POOL, s));
	uint8_t px[RPG_WALK_W * RPG_WALK_H], master[16];

	if (!rpg_npc_look(ar, map, id, global, &set, &pal))
		return -1;
	if (rpg_index(tm->walk, tm->nwalk, set) < tm->nwalk)
		return set;
	if (!add || tm->nwalk == WALK_SETS || rpg_walkabout_frame(ar, set, -1, 0, px, master))
		return -1;
	tm->walk[tm->nwalk++] = set;
	return set;
}

/* The first gid of walkabout set `set`'s tileset: after every tileset of the layers */
static unsigned rpg_gid_walk(const struct rpg_tmap *tm, long set)
{
	return 1 + GID_SPAN * (2 * tm->nused + 2) + WALK_FRAMES * rpg_index(tm->walk, tm->nwalk, set);
}

/* The NPC instances and doors as object groups of 20x20 rectangles (an NPC with a walkabout: its frame 2 x direction, a tile object), each on its tile */
static int rpg_tmx_objects(struct gfs_archive *ar, struct gfs_buf *out, struct rpg_tmap *tm, long map, unsigned id)
{
	int r = 0;

	if (tm->npcl)
		r = gfs_buf_printf(out, " <objectgroup id=\"%u\" name=\"npcs\">\n", id++);
	for (unsigned s = 0; s < L_SLOTS && tm->npcl && !r; s++) {
		long x = (int16_t)gfs_le16(rpg_obj_word(tm, 0, NPC_X, s)), y = (int16_t)gfs_le16(rpg_obj_word(tm, 0, NPC_Y, s)) - 1;
		long npc = (int16_t)gfs_le16(rpg_obj_word(tm, 0, NPC_ID, s)) - 1;
		int global = tm->npc_pool && gfs_le16(rpg_obj_word(tm, 0, NPC_POOL, s));

		long set = rpg_obj_used(tm, 0, s) ? rpg_obj_walk(ar, tm, map, s, 0) : -1;
		unsigned dir = gfs_le16(rpg_obj_word(tm, 0, NPC_DIR, s)) & 3;

		if (rpg_obj_used(tm, 0, s) && set >= 0)	/* a tile object: y is its bottom */
			r = gfs_buf_printf(out, "  <object id=\"%u\" name=\"%snpc %ld\" gid=\"%u\" x=\"%ld\" y=\"%ld\" "
					   "width=\"%u\" height=\"%u\"/>\n", NPC_OBJ + s, global ? "global " : "", npc,
					   rpg_gid_walk(tm, set) + 2 * dir, x * TILE, (y + 1) * TILE, TILE, TILE);
		else if (rpg_obj_used(tm, 0, s))
			r = gfs_buf_printf(out, "  <object id=\"%u\" name=\"%snpc %ld\" x=\"%ld\" y=\"%ld\" width=\"%u\" "
					   "height=\"%u\"/>\n", NPC_OBJ + s, global ? "global " : "", npc, x * TILE,
					   y * TILE, TILE, TILE);
	}
	if (tm->npcl && !r)
		r = gfs_buf_adds(out, " </objectgroup>\n");
	if (tm->doxl && !r)
		r = gfs_buf_printf(out, " <objectgroup id=\"%u\" name=\"doors\">\n", id);
	for (unsigned d = 0; d < DOORS && tm->doxl && !r; d++) {
		long x = (int16_t)gfs_le16(rpg_obj_word(tm, 1, DOOR_X, d)), y = (int16_t)gfs_le16(rpg_obj_word(tm, 1, DOOR_Y, d)) - 1;

		if (rpg_obj_used(tm, 1, d))
			r = gfs_buf_printf(out, "  <object id=\"%u\" name=\"door %u\" x=\"%ld\" y=\"%ld\" width=\"%u\" "
					   "height=\"%u\"/>\n", DOOR_OBJ + d, d, x * TILE, y * TILE, TILE, TILE);
	}
	if (tm->doxl && !r)
		r = gfs_buf_adds(out, " </objectgroup>\n");
	return r;
}

static int rpg_tmx_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	struct rpg_tmap tm;
	unsigned id = 0, nlayers;
	int r = rpg_tmap_load(ar, n, &tm);

	nlayers = tm.g[G_T].n + tm.g[G_P].n + tm.g[G_E].n;
	if (!r)
		r = gfs_buf_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				   "<map version=\"1.8\" tiledversion=\"1.8.2\" orientation=\"orthogonal\" "
				   "renderorder=\"right-down\" width=\"%u\" height=\"%u\" tilewidth=\"%u\" "
				   "tileheight=\"%u\" infinite=\"0\" nextlayerid=\"%u\" nextobjectid=\"%u\">\n",
				   tm.g[G_T].w, tm.g[G_T].h, TILE, TILE, nlayers + 1 + !!tm.npcl + !!tm.doxl, NEXT_OBJ);
	for (unsigned u = 0; u < tm.nused && !r; u++) {
		char name[40], src[64];

		snprintf(name, sizeof(name), "%02ld", tm.used[u]);
		snprintf(src, sizeof(src), "../../tilesets/%02ld.png", tm.used[u]);
		r = rpg_tmx_tileset(out, 1 + GID_SPAN * u, name, TS_TILES, src, TS_TILES / TS_COLS);
		snprintf(name, sizeof(name), "%02ld-animated", tm.used[u]);
		snprintf(src, sizeof(src), "../tilesets/%02ld-animated.png", tm.used[u]);
		if (!r)
			r = rpg_tmx_tileset(out, 1 + GID_SPAN * u + TS_TILES, name, ANIM_TILES, src,
					    ANIM_TILES / TS_COLS);
	}
	for (int grid = G_P; grid <= G_E && !r; grid++) {
		char src[64];

		snprintf(src, sizeof(src), "../tilesets/%s.png", grid_name[grid]);
		if (tm.g[grid].n)
			r = rpg_tmx_tileset(out, rpg_gid_first(&tm, grid, 0), grid_name[grid], GID_SPAN, src,
					    GID_SPAN / TS_COLS);
	}
	for (unsigned u = 0; u < tm.nused && !r; u++) {
		char name[40], src[64];

		snprintf(name, sizeof(name), "%02ld-upper", tm.used[u]);
		snprintf(src, sizeof(src), "../tilesets/%02ld-upper.png", tm.used[u]);
		if (rpg_upper_used(&tm, u))
			r = rpg_tmx_tileset(out, rpg_gid_upper(&tm, tm.used[u]), name, GID_SPAN, src,
					    GID_SPAN / TS_COLS);
	}
	for (unsigned s = 0; s < L_SLOTS && tm.npcl; s++)
		if (rpg_obj_used(&tm, 0, s))
			(void)rpg_obj_walk(ar, &tm, (long)v->rec, s, 1);
	for (unsigned u = 0; u < tm.nwalk && !r; u++) {
		char name[40], src[64];

		snprintf(name, sizeof(name), "walkabout-%03ld", tm.walk[u]);
		snprintf(src, sizeof(src), "../../sprites/walkabouts/%03ld.png", tm.walk[u]);
		r = gfs_buf_printf(out, " <tileset firstgid=\"%u\" name=\"%s\" tilewidth=\"%u\" tileheight=\"%u\" "
				   "tilecount=\"%u\" columns=\"%u\">\n"
				   "  <image source=\"%s\" width=\"%u\" height=\"%u\"/>\n"
				   " </tileset>\n", rpg_gid_walk(&tm, tm.walk[u]), name, RPG_WALK_W, RPG_WALK_H,
				   WALK_FRAMES, WALK_FRAMES, src, WALK_FRAMES * RPG_WALK_W, RPG_WALK_H);
	}
	for (int grid = G_T; grid <= G_E && !r; grid++)
		for (unsigned k = 0; k < tm.g[grid].n && !r; k++)
			r = rpg_tmx_layer(out, &tm, grid, k, ++id);
	if (!r)
		r = rpg_tmx_objects(ar, out, &tm, (long)v->rec, id + 1);
	if (!r)
		r = gfs_buf_adds(out, "</map>\n");
	rpg_tmap_release(&tm);
	return r;
}

/* ---- a TMX written back ------------------------------------------------------- */

struct rpg_tset_in {
	long first;
	int grid;			/* G_T (a TIL page: ts, anim), G_P, G_E */
	long ts;
	int anim;			/* 0: NN, 1: NN-animated, 2: NN-upper */
};

struct rpg_tmxin {
	struct gfs_archive *ar;
	const char *view;
	struct rpg_tmap tm;
	struct rpg_tset_in sets[3 * RPG_MAP_MAX_LAYERS + 2 + WALK_SETS];
	unsigned nsets;
	uint8_t seen[3][RPG_MAP_MAX_LAYERS];
	unsigned enable;		/* layer_enable as the layers' visible attributes set it */
	uint8_t npc_seen[L_SLOTS], door_seen[DOORS];
	int groups[2];			/* npcs, doors: the group was there */
	unsigned added;			/* tile layers the TMX added */
	int resized;			/* the TMX's width and height are new: the map takes them */
	unsigned tsset;			/* bit k: tile layer k's tileset is new (MAP field) */
};

/* "NN", "NN-animated" or "NN-upper" of a tileset the map uses, walls or foes (when the map has them) */
static int rpg_tmx_tileset_in(struct rpg_tmxin *in, const struct gfs_xml_el *e)
{
	char buf[64];
	const char *name = gfs_tmx_tileset_name(e, buf, sizeof(buf));
	struct rpg_tset_in s = { gfs_tmx_num(e, "firstgid"), -1, -1, 0 };
	char *end;

	if (s.first < 1)
		return gfs_tmx_err(in->ar, in->view, e, "<tileset> has no firstgid");
	if (!name)
		name = "";
	for (int grid = G_P; grid <= G_E; grid++)
		if (!strcmp(name, grid_name[grid]) && in->tm.g[grid].n)
			s.grid = grid;
	if (s.grid < 0 && name[0] >= '0' && name[0] <= '9') {
		long ts = strtol(name, &end, 10);

		s.anim = !strcmp(end, "-animated") ? 1 : !strcmp(end, "-upper") ? 2 : 0;
		int used = ts < rpg_resize_pages(in->ar);

		for (unsigned u = 0; u < in->tm.nused; u++)
			used |= in->tm.used[u] == ts;
		if ((s.anim || !*end) && used) {
			s.grid = G_T;	/* one of the game's tilesets: a layer drawing from it takes it */
			s.ts = ts;
		}
	}
	if (s.grid < 0 && !strncmp(name, "walkabout-", 10) && name[10] >= '0' && name[10] <= '9') {
		s.grid = G_WALK;	/* the NPC objects' pictures: no layer's tiles */
		s.ts = strtol(name + 10, &end, 10);
	}
	if (s.grid < 0)
		return gfs_tmx_err(in->ar, in->view, e, "tileset '%s' is none of the game's (NN, NN-animated, NN-upper, "
				   "walls, foes, walkabout-NNN)", name);
	for (unsigned i = 0; i < in->nsets; i++)
		if (in->sets[i].grid == s.grid && in->sets[i].ts == s.ts && in->sets[i].anim == s.anim)
			return gfs_tmx_err(in->ar, in->view, e, "tileset '%s' twice", name);
	in->sets[in->nsets++] = s;
	return 0;
}

/* The tileset gid g (not 0) is of, or NULL */
static const struct rpg_tset_in *rpg_gid_set(const struct rpg_tmxin *in, uint32_t g)
{
	const struct rpg_tset_in *best = NULL;

	for (unsigned i = 0; i < in->nsets; i++)
		if (in->sets[i].first <= (long)g && (!best || in->sets[i].first > best->first))
			best = &in->sets[i];
	return best;
}

/* The byte gid g stands for in a layer of grid (drawn from tileset ts), or -1 */
static int rpg_gid_byte(const struct rpg_tmxin *in, int grid, long ts, uint32_t g)
{
	const struct rpg_tset_in *best = g ? rpg_gid_set(in, g) : NULL;
	long k;

	if (!g)
		return 0;
	if (!best || best->grid != grid || best->ts != ts)
		return -1;
	k = (long)g - best->first;
	if (grid != G_T)
		return k < GID_SPAN ? (int)k : -1;
	if (best->anim == 2)
		return k < GID_SPAN ? (int)k : -1;
	if (best->anim)
		return k < ANIM_TILES ? (int)(TS_TILES + k) : -1;
	return k < TS_TILES ? (int)k : -1;
}

/*
 * A tile layer the map does not have (Tiled's "Tile Layer 3", or tiles-N
 * one past the last): the map's next layer, empty, drawn from the tileset
 * the map record gives it.  Its number, or -EINVAL.
 */
static int rpg_tmx_layer_new(struct rpg_tmxin *in, const struct gfs_xml_el *e, const char *name)
{
	struct rpg_grid *t = &in->tm.g[G_T];
	char want[32];
	int r;

	snprintf(want, sizeof(want), "tiles-%u", t->n);
	if (!name || !strcmp(name, "walls") || !strcmp(name, "foes") ||
	    (!strncmp(name, "tiles-", 6) && strcmp(name, want)))
		return gfs_tmx_err(in->ar, in->view, e, "layer '%s' is not one of the map's (tiles-N, walls, foes; "
				   "a new tile layer is %s or any other name)", name ? name : "", want);
	if (t->n >= RPG_MAP_MAX_LAYERS)
		return gfs_tmx_err(in->ar, in->view, e, "layer '%s': a map has at most %d tile layers", name,
				   RPG_MAP_MAX_LAYERS);
	if ((r = rpg_map_layers(&t->b, t->n + 1)))	/* zeros */
		return r;
	in->added++;
	return (int)t->n++;
}

/*
 * A new layer draws from the tileset of its first tile (else the one the
 * map record gives it); a layer all of whose tiles are of another of the
 * game's tilesets takes that one (a map saved over another: tsset).
 */
static void rpg_tmx_layer_ts(struct rpg_tmxin *in, unsigned k, const uint32_t *gids, size_t n)
{
	const struct rpg_tset_in *best = NULL;
	size_t i = 0, j = 0;

	while (i < n && !gids[i])
		i++;
	if (i < n)
		best = rpg_gid_set(in, gids[i]);
	if (!best || best->grid != G_T || !in->tm.mapl || 2 * layer_field[k] + 2 > in->tm.rs)
		return;
	if (k >= in->tm.g[G_T].n - in->added) {
		in->tm.ts[k] = best->ts;	/* the map record says so below */
		return;
	}
	while (j < n && rpg_gid_byte(in, G_T, best->ts, gids[j]) >= 0)
		j++;
	if (j == n && best->ts != in->tm.ts[k]) {
		in->tm.ts[k] = best->ts;
		in->tsset |= 1u << k;
	}
}

static int rpg_tmx_layer_in(struct rpg_tmxin *in, const struct gfs_xml_el *e)
{
	const char *name = gfs_xml_attr(e, "name");
	struct rpg_grid *t = &in->tm.g[G_T];
	int grid = -1;
	unsigned k = 0;
	uint32_t *gids;
	int r;

	for (int gr = G_T; gr <= G_E && name; gr++)
		for (unsigned i = 0; i < in->tm.g[gr].n; i++) {
			char nm[32];

			rpg_layer_name(&in->tm, gr, i, nm, sizeof(nm));
			if (!strcmp(nm, name)) {
				grid = gr;
				k = i;
			}
		}
	if (grid < 0 && (r = rpg_tmx_layer_new(in, e, name)) < 0)
		return r;
	if (grid < 0) {
		grid = G_T;
		k = (unsigned)r;
	}
	if (in->seen[grid][k]++)
		return gfs_tmx_err(in->ar, in->view, e, "layer '%s' twice", name);
	/* an upper tile layer's visibility is the engine's (tiles-0, walls and foes: Tiled's only) */
	if (grid == G_T && k && in->tm.mapl) {
		const char *vis = gfs_xml_attr(e, "visible");

		if (vis && strcmp(vis, "0") && strcmp(vis, "1"))
			return gfs_tmx_err(in->ar, in->view, e, "layer '%s': visible=\"%s\" is neither 0 nor 1",
					   name, vis);
		if (vis && !strcmp(vis, "0"))
			in->enable &= ~(1u << (k - 1));
		else
			in->enable |= 1u << (k - 1);
	}
	if (!(gids = malloc((size_t)t->w * t->h * sizeof(*gids))))
		return -ENOMEM;
	r = gfs_tmx_layer(in->ar, in->view, e, name, t->w, t->h, gids);
	if (!r && grid == G_T)
		rpg_tmx_layer_ts(in, k, gids, (size_t)t->w * t->h);
	for (unsigned y = 0; y < t->h && !r; y++)
		for (unsigned x = 0; x < t->w && !r; x++) {
			struct rpg_grid *g = &in->tm.g[grid];
			uint32_t gid = gids[(size_t)y * t->w + x];
			long ts = grid == G_T ? in->tm.ts[k] : -1;
			int v = rpg_gid_byte(in, grid, ts, gid);

			if (v < 0 && grid == G_T)
				r = gfs_tmx_err(in->ar, in->view, e, "layer '%s' cell %u,%u: gid %u is not a tile of "
						"tileset '%02ld' (or %02ld-animated, %02ld-upper)", name, x, y, gid, ts, ts, ts);
			else if (v < 0)
				r = gfs_tmx_err(in->ar, in->view, e, "layer '%s' cell %u,%u: gid %u is not a tile of "
						"tileset '%s'", name, x, y, gid, grid_name[grid]);
			else if (x < g->w && y < g->h)
				g->b.data[rpg_map_at(g->w, g->h, k, x, y)] = (uint8_t)v;
			else if (v)
				r = gfs_tmx_err(in->ar, in->view, e, "layer '%s' cell %u,%u is outside the %s map "
						"(%ux%u): it can only be empty", name, x, y, grid_name[grid], g->w, g->h);
		}
	free(gids);
	return r;
}

static int rpg_tmx_root(struct rpg_tmxin *in, const struct gfs_xml_el *root)
{
	const struct rpg_grid *t = &in->tm.g[G_T];
	const char *s;
	long w, h;
	int r;

	if (strcmp(root->name, "map"))
		return gfs_tmx_err(in->ar, in->view, root, "the root element is <%s>, not <map>", root->name);
	if (!(s = gfs_xml_attr(root, "orientation")) || strcmp(s, "orthogonal"))
		return gfs_tmx_err(in->ar, in->view, root, "orientation '%s' is not orthogonal", s ? s : "");
	if (gfs_tmx_num(root, "tilewidth") != TILE || gfs_tmx_num(root, "tileheight") != TILE ||
	    ((s = gfs_xml_attr(root, "infinite")) && strcmp(s, "0")))
		return gfs_tmx_err(in->ar, in->view, root, "the map is not finite with %ux%u tiles (neither can "
				   "change)", TILE, TILE);
	if ((w = gfs_tmx_num(root, "width")) == (long)t->w && (h = gfs_tmx_num(root, "height")) == (long)t->h)
		return 0;
	/* another size: the map takes it (Custom's resize), every grid at once */
	if ((r = rpg_resize_ok(in->ar, in->view, w, h = gfs_tmx_num(root, "height"))))
		return r;
	for (struct rpg_grid *g = in->tm.g; g < in->tm.g + 3 && !r; g++)
		if (g->n && !(r = rpg_map_resize(&g->b, (unsigned)w, (unsigned)h)))
			rpg_map_dims(g->b.data, g->b.len, &g->w, &g->h, &g->n);
	in->resized = 1;
	return r;
}

/* <objectgroup> "npcs" or "doors": each object moves its NPC or door; none is added or removed */
static int rpg_tmx_group_in(struct rpg_tmxin *in, const struct gfs_xml_el *e)
{
	const char *name = gfs_xml_attr(e, "name");
	const struct rpg_grid *t = &in->tm.g[G_T];
	int doors = name && !strcmp(name, "doors");

	if (!name || (!doors && strcmp(name, "npcs")) || !(doors ? in->tm.doxl : in->tm.npcl))
		return gfs_tmx_err(in->ar, in->view, e, "object group '%s' is not one of the map's (npcs, doors)",
				   name ? name : "");
	if (in->groups[doors]++)
		return gfs_tmx_err(in->ar, in->view, e, "object group '%s' twice", name);
	for (const struct gfs_xml_el *o = e->kid; o; o = o->next) {
		long id = gfs_tmx_num(o, "id"), x, y;
		unsigned i;
		uint8_t *seen, *px, *py;

		if (strcmp(o->name, "object"))
			continue;	/* <properties> */
		i = (unsigned)(id - (doors ? DOOR_OBJ : NPC_OBJ));
		if (id < 0 || i >= (doors ? DOORS : L_SLOTS) ||
		    !rpg_obj_used(&in->tm, doors, i))
			return gfs_tmx_err(in->ar, in->view, o, "object %ld is none of the map's %s (add them in %s)", id,
					   name, doors ? "doors.csv" : "npcs.csv");
		seen = doors ? &in->door_seen[i] : &in->npc_seen[i];
		if ((*seen)++)
			return gfs_tmx_err(in->ar, in->view, o, "object %ld twice", id);
		px = rpg_obj_word(&in->tm, doors, OBJ_X, i);
		py = rpg_obj_word(&in->tm, doors, OBJ_Y, i);
		if (rpg_resize_obj_cell(o, "x", t->w, (int16_t)gfs_le16(px), 0, &x) < 0 ||
		    rpg_resize_obj_cell(o, "y", t->h, (int16_t)gfs_le16(py) - 1, gfs_xml_attr(o, "gid") ? TILE : 0, &y) < 0)
			return gfs_tmx_err(in->ar, in->view, o, "object %ld is off the %ux%u map", id, t->w, t->h);
		gfs_put_u16le(px, (uint16_t)x);
		gfs_put_u16le(py, (uint16_t)(y + 1));
	}
	for (unsigned i = 0; i < (doors ? DOORS : L_SLOTS); i++)
		if (rpg_obj_used(&in->tm, doors, i) &&
		    !(doors ? in->door_seen[i] : in->npc_seen[i]))
			return gfs_tmx_err(in->ar, in->view, e, "%s %u has no object (remove it in %s)",
					   doors ? "door" : "NPC slot", i, doors ? "doors.csv" : "npcs.csv");
	return 0;
}

/*
 * The map's layer_enable word set to enable, and the tileset words of the
 * layers from k0 on (those the TMX added) and in tsset to theirs (the MAP
 * lump's other bytes kept)
 */
static int rpg_tmx_mapwords(struct gfs_archive *ar, const struct rpg_tmap *tm, unsigned enable, unsigned k0,
			    unsigned tsset)
{
	struct gfs_buf b = GFS_BUF_INIT;
	int r = rpg_lump_read(ar, tm->mapl, &b);

	if (!r && tm->rec_at + tm->rs > b.len)
		r = gfs_err(ar, -EIO, "lump %s: too short for the map's record now", tm->mapl->name);
	if (!r)
		gfs_put_u16le(b.data + tm->enable_at, (uint16_t)enable);
	for (unsigned k = 0; !r && k < tm->g[G_T].n; k++)
		if ((k >= k0 || (tsset >> k & 1)) && 2 * layer_field[k] + 2 <= tm->rs)
			gfs_put_u16le(b.data + tm->rec_at + 2 * layer_field[k], (uint16_t)(tm->ts[k] + 1));
	return rpg_lump_done(ar, tm->mapl, &b, r);
}

static int rpg_tmx_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_tmxin *in = calloc(1, sizeof(*in));
	struct gfs_buf zb = GFS_BUF_INIT;
	struct rpg_lump *zl = NULL;
	struct gfs_xml x = { 0 };
	const struct gfs_xml_el *e;
	char why[300];
	int r;

	if (!in)
		return -ENOMEM;
	in->ar = ar;
	in->view = n->name;
	r = rpg_tmap_load(ar, n, &in->tm);
	in->enable = in->tm.enable;
	if (!r && gfs_xml_parse(data, len, &x, why, sizeof(why)))
		r = gfs_err(ar, -EINVAL, "%s: %s", n->name, why);
	if (!r)
		r = rpg_tmx_root(in, x.root);
	/* tilesets first: Tiled writes them first, and the layers need them */
	for (e = r ? NULL : x.root->kid; e && !r; e = e->next)
		if (!strcmp(e->name, "tileset"))
			r = in->nsets < sizeof(in->sets) / sizeof(in->sets[0]) ? rpg_tmx_tileset_in(in, e) :
			    gfs_tmx_err(ar, n->name, e, "more tilesets than the map has");
	for (e = r ? NULL : x.root->kid; e && !r; e = e->next) {
		if (!strcmp(e->name, "layer"))
			r = rpg_tmx_layer_in(in, e);
		else if (!strcmp(e->name, "objectgroup"))
			r = rpg_tmx_group_in(in, e);
		else if (!strcmp(e->name, "properties") && e->kid)
			r = gfs_tmx_err(ar, n->name, e->kid, "map properties are nothing the map holds");
		else if (strcmp(e->name, "tileset") && strcmp(e->name, "editorsettings") &&
			 strcmp(e->name, "properties"))
			r = gfs_tmx_err(ar, n->name, e, "<%s> is nothing the map holds", e->name);
	}
	if (!r && in->resized && !(r = rpg_resize_objects(ar, n->name, &in->tm, in->tm.g[G_T].w, in->tm.g[G_T].h)))
		r = rpg_resize_zones(ar, n->name, (long)((struct rpg_vpriv *)n->priv)->rec, in->tm.g[G_T].w,
				     in->tm.g[G_T].h, &zl, &zb);
	/* all checked: only now does any lump change (their sizes follow: a new size, new layers) */
	for (int grid = G_T; grid <= G_E && !r; grid++)
		if (in->tm.g[grid].n)
			r = rpg_grow_set(ar, in->tm.g[grid].l, &in->tm.g[grid].b, 0);
	if (!r && zl)
		r = rpg_grow_set(ar, zl, &zb, 0);
	if (!r && in->tm.mapl && (in->enable != in->tm.enable || in->added || in->tsset))
		r = rpg_tmx_mapwords(ar, &in->tm, in->enable, in->tm.g[G_T].n - in->added, in->tsset);
	for (unsigned k = in->tm.g[G_T].n - in->added; !r && k < in->tm.g[G_T].n; k++)
		r = rpg_maps_layer_view(ar, in->tm.g[G_T].l, n->parent, k);
	if (!r && in->groups[0])
		r = rpg_set_if_changed(ar, in->tm.npcl, in->tm.npcb.data, in->tm.npcb.len);
	if (!r && in->groups[1])
		r = rpg_set_if_changed(ar, in->tm.doxl, in->tm.doxb.data, in->tm.doxb.len);
	if (!r && (in->resized || in->tsset))
		gfs_tree_invalidate(ar);
	gfs_xml_free(&x);
	gfs_buf_release(&zb);
	rpg_tmap_release(&in->tm);
	free(in);
	return r;
}

RPG_VIEW_OPS(rpg_tmx);

/* ---- the tree ------------------------------------------------------------------- */

int rpg_tiled_build(struct gfs_archive *ar, struct rpg_lump *t, struct gfs_node *dir, long map)
{
	int r = rpg_add_view(ar, t, dir, "map.tmx", &rpg_tmx_ops, (size_t)map, NULL);

	return r ? r : rpg_add_ro(ar, t, dir, "map.png", &rpg_mappng_ops, (size_t)map);
}
