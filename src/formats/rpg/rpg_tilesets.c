/*
 * rpg_tilesets.c - drawing OHRRPGCE tiles, and maps/tilesets/.
 *
 *   maps/tilesets/NN-animated.png  the animated range of tileset NN
 *                          (tile bytes 160-255), each tile the first frame
 *                          of its TAP pattern; read-only
 *   maps/tilesets/NN-upper.png  all 256 tile bytes of tileset NN (0-159
 *                          the page's tiles, 160-255 the animated range's
 *                          first frames) with colour 0 clear (a tRNS
 *                          entry), as the engine draws the map's layers
 *                          above layer 0; map.tmx's upper layers use it
 *   maps/tilesets/walls.png, foes.png  the wall bits and foe set numbers;
 *                          read-only
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "rpg.h"
#include "rpg_draw.h"

/* ---- drawing tiles ------------------------------------------------------------ */

struct rpg_lump *rpg_kind_lump(struct rpg_model *m, const char *suffix)
{
	for (size_t i = 0; i < m->n; i++)
		if (rpg_lump_is(m, m->lumps[i], suffix))
			return m->lumps[i];
	return NULL;
}

void rpg_draw_load(struct gfs_archive *ar, struct rpg_draw *d)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *l;

	memset(d, 0, sizeof(*d));
	d->ar = ar;
	d->til = rpg_kind_lump(m, ".TIL");
	if ((l = rpg_kind_lump(m, ".TAP")))
		(void)rpg_lump_read(ar, l, &d->tap);	/* none: every pattern starts at tile 0 */
	rpg_master_palette(ar, d->rgb);
}

void rpg_draw_release(struct rpg_draw *d)
{
	for (unsigned i = 0; i < d->npages; i++)
		free(d->page[i]);
	gfs_buf_release(&d->tap);
}

/* Page ts of the TIL lump, or NULL when there is none (its tiles draw colour 0) */
const uint8_t *rpg_page(struct rpg_draw *d, long ts)
{
	unsigned i;

	for (i = 0; i < d->npages; i++)
		if (d->ts[i] == ts)
			return d->page[i];
	if (i == RPG_MAP_MAX_LAYERS)
		return NULL;
	d->ts[i] = ts;
	d->page[i] = malloc(PAGE_BYTES);
	d->npages++;
	if (d->page[i] && (!d->til || rpg_lump_range(d->ar, d->til, (uint64_t)ts * PAGE_BYTES, PAGE_BYTES, d->page[i]))) {
		free(d->page[i]);
		d->page[i] = NULL;
	}
	return d->page[i];
}

/* The tile of page ts that byte v draws: itself, or its animation's first frame */
unsigned rpg_tile_of(const struct rpg_draw *d, long ts, unsigned v)
{
	unsigned p, k;
	size_t at;
	long start = 0;

	if (v < TS_TILES)
		return v;
	p = (v - TS_TILES) / ANIM_RANGE;
	k = (v - TS_TILES) % ANIM_RANGE;
	at = (size_t)ts * TAP_REC + p * TAP_PATTERN;
	if (at + 2 <= d->tap.len)
		start = (int16_t)gfs_le16(d->tap.data + at);
	if (start < 0)
		start = 0;
	return (unsigned)((start + k) % TS_TILES);
}

/* The colour index of pixel (x, y) of a tile of a Mode-X page */
uint8_t rpg_tile_px(const uint8_t *page, unsigned tile, unsigned x, unsigned y)
{
	unsigned px = tile % TS_COLS * TILE + x, py = tile / TS_COLS * TILE + y;

	return page ? page[(px % 4) * PAGE_PLANE + (size_t)py * (PAGE_W / 4) + px / 4] : 0;
}

/* ---- maps/tilesets/ ----------------------------------------------------------- */

/*
 * Tiles first..first+count-1 of tileset page v->rec, 16 a row, each byte
 * drawn as the map draws it (160-255: its TAP pattern's first frame);
 * colour 0 clear when clear is set.
 */
static int rpg_tiles_png(struct gfs_archive *ar, struct gfs_node *n, unsigned first, unsigned count,
			 unsigned clear, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	const unsigned w = TS_COLS * TILE, h = count / TS_COLS * TILE;
	uint8_t *idx = malloc((size_t)w * h);
	const uint8_t *page;
	struct rpg_draw d;
	int r;

	if (!idx)
		return -ENOMEM;
	rpg_draw_load(ar, &d);
	page = rpg_page(&d, (long)v->rec);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			unsigned tile = rpg_tile_of(&d, (long)v->rec, first + y / TILE * TS_COLS + x / TILE);

			idx[(size_t)y * w + x] = rpg_tile_px(page, tile, x % TILE, y % TILE);
		}
	r = gfs_png_encode_indexed_clear(idx, w, h, d.rgb, 256, clear, out);
	rpg_draw_release(&d);
	free(idx);
	return r;
}

/* NN-animated.png: the 96 animated tiles, opaque */
static int rpg_anim_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	return rpg_tiles_png(ar, n, TS_TILES, ANIM_TILES, 0, out);
}

static const struct gfs_node_ops rpg_anim_ops = {
	.render = rpg_anim_render,
	.free = free,
};

/* NN-upper.png: every tile byte, colour 0 clear (the engine's layers above 0) */
static int rpg_upper_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	return rpg_tiles_png(ar, n, 0, GID_SPAN, 1, out);
}

static const struct gfs_node_ops rpg_upper_ops = {
	.render = rpg_upper_render,
	.free = free,
};

/* 3x5 digits, a row a byte (3 low bits, the leftmost pixel the highest) */
static const uint8_t digit5[10][5] = {
	{ 7, 5, 5, 5, 7 }, { 2, 6, 2, 2, 7 }, { 7, 1, 7, 4, 7 }, { 7, 1, 3, 1, 7 }, { 5, 5, 7, 1, 1 },
	{ 7, 4, 7, 1, 7 }, { 7, 4, 7, 5, 7 }, { 7, 1, 1, 2, 2 }, { 7, 5, 7, 5, 7 }, { 7, 5, 7, 1, 7 },
};

static void rpg_fill(uint8_t *rgba, unsigned stride, unsigned x0, unsigned y0, unsigned w, unsigned h,
		     uint32_t colour)
{
	for (unsigned y = y0; y < y0 + h; y++)
		for (unsigned x = x0; x < x0 + w; x++) {
			uint8_t *o = rgba + ((size_t)y * stride + x) * 4;

			o[0] = (uint8_t)(colour >> 24);
			o[1] = (uint8_t)(colour >> 16);
			o[2] = (uint8_t)(colour >> 8);
			o[3] = (uint8_t)colour;
		}
}

/* Wall bits: N E S W as red edges; vehicle A, B, harm, overhead as corner squares */
static void rpg_wall_tile(uint8_t *rgba, unsigned stride, unsigned x0, unsigned y0, unsigned v)
{
	static const uint32_t corner[4] = { 0x2060ffff, 0x20c040ff, 0xff8000ff, 0xa040c0ff };

	if (v & 1)
		rpg_fill(rgba, stride, x0, y0, TILE, 2, 0xff0000ff);
	if (v & 2)
		rpg_fill(rgba, stride, x0 + TILE - 2, y0, 2, TILE, 0xff0000ff);
	if (v & 4)
		rpg_fill(rgba, stride, x0, y0 + TILE - 2, TILE, 2, 0xff0000ff);
	if (v & 8)
		rpg_fill(rgba, stride, x0, y0, 2, TILE, 0xff0000ff);
	for (unsigned b = 0; b < 4; b++)
		if (v & 16u << b)
			rpg_fill(rgba, stride, x0 + 4 + b % 2 * 8, y0 + 4 + b / 2 * 8, 4, 4, corner[b]);
}

/* A foe set: a translucent colour of its own and its number */
static void rpg_foe_tile(uint8_t *rgba, unsigned stride, unsigned x0, unsigned y0, unsigned v)
{
	char num[12];

	if (!v)
		return;
	rpg_fill(rgba, stride, x0, y0, TILE, TILE,
		 (uint32_t)(v * 97 % 256) << 24 | (uint32_t)(v * 57 % 256) << 16 | (uint32_t)(v * 151 % 256) << 8 | 0x80);
	snprintf(num, sizeof(num), "%u", v);
	for (unsigned i = 0; num[i]; i++)
		for (unsigned y = 0; y < 5; y++)
			for (unsigned x = 0; x < 3; x++)
				if (digit5[num[i] - '0'][y] >> (2 - x) & 1)
					rpg_fill(rgba, stride, x0 + 3 + i * 4 + x, y0 + 7 + y, 1, 1, 0xffffffff);
}

static int rpg_marks_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	const unsigned w = TS_COLS * TILE, h = GID_SPAN / TS_COLS * TILE;
	uint8_t *rgba = calloc((size_t)w * h, 4);
	int r;

	(void)ar;
	if (!rgba)
		return -ENOMEM;
	for (unsigned v = 0; v < GID_SPAN; v++)
		(n->priv ? rpg_foe_tile : rpg_wall_tile)(rgba, w, v % TS_COLS * TILE, v / TS_COLS * TILE, v);
	r = gfs_png_encode(rgba, w, h, out);
	free(rgba);
	return r;
}

static const struct gfs_node_ops rpg_marks_ops = {
	.render = rpg_marks_render,
};

int rpg_add_ro(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_node *dir, const char *name,
		      const struct gfs_node_ops *ops, size_t rec)
{
	int r = rpg_add_view(ar, l, dir, name, ops, rec, NULL);

	if (!r)
		l->views[l->nviews - 1]->mode = S_IFREG | 0444;
	return r;
}

int rpg_tiled_sets(struct gfs_archive *ar)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *til = rpg_kind_lump(m, ".TIL");
	struct gfs_node *maps = gfs_node_child(ar, ar->root, "maps"), *dir;
	static const int foes = 1;
	int r = 0;

	if (!maps)
		return 0;
	if (!(dir = rpg_subdir(ar, "maps/tilesets")))
		return -ENOMEM;
	for (size_t k = 0; til && !r && (k + 1) * PAGE_BYTES <= til->len; k++) {
		char nm[40];

		snprintf(nm, sizeof(nm), "%02zu-animated.png", k);
		r = rpg_add_ro(ar, til, dir, nm, &rpg_anim_ops, k);
		snprintf(nm, sizeof(nm), "%02zu-upper.png", k);
		if (!r)
			r = rpg_add_ro(ar, til, dir, nm, &rpg_upper_ops, k);
	}
	if (!r && !gfs_node_new_file(ar, dir, "walls.png", 0444, &rpg_marks_ops, NULL))
		r = -ENOMEM;
	if (!r && !gfs_node_new_file(ar, dir, "foes.png", 0444, &rpg_marks_ops, (void *)&foes))
		r = -ENOMEM;
	return r;
}
