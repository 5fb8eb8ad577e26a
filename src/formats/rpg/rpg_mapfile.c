/*
 * rpg_mapfile.c - an OHRRPGCE tile-map lump (.T tiles, .P walls, .E foes)
 * declared once: 7 ignored bytes, int16 width and height, then layers to
 * the end, each width x height bytes row by row.  Its layer count, where a
 * cell is, a new lump and a resized one follow from the declaration.
 */
#include <errno.h>
#include <string.h>
#include "rpg_tmap.h"
#include "gfs_layout.h"

enum { MF_W, MF_H, MF_LAYER };

static const struct gfs_field rpg_mcell_f[] = { { .key = "t", .kind = GFS_FK_UINT, .width = 1 } };
static const struct gfs_record rpg_mcell = { .section = "tile", .size = 1, GFS_FIELDS(rpg_mcell_f) };
static const struct gfs_field rpg_mlayer_f[] = {
	{ .key = "tiles", .kind = GFS_FK_LIST, .group = &rpg_mcell, .flags = GFS_FF_TOEND },
};
static const struct gfs_record rpg_mlayer = { .section = "layer", GFS_FIELDS(rpg_mlayer_f) };
static const struct gfs_field rpg_map_f[] = {
	[MF_W] = { .key = "width", .kind = GFS_FK_SINT, .off = 7, .width = 2 },
	[MF_H] = { .key = "height", .kind = GFS_FK_SINT, .off = 9, .width = 2 },
	[MF_LAYER] = { .key = "layer", .kind = GFS_FK_GROUP, .group = &rpg_mlayer, .flags = GFS_FF_TOEND,
		       .size_off = 7, .size_width = 2, .size_mul_off = 9, .size_mul_width = 2 },
};
const struct gfs_record rpg_map_rec = { .section = "map", .size = RPG_MAP_HDR, GFS_FIELDS(rpg_map_f) };

int rpg_map_dims(const uint8_t *hdr, uint64_t len, unsigned *w, unsigned *h, unsigned *layers)
{
	int16_t sw = (int16_t)gfs_field_get(&rpg_map_f[MF_W], hdr), sh = (int16_t)gfs_field_get(&rpg_map_f[MF_H], hdr);
	size_t at = rpg_map_rec.size, plane;

	if (len < at || len > SIZE_MAX || sw <= 0 || sh <= 0)
		return 0;
	*w = (unsigned)sw;
	*h = (unsigned)sh;
	/* a layer's bytes from the header alone (0: none fits); the layers, those that fit (GFS_FF_TOEND) */
	if (!(plane = gfs_record_elem_span(&rpg_map_f[MF_LAYER], hdr, hdr + at, (size_t)len - at)))
		return 0;
	*layers = (len - at) / plane > RPG_MAP_MAX_LAYERS ? RPG_MAP_MAX_LAYERS : (unsigned)((len - at) / plane);
	return 1;
}

int rpg_map_lump_dims(struct gfs_archive *ar, struct rpg_lump *l, uint64_t len, unsigned *w, unsigned *h,
		      unsigned *layers)
{
	uint8_t hdr[RPG_MAP_HDR];
	unsigned n;

	return l && !rpg_lump_range(ar, l, 0, sizeof(hdr), hdr) && rpg_map_dims(hdr, len, w, h, layers ? layers : &n);
}

size_t rpg_map_at(unsigned w, unsigned h, unsigned k, unsigned x, unsigned y)
{
	return rpg_map_rec.size + ((size_t)k * h + y) * w + x;	/* after the header: plane k, its row y */
}

int rpg_map_layers(struct gfs_buf *b, unsigned n)
{
	struct gfs_buf nb = GFS_BUF_INIT;
	int r = gfs_record_resize(&rpg_map_rec, &rpg_map_f[MF_LAYER], b->data, b->len, n, &nb);

	gfs_buf_release(r ? &nb : b);
	if (!r)
		*b = nb;
	return r == -EBADMSG ? -EIO : r;
}

int rpg_map_new(struct gfs_buf *b, const uint8_t *hdr, unsigned w, unsigned h, unsigned layers)
{
	uint8_t fixed[RPG_MAP_HDR] = { 0 };

	if (hdr)
		memcpy(fixed, hdr, sizeof(fixed));
	gfs_field_set(&rpg_map_f[MF_W], fixed, w);
	gfs_field_set(&rpg_map_f[MF_H], fixed, h);
	if (gfs_buf_set_len(b, 0) || gfs_buf_add(b, fixed, sizeof(fixed)))
		return -ENOMEM;
	return rpg_map_layers(b, layers);
}

int rpg_map_resize(struct gfs_buf *b, unsigned w, unsigned h)
{
	struct gfs_buf nb = GFS_BUF_INIT;
	unsigned ow, oh, n;
	int r = rpg_map_dims(b->data, b->len, &ow, &oh, &n) ? rpg_map_new(&nb, b->data, w, h, n) : -EIO;

	for (unsigned k = 0; !r && k < n; k++)
		for (unsigned y = 0; y < h && y < oh; y++)
			memcpy(nb.data + rpg_map_at(w, h, k, 0, y), b->data + rpg_map_at(ow, oh, k, 0, y), w < ow ? w : ow);
	gfs_buf_release(r ? &nb : b);
	if (!r)
		*b = nb;
	return r;
}

/* The layouts of this file, for the fuzz target */
const struct gfs_record *rpg_layout_nth(size_t i)
{
	return i ? NULL : &rpg_map_rec;
}
