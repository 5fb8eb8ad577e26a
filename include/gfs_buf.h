/*
 * gfs_buf.h - growable byte buffers (after git's strbuf and curl's dynbuf).
 *
 * A buffer owns its bytes; data is always NUL-terminated one past len so
 * text can be handed to C string functions.  Growth beyond GFS_BUF_MAX fails
 * with -EFBIG rather than exhausting memory.
 */
#ifndef GFS_BUF_H
#define GFS_BUF_H

#include <stddef.h>
#include <stdint.h>

#define GFS_BUF_MAX ((size_t)1 << 31)
#define GFS_BUF_HUGE ((size_t)2 << 20)	/* buffers this big ask for huge pages */

struct gfs_buf {
	uint8_t *data;
	size_t len, cap;
};

#define GFS_BUF_INIT { NULL, 0, 0 }

void gfs_buf_init(struct gfs_buf *b);
void gfs_buf_release(struct gfs_buf *b);		/* free bytes, back to empty */
struct gfs_buf *gfs_buf_new(void);			/* heap buffer, NULL on ENOMEM */
void gfs_buf_free(struct gfs_buf *b);			/* release and free the struct */
int gfs_buf_grow(struct gfs_buf *b, size_t extra);	/* room for extra more bytes */
int gfs_buf_add(struct gfs_buf *b, const void *data, size_t len);
int gfs_buf_addc(struct gfs_buf *b, uint8_t c);
int gfs_buf_adds(struct gfs_buf *b, const char *s);
int gfs_buf_printf(struct gfs_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int gfs_buf_add_dec(struct gfs_buf *b, uint64_t v);	/* decimal digits, no printf */
int gfs_buf_set_len(struct gfs_buf *b, size_t len);	/* zero-fills when growing */
/* The same without the zero fill: the caller writes every new byte at once. */
int gfs_buf_set_len_raw(struct gfs_buf *b, size_t len);
int gfs_buf_add_u16le(struct gfs_buf *b, uint16_t v);
int gfs_buf_add_u24le(struct gfs_buf *b, uint32_t v);
int gfs_buf_add_u32le(struct gfs_buf *b, uint32_t v);
int gfs_buf_add_u64le(struct gfs_buf *b, uint64_t v);
void gfs_put_u16le(uint8_t *p, uint16_t v);
void gfs_put_u24le(uint8_t *p, uint32_t v);
void gfs_put_u32le(uint8_t *p, uint32_t v);
void gfs_put_u64le(uint8_t *p, uint64_t v);

#endif
