/*
 * The offline commands: ls, cat, extract, check.  They walk the same tree
 * the FUSE layer serves, so they show exactly what a mount shows.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gamefs.h"
#include "core/core.h"

#define GFS_CHECK_PIECE ((size_t)1 << 20)	/* check reads stored members this much at a time */

static void gfs_mode_str(mode_t m, char *s)
{
	const char *rwx = "rwxrwxrwx";

	s[0] = S_ISDIR(m) ? 'd' : '-';
	for (int i = 0; i < 9; i++)
		s[i + 1] = (m & (1u << (8 - i))) ? rwx[i] : '-';
	s[10] = 0;
}

static int gfs_ls_rec(struct gfs_archive *ar, struct gfs_node *n, FILE *out)
{
	struct gfs_buf p = GFS_BUF_INIT;
	char mode[11];
	uint64_t size = 0;
	int r = 0;

	int bad = 0;

	if (n != ar->root || !S_ISDIR(n->mode)) {
		char sz[24];

		/* a view that cannot be produced is listed with size "?"; the rest goes on */
		if (!S_ISDIR(n->mode) && (bad = gfs_node_size(ar, n, &size)) == -ENOMEM)
			return bad;
		snprintf(sz, sizeof(sz), bad ? "?" : "%llu", (unsigned long long)size);
		if ((r = gfs_node_path(n, &p)))
			return r;
		gfs_mode_str(n->mode, mode);
		fprintf(out, "%s %10s %s%s\n", mode, sz, p.data ? (char *)p.data : "",
			S_ISDIR(n->mode) ? "/" : "");
		if (bad)
			gfs_warn(ar, "%s: cannot be produced: %s", p.data ? (char *)p.data : "",
				 ar->err[0] ? gfs_err_reason(ar) : strerror(-bad));
		gfs_buf_release(&p);
	}
	r = gfs_dir_ready(ar, n);
	for (size_t i = 0; i < n->nkids && !r; i++) {
		int k = gfs_ls_rec(ar, n->kids[i], out);

		if (k == -ENOMEM || (k && !bad))
			bad = k;
		if (k == -ENOMEM)
			break;
	}
	return r ? r : bad;
}

int gfs_cmd_ls(struct gfs_archive *ar, const char *path, FILE *out)
{
	struct gfs_node *n = gfs_node_lookup(ar, path ? path : "");

	if (!n)
		return gfs_err(ar, -ENOENT, "%s: no such file in the archive", path);
	return gfs_ls_rec(ar, n, out);
}

static int gfs_copy_out(struct gfs_archive *ar, struct gfs_node *n, int fd)
{
	size_t cap = 1 << 20;
	uint8_t *buf = malloc(cap);
	uint64_t off = 0;
	int r = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t got = gfs_node_read(ar, n, buf, cap, off);

		if (got < 0) {
			r = (int)got;
			break;
		}
		if (got == 0)
			break;
		if ((r = gfs_write_all(fd, buf, (size_t)got)))
			break;
		off += (uint64_t)got;
	}
	free(buf);
	return r;
}

int gfs_cmd_cat(struct gfs_archive *ar, const char *path, int fd)
{
	struct gfs_node *n = gfs_node_lookup(ar, path);
	int r;

	if (!n)
		return gfs_err(ar, -ENOENT, "%s: no such file in the archive", path);
	if (S_ISDIR(n->mode))
		return gfs_err(ar, -EISDIR, "%s: is a directory", path);
	r = gfs_copy_out(ar, n, fd);
	if (r && !ar->err[0])
		gfs_err(ar, r, "%s: %s", path, strerror(-r));
	return r;
}

static int gfs_extract_rec(struct gfs_archive *ar, struct gfs_node *n, int dirfd)
{
	struct timespec ts[2];
	int r = gfs_dir_ready(ar, n);

	for (size_t i = 0; i < n->nkids && !r; i++) {
		struct gfs_node *k = n->kids[i];

		ts[0] = ts[1] = k->mtime;
		if (S_ISDIR(k->mode)) {
			int sub;

			if (mkdirat(dirfd, k->name, 0755) && errno != EEXIST)
				return gfs_err(ar, -errno, "mkdir %s: %s", k->name, strerror(errno));
			sub = openat(dirfd, k->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (sub < 0)
				return gfs_err(ar, -errno, "open %s: %s", k->name, strerror(errno));
			r = gfs_extract_rec(ar, k, sub);
			futimens(sub, ts);
			close(sub);
		} else {
			int fd = openat(dirfd, k->name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

			if (fd < 0)
				return gfs_err(ar, -errno, "create %s: %s", k->name, strerror(errno));
			r = gfs_copy_out(ar, k, fd);
			fchmod(fd, k->mode & 07777);
			futimens(fd, ts);
			if (close(fd) && !r)
				r = -errno;
			if (r && !ar->err[0])
				gfs_err(ar, r, "%s: %s", k->name, strerror(-r));
		}
	}
	return r;
}

int gfs_cmd_extract(struct gfs_archive *ar, const char *dir)
{
	int fd, r;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return gfs_err(ar, -errno, "mkdir %s: %s", dir, strerror(errno));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return gfs_err(ar, -errno, "open %s: %s", dir, strerror(errno));
	r = gfs_extract_rec(ar, ar->root, fd);
	close(fd);
	return r;
}

/*
 * Read node n whole, as a reader would: bytes stored in the archive (a span
 * with no render and no edit) a piece at a time, so that a member past
 * 2 GiB is checked in bounded memory; anything else rendered into b.
 */
static int gfs_check_stream(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *b)
{
	uint64_t size, off = 0;
	int r;

	if (!(n->flags & GFS_NODE_SPAN) || (n->ops && n->ops->render) || n->edit ||
	    (r = gfs_node_size(ar, n, &size)) || size <= GFS_CHECK_PIECE)
		return gfs_node_content(ar, n, b);
	if ((r = gfs_buf_set_len(b, GFS_CHECK_PIECE)))
		return r;
	while (off < size) {
		ssize_t got = gfs_node_read(ar, n, b->data, GFS_CHECK_PIECE, off);

		if (got <= 0)
			return got < 0 ? (int)got : -EIO;
		off += (uint64_t)got;
	}
	return 0;
}

/* Render every node once: a view that cannot be produced is damage. */
static int gfs_check_rec(struct gfs_archive *ar, struct gfs_node *n, FILE *out, unsigned *bad)
{
	if (gfs_dir_ready(ar, n))
		(*bad)++;
	for (size_t i = 0; i < n->nkids; i++)
		gfs_check_rec(ar, n->kids[i], out, bad);
	if (!S_ISDIR(n->mode)) {
		struct gfs_buf b = GFS_BUF_INIT;
		int r = gfs_check_stream(ar, n, &b);

		if (r) {
			struct gfs_buf p = GFS_BUF_INIT;

			gfs_node_path(n, &p);
			fprintf(out, "%s: cannot read: %s\n", p.data ? (char *)p.data : "?", strerror(-r));
			gfs_buf_release(&p);
			(*bad)++;
		}
		gfs_buf_release(&b);
		gfs_buf_free(n->cache);
		n->cache = NULL;
	}
	return 0;
}

int gfs_cmd_check(struct gfs_archive *ar, FILE *out)
{
	unsigned bad = 0;
	int r = 0;

	fprintf(out, "%s: format %s (%s)\n", ar->path, ar->fmt->name, ar->fmt->description);
	if (ar->fmt->check)
		r = ar->fmt->check(ar, out);
	gfs_check_rec(ar, ar->root, out, &bad);
	if (ar->readonly && ar->ro_reason[0]) {
		fprintf(out, "read-only: %s\n", ar->ro_reason);
	}
	if (r || bad || ar->damaged) {
		fprintf(out, "%s: damaged\n", ar->path);
		return 1;
	}
	fprintf(out, "%s: ok\n", ar->path);
	return 0;
}
