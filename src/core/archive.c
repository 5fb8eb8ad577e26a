/*
 * Opening an archive: pick the format by bidding on content, let it load
 * its model and tree; error and warning messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
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

static void gfs_held_flush(struct gfs_archive *ar, int print)
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

static int gfs_split_path(struct gfs_archive *ar, const char *path)
{
	const char *slash = strrchr(path, '/');

	ar->path = strdup(path);
	if (slash) {
		ar->dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
		ar->base = strdup(slash + 1);
	} else {
		ar->dir = strdup(".");
		ar->base = strdup(path);
	}
	return ar->path && ar->dir && ar->base ? 0 : -ENOMEM;
}

static const struct gfs_format *gfs_probe(struct gfs_archive *ar)
{
	uint8_t head[GFS_PROBE_BYTES];
	ssize_t n = pread(ar->fd, head, sizeof(head), 0);
	const struct gfs_format *best = NULL;
	int best_bid = 0;

	if (n < 0)
		return NULL;
	for (size_t i = 0; gfs_formats[i]; i++) {
		int b = gfs_formats[i]->bid ? gfs_formats[i]->bid(head, (size_t)n, ar->path) : 0;

		if (b > best_bid) {
			best_bid = b;
			best = gfs_formats[i];
		}
	}
	return best;
}

static int gfs_archive_load(struct gfs_archive *ar)
{
	int r;

	if (fstat(ar->fd, &ar->st))
		return gfs_err(ar, -errno, "cannot stat: %s", strerror(errno));
	if (!S_ISREG(ar->st.st_mode))
		return gfs_err(ar, -EINVAL, "not a regular file");
	if (ar->opts.format) {
		ar->fmt = gfs_format_by_name(ar->opts.format);
		if (!ar->fmt)
			return gfs_err(ar, -EINVAL, "unknown format '%s' (rpg, tng, tngsave, zzt, lay)",
				       ar->opts.format);
	} else {
		ar->fmt = gfs_probe(ar);
		if (!ar->fmt)
			return gfs_err(ar, -EPROTONOSUPPORT, "not a format gamefs knows (rpg, tng, tngsave, zzt, lay)");
	}
	ar->root = gfs_node_new_dir(ar, NULL, "");
	if (!ar->root)
		return -ENOMEM;
	ar->loading = 1;
	gfs_held_ar = ar;
	gfs_held_first[0] = 0;
	r = ar->fmt->load(ar);
	ar->loading = 0;
	if (r && !ar->err[0])
		gfs_err(ar, r, "cannot load: %s", strerror(-r));
	gfs_held_flush(ar, !r);
	/* damaged but readable: read-only, saying why, unless -o force */
	if (!r && ar->damaged && !ar->opts.force && !ar->readonly) {
		ar->readonly = 1;
		snprintf(ar->ro_reason, sizeof(ar->ro_reason), "the archive is damaged (%s); "
			 "-o force allows writing", gfs_held_first[0] ? gfs_held_first : "bad checksum");
	}
	return r;
}

static struct gfs_archive *gfs_archive_new(const struct gfs_opts *opts)
{
	struct gfs_archive *ar = calloc(1, sizeof(*ar));

	if (!ar)
		return NULL;
	ar->fd = -1;
	for (size_t i = 0; i < sizeof(ar->retired_fd) / sizeof(ar->retired_fd[0]); i++)
		ar->retired_fd[i] = -1;
	if (opts)
		ar->opts = *opts;
	ar->readonly = ar->opts.readonly;
	ar->next_ino = 1;
	ar->uid = getuid();
	ar->gid = getgid();
	return ar;
}

static int gfs_open_finish(struct gfs_archive *ar, int r, struct gfs_archive **out,
			   char *errbuf, size_t errlen)
{
	if (r) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "%s", ar->err[0] ? ar->err : strerror(-r));
		gfs_archive_close(ar);
		return r;
	}
	*out = ar;
	return 0;
}

int gfs_archive_open(const char *path, const struct gfs_opts *opts,
		     struct gfs_archive **out, char *errbuf, size_t errlen)
{
	struct gfs_archive *ar = gfs_archive_new(opts);
	int r;

	if (!ar)
		return -ENOMEM;
	r = gfs_split_path(ar, path);
	if (!r) {
		ar->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (ar->fd < 0)
			r = gfs_err(ar, -errno, "cannot open: %s", strerror(errno));
		else
			r = gfs_archive_load(ar);
	}
	return gfs_open_finish(ar, r, out, errbuf, errlen);
}

int gfs_archive_open_mem(const uint8_t *data, size_t len, const char *name,
			 const struct gfs_opts *opts, struct gfs_archive **out,
			 char *errbuf, size_t errlen)
{
	struct gfs_archive *ar = gfs_archive_new(opts);
	int r;

	if (!ar)
		return -ENOMEM;
	r = gfs_split_path(ar, name);
	ar->dir[0] = 0;		/* no directory: commits go through save_mem only */
	if (!r) {
		ar->fd = memfd_create("gamefs", MFD_CLOEXEC);
		if (ar->fd < 0)
			r = -errno;
	}
	for (size_t done = 0; !r && done < len;) {
		ssize_t n = write(ar->fd, data + done, len - done);

		if (n <= 0)
			r = -EIO;
		else
			done += (size_t)n;
	}
	if (!r)
		r = gfs_archive_load(ar);
	return gfs_open_finish(ar, r, out, errbuf, errlen);
}

int gfs_archive_lock(struct gfs_archive *ar)
{
	if (!flock(ar->fd, LOCK_EX | LOCK_NB))
		return 0;
	if (errno == EWOULDBLOCK)
		return gfs_err(ar, -EBUSY, "already mounted for writing by another gamefs "
			       "(one writer per archive; -o ro mounts it read-only)");
	return gfs_err(ar, -errno, "cannot lock: %s", strerror(errno));
}

void gfs_archive_close(struct gfs_archive *ar)
{
	if (!ar)
		return;
	if (ar->root)
		gfs_node_free(ar, ar->root);
	if (ar->fmt && ar->fmt->free)
		ar->fmt->free(ar);
	if (ar->fd >= 0)
		close(ar->fd);
	for (size_t i = 0; i < sizeof(ar->retired_fd) / sizeof(ar->retired_fd[0]); i++)
		if (ar->retired_fd[i] >= 0)
			close(ar->retired_fd[i]);
	gfs_tree_release(ar);
	free(ar->hash);
	free(ar->path);
	free(ar->dir);
	free(ar->base);
	free(ar);
}
