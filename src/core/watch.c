/*
 * A mount follows its archive (mnt.h): when the file is replaced (another
 * mount's commit, another program's save) or rewritten in place, and then
 * stays the same for one look, the new file is read and served, and every
 * page, size and name the kernel holds of the old one is dropped.  Looks
 * every GFS_WATCH_MS.  A new file that cannot be read leaves the old tree
 * served, and the log says it is stale.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "core/mnt.h"

#define GFS_WATCH_MS 200

/* Every node the kernel may hold, files and directories, and their names. */
static void gfs_inval_collect_all(struct gfs_mount *m, struct gfs_inval *iv, struct gfs_node *d)
{
	for (size_t i = 0; i < d->nkids; i++) {
		struct gfs_node *n = d->kids[i];

		if (gfs_inode_find(m, n->ino)) {
			gfs_inval_add_ino(iv, n->ino);
			gfs_inval_add_name(iv, d->ino, n->name);
		}
		if (S_ISDIR(n->mode))
			gfs_inval_collect_all(m, iv, n);
	}
}

/* A file of the user's the tree holds: an editor's temporary, a NAME.rejected. */
static int gfs_scratch_held(struct gfs_mount *m, const struct gfs_node *n)
{
	if ((n->flags & GFS_NODE_SCRATCH) && n != m->log_node && n != m->status_node)
		return 1;
	for (size_t i = 0; i < n->nkids; i++)
		if (gfs_scratch_held(m, n->kids[i]))
			return 1;
	return 0;
}

/*
 * A writable mount keeps showing the version it read while that file stays
 * readable (another program's save renamed over it: the next commit is
 * refused, EBUSY, and kept).  Rewritten in place (rsync -t --inplace, cp
 * over it), the file it reads from no longer holds that version: it follows
 * the new content, as a read-only mount does, but only while it holds
 * nothing of the user's (no pending edit, no scratch file, no file open
 * for writing).  Under m->lock; 1 when it must stay.
 */
static int gfs_writer_stays(struct gfs_mount *m, struct gfs_archive *ar, const struct stat *now)
{
	if (now->st_dev != ar->st.st_dev || now->st_ino != ar->st.st_ino)
		return 1;	/* replaced by another file: ours still reads */
	if (gfs_archive_pending(ar) || gfs_scratch_held(m, ar->root))
		return 1;
	for (struct gfs_handle *h = m->handles; h; h = h->next)
		if (h->writable)
			return 1;
	return 0;
}

/* Only this thread replaces m->ar; it reads it without the lock, and its
 * stat under the lock (a commit changes it). */
static int gfs_watch_reload(struct gfs_mount *m)
{
	struct gfs_archive *old = m->ar, *ar;
	struct gfs_inval iv = { 0 }, rn = { 0 };
	char err[600], msg[800];
	struct stat now;
	uint32_t seq;
	int r = 0;

	if (!m->ro) {
		pthread_mutex_lock(&m->lock);
		if (!gfs_archive_replaced(old, &now))
			r = 1;		/* our own commit */
		else if (gfs_writer_stays(m, old, &now))
			r = -EBUSY;
		pthread_mutex_unlock(&m->lock);
		if (r)
			return r < 0 ? r : 0;
	}
	r = gfs_archive_reopen(old, &ar, err, sizeof(err));
	if (r) {
		snprintf(msg, sizeof(msg), "%s changed on disk and cannot be read (%s): "
			 "this mount still shows the version it read before (stale)", old->path, err);
		(old->log ? old->log : gfs_mount_log)(msg);
		return r;
	}
	pthread_mutex_lock(&m->lock);
	if (!m->ro && (!gfs_archive_replaced(old, &now) || gfs_writer_stays(m, old, &now) ||
		       gfs_archive_take_writer(old, ar))) {
		pthread_mutex_unlock(&m->lock);
		gfs_archive_close(ar);	/* an edit began meanwhile: it stays */
		return -EBUSY;
	}
	gfs_inval_collect_all(m, &iv, old->root);
	gfs_special_nodes(m, ar);
	gfs_handles_repoint(m, ar);
	old->node_gone = NULL;
	old->name_gone = NULL;
	gfs_inodes_repoint(m, ar->root);
	ar->node_gone = gfs_inode_gone;
	ar->name_gone = gfs_name_gone;
	ar->node_gone_arg = m;
	m->ar = ar;
	gfs_archive_start_checks(ar);
	seq = gfs_views_changed(m);
	gfs_archive_close_into(old, ar);
	pthread_mutex_unlock(&m->lock);
	gfs_inval_run(m, &iv, &rn, seq);
	snprintf(msg, sizeof(msg), "%s was replaced on disk: this mount shows the new version", ar->path);
	(ar->log ? ar->log : gfs_mount_log)(msg);
	return 0;
}

static void *gfs_watch_main(void *arg)
{
	struct gfs_mount *m = arg;
	struct stat seen, now, failed;
	int have_seen = 0, have_failed = 0;

	pthread_mutex_lock(&m->watch.mu);
	while (!m->watch.stop) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += GFS_WATCH_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&m->watch.cv, &m->watch.mu, &until);
		if (m->watch.stop)
			break;
		pthread_mutex_unlock(&m->watch.mu);
		pthread_mutex_lock(&m->lock);	/* a commit sets the archive's stat */
		int changed = gfs_archive_replaced(m->ar, &now);
		pthread_mutex_unlock(&m->lock);
		if (!changed) {
			have_seen = 0;
		} else if (have_seen && gfs_stat_same(&now, &seen) &&
			   !(have_failed && gfs_stat_same(&now, &failed))) {
			have_failed = gfs_watch_reload(m) != 0;
			failed = now;
			have_seen = 0;
		} else {
			seen = now;	/* still changing, or just seen: look again */
			have_seen = 1;
		}
		pthread_mutex_lock(&m->watch.mu);
	}
	pthread_mutex_unlock(&m->watch.mu);
	return NULL;
}

void gfs_watch_start(struct gfs_mount *m)
{
	m->watch.stop = 0;
	m->watch.running = !pthread_create(&m->watch.thread, NULL, gfs_watch_main, m);
}

void gfs_watch_stop(struct gfs_mount *m)
{
	if (!m->watch.running)
		return;
	pthread_mutex_lock(&m->watch.mu);
	m->watch.stop = 1;
	pthread_cond_signal(&m->watch.cv);
	pthread_mutex_unlock(&m->watch.mu);
	pthread_join(m->watch.thread, NULL);
	m->watch.running = 0;
}
