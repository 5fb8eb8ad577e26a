/*
 * zzt_text.c - code page 437 to UTF-8 and back, for names, messages and
 * ZZT-OOP code.  The mapping is a bijection over all 256 bytes: the control
 * range shows as the glyphs a PC draws for it (0x01 is U+263A), 0x00 as
 * U+2400 and 0x7f as U+2302, so every byte survives a round trip through a
 * text editor.  The generated font table reuses it to find glyphs.
 */
#include <errno.h>

#include "formats/zzt/zzt.h"


int zzt_cp437_put(struct gfs_buf *out, uint8_t c)
{
	uint32_t cp = zzt_cp437[c];
	uint8_t u[3];

	if (c >= 0x20 && c < 0x7f)
		return gfs_buf_addc(out, c);
	if (cp < 0x800) {
		u[0] = (uint8_t)(0xc0 | cp >> 6);
		u[1] = (uint8_t)(0x80 | (cp & 0x3f));
		return gfs_buf_add(out, u, 2);
	}
	u[0] = (uint8_t)(0xe0 | cp >> 12);
	u[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
	u[2] = (uint8_t)(0x80 | (cp & 0x3f));
	return gfs_buf_add(out, u, 3);
}

int zzt_utf8_next(const uint8_t *s, size_t len, uint32_t *cp, size_t *n)
{
	uint32_t c;
	size_t k, i;

	if (len == 0)
		return -EINVAL;
	c = s[0];
	if (c < 0x80) {
		*cp = c;
		*n = 1;
		return 0;
	}
	if (c >= 0xc2 && c < 0xe0) {
		k = 2;
		c &= 0x1f;
	} else if (c >= 0xe0 && c < 0xf0) {
		k = 3;
		c &= 0x0f;
	} else if (c >= 0xf0 && c < 0xf5) {
		k = 4;
		c &= 0x07;
	} else {
		return -EINVAL;
	}
	if (len < k)
		return -EINVAL;
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -EINVAL;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && c < 0x800) || (k == 4 && (c < 0x10000 || c > 0x10ffff)))
		return -EINVAL;
	*cp = c;
	*n = k;
	return 0;
}

int zzt_cp437_from(uint32_t cp)
{
	int i;

	if (cp >= 0x20 && cp < 0x7f)
		return (int)cp;
	for (i = 0; i < 256; i++)
		if (zzt_cp437[i] == cp)
			return i;
	return -1;
}
