/*
 * tng_tiled.c - the maps for Tiled: maps/<name>.tmx (the whole map as a
 * TMX document), maps/<name>.png (the map drawn with its tile sprites) and
 * maps/tilesets/{tiles,npcs,spawners}.png (the tileset images the TMX
 * points at).  All read-only; they are renders of the model that
 * tng_view.c keeps (the map parts, map.ini's record, the sprites).
 *
 * A cell holds a u16 index (0xffff empty): a tile sprite (section 8) on
 * every layer but 5 (an NPC, section 28) and 6 (a spawner, section 29).
 * Each kind has its own tileset at a fixed first gid, 65536 apart, so a
 * gid never depends on how many sprites there are: gid = index + firstgid.
 * A tileset tile is the first frame of the sprite's first direction (an
 * NPC's first animation sprite, a spawner's first NPC's sprite), on a grid
 * of cells as large as the largest of them.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_codec.h"
#include "gfs_record.h"
#include "gfs_tmx.h"
#include "tng.h"

#define TNG_TS_COLUMNS	16			/* tileset image grid width, in tiles */
#define TNG_TS_GID(ts)	((unsigned)(ts) * 65536u + 1u)	/* first gid of each tileset */
#define TNG_RENDER_MAX	((uint64_t)16 << 20)	/* pixels of a rendered map or tileset */

const char *const tng_ts_name[TNG_TS_N] = { "tiles", "npcs", "spawners" };
static const unsigned tng_ts_type[TNG_TS_N] = { TNG_S_TILESPR, TNG_S_NPCS, TNG_S_SPAWNERS };

static enum tng_tset tng_layer_tset(unsigned layer)
{
	return layer == TNG_LAYER_NPCS ? TNG_TS_NPCS :
	       layer == TNG_LAYER_SPAWNERS ? TNG_TS_SPAWNERS : TNG_TS_TILES;
}

/* The sprite that tile k of tileset ts shows, or NULL (none, or its record does not decode). */
static struct tng_asset *tng_ts_sprite(struct gfs_archive *ar, struct tng *t, enum tng_tset ts,
				       unsigned k)
{
	struct tng_asset *rec = tng_nth_of_type(t, tng_ts_type[ts], k);
	const struct gfs_record *table = tng_kind_of(tng_ts_type[ts])->rec;
	const struct gfs_field *part, *f = NULL;
	struct gfs_buf b = GFS_BUF_INIT;
	size_t at, n;
	unsigned cat = 0xff, idx = 0;

	if (ts == TNG_TS_TILES || !rec)
		return rec;
	/* an NPC's first [sprite N]; a spawner's first [npc N]'s sprite (where the table puts them) */
	if (!tng_asset_content(ar, t, rec, TNG_ZASSET_MAX, &b) &&
	    (part = gfs_record_part(table, b.data, b.len, ts == TNG_TS_NPCS ? "sprite" : "npc", &at, &n)) &&
	    n && (f = gfs_record_field(part->group, "sprite")) && at + f->off + 3 <= b.len) {
		cat = b.data[at + f->off];
		idx = gfs_le16(b.data + at + f->off + 1);
	}
	gfs_buf_release(&b);
	return cat <= 3 ? tng_nth_of_type(t, TNG_S_UISPR + cat, idx) : NULL;
}

static unsigned tng_count_of_type(const struct tng *t, unsigned type)
{
	unsigned n = 0;

	for (size_t i = 0; i < t->nassets; i++)
		if (!t->assets[i].gone && t->secs[t->assets[i].sec].type == type)
			n++;
	return n;
}

/* A tileset's grid: tiles as large as its largest first frame (at least 1x1), count >= 1. */
struct tng_tsgeom {
	unsigned tw, th, count, cols, rows;
};

static void tng_ts_geom(struct gfs_archive *ar, struct tng *t, enum tng_tset ts,
			struct tng_tsgeom *g)
{
	unsigned n = tng_count_of_type(t, tng_ts_type[ts]);

	g->tw = g->th = 1;
	for (unsigned k = 0; k < n; k++) {
		struct tng_asset *spr = tng_ts_sprite(ar, t, ts, k);
		unsigned w, h;

		if (spr && !tng_sprite_image(ar, t, spr, NULL, NULL, &w, &h)) {
			if (w > g->tw)
				g->tw = w;
			if (h > g->th)
				g->th = h;
		}
	}
	g->count = n ? n : 1;	/* an empty kind gets one blank tile */
	g->cols = g->count < TNG_TS_COLUMNS ? g->count : TNG_TS_COLUMNS;
	g->rows = (g->count + g->cols - 1) / g->cols;
}

/* Whether every pixel of w x h RGBA img is opaque (it then draws as plain copies). */
static int tng_opaque(const uint8_t *img, unsigned w, unsigned h)
{
	for (size_t i = 0; i < (size_t)w * h; i++)
		if (img[i * 4 + 3] != 255)
			return 0;
	return 1;
}

/*
 * Draw w x h RGBA src over dst (dw x dh, rows pitch bytes apart) with its
 * top-left at x, y (clipped); opaque: src has no transparent pixel (tng_opaque).
 */
static void tng_over(uint8_t *dst, unsigned dw, unsigned dh, size_t pitch, const uint8_t *src,
		     unsigned w, unsigned h, long x, long y, int opaque)
{
	/* the part of src inside dst: columns x0..x1, rows y0..y1 */
	long x0 = x < 0 ? -x : 0, x1 = x + (long)w > (long)dw ? (long)dw - x : (long)w;
	long y0 = y < 0 ? -y : 0, y1 = y + (long)h > (long)dh ? (long)dh - y : (long)h;

	for (long sy = y0; sy < y1 && x0 < x1; sy++) {
		const uint8_t *s = src + ((size_t)sy * w + (size_t)x0) * 4;
		uint8_t *d = dst + (size_t)(y + sy) * pitch + (size_t)(x + x0) * 4;

		if (opaque) {
			memcpy(d, s, (size_t)(x1 - x0) * 4);
			continue;
		}
		for (long sx = x0; sx < x1; sx++, s += 4, d += 4) {
			unsigned a = s[3], da;

			if (!a)
				continue;
			if (a == 255 || !d[3]) {
				memcpy(d, s, 4);
				continue;
			}
			/* src over dst, straight alpha */
			da = d[3] * (255 - a) / 255;
			for (int c = 0; c < 3; c++)
				d[c] = (uint8_t)((s[c] * a + d[c] * da) / (a + da));
			d[3] = (uint8_t)(a + da);
		}
	}
}

/* ---- maps/tilesets/<kind>.png --------------------------------------------------- */

/* The size of a w x h picture as it is drawn (gfs_png_encode_stored); -ENOSYS: too big to draw. */
static int tng_png_size(uint64_t w, uint64_t h, uint64_t *size)
{
	if (w * h > TNG_RENDER_MAX)
		return -ENOSYS;	/* the render says why it cannot */
	*size = gfs_png_stored_size((uint32_t)w, (uint32_t)h);
	return 0;
}


static int tng_tileset_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	enum tng_tset ts = (enum tng_tset)ref->sub;
	struct tng_atlases c = { 0 };
	struct tng_tsgeom g;
	uint8_t *canvas;
	int r = 0;

	tng_ts_geom(ar, t, ts, &g);
	if ((uint64_t)g.tw * g.cols * g.th * g.rows > TNG_RENDER_MAX)
		return gfs_err(ar, -EIO, "%s: %ux%u tiles of %ux%u pixels are too big to draw", n->name,
			       g.cols, g.rows, g.tw, g.th);
	canvas = calloc((size_t)g.tw * g.cols * g.th * g.rows, 4);
	if (!canvas)
		return -ENOMEM;
	for (unsigned k = 0; k < g.count && !r; k++) {
		struct tng_asset *spr = tng_ts_sprite(ar, t, ts, k);
		uint8_t *img;
		unsigned w, h;

		if (!spr || tng_sprite_image(ar, t, spr, &c, &img, &w, &h))
			continue;	/* a sprite that does not decode is a blank tile */
		/* bottom-left in its cell, as Tiled anchors a tile */
		tng_over(canvas, g.tw * g.cols, g.th * g.rows, (size_t)g.tw * g.cols * 4, img, w, h,
			 (long)((k % g.cols) * g.tw), (long)((k / g.cols + 1) * g.th - h), 0);
		free(img);
	}
	r = gfs_png_encode_stored(canvas, g.tw * g.cols, g.th * g.rows, out);
	free(canvas);
	tng_atlases_release(&c);
	return r;
}

/* Its size without drawing: the grid's pixels, the PNG uncompressed. */
static int tng_tileset_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	struct tng_ref *ref = n->priv;
	struct tng_tsgeom g;

	tng_ts_geom(ar, ref->t, (enum tng_tset)ref->sub, &g);
	return tng_png_size((uint64_t)g.tw * g.cols, (uint64_t)g.th * g.rows, size);
}

const struct gfs_node_ops tng_tileset_ops = {
	.render = tng_tileset_render,
	.size = tng_tileset_size,
	.free = tng_ref_free,
};

/* ---- the map's geometry -------------------------------------------------------------- */

/* Orientation from the header's game type (low 4 bits); NULL: 3D, which Tiled cannot show. */
struct tng_orient {
	const char *name;	/* TMX orientation */
	char stagger;		/* hexagonal: 'x' or 'y', else 0 */
};

static int tng_orient(const struct tng *t, struct tng_orient *o)
{
	switch (t->hdr[TNG_OFF_TYPE] & 0x0f) {
	case 0: *o = (struct tng_orient){ "orthogonal", 0 }; return 0;
	case 1: *o = (struct tng_orient){ "isometric", 0 }; return 0;
	case 2: *o = (struct tng_orient){ "hexagonal", 'x' }; return 0;	/* hex, vertical columns */
	case 3: *o = (struct tng_orient){ "hexagonal", 'y' }; return 0;	/* hex, horizontal rows */
	default: return -1;
	}
}

int tng_tiled_supported(const struct tng *t)
{
	struct tng_orient o;

	return tng_orient(t, &o) == 0;
}

/* Map pixel size and the top-left of cell x, y, as Tiled lays them out (stagger index odd). */
struct tng_layout {
	struct tng_orient o;
	unsigned ms, tw, th, side;
	uint64_t w, h;
};

static void tng_layout(const struct tng *t, struct tng_layout *l)
{
	tng_orient(t, &l->o);
	l->ms = tng_map_size(t);
	tng_tile_size(t, &l->tw, &l->th);
	if (!l->tw)
		l->tw = 1;
	if (!l->th)
		l->th = 1;
	l->side = l->o.stagger == 'x' ? l->tw / 2 : l->th / 2;
	if (l->o.stagger == 'y') {
		unsigned rowh = (l->th + l->side) / 2;

		l->w = (uint64_t)l->ms * l->tw + l->tw / 2;
		l->h = (uint64_t)(l->ms - 1) * rowh + l->th;
	} else if (l->o.stagger == 'x') {
		unsigned colw = (l->tw + l->side) / 2;

		l->w = (uint64_t)(l->ms - 1) * colw + l->tw;
		l->h = (uint64_t)l->ms * l->th + l->th / 2;
	} else {
		l->w = (uint64_t)l->ms * l->tw;
		l->h = (uint64_t)l->ms * l->th;
	}
}

static void tng_cell_xy(const struct tng_layout *l, unsigned x, unsigned y, long *px, long *py)
{
	if (l->o.stagger == 'y') {
		*px = (long)x * l->tw + (y & 1 ? l->tw / 2 : 0);
		*py = (long)y * ((l->th + l->side) / 2);
	} else if (l->o.stagger == 'x') {
		*px = (long)x * ((l->tw + l->side) / 2);
		*py = (long)y * l->th + (x & 1 ? l->th / 2 : 0);
	} else if (!strcmp(l->o.name, "isometric")) {
		*px = (long)l->ms * l->tw / 2 + ((long)x - (long)y - 1) * (long)l->tw / 2;
		*py = ((long)x + (long)y) * (long)l->th / 2;
	} else {
		*px = (long)x * l->tw;
		*py = (long)y * l->th;
	}
}

/* ---- maps/<name>.png ---------------------------------------------------------------- */

/* The tiles a map draws, each decoded once a render: one array a tileset, as long as its kind. */
struct tng_tilecache {
	uint8_t *img;
	unsigned w, h;
	int done, opaque;
};

struct tng_tiles {
	struct tng_tilecache *tc[TNG_TS_N];
	unsigned n[TNG_TS_N];
	struct tng_atlases atl;
};

/* Tile v of tileset ts, decoded on first use; NULL: none (no such sprite, or it does not decode). */
static struct tng_tilecache *tng_tile(struct gfs_archive *ar, struct tng *t, struct tng_tiles *c,
				      enum tng_tset ts, unsigned v, int *err)
{
	struct tng_tilecache *tc;

	if (!c->tc[ts]) {
		/* sized by the kind's count, not 65535 entries: a fresh page costs a fault each */
		c->n[ts] = tng_count_of_type(t, tng_ts_type[ts]);
		c->tc[ts] = calloc(c->n[ts] ? c->n[ts] : 1, sizeof(*c->tc[ts]));
		if (!c->tc[ts]) {
			*err = -ENOMEM;
			return NULL;
		}
	}
	if (v >= c->n[ts])
		return NULL;
	tc = &c->tc[ts][v];
	if (!tc->done) {
		struct tng_asset *spr = tng_ts_sprite(ar, t, ts, v);

		tc->done = 1;
		if (spr && tng_sprite_image(ar, t, spr, &c->atl, &tc->img, &tc->w, &tc->h))
			tc->img = NULL;
		else if (tc->img)
			tc->opaque = tng_opaque(tc->img, tc->w, tc->h);
	}
	return tc->img ? tc : NULL;
}

static void tng_tiles_release(struct tng_tiles *c)
{
	for (int ts = 0; ts < TNG_TS_N; ts++) {
		for (unsigned v = 0; c->tc[ts] && v < c->n[ts]; v++)
			free(c->tc[ts][v].img);
		free(c->tc[ts]);
	}
	tng_atlases_release(&c->atl);
}

/*
 * Every layer of map m in order onto canvas (l's size, transparent, rows
 * pitch bytes apart), each tile bottom-left in its cell.
 */
static int tng_map_draw(struct gfs_archive *ar, struct tng *t, const struct tng_layout *l,
			const struct tng_map *m, uint8_t *canvas, size_t pitch)
{
	struct tng_tiles c = { 0 };
	unsigned layers = tng_map_layers(t);
	int r = 0;

	for (unsigned k = 0; k < layers && !r; k++) {
		enum tng_tset ts = tng_layer_tset(k);
		const uint16_t *cl = m->cells + (size_t)k * l->ms * l->ms;

		for (unsigned y = 0; y < l->ms && !r; y++)
			for (unsigned x = 0; x < l->ms && !r; x++) {
				unsigned v = cl[(size_t)y * l->ms + x];
				struct tng_tilecache *tc;
				long px, py;

				if (v == 0xffff || !(tc = tng_tile(ar, t, &c, ts, v, &r)))
					continue;	/* no such sprite: nothing drawn */
				tng_cell_xy(l, x, y, &px, &py);
				tng_over(canvas, (unsigned)l->w, (unsigned)l->h, pitch, tc->img, tc->w, tc->h, px,
					 py + (long)l->th - (long)tc->h, tc->opaque);
			}
	}
	tng_tiles_release(&c);
	return r;
}

/*
 * Drawn straight into the PNG's rows (gfs_png_rows_begin): no canvas to
 * fault in and copy, the largest cost of a first read.
 */
static int tng_mappng_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	struct gfs_buf b = GFS_BUF_INIT;
	struct gfs_png_rows pr;
	struct tng_layout l;
	struct tng_map m;
	int r;

	if (!tng_tiled_supported(t))
		return gfs_err(ar, -EIO, "%s: a 3D game's map cannot be drawn", n->name);
	tng_layout(t, &l);
	if (l.w * l.h > TNG_RENDER_MAX || l.w > GFS_PNG_ROW_MAXW)
		return gfs_err(ar, -EIO, "%s: %llux%llu pixels is too big to draw", n->name,
			       (unsigned long long)l.w, (unsigned long long)l.h);
	m.cells = NULL;
	r = tng_map_get(ar, n, &b, &m, 1);
	if (!r)
		r = gfs_png_rows_begin(out, (uint32_t)l.w, (uint32_t)l.h, &pr);
	if (!r)
		r = tng_map_draw(ar, t, &l, &m, pr.pix, pr.stride);
	if (!r)
		gfs_png_rows_end(out, &pr);
	free(m.cells);
	gfs_buf_release(&b);
	return r;
}

/* Its size without drawing: the map's pixels, the PNG uncompressed (a stat walk draws nothing). */
static int tng_mappng_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	struct tng_ref *ref = n->priv;
	struct tng_layout l;

	(void)ar;
	if (!tng_tiled_supported(ref->t))
		return -ENOSYS;
	tng_layout(ref->t, &l);
	if (l.w * l.h > TNG_RENDER_MAX || l.w > GFS_PNG_ROW_MAXW)
		return -ENOSYS;	/* the render says why it cannot */
	*size = gfs_png_rows_size((uint32_t)l.w, (uint32_t)l.h);
	return 0;
}

const struct gfs_node_ops tng_mappng_ops = {
	.render = tng_mappng_render,
	.size = tng_mappng_size,
	.free = tng_ref_free,
};

/* ---- maps/<name>.tmx ---------------------------------------------------------------- */

/* map.ini as an ordered list of (section, key, value), each a malloc'd string */
struct tng_inikv {
	char *sect, *key, *val;
};

struct tng_ini {
	struct tng_inikv *kv;
	size_t n, cap;
};

static void tng_ini_release(struct tng_ini *ini)
{
	for (size_t i = 0; i < ini->n; i++) {
		free(ini->kv[i].sect);
		free(ini->kv[i].key);
		free(ini->kv[i].val);
	}
	free(ini->kv);
	memset(ini, 0, sizeof(*ini));
}

static int tng_ini_add(struct tng_ini *ini, const char *sect, size_t sl, const char *key, size_t kl,
		       const char *val, size_t vl)
{
	struct tng_inikv *kv;

	if (ini->n == ini->cap) {
		size_t cap = ini->cap ? ini->cap * 2 : 32;

		kv = realloc(ini->kv, cap * sizeof(*kv));
		if (!kv)
			return -ENOMEM;
		ini->kv = kv;
		ini->cap = cap;
	}
	kv = &ini->kv[ini->n];
	kv->sect = strndup(sect, sl);
	kv->key = strndup(key, kl);
	kv->val = strndup(val, vl);
	if (!kv->sect || !kv->key || !kv->val) {
		free(kv->sect);
		free(kv->key);
		free(kv->val);
		return -ENOMEM;
	}
	ini->n++;
	return 0;
}

/* The "key = value" lines of map.ini's text under their sections (comments skipped). */
static int tng_ini_read(const char *s, size_t len, struct tng_ini *ini)
{
	const char *sect = "";
	size_t sl = 0, i = 0;
	int r = 0;

	while (i < len && !r) {
		const char *line = s + i, *nl = memchr(line, '\n', len - i), *eq;
		size_t ll = nl ? (size_t)(nl - line) : len - i;

		i += ll + 1;
		if (!ll || line[0] == ';')
			continue;
		if (line[0] == '[' && ll > 2) {
			sect = line + 1;
			sl = ll - 2;
			continue;
		}
		eq = memchr(line, '=', ll);
		if (!eq || eq == line || eq[-1] != ' ')
			continue;
		{
			const char *v = eq + 1 + (eq + 1 < line + ll && eq[1] == ' ');

			r = tng_ini_add(ini, sect, sl, line, (size_t)(eq - line) - 1, v, (size_t)(line + ll - v));
		}
	}
	return r;
}

/* A path's "x,y x,y" points as a polyline relative to its first point, in pixels. */
static int tng_tmx_path(struct gfs_buf *out, const char *id, const char *points, unsigned obj,
			unsigned ux, unsigned uy)
{
	long x0 = 0, y0 = 0;
	const char *p = points;
	int first = 1, r;

	r = gfs_buf_printf(out, "  <object id=\"%u\" name=\"path\"", obj);
	while (!r && *p) {
		unsigned x, y;
		int used = 0;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (sscanf(p, "%u,%u%n", &x, &y, &used) != 2 || (p[used] && p[used] != ' '))
			return -EIO;
		p += used;
		if (first) {
			/* the object sits at the first point, the middle of its cell */
			x0 = (long)x * ux + ux / 2;
			y0 = (long)y * uy + uy / 2;
			r = gfs_buf_printf(out, " x=\"%ld\" y=\"%ld\"", x0, y0);
		}
		if (!r && first)
			r = gfs_buf_adds(out, ">\n   <properties>\n    <property name=\"id\" value=\"");
		if (!r && first)
			r = gfs_tmx_attr(out, id, strlen(id));
		if (!r)
			r = gfs_buf_adds(out, first ? "\"/>\n   </properties>\n   <polyline points=\"" : " ");
		first = 0;
		if (!r)
			r = gfs_buf_printf(out, "%ld,%ld", (long)x * ux + ux / 2 - x0,
					   (long)y * uy + uy / 2 - y0);
	}
	if (!r && first) {	/* no points: an object with no polyline */
		r = gfs_buf_adds(out, ">\n   <properties>\n    <property name=\"id\" value=\"");
		if (!r)
			r = gfs_tmx_attr(out, id, strlen(id));
		return r ? r : gfs_buf_adds(out, "\"/>\n   </properties>\n  </object>\n");
	}
	return r ? r : gfs_buf_adds(out, "\"/>\n  </object>\n");
}

/*
 * map.ini's [map] keys and [parallax N] keys (as parallaxN.key) as TMX
 * properties; its [path N] sections are the paths layer's objects.
 */
static int tng_tmx_prop(struct gfs_buf *out, const struct tng_inikv *kv)
{
	int r = gfs_buf_adds(out, "  <property name=\"");

	if (!r && strcmp(kv->sect, "map")) {
		/* "parallax 0" -> "parallax0." */
		for (const char *c = kv->sect; *c && !r; c++)
			if (*c != ' ')
				r = gfs_buf_addc(out, (uint8_t)*c);
		if (!r)
			r = gfs_buf_addc(out, '.');
	}
	if (!r)
		r = gfs_tmx_attr(out, kv->key, strlen(kv->key));
	if (!r)
		r = gfs_buf_adds(out, "\" value=\"");
	if (!r)
		r = gfs_tmx_attr(out, kv->val, strlen(kv->val));
	return r ? r : gfs_buf_adds(out, "\"/>\n");
}

static int tng_tmx_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	struct gfs_buf b = GFS_BUF_INIT, text = GFS_BUF_INIT;
	struct tng_ini ini = { 0 };
	unsigned npaths = 0, obj = 0, layers = tng_map_layers(t);
	struct tng_layout l;
	struct tng_map m;
	int r;

	if (!tng_tiled_supported(t))
		return gfs_err(ar, -EIO, "%s: Tiled has no orientation for a 3D game", n->name);
	tng_layout(t, &l);
	m.cells = NULL;
	r = tng_map_get(ar, n, &b, &m, 1);
	if (!r)
		r = tng_mapini_ops.render(ar, n, &text);
	if (!r)
		r = tng_ini_read((const char *)text.data, text.len, &ini);
	if (r)
		goto out;
	for (size_t i = 0; i < ini.n; i++)
		if (!strcmp(ini.kv[i].key, "points"))
			npaths++;
	r = gfs_buf_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			   "<map version=\"1.8\" tiledversion=\"1.8.2\" orientation=\"%s\" "
			   "renderorder=\"right-down\" width=\"%u\" height=\"%u\" tilewidth=\"%u\" "
			   "tileheight=\"%u\" infinite=\"0\"",
			   l.o.name, l.ms, l.ms, l.tw, l.th);
	if (!r && l.o.stagger)
		r = gfs_buf_printf(out, " hexsidelength=\"%u\" staggeraxis=\"%c\" staggerindex=\"odd\"",
				   l.side, l.o.stagger);
	if (!r)
		r = gfs_buf_printf(out, " nextlayerid=\"%u\" nextobjectid=\"%u\">\n"
				   " <properties>\n", layers + 2, npaths + 1);
	for (size_t i = 0; i < ini.n && !r; i++)
		if (strncmp(ini.kv[i].sect, "path ", 5))
			r = tng_tmx_prop(out, &ini.kv[i]);
	if (!r)
		r = gfs_buf_adds(out, " </properties>\n");
	for (int ts = 0; ts < TNG_TS_N && !r; ts++) {
		struct tng_tsgeom g;

		tng_ts_geom(ar, t, (enum tng_tset)ts, &g);
		r = gfs_buf_printf(out, " <tileset firstgid=\"%u\" name=\"%s\" tilewidth=\"%u\" "
				   "tileheight=\"%u\" tilecount=\"%u\" columns=\"%u\">\n"
				   "  <image source=\"tilesets/%s.png\" width=\"%u\" height=\"%u\"/>\n"
				   " </tileset>\n", TNG_TS_GID(ts), tng_ts_name[ts], g.tw, g.th,
				   g.count, g.cols, tng_ts_name[ts], g.tw * g.cols, g.th * g.rows);
	}
	for (unsigned k = 0; k < layers && !r; k++) {
		const uint16_t *cl = m.cells + (size_t)k * l.ms * l.ms;
		unsigned first = TNG_TS_GID(tng_layer_tset(k));

		r = gfs_buf_printf(out, " <layer id=\"%u\" name=\"layer%02u\" width=\"%u\" height=\"%u\">\n"
				   "  <data encoding=\"csv\">\n", k + 1, k, l.ms, l.ms);
		for (size_t i = 0; i < (size_t)l.ms * l.ms && !r; i++) {
			r = gfs_buf_add_dec(out, cl[i] == 0xffff ? 0 : cl[i] + first);
			if (!r && i + 1 < (size_t)l.ms * l.ms)
				r = gfs_buf_adds(out, (i + 1) % l.ms ? "," : ",\n");
		}
		if (!r)
			r = gfs_buf_adds(out, "\n</data>\n </layer>\n");
	}
	if (!r)
		r = gfs_buf_printf(out, " <objectgroup id=\"%u\" name=\"paths\">\n", layers + 1);
	/* each [path N] is "id = ..." then "points = ..." (the record codec's order) */
	for (size_t i = 1; i < ini.n && !r; i++) {
		if (strncmp(ini.kv[i].sect, "path ", 5) || strcmp(ini.kv[i].key, "points"))
			continue;
		r = tng_tmx_path(out, strcmp(ini.kv[i - 1].key, "id") ? "" : ini.kv[i - 1].val,
				 ini.kv[i].val, ++obj, !strcmp(l.o.name, "isometric") ? l.th : l.tw, l.th);
		if (r == -EIO)
			r = gfs_err(ar, -EIO, "%s: [%s]'s points do not render", n->name, ini.kv[i].sect);
	}
	if (!r)
		r = gfs_buf_adds(out, " </objectgroup>\n</map>\n");
out:
	free(m.cells);
	tng_ini_release(&ini);
	gfs_buf_release(&text);
	gfs_buf_release(&b);
	return r;
}


/* ---- a TMX written back ------------------------------------------------------------- */

/*
 * A number at s (Tiled may write a fraction): decimal digits with an
 * optional sign, point and exponent, within +-1e9; -1 for anything else,
 * NaN, infinities and hex among them (strtod() takes them all, and a NaN
 * passes every range test), else 0 and *end past it.
 */
static int tng_xnum(const char *s, char **end, double *d)
{
	*d = strtod(s, end);
	if (*end == s || !isfinite(*d) || *d < -1e9 || *d > 1e9)
		return -1;
	for (const char *c = s; c < *end; c++)	/* not hex, "nan(...)" or "infinity" */
		if (!strchr("0123456789+-.eE", *c))
			return -1;
	return 0;
}

/* A coordinate attribute: one number and nothing else. */
static int tng_xcoord(const char *v, double *d)
{
	char *end;

	return !v || tng_xnum(v, &end, d) || *end ? -1 : 0;
}

struct tng_tmxin {
	struct gfs_archive *ar;
	struct gfs_node *n;
	struct tng *t;
	struct tng_layout l;
	unsigned layers;
	long first[TNG_TS_N];		/* the TMX's first gid of each tileset, -1 absent */
	uint16_t *cells;
	uint8_t *seen;			/* layers given */
	struct tng_ini ini;
	int paths_given;
	struct gfs_buf paths;		/* [path N] sections from the object layer */
	unsigned npaths;
};

#define tng_tmx_err(in, e, ...) gfs_tmx_err((in)->ar, (in)->n->name, (e), __VA_ARGS__)

static int tng_tmx_tileset(struct tng_tmxin *in, const struct gfs_xml_el *e)
{
	char base[64];
	const char *name = gfs_tmx_tileset_name(e, base, sizeof(base));
	long first = gfs_tmx_num(e, "firstgid");

	if (first < 1)
		return tng_tmx_err(in, e, "<tileset> has no firstgid");
	for (int ts = 0; ts < TNG_TS_N; ts++)
		if (name && !strcmp(name, tng_ts_name[ts])) {
			if (in->first[ts] >= 0)
				return tng_tmx_err(in, e, "tileset '%s' twice", name);
			in->first[ts] = first;
			return 0;
		}
	return tng_tmx_err(in, e, "tileset '%s' is not one of the game's (tiles, npcs, spawners)",
			   name ? name : "");
}

static int tng_tmx_layer(struct tng_tmxin *in, const struct gfs_xml_el *e)
{
	const char *name = gfs_xml_attr(e, "name");
	size_t cells = (size_t)in->l.ms * in->l.ms;
	const struct gfs_xml_el *d;
	unsigned k = name ? tng_layer_of(name, "") : ~0u;
	enum tng_tset ts;
	uint32_t *gids;
	int r;

	if (k >= in->layers)
		return tng_tmx_err(in, e, "layer '%s' is not one of the map's (layer00..layer%02u)",
				   name ? name : "", in->layers - 1);
	if (in->seen[k])
		return tng_tmx_err(in, e, "layer '%s' twice", name);
	in->seen[k] = 1;
	gids = malloc(cells * sizeof(*gids));
	if (!gids)
		return -ENOMEM;
	r = gfs_tmx_layer(in->ar, in->n->name, e, name, in->l.ms, in->l.ms, gids);
	for (d = e->kid; d && strcmp(d->name, "data"); d = d->next)
		;	/* the cells' messages name the <data> line */
	ts = tng_layer_tset(k);
	for (size_t i = 0; i < cells && !r; i++) {
		uint32_t g = gids[i];
		long best = -1;
		int bts = -1;

		if (!g) {
			in->cells[(size_t)k * cells + i] = 0xffff;
			continue;
		}
		for (int t = 0; t < TNG_TS_N; t++)
			if (in->first[t] >= 0 && in->first[t] <= (long)g && in->first[t] > best) {
				best = in->first[t];
				bts = t;
			}
		if (bts != (int)ts)
			r = tng_tmx_err(in, d, "layer '%s' cell %zu,%zu: gid %u is not a tile of tileset '%s'",
					name, i % in->l.ms, i / in->l.ms, g, tng_ts_name[ts]);
		else if ((long)g - best > 65534)
			r = tng_tmx_err(in, d, "layer '%s' cell %zu,%zu: tile %ld is past 65534", name,
					i % in->l.ms, i / in->l.ms, (long)g - best);
		else
			in->cells[(size_t)k * cells + i] = (uint16_t)((long)g - best);
	}
	free(gids);
	return r;
}

static int tng_tmx_props_in(struct tng_tmxin *in, const struct gfs_xml_el *e)
{
	for (const struct gfs_xml_el *p = e->kid; p; p = p->next) {
		const char *name = gfs_xml_attr(p, "name"), *val = gfs_xml_attr(p, "value"), *dot;
		char sect[32] = "map";
		const char *key;
		size_t i;

		if (strcmp(p->name, "property") || !name)
			return tng_tmx_err(in, p, "<%s> in the map's properties", p->name);
		if (!val)
			val = p->text;	/* Tiled writes a multi-line value as text */
		if (strchr(val, '\n'))
			return tng_tmx_err(in, p, "property '%s' has more than one line", name);
		key = name;
		dot = strchr(name, '.');
		if (dot && !strncmp(name, "parallax", 8) && dot - name > 8 && dot - name < 20) {
			snprintf(sect, sizeof(sect), "parallax %.*s", (int)(dot - name - 8), name + 8);
			key = dot + 1;
		}
		for (i = 0; i < in->ini.n; i++)
			if (!strcmp(in->ini.kv[i].sect, sect) && !strcmp(in->ini.kv[i].key, key))
				break;
		if (i == in->ini.n && sect[0] == 'p') {	/* a new parallax: after the others */
			struct tng_inikv kv;

			while (i > 0 && strcmp(in->ini.kv[i - 1].sect, "map") && strncmp(in->ini.kv[i - 1].sect, "parallax", 8))
				i--;
			if (tng_ini_add(&in->ini, sect, strlen(sect), key, strlen(key), "", 0))
				return -ENOMEM;
			kv = in->ini.kv[in->ini.n - 1];
			memmove(&in->ini.kv[i + 1], &in->ini.kv[i], (in->ini.n - 1 - i) * sizeof(kv));
			in->ini.kv[i] = kv;
		}
		if (i == in->ini.n)
			return tng_tmx_err(in, p, "unknown property '%s'", name);
		free(in->ini.kv[i].val);
		if (!(in->ini.kv[i].val = strdup(val)))
			return -ENOMEM;
	}
	return 0;
}

/* An object of the paths layer: a polyline through cells, its id a property */
static int tng_tmx_object(struct tng_tmxin *in, const struct gfs_xml_el *o)
{
	unsigned ux = !strcmp(in->l.o.name, "isometric") ? in->l.th : in->l.tw, uy = in->l.th;
	const struct gfs_xml_el *k, *line = NULL;
	const char *id = NULL;
	double x0, y0;
	int r;

	if (tng_xcoord(gfs_xml_attr(o, "x"), &x0) || tng_xcoord(gfs_xml_attr(o, "y"), &y0))
		return tng_tmx_err(in, o, "path object without x and y");
	for (k = o->kid; k; k = k->next) {
		if (!strcmp(k->name, "polyline") && !line) {
			line = k;
		} else if (!strcmp(k->name, "properties")) {
			for (const struct gfs_xml_el *p = k->kid; p; p = p->next) {
				const char *pn = gfs_xml_attr(p, "name");

				if (strcmp(p->name, "property") || !pn || strcmp(pn, "id"))
					return tng_tmx_err(in, p, "a path has no property '%s' (only id)",
							   pn ? pn : "");
				id = gfs_xml_attr(p, "value");
			}
		} else {
			return tng_tmx_err(in, k, "<%s> in a path object (a path is a polyline)", k->name);
		}
	}
	if (!id)
		return tng_tmx_err(in, o, "path object without an id property");
	r = gfs_buf_printf(&in->paths, "[path %u]\nid = %s\npoints =", in->npaths++, id);
	if (line) {
		const char *s = gfs_xml_attr(line, "points");

		while (!r && s && *s) {
			char *end;
			double px, py, cx, cy;

			while (*s == ' ')
				s++;
			if (!*s)
				break;
			if (tng_xnum(s, &end, &px) || *end != ',' || tng_xnum(end + 1, &end, &py) ||
			    (*end && *end != ' '))
				return tng_tmx_err(in, line, "polyline points are not x,y pairs of finite numbers");
			s = end;
			cx = (x0 + px) / ux;
			cy = (y0 + py) / uy;
			if (!(cx >= 0 && cy >= 0 && cx < in->l.ms && cy < in->l.ms))
				return tng_tmx_err(in, line, "a path point (%g,%g) is outside the map", x0 + px,
						   y0 + py);
			r = gfs_buf_printf(&in->paths, " %u,%u", (unsigned)cx, (unsigned)cy);
		}
	}
	return r ? r : gfs_buf_adds(&in->paths, "\n\n");
}

static int tng_tmx_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tng_ref *ref = n->priv;
	struct tng_tmxin in = { .ar = ar, .n = n, .t = ref->t };
	struct gfs_buf b = GFS_BUF_INIT, text = GFS_BUF_INIT, ini = GFS_BUF_INIT;
	struct gfs_xml x = { 0 };
	struct tng_map m;
	const struct gfs_xml_el *root, *e;
	char why[300];
	const char *s;
	int r;

	m.cells = NULL;
	tng_layout(in.t, &in.l);
	in.layers = tng_map_layers(in.t);
	for (int ts = 0; ts < TNG_TS_N; ts++)
		in.first[ts] = -1;
	if (gfs_xml_parse(data, len, &x, why, sizeof(why)))
		return gfs_err(ar, -EINVAL, "%s: %s", n->name, why);
	r = tng_map_get(ar, n, &b, &m, 1);
	if (!r)
		r = tng_mapini_ops.render(ar, n, &text);
	if (!r)
		r = tng_ini_read((const char *)text.data, text.len, &in.ini);
	if (!r && (!(in.cells = malloc(m.ncells * sizeof(*in.cells))) ||
		   !(in.seen = calloc(in.layers ? in.layers : 1, 1))))
		r = -ENOMEM;
	if (r)
		goto out;
	memcpy(in.cells, m.cells, m.ncells * sizeof(*in.cells));
	root = x.root;
	if (strcmp(root->name, "map")) {
		r = tng_tmx_err(&in, root, "the root element is <%s>, not <map>", root->name);
		goto out;
	}
	if (!(s = gfs_xml_attr(root, "orientation")) || strcmp(s, in.l.o.name)) {
		r = tng_tmx_err(&in, root, "orientation '%s' is not the game's (%s)", s ? s : "",
				in.l.o.name);
		goto out;
	}
	if (gfs_tmx_num(root, "width") != in.l.ms || gfs_tmx_num(root, "height") != in.l.ms ||
	    gfs_tmx_num(root, "tilewidth") != in.l.tw || gfs_tmx_num(root, "tileheight") != in.l.th ||
	    ((s = gfs_xml_attr(root, "infinite")) && strcmp(s, "0"))) {
		r = tng_tmx_err(&in, root, "the map is not %ux%u finite with %ux%u tiles (neither can change)",
				in.l.ms, in.l.ms, in.l.tw, in.l.th);
		goto out;
	}
	for (e = root->kid; e && !r; e = e->next) {
		if (!strcmp(e->name, "tileset")) {
			r = tng_tmx_tileset(&in, e);
		} else if (!strcmp(e->name, "properties")) {
			r = tng_tmx_props_in(&in, e);
		} else if (!strcmp(e->name, "layer")) {
			r = tng_tmx_layer(&in, e);
		} else if (!strcmp(e->name, "objectgroup")) {
			if (!(s = gfs_xml_attr(e, "name")) || strcmp(s, "paths") || in.paths_given) {
				r = tng_tmx_err(&in, e, "object layer '%s' is not the map's (paths)", s ? s : "");
				break;
			}
			in.paths_given = 1;
			for (const struct gfs_xml_el *o = e->kid; o && !r; o = o->next)
				r = !strcmp(o->name, "object") ? tng_tmx_object(&in, o) :
				    !strcmp(o->name, "properties") && !o->kid ? 0 :
				    tng_tmx_err(&in, o, "<%s> in the paths layer", o->name);
		} else if (strcmp(e->name, "editorsettings")) {
			r = tng_tmx_err(&in, e, "<%s> is nothing the map holds", e->name);
		}
	}
	/* a layer's tiles from a tileset the TMX does not list were refused above */
	for (size_t i = 0; i < in.ini.n && !r; i++) {
		struct tng_inikv *kv = &in.ini.kv[i];

		if (in.paths_given && !strncmp(kv->sect, "path ", 5))
			continue;
		if (!i || strcmp(kv->sect, in.ini.kv[i - 1].sect))
			r = gfs_buf_printf(&ini, "%s[%s]\n", i ? "\n" : "", kv->sect);
		if (!r)
			r = gfs_buf_printf(&ini, "%s = %s\n", kv->key, kv->val);
	}
	if (!r && in.paths_given && in.npaths)
		r = gfs_buf_printf(&ini, "\n%.*s", (int)in.paths.len, (const char *)in.paths.data);
	if (!r)
		r = tng_map_store(ar, n, n->name, ini.data, ini.len, in.cells);
out:
	tng_ini_release(&in.ini);
	gfs_buf_release(&in.paths);
	free(in.cells);
	free(in.seen);
	free(m.cells);
	gfs_xml_free(&x);
	gfs_buf_release(&ini);
	gfs_buf_release(&text);
	gfs_buf_release(&b);
	return r;
}

const struct gfs_node_ops tng_tmx_ops = {
	.render = tng_tmx_render,
	.store = tng_tmx_store,
	.free = tng_ref_free,
};
