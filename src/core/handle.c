/*
 * A mount's open files (mnt.h): the handles, what an open reads (a render's
 * snapshot, the status, the log, the archive's bytes), writes, the commits
 * at flush, release and fsync, and whether the kernel's page cache of a
 * view may be kept across opens (gfs_cache_*).  A read-only open of a
 * rendered view takes a copy of the render (and is direct I/O): a commit
 * in the middle of a read never tears it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/mnt.h"

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
void gfs_handles_free(struct gfs_mount *m)
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
void gfs_handles_repoint(struct gfs_mount *m, struct gfs_archive *ar)
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

int gfs_attach(struct gfs_mount *m, struct gfs_node *n, struct gfs_open *o, int writable)
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
	o->h = h;
	/* a reader's close has nothing to commit: no FLUSH round trip for it */
	if (!writable)
		o->noflush = 1;
	return 0;
}

/* ---- .gamefs.status ------------------------------------------------------------- */

/* A read of the status without an open (a read-only mount): drawn for each read. */
static int gfs_status_read(struct gfs_mount *m, char *buf, size_t size, uint64_t off)
{
	struct gfs_buf b = GFS_BUF_INIT;
	size_t n = 0;

	gfs_status_render(m->ar, &b);
	if (off < b.len) {
		n = b.len - (size_t)off < size ? b.len - (size_t)off : size;
		memcpy(buf, b.data + off, n);
	}
	gfs_buf_release(&b);
	return (int)n;
}

/* An open of the status reads the status of that moment. */
static int gfs_open_status(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *n, struct gfs_open *o)
{
	struct gfs_buf *b = gfs_buf_new();
	int r;

	if (!b)
		return -ENOMEM;
	gfs_status_render(ar, b);
	r = gfs_attach(m, n, o, 0);
	if (r) {
		gfs_buf_free(b);
		return r;
	}
	o->h->snap = b;
	o->direct_io = 1;
	return 0;
}

/* ---- the kernel's page cache of a view -------------------------------------------- */

/* May this open of n, whose render is len bytes, read through the page cache? */
static int gfs_cache_open(struct gfs_mount *m, struct gfs_node *n, struct gfs_handle *h, uint64_t len,
			  struct gfs_open *o)
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
	o->keep_cache = keep;
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
void gfs_cache_foreign(struct gfs_mount *m, struct gfs_node *n, struct gfs_handle *h, struct gfs_open *o)
{
	if (!gfs_node_is_render(n)) {
		n->pc_gen = m->gen - 1;	/* a stored asset's pages: not kept (gfs_cache_stored) */
		return;
	}
	if (o->direct_io)
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
static void gfs_cache_stored(struct gfs_mount *m, struct gfs_node *n, struct gfs_open *o)
{
	if (n->writers || n->edit) {
		n->pc_gen = m->gen - 1;
		return;
	}
	o->keep_cache = n->pc_gen == m->gen && m->inval_done == m->inval_begun;
	n->pc_gen = m->gen;
}

static void gfs_cache_close(struct gfs_mount *m, struct gfs_node *n, struct gfs_handle *h)
{
	if (h->cached && !--n->pc_open)
		n->pc_closed = m->inval_begun;
}

/* ---- commits ---------------------------------------------------------------------- */

/*
 * commit=close: store and write now.  commit=unmount: still parse the edit
 * now (a bad one fails its close with EINVAL), write at unmount.
 */
int gfs_commit_now(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *closing)
{
	if (ar->readonly)
		return 0;
	m->changed = 1;
	return gfs_edit_commit(ar, closing);
}

/* An edit's result (gfs_edit_*): 1 is a change to commit. */
int gfs_committed(struct gfs_mount *m, struct gfs_archive *ar, int r, struct gfs_node *closing)
{
	return r > 0 ? gfs_commit_now(m, ar, closing) : r;
}

/* ---- opens -------------------------------------------------------------------------- */

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

void gfs_keep_was(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *n, uint64_t newsize)
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

/*
 * A read-only open of a render reads one whole render, whatever commits
 * meanwhile: it holds the node's cached render (no copy), which a commit
 * drops from the node but not from the opens holding it.
 */
static int gfs_open_snapshot(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *n, struct gfs_open *o)
{
	struct gfs_buf *b = NULL;
	int r = gfs_node_render_held(ar, n, &b);

	if (r)
		return r == -ENOMEM ? r : -EIO;
	r = gfs_attach(m, n, o, 0);
	if (r) {
		gfs_buf_free(b);
		return r;
	}
	o->h->snap = b;
	if (!gfs_cache_open(m, n, o->h, b->len, o))
		o->direct_io = 1;	/* the page cache may hold another render */
	return 0;
}

/*
 * An open that only writes (cp, dd, a shell's >) writes past the page cache:
 * each write goes from the writer's pages to us, with no page of the mount's
 * to allocate, fill and drop (a 384 MiB cp into the mount: 0.5-1.0 s instead
 * of 1.1-1.9 s here).  It cannot mmap, and reads nothing through its open;
 * the kernel drops cached pages of the range it writes.
 */
int gfs_write_only(const struct gfs_open *o)
{
	return (o->flags & O_ACCMODE) == O_WRONLY;
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
static void gfs_open_beside_writer(struct gfs_node *n, struct gfs_open *o, int writable)
{
	if (n->flags & GFS_NODE_SCRATCH)
		return;
	if (!writable && (n->writers || n->dirty)) {
		o->direct_io = 1;
		o->keep_cache = 0;
	} else if (writable && n->open_count > 1 && !o->h->append && gfs_write_only(o)) {
		o->direct_io = 0;
	}
}

int gfs_open_node(struct gfs_mount *m, struct gfs_node *n, struct gfs_open *o)
{
	struct gfs_archive *ar = m->ar;
	int acc = o->flags & O_ACCMODE, writable = acc != O_RDONLY, r;
	uint64_t size;

	/*
	 * A read-only mount has no writer whose close commits and no file that
	 * changes: ENOSYS makes the kernel open every file from now on without
	 * asking (no OPEN, no RELEASE), keep the page cache across opens, and
	 * send its reads with no handle (gfs_mount_read).  A `diff -r` of two
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
	if (writable && (o->flags & O_TRUNC)) {
		gfs_keep_was(m, ar, n, 0);
		if ((r = gfs_node_truncate(ar, n, 0)))
			return r;
	}
	if (n == m->status_node && !writable)
		return gfs_open_status(m, ar, n, o);
	if (n == m->log_node || gfs_write_only(o))
		o->direct_io = 1;
	else if (!writable && !n->edit && gfs_node_is_render(n))
		return gfs_open_snapshot(m, ar, n, o);
	else if (!n->edit && gfs_node_size(ar, n, &size))
		return -EIO;	/* a view that cannot be produced */
	r = gfs_attach(m, n, o, writable);
	if (!r && writable && (o->flags & O_APPEND)) {
		/*
		 * The kernel appends at the size it last heard, which a view
		 * drawn anew after a commit (a comment added) may have changed:
		 * append at the end of what we hold, past its page cache.
		 */
		o->h->append = 1;
		o->direct_io = 1;
	}
	if (!r)
		gfs_open_beside_writer(n, o, writable);
	if (!r && !writable && !gfs_node_is_render(n) && (n->flags & GFS_NODE_SPAN))
		gfs_cache_stored(m, n, o);
	else if (!r)
		gfs_cache_foreign(m, n, o->h, o);
	if (!r && !writable && !o->direct_io)
		o->h->paged = 1;
	return r;
}

int gfs_mount_open(struct gfs_mount *m, uint64_t ino, struct gfs_open *o)
{
	return gfs_open_node(m, gfs_node_of(m, ino), o);
}

/* ---- reads and writes ------------------------------------------------------------------ */

static int gfs_read_at(struct gfs_mount *m, struct gfs_handle *h, char *buf, size_t size, uint64_t off)
{
	ssize_t n;

	if (h->snap) {
		if (off >= h->snap->len)
			return 0;
		n = (ssize_t)(h->snap->len - off < size ? h->snap->len - off : size);
		memcpy(buf, h->snap->data + off, (size_t)n);
		return (int)n;
	}
	if (h->node == m->log_node)
		return (int)gfs_mount_log_read(buf, size, off);
	if (h->node == m->status_node)
		return gfs_status_read(m, buf, size, off);
	n = gfs_node_read(m->ar, h->node, buf, size, off);
	if (h->was && n >= 0 && (size_t)n < size && off + (uint64_t)n < h->was->len) {
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
 * Reads of unchanged stored assets: the front end is handed the archive's
 * fd so it can splice() the bytes to the kernel without copying them
 * through us.  The fd stays valid after the lock is dropped because a
 * commit retires old fds instead of closing them at once (gfs_retire_fd).
 * Small requests (random reads) are one pread and one reply: a splice
 * would cost three system calls (two splices and a vmsplice) for them.
 * With no handle (a read-only mount, where the kernel sends no OPEN:
 * gfs_open_node), a handle made for the node the kernel means.
 */
#define GFS_SPLICE_MIN ((size_t)32 << 10)

int gfs_mount_read(struct gfs_mount *m, uint64_t ino, struct gfs_handle *h, size_t size, uint64_t off,
		   struct gfs_read *rd)
{
	struct gfs_handle tmp;
	struct gfs_node *n;
	int got;

	memset(rd, 0, sizeof(*rd));
	if (!h) {
		memset(&tmp, 0, sizeof(tmp));
		tmp.node = gfs_node_of(m, ino);
		if (!tmp.node)
			return -ENOENT;
		h = &tmp;
	}
	n = h->node;
	if (size > GFS_SPLICE_MIN && !h->snap && gfs_node_is_stored(n)) {
		rd->len = off >= n->span_len ? 0 : (size_t)(n->span_len - off < size ? n->span_len - off : size);
		rd->fd = m->ar->fd;
		rd->pos = n->span_off + off;
		return 0;
	}
	if (!(rd->mem = malloc(size ? size : 1)))
		return -ENOMEM;
	got = gfs_read_at(m, h, rd->mem, size, off);
	if (got < 0) {
		free(rd->mem);
		rd->mem = NULL;
		return got;
	}
	rd->len = (size_t)got;
	return 0;
}

static int gfs_write_locked(struct gfs_mount *m, struct gfs_handle *h, const char *buf, size_t size, uint64_t off)
{
	if (!h)
		return -EROFS;	/* no open: a read-only mount (gfs_open_node) */
	if (!h->writable)
		return -EBADF;
	if (h->append && gfs_node_size(m->ar, h->node, &off))
		return -EIO;
	return (int)gfs_node_write(m->ar, h->node, buf, size, off);
}

int gfs_mount_write(struct gfs_mount *m, struct gfs_handle *h, const char *buf, size_t size, uint64_t off)
{
	return SEEN("write", NULL, NULL, h ? h->node : NULL, gfs_write_locked(m, h, buf, size, off));
}

/* ---- closes ------------------------------------------------------------------------------ */

static int gfs_flush_locked(struct gfs_mount *m, struct gfs_handle *h)
{
	struct gfs_archive *ar = m->ar;
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

int gfs_mount_flush(struct gfs_mount *m, struct gfs_handle *h)
{
	return SEEN("close", NULL, NULL, h ? h->node : NULL, gfs_flush_locked(m, h));
}

/* The last close of a handle. */
void gfs_mount_release(struct gfs_mount *m, struct gfs_handle *h)
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
		gfs_committed(m, ar, gfs_hidden_unlink(ar, &m->hid, n), NULL);
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

static int gfs_fsync_locked(struct gfs_mount *m, struct gfs_handle *h)
{
	struct gfs_archive *ar = m->ar;

	if (!h || !h->node || (h->node->flags & GFS_NODE_SCRATCH) || ar->readonly)
		return 0;
	m->changed = 1;
	/* durable in every commit mode: with commit=unmount too, fsync writes the archive */
	return gfs_archive_commit_ex(ar, h->node, 0);
}

int gfs_mount_fsync(struct gfs_mount *m, struct gfs_handle *h)
{
	return SEEN("fsync", NULL, NULL, h ? h->node : NULL, gfs_fsync_locked(m, h));
}
