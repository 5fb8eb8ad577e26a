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
 * Files removed or renamed over while open (a front end such as libfuse's
 * high-level API renames them to a hidden name, and removes that name at
 * their last close).  Hiding only detaches the name: the file keeps its
 * archive entry, and a file renamed or created under the old name next
 * (sed -i, rsync, an editor's save) takes the hidden file's place and
 * keeps its position in the archive (gfs_unhide).  Only when the hidden
 * name is removed with nothing in its place does the file leave the
 * archive (gfs_hidden_unlink).  A hidden name whose file was given its name
 * back stays an alias for whatever is at that path (an open that looked
 * the name up before the rename may still use it): the newest
 * GFS_HIDDEN_KEEP of those removed stay.  Not thread-safe: under the
 * mount's lock.
 */
#define GFS_HIDDEN_KEEP 64
struct gfs_hidden;
struct gfs_hidden_set {
	struct gfs_hidden *v;
	size_t n;
	unsigned long gone;
	int closed;		/* a file was hidden with no open handle: gfs_hidden_reap() */
};
/* Hide n (not a directory, not a scratch file) as hname in its directory. */
int gfs_hide(struct gfs_archive *ar, struct gfs_hidden_set *hs, struct gfs_node *n, const char *hname);
/* The hidden file once called name in dir (or node itself), given its name back; or NULL. */
struct gfs_node *gfs_unhide(struct gfs_archive *ar, struct gfs_hidden_set *hs, struct gfs_node *dir,
			    const char *name, struct gfs_node *node);
/* The node at the path an alias hname stood for, or NULL. */
struct gfs_node *gfs_hidden_alias(struct gfs_archive *ar, struct gfs_hidden_set *hs, const char *hname);
/* The hidden name hname of n is removed: 1 when the file left the archive (commit). */
int gfs_hidden_unlink(struct gfs_archive *ar, struct gfs_hidden_set *hs, struct gfs_node *n, const char *hname);
/*
 * Files this thread hid with no open handle (the front end's count and
 * ours drifted apart) are removed, unless a rename gave their name to
 * another file: 1 when one left the archive (commit).
 */
int gfs_hidden_reap(struct gfs_archive *ar, struct gfs_hidden_set *hs);
void gfs_hidden_clear(struct gfs_hidden_set *hs);
/*
 * A front end that knows when the kernel forgets a node (libfuse's
 * low-level API) needs no alias: drop the entries of files given their
 * name back.  gfs_hidden_is: is n hidden now?
 */
void gfs_hidden_settle(struct gfs_hidden_set *hs);
int gfs_hidden_is(const struct gfs_hidden_set *hs, const struct gfs_node *n);

/*
 * Tell the desktop session (org.freedesktop.Notifications on the session
 * bus, through gdbus or notify-send when present) summary and body.
 * Never waits: a thread of its own runs the command; while one runs, a
 * newer notice replaces the one waiting.  Nothing happens without a
 * session bus.
 */
void gfs_notify(const char *summary, const char *body);

#endif
