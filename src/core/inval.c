/*
 * What a mount's kernel must drop after a change (mnt.h), and the lock
 * around every operation (gfs_mount_enter, gfs_mount_leave).  After an
 * operation that may have changed the model, the kernel's cached pages and
 * attributes of every rendered or edited view it holds are invalidated by
 * a thread of their own (gfs_notifier_main), through the front end's
 * struct gfs_front: a thread that serves requests never sends one itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/mnt.h"

void gfs_inval_add_ino(struct gfs_inval *iv, uint64_t ino)
{
	if (iv->n == iv->cap) {
		size_t cap = iv->cap ? iv->cap * 2 : 64;
		uint64_t *p = realloc(iv->inos, cap * sizeof(*p));

		if (!p)
			return;
		iv->inos = p;
		iv->cap = cap;
	}
	iv->inos[iv->n++] = ino;
}

void gfs_inval_add_name(struct gfs_inval *iv, uint64_t parent, const char *name)
{
	char *nm;

	if (iv->nn == iv->ncap) {
		size_t cap = iv->ncap ? iv->ncap * 2 : 64;
		struct gfs_inval_name *p = realloc(iv->names, cap * sizeof(*p));

		if (!p)
			return;
		iv->names = p;
		iv->ncap = cap;
	}
	if (!(nm = strdup(name)))
		return;
	iv->names[iv->nn].parent = parent;
	iv->names[iv->nn++].name = nm;
}

/* The renamed nodes of the request just served (m->renamed). */
static void gfs_inval_add_renamed(struct gfs_mount *m, struct gfs_inval *iv)
{
	for (size_t i = 0; i < 2; i++)
		if (m->renamed[i])
			gfs_inval_add_ino(iv, m->renamed[i]);
}

/* Every view the kernel knows whose content is not a plain span of the archive: renders and edits. */
static void gfs_inval_collect(struct gfs_mount *m, struct gfs_inval *iv, struct gfs_node *d)
{
	for (size_t i = 0; i < d->nkids; i++) {
		struct gfs_node *n = d->kids[i];

		if (S_ISDIR(n->mode))
			gfs_inval_collect(m, iv, n);
		else if (gfs_node_is_view(n) && gfs_inode_find(m, n->ino))
			gfs_inval_add_ino(iv, n->ino);
	}
}

void gfs_inval_free(struct gfs_inval *iv)
{
	for (size_t i = 0; i < iv->nn; i++)
		free(iv->names[i].name);
	free(iv->names);
	free(iv->inos);
	memset(iv, 0, sizeof(*iv));
}

/* Move src's nodes and names to the end of dst (src is left empty). */
static void gfs_inval_move(struct gfs_inval *dst, struct gfs_inval *src)
{
	for (size_t i = 0; i < src->n; i++)
		gfs_inval_add_ino(dst, src->inos[i]);
	for (size_t i = 0; i < src->nn; i++)
		gfs_inval_add_name(dst, src->names[i].parent, src->names[i].name);
	gfs_inval_free(src);
}

/* Under m->lock: the model changed; returns the drop's number. */
uint32_t gfs_views_changed(struct gfs_mount *m)
{
	m->changed = 0;
	m->gen++;
	return ++m->inval_begun;
}

static void gfs_inval_finished(struct gfs_mount *m, uint32_t seq)
{
	if (!seq)
		return;
	pthread_mutex_lock(&m->lock);
	if ((int32_t)(seq - m->inval_done) > 0)
		m->inval_done = seq;
	pthread_mutex_unlock(&m->lock);
}

/*
 * Dropping the kernel's cached pages of views waits for each page's lock,
 * and a reader holds that lock while its READ waits for our answer.  So a
 * thread that serves requests never sends an invalidation (libfuse: a
 * notification must not be sent from a path a pending request depends on):
 * it queues the nodes and answers at once, and one thread of its own, the
 * notifier, sends them.  Until a queued drop is done, an open of a render
 * does not read through the page cache (gfs_cache_open), so no reader sees
 * an old render's pages once its open returned.  A queued drop not yet
 * begun is replaced by the next one, which collects every such view again:
 * the queue holds at most one drop waiting beside the one being sent.
 */
void gfs_inval_run(struct gfs_mount *m, struct gfs_inval *iv, struct gfs_inval *renamed, uint32_t seq)
{
	if (!seq)
		return;
	pthread_mutex_lock(&m->notifier.mu);
	if (!m->notifier.running) {	/* not serving: no kernel cache to drop */
		pthread_mutex_unlock(&m->notifier.mu);
		gfs_inval_free(iv);
		gfs_inval_free(renamed);
		gfs_inval_finished(m, seq);
		return;
	}
	gfs_inval_free(&m->notifier.views);	/* iv collects every such view again */
	m->notifier.views = *iv;
	memset(iv, 0, sizeof(*iv));
	gfs_inval_move(&m->notifier.renamed, renamed);
	m->notifier.seq = seq;
	pthread_cond_signal(&m->notifier.cv);
	pthread_mutex_unlock(&m->notifier.mu);
}

static void gfs_inval_send(const struct gfs_front *fe, struct gfs_inval *iv)
{
	for (size_t i = 0; i < iv->nn; i++)
		fe->inval_entry(fe->ctx, iv->names[i].parent, iv->names[i].name);
	for (size_t i = 0; i < iv->n; i++)
		fe->inval_inode(fe->ctx, iv->inos[i]);
}

static void *gfs_notifier_main(void *arg)
{
	struct gfs_mount *m = arg;

	pthread_mutex_lock(&m->notifier.mu);
	for (;;) {
		struct gfs_inval views, renamed;
		uint32_t seq;

		while (!m->notifier.seq && !m->notifier.exiting)
			pthread_cond_wait(&m->notifier.cv, &m->notifier.mu);
		if (!m->notifier.seq)
			break;
		views = m->notifier.views;
		renamed = m->notifier.renamed;
		seq = m->notifier.seq;
		memset(&m->notifier.views, 0, sizeof(views));
		memset(&m->notifier.renamed, 0, sizeof(renamed));
		m->notifier.seq = 0;
		pthread_mutex_unlock(&m->notifier.mu);
		gfs_inval_send(&m->notifier.fe, &renamed);
		gfs_inval_send(&m->notifier.fe, &views);
		gfs_inval_free(&views);
		gfs_inval_free(&renamed);
		gfs_inval_finished(m, seq);
		pthread_mutex_lock(&m->notifier.mu);
	}
	pthread_mutex_unlock(&m->notifier.mu);
	return NULL;
}

int gfs_notifier_start(struct gfs_mount *m, const struct gfs_front *fe)
{
	int e;

	m->notifier.fe = *fe;
	m->notifier.exiting = 0;
	e = pthread_create(&m->notifier.thread, NULL, gfs_notifier_main, m);
	if (e)
		return -e;
	pthread_mutex_lock(&m->notifier.mu);
	m->notifier.running = 1;
	pthread_mutex_unlock(&m->notifier.mu);
	return 0;
}

/* Before the session ends: what is queued is sent, then the thread ends. */
void gfs_notifier_stop(struct gfs_mount *m)
{
	pthread_mutex_lock(&m->notifier.mu);
	if (!m->notifier.running) {
		pthread_mutex_unlock(&m->notifier.mu);
		return;
	}
	m->notifier.exiting = 1;
	m->notifier.running = 0;
	pthread_cond_signal(&m->notifier.cv);
	pthread_mutex_unlock(&m->notifier.mu);
	pthread_join(m->notifier.thread, NULL);
	gfs_inval_free(&m->notifier.views);
	gfs_inval_free(&m->notifier.renamed);
}

/* ---- the lock around an operation ------------------------------------------------ */

/*
 * The core moves or removes a node (gfs_archive.name_gone): the kernel may
 * hold its old name in dir, and only the request's own names does it
 * update itself.  A format's side effects (a board moved renumbers the
 * boards between, a map's TMX renamed renames its folder) are told to the
 * kernel after the request (gfs_mount_leave), so no old name is found in
 * the entry timeout; the request's own names are told too, which costs the
 * kernel a lookup at most.
 */
void gfs_name_gone(void *arg, struct gfs_node *dir, const char *name)
{
	struct gfs_mount *m = arg;

	if (dir && name && gfs_inode_find(m, dir->ino))
		gfs_inval_add_name(&m->gone, dir->ino, name);
}

void gfs_mount_lock(struct gfs_mount *m)
{
	pthread_mutex_lock(&m->lock);
}

void gfs_mount_unlock(struct gfs_mount *m)
{
	pthread_mutex_unlock(&m->lock);
}

void gfs_mount_enter(struct gfs_mount *m)
{
	pthread_mutex_lock(&m->lock);
	gfs_archive_poll_checks(m->ar);
}

/* An operation that changed the model (m->changed): then drop the kernel's stale pages. */
void gfs_mount_leave(struct gfs_mount *m)
{
	struct gfs_inval iv = { 0 }, rn = { 0 };
	uint32_t seq = 0;

	if (m->changed) {
		seq = gfs_views_changed(m);
		gfs_inval_collect(m, &iv, m->ar->root);
		gfs_inval_add_renamed(m, &rn);
		gfs_inval_move(&rn, &m->gone);
	}
	gfs_inval_free(&m->gone);
	m->renamed[0] = m->renamed[1] = 0;
	pthread_mutex_unlock(&m->lock);
	gfs_inval_run(m, &iv, &rn, seq);
}
