/*
 * The bottom layer of the core: messages that name the archive (errors in
 * ar->err, warnings to its log) and reads of the archive file.  Every
 * other core file uses these; this file uses none of them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "gamefs.h"

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

static int gfs_verr(struct gfs_archive *ar, int err, int at, uint64_t off,
		    const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
static int gfs_verr(struct gfs_archive *ar, int err, int at, uint64_t off,
		    const char *fmt, va_list ap)
{
	char tmp[sizeof(ar->err)];	/* the arguments may point into ar->err */

	gfs_vformat(ar, tmp, sizeof(tmp), at, off, fmt, ap);
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

const char *gfs_err_reason(const struct gfs_archive *ar)
{
	size_t n = strlen(ar->path);

	if (!strncmp(ar->err, ar->path, n) && !strncmp(ar->err + n, ": ", 2)) {
		const char *p = strstr(ar->err + n + 2, ": ");

		if (p)
			return p + 2;
	}
	return ar->err;
}

void gfs_warn(struct gfs_archive *ar, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	gfs_vformat(ar, msg, sizeof(msg), 0, 0, fmt, ap);
	va_end(ap);
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
