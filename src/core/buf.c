/* Growable byte buffers; see gfs_buf.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "gfs_buf.h"

void gfs_buf_init(struct gfs_buf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
}

void gfs_buf_release(struct gfs_buf *b)
{
	free(b->data);
	gfs_buf_init(b);
}

struct gfs_buf *gfs_buf_new(void)
{
	return calloc(1, sizeof(struct gfs_buf));
}

void gfs_buf_free(struct gfs_buf *b)
{
	if (!b)
		return;
	gfs_buf_release(b);
	free(b);
}

int gfs_buf_grow(struct gfs_buf *b, size_t extra)
{
	size_t want, cap;
	uint8_t *p;

	if (extra > GFS_BUF_MAX || b->len > GFS_BUF_MAX - extra)
		return -EFBIG;
	want = b->len + extra + 1;
	if (want <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < want)
		cap = cap < GFS_BUF_MAX ? cap * 2 : want;
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
#ifdef MADV_HUGEPAGE
	if (cap >= GFS_BUF_HUGE) {
		/*
		 * A big buffer (an edited movie) is touched once per page as it
		 * fills: in 2 MiB pages that is 512 times fewer faults, which a
		 * virtual machine makes slow.  A hint: fine if refused.
		 */
		uintptr_t lo = ((uintptr_t)p + (GFS_BUF_HUGE - 1)) & ~(uintptr_t)(GFS_BUF_HUGE - 1);
		uintptr_t hi = ((uintptr_t)p + cap) & ~(uintptr_t)(GFS_BUF_HUGE - 1);

		if (hi > lo)
			madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	}
#endif
	return 0;
}

int gfs_buf_add(struct gfs_buf *b, const void *data, size_t len)
{
	int r = gfs_buf_grow(b, len);

	if (r)
		return r;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = 0;
	return 0;
}

int gfs_buf_addc(struct gfs_buf *b, uint8_t c)
{
	return gfs_buf_add(b, &c, 1);
}

int gfs_buf_adds(struct gfs_buf *b, const char *s)
{
	return gfs_buf_add(b, s, strlen(s));
}

int gfs_buf_printf(struct gfs_buf *b, const char *fmt, ...)
{
	size_t room = b->cap > b->len ? b->cap - b->len : 0;
	va_list ap;
	int n, r;

	/* one pass into the spare room; a second only when it did not fit */
	va_start(ap, fmt);
	n = vsnprintf(room ? (char *)b->data + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= room) {
		r = gfs_buf_grow(b, (size_t)n);
		if (r) {
			if (room)
				b->data[b->len] = 0;
			return r;
		}
		va_start(ap, fmt);
		vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
	return 0;
}

int gfs_buf_add_dec(struct gfs_buf *b, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do
		tmp[sizeof(tmp) - ++n] = (char)('0' + v % 10);
	while ((v /= 10));
	return gfs_buf_add(b, tmp + sizeof(tmp) - n, n);
}

int gfs_buf_set_len_raw(struct gfs_buf *b, size_t len)
{
	if (len > b->len) {
		int r = gfs_buf_grow(b, len - b->len);

		if (r)
			return r;
	}
	b->len = len;
	if (b->data)
		b->data[len] = 0;
	return 0;
}

int gfs_buf_set_len(struct gfs_buf *b, size_t len)
{
	if (len > b->len) {
		int r = gfs_buf_grow(b, len - b->len);

		if (r)
			return r;
		memset(b->data + b->len, 0, len - b->len);
	}
	b->len = len;
	if (b->data)
		b->data[len] = 0;
	return 0;
}

void gfs_put_u16le(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

void gfs_put_u24le(uint8_t *p, uint32_t v)
{
	gfs_put_u16le(p, (uint16_t)v);
	p[2] = (uint8_t)(v >> 16);
}

void gfs_put_u32le(uint8_t *p, uint32_t v)
{
	gfs_put_u16le(p, (uint16_t)v);
	gfs_put_u16le(p + 2, (uint16_t)(v >> 16));
}

void gfs_put_u64le(uint8_t *p, uint64_t v)
{
	gfs_put_u32le(p, (uint32_t)v);
	gfs_put_u32le(p + 4, (uint32_t)(v >> 32));
}

int gfs_buf_add_u16le(struct gfs_buf *b, uint16_t v)
{
	uint8_t p[2];

	gfs_put_u16le(p, v);
	return gfs_buf_add(b, p, sizeof(p));
}

int gfs_buf_add_u24le(struct gfs_buf *b, uint32_t v)
{
	uint8_t p[3];

	gfs_put_u24le(p, v);
	return gfs_buf_add(b, p, sizeof(p));
}

int gfs_buf_add_u32le(struct gfs_buf *b, uint32_t v)
{
	uint8_t p[4];

	gfs_put_u32le(p, v);
	return gfs_buf_add(b, p, sizeof(p));
}

int gfs_buf_add_u64le(struct gfs_buf *b, uint64_t v)
{
	uint8_t p[8];

	gfs_put_u64le(p, v);
	return gfs_buf_add(b, p, sizeof(p));
}
