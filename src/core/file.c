/*
 * The bottom layer of the core: messages that name the archive (errors in
 * ar->err, warnings to its log), reads of the archive file, and the one loop
 * that writes a whole buffer to a descriptor.  Every other core file uses
 * these; this file uses none of them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "gamefs.h"
#include "core/core.h"

static void gfs_stderr_log(const char *msg)
{
	fprintf(stderr, "gamefs: %s\n", msg);
}

static void (*gfs_default_log)(const char *msg) = gfs_stderr_log;

void gfs_set_log(void (*fn)(const char *msg))
{
	gfs_default_log = fn ? fn : gfs_stderr_log;
}

/* Format "FILE: FORMAT: [at 0xOFF: ]message" into out. */
static void gfs_vformat(struct gfs_archive *ar, char *out, size_t len, int at, uint64_t off,
			const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));
static void gfs_vformat(struct gfs_archive *ar, char *out, size_t len, int at, uint64_t off,
			const char *fmt, va_list ap)
{
	int n = snprintf(out, len, "%s: %s: ", ar->path, ar->fmt ? ar->fmt->name : "gamefs");

	if (n < 0 || (size_t)n >= len)
		n = 0;
	if (at) {
		int m = snprintf(out + n, len - (size_t)n, "at 0x%llx: ", (unsigned long long)off);

		if (m > 0 && (size_t)(n + m) < len)
			n += m;
	}
	vsnprintf(out + n, len - (size_t)n, fmt, ap);
}

/* The same, with names' control bytes and invalid UTF-8 escaped. */
static void gfs_vformat_esc(struct gfs_archive *ar, char *out, size_t len, int at, uint64_t off,
			    const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));
static void gfs_vformat_esc(struct gfs_archive *ar, char *out, size_t len, int at, uint64_t off,
			    const char *fmt, va_list ap)
{
	char raw[1024];

	gfs_vformat(ar, raw, sizeof(raw), at, off, fmt, ap);
	gfs_escape(raw, out, len);
}

/*
 * While an archive loads, its warnings are held back: a load that fails
 * prints only its one-line error; one that succeeds prints them then.
 */
static __thread struct gfs_archive *gfs_held_ar;
static __thread struct gfs_buf gfs_held;
static __thread char gfs_held_first[200];

void gfs_warn_release(struct gfs_archive *ar, int print)
{
	size_t i = 0;

	gfs_held_ar = NULL;
	while (print && i < gfs_held.len) {
		char *line = (char *)gfs_held.data + i;

		i += strlen(line) + 1;
		(ar->log ? ar->log : gfs_default_log)(line);
	}
	gfs_buf_release(&gfs_held);
}

void gfs_warn_hold(struct gfs_archive *ar)
{
	gfs_held_ar = ar;
	gfs_held_first[0] = 0;
}

const char *gfs_warn_held_first(void)
{
	return gfs_held_first;
}

static int gfs_verr(struct gfs_archive *ar, int err, int at, uint64_t off,
		    const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
static int gfs_verr(struct gfs_archive *ar, int err, int at, uint64_t off,
		    const char *fmt, va_list ap)
{
	char tmp[sizeof(ar->err)];	/* the arguments may point into ar->err */

	gfs_vformat_esc(ar, tmp, sizeof(tmp), at, off, fmt, ap);
	memcpy(ar->err, tmp, sizeof(tmp));
	return err;
}

int gfs_err(struct gfs_archive *ar, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gfs_verr(ar, err, 0, 0, fmt, ap);
	va_end(ap);
	return err;
}

int gfs_err_at(struct gfs_archive *ar, int err, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gfs_verr(ar, err, 1, off, fmt, ap);
	va_end(ap);
	return err;
}

/* msg without its "FILE: FORMAT: " prefix. */
static const char *gfs_reason_of(const struct gfs_archive *ar, const char *msg)
{
	size_t n = strlen(ar->path);

	if (!strncmp(msg, ar->path, n) && !strncmp(msg + n, ": ", 2)) {
		const char *p = strstr(msg + n + 2, ": ");

		if (p)
			return p + 2;
	}
	return msg;
}

const char *gfs_err_reason(const struct gfs_archive *ar)
{
	return gfs_reason_of(ar, ar->err);
}

void gfs_warn(struct gfs_archive *ar, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	gfs_vformat_esc(ar, msg, sizeof(msg), 0, 0, fmt, ap);
	va_end(ap);
	if (ar == gfs_held_ar) {
		if (!gfs_held.len)
			snprintf(gfs_held_first, sizeof(gfs_held_first), "%s", gfs_reason_of(ar, msg));
		if (!gfs_buf_add(&gfs_held, msg, strlen(msg) + 1))
			return;
	}
	(ar->log ? ar->log : gfs_default_log)(msg);
}

int gfs_pread(struct gfs_archive *ar, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(ar->fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EBADMSG;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int gfs_read_all(struct gfs_archive *ar, struct gfs_buf *b, size_t max)
{
	uint64_t size = (uint64_t)ar->st.st_size;
	int r;

	if (size > max)
		return gfs_err(ar, -EFBIG, "file is %llu bytes, more than the %zu this format allows",
			       (unsigned long long)size, max);
	gfs_buf_release(b);
	r = gfs_buf_set_len(b, (size_t)size);
	if (r)
		return r;
	return gfs_pread(ar, b->data, (size_t)size, 0);
}

int gfs_write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
