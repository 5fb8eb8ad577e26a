/*
 * gfs_rd.h - the bounds-checked little-endian cursor.
 *
 * Every field of every archive is read through one of these; it is the only
 * code that does pointer arithmetic on input.  Reads past the end fail with
 * -EBADMSG and leave the cursor where it was.
 */
#ifndef GFS_RD_H
#define GFS_RD_H

#include <stddef.h>
#include <stdint.h>

struct gfs_rd {
	const uint8_t *p;
	size_t len;
	size_t pos;
	uint64_t base;	/* file offset of p[0], for messages */
};

void gfs_rd_init(struct gfs_rd *r, const uint8_t *p, size_t len, uint64_t base);
size_t gfs_rd_left(const struct gfs_rd *r);
uint64_t gfs_rd_off(const struct gfs_rd *r);	/* file offset of the cursor */
int gfs_rd_u8(struct gfs_rd *r, uint8_t *v);
int gfs_rd_u16le(struct gfs_rd *r, uint16_t *v);
int gfs_rd_s16le(struct gfs_rd *r, int16_t *v);
int gfs_rd_u24le(struct gfs_rd *r, uint32_t *v);
int gfs_rd_u32le(struct gfs_rd *r, uint32_t *v);
int gfs_rd_s32le(struct gfs_rd *r, int32_t *v);
int gfs_rd_u64le(struct gfs_rd *r, uint64_t *v);
int gfs_rd_f32le(struct gfs_rd *r, float *v);
int gfs_rd_bytes(struct gfs_rd *r, void *dst, size_t n);
/* Point *p at the next n bytes without copying. */
int gfs_rd_ptr(struct gfs_rd *r, const uint8_t **p, size_t n);
int gfs_rd_skip(struct gfs_rd *r, size_t n);
int gfs_rd_seek(struct gfs_rd *r, size_t pos);
/* A sub-cursor over the next n bytes (advances r). */
int gfs_rd_sub(struct gfs_rd *r, struct gfs_rd *sub, size_t n);
/* Bytes up to (not including) the next NUL within max bytes; *n its length. */
int gfs_rd_cstr(struct gfs_rd *r, const char **s, size_t *n, size_t max);

/*
 * The value of a field in bytes the caller has already bounds-checked
 * (a record of known size, a fixed header): the same decoding as the
 * cursor, for code that indexes such bytes by named offsets.
 */
uint64_t gfs_le(const uint8_t *p, unsigned width);	/* width 0 to 8 */
uint16_t gfs_le16(const uint8_t *p);
uint32_t gfs_le24(const uint8_t *p);
uint32_t gfs_le32(const uint8_t *p);
uint64_t gfs_le64(const uint8_t *p);

#endif
