/* The bounds-checked little-endian cursor; see gfs_rd.h. */
#include <errno.h>
#include <string.h>
#include "gfs_rd.h"

void gfs_rd_init(struct gfs_rd *r, const uint8_t *p, size_t len, uint64_t base)
{
	r->p = p;
	r->len = p ? len : 0;
	r->pos = 0;
	r->base = base;
}

size_t gfs_rd_left(const struct gfs_rd *r)
{
	return r->len - r->pos;
}

uint64_t gfs_rd_off(const struct gfs_rd *r)
{
	return r->base + r->pos;
}

int gfs_rd_ptr(struct gfs_rd *r, const uint8_t **p, size_t n)
{
	if (n > r->len - r->pos)
		return -EBADMSG;
	*p = r->p + r->pos;
	r->pos += n;
	return 0;
}

int gfs_rd_bytes(struct gfs_rd *r, void *dst, size_t n)
{
	const uint8_t *p;
	int e = gfs_rd_ptr(r, &p, n);

	if (e)
		return e;
	if (n)
		memcpy(dst, p, n);
	return 0;
}

int gfs_rd_skip(struct gfs_rd *r, size_t n)
{
	const uint8_t *p;

	return gfs_rd_ptr(r, &p, n);
}

int gfs_rd_seek(struct gfs_rd *r, size_t pos)
{
	if (pos > r->len)
		return -EBADMSG;
	r->pos = pos;
	return 0;
}

int gfs_rd_sub(struct gfs_rd *r, struct gfs_rd *sub, size_t n)
{
	const uint8_t *p;
	uint64_t off = gfs_rd_off(r);
	int e = gfs_rd_ptr(r, &p, n);

	if (e)
		return e;
	gfs_rd_init(sub, p, n, off);
	return 0;
}

int gfs_rd_u8(struct gfs_rd *r, uint8_t *v)
{
	return gfs_rd_bytes(r, v, 1);
}

int gfs_rd_u16le(struct gfs_rd *r, uint16_t *v)
{
	const uint8_t *p;
	int e = gfs_rd_ptr(r, &p, 2);

	if (!e)
		*v = (uint16_t)(p[0] | p[1] << 8);
	return e;
}

int gfs_rd_s16le(struct gfs_rd *r, int16_t *v)
{
	uint16_t u;
	int e = gfs_rd_u16le(r, &u);

	if (!e)
		*v = (int16_t)u;
	return e;
}

int gfs_rd_u24le(struct gfs_rd *r, uint32_t *v)
{
	const uint8_t *p;
	int e = gfs_rd_ptr(r, &p, 3);

	if (!e)
		*v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
	return e;
}

int gfs_rd_u32le(struct gfs_rd *r, uint32_t *v)
{
	const uint8_t *p;
	int e = gfs_rd_ptr(r, &p, 4);

	if (!e)
		*v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return e;
}

int gfs_rd_s32le(struct gfs_rd *r, int32_t *v)
{
	uint32_t u;
	int e = gfs_rd_u32le(r, &u);

	if (!e)
		*v = (int32_t)u;
	return e;
}

int gfs_rd_u64le(struct gfs_rd *r, uint64_t *v)
{
	uint32_t lo, hi;
	size_t pos = r->pos;
	int e = gfs_rd_u32le(r, &lo);

	if (!e)
		e = gfs_rd_u32le(r, &hi);
	if (e) {
		r->pos = pos;
		return e;
	}
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

int gfs_rd_f32le(struct gfs_rd *r, float *v)
{
	uint32_t u;
	int e = gfs_rd_u32le(r, &u);

	if (!e)
		memcpy(v, &u, sizeof(*v));
	return e;
}

int gfs_rd_cstr(struct gfs_rd *r, const char **s, size_t *n, size_t max)
{
	size_t left = r->len - r->pos, lim = left < max ? left : max;
	const uint8_t *p = r->p + r->pos;
	const uint8_t *z = lim ? memchr(p, 0, lim) : NULL;

	if (!z)
		return -EBADMSG;
	*s = (const char *)p;
	*n = (size_t)(z - p);
	r->pos += *n + 1;
	return 0;
}

/* Fields of bytes known to be there: through a cursor over exactly them. */
uint64_t gfs_le(const uint8_t *p, unsigned width)
{
	struct gfs_rd r;
	const uint8_t *q;
	uint64_t v = 0;

	gfs_rd_init(&r, p, width, 0);
	if (width > 8 || gfs_rd_ptr(&r, &q, width))
		return 0;
	while (width--)
		v = v << 8 | q[width];
	return v;
}

uint16_t gfs_le16(const uint8_t *p) { return (uint16_t)gfs_le(p, 2); }
uint32_t gfs_le24(const uint8_t *p) { return (uint32_t)gfs_le(p, 3); }
uint32_t gfs_le32(const uint8_t *p) { return (uint32_t)gfs_le(p, 4); }
uint64_t gfs_le64(const uint8_t *p) { return gfs_le(p, 8); }
