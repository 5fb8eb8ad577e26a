/*
 * The FUSE front end, on libfuse's low-level API.  It knows no format and
 * no edit policy: it serves the generic tree of an opened archive and calls
 * the core for edits (gfs_edit_*, src/core/edit.c) and commits.  A mount's
 * whole state is one struct gfs_mount.  Its lock serialises every
 * operation on the tree: the model, the edit buffers and the commit are
 * never seen half-changed.  Reads of archive spans are spliced from the
 * archive file.
 *
 * The kernel's node ids are the tree's inode numbers.  Every node the
 * kernel was given (LOOKUP, READDIRPLUS, CREATE, MKDIR) has an entry in the
 * mount's inode table with its lookup count; FORGET drops it.  A node the
 * core frees (gfs_archive.node_gone) leaves its entry without a node until
 * the kernel forgets it: an open of it is ESTALE, which makes the kernel
 * look the name up again.
 *
 * A read-only open of a rendered view takes a copy of the render (and is
 * direct I/O): a commit in the middle of a read never tears it.  After an
 * operation that may have changed the model, the kernel's cached pages and
 * attributes of every rendered or edited view it holds are invalidated by
 * a thread of their own (gfs_notifier_main): a request thread never sends
 * a notification itself.  One thread serves the requests (gfs_serve).  The
 * root holds a read-only .gamefs.log of recent messages.
 */
#define FUSE_USE_VERSION 34
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include "gfs_fuse.h"
#include "gfs_mount.h"

#define GFS_HIDDEN_PREFIX ".fuse_hidden"	/* an open file unlinked: gfs_ll_unlink */
#define GFS_LOG_NAME ".gamefs.log"
#define GFS_STATUS_NAME ".gamefs.status"	/* what `gamefs status` reads */
#define GFS_TIMEOUT 1.0				/* entry and attribute timeouts */

struct gfs_handle {
	struct gfs_node *node;
	int writable;
	int append;			/* O_APPEND: every write goes to the end we hold */
	int cached;			/* reads through the node's page cache (pc_open) */
	int paged;			/* a reader through the page cache (not direct_io) */
	struct gfs_buf *snap;		/* a read-only open's render, held */
	struct gfs_buf *was;		/* the bytes it opened, past a truncation (gfs_keep_was) */
	struct gfs_handle *prev, *next;	/* every open handle: m->handles */
};

/* A node the kernel knows: its id (the tree's inode number) and lookup count. */
struct gfs_inode {
	uint64_t ino;
	struct gfs_node *node;		/* NULL once the core freed it */
	uint64_t nlookup;
	struct gfs_inode *next;		/* hash chain */
};

/* What the notifier drops: nodes' pages and attributes, and names. */
struct gfs_inval {
	uint64_t *inos;
	size_t n, cap;
	struct gfs_inval_name { uint64_t parent; char *name; } *names;
	size_t nn, ncap;
};

/* The thread that sends the kernel its invalidations (gfs_notifier_main). */
struct gfs_notifier {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct gfs_inval views;		/* the waiting drop: every render and edit */
	struct gfs_inval renamed;	/* and the renamed nodes since */
	uint32_t seq;			/* its number (0: none waiting) */
	int exiting;
	int running;			/* the notifier thread runs */
	pthread_t thread;
	struct fuse_session *se;
};

/* The thread that follows the archive file when it is replaced (gfs_watch_main). */
struct gfs_watcher {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop, running;
	pthread_t thread;
};

/*
 * A mount's whole state: the requests find it as their session's user data,
 * the notifier and watcher threads as their argument.
 */
struct gfs_mount {
	pthread_mutex_t lock;		/* serialises every operation on the tree */
	struct gfs_archive *ar;		/* the archive served: replaced with its file (gfs_watch_reload) */
	int ro;				/* mounted read-only: files are opened without asking us */
	struct gfs_node *log_node;	/* the root's .gamefs.log */
	struct gfs_node *status_node;	/* the status text, read by name, not listed */
	struct gfs_handle *handles;	/* every open handle, under lock */
	struct gfs_hidden_set hid;	/* open files unlinked, hidden until their last close */
	struct gfs_inode **itab;	/* the nodes the kernel knows, by inode number */
	size_t icap, icount;
	uint64_t renamed[2];		/* a rename's nodes, while it is served: their pages go */
	int changed;			/* set under lock by operations that change the model */
	uint32_t gen, inval_begun, inval_done;	/* the page cache of renders: gfs_cache_open */
	unsigned max_read;		/* the largest READ request: gfs_pick_max_read */
	struct gfs_notifier notifier;
	struct gfs_watcher watch;
};

void gfs_fuse_log(const char *msg)
{
	gfs_mount_log(msg);
}

/* ---- the nodes the kernel knows ------------------------------------------------- */

static struct gfs_inode **gfs_inode_slot(struct gfs_mount *m, uint64_t ino)
{
	struct gfs_inode **p = &m->itab[(ino * 0x9e3779b97f4a7c15ull >> 20) & (m->icap - 1)];

	while (*p && (*p)->ino != ino)
		p = &(*p)->next;
	return p;
}

static struct gfs_inode *gfs_inode_find(struct gfs_mount *m, uint64_t ino)
{
	return m->icap ? *gfs_inode_slot(m, ino) : NULL;
}

static int gfs_inode_grow(struct gfs_mount *m)
{
	size_t cap = m->icap ? m->icap * 2 : 1024;
	struct gfs_inode **t = calloc(cap, sizeof(*t)), **old = m->itab;
	size_t ocap = m->icap;

	if (!t)
		return -ENOMEM;
	m->itab = t;
	m->icap = cap;
	for (size_t i = 0; i < ocap; i++)
		for (struct gfs_inode *e = old[i], *nx; e; e = nx) {
			struct gfs_inode **p = gfs_inode_slot(m, e->ino);

			nx = e->next;
			e->next = NULL;
			*p = e;
		}
	free(old);
	return 0;
}

/* The kernel was given n (a LOOKUP's or READDIRPLUS's entry): count it. */
static void gfs_inode_ref(struct gfs_mount *m, struct gfs_node *n)
{
	struct gfs_inode **p, *e;

	if (n->ino == FUSE_ROOT_ID)
		return;		/* never forgotten */
	if ((m->icount + 1) * 2 > m->icap && gfs_inode_grow(m))
		return;
	p = gfs_inode_slot(m, n->ino);
	if (!*p) {
		if (!(e = calloc(1, sizeof(*e))))
			return;
		e->ino = n->ino;
		*p = e;
		m->icount++;
	}
	(*p)->node = n;
	(*p)->nlookup++;
}

static void gfs_inode_forget(struct gfs_mount *m, uint64_t ino, uint64_t nlookup)
{
	struct gfs_inode **p, *e;

	if (!m->icap)
		return;
	p = gfs_inode_slot(m, ino);
	if (!(e = *p))
		return;
	e->nlookup = e->nlookup > nlookup ? e->nlookup - nlookup : 0;
	if (e->nlookup)
		return;
	*p = e->next;
	free(e);
	m->icount--;
}

/* The core frees n (gfs_archive.node_gone): its id names nothing now. */
static void gfs_inode_gone(void *arg, struct gfs_node *n)
{
	struct gfs_inode *e = gfs_inode_find(arg, n->ino);

	if (e && e->node == n)
		e->node = NULL;
}

/* The node the kernel means by ino, or NULL (forgotten, or freed by the core). */
static struct gfs_node *gfs_node_of(struct gfs_mount *m, fuse_ino_t ino)
{
	struct gfs_inode *e;

	if (ino == FUSE_ROOT_ID)
		return m->ar->root;
	e = gfs_inode_find(m, ino);
	return e ? e->node : NULL;
}

/* ---- invalidating the kernel's cache of views a change may have changed ------ */

static void gfs_inval_add_ino(struct gfs_inval *iv, uint64_t ino)
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

static void gfs_inval_add_name(struct gfs_inval *iv, uint64_t parent, const char *name)
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

static void gfs_inval_finished(struct gfs_mount *m, uint32_t seq);

static void gfs_inval_free(struct gfs_inval *iv)
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
static void gfs_inval_run(struct gfs_mount *m, struct gfs_inval *iv, struct gfs_inval *renamed, uint32_t seq)
{
	if (!seq)
		return;
	pthread_mutex_lock(&m->notifier.mu);
	if (!m->notifier.running) {	/* not serving FUSE: no kernel cache to drop */
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

static void gfs_inval_send(struct fuse_session *se, struct gfs_inval *iv)
{
	for (size_t i = 0; i < iv->nn; i++)
		fuse_lowlevel_notify_inval_entry(se, iv->names[i].parent, iv->names[i].name,
						 strlen(iv->names[i].name));
	for (size_t i = 0; i < iv->n; i++)
		fuse_lowlevel_notify_inval_inode(se, iv->inos[i], 0, 0);
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
		gfs_inval_send(m->notifier.se, &renamed);
		gfs_inval_send(m->notifier.se, &views);
		gfs_inval_free(&views);
		gfs_inval_free(&renamed);
		gfs_inval_finished(m, seq);
		pthread_mutex_lock(&m->notifier.mu);
	}
	pthread_mutex_unlock(&m->notifier.mu);
	return NULL;
}

static int gfs_notifier_start(struct gfs_mount *m, struct fuse_session *se)
{
	int e;

	m->notifier.se = se;
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
static void gfs_notifier_stop(struct gfs_mount *m)
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

static void gfs_buf_mem_free(void *p)
{
	free(((struct fuse_buf *)p)->mem);
}

static void gfs_reap(struct gfs_mount *m);

/* One request, then what it left for this thread to finish (gfs_hidden_reap). */
/* not inlined: gfs_serve's pthread_cleanup_push (a setjmp) would see res clobbered */
static __attribute__((noinline)) void gfs_process(struct gfs_mount *m, struct fuse_session *se,
						  const struct fuse_buf *fb)
{
	fuse_session_process_buf(se, fb);
	if (m->hid.closed)
		gfs_reap(m);
}

/*
 * The request loop.  One thread serves every request: on a small machine,
 * and more so a virtual one, handing each request to another thread of a
 * pool costs a wake-up on another CPU, which doubled the time of reading
 * many small views.  The lock serialises the tree anyway, and no request
 * waits for the kernel (the notifier sends the invalidations).
 */
static int gfs_serve(struct gfs_mount *m, struct fuse_session *se)
{
	struct fuse_buf fb = { .mem = NULL };
	int res = 0;

	while (!fuse_session_exited(se)) {
		res = fuse_session_receive_buf(se, &fb);
		if (res == -EINTR)
			continue;
		if (res <= 0)
			break;
		gfs_process(m, se, &fb);
	}
	gfs_buf_mem_free(&fb);
	fuse_session_exit(se);
	return res < 0 ? -1 : 0;
}

/* ---- every open handle ----------------------------------------------------------- */

static void gfs_handle_link(struct gfs_mount *m, struct gfs_handle *h)
{
	h->prev = NULL;
	h->next = m->handles;
	if (m->handles)
		m->handles->prev = h;
	m->handles = h;
}

static void gfs_handle_unlink(struct gfs_mount *m, struct gfs_handle *h)
{
	if (h->prev)
		h->prev->next = h->next;
	else
		m->handles = h->next;
	if (h->next)
		h->next->prev = h->prev;
}

/*
 * After the session: the handles whose RELEASE never came (the daemon was
 * stopped, or its connection aborted, with a file or directory open).
 */
static void gfs_handles_free(struct gfs_mount *m)
{
	while (m->handles) {
		struct gfs_handle *h = m->handles;

		gfs_handle_unlink(m, h);
		gfs_buf_free(h->snap);
		gfs_buf_free(h->was);
		free(h);
	}
}

/* The archive was reopened (gfs_watch): each handle to the node at its path now. */
static void gfs_handles_repoint(struct gfs_mount *m, struct gfs_archive *ar)
{
	for (struct gfs_handle *h = m->handles; h; h = h->next) {
		struct gfs_buf p = GFS_BUF_INIT;
		struct gfs_node *n = NULL;

		if (h->node && !gfs_buf_add(&p, "/", 1) && !gfs_node_path(h->node, &p) &&
		    !gfs_buf_add(&p, "", 1))
			n = gfs_node_lookup(ar, (char *)p.data);
		gfs_buf_release(&p);
		h->node = n;
		if (n) {
			n->open_count++;
			n->writers += h->writable;
		}
	}
}

/* ---- what a user sees: .gamefs.status, refusals ---------------------------------- */

static uint64_t gfs_status_size(struct gfs_archive *ar)
{
	struct gfs_buf b = GFS_BUF_INIT;
	uint64_t len;

	gfs_status_render(ar, &b);
	len = b.len;
	gfs_buf_release(&b);
	return len;
}

/* A read of the status without an open (a read-only mount): drawn for each read. */
static int gfs_status_read(struct gfs_mount *m, char *buf, size_t size, off_t off)
{
	struct gfs_buf b = GFS_BUF_INIT;
	size_t n = 0;

	gfs_status_render(m->ar, &b);
	if ((uint64_t)off < b.len) {
		n = b.len - (size_t)off < size ? b.len - (size_t)off : size;
		memcpy(buf, b.data + off, n);
	}
	gfs_buf_release(&b);
	return (int)n;
}

static int gfs_attach(struct gfs_mount *m, struct gfs_node *n, struct fuse_file_info *fi, int writable);

/* An open of the status reads the status of that moment. */
static int gfs_open_status(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *n,
			   struct fuse_file_info *fi)
{
	struct gfs_buf *b = gfs_buf_new();
	int r;

	if (!b)
		return -ENOMEM;
	gfs_status_render(ar, b);
	r = gfs_attach(m, n, fi, 0);
	if (r) {
		gfs_buf_free(b);
		return r;
	}
	((struct gfs_handle *)(uintptr_t)fi->fh)->snap = b;
	fi->direct_io = 1;
	return 0;
}

/* The root's .gamefs.log (listed) and .gamefs.status (read by name). */
static void gfs_special_nodes(struct gfs_mount *m, struct gfs_archive *ar)
{
	gfs_status_begin(ar);
	if (gfs_dir_ready(ar, ar->root))
		return;
	m->log_node = gfs_node_child(ar, ar->root, GFS_LOG_NAME);
	if (!m->log_node) {
		m->log_node = gfs_node_new_file(ar, ar->root, GFS_LOG_NAME, 0444, NULL, NULL);
		if (m->log_node) {
			m->log_node->flags |= GFS_NODE_SCRATCH;
			m->log_node->mtime = ar->root->mtime;
		}
	}
	m->status_node = gfs_node_child(ar, ar->root, GFS_STATUS_NAME);
	if (!m->status_node) {
		m->status_node = gfs_node_new_file(ar, ar->root, GFS_STATUS_NAME, 0444, NULL, NULL);
		if (m->status_node)
			m->status_node->flags |= GFS_NODE_SCRATCH;
	}
	if (m->status_node)
		clock_gettime(CLOCK_REALTIME, &m->status_node->mtime);
}

/*
 * Under m->lock, after an operation that changes the archive: a refusal
 * is kept for the status and told to the desktop (gfs_status_refused).
 * The path is n's, or name's in d.
 */
static int gfs_seen(struct gfs_mount *m, const char *op, struct gfs_node *d, const char *name,
		    struct gfs_node *n, int r)
{
	struct gfs_buf p = GFS_BUF_INIT;

	if (r >= 0)
		return r;
	if (n ? gfs_node_path(n, &p) : (!d || gfs_node_path(d, &p) || gfs_buf_add(&p, "/", 1) ||
					 gfs_buf_add(&p, name, strlen(name))))
		gfs_buf_release(&p);
	else if (gfs_buf_add(&p, "", 1))
		gfs_buf_release(&p);
	gfs_status_refused(m->ar, op, p.data ? (char *)p.data : name, r);
	gfs_buf_release(&p);
	return r;
}

/* expr, an operation's reply, seen (gfs_seen) with the reason it leaves in ar->err */
#define SEEN(op, d, name, n, expr) ({ m->ar->err[0] = 0; gfs_seen(m, op, d, name, n, (expr)); })

static int gfs_is_hidden_name(const char *name)
{
	return !strncmp(name, GFS_HIDDEN_PREFIX, strlen(GFS_HIDDEN_PREFIX));
}

#define LOCKED(expr) ({ pthread_mutex_lock(&m->lock); gfs_archive_poll_checks(m->ar); \
			__typeof__(expr) _r = (expr); pthread_mutex_unlock(&m->lock); _r; })

/* An operation that may change the model: then drop the kernel's stale pages. */
#define CHANGING(expr) ({ struct gfs_inval _iv = { 0 }, _rn = { 0 }; uint32_t _seq = 0; \
			  pthread_mutex_lock(&m->lock); gfs_archive_poll_checks(m->ar); \
			  __typeof__(expr) _r = (expr); \
			  if (m->changed) { _seq = gfs_views_changed(m); \
					     gfs_inval_collect(m, &_iv, m->ar->root); \
					     gfs_inval_add_renamed(m, &_rn); } \
			  m->renamed[0] = m->renamed[1] = 0; \
			  pthread_mutex_unlock(&m->lock); gfs_inval_run(m, &_iv, &_rn, _seq); _r; })

/* Under m->lock: the model changed; returns the drop's number. */
static uint32_t gfs_views_changed(struct gfs_mount *m)
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

/* May this open of n, whose render is len bytes, read through the page cache? */
static int gfs_cache_open(struct gfs_mount *m, struct gfs_node *n, struct gfs_handle *h, uint64_t len,
			  struct fuse_file_info *fi)
{
	int keep;

	if (m->inval_done != m->inval_begun)
		return 0;		/* a drop is under way: sizes the kernel holds may be old */
	if (n->pc_open) {
		if (n->pc_gen != m->gen || n->pc_size != len)
			return 0;	/* older pages, or a foreign open's, are read */
		keep = 1;
	} else if (n->pc_gen == m->gen)
		keep = 1;		/* no change since its pages were read */
	else if ((int32_t)(m->inval_done - n->pc_closed) > 0)
		keep = 0;		/* dropped after the last reader closed: empty */
	else
		return 0;
	fi->keep_cache = keep;
	n->pc_open++;
	n->pc_gen = m->gen;
	n->pc_size = len;
	h->cached = 1;
	return 1;
}

/*
 * Any other open of a render that goes through the page cache (a writer, a
 * reader of an edit not yet stored) fills it with pages of no render: the
 * cache serves no snapshot until a drop after the last of them.
 */
static void gfs_cache_foreign(struct gfs_mount *m, struct gfs_node *n, struct gfs_handle *h,
			      struct fuse_file_info *fi)
{
	if (!gfs_node_is_render(n)) {
		n->pc_gen = m->gen - 1;	/* a stored asset's pages: not kept (gfs_cache_stored) */
		return;
	}
	if (fi->direct_io)
		return;
	n->pc_open++;
	n->pc_gen = m->gen - 1;
	n->pc_size = UINT64_MAX;
	h->cached = 1;
}

/*
 * A read-only open of a stored asset (bytes of the archive, unchanged) keeps
 * the pages an earlier open read when nothing changed since then: a repeated
 * read is the kernel's page cache, not a request.  Those bytes change only
 * through an open for writing, which poisons them (gfs_cache_foreign), and
 * an edited node's pages are dropped with the views' (gfs_inval_run); after
 * any other change of the model (a commit, a rename) the first open does
 * not ask to keep them (libfuse's auto_cache may still keep unchanged
 * bytes).  Its size is always the node's own (pc_size stays unset).
 */
static void gfs_cache_stored(struct gfs_mount *m, struct gfs_node *n, struct fuse_file_info *fi)
{
	if (n->writers || n->edit) {
		n->pc_gen = m->gen - 1;
		return;
	}
	fi->keep_cache = n->pc_gen == m->gen && m->inval_done == m->inval_begun;
	n->pc_gen = m->gen;
}

static void gfs_cache_close(struct gfs_mount *m, struct gfs_node *n, struct gfs_handle *h)
{
	if (h->cached && !--n->pc_open)
		n->pc_closed = m->inval_begun;
}

/*
 * commit=close: store and write now.  commit=unmount: still parse the edit
 * now (a bad one fails its close with EINVAL), write at unmount.
 */
static int gfs_commit_now(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *closing)
{
	if (ar->readonly)
		return 0;
	m->changed = 1;
	return gfs_edit_commit(ar, closing);
}

/* An edit's result (gfs_edit_*): 1 is a change to commit. */
static int gfs_committed(struct gfs_mount *m, struct gfs_archive *ar, int r, struct gfs_node *closing)
{
	return r > 0 ? gfs_commit_now(m, ar, closing) : r;
}

/*
 * A file hidden with no open handle of ours is removed once the request
 * that hid it is done (gfs_hidden_reap), unless a rename gave its name to
 * another file.
 */
static void gfs_reap(struct gfs_mount *m)
{
	CHANGING(gfs_committed(m, m->ar, gfs_hidden_reap(m->ar, &m->hid), NULL));
}

static void gfs_fill_stat(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *n, struct stat *st)
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
		if (n == m->log_node) {
			struct timespec t;

			size = gfs_mount_log_size(&t);
			if (t.tv_sec)
				n->mtime = t;
		} else if (n == m->status_node) {
			size = gfs_status_size(ar);
		} else if (n->pc_open && n->pc_size != UINT64_MAX)
			size = n->pc_size;	/* the size of the pages being read */
		else if (gfs_node_size(ar, n, &size))
			size = 0;	/* still listed: open and read say EIO */
	}
	st->st_size = (off_t)size;
	st->st_blksize = 65536;
	st->st_blocks = (blkcnt_t)((size + 511) / 512);
	st->st_mtim = st->st_ctim = n->mtime;
	st->st_atim = n->mtime;
}

/* The entry of n for the kernel, counted as a lookup. */
static void gfs_entry(struct gfs_mount *m, struct gfs_node *n, struct fuse_entry_param *e)
{
	memset(e, 0, sizeof(*e));
	e->ino = n->ino;
	e->attr_timeout = GFS_TIMEOUT;
	e->entry_timeout = GFS_TIMEOUT;
	gfs_fill_stat(m, m->ar, n, &e->attr);
	gfs_inode_ref(m, n);
}

/* The node a request on ino with fi means: its open's, or the one the kernel knows. */
static struct gfs_node *gfs_find(struct gfs_mount *m, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (fi && fi->fh)
		return ((struct gfs_handle *)(uintptr_t)fi->fh)->node;
	return gfs_node_of(m, ino);
}

static struct gfs_mount *gfs_req_m(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

/* "/DIR/NAME", name's path in d, for messages (in b, which the caller releases). */
static const char *gfs_path_in(struct gfs_node *d, const char *name, struct gfs_buf *b)
{
	if ((d && d->parent && (gfs_buf_add(b, "/", 1) || gfs_node_path(d, b))) ||
	    gfs_buf_add(b, "/", 1) || gfs_buf_add(b, name, strlen(name) + 1))
		return name;
	return (const char *)b->data;
}

/* ---- the requests ------------------------------------------------------------------ */

static int gfs_ll_lookup_locked(struct gfs_mount *m, fuse_ino_t parent, const char *name,
				struct fuse_entry_param *e)
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
	gfs_entry(m, n, e);
	return 0;
}

static void gfs_ll_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct fuse_entry_param e;
	int r = LOCKED(gfs_ll_lookup_locked(m, parent, name, &e));

	if (r == -ENOENT) {
		memset(&e, 0, sizeof(e));	/* a negative entry, not cached (timeout 0) */
		fuse_reply_entry(req, &e);
	} else if (r)
		fuse_reply_err(req, -r);
	else
		fuse_reply_entry(req, &e);
}

static void gfs_ll_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	struct gfs_mount *m = gfs_req_m(req);

	pthread_mutex_lock(&m->lock);
	gfs_inode_forget(m, ino, nlookup);
	pthread_mutex_unlock(&m->lock);
	fuse_reply_none(req);
}

static void gfs_ll_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *fd)
{
	struct gfs_mount *m = gfs_req_m(req);

	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < count; i++)
		gfs_inode_forget(m, fd[i].ino, fd[i].nlookup);
	pthread_mutex_unlock(&m->lock);
	fuse_reply_none(req);
}

static int gfs_ll_getattr_locked(struct gfs_mount *m, fuse_ino_t ino, struct fuse_file_info *fi,
				 struct stat *st)
{
	struct gfs_node *n = gfs_find(m, ino, fi);

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

static void gfs_ll_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct stat st;
	int r = LOCKED(gfs_ll_getattr_locked(m, ino, fi, &st));

	if (r)
		fuse_reply_err(req, -r);
	else
		fuse_reply_attr(req, &st, GFS_TIMEOUT);
}

/*
 * A truncation of n (a writer's O_TRUNC open, truncate(2)) while readers
 * hold it through the page cache.  The kernel may send such a reader's READ
 * after we answered the truncation, at the size it knew before: answered
 * short, it fills the rest of the page with zeros and keeps them (seen on
 * kernel 6.18 by readers racing saves: a READ at the old size just after the
 * writer's OPEN).  So each of those readers keeps the bytes it opened: it
 * reads the new bytes as far as they go and its own past them, bytes
 * somebody wrote, never zeros.  Up to GFS_KEEP_WAS_MAX bytes a reader.
 */
#define GFS_KEEP_WAS_MAX ((uint64_t)64 << 20)

static void gfs_keep_was(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *n, uint64_t newsize)
{
	struct gfs_buf *was = NULL;
	uint64_t size;

	if (!n->open_count || gfs_node_size(ar, n, &size) || size <= newsize || size > GFS_KEEP_WAS_MAX)
		return;
	for (struct gfs_handle *h = m->handles; h; h = h->next) {
		if (h->node != n || h->writable || !h->paged || h->snap)
			continue;
		if (!was) {
			if (!(was = gfs_buf_new()))
				return;
			if (gfs_node_content(ar, n, was)) {
				gfs_buf_free(was);
				return;
			}
		}
		gfs_buf_free(h->was);
		h->was = gfs_buf_hold(was);
	}
	gfs_buf_free(was);
}

static int gfs_ll_setattr_locked(struct gfs_mount *m, fuse_ino_t ino, struct stat *attr, int to_set,
				 struct fuse_file_info *fi, struct stat *st)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *n = gfs_find(m, ino, fi);
	int r;

	if (!n)
		return -ENOENT;
	if (to_set & FUSE_SET_ATTR_SIZE) {
		if (attr->st_size >= 0 && !gfs_edit_may_write(ar, n))
			gfs_keep_was(m, ar, n, (uint64_t)attr->st_size);
		r = SEEN("truncate", NULL, NULL, n, gfs_committed(m, ar, gfs_edit_truncate(ar, n, attr->st_size), n));
		if (r)
			return r;
	}
	if (to_set & FUSE_SET_ATTR_MTIME_NOW)
		clock_gettime(CLOCK_REALTIME, &n->mtime);
	else if (to_set & FUSE_SET_ATTR_MTIME)
		n->mtime = attr->st_mtim;
	/* chmod, chown: accepted (cp -p, rsync) but modes come from the format */
	gfs_fill_stat(m, ar, n, st);
	return 0;
}

static void gfs_ll_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
			   struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct stat st;
	int r = CHANGING(gfs_ll_setattr_locked(m, ino, attr, to_set, fi, &st));

	if (r)
		fuse_reply_err(req, -r);
	else
		fuse_reply_attr(req, &st, GFS_TIMEOUT);
}

static int gfs_attach(struct gfs_mount *m, struct gfs_node *n, struct fuse_file_info *fi, int writable)
{
	struct gfs_handle *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->node = n;
	h->writable = writable;
	gfs_handle_link(m, h);
	n->open_count++;
	if (writable)
		n->writers++;
	fi->fh = (uint64_t)(uintptr_t)h;
	/* a reader's close has nothing to commit: no FLUSH round trip for it */
	if (!writable)
		fi->noflush = 1;
	return 0;
}

static void gfs_release_handle(struct gfs_mount *m, struct gfs_handle *h);

static void gfs_ll_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	int r;

	pthread_mutex_lock(&m->lock);
	{
		struct gfs_node *n = gfs_node_of(m, ino);

		r = !n ? -ENOENT : !S_ISDIR(n->mode) ? -ENOTDIR : gfs_attach(m, n, fi, 0);
	}
	pthread_mutex_unlock(&m->lock);
	if (r)
		fuse_reply_err(req, -r);
	else if (fuse_reply_open(req, fi) == -ENOENT)
		CHANGING((gfs_release_handle(m, (struct gfs_handle *)(uintptr_t)fi->fh), 0));
}

/*
 * offsets: 1 ".", 2 "..", 3.. the entries; readdirplus hands the kernel
 * full entries, so a walk needs no LOOKUP per file (each counts as one).
 */
static int gfs_ll_readdir_locked(struct gfs_mount *m, fuse_req_t req, struct fuse_file_info *fi, char *buf,
				 size_t size, off_t off, int plus, size_t *len)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *d = gfs_find(m, 0, fi);
	struct fuse_entry_param e;
	size_t at = 0, sz;

	*len = 0;
	if (!d)
		return -ENOENT;
	if (!S_ISDIR(d->mode))
		return -ENOTDIR;
	if (gfs_dir_ready(ar, d))
		return -EIO;
	for (off_t o = off < 0 ? 0 : off; ; o++) {
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
		memset(&e, 0, sizeof(e));
		e.attr.st_ino = n->ino;
		e.attr.st_mode = n->mode;
		if (plus && o >= 2) {
			e.ino = n->ino;
			e.attr_timeout = e.entry_timeout = GFS_TIMEOUT;
			gfs_fill_stat(m, ar, n, &e.attr);
		}
		sz = plus ? fuse_add_direntry_plus(req, buf + at, size - at, name, &e, o + 1)
			  : fuse_add_direntry(req, buf + at, size - at, name, &e.attr, o + 1);
		if (sz > size - at)
			break;
		if (plus && o >= 2)
			gfs_inode_ref(m, n);
		at += sz;
	}
	*len = at;
	return 0;
}

static void gfs_ll_readdir_any(fuse_req_t req, size_t size, off_t off, struct fuse_file_info *fi, int plus)
{
	struct gfs_mount *m = gfs_req_m(req);
	char *buf = malloc(size ? size : 1);
	size_t len;
	int r;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	r = LOCKED(gfs_ll_readdir_locked(m, req, fi, buf, size, off, plus, &len));
	if (r)
		fuse_reply_err(req, -r);
	else
		fuse_reply_buf(req, buf, len);
	free(buf);
}

static void gfs_ll_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	gfs_ll_readdir_any(req, size, off, fi, 0);
}

static void gfs_ll_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			       struct fuse_file_info *fi)
{
	gfs_ll_readdir_any(req, size, off, fi, 1);
}

/*
 * A read-only open of a render reads one whole render, whatever commits
 * meanwhile: it holds the node's cached render (no copy), which a commit
 * drops from the node but not from the opens holding it.
 */
static int gfs_open_snapshot(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *n,
			     struct fuse_file_info *fi, int alias)
{
	struct gfs_buf *b = NULL;
	int r = gfs_node_render_held(ar, n, &b);

	if (r)
		return r == -ENOMEM ? r : -EIO;
	r = gfs_attach(m, n, fi, 0);
	if (r) {
		gfs_buf_free(b);
		return r;
	}
	((struct gfs_handle *)(uintptr_t)fi->fh)->snap = b;
	if (alias || !gfs_cache_open(m, n, (struct gfs_handle *)(uintptr_t)fi->fh, b->len, fi))
		fi->direct_io = 1;	/* the page cache may hold another render */
	return 0;
}

/*
 * An open that only writes (cp, dd, a shell's >) writes past the page cache:
 * each write goes from the writer's pages to us, with no page of the mount's
 * to allocate, fill and drop (a 384 MiB cp into the mount: 0.5-1.0 s instead
 * of 1.1-1.9 s here).  It cannot mmap, and reads nothing through its open;
 * the kernel drops cached pages of the range it writes.
 */
static int gfs_write_only(const struct fuse_file_info *fi)
{
	return (fi->flags & O_ACCMODE) == O_WRONLY;
}

/*
 * Readers and a truncating writer of one file (cp over it, a shell's >, an
 * editor's save) never share stale pages.  A READ answered while the
 * writer has written only part of the file is short, and the kernel fills
 * the rest of a cached page with zeros that it keeps as the file's bytes
 * when the writer then makes the file longer past the page cache: zeros
 * nobody wrote (seen by readers racing saves).  So a reader of a file being
 * written (a writer open, or its edit not yet stored) reads past the page
 * cache, and a write-only writer of a file others have open writes through
 * it, which puts its bytes into the pages the earlier readers hold.
 */
static void gfs_open_beside_writer(struct gfs_node *n, struct fuse_file_info *fi, int writable)
{
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;

	if (n->flags & GFS_NODE_SCRATCH)
		return;
	if (!writable && (n->writers || n->dirty)) {
		fi->direct_io = 1;
		fi->keep_cache = 0;
	} else if (writable && n->open_count > 1 && !h->append && gfs_write_only(fi)) {
		fi->direct_io = 0;
	}
}

static int gfs_ll_open_locked(struct gfs_mount *m, struct gfs_node *n, struct fuse_file_info *fi)
{
	struct gfs_archive *ar = m->ar;
	int acc = fi->flags & O_ACCMODE, writable = acc != O_RDONLY, r;
	uint64_t size;

	/*
	 * A read-only mount has no writer whose close commits and no file that
	 * changes: ENOSYS makes the kernel open every file from now on without
	 * asking (no OPEN, no RELEASE), keep the page cache across opens, and
	 * send its reads with no handle (gfs_read_handle).  A `diff -r` of two
	 * games then costs a third of the requests.
	 */
	if (m->ro)
		return -ENOSYS;
	/*
	 * The kernel opens a node it looked up; gone now, it was replaced in
	 * between.  ESTALE makes the kernel look the name up once more and
	 * open what is there now.
	 */
	if (!n)
		return -ESTALE;
	if (S_ISDIR(n->mode))
		return -EISDIR;
	if (writable && (r = gfs_edit_may_write(ar, n)))
		return r;
	if (writable && (fi->flags & O_TRUNC)) {
		gfs_keep_was(m, ar, n, 0);
		if ((r = gfs_node_truncate(ar, n, 0)))
			return r;
	}
	if (n == m->status_node && !writable)
		return gfs_open_status(m, ar, n, fi);
	if (n == m->log_node || gfs_write_only(fi))
		fi->direct_io = 1;
	else if (!writable && !n->edit && gfs_node_is_render(n))
		return gfs_open_snapshot(m, ar, n, fi, 0);
	else if (!n->edit && gfs_node_size(ar, n, &size))
		return -EIO;	/* a view that cannot be produced */
	r = gfs_attach(m, n, fi, writable);
	if (!r && writable && (fi->flags & O_APPEND)) {
		/*
		 * The kernel appends at the size it last heard, which a view
		 * drawn anew after a commit (a comment added) may have changed:
		 * append at the end of what we hold, past its page cache.
		 */
		((struct gfs_handle *)(uintptr_t)fi->fh)->append = 1;
		fi->direct_io = 1;
	}
	if (!r)
		gfs_open_beside_writer(n, fi, writable);
	if (!r && !writable && !gfs_node_is_render(n) && (n->flags & GFS_NODE_SPAN))
		gfs_cache_stored(m, n, fi);
	else if (!r)
		gfs_cache_foreign(m, n, (struct gfs_handle *)(uintptr_t)fi->fh, fi);
	if (!r && !writable && !fi->direct_io)
		((struct gfs_handle *)(uintptr_t)fi->fh)->paged = 1;
	return r;
}

/* The open's reply; when the opener is gone (interrupted), the handle goes again. */
static void gfs_reply_open(struct gfs_mount *m, fuse_req_t req, struct fuse_file_info *fi, int r)
{
	if (r)
		fuse_reply_err(req, -r);
	else if (fuse_reply_open(req, fi) == -ENOENT)
		CHANGING((gfs_release_handle(m, (struct gfs_handle *)(uintptr_t)fi->fh), 0));
}

static void gfs_ll_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);

	gfs_reply_open(m, req, fi, LOCKED(gfs_ll_open_locked(m, gfs_node_of(m, ino), fi)));
}

static int gfs_ll_create_locked(struct gfs_mount *m, fuse_ino_t parent, const char *name,
				struct fuse_file_info *fi, struct fuse_entry_param *e)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *dir = gfs_node_of(m, parent), *n;
	int r;

	if (!dir || !S_ISDIR(dir->mode))
		return -ENOENT;
	if (strlen(name) > NAME_MAX)
		return -ENAMETOOLONG;
	n = gfs_node_child(ar, dir, name);
	if (n) {
		if (fi->flags & O_EXCL)
			return -EEXIST;
		if ((r = gfs_ll_open_locked(m, n, fi)))
			return r;
		gfs_entry(m, n, e);
		return 0;
	}
	if (!ar->readonly && (n = gfs_unhide(ar, &m->hid, dir, name, NULL))) {
		/* removed while open, now written anew: the same file, emptied */
		gfs_hidden_settle(&m->hid);
		fi->flags |= O_TRUNC;
		if ((r = gfs_ll_open_locked(m, n, fi)))
			return r;
		gfs_entry(m, n, e);
		return 0;
	}
	r = gfs_edit_create_how(ar, dir, name, fi->flags & O_EXCL ? GFS_EDIT_EXCL : 0, &n);
	if (r) {
		struct gfs_buf b = GFS_BUF_INIT;

		if (ar->err[0])
			gfs_warn(ar, "create %s refused: %s", gfs_path_in(dir, name, &b), gfs_err_reason(ar));
		gfs_buf_release(&b);
		return r;
	}
	r = gfs_attach(m, n, fi, 1);
	if (!r && gfs_write_only(fi))
		fi->direct_io = 1;
	if (!r)
		gfs_cache_foreign(m, n, (struct gfs_handle *)(uintptr_t)fi->fh, fi);
	if (!r)
		gfs_entry(m, n, e);
	return r;
}

static void gfs_ll_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
			  struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct fuse_entry_param e;
	int r = LOCKED(SEEN("create", gfs_node_of(m, parent), name, NULL,
			    gfs_ll_create_locked(m, parent, name, fi, &e)));

	if (r)
		fuse_reply_err(req, -r);
	else if (fuse_reply_create(req, &e, fi) == -ENOENT)
		CHANGING((gfs_release_handle(m, (struct gfs_handle *)(uintptr_t)fi->fh), 0));
}

/*
 * The handle a read goes through: its open's, or on a read-only mount, where
 * the kernel sends no OPEN (gfs_ll_open_locked), one made for the node in
 * *tmp.  NULL: the node is gone.
 */
static struct gfs_handle *gfs_read_handle(struct gfs_mount *m, fuse_ino_t ino, struct fuse_file_info *fi,
					  struct gfs_handle *tmp)
{
	if (fi->fh)
		return (struct gfs_handle *)(uintptr_t)fi->fh;
	memset(tmp, 0, sizeof(*tmp));
	tmp->node = gfs_node_of(m, ino);
	return tmp->node ? tmp : NULL;
}

static int gfs_read_at(struct gfs_mount *m, struct gfs_handle *h, char *buf, size_t size, off_t off)
{
	ssize_t n;

	if (h->snap) {
		if ((uint64_t)off >= h->snap->len)
			return 0;
		n = (ssize_t)(h->snap->len - (uint64_t)off < size ? h->snap->len - (uint64_t)off : size);
		memcpy(buf, h->snap->data + off, (size_t)n);
		return (int)n;
	}
	if (h->node == m->log_node)
		return (int)gfs_mount_log_read(buf, size, (uint64_t)off);
	if (h->node == m->status_node)
		return gfs_status_read(m, buf, size, off);
	n = gfs_node_read(m->ar, h->node, buf, size, (uint64_t)off);
	if (h->was && n >= 0 && (size_t)n < size && (uint64_t)off + (uint64_t)n < h->was->len) {
		/* past the writer's bytes: the ones this reader opened (gfs_keep_was) */
		size_t at = (size_t)off + (size_t)n, more = h->was->len - at;

		if (more > size - (size_t)n)
			more = size - (size_t)n;
		memcpy(buf + n, h->was->data + at, more);
		n += (ssize_t)more;
	}
	return (int)n;
}

/*
 * Reads of unchanged stored assets: hand libfuse the archive's fd so it can
 * splice() the bytes to the kernel without copying them through us.  The
 * fd stays valid after we drop the lock because a commit retires old fds
 * instead of closing them at once (gfs_retire_fd).  Small requests (random
 * reads) are one pread and one reply: a splice would cost three system
 * calls (two splices and a vmsplice) for them.
 */
#define GFS_SPLICE_MIN ((size_t)32 << 10)

static void gfs_ll_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct fuse_bufvec bv = FUSE_BUFVEC_INIT(size);
	struct gfs_handle tmp, *h;
	struct gfs_node *n;
	char *mem;
	int got;

	pthread_mutex_lock(&m->lock);
	h = gfs_read_handle(m, ino, fi, &tmp);
	if (!h) {
		pthread_mutex_unlock(&m->lock);
		fuse_reply_err(req, ENOENT);
		return;
	}
	n = h->node;
	if (size > GFS_SPLICE_MIN && !h->snap && gfs_node_is_stored(n)) {
		uint64_t o = (uint64_t)off;

		size = o >= n->span_len ? 0 : (size_t)(n->span_len - o < size ? n->span_len - o : size);
		bv.buf[0].size = size;
		bv.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK | FUSE_BUF_FD_RETRY;
		bv.buf[0].fd = m->ar->fd;
		bv.buf[0].pos = (off_t)(n->span_off + o);
		pthread_mutex_unlock(&m->lock);
		fuse_reply_data(req, &bv, FUSE_BUF_SPLICE_MOVE);
		return;
	}
	mem = malloc(size ? size : 1);
	if (!mem) {
		pthread_mutex_unlock(&m->lock);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	got = gfs_read_at(m, h, mem, size, off);
	pthread_mutex_unlock(&m->lock);
	if (got < 0)
		fuse_reply_err(req, -got);
	else
		fuse_reply_buf(req, mem, (size_t)got);
	free(mem);
}

static int gfs_ll_write_locked(struct gfs_mount *m, const char *buf, size_t size, off_t off,
			       struct fuse_file_info *fi)
{
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;

	if (!h)
		return -EROFS;	/* no open: a read-only mount (gfs_ll_open_locked) */
	if (!h->writable)
		return -EBADF;
	if (h->append) {
		uint64_t end;

		if (gfs_node_size(m->ar, h->node, &end))
			return -EIO;
		off = (off_t)end;
	}
	return (int)gfs_node_write(m->ar, h->node, buf, size, (uint64_t)off);
}

static void gfs_ll_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
			 struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;
	int r = LOCKED(SEEN("write", NULL, NULL, h ? h->node : NULL, gfs_ll_write_locked(m, buf, size, off, fi)));

	if (r < 0)
		fuse_reply_err(req, -r);
	else
		fuse_reply_write(req, (size_t)r);
}

static int gfs_ll_flush_locked(struct gfs_mount *m, struct fuse_file_info *fi)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;
	struct gfs_node *n;

	if (!h)
		return -ENOSYS;	/* a read-only mount: no FLUSH at any close from now on */
	n = h->node;
	if (!n || !h->writable || n->unlinked || (n->flags & GFS_NODE_SCRATCH) || n->writers > 1)
		return 0;
	if (!gfs_archive_pending(ar))
		return 0;
	return gfs_commit_now(m, ar, n);
}

static void gfs_ll_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;

	fuse_reply_err(req, -CHANGING(SEEN("close", NULL, NULL, h ? h->node : NULL, gfs_ll_flush_locked(m, fi))));
}

/* Under m->lock: the last close of a handle. */
static void gfs_release_handle(struct gfs_mount *m, struct gfs_handle *h)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *n;
	int writable;

	if (!h)
		return;
	n = h->node;
	writable = h->writable;
	if (n)
		gfs_cache_close(m, n, h);
	gfs_handle_unlink(m, h);
	gfs_buf_free(h->snap);
	gfs_buf_free(h->was);
	free(h);
	if (!n)			/* its node went with a replaced archive (gfs_watch) */
		return;
	n->open_count--;
	if (writable)
		n->writers--;
	if (n->unlinked) {
		if (!n->open_count)
			gfs_node_free(ar, n);
		return;
	}
	if (!n->open_count && n->parent && gfs_is_hidden_name(n->name) && gfs_hidden_is(&m->hid, n)) {
		/* unlinked while open, and nothing took its place: it leaves now */
		gfs_committed(m, ar, gfs_hidden_unlink(ar, &m->hid, n, n->name), NULL);
		return;
	}
	if (writable && !n->writers && !(n->flags & GFS_NODE_SCRATCH)) {
		/*
		 * The last descriptor is gone.  An edit that is still dirty (its
		 * commit at close failed, or a dup'd descriptor kept writing after
		 * the flush) is committed now; if it still does not parse, the
		 * core drops it and the file reads back its last good content.
		 */
		if (n->dirty)
			gfs_commit_now(m, ar, n);
		gfs_node_settle(ar, n);
		m->changed = 1;
	}
}

static void gfs_ll_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);

	CHANGING((gfs_release_handle(m, (struct gfs_handle *)(uintptr_t)fi->fh), 0));
	fuse_reply_err(req, 0);
}

static int gfs_ll_fsync_locked(struct gfs_mount *m, struct fuse_file_info *fi)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;

	if (!h || !h->node || (h->node->flags & GFS_NODE_SCRATCH) || ar->readonly)
		return 0;
	m->changed = 1;
	/* durable in every commit mode: with commit=unmount too, fsync writes the archive */
	return gfs_archive_commit_ex(ar, h->node, 0);
}

static void gfs_ll_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct gfs_handle *h = (struct gfs_handle *)(uintptr_t)fi->fh;

	fuse_reply_err(req, -CHANGING(SEEN("fsync", NULL, NULL, h ? h->node : NULL, gfs_ll_fsync_locked(m, fi))));
}

static int gfs_ll_unlink_locked(struct gfs_mount *m, fuse_ino_t parent, const char *name)
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
		 * leaves (gfs_release_handle).
		 */
		snprintf(hname, sizeof(hname), GFS_HIDDEN_PREFIX "%llx", (unsigned long long)n->ino);
		return gfs_hide(ar, &m->hid, n, hname);
	}
	r = gfs_edit_unlink(ar, n);
	if (r < 0 && ar->err[0]) {
		struct gfs_buf b = GFS_BUF_INIT;

		gfs_warn(ar, "unlink %s refused: %s", gfs_path_in(d, name, &b), gfs_err_reason(ar));
		gfs_buf_release(&b);
	}
	return gfs_committed(m, ar, r, NULL);
}

static void gfs_ll_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct gfs_mount *m = gfs_req_m(req);

	fuse_reply_err(req, -CHANGING(SEEN("unlink", gfs_node_of(m, parent), name, NULL,
					   gfs_ll_unlink_locked(m, parent, name))));
}

static int gfs_ll_rename_locked(struct gfs_mount *m, fuse_ino_t parent, const char *name,
				fuse_ino_t newparent, const char *newname, unsigned int flags)
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
	if (!dst && !ar->readonly && (dst = gfs_unhide(ar, &m->hid, dir, newname, NULL)))
		gfs_hidden_settle(&m->hid);
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

static void gfs_ll_rename(fuse_req_t req, fuse_ino_t parent, const char *name, fuse_ino_t newparent,
			  const char *newname, unsigned int flags)
{
	struct gfs_mount *m = gfs_req_m(req);

	fuse_reply_err(req, -CHANGING(SEEN("rename", gfs_node_of(m, newparent), newname, NULL,
					   gfs_ll_rename_locked(m, parent, name, newparent, newname, flags))));
}

/* A format's refusal of mkdir or rmdir: its reason to the log, as create and unlink do. */
static int gfs_dir_refused(struct gfs_archive *ar, const char *op, struct gfs_node *d, const char *name, int r)
{
	struct gfs_buf b = GFS_BUF_INIT;

	if (ar->err[0])
		gfs_warn(ar, "%s %s refused: %s", op, gfs_path_in(d, name, &b), gfs_err_reason(ar));
	gfs_buf_release(&b);
	return r;
}

static int gfs_ll_mkdir_locked(struct gfs_mount *m, fuse_ino_t parent, const char *name,
			       struct fuse_entry_param *e)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *dir = gfs_node_of(m, parent), *n;
	int r;

	if (!dir || !S_ISDIR(dir->mode))
		return -ENOENT;
	if (strlen(name) > NAME_MAX)
		return -ENAMETOOLONG;
	if ((r = gfs_edit_mkdir(ar, dir, name, &n)))
		return gfs_dir_refused(ar, "mkdir", dir, name, r);
	r = gfs_commit_now(m, ar, NULL);
	if (r)
		return r;
	n = gfs_node_child(ar, dir, name);	/* the commit may have drawn the tree anew */
	if (!n)
		return -EIO;
	gfs_entry(m, n, e);
	return 0;
}

static void gfs_ll_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct fuse_entry_param e;
	int r = CHANGING(SEEN("mkdir", gfs_node_of(m, parent), name, NULL,
			      gfs_ll_mkdir_locked(m, parent, name, &e)));

	if (r)
		fuse_reply_err(req, -r);
	else
		fuse_reply_entry(req, &e);
}

static int gfs_ll_rmdir_locked(struct gfs_mount *m, fuse_ino_t parent, const char *name)
{
	struct gfs_archive *ar = m->ar;
	struct gfs_node *d = gfs_node_of(m, parent), *n;
	int r;

	if (!d || !S_ISDIR(d->mode) || !(n = gfs_node_child(ar, d, name)))
		return -ENOENT;
	if ((r = gfs_edit_rmdir(ar, n)) < 0)
		return gfs_dir_refused(ar, "rmdir", d, name, r);
	return gfs_committed(m, ar, r, NULL);
}

static void gfs_ll_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct gfs_mount *m = gfs_req_m(req);

	fuse_reply_err(req, -CHANGING(SEEN("rmdir", gfs_node_of(m, parent), name, NULL,
					   gfs_ll_rmdir_locked(m, parent, name))));
}

static void gfs_ll_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct statvfs sv;

	pthread_mutex_lock(&m->lock);	/* a read-only mount may swap the archive (gfs_watch) */
	if (statvfs(m->ar->dir, &sv))
		memset(&sv, 0, sizeof(sv));
	sv.f_files = m->ar->hcount + 1;
	pthread_mutex_unlock(&m->lock);
	sv.f_ffree = 0;
	sv.f_namemax = NAME_MAX;
	fuse_reply_statfs(req, &sv);
}

static void gfs_pick_max_read(struct gfs_mount *m)
{
	unsigned long pmax = 1ul << 20;
	FILE *f = fopen("/proc/sys/fs/pipe-max-size", "r");

	if (f) {
		if (fscanf(f, "%lu", &pmax) != 1)
			pmax = 1ul << 20;
		fclose(f);
	}
	while (m->max_read < (1u << 20) && 2ul * (2ul * m->max_read) <= pmax)
		m->max_read *= 2;
}

/*
 * The kernel reads a FUSE file ahead 128 KiB at a time whatever the init
 * reply asks; a read-ahead of 1 MiB (in requests of m->max_read) makes a
 * first read of a big asset a third faster.  Only root may raise it: on
 * the mount's own backing device (its major:minor, from mountinfo rather
 * than a stat of the mount point, which this thread would have to answer;
 * want is the mount point's real path, taken before the mount).
 */
static void gfs_raise_readahead(const char *want)
{
	char line[2 * PATH_MAX], dev[32] = "", path[64];
	FILE *f;

	if (geteuid() != 0 || !want[0] || !(f = fopen("/proc/self/mountinfo", "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char d[32], mnt[2 * PATH_MAX], *o = mnt;

		if (sscanf(line, "%*s %*s %31s %*s %4095s", d, mnt) != 2)
			continue;
		for (const char *p = mnt; *p; p++, o++) {	/* mountinfo writes ' ' as \040 */
			if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] && p[3]) {
				*o = (char)(((p[1] - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0'));
				p += 3;
			} else {
				*o = *p;
			}
		}
		*o = 0;
		if (!strcmp(mnt, want))
			snprintf(dev, sizeof(dev), "%s", d);	/* the last: ours, mounted just now */
	}
	fclose(f);
	if (!dev[0] || strchr(dev, '/'))
		return;
	snprintf(path, sizeof(path), "/sys/class/bdi/%s/read_ahead_kb", dev);
	f = fopen(path, "r+");
	if (f) {
		unsigned kb = 0;

		if (fscanf(f, "%u", &kb) == 1 && kb < 1024) {
			rewind(f);
			fprintf(f, "1024\n");
		}
		fclose(f);
	}
}

/*
 * A read-only mount follows its archive: when the file is replaced (another
 * mount's commit, another program's save) or rewritten in place, and then
 * stays the same for one look, the new file is read and served, and every
 * page, size and name the kernel holds of the old one is dropped.  Looks
 * every GFS_WATCH_MS.  A new file that cannot be read leaves the old tree
 * served, and the log says it is stale.
 */
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

/* The kernel's ids name the new archive's nodes of the same numbers. */
static void gfs_inodes_repoint(struct gfs_mount *m, struct gfs_node *d)
{
	for (size_t i = 0; i < d->nkids; i++) {
		struct gfs_inode *e = gfs_inode_find(m, d->kids[i]->ino);

		if (e)
			e->node = d->kids[i];
		if (S_ISDIR(d->kids[i]->mode))
			gfs_inodes_repoint(m, d->kids[i]);
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
		(old->log ? old->log : gfs_fuse_log)(msg);
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
	for (size_t i = 0; i < m->icap; i++)
		for (struct gfs_inode *e = m->itab[i]; e; e = e->next)
			e->node = NULL;
	gfs_inodes_repoint(m, ar->root);
	ar->node_gone = gfs_inode_gone;
	ar->node_gone_arg = m;
	m->ar = ar;
	gfs_archive_start_checks(ar);
	seq = gfs_views_changed(m);
	gfs_archive_close_into(old, ar);
	pthread_mutex_unlock(&m->lock);
	gfs_inval_run(m, &iv, &rn, seq);
	snprintf(msg, sizeof(msg), "%s was replaced on disk: this mount shows the new version", ar->path);
	(ar->log ? ar->log : gfs_fuse_log)(msg);
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

static void gfs_watch_start(struct gfs_mount *m)
{
	m->watch.stop = 0;
	m->watch.running = !pthread_create(&m->watch.thread, NULL, gfs_watch_main, m);
}

static void gfs_watch_stop(struct gfs_mount *m)
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

static void gfs_ll_init(void *userdata, struct fuse_conn_info *conn)
{
	struct gfs_mount *m = userdata;

	if (conn->capable & FUSE_CAP_READDIRPLUS)
		conn->want |= FUSE_CAP_READDIRPLUS;
	conn->want &= ~(unsigned)FUSE_CAP_READDIRPLUS_AUTO;
	conn->max_readahead = conn->max_readahead > (1u << 20) ? conn->max_readahead : (1u << 20);
	conn->max_write = 1u << 20;
	conn->max_read = m->max_read;	/* as the mount option gfs_fuse_run gave */
	/* stored assets go from the archive's page cache to the kernel by splice() */
	if (conn->capable & FUSE_CAP_SPLICE_WRITE)
		conn->want |= FUSE_CAP_SPLICE_WRITE;
	if (conn->capable & FUSE_CAP_SPLICE_MOVE)
		conn->want |= FUSE_CAP_SPLICE_MOVE;	/* with max_pages, reads and writes of up to 1 MiB a request */
}

static const struct fuse_lowlevel_ops gfs_ll_ops = {
	.init = gfs_ll_init,
	.lookup = gfs_ll_lookup,
	.forget = gfs_ll_forget,
	.forget_multi = gfs_ll_forget_multi,
	.getattr = gfs_ll_getattr,
	.setattr = gfs_ll_setattr,
	.opendir = gfs_ll_opendir,
	.readdir = gfs_ll_readdir,
	.readdirplus = gfs_ll_readdirplus,
	.releasedir = gfs_ll_release,
	.open = gfs_ll_open,
	.create = gfs_ll_create,
	.read = gfs_ll_read,
	.write = gfs_ll_write,
	.flush = gfs_ll_flush,
	.release = gfs_ll_release,
	.fsync = gfs_ll_fsync,
	.unlink = gfs_ll_unlink,
	.rename = gfs_ll_rename,
	.mkdir = gfs_ll_mkdir,
	.rmdir = gfs_ll_rmdir,
	.statfs = gfs_ll_statfs,
};

int gfs_fuse_run(struct gfs_archive **arp, int argc, char **argv)
{
	struct gfs_archive *ar = *arp;
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts opts;
	struct gfs_mount *m = calloc(1, sizeof(*m));
	struct fuse_session *se = NULL;
	char mnt_real[PATH_MAX];
	int r = 1;

	memset(&opts, 0, sizeof(opts));
	if (!m) {
		fprintf(stderr, "gamefs: out of memory\n");
		fuse_opt_free_args(&args);
		return 1;
	}
	pthread_mutex_init(&m->lock, NULL);
	pthread_mutex_init(&m->notifier.mu, NULL);
	pthread_cond_init(&m->notifier.cv, NULL);
	pthread_mutex_init(&m->watch.mu, NULL);
	pthread_cond_init(&m->watch.cv, NULL);
	m->max_read = 128u << 10;
	m->ar = ar;
	if (fuse_parse_cmdline(&args, &opts) || !opts.mountpoint) {
		fprintf(stderr, "gamefs: bad mount options (see gamefs --help)\n");
		goto out_args;
	}
	gfs_special_nodes(m, ar);
	gfs_pick_max_read(m);
	{
		char opt[32];

		snprintf(opt, sizeof(opt), "-omax_read=%u", m->max_read);
		if (fuse_opt_add_arg(&args, opt))
			goto out_args;
	}
	m->ro = ar->readonly;	/* the kernel's mount is read-only too (main) */
	ar->node_gone = gfs_inode_gone;
	ar->node_gone_arg = m;
	se = fuse_session_new(&args, &gfs_ll_ops, sizeof(gfs_ll_ops), m);
	if (!se)
		goto out_args;
	if (!realpath(opts.mountpoint, mnt_real))
		mnt_real[0] = 0;
	if (fuse_session_mount(se, opts.mountpoint))
		goto out_new;
	gfs_raise_readahead(mnt_real);
	if (fuse_daemonize(opts.foreground))
		goto out_mount;
	/* after the fork: a slow check (a big game's CRC) runs beside the loop */
	pthread_mutex_lock(&m->lock);
	gfs_archive_start_checks(ar);
	pthread_mutex_unlock(&m->lock);
	if (fuse_set_signal_handlers(se))
		goto out_mount;
	/* -s is accepted as before: one thread serves anyway (gfs_serve) */
	r = gfs_notifier_start(m, se);
	if (r) {
		fprintf(stderr, "gamefs: cannot start a thread: %s\n", strerror(-r));
		goto out_signals;
	}
	gfs_watch_start(m);	/* every mount follows its archive (gfs_watch_reload) */
	r = gfs_serve(m, se);
	gfs_watch_stop(m);
	gfs_notifier_stop(m);
out_signals:
	fuse_remove_signal_handlers(se);
out_mount:
	fuse_session_unmount(se);
out_new:
	fuse_session_destroy(se);
out_args:
	pthread_mutex_lock(&m->lock);
	gfs_handles_free(m);
	*arp = m->ar ? m->ar : ar;	/* a read-only mount may have read a new file */
	(*arp)->node_gone = NULL;
	(*arp)->node_gone_arg = NULL;
	pthread_mutex_unlock(&m->lock);
	gfs_hidden_clear(&m->hid);
	for (size_t i = 0; i < m->icap; i++)
		for (struct gfs_inode *e = m->itab[i], *nx; e; e = nx) {
			nx = e->next;
			free(e);
		}
	free(m->itab);
	pthread_cond_destroy(&m->watch.cv);
	pthread_mutex_destroy(&m->watch.mu);
	pthread_cond_destroy(&m->notifier.cv);
	pthread_mutex_destroy(&m->notifier.mu);
	pthread_mutex_destroy(&m->lock);
	free(m);
	free(opts.mountpoint);
	fuse_opt_free_args(&args);
	return r ? 1 : 0;
}
