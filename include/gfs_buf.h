/*
 * gfs_buf.h - growable byte buffers (after git's strbuf and curl's dynbuf).
 *
 * A buffer owns its bytes; data is always NUL-terminated one past len so
 * text can be handed to C string functions.  Growth beyond GFS_BUF_MAX fails
 * with -EFBIG rather than exhausting memory (GFS_BUF_STAGED_MAX for a
 * staged buffer).
 *
 * A staged buffer (gfs_buf_stage(), for big edits) keeps its bytes in a
 * memfd instead of the heap: data is a shared mapping of it, so every
 * reader works unchanged, while gfs_buf_pwrite() and gfs_buf_pread() go
 * through the file and touch no process memory, and the bytes reach
 * another file with copy_file_range().  Two buffers may share one memfd
 * (gfs_buf_share()); a change to either gives it a copy of its own first.
 */
#ifndef GFS_BUF_H
#define GFS_BUF_H

#include <stddef.h>
#include <stdint.h>

#define GFS_BUF_MAX ((size_t)1 << 31)
/* A staged buffer (below) lives in a memfd, not the heap: it may hold members past 2 and 4 GiB. */
#define GFS_BUF_STAGED_MAX (sizeof(size_t) > 4 ? (size_t)((uint64_t)1 << 40) : GFS_BUF_MAX)
#define GFS_BUF_HUGE ((size_t)2 << 20)	/* buffers this big ask for huge pages */

struct gfs_stage;

struct gfs_buf {
	uint8_t *data;
	size_t len, cap;
	struct gfs_stage *stage;	/* NULL: heap bytes; else data maps its memfd */
	unsigned holds;			/* holders besides the owner (gfs_buf_hold) */
};

#define GFS_BUF_INIT { NULL, 0, 0, NULL, 0 }
#define GFS_BUF_STAGE_MIN ((size_t)1 << 20)	/* edits past this size are staged */

void gfs_buf_init(struct gfs_buf *b);
void gfs_buf_release(struct gfs_buf *b);		/* free bytes, back to empty */
struct gfs_buf *gfs_buf_new(void);			/* heap buffer, NULL on ENOMEM */
void gfs_buf_free(struct gfs_buf *b);			/* release and free the struct */
/*
 * One more holder of a gfs_buf_new() buffer: each gfs_buf_free() drops one,
 * the last frees it.  A held buffer is read only (a render shared with the
 * opens reading it).
 */
struct gfs_buf *gfs_buf_hold(struct gfs_buf *b);
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
/* Move b's bytes into a memfd (no-op when staged already). */
int gfs_buf_stage(struct gfs_buf *b);
/* The memfd of a staged buffer, or -1. */
int gfs_buf_fd(const struct gfs_buf *b);
/* Write len bytes at off, growing b (a hole before off reads as zeros). */
int gfs_buf_pwrite(struct gfs_buf *b, const void *data, size_t len, size_t off);
/* Read up to len bytes at off; returns the count (0 past the end). */
size_t gfs_buf_pread(const struct gfs_buf *b, void *data, size_t len, size_t off);
/* A new buffer of b's bytes: a staged one shares b's memfd, a heap one is copied. */
struct gfs_buf *gfs_buf_share(struct gfs_buf *b);
/* Copy len bytes from fd in at inoff to fd out at outoff (copy_file_range, else sendfile, else read/write). */
int gfs_fd_copy(int in, uint64_t inoff, int out, uint64_t outoff, uint64_t len);
int gfs_buf_add_u16le(struct gfs_buf *b, uint16_t v);
int gfs_buf_add_u24le(struct gfs_buf *b, uint32_t v);
int gfs_buf_add_u32le(struct gfs_buf *b, uint32_t v);
int gfs_buf_add_u64le(struct gfs_buf *b, uint64_t v);
void gfs_put_u16le(uint8_t *p, uint16_t v);
void gfs_put_u24le(uint8_t *p, uint32_t v);
void gfs_put_u32le(uint8_t *p, uint32_t v);
void gfs_put_u64le(uint8_t *p, uint64_t v);

#endif
