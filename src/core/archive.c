/*
 * Opening an archive: pick the format by bidding on content, give it its
 * mount options, let it load its model and tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>
#include "gamefs.h"
#include "core/core.h"

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

/* The format's own mount options, before its load(). */
static int gfs_format_args(struct gfs_archive *ar)
{
	for (size_t i = 0; i < ar->opts.nfmtargs; i++) {
		const struct gfs_format_arg *a = &ar->opts.fmtargs[i];
		const struct gfs_format_option *opt = ar->fmt->options;
		int r;

		while (opt && opt->key && strcmp(opt->key, a->key))
			opt++;
		if (!opt || !opt->key || !ar->fmt->option)
			return gfs_err(ar, -EINVAL, "option %s= is not one the %s format takes",
				       a->key, ar->fmt->name);
		r = ar->fmt->option(ar, a->key, a->value);
		if (r)
			return ar->err[0] ? r : gfs_err(ar, r, "option %s=%s: %s", a->key, a->value,
							strerror(-r));
	}
	return 0;
}

/*
 * Why a directory is not mounted.  An unlumped OHRRPGCE game (a .rpgdir
 * folder, or any folder holding the archinym.lmp lump) is named as such,
 * with how to make the lumped file gamefs mounts.
 */
static int gfs_refuse_dir(struct gfs_archive *ar)
{
	size_t n = strlen(ar->base);
	int rpgdir = n > 7 && !strcasecmp(ar->base + n - 7, ".rpgdir");

	if (rpgdir || !faccessat(ar->fd, "archinym.lmp", F_OK, 0) || !faccessat(ar->fd, "ARCHINYM.LMP", F_OK, 0))
		return gfs_err(ar, -EISDIR, "an unlumped OHRRPGCE game (a folder of lumps): gamefs mounts "
			       "lumped files; lump it first with OHRRPGCE's relump (relump %s %.*s.rpg), "
			       "then mount that file", ar->base, rpgdir ? (int)(n - 7) : 4,
			       rpgdir ? ar->base : "GAME");
	return gfs_err(ar, -EISDIR, "a directory, not an archive");
}

static int gfs_archive_load(struct gfs_archive *ar)
{
	struct gfs_buf names = GFS_BUF_INIT;
	int r;

	if (fstat(ar->fd, &ar->st))
		return gfs_err(ar, -errno, "cannot stat: %s", strerror(errno));
	if (S_ISDIR(ar->st.st_mode))
		return gfs_refuse_dir(ar);
	if (!S_ISREG(ar->st.st_mode))
		return gfs_err(ar, -EINVAL, "not a regular file");
	ar->fmt = ar->opts.format ? gfs_format_by_name(ar->opts.format) : gfs_probe(ar);
	if (!ar->fmt) {
		r = gfs_format_names(&names, ", ");
		if (!r && ar->opts.format)
			r = gfs_err(ar, -EINVAL, "unknown format '%s' (%s)", ar->opts.format, names.data);
		else if (!r)
			r = gfs_err(ar, -EPROTONOSUPPORT, "not a format gamefs knows (%s)", names.data);
		gfs_buf_release(&names);
		return r;
	}
	r = gfs_format_args(ar);
	if (r)
		return r;
	ar->root = gfs_node_new_dir(ar, NULL, "");
	if (!ar->root)
		return -ENOMEM;
	ar->loading = 1;
	gfs_warn_hold(ar);
	r = ar->fmt->load(ar);
	ar->loading = 0;
	if (r && !ar->err[0])
		gfs_err(ar, r, "cannot load: %s", strerror(-r));
	gfs_warn_release(ar, !r);
	/* damaged but readable: read-only, saying why, unless -o force */
	if (!r && ar->damaged && !ar->opts.force && !ar->readonly) {
		ar->readonly = 1;
		snprintf(ar->ro_reason, sizeof(ar->ro_reason), "the archive is damaged (%s); "
			 "-o force allows writing", gfs_warn_held_first()[0] ? gfs_warn_held_first() : "bad checksum");
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

/*
 * A writable open: the writer's lock first (gfs_archive_lock), then the
 * journal of a killed commit (gfs_archive_recover).  A journal beside an
 * archive that another live gamefs holds is that daemon's commit in
 * flight: the lock refuses this open before anything is touched.  When
 * the journal put a new archive in place, that file is opened and locked.
 */
static int gfs_open_writable(struct gfs_archive *ar)
{
	struct stat was, now;
	int r = gfs_archive_lock(ar), fd;

	if (r)
		return r;
	if (fstat(ar->fd, &was))
		return gfs_err(ar, -errno, "cannot stat: %s", strerror(errno));
	gfs_archive_recover(ar);	/* what it cannot finish, it says */
	if (stat(ar->path, &now) || (now.st_dev == was.st_dev && now.st_ino == was.st_ino))
		return 0;
	fd = open(ar->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gfs_err(ar, -errno, "cannot open: %s", strerror(errno));
	close(ar->fd);
	ar->fd = fd;
	return gfs_archive_lock(ar);
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
	}
	if (!r && !ar->opts.readonly)
		r = gfs_open_writable(ar);
	if (!r)
		r = gfs_archive_load(ar);
	if (!r && ar->readonly && !ar->opts.readonly)
		flock(ar->fd, LOCK_UN);		/* made read-only by its load (damaged): no writer */
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
	gfs_check_drop(ar);
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
	gfs_companions_release(ar);
	free(ar->hash);
	free(ar->path);
	free(ar->dir);
	free(ar->base);
	free(ar);
}
