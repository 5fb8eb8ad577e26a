/*
 * The nodes a mount's kernel knows (mnt.h): every node given to it (a
 * lookup, a readdirplus entry, create, mkdir) has an entry in the mount's
 * inode table with its lookup count, and gfs_mount_forget drops it.  A
 * node the core frees (gfs_archive.node_gone) leaves its entry without a
 * node until the kernel forgets it: an open of it is ESTALE, which makes
 * the kernel look the name up again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/mnt.h"

static struct gfs_inode **gfs_inode_slot(struct gfs_mount *m, uint64_t ino)
{
	struct gfs_inode **p = &m->itab[(ino * 0x9e3779b97f4a7c15ull >> 20) & (m->icap - 1)];

	while (*p && (*p)->ino != ino)
		p = &(*p)->next;
	return p;
}

struct gfs_inode *gfs_inode_find(struct gfs_mount *m, uint64_t ino)
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
void gfs_inode_ref(struct gfs_mount *m, struct gfs_node *n)
{
	struct gfs_inode **p, *e;

	if (n->ino == GFS_ROOT_INO)
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

void gfs_mount_forget(struct gfs_mount *m, uint64_t ino, uint64_t nlookup)
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
void gfs_inode_gone(void *arg, struct gfs_node *n)
{
	struct gfs_inode *e = gfs_inode_find(arg, n->ino);

	if (e && e->node == n)
		e->node = NULL;
}

/* The node the kernel means by ino, or NULL (forgotten, or freed by the core). */
struct gfs_node *gfs_node_of(struct gfs_mount *m, uint64_t ino)
{
	struct gfs_inode *e;

	if (ino == GFS_ROOT_INO)
		return m->ar->root;
	e = gfs_inode_find(m, ino);
	return e ? e->node : NULL;
}

/* The kernel's ids name the new archive's nodes of the same numbers. */
void gfs_inodes_repoint(struct gfs_mount *m, struct gfs_node *d)
{
	if (!d->parent)		/* the root: every id names nothing until found below */
		for (size_t i = 0; i < m->icap; i++)
			for (struct gfs_inode *e = m->itab[i]; e; e = e->next)
				e->node = NULL;
	for (size_t i = 0; i < d->nkids; i++) {
		struct gfs_inode *e = gfs_inode_find(m, d->kids[i]->ino);

		if (e)
			e->node = d->kids[i];
		if (S_ISDIR(d->kids[i]->mode))
			gfs_inodes_repoint(m, d->kids[i]);
	}
}

void gfs_inodes_free(struct gfs_mount *m)
{
	for (size_t i = 0; i < m->icap; i++)
		for (struct gfs_inode *e = m->itab[i], *nx; e; e = nx) {
			nx = e->next;
			free(e);
		}
	free(m->itab);
	m->itab = NULL;
	m->icap = m->icount = 0;
}
