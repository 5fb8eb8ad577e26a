/*
 * tng_map.c - the map asset codec: the 34-byte header, parallax records,
 * patrol paths, the RLE of the layers' u16 cells (gfs_codec.h) and the
 * bytes after them; parsing checks every count against the bytes there
 * are.  Calls nothing of the format: the caller gives the map's size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_codec.h"
#include "gfs_record.h"
#include "tng.h"

/* ---- map.ini's table: the header, parallax records, patrol paths ---- */

#define TNG_MF(k, kd, o, w) { .key = k, .kind = kd, .off = o, .width = w }
#define TNG_MSTR(k, o) { .key = k, .kind = GFS_FK_REF, .off = o, .width = 3, .ref = TNG_MREF_STR, \
	.want = "a string of strings.txt (use a name, @offset, -1 or nothing)" }
#define TNG_MSPR(k, o) { .key = k, .kind = GFS_FK_REF, .off = o, .width = 3, .ref = TNG_MREF_SPRITE, \
	.want = "a sprite category:index" }
static const struct gfs_field tng_par_fields[] = {
	TNG_MF("background", GFS_FK_UINT, 0, 1),
	TNG_MF("speed_x", GFS_FK_SINT, 1, 1),
	TNG_MF("delta_x", GFS_FK_UINT, 2, 1),
	TNG_MF("speed_y", GFS_FK_SINT, 3, 1),
	TNG_MF("delta_y", GFS_FK_UINT, 4, 1),
	TNG_MF("time", GFS_FK_UINT, 5, 2),
	TNG_MSPR("sprite", 7),
};

static const struct gfs_record tng_par_rec = { .section = "parallax", .size = TNG_MAP_PARALLAX,
					       GFS_FIELDS(tng_par_fields) };

/* a patrol path: id, a u16 count of points, the points */
static const struct gfs_field tng_point_fields[] = {
	TNG_MF("x", GFS_FK_UINT, 0, 2),
	TNG_MF("y", GFS_FK_UINT, 2, 2),
};

static const struct gfs_record tng_point_rec = { .section = "point", .size = 4, GFS_FIELDS(tng_point_fields) };

static const struct gfs_field tng_path_fields[] = {
	TNG_MF("id", GFS_FK_UINT, 0, 1),
	{ .key = "points", .kind = GFS_FK_LIST, .off = 3, .group = &tng_point_rec, .count_off = 1,
	  .count_width = 2, .want = "an x,y pair" },
};

static const struct gfs_record tng_path_rec = { .section = "path", .size = 3, GFS_FIELDS(tng_path_fields) };

static const struct gfs_field tng_map_fields[] = {
	{ .key = "title", .kind = GFS_FK_REF, .off = 0, .width = 3, .ref = TNG_MREF_TITLE,
	  .want = "a number 0..16777215 or -1" },
	TNG_MSTR("neighbour0", 3), TNG_MSTR("neighbour1", 6), TNG_MSTR("neighbour2", 9),
	TNG_MSTR("neighbour3", 12), TNG_MSTR("neighbour4", 15), TNG_MSTR("neighbour5", 18),
	TNG_MF("daylight", GFS_FK_UINT, 21, 2),
	TNG_MSPR("daylight_sprite", 23),
	TNG_MSTR("music", 26),
	{ .key = "parallax", .kind = GFS_FK_GROUP, .group = &tng_par_rec, .count_off = TNG_MAP_NPAR, .count_width = 1 },
	{ .key = "path", .kind = GFS_FK_GROUP, .group = &tng_path_rec, .count_off = TNG_MAP_NPATH, .count_width = 1 },
};
#undef TNG_MSPR
#undef TNG_MSTR
#undef TNG_MF

/* the header, its parallax records and patrol paths; the RLE block and what follows stay */
const struct gfs_record tng_map_rec = {
	.section = "map", .size = TNG_MAP_HDR, GFS_FIELDS(tng_map_fields),
	.comment = "; string references are names from strings.txt, @offset, empty (0) or -1\n"
		   "; sprites are category:index (-1 = none)\n",
};

/* ---- the codec ---- */

unsigned tng_layer_of(const char *name, const char *tail)
{
	if (strncmp(name, "layer", 5) || name[5] < '0' || name[5] > '9' || name[6] < '0' || name[6] > '9' ||
	    strcmp(name + 7, tail))
		return ~0u;
	return (unsigned)(name[5] - '0') * 10 + (unsigned)(name[6] - '0');
}

/* Find the parts of map p (decode: and decode its cells into m->cells, malloc'd). */
int tng_map_parse(unsigned side, unsigned layers, const uint8_t *p, size_t len, struct tng_map *m,
		  int decode, char *why, size_t whylen)
{
	struct gfs_rd rd;
	size_t ms = side, cells, k = 0, at;

	memset(m, 0, sizeof(*m));
	m->p = p;
	m->len = len;
	if (len < TNG_MAP_HDR) {
		snprintf(why, whylen, "%zu bytes, shorter than the 34-byte map header", len);
		return -EBADMSG;
	}
	m->npar = p[TNG_MAP_NPAR];
	m->npath = p[TNG_MAP_NPATH];
	m->rlelen = gfs_le24(p + TNG_MAP_RLELEN);
	if (TNG_MAP_HDR + (size_t)m->npar * TNG_MAP_PARALLAX > len) {
		snprintf(why, whylen, "%u parallax records run past the map", m->npar);
		return -EBADMSG;
	}
	/* the header, parallax records and patrol paths: map.ini's table spans them */
	if (!(m->rle = gfs_record_span(&tng_map_rec, p, len))) {
		snprintf(why, whylen, "the %u patrol paths run past the map", m->npath);
		return -EBADMSG;
	}
	gfs_rd_init(&rd, p, len, 0);
	if (gfs_rd_seek(&rd, m->rle) || gfs_rd_skip(&rd, m->rlelen)) {
		snprintf(why, whylen, "RLE block of %zu bytes runs past the map", m->rlelen);
		return -EBADMSG;
	}
	m->tail = rd.pos;
	if (ms == 0 || ms > 4096) {
		snprintf(why, whylen, "map size %zu is not drawable", ms);
		return -EBADMSG;
	}
	cells = (size_t)layers * ms * ms;
	if (cells > TNG_MAP_CELLS_MAX) {
		snprintf(why, whylen, "%zu cells is over the %zu-cell limit", cells, TNG_MAP_CELLS_MAX);
		return -EBADMSG;
	}
	if (decode) {
		m->cells = malloc((cells ? cells : 1) * sizeof(uint16_t));
		if (!m->cells) {
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
	}
	switch (gfs_rle16_decode(p + m->rle, m->rlelen, m->cells, cells, &k, &at)) {
	case 0:
		break;
	case -EFBIG:
		snprintf(why, whylen, "RLE overruns the %u layers (%zu cells) at byte %zu",
			 layers, cells, at);
		goto bad;
	default:
		snprintf(why, whylen, "RLE packet cut short at byte %zu", at);
		goto bad;
	}
	if (k != cells) {
		snprintf(why, whylen, "RLE ends after %zu of %zu cells", k, cells);
		goto bad;
	}
	m->ncells = cells;
	return 0;
bad:
	free(m->cells);
	m->cells = NULL;
	return -EBADMSG;
}

int tng_map_validate(unsigned ms, unsigned layers, const uint8_t *p, size_t len, char *why,
		     size_t whylen)
{
	struct tng_map m;

	return tng_map_parse(ms, layers, p, len, &m, 0, why, whylen);
}

/* A map asset: head (the header and what follows it up to the RLE block) with its RLE length set, rle, tail. */
int tng_map_build(const uint8_t *head, size_t headlen, const uint8_t *rle, size_t rlelen, const uint8_t *tail,
		  size_t taillen, struct gfs_buf *out)
{
	size_t at = out->len;
	int r;

	if (rlelen > 0xffffff || headlen < TNG_MAP_HDR)
		return -EINVAL;
	if ((r = gfs_buf_add(out, head, headlen)))
		return r;
	gfs_put_u24le(out->data + at + TNG_MAP_RLELEN, (uint32_t)rlelen);
	r = rlelen ? gfs_buf_add(out, rle, rlelen) : 0;
	return !r && taillen ? gfs_buf_add(out, tail, taillen) : r;
}
