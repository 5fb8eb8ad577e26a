/*
 * A mount's operations on names (gfs_mount.h, mnt.h): lookup, attributes,
 * directories listed, files created, removed and renamed, directories made
 * and removed, as the edit rules say (gfs_edit_*, edit.c), with their
 * refusals told to the status and the log; the root's .gamefs.log and
 * .gamefs.status; and a mount's beginning and end.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include "core/mnt.h"

/* "/DIR/NAME", name's path in d, for messages (in b, which the caller releases). */
static const char *gfs_path_in(struct gfs_node *d, const char *name, struct gfs_buf *b)
{
	if ((d && d->parent && (gfs_buf_add(b, "/", 1) || gfs_node_path(d, b))) ||
	    gfs_buf_add(b, "/", 1) || gfs_buf_add(b, name, strlen(name) + 1))
		return name;
	return (const char *)b->data;
}

/* A format's refusal of op: its reason to the log. */
static int gfs_refused(struct gfs_archive *ar, const char *op, struct gfs_node *d, const char *name, int r)
{
	struct gfs_buf b = GFS_BUF_INIT;

	if (ar->err[0])
		gfs_warn(ar, "%s %s refused: %s", op, gfs_path_in(d, name, &b), gfs_err_reason(ar));
	gfs_buf_release(&b);
	return r;
}

/* The node a request on ino with h means: its open's, or the one the kernel knows. */
static struct gfs_node *gfs_find(struct gfs_mount *m, uint64_t ino, struct gfs_handle *h)
{
	return h ? h->node : gfs_node_of(m, ino);
}

/* ---- the operations -------------------------------------------------------------- */

int gfs_mount_lookup(struct gfs_mount *m, uint64_t parent, const char *name, struct stat *st)
{
	struct gfs_node *d = gfs_node_of(m, parent), *n;

	if (!d)
		return -ENOENT;
	if (!S_ISDIR(d->mode))
		return -ENOTDIR;
	if (gfs_is_hidden_name(name))
		return -ENOENT;
	n = gfs_node_child(m->ar, d, name);
	if (!n)
		return -ENOENT;
	gfs_entry(m, n, st);
	return 0;
}

int gfs_mount_getattr(struct gfs_mount *m, uint64_t ino, struct gfs_handle *h, struct stat *st)
{
	struct gfs_node *n = gfs_find(m, ino, h);

	if (!n)
		return -ENOENT;
	/*
	 * fstat of a read-only open of a render says the node's size, not
	 * its snapshot's: the kernel keeps one size a file, and the opens
	 * reading through the page cache need it to be theirs.
	 */
	gfs_fill_stat(m, m->ar, n, st);
	return 0;
}

int gfs_mount_setattr(struct gfs_mount *m, uint64_t ino, struct gfs_handle *h, const struct stat *attr,
		      int to_set, struct stat *st)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *n = gfs_find(m, ino, h);
	int r;

	if (!n)
		return -ENOENT;
	if (to_set & GFS_SET_SIZE) {
		if (attr->st_size >= 0 && !gfs_edit_may_write(ar, n))
			gfs_keep_was(m, ar, n, (uint64_t)attr->st_size);
		r = SEEN("truncate", NULL, NULL, n, gfs_committed(m, ar, gfs_edit_truncate(ar, n, attr->st_size), n));
		if (r)
			return r;
	}
	if (to_set & GFS_SET_MTIME_NOW)
		clock_gettime(CLOCK_REALTIME, &n->mtime);
	else if (to_set & GFS_SET_MTIME)
		n->mtime = attr->st_mtim;
	/* chmod, chown: accepted (cp -p, rsync) but modes come from the format */
	gfs_fill_stat(m, ar, n, st);
	return 0;
}

int gfs_mount_opendir(struct gfs_mount *m, uint64_t ino, struct gfs_open *o)
{
	struct gfs_node *n = gfs_node_of(m, ino);

	return !n ? -ENOENT : !S_ISDIR(n->mode) ? -ENOTDIR : gfs_attach(m, n, o, 0);
}

/*
 * offsets: 1 ".", 2 "..", 3.. the entries; readdirplus hands the kernel
 * full entries, so a walk needs no LOOKUP per file (each counts as one).
 */
int gfs_mount_readdir(struct gfs_mount *m, struct gfs_handle *h, int64_t off, int plus, gfs_dirent_fn add,
		      void *ctx)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *d = gfs_find(m, 0, h);
	struct stat st;

	if (!d)
		return -ENOENT;
	if (!S_ISDIR(d->mode))
		return -ENOTDIR;
	if (gfs_dir_ready(ar, d))
		return -EIO;
	for (int64_t o = off < 0 ? 0 : off; ; o++) {
		struct gfs_node *n;
		const char *name;

		if (o == 0) {
			n = d;
			name = ".";
		} else if (o == 1) {
			n = d->parent ? d->parent : d;
			name = "..";
		} else if ((size_t)o - 2 < d->nkids) {
			n = d->kids[o - 2];
			name = n->name;
			if (n == m->status_node || gfs_is_hidden_name(name))
				continue;	/* reachable by name, not listed */
		} else
			break;
		memset(&st, 0, sizeof(st));
		st.st_ino = n->ino;
		st.st_mode = n->mode;
		if (plus && o >= 2)
			gfs_fill_stat(m, ar, n, &st);
		if (add(ctx, name, &st, plus && o >= 2, o + 1))
			break;
		if (plus && o >= 2)
			gfs_inode_ref(m, n);
	}
	return 0;
}

/* The directory parent, where name is to be made: 0, -ENOENT or -ENAMETOOLONG. */
static int gfs_dir_for_new(struct gfs_mount *m, uint64_t parent, const char *name, struct gfs_node **dir)
{
	*dir = gfs_node_of(m, parent);
	if (!*dir || !S_ISDIR((*dir)->mode))
		return -ENOENT;
	return strlen(name) > NAME_MAX ? -ENAMETOOLONG : 0;
}

static int gfs_create_locked(struct gfs_mount *m, uint64_t parent, const char *name, struct gfs_open *o,
			     struct stat *st)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *dir, *n;
	int r;

	if ((r = gfs_dir_for_new(m, parent, name, &dir)))
		return r;
	n = gfs_node_child(ar, dir, name);
	if (n) {
		if (o->flags & O_EXCL)
			return -EEXIST;
		if ((r = gfs_open_node(m, n, o)))
			return r;
		gfs_entry(m, n, st);
		return 0;
	}
	if (!ar->readonly && (n = gfs_unhide(ar, &m->hid, dir, name, NULL))) {
		/* removed while open, now written anew: the same file, emptied */
		o->flags |= O_TRUNC;
		if ((r = gfs_open_node(m, n, o)))
			return r;
		gfs_entry(m, n, st);
		return 0;
	}
	r = gfs_edit_create_how(ar, dir, name, o->flags & O_EXCL ? GFS_EDIT_EXCL : 0, &n);
	if (r)
		return gfs_refused(ar, "create", dir, name, r);
	r = gfs_attach(m, n, o, 1);
	if (!r && gfs_write_only(o))
		o->direct_io = 1;
	if (!r)
		gfs_cache_foreign(m, n, o->h, o);
	if (!r)
		gfs_entry(m, n, st);
	return r;
}

int gfs_mount_create(struct gfs_mount *m, uint64_t parent, const char *name, struct gfs_open *o, struct stat *st)
{
	return SEEN("create", gfs_node_of(m, parent), name, NULL, gfs_create_locked(m, parent, name, o, st));
}

static int gfs_unlink_locked(struct gfs_mount *m, uint64_t parent, const char *name)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *d = gfs_node_of(m, parent), *n;
	char hname[64];
	int r;

	if (!d || !S_ISDIR(d->mode) || !(n = gfs_node_child(ar, d, name)))
		return -ENOENT;
	if (n == m->log_node || n == m->status_node)
		return -EPERM;
	if (n->open_count && !S_ISDIR(n->mode) && !(n->flags & GFS_NODE_SCRATCH) && !ar->readonly) {
		/*
		 * Open: hidden, not gone.  A file renamed or created under its
		 * name before its last close (an editor's save) takes its place
		 * in the archive; at its last close with nothing in its place it
		 * leaves (gfs_mount_release).
		 */
		snprintf(hname, sizeof(hname), GFS_HIDDEN_PREFIX "%llx", (unsigned long long)n->ino);
		return gfs_hide(ar, &m->hid, n, hname);
	}
	r = gfs_edit_unlink(ar, n);
	if (r < 0)
		gfs_refused(ar, "unlink", d, name, r);
	return gfs_committed(m, ar, r, NULL);
}

int gfs_mount_unlink(struct gfs_mount *m, uint64_t parent, const char *name)
{
	return SEEN("unlink", gfs_node_of(m, parent), name, NULL, gfs_unlink_locked(m, parent, name));
}

static int gfs_rename_locked(struct gfs_mount *m, uint64_t parent, const char *name, uint64_t newparent,
			     const char *newname, unsigned int flags)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *sd = gfs_node_of(m, parent), *dir = gfs_node_of(m, newparent);
	struct gfs_node *src, *dst, *closing;
	uint64_t src_ino;
	int r;

	if (!sd || !dir || !S_ISDIR(sd->mode) || !S_ISDIR(dir->mode))
		return -ENOENT;
	src = gfs_node_child(ar, sd, name);
	if (!src || !src->parent)
		return -ENOENT;
	if (flags & RENAME_EXCHANGE)
		return -EINVAL;
	dst = gfs_node_child(ar, dir, newname);
	if (dst == src)
		return 0;
	if (dst && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	if (src == m->log_node || dst == m->log_node || src == m->status_node || dst == m->status_node)
		return -EPERM;
	if (!dst && !ar->readonly)
		dst = gfs_unhide(ar, &m->hid, dir, newname, NULL);
	src_ino = src->ino;
	r = gfs_committed(m, ar, gfs_edit_rename(ar, src, dir, newname, dst, &closing), closing);
	if (r && ar->err[0]) {
		struct gfs_buf b = GFS_BUF_INIT, b2 = GFS_BUF_INIT;

		gfs_warn(ar, "rename %s -> %s: %s", gfs_path_in(sd, name, &b), gfs_path_in(dir, newname, &b2),
			 gfs_err_reason(ar));
		gfs_buf_release(&b);
		gfs_buf_release(&b2);
	}
	if (!r && closing && closing != src) {
		/*
		 * src's content went into closing, in place (a save renamed over
		 * the file): the kernel knows the name by src's id from now on,
		 * which shows closing.  Both ids' pages go.
		 */
		struct gfs_inode *e = gfs_inode_find(m, src_ino);

		if (e)
			e->node = closing;
		m->renamed[0] = src_ino;
		m->renamed[1] = closing->ino;
	}
	return r;
}

int gfs_mount_rename(struct gfs_mount *m, uint64_t parent, const char *name, uint64_t newparent,
		     const char *newname, unsigned int flags)
{
	return SEEN("rename", gfs_node_of(m, newparent), newname, NULL,
		    gfs_rename_locked(m, parent, name, newparent, newname, flags));
}

static int gfs_mkdir_locked(struct gfs_mount *m, uint64_t parent, const char *name, struct stat *st)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *dir, *n;
	int r;

	if ((r = gfs_dir_for_new(m, parent, name, &dir)))
		return r;
	if ((r = gfs_edit_mkdir(ar, dir, name, &n)))
		return gfs_refused(ar, "mkdir", dir, name, r);
	r = gfs_commit_now(m, ar, NULL);
	if (r)
		return r;
	n = gfs_node_child(ar, dir, name);	/* the commit may have drawn the tree anew */
	if (!n)
		return -EIO;
	gfs_entry(m, n, st);
	return 0;
}

int gfs_mount_mkdir(struct gfs_mount *m, uint64_t parent, const char *name, struct stat *st)
{
	return SEEN("mkdir", gfs_node_of(m, parent), name, NULL, gfs_mkdir_locked(m, parent, name, st));
}

static int gfs_rmdir_locked(struct gfs_mount *m, uint64_t parent, const char *name)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *d = gfs_node_of(m, parent), *n;
	int r;

	if (!d || !S_ISDIR(d->mode) || !(n = gfs_node_child(ar, d, name)))
		return -ENOENT;
	if ((r = gfs_edit_rmdir(ar, n)) < 0)
		return gfs_refused(ar, "rmdir", d, name, r);
	return gfs_committed(m, ar, r, NULL);
}

int gfs_mount_rmdir(struct gfs_mount *m, uint64_t parent, const char *name)
{
	return SEEN("rmdir", gfs_node_of(m, parent), name, NULL, gfs_rmdir_locked(m, parent, name));
}

void gfs_mount_statfs(struct gfs_mount *m, struct statvfs *sv)
{
	if (statvfs(m->ar->dir, sv))	/* under the lock: a read-only mount may swap the archive */
		memset(sv, 0, sizeof(*sv));
	sv->f_files = m->ar->hcount + 1;
	sv->f_ffree = 0;
	sv->f_namemax = NAME_MAX;
}

/*
 * A file hidden with no open handle of ours is removed once the request
 * that hid it is done (gfs_hidden_reap).
 */
void gfs_mount_after(struct gfs_mount *m)
{
	if (!m->hid.closed)
		return;
	gfs_mount_enter(m);
	gfs_committed(m, m->ar, gfs_hidden_reap(m->ar, &m->hid), NULL);
	gfs_mount_leave(m);
}

/* ---- a mount's beginning and end ------------------------------------------------------ */

struct gfs_mount *gfs_mount_new(struct gfs_archive *ar)
{
	struct gfs_mount *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	pthread_mutex_init(&m->lock, NULL);
	pthread_mutex_init(&m->notifier.mu, NULL);
	pthread_cond_init(&m->notifier.cv, NULL);
	pthread_mutex_init(&m->watch.mu, NULL);
	pthread_cond_init(&m->watch.cv, NULL);
	m->ar = ar;
	gfs_special_nodes(m, ar);
	m->ro = ar->readonly;	/* the kernel's mount is read-only too (main) */
	ar->node_gone = gfs_inode_gone;
	ar->name_gone = gfs_name_gone;
	ar->node_gone_arg = m;
	return m;
}

int gfs_mount_start(struct gfs_mount *m, const struct gfs_front *fe)
{
	int r;

	/* after the fork: a slow check (a big game's CRC) runs beside the requests */
	pthread_mutex_lock(&m->lock);
	gfs_archive_start_checks(m->ar);
	pthread_mutex_unlock(&m->lock);
	r = gfs_notifier_start(m, fe);
	if (r)
		return r;
	gfs_watch_start(m);	/* every mount follows its archive (gfs_watch_reload) */
	return 0;
}

void gfs_mount_stop(struct gfs_mount *m)
{
	gfs_watch_stop(m);
	gfs_notifier_stop(m);
}

struct gfs_archive *gfs_mount_free(struct gfs_mount *m)
{
	struct gfs_archive *ar;

	pthread_mutex_lock(&m->lock);
	gfs_handles_free(m);
	ar = m->ar;
	ar->node_gone = NULL;
	ar->name_gone = NULL;
	ar->node_gone_arg = NULL;
	pthread_mutex_unlock(&m->lock);
	gfs_hidden_clear(&m->hid);
	gfs_inval_free(&m->gone);
	gfs_inodes_free(m);
	pthread_cond_destroy(&m->watch.cv);
	pthread_mutex_destroy(&m->watch.mu);
	pthread_cond_destroy(&m->notifier.cv);
	pthread_mutex_destroy(&m->notifier.mu);
	pthread_mutex_destroy(&m->lock);
	free(m);
	return ar;
}
