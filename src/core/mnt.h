/*
 * mnt.h - a mount's state (struct gfs_mount) as the core's mount files
 * share it: inodes.c (the nodes the kernel knows), attr.c (what it is
 * told of them, the root's special files, refusals), inval.c (what the
 * kernel must drop, and the lock around every operation), handle.c (open
 * files, reads and writes, the page cache), ops.c (the operations on
 * names) and watch.c (the archive file followed).  A front end sees only
 * gfs_mount.h.
 */
#ifndef GFS_MNT_H
#define GFS_MNT_H

#include <pthread.h>
#include "gfs_mount.h"

#define GFS_HIDDEN_PREFIX ".fuse_hidden"	/* an open file unlinked: gfs_mount_unlink */
#define GFS_LOG_NAME ".gamefs.log"
#define GFS_STATUS_NAME ".gamefs.status"	/* what `gamefs status` reads */

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
	struct gfs_front fe;		/* how it sends them */
};

/* The thread that follows the archive file when it is replaced (gfs_watch_main). */
struct gfs_watcher {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop, running;
	pthread_t thread;
};

/*
 * A mount's whole state: the front end's requests, the notifier and the
 * watcher threads all reach it.
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
	struct gfs_inval gone;		/* names that left a directory the kernel knows, while it is served */
	int changed;			/* set under lock by operations that change the model */
	uint32_t gen, inval_begun, inval_done;	/* the page cache of renders: gfs_cache_open */
	struct gfs_notifier notifier;
	struct gfs_watcher watch;
};

/* inodes.c */
struct gfs_inode *gfs_inode_find(struct gfs_mount *m, uint64_t ino);
void gfs_inode_ref(struct gfs_mount *m, struct gfs_node *n);
void gfs_inode_gone(void *arg, struct gfs_node *n);
struct gfs_node *gfs_node_of(struct gfs_mount *m, uint64_t ino);
void gfs_inodes_repoint(struct gfs_mount *m, struct gfs_node *d);
void gfs_inodes_free(struct gfs_mount *m);

/* attr.c */
void gfs_fill_stat(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *n, struct stat *st);
void gfs_entry(struct gfs_mount *m, struct gfs_node *n, struct stat *st);
void gfs_special_nodes(struct gfs_mount *m, struct gfs_archive *ar);
int gfs_seen(struct gfs_mount *m, const char *op, struct gfs_node *d, const char *name,
	     struct gfs_node *n, int r);
/* expr, an operation's result, seen (gfs_seen) with the reason it leaves in ar->err */
#define SEEN(op, d, name, n, expr) ({ m->ar->err[0] = 0; gfs_seen(m, op, d, name, n, (expr)); })
int gfs_is_hidden_name(const char *name);

/* inval.c */
void gfs_name_gone(void *arg, struct gfs_node *dir, const char *name);
void gfs_inval_add_ino(struct gfs_inval *iv, uint64_t ino);
void gfs_inval_add_name(struct gfs_inval *iv, uint64_t parent, const char *name);
void gfs_inval_free(struct gfs_inval *iv);
void gfs_inval_run(struct gfs_mount *m, struct gfs_inval *iv, struct gfs_inval *renamed, uint32_t seq);
uint32_t gfs_views_changed(struct gfs_mount *m);
int gfs_notifier_start(struct gfs_mount *m, const struct gfs_front *fe);
void gfs_notifier_stop(struct gfs_mount *m);

/* handle.c */
void gfs_handles_free(struct gfs_mount *m);
void gfs_handles_repoint(struct gfs_mount *m, struct gfs_archive *ar);
int gfs_attach(struct gfs_mount *m, struct gfs_node *n, struct gfs_open *o, int writable);
int gfs_open_node(struct gfs_mount *m, struct gfs_node *n, struct gfs_open *o);
int gfs_write_only(const struct gfs_open *o);
void gfs_cache_foreign(struct gfs_mount *m, struct gfs_node *n, struct gfs_handle *h, struct gfs_open *o);
void gfs_keep_was(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *n, uint64_t newsize);
int gfs_commit_now(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *closing);
int gfs_committed(struct gfs_mount *m, struct gfs_archive *ar, int r, struct gfs_node *closing);

/* watch.c */
void gfs_watch_start(struct gfs_mount *m);
void gfs_watch_stop(struct gfs_mount *m);

#endif
