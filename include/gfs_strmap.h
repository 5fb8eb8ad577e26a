/*
 * gfs_strmap.h - a map from byte strings to numbers, for parsers that must
 * stay linear in their input (names of a RELOAD document, labels of a
 * script, attributes of an XML element).
 *
 * The map copies each key into bytes of its own, so keys may point into
 * buffers that later move.  Lookups and insertions cost O(key length) on
 * average (open addressing, load at most 1/2).
 *
 *	struct gfs_strmap m = GFS_STRMAP_INIT;
 *	size_t *v;
 *	r = gfs_strmap_put(&m, key, len, &v);	// 1 new (*v == 0), 0 present, -ENOMEM
 *	if (r == 1) *v = index;
 *	if (gfs_strmap_get(&m, key, len, &index)) ...
 *	gfs_strmap_release(&m);
 */
#ifndef GFS_STRMAP_H
#define GFS_STRMAP_H

#include <stddef.h>
#include "gfs_buf.h"

struct gfs_strmap_slot;

struct gfs_strmap {
	struct gfs_strmap_slot *slot;
	size_t cap, n;		/* cap a power of two, or 0 */
	struct gfs_buf keys;	/* the keys' bytes, back to back */
};

#define GFS_STRMAP_INIT { NULL, 0, 0, GFS_BUF_INIT }

/*
 * Find key, adding it with value 0 when absent.  *val points at its value
 * until the next put.  1 when added, 0 when it was present, -ENOMEM.
 */
int gfs_strmap_put(struct gfs_strmap *m, const void *key, size_t len, size_t **val);
/* 1 and *val when key is present, 0 when not. */
int gfs_strmap_get(const struct gfs_strmap *m, const void *key, size_t len, size_t *val);
/* Free everything; the map is empty again. */
void gfs_strmap_release(struct gfs_strmap *m);

#endif
