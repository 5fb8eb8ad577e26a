/*
 * Edits as a mount makes them, for front ends without FUSE (`gamefs pack`):
 * who may write a node, how a new file or directory comes to be, how a
 * whole new content replaces a file.  The same rules as the FUSE layer's
 * open, create and mkdir, in the core so that both front ends can share
 * them.
 */
#include <errno.h>
#include <time.h>
#include "gamefs.h"

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

int gfs_edit_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		    struct gfs_node **out)
{
	struct gfs_node *n;
	int r;

	*out = NULL;
	if (gfs_node_child(ar, dir, name))
		return -EEXIST;
	if (gfs_is_scratch_in(ar, dir, name)) {
		n = gfs_node_new_scratch(ar, dir, name);
		if (!n)
			return -ENOMEM;
		*out = n;
		return 0;
	}
	if (ar->readonly)
		return -EROFS;
	if (!ar->fmt->create)
		return gfs_err(ar, -EPERM, "the %s format cannot create files", ar->fmt->name);
	ar->err[0] = 0;
	r = ar->fmt->create(ar, dir, name, &n);
	if (r)
		return r;
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	*out = n;
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
