/*
 * tng_sprite.c - the sprite map codec: direction records of a sprite asset
 * (u16 width, u16 height, u8 dir | loop << 6, u8 frames, then 14-byte
 * frames) and the names of the directions.  Calls nothing of the format.
 */
#include <errno.h>
#include <stdio.h>
#include "tng.h"

static const char *const tng_dirs[8] = {
	"south", "southwest", "west", "northwest", "north", "northeast", "east", "southeast"
};

const char *tng_dir_name(unsigned dir)
{
	static char buf[8][8];

	if (dir < 8)
		return tng_dirs[dir];
	snprintf(buf[dir & 7], sizeof(buf[0]), "d%u", dir & 0x3f);
	return buf[dir & 7];
}

/* Check an inflated sprite map; *ndirs gets its direction count. */
int tng_sprite_parse(const uint8_t *p, size_t len, uint8_t *ndirs, char *why, size_t whylen)
{
	struct gfs_rd rd;
	unsigned d = 0;

	gfs_rd_init(&rd, p, len, 0);
	while (gfs_rd_left(&rd)) {
		uint16_t w, h;
		uint8_t type, nf;

		if (gfs_rd_u16le(&rd, &w) || gfs_rd_u16le(&rd, &h) || gfs_rd_u8(&rd, &type) ||
		    gfs_rd_u8(&rd, &nf)) {
			snprintf(why, whylen, "direction %u: record header cut short", d);
			return -EBADMSG;
		}
		if (nf == 0 || nf > TNG_SPR_MAXFRAMES) {
			snprintf(why, whylen, "direction %u: %u frames (1 to 32 allowed)", d, nf);
			return -EBADMSG;
		}
		if (w > TNG_SPR_MAXDIM || h > TNG_SPR_MAXDIM) {
			snprintf(why, whylen, "direction %u: %ux%u is over 2048x2048", d, w, h);
			return -EBADMSG;
		}
		if (gfs_rd_skip(&rd, (size_t)nf * TNG_SPR_FRAME)) {
			snprintf(why, whylen, "direction %u: frames cut short", d);
			return -EBADMSG;
		}
		if (++d > TNG_SPR_MAXDIRS) {
			snprintf(why, whylen, "more than 8 directions");
			return -EBADMSG;
		}
	}
	if (d == 0) {
		snprintf(why, whylen, "no direction records");
		return -EBADMSG;
	}
	*ndirs = (uint8_t)d;
	return 0;
}
