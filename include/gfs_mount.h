/*
 * gfs_mount.h - what a mount adds around an opened archive, none of it
 * FUSE-specific (src/core/mount.c): the check that a mount point does not
 * cover the archive's own directory, the replaced archive of a read-only
 * mount, the refusals a user sees (`gamefs status`, the mount's
 * .gamefs.status) and the desktop notification of a refusal.
 *
 * The refusal record and the notifier are the process's (one mount a
 * process); every function here may be called from any thread.
 */
#ifndef GFS_MOUNT_H
#define GFS_MOUNT_H

#include "gamefs.h"

/*
 * Would a mount at mnt cover the archive's directory or a companion
 * file's (the .lay atlas) (mnt is that directory or one of its parents)?
 * Then every commit, lock and check would go through the mount into the
 * daemon that waits for it.  0 when
 * not; -ELOOP with a one-line message in err when it would.  Both paths
 * are resolved (symbolic links, "..") first.
 */
int gfs_mount_covers_archive(const struct gfs_archive *ar, const char *mnt, char *err, size_t errlen);

/*
 * A mount's archive replaced on disk (renamed over by a commit
 * or another program, or rewritten in place): compare what stat() says of
 * its path now with what the archive was opened from.  1 changed (*now is
 * the new stat), 0 the same or gone (the open file still reads).
 */
int gfs_archive_replaced(const struct gfs_archive *ar, struct stat *now);
/*
 * The same file with the same content as far as stat() tells: device,
 * inode, size, mtime and ctime (which a rewrite in place changes even when
 * it puts the mtime back, as rsync -t and touch -r do).
 */
int gfs_stat_same(const struct stat *a, const struct stat *b);
/*
 * Open the archive at old's path anew, read-only, with old's options and
 * log.  On failure, -errno and the message in err; old is untouched.
 */
int gfs_archive_reopen(const struct gfs_archive *old, struct gfs_archive **out, char *err, size_t errlen);
/*
 * A writable mount's archive reopened (gfs_archive_reopen) takes over as
 * the writer: old's lock passes to ar, which becomes writable.  0 (also
 * when old was read-only or ar is damaged: ar stays read-only), or -EBUSY
 * when another writer took the file in between (old keeps its lock).
 */
int gfs_archive_take_writer(struct gfs_archive *old, struct gfs_archive *ar);
/*
 * The caller has replaced old by ar everywhere: close old, keeping its
 * file open in ar for a while (a splice of the old file may be in flight).
 */
void gfs_archive_close_into(struct gfs_archive *old, struct gfs_archive *ar);

/*
 * A refused change: op ("close", "rename"...), the path in the mount, the
 * errno (negative) and ar->err's reason.  Kept for the status (the newest
 * GFS_REFUSALS_KEPT) and told to the desktop (gfs_notify).  Does it count?
 * Returns 1 when err is one a user must be told of (EROFS, EACCES, ENOENT,
 * EEXIST and the like are not).
 */
#define GFS_REFUSALS_KEPT 64
int gfs_status_refused(struct gfs_archive *ar, const char *op, const char *path, int err);
/* The mount begins with ar's file (the status tells a commit by a new file). */
void gfs_status_begin(const struct gfs_archive *ar);
/*
 * The status text (`gamefs status`): the archive and its mode, the last
 * commit, the pending edits (files edited and not yet written), the
 * refusals with their file and reason.  Every line ends with LF.
 */
int gfs_status_render(struct gfs_archive *ar, struct gfs_buf *out);

/*
 * The recent messages, for a mount's read-only .gamefs.log (the process's,
 * like the refusals): gfs_mount_log keeps msg (one line) with its time,
 * dropping the oldest lines past 64 KiB.  Callable from any thread,
 * mounted or not.  _read copies up to size bytes at off; _size is the
 * length, *when the time of the newest line (0 when none).
 */
void gfs_mount_log(const char *msg);
size_t gfs_mount_log_read(char *buf, size_t size, uint64_t off);
size_t gfs_mount_log_size(struct timespec *when);

/*
 * Files removed while open (the front end renames them to a hidden name,
 * and removes that name at their last close).  Hiding only detaches the
 * name: the file keeps its archive entry, and a file renamed or created
 * under the old name next (sed -i, rsync, an editor's save) takes the
 * hidden file's place and keeps its position in the archive (gfs_unhide).
 * Only when the hidden name is removed with nothing in its place does the
 * file leave the archive (gfs_hidden_unlink).  Not thread-safe: under the
 * mount's lock.
 */
struct gfs_hidden;
struct gfs_hidden_set {
	struct gfs_hidden *v;
	size_t n;
	int closed;		/* a file was hidden with no open handle: gfs_hidden_reap() */
};
/* Hide n (not a directory, not a scratch file) as hname in its directory. */
int gfs_hide(struct gfs_archive *ar, struct gfs_hidden_set *hs, struct gfs_node *n, const char *hname);
/* The hidden file once called name in dir (or node itself), given its name back; or NULL. */
struct gfs_node *gfs_unhide(struct gfs_archive *ar, struct gfs_hidden_set *hs, struct gfs_node *dir,
			    const char *name, struct gfs_node *node);
/* The hidden name of n is removed: 1 when the file left the archive (commit). */
int gfs_hidden_unlink(struct gfs_archive *ar, struct gfs_hidden_set *hs, struct gfs_node *n);
/*
 * Files this thread hid with no open handle (the front end's count and
 * ours drifted apart) are removed: 1 when one left the archive (commit).
 */
int gfs_hidden_reap(struct gfs_archive *ar, struct gfs_hidden_set *hs);
void gfs_hidden_clear(struct gfs_hidden_set *hs);
/* Is n hidden now? */
int gfs_hidden_is(const struct gfs_hidden_set *hs, const struct gfs_node *n);

/*
 * Tell the desktop session (org.freedesktop.Notifications on the session
 * bus, through gdbus or notify-send when present) summary and body.
 * Never waits: a thread of its own runs the command; while one runs, a
 * newer notice replaces the one waiting.  Nothing happens without a
 * session bus.
 */
void gfs_notify(const char *summary, const char *body);

/*
 * A mount's state and operations, for a front end (libfuse's low-level API
 * in src/fuse.c), which only translates: src/core/inodes.c, inval.c,
 * handle.c, ops.c and watch.c.  Node ids are the tree's inode numbers
 * (GFS_ROOT_INO the root); every node given to the front end with a
 * struct stat (lookup, create, mkdir, readdir's entries) is counted until
 * gfs_mount_forget.  A handle is an open's (NULL: none).  Every operation
 * runs between gfs_mount_enter and gfs_mount_leave (the lock; leave hands
 * what the operation changed to the notifier) or, where named, between
 * gfs_mount_lock and gfs_mount_unlock.  Results are 0 or -errno.
 */
#define GFS_ROOT_INO 1
struct gfs_mount;
struct gfs_handle;
struct statvfs;

/* An open: its flags (open(2)'s) in; its handle and the page cache's use out. */
struct gfs_open {
	int flags;
	struct gfs_handle *h;
	unsigned direct_io : 1, keep_cache : 1, noflush : 1;
};
/* A read's bytes: mem (len bytes, the caller frees it), or when mem is NULL len bytes of fd at pos. */
struct gfs_read {
	char *mem;
	size_t len;
	int fd;
	uint64_t pos;
};
/* How the notifier's thread tells the kernel to drop a name or a node's pages and attributes. */
struct gfs_front {
	void (*inval_entry)(void *ctx, uint64_t parent, const char *name);
	void (*inval_inode)(void *ctx, uint64_t ino);
	void *ctx;
};
/* setattr's fields */
#define GFS_SET_SIZE 1
#define GFS_SET_MTIME 2
#define GFS_SET_MTIME_NOW 4
/*
 * readdir's sink: name with st (only st_ino and st_mode unless entry, a
 * whole entry that counts as a lookup), next the offset after it.  0 when
 * taken, 1 when full.
 */
typedef int (*gfs_dirent_fn)(void *ctx, const char *name, const struct stat *st, int entry, int64_t next);

/* A mount of ar (its .gamefs.log and .gamefs.status made), or NULL. */
struct gfs_mount *gfs_mount_new(struct gfs_archive *ar);
/* Once serving: the background checks, the notifier (fe) and the watcher start. */
int gfs_mount_start(struct gfs_mount *m, const struct gfs_front *fe);
void gfs_mount_stop(struct gfs_mount *m);
/* The end: returns the archive served last (a read-only mount may have read a new file). */
struct gfs_archive *gfs_mount_free(struct gfs_mount *m);
void gfs_mount_enter(struct gfs_mount *m);
void gfs_mount_leave(struct gfs_mount *m);
void gfs_mount_lock(struct gfs_mount *m);
void gfs_mount_unlock(struct gfs_mount *m);
/* After each request, no lock held: what it left for this thread (gfs_hidden_reap). */
void gfs_mount_after(struct gfs_mount *m);

int gfs_mount_lookup(struct gfs_mount *m, uint64_t parent, const char *name, struct stat *st);
void gfs_mount_forget(struct gfs_mount *m, uint64_t ino, uint64_t nlookup);	/* lock */
int gfs_mount_getattr(struct gfs_mount *m, uint64_t ino, struct gfs_handle *h, struct stat *st);
int gfs_mount_setattr(struct gfs_mount *m, uint64_t ino, struct gfs_handle *h, const struct stat *attr,
		      int to_set, struct stat *st);
int gfs_mount_opendir(struct gfs_mount *m, uint64_t ino, struct gfs_open *o);
int gfs_mount_readdir(struct gfs_mount *m, struct gfs_handle *h, int64_t off, int plus,
		      gfs_dirent_fn add, void *ctx);
/* A read-only mount answers -ENOSYS: the kernel opens without asking from then on. */
int gfs_mount_open(struct gfs_mount *m, uint64_t ino, struct gfs_open *o);
int gfs_mount_create(struct gfs_mount *m, uint64_t parent, const char *name, struct gfs_open *o,
		     struct stat *st);
int gfs_mount_read(struct gfs_mount *m, uint64_t ino, struct gfs_handle *h, size_t size, uint64_t off,
		   struct gfs_read *rd);	/* lock */
int gfs_mount_write(struct gfs_mount *m, struct gfs_handle *h, const char *buf, size_t size, uint64_t off);
int gfs_mount_flush(struct gfs_mount *m, struct gfs_handle *h);
void gfs_mount_release(struct gfs_mount *m, struct gfs_handle *h);
int gfs_mount_fsync(struct gfs_mount *m, struct gfs_handle *h);
int gfs_mount_unlink(struct gfs_mount *m, uint64_t parent, const char *name);
int gfs_mount_rename(struct gfs_mount *m, uint64_t parent, const char *name, uint64_t newparent,
		     const char *newname, unsigned int flags);
int gfs_mount_mkdir(struct gfs_mount *m, uint64_t parent, const char *name, struct stat *st);
int gfs_mount_rmdir(struct gfs_mount *m, uint64_t parent, const char *name);
void gfs_mount_statfs(struct gfs_mount *m, struct statvfs *sv);	/* lock */

/*
 * Root only: raise the read-ahead of the mount at mnt (its real path) to
 * 1 MiB (bench/readahead.sh: a first read of a big asset a third faster).
 */
void gfs_raise_readahead(const char *mnt);

#endif
