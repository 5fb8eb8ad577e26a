/* The RLE of 16-bit cells; see gfs_codec.h. */
#include <errno.h>
#include "gfs_codec.h"
#include "gfs_rd.h"

#define GFS_RLE_REPEAT 0x80u
#define GFS_RLE_RUN 0x7fu
#define GFS_RLE_MAXRUN 128u

int gfs_rle16_decode(const uint8_t *p, size_t len, uint16_t *out, size_t max,
		     size_t *count, size_t *at)
{
	struct gfs_rd rd;
	size_t k = 0;
	int r = 0;

	gfs_rd_init(&rd, p, len, 0);
	while (gfs_rd_left(&rd)) {
		size_t start = rd.pos, run;
		uint8_t hd;
		uint16_t v = 0;

		gfs_rd_u8(&rd, &hd);
		run = (size_t)(hd & GFS_RLE_RUN) + 1;
		if (gfs_rd_left(&rd) < (hd & GFS_RLE_REPEAT ? 2 : 2 * run)) {
			rd.pos = start;
			r = -EBADMSG;
			break;
		}
		if (run > max - k) {
			rd.pos = start;
			r = -EFBIG;
			break;
		}
		for (size_t i = 0; i < run; i++) {
			if (!(hd & GFS_RLE_REPEAT) || i == 0)
				gfs_rd_u16le(&rd, &v);
			if (out)
				out[k] = v;
			k++;
		}
	}
	*count = k;
	if (at)
		*at = rd.pos;
	return r;
}

int gfs_rle16_encode(const uint16_t *v, size_t n, struct gfs_buf *out)
{
	size_t i = 0;
	int r = 0;

	while (i < n && !r) {
		size_t run = 1;

		while (i + run < n && run < GFS_RLE_MAXRUN && v[i + run] == v[i])
			run++;
		if (run >= 2) {
			r = gfs_buf_addc(out, (uint8_t)(GFS_RLE_REPEAT | (run - 1)));
			if (!r)
				r = gfs_buf_add_u16le(out, v[i]);
			i += run;
			continue;
		}
		/* literal: up to the next run of two, or 128 values */
		while (i + run < n && run < GFS_RLE_MAXRUN && !(i + run + 1 < n && v[i + run] == v[i + run + 1]))
			run++;
		r = gfs_buf_addc(out, (uint8_t)(run - 1));
		for (size_t k = 0; k < run && !r; k++)
			r = gfs_buf_add_u16le(out, v[i + k]);
		i += run;
	}
	return r;
}
