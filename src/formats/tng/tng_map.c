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
#include "tng.h"

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
	m->npar = p[29];
	m->npath = p[30];
	m->rlelen = gfs_le24(p + 31);
	m->par = TNG_MAP_HDR;
	gfs_rd_init(&rd, p, len, 0);
	if (gfs_rd_seek(&rd, TNG_MAP_HDR) || gfs_rd_skip(&rd, m->npar * TNG_MAP_PARALLAX)) {
		snprintf(why, whylen, "%u parallax records run past the map", m->npar);
		return -EBADMSG;
	}
	m->paths = rd.pos;
	for (unsigned i = 0; i < m->npath; i++) {
		uint8_t id;
		uint16_t l;

		if (gfs_rd_u8(&rd, &id) || gfs_rd_u16le(&rd, &l) || gfs_rd_skip(&rd, (size_t)l * 4)) {
			snprintf(why, whylen, "patrol path %u runs past the map", i);
			return -EBADMSG;
		}
	}
	m->rle = rd.pos;
	if (gfs_rd_skip(&rd, m->rlelen)) {
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

/* Rebuild a map asset from its parts; the RLE block and tail come from rle. */
int tng_map_build(const uint8_t *hdr, const struct gfs_buf *par, unsigned npar,
			 const uint8_t *paths, size_t pathslen, unsigned npath,
			 const uint8_t *rle, size_t rlelen, const uint8_t *tail, size_t taillen,
			 struct gfs_buf *out)
{
	uint8_t h[TNG_MAP_HDR];
	int r;

	if (rlelen > 0xffffff)
		return -EINVAL;
	memcpy(h, hdr, TNG_MAP_HDR);
	h[29] = (uint8_t)npar;
	h[30] = (uint8_t)npath;
	gfs_put_u24le(h + 31, (uint32_t)rlelen);
	r = gfs_buf_add(out, h, TNG_MAP_HDR);
	if (!r && par->len)
		r = gfs_buf_add(out, par->data, par->len);
	if (!r && pathslen)
		r = gfs_buf_add(out, paths, pathslen);
	if (!r && rlelen)
		r = gfs_buf_add(out, rle, rlelen);
	if (!r && taillen)
		r = gfs_buf_add(out, tail, taillen);
	return r;
}
