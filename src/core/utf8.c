/*
 * UTF-8 helpers with no archive behind them: the bottom of the core, used
 * by the messages (file.c) and the views' text helpers (text.c) alike.
 */
#include <stdio.h>
#include <string.h>
#include "gamefs.h"

size_t gfs_utf8_char(const uint8_t *s, size_t len)
{
	uint8_t c = s[0];
	size_t n;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0) {
		n = 1;
		cp = c & 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2;
		cp = c & 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		n = 3;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (len <= n)
		return 0;
	for (size_t k = 1; k <= n; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n + 1;
}

size_t gfs_utf8_decode(const uint8_t *s, size_t len, uint32_t *cp)
{
	size_t n = gfs_utf8_char(s, len);

	if (n)
		*cp = n == 1 ? s[0] : s[0] & (0x7fu >> n);
	for (size_t k = 1; k < n; k++)
		*cp = *cp << 6 | (s[k] & 0x3f);
	return n;
}

int gfs_utf8_put(struct gfs_buf *out, uint32_t cp)
{
	uint8_t u[4];

	if (cp < 0x80)
		return gfs_buf_addc(out, (uint8_t)cp);
	if (cp < 0x800) {
		u[0] = (uint8_t)(0xc0 | cp >> 6);
		u[1] = (uint8_t)(0x80 | (cp & 0x3f));
		return gfs_buf_add(out, u, 2);
	}
	if (cp < 0x10000) {
		u[0] = (uint8_t)(0xe0 | cp >> 12);
		u[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (uint8_t)(0x80 | (cp & 0x3f));
		return gfs_buf_add(out, u, 3);
	}
	u[0] = (uint8_t)(0xf0 | cp >> 18);
	u[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
	u[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
	u[3] = (uint8_t)(0x80 | (cp & 0x3f));
	return gfs_buf_add(out, u, 4);
}

int gfs_utf8_valid(const uint8_t *s, size_t len)
{
	for (size_t i = 0, n; i < len; i += n)
		if (!(n = gfs_utf8_char(s + i, len - i)))
			return 0;
	return 1;
}

void gfs_escape(const char *in, char *out, size_t outlen)
{
	const uint8_t *s = (const uint8_t *)in;
	size_t len = strlen(in), o = 0;

	if (!outlen)
		return;
	for (size_t i = 0, n; i < len; i += n) {
		n = gfs_utf8_char(s + i, len - i);
		if (n == 1 && (s[i] < 0x20 || s[i] == 0x7f))
			n = 0;
		if (n) {
			if (o + n >= outlen)
				break;
			memcpy(out + o, s + i, n);
			o += n;
		} else {
			if (o + 4 >= outlen)
				break;
			snprintf(out + o, 5, "\\x%02x", s[i]);
			o += 4;
			n = 1;
		}
	}
	out[o] = 0;
}
