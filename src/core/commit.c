/*
 * Committing: store every edited view into the model, stream the format's
 * save() into a temporary file beside the archive (and a companion file's
 * new content into a temporary beside it), fsync them, rename them over the
 * old files, fsync the directories.  A crash at any moment leaves each file
 * old or new, never a mix, and its temporaries are removed by the next
 * mount.  The writer streams unchanged spans of the old file with
 * copy_file_range(), so a commit never holds the archive in memory.
 *
 * Every temporary file this engine makes is named .NAME.gamefs-XXXXXX
 * beside NAME (the archive, a companion, or the archive's .bak), which is
 * what gfs_archive_clean_stale() removes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "gamefs.h"
#include "core/core.h"

#define GFS_WBUF (256 * 1024)
#define GFS_TMP_TAG ".gamefs-"

struct gfs_writer {
	struct gfs_archive *ar;
	int fd;			/* output file, or -1 for mem */
	struct gfs_buf *mem;	/* output when fd < 0 */
	uint8_t *buf;
	size_t blen;
	uint64_t flushed;	/* bytes already in the file */
	uint64_t pend_off, pend_len;	/* a copy not made yet, after buf (see gfs_writer_copy) */
	int err;
};

/* A second file of the archive (gfs_companion_add()). */
struct gfs_companion {
	char *path, *dir, *base;
	struct gfs_writer *w;	/* this commit's writer, NULL: unchanged */
	char *tmp;		/* its temporary file */
	char *keep;		/* a link to the old file while the renames run */
	struct gfs_buf sink;	/* the writer's output in a save into memory */
	struct stat st;		/* the file when read or last written (gfs_stat_same) */
	int absent;		/* it did not exist then */
};

static int gfs_writer_copy_now(struct gfs_writer *w, uint64_t off, uint64_t len);

/* Make the copy gfs_writer_copy() held back. */
static int gfs_writer_run_copy(struct gfs_writer *w)
{
	uint64_t off = w->pend_off, len = w->pend_len;

	if (!len)
		return w->err;
	w->pend_len = 0;
	return gfs_writer_copy_now(w, off, len);
}

/* The buffered bytes into the file (the held-back copy stays held). */
static int gfs_writer_flush_buf(struct gfs_writer *w)
{
	size_t done = 0;

	if (w->err)
		return w->err;
	if (w->fd < 0) {
		w->err = gfs_buf_add(w->mem, w->buf, w->blen);
		if (!w->err)
			w->flushed += w->blen;
		w->blen = 0;
		return w->err;
	}
	while (done < w->blen) {
		ssize_t n = pwrite(w->fd, w->buf + done, w->blen - done, (off_t)(w->flushed + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return w->err = n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	w->flushed += w->blen;
	w->blen = 0;
	return 0;
}

/* Everything asked for so far into the file (or memory). */
static int gfs_writer_flush(struct gfs_writer *w)
{
	return gfs_writer_run_copy(w) ? w->err : gfs_writer_flush_buf(w);
}

#define GFS_SAME_MAX 512

/*
 * Are the len bytes about to be put the very bytes of the old file that
 * follow the held-back copy (a lump's or a record's header a format writes
 * from memory between two copies)?  Then the copy grows over them.
 */
static int gfs_writer_continues(struct gfs_writer *w, const void *data, size_t len)
{
	uint8_t old[GFS_SAME_MAX];
	uint64_t src = w->pend_off + w->pend_len;

	if (!w->pend_len || !len || len > GFS_SAME_MAX || src > (uint64_t)w->ar->st.st_size ||
	    len > (uint64_t)w->ar->st.st_size - src)
		return 0;
	return !gfs_pread(w->ar, old, len, src) && !memcmp(old, data, len);
}

int gfs_writer_put(struct gfs_writer *w, const void *data, size_t len)
{
	const uint8_t *p = data;

	if (w->err)
		return w->err;
	if (gfs_writer_continues(w, data, len)) {
		w->pend_len += len;
		return 0;
	}
	if (gfs_writer_run_copy(w))
		return w->err;
	if (w->fd >= 0 && len >= GFS_WBUF) {	/* big: straight from the caller's bytes */
		if (gfs_writer_flush_buf(w))
			return w->err;
		while (len) {
			ssize_t n = pwrite(w->fd, p, len > (1u << 30) ? 1u << 30 : len, (off_t)w->flushed);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return w->err = n < 0 ? -errno : -EIO;
			p += n;
			len -= (size_t)n;
			w->flushed += (uint64_t)n;
		}
		return 0;
	}
	while (len && !w->err) {
		size_t n = GFS_WBUF - w->blen;

		if (n > len)
			n = len;
		memcpy(w->buf + w->blen, p, n);
		w->blen += n;
		p += n;
		len -= n;
		if (w->blen == GFS_WBUF)
			gfs_writer_flush_buf(w);
	}
	return w->err;
}

uint64_t gfs_writer_tell(struct gfs_writer *w)
{
	return w->flushed + w->blen + w->pend_len;
}

struct gfs_archive *gfs_writer_archive(struct gfs_writer *w)
{
	return w->ar;
}

/* Fallback copy through the buffer. */
static int gfs_writer_copy_slow(struct gfs_writer *w, uint64_t off, uint64_t len)
{
	while (len && !w->err) {
		size_t n = GFS_WBUF - w->blen;
		int r;

		if (n > len)
			n = (size_t)len;
		r = gfs_pread(w->ar, w->buf + w->blen, n, off);
		if (r)
			return w->err = r;
		w->blen += n;
		off += n;
		len -= n;
		if (w->blen == GFS_WBUF)
			gfs_writer_flush_buf(w);
	}
	return w->err;
}

/*
 * A copy is held back until something else is written: a copy that
 * continues it (the next unchanged lump, board or asset of the old file)
 * makes it longer, so a run of unchanged parts is one copy_file_range()
 * whatever the format asks for part by part.
 */
int gfs_writer_copy(struct gfs_writer *w, uint64_t off, uint64_t len)
{
	if (w->err)
		return w->err;
	if (off > (uint64_t)w->ar->st.st_size || len > (uint64_t)w->ar->st.st_size - off)
		return w->err = -EBADMSG;
	if (!len)
		return 0;
	if (w->pend_len && w->pend_off + w->pend_len == off) {
		w->pend_len += len;
		return 0;
	}
	if (gfs_writer_run_copy(w))
		return w->err;
	w->pend_off = off;
	w->pend_len = len;
	return 0;
}

static int gfs_writer_copy_now(struct gfs_writer *w, uint64_t off, uint64_t len)
{
	if (w->fd < 0 || len < 65536)
		return gfs_writer_copy_slow(w, off, len);
	if (gfs_writer_flush_buf(w))
		return w->err;
	while (len) {
		loff_t in = (loff_t)off, out = (loff_t)w->flushed;
		ssize_t n = copy_file_range(w->ar->fd, &in, w->fd, &out, (size_t)(len > (1u << 30) ? 1u << 30 : len), 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)	/* EXDEV, ENOSYS, EINVAL...: copy by hand */
			return gfs_writer_copy_slow(w, off, len);
		off += (uint64_t)n;
		len -= (uint64_t)n;
		w->flushed += (uint64_t)n;
	}
	return 0;
}

int gfs_writer_pwrite(struct gfs_writer *w, const void *data, size_t len, uint64_t off)
{
	if (gfs_writer_run_copy(w))
		return w->err;
	if (off + len > gfs_writer_tell(w))
		return w->err = -EINVAL;
	if (off >= w->flushed) {
		memcpy(w->buf + (off - w->flushed), data, len);
		return 0;
	}
	if (gfs_writer_flush(w))
		return w->err;
	if (w->fd < 0) {
		memcpy(w->mem->data + off, data, len);
		return 0;
	}
	if (pwrite(w->fd, data, len, (off_t)off) != (ssize_t)len)
		return w->err = -EIO;
	return 0;
}

int gfs_writer_crc(struct gfs_writer *w, uint64_t off, uint64_t len, uint32_t *crc)
{
	uint8_t *tmp;
	uint32_t c = gfs_crc32(0, NULL, 0);

	if (gfs_writer_flush(w))
		return w->err;
	if (off + len > w->flushed)
		return -EINVAL;
	if (w->fd < 0) {
		*crc = gfs_crc32(c, w->mem->data + off, (size_t)len);
		return 0;
	}
	tmp = malloc(GFS_WBUF);
	if (!tmp)
		return -ENOMEM;
	while (len) {
		size_t n = len > GFS_WBUF ? GFS_WBUF : (size_t)len;

		if (pread(w->fd, tmp, n, (off_t)off) != (ssize_t)n) {
			free(tmp);
			return -EIO;
		}
		c = gfs_crc32(c, tmp, n);
		off += n;
		len -= n;
	}
	free(tmp);
	*crc = c;
	return 0;
}

int gfs_writer_put_buf(struct gfs_writer *w, const struct gfs_buf *b)
{
	int r;

	if (w->fd < 0 || gfs_buf_fd(b) < 0 || b->len < 65536)
		return gfs_writer_put(w, b->data, b->len);
	if (gfs_writer_flush(w))
		return w->err;
	r = gfs_fd_copy(gfs_buf_fd(b), 0, w->fd, w->flushed, b->len);
	if (r)
		return w->err = r;
	w->flushed += b->len;
	return 0;
}

int gfs_writer_node(struct gfs_writer *w, struct gfs_node *n)
{
	struct gfs_buf b = GFS_BUF_INIT;
	int r;

	if (!n->edit && !(n->ops && n->ops->render) && (n->flags & GFS_NODE_SPAN))
		return gfs_writer_copy(w, n->span_off, n->span_len);
	if (n->edit)
		return gfs_writer_put_buf(w, n->edit);
	r = gfs_node_content(w->ar, n, &b);
	if (!r)
		r = gfs_writer_put(w, b.data, b.len);
	gfs_buf_release(&b);
	return r;
}

/* ---- temporary files ------------------------------------------------------ */

#define GFS_TMP_X "XXXXXX"

/* "DIR/.NAME.gamefs-XXXXXX", malloc'd. */
static char *gfs_tmp_template(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + sizeof(GFS_TMP_TAG) + sizeof(GFS_TMP_X) + 3;
	char *s = malloc(len);

	if (s)
		snprintf(s, len, "%s/.%s" GFS_TMP_TAG GFS_TMP_X, dir, name);
	return s;
}

/* A new temporary file for NAME in dir: its fd, its path in *out. */
static int gfs_tmp_create(struct gfs_archive *ar, const char *dir, const char *name, char **out)
{
	char *tmp = gfs_tmp_template(dir, name);
	int fd;

	if (!tmp)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fd = gfs_err(ar, -errno, "cannot create %s: %s", tmp, strerror(errno));
		free(tmp);
		return fd;
	}
	*out = tmp;
	return fd;
}

/* A second name for the file target, a temporary of NAME in dir: *out. */
static int gfs_tmp_link(const char *target, const char *dir, const char *name, char **out)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned counter;
	char *tmp = gfs_tmp_template(dir, name);
	char *x;
	int r;

	if (!tmp)
		return -ENOMEM;
	x = tmp + strlen(tmp) - (sizeof(GFS_TMP_X) - 1);
	for (int tries = 0; tries < 100; tries++) {
		struct timespec ts;
		unsigned long v;

		clock_gettime(CLOCK_REALTIME, &ts);
		v = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 12) ^ (counter++ * 2654435761u);
		for (size_t i = 0; i < sizeof(GFS_TMP_X) - 1; i++, v /= sizeof(digits) - 1)
			x[i] = digits[v % (sizeof(digits) - 1)];
		if (!link(target, tmp)) {
			*out = tmp;
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	r = -errno;
	free(tmp);
	return r;
}

/* Remove every .NAME.gamefs-XXXXXX in dir. */
static void gfs_clean_temps(struct gfs_archive *ar, const char *dir, const char *name)
{
	size_t plen = strlen(name) + strlen(GFS_TMP_TAG) + 1;
	char *prefix = malloc(plen + 1);
	DIR *d;
	struct dirent *e;

	if (!prefix)
		return;
	snprintf(prefix, plen + 1, ".%s" GFS_TMP_TAG, name);
	d = opendir(dir);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, plen) && strlen(e->d_name) == plen + sizeof(GFS_TMP_X) - 1 &&
		    !unlinkat(dirfd(d), e->d_name, 0))
			gfs_warn(ar, "removed %s left by an interrupted commit", e->d_name);
	if (d)
		closedir(d);
	free(prefix);
}

static int gfs_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) && errno != EINVAL)
		r = -errno;
	close(fd);
	return r;
}

/* ---- companion files -------------------------------------------------------- */

int gfs_companion_add(struct gfs_archive *ar, const char *path)
{
	struct gfs_companion *c, *more;
	const char *slash = strrchr(path, '/');

	if (!slash || !slash[1])
		return gfs_err(ar, -EINVAL, "companion %s: not a path to a file", path);
	more = realloc(ar->companions, (ar->ncompanions + 1) * sizeof(*more));
	if (!more)
		return -ENOMEM;
	ar->companions = more;
	c = &more[ar->ncompanions];
	memset(c, 0, sizeof(*c));
	c->path = strdup(path);
	c->dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
	c->base = strdup(slash + 1);
	if (!c->path || !c->dir || !c->base) {
		free(c->path);
		free(c->dir);
		free(c->base);
		return -ENOMEM;
	}
	c->absent = stat(c->path, &c->st) != 0;
	return (int)ar->ncompanions++;
}

static void gfs_writer_free(struct gfs_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	free(w->buf);
	free(w);
}

struct gfs_writer *gfs_writer_companion(struct gfs_writer *w, int id)
{
	struct gfs_archive *ar = w->ar;
	struct gfs_companion *c;
	struct gfs_writer *cw;

	if (id < 0 || (size_t)id >= ar->ncompanions) {
		w->err = gfs_err(ar, -EINVAL, "no companion file %d", id);
		return NULL;
	}
	c = &ar->companions[id];
	if (c->w)
		return c->w;
	cw = calloc(1, sizeof(*cw));
	if (!cw || !(cw->buf = malloc(GFS_WBUF))) {
		free(cw);
		w->err = -ENOMEM;
		return NULL;
	}
	cw->ar = ar;
	cw->fd = -1;
	cw->mem = &c->sink;
	if (w->fd >= 0) {
		struct stat st;

		cw->fd = gfs_tmp_create(ar, c->dir, c->base, &c->tmp);
		if (cw->fd < 0) {
			w->err = cw->fd;
			cw->fd = -1;
			gfs_writer_free(cw);
			return NULL;
		}
		fchmod(cw->fd, stat(c->path, &st) ? 0644 : st.st_mode & 07777);
	}
	c->w = cw;
	return cw;
}

/* Drop this commit's companion writers and temporaries. */
static void gfs_companions_abort(struct gfs_archive *ar)
{
	for (size_t i = 0; i < ar->ncompanions; i++) {
		struct gfs_companion *c = &ar->companions[i];

		gfs_writer_free(c->w);
		c->w = NULL;
		if (c->tmp)
			unlink(c->tmp);
		free(c->tmp);
		c->tmp = NULL;
		gfs_buf_release(&c->sink);
	}
}

/* Every companion's new content on disk (flushed, fsynced, closed). */
static int gfs_companions_finish(struct gfs_archive *ar)
{
	for (size_t i = 0; i < ar->ncompanions; i++) {
		struct gfs_companion *c = &ar->companions[i];
		int r;

		if (!c->w)
			continue;
		r = gfs_writer_flush(c->w);
		if (c->w->fd >= 0) {
			if (!r && fsync(c->w->fd))
				r = -errno;
			if (close(c->w->fd) && !r)
				r = -errno;
			c->w->fd = -1;
		}
		if (r)
			return gfs_err(ar, r, "cannot write %s: %s", c->tmp ? c->tmp : c->path,
				       strerror(-r));
	}
	return 0;
}

/*
 * Put the new companions in place, each old one kept under a temporary
 * name until the archive is renamed too (gfs_companions_settle()).
 */
static int gfs_companions_swap(struct gfs_archive *ar)
{
	for (size_t i = 0; i < ar->ncompanions; i++) {
		struct gfs_companion *c = &ar->companions[i];
		int r;

		if (!c->tmp)
			continue;
		r = gfs_tmp_link(c->path, c->dir, c->base, &c->keep);
		if (r && r != -ENOENT)
			return gfs_err(ar, r, "cannot keep the old %s: %s", c->path, strerror(-r));
		if (rename(c->tmp, c->path))
			return gfs_err(ar, -errno, "cannot rename %s over %s: %s", c->tmp, c->path,
				       strerror(errno));
		free(c->tmp);
		c->tmp = NULL;
	}
	return 0;
}

/* ok: drop the old companions; else put them back.  Then forget this commit. */
static void gfs_companions_settle(struct gfs_archive *ar, int ok)
{
	for (size_t i = 0; i < ar->ncompanions; i++) {
		struct gfs_companion *c = &ar->companions[i];
		int r;

		if (!ok && c->w && !c->tmp) {	/* renamed in place: undo */
			if (c->keep ? rename(c->keep, c->path) : unlink(c->path))
				gfs_warn(ar, "cannot put the old %s back%s%s: %s", c->path,
					 c->keep ? ": it is " : "", c->keep ? c->keep : "", strerror(errno));
		} else if (c->keep) {
			unlink(c->keep);
		}
		free(c->keep);
		c->keep = NULL;
		if (ok && c->w && (r = gfs_fsync_dir(c->dir)))
			gfs_warn(ar, "fsync of directory %s: %s", c->dir, strerror(-r));
		if (ok && c->w)
			c->absent = stat(c->path, &c->st) != 0;
	}
	gfs_companions_abort(ar);
}

/*
 * The commit point of a commit with companions: once every temporary is
 * written and fsynced, DIR/.ARCHIVE.gamefs-journal lists each temporary and
 * the file it replaces (NUL-separated pairs), made under a temporary name
 * and renamed, so it exists whole or not at all.  A kill during the
 * renames that follow leaves it, and the next writable open finishes the
 * renames it lists (gfs_archive_recover()): the files are all old or all
 * new.  Without it, the temporaries are stale and removed.
 */
#define GFS_JOURNAL_TAG ".gamefs-journal"	/* not 6 characters: no temporary */

static char *gfs_journal_path(const char *dir, const char *base)
{
	size_t len = strlen(dir) + strlen(base) + sizeof(GFS_JOURNAL_TAG) + 3;
	char *s = malloc(len);

	if (s)
		snprintf(s, len, "%s/.%s" GFS_JOURNAL_TAG, dir, base);
	return s;
}

static int gfs_journal_add(struct gfs_buf *j, const char *tmp, const char *path)
{
	int r = gfs_buf_add(j, tmp, strlen(tmp) + 1);

	return r ? r : gfs_buf_add(j, path, strlen(path) + 1);
}

static int gfs_journal_write(struct gfs_archive *ar, const char *tmp)
{
	struct gfs_buf j = GFS_BUF_INIT;
	char *jtmp = NULL, *jpath = gfs_journal_path(ar->dir, ar->base);
	int fd = -1, r = 0, placed = 0;

	if (!jpath)
		return -ENOMEM;
	for (size_t i = 0; !r && i < ar->ncompanions; i++)
		if (ar->companions[i].tmp)
			r = gfs_journal_add(&j, ar->companions[i].tmp, ar->companions[i].path);
	if (!r)
		r = gfs_journal_add(&j, tmp, ar->path);
	if (!r && (fd = gfs_tmp_create(ar, ar->dir, ar->base, &jtmp)) < 0)
		r = fd;
	for (size_t done = 0; !r && done < j.len;) {
		ssize_t n = write(fd, j.data + done, j.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			r = n < 0 ? -errno : -EIO;
		else
			done += (size_t)n;
	}
	if (!r && fsync(fd))
		r = -errno;
	if (!r && rename(jtmp, jpath))
		r = -errno;
	else if (!r)
		placed = 1;
	if (!r)
		r = gfs_fsync_dir(ar->dir);
	if (r && !ar->err[0])
		gfs_err(ar, r, "cannot write %s: %s", jpath, strerror(-r));
	if (fd >= 0)
		close(fd);
	if (r)
		unlink(placed ? jpath : jtmp);
	free(jtmp);
	free(jpath);
	gfs_buf_release(&j);
	return r;
}

static void gfs_journal_drop(struct gfs_archive *ar)
{
	char *jpath = gfs_journal_path(ar->dir, ar->base);

	if (jpath && !unlink(jpath))
		gfs_fsync_dir(ar->dir);
	free(jpath);
}

/*
 * May a journal replace path?  Only the files of this archive: those
 * beside it, and a file a mount option names (-o atlas=PATH).
 */
static int gfs_journal_target_ok(const struct gfs_archive *ar, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = strlen(ar->dir);

	if (slash && (size_t)(slash - path) == dlen && !strncmp(path, ar->dir, dlen))
		return 1;
	for (size_t i = 0; i < ar->opts.nfmtargs; i++) {
		char *real = realpath(ar->opts.fmtargs[i].value, NULL);
		int same = real && !strcmp(real, path);

		free(real);
		if (same)
			return 1;
	}
	return 0;
}

/*
 * Is tmp a temporary of path (DIR/.BASE.gamefs-XXXXXX beside DIR/BASE),
 * and path a file of this archive?  A journal names nothing else, so one
 * that does is not obeyed: it can only replace a file of the archive by
 * another of the same directory.
 */
static int gfs_journal_pair_ok(const struct gfs_archive *ar, const char *tmp, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dlen, blen, tlen = strlen(GFS_TMP_TAG);
	const char *x;

	if (!slash || !slash[1] || !gfs_journal_target_ok(ar, path))
		return 0;
	dlen = (size_t)(slash - path) + 1;
	blen = strlen(slash + 1);
	if (strncmp(tmp, path, dlen) || tmp[dlen] != '.' || strncmp(tmp + dlen + 1, slash + 1, blen) ||
	    strncmp(tmp + dlen + 1 + blen, GFS_TMP_TAG, tlen))
		return 0;
	x = tmp + dlen + 1 + blen + tlen;
	return strlen(x) == sizeof(GFS_TMP_X) - 1 && !strchr(x, '/');
}

#define GFS_JOURNAL_MAX 65536

/*
 * Every pair of the journal j (NUL-terminated strings) a temporary beside
 * a file of this archive, the last one the archive itself (gamefs renames
 * it last): checked whole before anything is renamed.
 */
static int gfs_journal_valid(const struct gfs_archive *ar, struct gfs_buf *j)
{
	const char *last = NULL;

	if (j->data[j->len - 1] || gfs_buf_addc(j, 0))
		return 0;
	j->len--;		/* a NUL past the end: every string below ends in j */
	for (size_t at = 0; at < j->len;) {
		const char *tmp = (const char *)j->data + at;
		const char *path = tmp + strlen(tmp) + 1;

		if ((size_t)(path - (const char *)j->data) >= j->len || !gfs_journal_pair_ok(ar, tmp, path))
			return 0;
		at = (size_t)(path - (const char *)j->data) + strlen(path) + 1;
		last = path;
	}
	return last && !strcmp(last, ar->path);
}

int gfs_archive_recover(struct gfs_archive *ar)
{
	char *jpath = gfs_journal_path(ar->dir, ar->base);
	struct gfs_buf j = GFS_BUF_INIT;
	FILE *f;
	int r = 0;

	if (!jpath)
		return -ENOMEM;
	f = fopen(jpath, "rbe");
	if (!f) {
		free(jpath);
		return 0;
	}
	for (int c; (c = getc(f)) != EOF && !r;)
		r = j.len < GFS_JOURNAL_MAX ? gfs_buf_addc(&j, (uint8_t)c) : -EFBIG;
	fclose(f);
	if (r == -EFBIG) {
		gfs_warn(ar, "%s is not a journal gamefs wrote: removed unread", jpath);
		gfs_buf_release(&j);
		r = 0;
	}
	if (!r && j.len && !gfs_journal_valid(ar, &j)) {
		gfs_warn(ar, "%s is not a journal gamefs wrote: removed unread", jpath);
		j.len = 0;
	}
	for (size_t at = 0; !r && at < j.len;) {
		const char *tmp = (const char *)j.data + at;
		const char *path = tmp + strlen(tmp) + 1;

		at = (size_t)(path - (const char *)j.data) + strlen(path) + 1;
		if (rename(tmp, path) == 0)
			gfs_warn(ar, "finished a commit a crash interrupted: %s is the new version", path);
		else if (errno != ENOENT) {
			r = -errno;
			gfs_warn(ar, "cannot finish a commit a crash interrupted: rename %s over %s: %s",
				 tmp, path, strerror(errno));
		}
	}
	if (!r && !unlink(jpath))
		gfs_fsync_dir(ar->dir);
	gfs_buf_release(&j);
	free(jpath);
	return r;
}

const char *gfs_companion_dir(const struct gfs_archive *ar, size_t i)
{
	return i < ar->ncompanions ? ar->companions[i].dir : NULL;
}

void gfs_companions_release(struct gfs_archive *ar)
{
	gfs_companions_abort(ar);
	for (size_t i = 0; i < ar->ncompanions; i++) {
		free(ar->companions[i].path);
		free(ar->companions[i].dir);
		free(ar->companions[i].base);
	}
	free(ar->companions);
	ar->companions = NULL;
	ar->ncompanions = 0;
}

/* ---- the commit -------------------------------------------------------------- */

/* The format's save() into fd or mem, companions into their temporaries. */
static int gfs_save_to(struct gfs_archive *ar, int fd, struct gfs_buf *mem)
{
	struct gfs_writer w = { .ar = ar, .fd = fd, .mem = mem };
	int r;

	if (!ar->fmt->save)
		return gfs_err(ar, -EROFS, "this format cannot be written back");
	w.buf = malloc(GFS_WBUF);
	if (!w.buf)
		return -ENOMEM;
	gfs_companions_abort(ar);
	r = ar->fmt->save(ar, &w);
	if (!r)
		r = gfs_writer_flush(&w);
	if (!r && w.err)
		r = w.err;
	for (size_t i = 0; r && !ar->err[0] && i < ar->ncompanions; i++) {
		struct gfs_companion *c = &ar->companions[i];

		if (c->w && c->w->err)	/* name the file that failed */
			gfs_err(ar, r, "cannot write %s: %s", c->tmp ? c->tmp : c->path, strerror(-r));
	}
	if (!r)
		r = gfs_companions_finish(ar);
	if (r || fd < 0)
		gfs_companions_abort(ar);
	free(w.buf);
	return r;
}

int gfs_archive_save_mem(struct gfs_archive *ar, struct gfs_buf *out)
{
	return gfs_save_to(ar, -1, out);
}

static int gfs_pending_rec(struct gfs_node *n)
{
	if (!(n->flags & GFS_NODE_SCRATCH) && (n->dirty || n->modified))
		return 1;
	for (size_t i = 0; i < n->nkids; i++)
		if (gfs_pending_rec(n->kids[i]))
			return 1;
	return 0;
}

int gfs_archive_pending(struct gfs_archive *ar)
{
	return ar->changed || (ar->root && gfs_pending_rec(ar->root));
}

/*
 * Nothing a user wrote is lost silently: the bytes of a refused edit stay
 * readable as the scratch file NAME.rejected beside it until unmount, so
 * that `mv NAME.rejected NAME` after a fix tries again.
 */
static struct gfs_node *gfs_keep_rejected(struct gfs_archive *ar, struct gfs_node *n)
{
	size_t len = strlen(n->name) + sizeof(".rejected");
	char *name = malloc(len);
	struct gfs_buf *keep;
	struct gfs_node *r = NULL;

	if (!name || !n->parent || len > 256)
		goto out;
	snprintf(name, len, "%s.rejected", n->name);
	r = gfs_node_child(ar, n->parent, name);
	if (r && !(r->flags & GFS_NODE_SCRATCH)) {
		r = NULL;
		goto out;
	}
	if (!r)
		r = gfs_node_new_scratch(ar, n->parent, name);
	/* a staged edit's memfd is shared, not copied */
	if (!r || !(keep = gfs_buf_share(n->edit))) {
		gfs_warn(ar, "out of memory keeping %s", name);
		r = NULL;
	} else {
		gfs_buf_free(r->edit);
		r->edit = keep;
		r->flags &= ~GFS_NODE_UNSAVED;
		clock_gettime(CLOCK_REALTIME, &r->mtime);
	}
out:
	free(name);
	return r;
}

/*
 * Before the first store of an edit since the last commit: the view as the
 * model renders it (the last good content), so that a commit that fails
 * can give the model its old content back (gfs_commit_undo).
 */
static void gfs_keep_good(struct gfs_archive *ar, struct gfs_node *n)
{
	struct gfs_buf *b;

	if (n->modified || n->good || !n->ops->render)
		return;
	if (n->cache) {
		n->good = gfs_buf_hold(n->cache);
		return;
	}
	b = gfs_buf_new();
	if (b && n->ops->render(ar, n, b)) {
		gfs_buf_free(b);
		b = NULL;
	}
	n->good = b;
}

/*
 * A commit failed (EBUSY, ENOSPC, EIO...): nothing of it is on disk.  Each
 * edit it held is kept as NAME.rejected, and its view goes back to its
 * last good content (stored into the model again), so that what the mount
 * shows is what the archive holds.  A writer still open keeps its bytes,
 * tried again at its last close.
 */
static void gfs_commit_undo(struct gfs_archive *ar, struct gfs_node *n)
{
	struct gfs_node *kept;

	for (size_t i = 0; i < n->nkids; i++)
		gfs_commit_undo(ar, n->kids[i]);
	if ((n->flags & GFS_NODE_SCRATCH) || !n->modified)
		return;
	if (n->edit && (kept = gfs_keep_rejected(ar, n)))
		kept->flags |= GFS_NODE_UNSAVED;
	if (n->good && n->ops && n->ops->store && n->ops->store(ar, n, n->good->data, n->good->len))
		gfs_warn(ar, "%s: cannot go back to its last good content: %s", n->name, gfs_err_reason(ar));
	gfs_buf_free(n->good);
	n->good = NULL;
	n->modified = 0;
	if (n->writers) {
		n->dirty = 1;
	} else {
		gfs_buf_free(n->edit);
		n->edit = NULL;
	}
}

/* Store every finished edit; returns the first store error. */
static int gfs_store_rec(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *closing, int all)
{
	int bad = 0;

	for (size_t i = 0; i < n->nkids; i++) {
		int r = gfs_store_rec(ar, n->kids[i], closing, all);

		if (r && !bad)
			bad = r;
	}
	if (!n->dirty || (n->flags & GFS_NODE_SCRATCH) || !n->edit)
		return bad;
	if (!all && n != closing && n->writers > 0)
		return bad;		/* still being written: not finished */
	if (n->ops && n->ops->store) {
		int r;

		gfs_keep_good(ar, n);
		r = n->ops->store(ar, n, n->edit->data, n->edit->len);
		if (r) {
			struct gfs_buf p = GFS_BUF_INIT;

			gfs_node_path(n, &p);
			gfs_warn(ar, "edit of %s refused: %s", p.data ? (char *)p.data : "?", gfs_err_reason(ar));
			gfs_buf_release(&p);
			gfs_keep_rejected(ar, n);
			/*
			 * Still open for writing (a dup'd descriptor may go on, as a
			 * shell's "> file" does): keep the bytes until the last
			 * release; then, or when nobody writes, back to the last
			 * good content.
			 */
			if (!n->writers) {
				gfs_buf_free(n->edit);
				n->edit = NULL;
				n->dirty = 0;
			}
			if (!n->modified) {	/* the model is as it was */
				gfs_buf_free(n->good);
				n->good = NULL;
			}
			gfs_tree_invalidate(ar);
			return bad ? bad : (r == -ENOMEM ? r : -EINVAL);
		}
		gfs_tree_invalidate(ar);	/* other views of the model changed */
	}
	n->dirty = 0;
	n->modified = 1;
	return bad;
}

static void gfs_after_commit_rec(struct gfs_node *n)
{
	if (!(n->flags & GFS_NODE_SCRATCH) && !n->dirty) {
		/* a writer still open keeps its bytes (its offsets refer to them) */
		if (!n->writers) {
			gfs_buf_free(n->edit);
			n->edit = NULL;
		}
		n->modified = 0;
	}
	gfs_buf_free(n->cache);
	n->cache = NULL;
	gfs_buf_free(n->good);
	n->good = NULL;
	n->flags &= ~GFS_NODE_BROKEN;
	for (size_t i = 0; i < n->nkids; i++)
		gfs_after_commit_rec(n->kids[i]);
}

void gfs_archive_clean_stale(struct gfs_archive *ar)
{
	size_t len = strlen(ar->base) + 5;
	char *bak = malloc(len);

	if (!ar->dir[0]) {
		free(bak);
		return;
	}
	gfs_clean_temps(ar, ar->dir, ar->base);
	if (bak) {
		snprintf(bak, len, "%s.bak", ar->base);
		gfs_clean_temps(ar, ar->dir, bak);
		free(bak);
	}
	for (size_t i = 0; i < ar->ncompanions; i++)
		gfs_clean_temps(ar, ar->companions[i].dir, ar->companions[i].base);
}

/* ARCHIVE.bak: a second link to the archive as it is, put in place by rename. */
static int gfs_backup(struct gfs_archive *ar)
{
	size_t len = strlen(ar->path) + 5, blen = strlen(ar->base) + 5;
	char *bak = malloc(len), *bname = malloc(blen), *tmp = NULL;
	int r;

	if (!bak || !bname) {
		r = -ENOMEM;
		goto out;
	}
	snprintf(bak, len, "%s.bak", ar->path);
	snprintf(bname, blen, "%s.bak", ar->base);
	r = gfs_tmp_link(ar->path, ar->dir, bname, &tmp);
	if (!r && rename(tmp, bak)) {
		r = -errno;
		unlink(tmp);
	}
	if (r)
		gfs_err(ar, r, "cannot keep backup %s: %s", bak, strerror(-r));
out:
	free(tmp);
	free(bak);
	free(bname);
	return r;
}

/*
 * The FUSE layer lets the kernel splice() stored assets straight from the
 * archive fd after it dropped its lock, so a replaced archive's fd is kept
 * open a while instead of being closed under a read in flight.
 */
#define GFS_RETIRE_SECONDS 30
void gfs_retire_fd(struct gfs_archive *ar, int fd)
{
	const size_t n = sizeof(ar->retired_fd) / sizeof(ar->retired_fd[0]);
	time_t now = time(NULL);
	size_t slot = 0;

	for (size_t i = 0; i < n; i++) {
		if (ar->retired_fd[i] >= 0 && now - ar->retired_at[i] >= GFS_RETIRE_SECONDS) {
			close(ar->retired_fd[i]);
			ar->retired_fd[i] = -1;
		}
		if (ar->retired_fd[i] < 0 || (ar->retired_fd[slot] >= 0 && ar->retired_at[i] < ar->retired_at[slot]))
			slot = i;
	}
	if (ar->retired_fd[slot] >= 0)
		close(ar->retired_fd[slot]);	/* eight commits within 30 s: the oldest goes */
	ar->retired_fd[slot] = fd;
	ar->retired_at[slot] = now;
}

/*
 * The same file as when it was read: same inode, size, mtime and ctime.
 * A rewrite in place that puts the old mtime back (rsync -t --inplace,
 * touch -r) still changes the ctime, which no program can set.
 */
int gfs_stat_same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/*
 * Another program may have saved the archive, or a companion this commit
 * replaces (the .lay atlas), since it was read: then writing ours would
 * silently undo its save.  Compared just before the renames (a save in the
 * few instructions between cannot be seen).
 */
static int gfs_archive_unchanged(struct gfs_archive *ar)
{
	struct stat st;

	if (stat(ar->path, &st))
		return gfs_err(ar, -errno, "the archive is gone (%s); not writing it", strerror(errno));
	if (!gfs_stat_same(&st, &ar->st))
		return gfs_err(ar, -EBUSY, "the archive changed on disk since it was read (another "
			       "program saved it); not overwriting it: unmount, then mount it again");
	for (size_t i = 0; i < ar->ncompanions; i++) {
		struct gfs_companion *c = &ar->companions[i];
		int gone = stat(c->path, &st) != 0;

		if (c->tmp && (gone != c->absent || (!gone && !gfs_stat_same(&st, &c->st))))
			return gfs_err(ar, -EBUSY, "%s changed on disk since it was read (another program "
				       "saved it); not overwriting it: unmount, then mount again", c->path);
	}
	return 0;
}

/*
 * The new archive and companions in temporaries, all written and fsynced
 * before anything is renamed; with companions, the journal (the commit
 * point); then the companions, then the archive.
 */
static int gfs_write_new(struct gfs_archive *ar)
{
	char *tmp = NULL;
	int fd, r, journal = 0;

	if (!ar->dir[0])
		return gfs_err(ar, -EROFS, "in-memory archive: nothing to write to");
	fd = gfs_tmp_create(ar, ar->dir, ar->base, &tmp);
	if (fd < 0)
		return fd;
	fchmod(fd, ar->st.st_mode & 07777);
	if (fchown(fd, ar->st.st_uid, ar->st.st_gid)) {
		/* not ours to give away: the new file stays the daemon's */
	}
	/* the writer's lock (see gfs_archive_lock) moves to the new file */
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		/* cannot fail on a file nobody else has opened */
	}
	r = gfs_save_to(ar, fd, NULL);
	if (r && !ar->err[0])
		gfs_err(ar, r, "cannot write %s: %s", tmp, strerror(-r));
	if (!r && fsync(fd))
		r = gfs_err(ar, -errno, "fsync of %s: %s", tmp, strerror(errno));
	if (!r)
		r = gfs_archive_unchanged(ar);
	if (!r && ar->opts.backup && !ar->backed_up) {
		r = gfs_backup(ar);
		if (!r)
			ar->backed_up = 1;
	}
	for (size_t i = 0; !r && i < ar->ncompanions && !journal; i++)
		journal = ar->companions[i].tmp != NULL;
	if (!r && journal)
		r = gfs_journal_write(ar, tmp);
	if (!r)
		r = gfs_companions_swap(ar);
	if (!r && rename(tmp, ar->path))
		r = gfs_err(ar, -errno, "cannot rename %s over the archive: %s", tmp, strerror(errno));
	gfs_companions_settle(ar, !r);
	if (journal)
		gfs_journal_drop(ar);
	if (r) {
		unlink(tmp);
		close(fd);
		free(tmp);
		return r;
	}
	free(tmp);
	r = gfs_fsync_dir(ar->dir);
	if (r)
		gfs_warn(ar, "fsync of directory %s: %s", ar->dir, strerror(-r));
	/* the new file is the archive now */
	gfs_retire_fd(ar, ar->fd);
	ar->fd = fd;
	fstat(fd, &ar->st);
	return 0;
}

/*
 * A commit that wrote nothing: during the mount its edits become
 * NAME.rejected and the views their last good content (gfs_commit_undo);
 * the last commit (all) keeps them for gfs_archive_keep_unsaved().
 */
static int gfs_commit_failed(struct gfs_archive *ar, int r, int all)
{
	char why[sizeof(ar->err)];

	if (all)
		return r;
	memcpy(why, ar->err, sizeof(why));
	gfs_commit_undo(ar, ar->root);
	gfs_tree_invalidate(ar);
	memcpy(ar->err, why, sizeof(why));
	return r;
}

int gfs_archive_commit_ex(struct gfs_archive *ar, struct gfs_node *closing, int all)
{
	int r, bad;

	ar->err[0] = 0;
	/* a check still running (a big archive's CRC) has its say first */
	if (ar->bgcheck && !ar->readonly && gfs_archive_pending(ar))
		gfs_check_wait(ar);
	if (ar->readonly)
		return gfs_archive_pending(ar) ? -EROFS : 0;
	bad = gfs_store_rec(ar, ar->root, closing, all);
	/* at unmount one bad edit does not throw the good ones away */
	if (bad && !all)
		return bad;
	if (!gfs_archive_pending(ar))
		return bad;
	if (ar->damaged && !ar->opts.force) {
		gfs_err(ar, -EIO, "archive was already damaged (bad CRC) when mounted; "
			"refusing to write it back without -o force");
		gfs_warn(ar, "commit refused: the archive was damaged before this edit (mount with -o force to override)");
		return gfs_commit_failed(ar, -EIO, all);
	}
	r = gfs_write_new(ar);
	if (r) {
		gfs_warn(ar, "commit failed: %s", gfs_err_reason(ar));
		return gfs_commit_failed(ar, r, all);
	}
	if (ar->fmt->committed)
		ar->fmt->committed(ar);
	gfs_after_commit_rec(ar->root);
	ar->changed = 0;
	return bad;
}

int gfs_archive_store(struct gfs_archive *ar, struct gfs_node *closing)
{
	ar->err[0] = 0;
	if (ar->readonly)
		return gfs_archive_pending(ar) ? -EROFS : 0;
	return gfs_store_rec(ar, ar->root, closing, 0);
}

void gfs_node_settle(struct gfs_archive *ar, struct gfs_node *n)
{
	if (n->edit && !n->dirty && !n->modified && !(n->flags & GFS_NODE_SCRATCH)) {
		gfs_buf_free(n->edit);
		n->edit = NULL;
		gfs_buf_free(n->cache);
		n->cache = NULL;
	}
}

int gfs_archive_commit(struct gfs_archive *ar)
{
	return gfs_archive_commit_ex(ar, NULL, 1);
}

/* ---- what a failed last commit leaves -------------------------------------- */

/* Is n an edit the last commit did not write (or a refused edit's bytes)? */
static int gfs_unsaved(const struct gfs_node *n)
{
	size_t len = strlen(n->name), rl = strlen(".rejected");

	if (!n->edit || S_ISDIR(n->mode))
		return 0;
	if (n->flags & GFS_NODE_SCRATCH)
		return len > rl && !strcmp(n->name + len - rl, ".rejected");
	return n->dirty || n->modified;
}

/* Write n's edit to dir/PATH (its path in the tree), making the folders. */
static int gfs_keep_one(struct gfs_archive *ar, int dirfd, struct gfs_node *n)
{
	struct gfs_buf p = GFS_BUF_INIT;
	int r = gfs_node_path(n, &p), fd;

	if (!r)
		r = gfs_buf_add(&p, "", 1);
	for (char *s = r ? NULL : strchr((char *)p.data, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		if (mkdirat(dirfd, (char *)p.data, 0755) && errno != EEXIST)
			r = -errno;
		*s = '/';
	}
	fd = r ? -1 : openat(dirfd, (char *)p.data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (!r && fd < 0)
		r = -errno;
	if (!r)
		r = gfs_buf_fd(n->edit) >= 0 ? gfs_fd_copy(gfs_buf_fd(n->edit), 0, fd, 0, n->edit->len)
					     : gfs_write_all(fd, n->edit->data, n->edit->len);
	if (!r && fsync(fd))
		r = -errno;
	if (fd >= 0)
		close(fd);
	if (r)
		gfs_warn(ar, "cannot keep %s: %s", p.data ? (char *)p.data : n->name, strerror(-r));
	gfs_buf_release(&p);
	return r;
}

static int gfs_keep_rec(struct gfs_archive *ar, int dirfd, struct gfs_node *n, size_t *kept)
{
	int bad = 0;

	for (size_t i = 0; i < n->nkids; i++) {
		int r = gfs_keep_rec(ar, dirfd, n->kids[i], kept);

		if (r && !bad)
			bad = r;
	}
	if (!gfs_unsaved(n))
		return bad;
	if (!gfs_keep_one(ar, dirfd, n))
		(*kept)++;
	else if (!bad)
		bad = -EIO;
	return bad;
}

int gfs_archive_keep_unsaved(struct gfs_archive *ar, char *where, size_t len, size_t *kept)
{
	int dirfd = -1, r;

	*kept = 0;
	where[0] = 0;
	if (!ar->dir[0] || !ar->root)
		return -EROFS;
	for (int i = 1; i < 100 && dirfd < 0; i++) {
		if (i == 1)
			snprintf(where, len, "%s/%s.unsaved", ar->dir, ar->base);
		else
			snprintf(where, len, "%s/%s.unsaved-%d", ar->dir, ar->base, i);
		if (mkdir(where, 0755)) {
			if (errno == EEXIST)
				continue;
			return -errno;
		}
		dirfd = open(where, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0)
			return -errno;
	}
	if (dirfd < 0)
		return -EEXIST;
	r = gfs_keep_rec(ar, dirfd, ar->root, kept);
	if (fsync(dirfd))
		r = r ? r : -errno;
	close(dirfd);
	gfs_fsync_dir(ar->dir);
	if (!*kept)
		rmdir(where);
	return r;
}

static int gfs_has_unsaved(const struct gfs_node *n)
{
	if (n->flags & GFS_NODE_UNSAVED)
		return 1;
	for (size_t i = 0; i < n->nkids; i++)
		if (gfs_has_unsaved(n->kids[i]))
			return 1;
	return 0;
}

int gfs_archive_finish(struct gfs_archive *ar, char *msg, size_t len)
{
	char where[PATH_MAX], why[sizeof(ar->err)];
	size_t kept;
	int r = 0, k;

	msg[0] = 0;
	if (ar->readonly || !ar->root)
		return 0;
	if (gfs_archive_pending(ar))
		r = gfs_archive_commit(ar);
	if (!r && !gfs_has_unsaved(ar->root))
		return 0;
	snprintf(why, sizeof(why), "%s", r ? (ar->err[0] ? ar->err : strerror(-r)) :
		 "edits a commit refused during the mount (NAME.rejected) were never saved");
	k = gfs_archive_keep_unsaved(ar, where, sizeof(where), &kept);
	if (kept)
		snprintf(msg, len, "%s; %zu edited file%s kept in %s%s", why, kept, kept == 1 ? "" : "s",
			 where, k ? " (some could not be written, see above)" : "");
	else if (k)
		snprintf(msg, len, "%s; the edited files could not be kept beside the archive: %s", why,
			 strerror(-k));
	else
		snprintf(msg, len, "%s", why);
	return r ? r : -EBUSY;
}
