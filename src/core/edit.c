/*
 * Edits as a mount makes them, for every front end (the FUSE layer and
 * `gamefs pack`): who may write a node, how a new file or directory comes
 * to be, what unlink, rmdir, truncate and rename do to the tree (editors'
 * scratch files, a save renamed over a file, an editor's backup), the
 * files hidden while open, and when an edit is written (DESIGN.md sections
 * 2 and 3).  Nothing here knows FUSE: tests/unit-core.c calls it directly.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gamefs.h"
#include "gfs_mount.h"

int gfs_edit_may_write(struct gfs_archive *ar, struct gfs_node *n)
{
	if (S_ISDIR(n->mode))
		return -EISDIR;
	if (ar->readonly)
		return -EROFS;
	if (!(n->mode & 0200))
		return -EACCES;
	return 0;
}

int gfs_edit_mkdir(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		   struct gfs_node **out)
{
	*out = NULL;
	if (gfs_node_child(ar, dir, name))
		return -EEXIST;
	if (ar->readonly)
		return -EROFS;
	if (!ar->fmt->mkdir)
		return gfs_err(ar, -EPERM, "the %s format cannot create directories", ar->fmt->name);
	ar->err[0] = 0;
	return ar->fmt->mkdir(ar, dir, name, out);
}

int gfs_edit_replace(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	ssize_t got;
	int r = gfs_edit_may_write(ar, n);

	if (r)
		return r;
	if ((r = gfs_node_truncate(ar, n, 0)))
		return r;
	if (!len)
		return 0;
	got = gfs_node_write(ar, n, data, len, 0);
	if (got < 0)
		return (int)got;
	return (size_t)got == len ? 0 : -EIO;
}

/* ---- what a mount's operations do to the tree, for any front end ---------- */

int gfs_node_is_render(const struct gfs_node *n)
{
	return n->ops && n->ops->render;
}

int gfs_node_is_stored(const struct gfs_node *n)
{
	return !n->edit && !gfs_node_is_render(n) && (n->flags & GFS_NODE_SPAN);
}

int gfs_node_is_view(const struct gfs_node *n)
{
	return !S_ISDIR(n->mode) && !(n->flags & GFS_NODE_SCRATCH) && !gfs_node_is_stored(n);
}

int gfs_edit_commit(struct gfs_archive *ar, struct gfs_node *closing)
{
	if (ar->readonly)
		return 0;
	if (ar->opts.commit != GFS_COMMIT_CLOSE)
		return closing ? gfs_archive_store(ar, closing) : 0;
	return gfs_archive_commit_ex(ar, closing, 0);
}

int gfs_edit_create_how(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
			unsigned how, struct gfs_node **out)
{
	struct gfs_node *n;
	int r;

	*out = NULL;
	if (strlen(name) > NAME_MAX)
		return -ENAMETOOLONG;
	if (gfs_node_child(ar, dir, name))
		return -EEXIST;
	if (ar->readonly)
		return -EROFS;
	if (gfs_is_scratch_in(ar, dir, name)) {
		n = gfs_node_new_scratch(ar, dir, name);
		if (!n)
			return -ENOMEM;
		*out = n;
		return 0;
	}
	if (!ar->fmt->create)
		return gfs_err(ar, -EPERM, "the %s format cannot create files", ar->fmt->name);
	ar->err[0] = 0;
	r = ar->fmt->create(ar, dir, name, &n);
	if (r)
		return r;
	/*
	 * A file made with O_EXCL (cp, cp -r) is empty, also when the format
	 * hands back a view that renders something (a board's elements.csv
	 * written into a copied board folder): what is written replaces all
	 * of it.  A shell's > keeps the view's start until its writes (a
	 * TirNanoG handler: an empty script stored at once would be refused
	 * as cut short).
	 */
	if ((how & GFS_EDIT_EXCL) && gfs_node_is_render(n) && (r = gfs_node_truncate(ar, n, 0)))
		return r;
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	*out = n;
	return 0;
}

int gfs_edit_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		    struct gfs_node **out)
{
	return gfs_edit_create_how(ar, dir, name, 0, out);
}

int gfs_edit_rmdir(struct gfs_archive *ar, struct gfs_node *n)
{
	if (!S_ISDIR(n->mode))
		return -ENOTDIR;
	if (ar->readonly)
		return -EROFS;
	if (!n->parent)
		return -EPERM;
	if (!ar->fmt->rmdir)
		return gfs_err(ar, -EPERM, "the %s format cannot remove directories", ar->fmt->name);
	ar->err[0] = 0;
	return ar->fmt->rmdir(ar, n) ? : 1;
}

int gfs_edit_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	int r;

	if (S_ISDIR(n->mode))
		return -EISDIR;
	if (n->flags & GFS_NODE_SCRATCH) {
		gfs_node_remove(ar, n);
		return gfs_archive_pending(ar) ? 1 : 0;
	}
	if (ar->readonly)
		return -EROFS;
	if (!ar->fmt->unlink)
		return gfs_err(ar, -EPERM, "the %s format cannot remove files", ar->fmt->name);
	ar->err[0] = 0;
	if ((r = ar->fmt->unlink(ar, n)))
		return r;
	return 1;
}

int gfs_edit_truncate(struct gfs_archive *ar, struct gfs_node *n, int64_t size)
{
	int r = gfs_edit_may_write(ar, n);

	if (r)
		return r;
	if (size < 0)
		return -EINVAL;
	if ((r = gfs_node_truncate(ar, n, (uint64_t)size)))
		return r;
	/* truncate(1) on a closed file is an edit of its own */
	return !n->writers && !(n->flags & GFS_NODE_SCRATCH) ? 1 : 0;
}

/*
 * src's content replaces dst's in place: same name, same position in the
 * archive (a tool saved a temporary file and renames it over the original).
 */
static int gfs_edit_replace_by(struct gfs_archive *ar, struct gfs_node *src, struct gfs_node *dst,
			       struct gfs_node **closing)
{
	int r;

	if ((r = gfs_edit_may_write(ar, dst)))
		return r;
	if ((r = gfs_node_take_content(ar, dst, src)))
		return r;
	if (src->flags & GFS_NODE_SCRATCH)
		gfs_node_remove(ar, src);
	else if ((r = ar->fmt->unlink(ar, src)))
		return r;
	*closing = dst;
	return 1;
}

/* Rename of a scratch file: over a file of the archive it replaces that file's content. */
static int gfs_edit_rename_scratch(struct gfs_archive *ar, struct gfs_node *src, struct gfs_node *dir,
				   const char *name, struct gfs_node *dst, struct gfs_node **closing)
{
	int r;

	if (dst && (dst->flags & GFS_NODE_SCRATCH)) {
		gfs_node_remove(ar, dst);
		dst = NULL;
	}
	if (!dst && gfs_is_scratch_in(ar, dir, name)) {
		gfs_node_move(ar, src, dir, name);
		return 0;
	}
	if (ar->readonly)
		return -EROFS;
	if (dst)
		return gfs_edit_replace_by(ar, src, dst, closing);
	if (!ar->fmt->create)
		return gfs_err(ar, -EPERM, "the %s format cannot create files", ar->fmt->name);
	if ((r = ar->fmt->create(ar, dir, name, &dst)))
		return r;
	if ((r = gfs_node_take_content(ar, dst, src)))
		return r;
	gfs_node_remove(ar, src);
	*closing = dst;
	return 1;
}

int gfs_edit_rename(struct gfs_archive *ar, struct gfs_node *src, struct gfs_node *dir,
		    const char *name, struct gfs_node *dst, struct gfs_node **closing)
{
	int r;

	*closing = NULL;
	if (!src->parent)
		return -ENOENT;
	if (dst == src)
		return 0;
	if (strlen(name) > NAME_MAX)
		return -ENAMETOOLONG;
	ar->err[0] = 0;
	if (src->flags & GFS_NODE_SCRATCH)
		return gfs_edit_rename_scratch(ar, src, dir, name, dst, closing);
	if (ar->readonly)
		return -EROFS;
	if (gfs_is_scratch_name(name) && !S_ISDIR(src->mode)) {
		/* an editor's backup (mv f f~): keep f, give the backup a copy */
		struct gfs_node *copy;

		if (dst && S_ISDIR(dst->mode))
			return -EISDIR;
		if (dst)
			gfs_node_remove(ar, dst);
		copy = gfs_node_new_scratch(ar, dir, name);
		return copy ? gfs_node_take_content(ar, copy, src) : -ENOMEM;
	}
	if (dst && !(dst->flags & GFS_NODE_SCRATCH) && !S_ISDIR(src->mode) && !S_ISDIR(dst->mode) &&
	    ar->fmt->unlink)
		return gfs_edit_replace_by(ar, src, dst, closing);
	if (!ar->fmt->rename)
		return gfs_err(ar, -EPERM, "the %s format cannot rename", ar->fmt->name);
	if (dst && S_ISDIR(dst->mode) != S_ISDIR(src->mode))
		return S_ISDIR(dst->mode) ? -EISDIR : -ENOTDIR;
	if (dst && (dst->flags & GFS_NODE_SCRATCH)) {
		gfs_node_remove(ar, dst);
	} else if (dst) {
		int (*del)(struct gfs_archive *, struct gfs_node *) =
			S_ISDIR(dst->mode) ? ar->fmt->rmdir : ar->fmt->unlink;

		if (!del)
			return -EPERM;
		if ((r = del(ar, dst)))
			return r;
	}
	if ((r = ar->fmt->rename(ar, src, dir, name)))
		return r;
	return 1;
}

int gfs_edit_remove_detached(struct gfs_archive *ar, struct gfs_node *n)
{
	if (n->flags & GFS_NODE_SCRATCH) {
		gfs_node_remove(ar, n);
		return 0;
	}
	if (!ar->fmt->unlink || ar->readonly) {
		gfs_warn(ar, "%s was removed while open, but %s archives cannot remove it: it stays",
			 n->name, ar->fmt->name);
		return 0;
	}
	ar->err[0] = 0;
	if (ar->fmt->unlink(ar, n)) {
		gfs_warn(ar, "%s stays: %s", n->name, gfs_err_reason(ar));
		return 0;
	}
	return 1;
}

/* ---- files removed while open: hidden, not gone ------------------------------- */

struct gfs_hidden {
	struct gfs_node *node;
	char *name;			/* its name before it was hidden */
	int closed;			/* hidden with no open handle: see gfs_hidden_reap */
	pthread_t by;			/* the thread that hid it */
};

int gfs_hide(struct gfs_archive *ar, struct gfs_hidden_set *hs, struct gfs_node *n, const char *hname)
{
	struct gfs_hidden *nh = realloc(hs->v, (hs->n + 1) * sizeof(*nh)), *h;
	char *name = strdup(n->name);

	if (nh)
		hs->v = nh;
	if (!nh || !name) {
		free(name);
		return -ENOMEM;
	}
	h = &hs->v[hs->n++];
	memset(h, 0, sizeof(*h));
	h->node = n;
	h->closed = !n->open_count;
	h->by = pthread_self();
	h->name = name;
	hs->closed |= !n->open_count;
	gfs_node_move(ar, n, n->parent, hname);
	return 0;
}

static void gfs_hidden_drop(struct gfs_hidden_set *hs, size_t i)
{
	free(hs->v[i].name);
	hs->v[i] = hs->v[--hs->n];
}

struct gfs_node *gfs_unhide(struct gfs_archive *ar, struct gfs_hidden_set *hs, struct gfs_node *dir,
			    const char *name, struct gfs_node *node)
{
	for (size_t i = 0; i < hs->n; i++) {
		struct gfs_node *n = hs->v[i].node;

		if (node ? n != node : (n->parent != dir || strcmp(hs->v[i].name, name)))
			continue;
		gfs_node_move(ar, n, n->parent, hs->v[i].name);
		gfs_hidden_drop(hs, i);
		return n;
	}
	return NULL;
}

void gfs_hidden_clear(struct gfs_hidden_set *hs)
{
	while (hs->n)
		gfs_hidden_drop(hs, 0);
	free(hs->v);
	memset(hs, 0, sizeof(*hs));
}

int gfs_hidden_unlink(struct gfs_archive *ar, struct gfs_hidden_set *hs, struct gfs_node *n)
{
	if (!gfs_unhide(ar, hs, NULL, NULL, n)) {
		gfs_node_remove(ar, n);		/* a scratch file that was hidden */
		return 0;
	}
	return gfs_edit_remove_detached(ar, n);
}

int gfs_hidden_reap(struct gfs_archive *ar, struct gfs_hidden_set *hs)
{
	int commit = 0;

	for (size_t i = 0; i < hs->n; i++) {
		struct gfs_hidden *h = &hs->v[i];

		if (!h->closed || !pthread_equal(h->by, pthread_self()))
			continue;
		h->closed = 0;
		if (h->node->open_count)
			continue;	/* opened by its hidden name since: its last close removes it */
		if (gfs_hidden_unlink(ar, hs, h->node) > 0)
			commit = 1;
		i = (size_t)-1;		/* entries moved: look again */
	}
	hs->closed = 0;
	return commit;
}

int gfs_hidden_is(const struct gfs_hidden_set *hs, const struct gfs_node *n)
{
	for (size_t i = 0; i < hs->n; i++)
		if (hs->v[i].node == n)
			return 1;
	return 0;
}
