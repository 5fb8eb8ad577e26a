/*
 * rpg_mappng.c - maps/NN-name/map.png of an OHRRPGCE map: its shown .T
 * layers drawn in order as the engine does (layer 0 opaque; above it tile
 * 0 and colour 0 clear) and the NPCs at rest between them (rpg_tiled.c
 * reads the map).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpg_draw.h"
#include "rpg_tmap.h"

/* ---- map.png ------------------------------------------------------------------ */

static int rpg_mappng_dims(struct gfs_archive *ar, struct gfs_node *n, unsigned *w, unsigned *h)
{
	struct rpg_vpriv *v = n->priv;

	if (!v->l)
		return -ENOENT;
	if (!rpg_map_lump_dims(ar, v->l, v->l->data ? v->l->data->len : v->l->len, w, h, NULL))
		return gfs_err(ar, -EIO, "lump %s: not a tile map any more", v->l->name);
	if ((uint64_t)*w * *h * TILE * TILE > MAP_RENDER_MAX)
		return gfs_err(ar, -EFBIG, "%s: %ux%u tiles is too large to draw", n->name, *w, *h);
	return 0;
}

/* A palette PNG drawn in place up to GFS_PNG_ROW_MAXW pixels wide, else RGBA from a canvas. */
static uint64_t rpg_mappng_bytes(unsigned w, unsigned h)
{
	uint64_t rows = gfs_png_rows_size_pal(w * TILE, h * TILE, MASTER_BYTES / 3);

	return rows ? rows : gfs_png_stored_size(w * TILE, h * TILE);
}

static int rpg_mappng_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	unsigned w, h;
	int r = rpg_mappng_dims(ar, n, &w, &h);

	if (!r)
		*size = rpg_mappng_bytes(w, h);
	return r;
}

/* Where map.png's pixels go: the PNG's rows of palette indices, or an RGBA canvas */
struct rpg_canvas {
	struct gfs_png_rows pr;
	uint8_t *rgba;			/* NULL: pr's rows */
	unsigned w;			/* pixels a row */
	const uint8_t *rgb;		/* the master palette */
};

static void rpg_put(const struct rpg_canvas *cv, size_t px, size_t py, uint8_t c)
{
	if (!cv->rgba) {
		cv->pr.pix[py * cv->pr.stride + px] = c;
	} else {
		uint8_t *o = cv->rgba + (py * cv->w + px) * 4;

		memcpy(o, cv->rgb + 3 * c, 3);
		o[3] = 255;
	}
}

/* Tile layer k as the engine draws it (above layer 0: tile 0 and colour 0 clear) */
static void rpg_mappng_layer(const struct rpg_canvas *cv, const struct rpg_tmap *tm, struct rpg_draw *d, unsigned k)
{
	const uint8_t *page = rpg_page(d, tm->ts[k]);
	const struct rpg_grid *t = &tm->g[G_T];

	for (size_t py = 0; py < (size_t)t->h * TILE; py++)
		for (unsigned tx = 0; tx < t->w; tx++) {
			uint8_t v = rpg_cell(t, k, tx, (unsigned)(py / TILE));
			unsigned tile = rpg_tile_of(d, tm->ts[k], v);

			if (k && !v)
				continue;
			for (unsigned x = 0; x < TILE; x++) {
				uint8_t c = rpg_tile_px(page, tile, x, (unsigned)(py % TILE));

				if (!k || c)
					rpg_put(cv, (size_t)tx * TILE + x, py, c);
			}
		}
}

/* A walkabout frame met before: NPCs of one type share it */
struct rpg_walk_seen {
	long set, pal;
	unsigned f;
	int ok;
	uint8_t px[RPG_WALK_W * RPG_WALK_H], master[16];
};

#define WALK_SEEN 16

/*
 * The map's NPC instances as the engine draws them at rest: frame 2 x
 * direction of their type's walkabout, in its palette, colour 0 clear, on
 * their tile.
 */
static void rpg_mappng_npcs(struct gfs_archive *ar, const struct rpg_canvas *cv, const struct rpg_tmap *tm, long map)
{
	struct rpg_walk_seen *seen = calloc(WALK_SEEN, sizeof(*seen));
	unsigned nseen = 0;

	for (unsigned s = 0; s < L_SLOTS && tm->npcl && seen; s++) {
		long x = (int16_t)gfs_le16(rpg_obj_word(tm, 0, NPC_X, s)), y = (int16_t)gfs_le16(rpg_obj_word(tm, 0, NPC_Y, s)) - 1;
		long id = (int16_t)gfs_le16(rpg_obj_word(tm, 0, NPC_ID, s)) - 1, set, pal;
		unsigned dir = gfs_le16(rpg_obj_word(tm, 0, NPC_DIR, s)) & 3, i;
		int global = tm->npc_pool && gfs_le16(rpg_obj_word(tm, 0, NPC_POOL, s));
		struct rpg_walk_seen *ws;

		if (!rpg_obj_used(tm, 0, s) || x < 0 || y < 0 || (unsigned long)x >= tm->g[G_T].w ||
		    (unsigned long)y >= tm->g[G_T].h || !rpg_npc_look(ar, map, id, global, &set, &pal))
			continue;
		for (i = 0; i < nseen; i++)
			if (seen[i].set == set && seen[i].pal == pal && seen[i].f == 2 * dir)
				break;
		if (i == nseen) {
			i = nseen < WALK_SEEN ? nseen++ : WALK_SEEN - 1;
			seen[i].set = set;
			seen[i].pal = pal;
			seen[i].f = 2 * dir;
			seen[i].ok = !rpg_walkabout_frame(ar, set, pal, 2 * dir, seen[i].px, seen[i].master);
		}
		ws = &seen[i];
		for (unsigned py = 0; py < RPG_WALK_H && ws->ok; py++)
			for (unsigned px = 0; px < RPG_WALK_W; px++) {
				uint8_t c = ws->px[py * RPG_WALK_W + px];

				if (c && c < 16)
					rpg_put(cv, (size_t)x * TILE + px, (size_t)y * TILE + py, ws->master[c]);
			}
	}
	free(seen);
}

/*
 * The master palette's index of every pixel, written straight into the
 * PNG's rows when they fit one stored block each: no canvas to fill and
 * copy, a quarter of the bytes of RGBA (for a 50-map game's diff -r most of
 * the daemon's time was that copy and the page faults of fresh memory).
 * Wider maps are drawn as RGBA on a canvas.  Layer 0 covers every pixel.
 * The shown layers below the walkabout layer (MAP field 31; 0 means 2)
 * are drawn first, then the NPCs, then the layers above them.
 */
static int rpg_mappng_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	struct rpg_canvas cv = { .rgba = NULL };
	struct rpg_tmap tm;
	struct rpg_draw d;
	unsigned w, h, below;
	int inplace, r = rpg_mappng_dims(ar, n, &w, &h);

	if (r)
		return r;
	if ((r = rpg_tmap_load(ar, n, &tm)))
		goto out;
	if (tm.g[G_T].w != w || tm.g[G_T].h != h) {
		r = -EIO;
		goto out;
	}
	rpg_draw_load(ar, &d);
	cv.w = w * TILE;
	cv.rgb = d.rgb;
	inplace = gfs_png_rows_size_pal(w * TILE, h * TILE, MASTER_BYTES / 3) != 0;
	if (inplace)
		r = gfs_png_rows_begin_pal(out, w * TILE, h * TILE, d.rgb, MASTER_BYTES / 3, &cv.pr);
	else if (!(cv.rgba = calloc((size_t)w * h * TILE * TILE, 4)))
		r = -ENOMEM;
	below = tm.walk_layer ? tm.walk_layer : 2;
	for (unsigned k = 0; !r && k <= tm.g[G_T].n; k++) {
		if (k == below || (k == tm.g[G_T].n && below > k))
			rpg_mappng_npcs(ar, &cv, &tm, (long)v->rec);
		if (k < tm.g[G_T].n && rpg_layer_shown(&tm, k))
			rpg_mappng_layer(&cv, &tm, &d, k);
	}
	rpg_draw_release(&d);
	if (!r && inplace)
		gfs_png_rows_end(out, &cv.pr);
	else if (!r)
		r = gfs_png_encode_stored(cv.rgba, w * TILE, h * TILE, out);
out:
	free(cv.rgba);
	rpg_tmap_release(&tm);
	return r;
}

const struct gfs_node_ops rpg_mappng_ops = {
	.render = rpg_mappng_render,
	.size = rpg_mappng_size,
	.free = free,
};
