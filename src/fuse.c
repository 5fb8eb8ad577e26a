/*
 * The FUSE glue (high-level API).  It knows no format: it serves the
 * generic tree of an opened archive and calls the core for edits and
 * commits.  One mutex serialises every operation on the tree: the model,
 * the edit buffers and the commit are never seen half-changed.  Reads of
 * archive spans go through pread() on the current archive file.
 */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "gfs_fuse.h"

#define GFS_FUSE_HIDDEN ".fuse_hidden"

struct gfs_handle {
	struct gfs_node *node;
	int writable;
};

static pthread_mutex_t gfs_lock = PTHREAD_MUTEX_INITIALIZER;

static struct gfs_archive *gfs_ar(void)
{
	return fuse_get_context()->private_data;
}

/* With nullpath_ok, libfuse passes NULL for a file that was removed while open. */
static struct gfs_node *gfs_find(struct gfs_archive *ar, const char *path, struct fuse_file_info *fi)
{
	if (fi && fi->fh)
		return ((struct gfs_handle *)(uintptr_t)fi->fh)->node;
	return path ? gfs_node_lookup(ar, path) : NULL;
}

#define LOCKED(expr) ({ pthread_mutex_lock(&gfs_lock); __typeof__(expr) _r = (expr); \
			pthread_mutex_unlock(&gfs_lock); _r; })

static int gfs_commit_now(struct gfs_archive *ar, struct gfs_node *closing)
{
	if (ar->opts.commit != GFS_COMMIT_CLOSE || ar->readonly)
		return 0;
	return gfs_archive_commit_ex(ar, closing, 0);
}

static void gfs_fill_stat(struct gfs_archive *ar, struct gfs_node *n, struct stat *st)
{
	uint64_t size = 0;

	memset(st, 0, sizeof(*st));
	st->st_ino = n->ino;
	st->st_mode = n->mode;
	if (ar->readonly)
		st->st_mode &= ~(mode_t)0222;
	st->st_uid = ar->uid;
	st->st_gid = ar->gid;
	if (S_ISDIR(n->mode)) {
		st->st_nlink = 2 + (nlink_t)n->nsubdirs;
	} else {
		st->st_nlink = 1;
		if (gfs_node_size(ar, n, &size))
			size = 0;
	}
	st->st_size = (off_t)size;
	st->st_blksize = 65536;
	st->st_blocks = (blkcnt_t)((size + 511) / 512);
	st->st_mtim = st->st_ctim = n->mtime;
	st->st_atim = n->mtime;
}

static int gfs_op_getattr_locked(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_node *n = gfs_find(ar, path, fi);

	if (!n)
		return -ENOENT;
	gfs_fill_stat(ar, n, st);
	return 0;
}

static int gfs_op_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_getattr_locked(path, st, fi));
}

static int gfs_op_readdir_locked(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
				 struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_node *d = gfs_find(ar, path, fi);
	struct stat st;
	int plus = (flags & FUSE_READDIR_PLUS) != 0;

	if (!d)
		return -ENOENT;
	if (!S_ISDIR(d->mode))
		return -ENOTDIR;
	if (gfs_dir_ready(ar, d))
		return -EIO;
	/* offsets: 1 ".", 2 "..", 3.. the entries; libfuse then hands the kernel
	 * full entries (readdirplus), so a walk needs no LOOKUP per file */
	if (off < 1) {
		gfs_fill_stat(ar, d, &st);
		if (fill(buf, ".", &st, 1, plus ? FUSE_FILL_DIR_PLUS : 0))
			return 0;
	}
	if (off < 2) {
		gfs_fill_stat(ar, d->parent ? d->parent : d, &st);
		if (fill(buf, "..", &st, 2, plus ? FUSE_FILL_DIR_PLUS : 0))
			return 0;
	}
	for (size_t i = off > 2 ? (size_t)off - 2 : 0; i < d->nkids; i++) {
		memset(&st, 0, sizeof(st));
		if (plus)
			gfs_fill_stat(ar, d->kids[i], &st);
		else {
			st.st_ino = d->kids[i]->ino;
			st.st_mode = d->kids[i]->mode;
		}
		if (fill(buf, d->kids[i]->name, &st, (off_t)i + 3, plus ? FUSE_FILL_DIR_PLUS : 0))
			break;
	}
	return 0;
}

static int gfs_op_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
			  struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	return LOCKED(gfs_op_readdir_locked(path, buf, fill, off, fi, flags));
}

static int gfs_attach(struct gfs_node *n, struct fuse_file_info *fi, int writable);
static int gfs_op_release(const char *path, struct fuse_file_info *fi);

static int gfs_op_opendir_locked(const char *path, struct fuse_file_info *fi)
{
	struct gfs_node *n = path ? gfs_node_lookup(gfs_ar(), path) : NULL;

	if (!n)
		return -ENOENT;
	if (!S_ISDIR(n->mode))
		return -ENOTDIR;
	return gfs_attach(n, fi, 0);
}

static int gfs_op_opendir(const char *path, struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_opendir_locked(path, fi));
}

static int gfs_op_releasedir(const char *path, struct fuse_file_info *fi)
{
	return gfs_op_release(path, fi);
}

static int gfs_attach(struct gfs_node *n, struct fuse_file_info *fi, int writable)
{
	struct gfs_handle *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->node = n;
	h->writable = writable;
	n->open_count++;
	if (writable)
		n->writers++;
	fi->fh = (uint64_t)(uintptr_t)h;
	return 0;
}

static int gfs_may_write(struct gfs_archive *ar, struct gfs_node *n)
{
	if (ar->readonly)
		return -EROFS;
	if (!(n->mode & 0200))
		return -EACCES;
	return 0;
}

static int gfs_op_open_locked(const char *path, struct fuse_file_info *fi)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_node *n = path ? gfs_node_lookup(ar, path) : NULL;
	int acc = fi->flags & O_ACCMODE, writable = acc != O_RDONLY, r;

	if (!n)
		return -ENOENT;
	if (S_ISDIR(n->mode))
		return -EISDIR;
	if (writable && (r = gfs_may_write(ar, n)))
		return r;
	if (writable && (fi->flags & O_TRUNC) && (r = gfs_node_truncate(ar, n, 0)))
		return r;
	return gfs_attach(n, fi, writable);
}

static int gfs_op_open(const char *path, struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_open_locked(path, fi));
}

/* Split path into its directory node and last component. */
static struct gfs_node *gfs_parent_of(struct gfs_archive *ar, const char *path, const char **name)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct gfs_node *d;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return NULL;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = 0;
	d = gfs_node_lookup(ar, dir);
	*name = slash + 1;
	return d && S_ISDIR(d->mode) ? d : NULL;
}

static struct gfs_node *gfs_new_scratch(struct gfs_archive *ar, struct gfs_node *dir, const char *name)
{
	struct gfs_node *n = gfs_node_new_file(ar, dir, name, 0644, NULL, NULL);

	if (!n)
		return NULL;
	n->flags |= GFS_NODE_SCRATCH;
	n->edit = gfs_buf_new();
	if (!n->edit || gfs_buf_grow(n->edit, 0)) {
		gfs_node_remove(ar, n);
		return NULL;
	}
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	return n;
}

static int gfs_op_create_locked(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	struct gfs_archive *ar = gfs_ar();
	const char *name;
	struct gfs_node *dir = gfs_parent_of(ar, path, &name), *n;
	int r;

	if (!dir)
		return -ENOENT;
	if (strlen(name) > NAME_MAX)
		return -ENAMETOOLONG;
	n = gfs_node_child(ar, dir, name);
	if (n) {
		if (fi->flags & O_EXCL)
			return -EEXIST;
		return gfs_op_open_locked(path, fi);
	}
	if (ar->readonly)
		return -EROFS;
	if (gfs_is_scratch_name(name)) {
		n = gfs_new_scratch(ar, dir, name);
		if (!n)
			return -ENOMEM;
	} else {
		if (!ar->fmt->create)
			return -EPERM;
		ar->err[0] = 0;
		r = ar->fmt->create(ar, dir, name, &n);
		if (r) {
			if (ar->err[0])
				gfs_warn(ar, "create %s refused: %s", path, gfs_err_reason(ar));
			return r;
		}
		clock_gettime(CLOCK_REALTIME, &n->mtime);
	}
	return gfs_attach(n, fi, 1);
}

static int gfs_op_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_create_locked(path, mode, fi));
}

static int gfs_op_read_locked(const char *path, char *buf, size_t size, off_t off,
			      struct fuse_file_info *fi)
{
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;
	ssize_t n = gfs_node_read(gfs_ar(), h->node, buf, size, (uint64_t)off);

	return n < 0 ? (int)n : (int)n;
}

static int gfs_op_read(const char *path, char *buf, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_read_locked(path, buf, size, off, fi));
}

/*
 * Reads of unchanged stored assets: hand libfuse the archive's fd so it can
 * splice() the bytes to the kernel without copying them through us.  The
 * fd stays valid after we drop the lock because a commit retires old fds
 * instead of closing them at once (gfs_archive_retire_fd).
 */
static int gfs_op_read_buf(const char *path, struct fuse_bufvec **bufp, size_t size, off_t off,
			   struct fuse_file_info *fi)
{
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;
	struct gfs_archive *ar = gfs_ar();
	struct gfs_node *n;
	struct fuse_bufvec *bv = malloc(sizeof(*bv));
	ssize_t got;

	if (!bv)
		return -ENOMEM;
	*bv = FUSE_BUFVEC_INIT(size);
	pthread_mutex_lock(&gfs_lock);
	n = h->node;
	if (!n->edit && !(n->ops && n->ops->render) && (n->flags & GFS_NODE_SPAN)) {
		uint64_t o = (uint64_t)off;

		size = o >= n->span_len ? 0 : (size_t)(n->span_len - o < size ? n->span_len - o : size);
		bv->buf[0].size = size;
		bv->buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK | FUSE_BUF_FD_RETRY;
		bv->buf[0].fd = ar->fd;
		bv->buf[0].pos = (off_t)(n->span_off + o);
		pthread_mutex_unlock(&gfs_lock);
		*bufp = bv;
		return 0;
	}
	bv->buf[0].mem = malloc(size ? size : 1);
	if (!bv->buf[0].mem) {
		pthread_mutex_unlock(&gfs_lock);
		free(bv);
		return -ENOMEM;
	}
	got = gfs_node_read(ar, n, bv->buf[0].mem, size, (uint64_t)off);
	pthread_mutex_unlock(&gfs_lock);
	if (got < 0) {
		free(bv->buf[0].mem);
		free(bv);
		return (int)got;
	}
	bv->buf[0].size = (size_t)got;
	*bufp = bv;
	return 0;
}

static int gfs_op_write_locked(const char *path, const char *buf, size_t size, off_t off,
			       struct fuse_file_info *fi)
{
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;
	ssize_t n;

	if (!h->writable)
		return -EBADF;
	n = gfs_node_write(gfs_ar(), h->node, buf, size, (uint64_t)off);
	return (int)n;
}

static int gfs_op_write(const char *path, const char *buf, size_t size, off_t off,
			struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_write_locked(path, buf, size, off, fi));
}

static int gfs_op_truncate_locked(const char *path, off_t size, struct fuse_file_info *fi)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_node *n = gfs_find(ar, path, fi);
	int r;

	if (!n)
		return -ENOENT;
	if (S_ISDIR(n->mode))
		return -EISDIR;
	if ((r = gfs_may_write(ar, n)))
		return r;
	if (size < 0)
		return -EINVAL;
	r = gfs_node_truncate(ar, n, (uint64_t)size);
	if (!r && !n->writers && !(n->flags & GFS_NODE_SCRATCH))
		r = gfs_commit_now(ar, n);	/* truncate(1) on a closed file */
	return r;
}

static int gfs_op_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_truncate_locked(path, size, fi));
}

static int gfs_op_flush_locked(const char *path, struct fuse_file_info *fi)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;
	struct gfs_node *n = h->node;

	if (!h->writable || n->unlinked || (n->flags & GFS_NODE_SCRATCH) || n->writers > 1)
		return 0;
	if (!gfs_archive_pending(ar))
		return 0;
	return gfs_commit_now(ar, n);
}

static int gfs_op_flush(const char *path, struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_flush_locked(path, fi));
}

static int gfs_op_release_locked(const char *path, struct fuse_file_info *fi)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;
	struct gfs_node *n = h->node;

	int writable = h->writable;

	free(h);
	n->open_count--;
	if (writable)
		n->writers--;
	if (n->unlinked) {
		if (!n->open_count)
			gfs_node_free(ar, n);
		return 0;
	}
	if (writable && !n->writers && !(n->flags & GFS_NODE_SCRATCH)) {
		/*
		 * The last descriptor is gone.  An edit that is still dirty (its
		 * commit at close failed, or a dup'd descriptor kept writing after
		 * the flush) is committed now; if it still does not parse, the
		 * core drops it and the file reads back its last good content.
		 */
		if (n->dirty)
			gfs_commit_now(ar, n);
		gfs_node_settle(ar, n);
	}
	return 0;
}

static int gfs_op_release(const char *path, struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_release_locked(path, fi));
}

static int gfs_op_fsync_locked(const char *path, int datasync, struct fuse_file_info *fi)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;

	if ((h->node->flags & GFS_NODE_SCRATCH) || ar->readonly)
		return 0;
	return gfs_archive_commit_ex(ar, h->node, 0);
}

static int gfs_op_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_fsync_locked(path, datasync, fi));
}

static int gfs_op_unlink_locked(const char *path)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_node *n = gfs_node_lookup(ar, path);
	int r;

	if (!n)
		return -ENOENT;
	if (S_ISDIR(n->mode))
		return -EISDIR;
	if (n->flags & GFS_NODE_SCRATCH) {
		gfs_node_remove(ar, n);
		return gfs_archive_pending(ar) ? gfs_commit_now(ar, NULL) : 0;
	}
	if (ar->readonly)
		return -EROFS;
	if (!ar->fmt->unlink)
		return -EPERM;
	ar->err[0] = 0;
	if ((r = ar->fmt->unlink(ar, n)))
		return r;
	return gfs_commit_now(ar, NULL);
}

static int gfs_op_unlink(const char *path)
{
	return LOCKED(gfs_op_unlink_locked(path));
}

/* Rename of an editor scratch file: over a real file it replaces that file's content. */
static int gfs_rename_scratch(struct gfs_archive *ar, struct gfs_node *src, struct gfs_node *dir,
			      const char *name, struct gfs_node *dst)
{
	int r;

	if (dst && (dst->flags & GFS_NODE_SCRATCH)) {
		gfs_node_remove(ar, dst);
		dst = NULL;
	}
	if (!dst && gfs_is_scratch_name(name)) {
		gfs_node_move(ar, src, dir, name);
		return 0;
	}
	if (ar->readonly)
		return -EROFS;
	if (dst) {
		if (S_ISDIR(dst->mode))
			return -EISDIR;
		if ((r = gfs_may_write(ar, dst)))
			return r;
	} else {
		if (!ar->fmt->create)
			return -EPERM;
		if ((r = ar->fmt->create(ar, dir, name, &dst)))
			return r;
	}
	if ((r = gfs_node_take_content(ar, dst, src)))
		return r;
	gfs_node_remove(ar, src);
	return gfs_commit_now(ar, dst);
}

static int gfs_op_rename_locked(const char *from, const char *to, unsigned int flags)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_node *src = gfs_node_lookup(ar, from), *dir, *dst;
	const char *name;
	int r;

	if (!src || !src->parent)
		return -ENOENT;
	dir = gfs_parent_of(ar, to, &name);
	if (!dir)
		return -ENOENT;
	if (flags & RENAME_EXCHANGE)
		return -EINVAL;
	dst = gfs_node_child(ar, dir, name);
	if (dst == src)
		return 0;
	if (dst && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	ar->err[0] = 0;
	if (src->flags & GFS_NODE_SCRATCH)
		r = gfs_rename_scratch(ar, src, dir, name, dst);
	else if (ar->readonly)
		r = -EROFS;
	else if (gfs_is_scratch_name(name) && !S_ISDIR(src->mode)) {
		/*
		 * An editor's backup (mv f f~): keep f, give the backup a copy.
		 * libfuse's .fuse_hiddenN for a file removed while open: the
		 * copy lives on in memory and the file leaves the archive.
		 */
		struct gfs_node *copy;
		int hidden = !strncmp(name, GFS_FUSE_HIDDEN, strlen(GFS_FUSE_HIDDEN));

		if (hidden && !ar->fmt->unlink)
			return -EPERM;
		if (dst)
			gfs_node_remove(ar, dst);
		copy = gfs_new_scratch(ar, dir, name);
		r = copy ? gfs_node_take_content(ar, copy, src) : -ENOMEM;
		if (!r && hidden) {
			/*
			 * No commit here: libfuse usually renames a new file over
			 * the name next, and that commits; a plain unlink of an
			 * open file commits when libfuse removes the hidden name
			 * at the last close (or at the next commit).
			 */
			copy->mtime = src->mtime;
			copy->mode = (copy->mode & S_IFMT) | (src->mode & 07777);
			r = ar->fmt->unlink(ar, src);
		}
	} else if (!ar->fmt->rename)
		r = -EPERM;
	else {
		if (dst && S_ISDIR(dst->mode) != S_ISDIR(src->mode))
			return S_ISDIR(dst->mode) ? -EISDIR : -ENOTDIR;
		if (dst && (dst->flags & GFS_NODE_SCRATCH))
			gfs_node_remove(ar, dst);
		else if (dst) {
			int (*del)(struct gfs_archive *, struct gfs_node *) =
				S_ISDIR(dst->mode) ? ar->fmt->rmdir : ar->fmt->unlink;

			if (!del)
				return -EPERM;
			if ((r = del(ar, dst)))
				return r;
		}
		r = ar->fmt->rename(ar, src, dir, name);
		if (!r)
			r = gfs_commit_now(ar, NULL);
	}
	if (r && ar->err[0])
		gfs_warn(ar, "rename %s -> %s: %s", from, to, gfs_err_reason(ar));
	return r;
}

static int gfs_op_rename(const char *from, const char *to, unsigned int flags)
{
	return LOCKED(gfs_op_rename_locked(from, to, flags));
}

static int gfs_op_mkdir_locked(const char *path, mode_t mode)
{
	struct gfs_archive *ar = gfs_ar();
	const char *name;
	struct gfs_node *dir = gfs_parent_of(ar, path, &name), *n;
	int r;

	if (!dir)
		return -ENOENT;
	if (gfs_node_child(ar, dir, name))
		return -EEXIST;
	if (ar->readonly)
		return -EROFS;
	if (!ar->fmt->mkdir)
		return -EPERM;
	if ((r = ar->fmt->mkdir(ar, dir, name, &n)))
		return r;
	return gfs_commit_now(ar, NULL);
}

static int gfs_op_mkdir(const char *path, mode_t mode)
{
	return LOCKED(gfs_op_mkdir_locked(path, mode));
}

static int gfs_op_rmdir_locked(const char *path)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_node *n = gfs_node_lookup(ar, path);
	int r;

	if (!n)
		return -ENOENT;
	if (!S_ISDIR(n->mode))
		return -ENOTDIR;
	if (ar->readonly)
		return -EROFS;
	if (!ar->fmt->rmdir || !n->parent)
		return -EPERM;
	if ((r = ar->fmt->rmdir(ar, n)))
		return r;
	return gfs_commit_now(ar, NULL);
}

static int gfs_op_rmdir(const char *path)
{
	return LOCKED(gfs_op_rmdir_locked(path));
}

static int gfs_op_utimens_locked(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
	struct gfs_archive *ar = gfs_ar();
	struct gfs_node *n = gfs_find(ar, path, fi);

	if (!n)
		return -ENOENT;
	if (tv && tv[1].tv_nsec != UTIME_OMIT) {
		if (tv[1].tv_nsec == UTIME_NOW)
			clock_gettime(CLOCK_REALTIME, &n->mtime);
		else
			n->mtime = tv[1];
	}
	return 0;
}

static int gfs_op_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
	return LOCKED(gfs_op_utimens_locked(path, tv, fi));
}

/* chmod/chown: accepted (cp -p, rsync) but modes come from the format. */
static int gfs_op_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	return LOCKED(gfs_find(gfs_ar(), path, fi) ? 0 : -ENOENT);
}

static int gfs_op_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
	return LOCKED(gfs_find(gfs_ar(), path, fi) ? 0 : -ENOENT);
}

static int gfs_op_statfs(const char *path, struct statvfs *sv)
{
	struct gfs_archive *ar = gfs_ar();

	if (statvfs(ar->dir, sv))
		memset(sv, 0, sizeof(*sv));
	sv->f_files = ar->hcount + 1;
	sv->f_ffree = 0;
	sv->f_namemax = NAME_MAX;
	return 0;
}

static void *gfs_op_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	cfg->use_ino = 1;
	cfg->readdir_ino = 1;
	cfg->entry_timeout = 1.0;
	cfg->attr_timeout = 1.0;
	cfg->negative_timeout = 0;
	cfg->auto_cache = 1;		/* keep the page cache unless mtime/size changed */
	cfg->nullpath_ok = 1;		/* open handles do not need paths */
	cfg->hard_remove = 0;		/* removing an open file renames it .fuse_hiddenN: see rename */
	if (conn->capable & FUSE_CAP_READDIRPLUS)
		conn->want |= FUSE_CAP_READDIRPLUS;
	conn->want &= ~(unsigned)FUSE_CAP_READDIRPLUS_AUTO;
	conn->max_readahead = conn->max_readahead > (1u << 20) ? conn->max_readahead : (1u << 20);
	conn->max_write = 1u << 20;
	/* stored assets go from the archive's page cache to the kernel by splice() */
	if (conn->capable & FUSE_CAP_SPLICE_WRITE)
		conn->want |= FUSE_CAP_SPLICE_WRITE;
	if (conn->capable & FUSE_CAP_SPLICE_MOVE)
		conn->want |= FUSE_CAP_SPLICE_MOVE;	/* with max_pages, reads and writes of up to 1 MiB a request */
	return fuse_get_context()->private_data;
}

static const struct fuse_operations gfs_ops = {
	.init = gfs_op_init,
	.getattr = gfs_op_getattr,
	.opendir = gfs_op_opendir,
	.readdir = gfs_op_readdir,
	.releasedir = gfs_op_releasedir,
	.open = gfs_op_open,
	.create = gfs_op_create,
	.read = gfs_op_read,
	.read_buf = gfs_op_read_buf,
	.write = gfs_op_write,
	.truncate = gfs_op_truncate,
	.flush = gfs_op_flush,
	.release = gfs_op_release,
	.fsync = gfs_op_fsync,
	.unlink = gfs_op_unlink,
	.rename = gfs_op_rename,
	.mkdir = gfs_op_mkdir,
	.rmdir = gfs_op_rmdir,
	.utimens = gfs_op_utimens,
	.chmod = gfs_op_chmod,
	.chown = gfs_op_chown,
	.statfs = gfs_op_statfs,
};

int gfs_fuse_run(struct gfs_archive *ar, int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts opts;
	struct fuse *f;
	int r = 1;

	memset(&opts, 0, sizeof(opts));
	if (fuse_parse_cmdline(&args, &opts) || !opts.mountpoint) {
		fprintf(stderr, "gamefs: bad mount options (see gamefs --help)\n");
		goto out_args;
	}
	f = fuse_new(&args, &gfs_ops, sizeof(gfs_ops), ar);
	if (!f)
		goto out_args;
	if (fuse_mount(f, opts.mountpoint))
		goto out_new;
	if (fuse_daemonize(opts.foreground))
		goto out_mount;
	if (fuse_set_signal_handlers(fuse_get_session(f)))
		goto out_mount;
	r = opts.singlethread ? fuse_loop(f) : fuse_loop_mt(f, 0);
	fuse_remove_signal_handlers(fuse_get_session(f));
out_mount:
	fuse_unmount(f);
out_new:
	fuse_destroy(f);
out_args:
	free(opts.mountpoint);
	fuse_opt_free_args(&args);
	return r ? 1 : 0;
}
