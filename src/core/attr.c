/*
 * What a mount's kernel is told of a node (gfs_fill_stat, gfs_entry), the
 * root's .gamefs.log and .gamefs.status, and the refusals a user is told of
 * (gfs_seen).
 */
#include <string.h>
#include <time.h>
#include "core/mnt.h"

/* The root's .gamefs.log (listed) and .gamefs.status (read by name). */
void gfs_special_nodes(struct gfs_mount *m, struct gfs_archive *ar)
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
int gfs_seen(struct gfs_mount *m, const char *op, struct gfs_node *d, const char *name, struct gfs_node *n, int r)
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

int gfs_is_hidden_name(const char *name)
{
	return !strncmp(name, GFS_HIDDEN_PREFIX, strlen(GFS_HIDDEN_PREFIX));
}

static uint64_t gfs_status_size(struct gfs_archive *ar)
{
	struct gfs_buf b = GFS_BUF_INIT;
	uint64_t len;

	gfs_status_render(ar, &b);
	len = b.len;
	gfs_buf_release(&b);
	return len;
}

void gfs_fill_stat(struct gfs_mount *m, struct gfs_archive *ar, struct gfs_node *n, struct stat *st)
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

/* The entry of n for the kernel (st: its attributes, st_ino its id), counted as a lookup. */
void gfs_entry(struct gfs_mount *m, struct gfs_node *n, struct stat *st)
{
	gfs_fill_stat(m, m->ar, n, st);
	gfs_inode_ref(m, n);
}
