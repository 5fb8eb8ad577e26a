/*
 * rpg_resize.c - an OHRRPGCE map taking a new width and height, as Custom's
 * resize does without an offset: the tiles keep their x and y, those past
 * the new right or bottom edge are cut, the new ones are 0 (every layer of
 * .T, and .P, .E); the .Z zone map takes the new w and h, refused when a
 * zone has tiles past them (they show in zones.txt only).  NPCs and doors
 * are the caller's (rpg_tiled.c): they must lie on the new map.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_tmx.h"
#include "reload.h"
#include "rpg_draw.h"
#include "rpg_resize.h"
#include "rpg_tmap.h"

int rpg_resize_ok(struct gfs_archive *ar, const char *view, long w, long h)
{
	if (w < RPG_MAP_MIN_W || h < RPG_MAP_MIN_H || w > RPG_MAP_MAX_WH || h > RPG_MAP_MAX_WH ||
	    (uint64_t)w * (uint64_t)h > RPG_MAP_MAX_TILES)
		return gfs_err(ar, -EINVAL, "%s: a %ldx%ld map is past OHRRPGCE's limits: at least %dx%d, at most "
			       "%d wide or high and %d tiles (width x height)", view, w, h, RPG_MAP_MIN_W,
			       RPG_MAP_MIN_H, RPG_MAP_MAX_WH, RPG_MAP_MAX_TILES);
	return 0;
}

/* The zone map's rows walked: a row past h, or a zone's span past w, is a tile the resize would cut */
struct zwalk {
	unsigned w, h;
	const uint8_t *bin;
	int in_rows;		/* under zonemap/rows */
	long y;			/* the row (depth 2) being walked */
	long cut_x, cut_y;	/* the first tile cut, or -1 */
};

static int nmis(const struct reld_node *n, const char *s)
{
	return n->name && n->namelen == strlen(s) && !memcmp(n->name, s, n->namelen);
}

static int zvisit(void *ctx, const struct reld_node *n)
{
	struct zwalk *z = ctx;
	uint64_t x = 0;

	if (n->depth == 1)
		z->in_rows = nmis(n, "rows");
	if (!z->in_rows || n->depth < 2)
		return 0;
	if (n->depth == 2) {
		z->y = n->type >= 1 && n->type <= 4 ? (long)n->i : -1;
		return 0;
	}
	if (n->type != 6 || z->cut_y >= 0)
		return 0;
	/* runs: off, on, off, on ... (a trailing odd one ignored) */
	for (size_t i = 0; i + 1 < n->len; i += 2) {
		unsigned off = z->bin[n->off + i], on = z->bin[n->off + i + 1];

		x += off;
		if (on && (z->y < 0 || (uint64_t)z->y >= z->h || x + on > z->w)) {
			z->cut_x = (long)(x + on > z->w && x < z->w ? z->w : x);
			z->cut_y = z->y;
			return 0;
		}
		x += on;
	}
	return 0;
}

/* "\n  key = v" of the text's root set to v (the rest of its line replaced) */
static int zset(struct gfs_buf *t, const char *key, unsigned v)
{
	char pat[16], num[16];
	uint8_t *p = NULL, *e;
	size_t pl = (size_t)snprintf(pat, sizeof(pat), "\n  %s = ", key), at, nl;
	struct gfs_buf o = GFS_BUF_INIT;
	int r;

	for (size_t i = 0; i + pl <= t->len && !p; i++)
		if (!memcmp(t->data + i, pat, pl))
			p = t->data + i;
	if (!p)
		return -EIO;
	at = (size_t)(p - t->data) + pl;
	e = memchr(t->data + at, '\n', t->len - at);
	nl = e ? (size_t)(e - t->data) : t->len;
	snprintf(num, sizeof(num), "%u", v);
	r = gfs_buf_add(&o, t->data, at);
	if (!r)
		r = gfs_buf_add(&o, num, strlen(num));
	if (!r)
		r = gfs_buf_add(&o, t->data + nl, t->len - nl);
	if (!r) {
		gfs_buf_release(t);
		*t = o;
	} else {
		gfs_buf_release(&o);
	}
	return r;
}

int rpg_resize_zones(struct gfs_archive *ar, const char *view, long map, unsigned w, unsigned h,
		     struct rpg_lump **z, struct gfs_buf *out)
{
	struct rpg_lump *l = rpg_map_lump(ar->priv, map, 'Z', RPG_K_RELOAD);
	struct gfs_buf b = GFS_BUF_INIT, t = GFS_BUF_INIT;
	struct zwalk zw = { w, h, NULL, 0, -1, -1, -1 };
	char err[200];
	int r;

	*z = NULL;
	if (!l)
		return 0;
	if ((r = rpg_lump_read(ar, l, &b)))
		return r;
	zw.bin = b.data;
	if ((r = reld_walk(b.data, b.len, zvisit, &zw, err, sizeof(err))) ||
	    (r = reld_to_text(b.data, b.len, &t, err, sizeof(err)))) {
		r = gfs_err(ar, -EIO, "%s: the zone map %s does not read (%s): the map cannot change size", view,
			    l->name, err);
	} else if (zw.cut_y >= 0 || zw.cut_x >= 0) {
		r = gfs_err(ar, -EINVAL, "%s: a %ux%u map would cut zone tile %ld,%ld of the zone map (zones.txt): "
			    "clear it first", view, w, h, zw.cut_x, zw.cut_y);
	} else if (!(r = zset(&t, "w", w)) && !(r = zset(&t, "h", h))) {
		if ((r = reld_from_text(t.data, t.len, out, err, sizeof(err))))
			r = gfs_err(ar, -EIO, "%s: the zone map %s: %s", view, l->name, err);
	} else {
		r = gfs_err(ar, -EIO, "%s: the zone map %s has no w or h", view, l->name);
	}
	gfs_buf_release(&b);
	gfs_buf_release(&t);
	if (!r)
		*z = l;
	return r;
}

int rpg_resize_objects(struct gfs_archive *ar, const char *view, const struct rpg_tmap *tm, unsigned w, unsigned h)
{
	for (unsigned i = 0; i < L_SLOTS + DOORS; i++) {
		int d = i >= L_SLOTS;
		unsigned s = d ? i - L_SLOTS : i;
		long x, y;

		if (!rpg_obj_used(tm, d, s))
			continue;
		x = (int16_t)gfs_le16(rpg_obj_word(tm, d, OBJ_X, s));
		y = (int16_t)gfs_le16(rpg_obj_word(tm, d, OBJ_Y, s)) - 1;
		if (x >= (long)w || y >= (long)h)
			return gfs_err(ar, -EINVAL, "%s: %s %u at %ld,%ld would be off the %ux%u map: move or remove it "
				       "first (%s)", view, d ? "door" : "NPC slot", s, x, y, w, h,
				       d ? "doors.csv" : "npcs.csv");
	}
	return 0;
}

long rpg_resize_pages(struct gfs_archive *ar)
{
	struct rpg_lump *til = rpg_kind_lump(ar->priv, ".TIL");

	return til ? (long)((til->data ? til->data->len : til->len) / 64000) : 0;
}

/*
 * An object's x or y in pixels as the tile it lies on (the nearest) into
 * *cell: the stored value cur when it did not move (even off the map, even
 * negative).  -1 when it moved outside the map's tiles.
 */
int rpg_resize_obj_cell(const struct gfs_xml_el *o, const char *attr, unsigned tiles, long cur, double shift,
			long *cell)
{
	const char *s = gfs_xml_attr(o, attr);
	char *end;
	double v = s ? strtod(s, &end) : -1;

	if (!s || end == s || *end || v != v)
		return -1;
	v -= shift;
	*cell = cur;
	if (v == (double)cur * TILE)
		return 0;
	v = (v + TILE / 2.0) / TILE;
	*cell = (long)v;
	return v >= 0 && v < tiles ? 0 : -1;
}
