/*
 * bench/floor.c - the least a FUSE file system can cost on this machine: a
 * read-only tree copied into memory at mount time and served with libfuse's
 * low-level API, every cache the kernel offers on (entries and attributes
 * for an hour, readdirplus, kept page cache, cached directory listings), no
 * path strings, no lock, nothing to decode.  bench/floor.sh times `diff -r`
 * through it beside gamefs and beside the same trees on disk: whatever this
 * costs over the disk, no FUSE file system here can do better.
 *
 *   floor [-o noopen] SRCDIR MOUNTPOINT
 *
 * noopen answers OPEN and OPENDIR with ENOSYS, so the kernel sends neither
 * again, nor RELEASE: a file system that must see writers open and close
 * (gamefs commits at the last close) cannot do that.
 *
 * Not part of gamefs: built by bench/floor.sh only.
 */
#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct node {
	char *name;
	struct stat st;
	char *data;		/* a small file's bytes */
	char *path;		/* a large file's, read by splice as gamefs reads the archive */
	fuse_ino_t parent;
	fuse_ino_t *kids;	/* a directory's entries, in readdir order */
	size_t nkids;
};

#define SMALL (64 << 10)	/* larger files stay on disk, opened with the mount's file */

static struct node *nodes;	/* nodes[ino - 1]; the root is inode 1 */
static size_t nnodes, cap;
static int noopen;

static fuse_ino_t add(const char *name, const struct stat *st, fuse_ino_t parent)
{
	if (nnodes == cap) {
		cap = cap ? cap * 2 : 1024;
		nodes = realloc(nodes, cap * sizeof(*nodes));
		if (!nodes)
			exit(1);
	}
	memset(&nodes[nnodes], 0, sizeof(nodes[nnodes]));
	nodes[nnodes].name = strdup(name);
	nodes[nnodes].st = *st;
	nodes[nnodes].st.st_ino = nnodes + 1;
	nodes[nnodes].parent = parent;
	return ++nnodes;
}

/* Copy the tree at path (already added as ino) into memory. */
static void load(const char *path, fuse_ino_t ino)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		perror(path);
		exit(1);
	}
	while ((e = readdir(d))) {
		char sub[4096];
		struct stat st;
		fuse_ino_t k;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (lstat(sub, &st) || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
			continue;
		k = add(e->d_name, &st, ino);
		nodes[ino - 1].kids = realloc(nodes[ino - 1].kids,
					      (nodes[ino - 1].nkids + 1) * sizeof(fuse_ino_t));
		if (!nodes[ino - 1].kids)
			exit(1);
		nodes[ino - 1].kids[nodes[ino - 1].nkids++] = k;
		if (S_ISDIR(st.st_mode)) {
			load(sub, k);
		} else {
			int fd;

			if (st.st_size > SMALL) {
				nodes[k - 1].path = strdup(sub);
				continue;
			}
			fd = open(sub, O_RDONLY);
			nodes[k - 1].data = malloc(st.st_size ? (size_t)st.st_size : 1);
			if (fd < 0 || !nodes[k - 1].data || read(fd, nodes[k - 1].data, (size_t)st.st_size) != st.st_size)
				exit(1);
			close(fd);
		}
	}
	closedir(d);
}

static struct node *get(fuse_ino_t ino)
{
	return ino >= 1 && ino <= nnodes ? &nodes[ino - 1] : NULL;
}

static void entry_of(fuse_ino_t ino, struct fuse_entry_param *e)
{
	memset(e, 0, sizeof(*e));
	e->ino = ino;
	e->attr = get(ino)->st;
	e->attr_timeout = 3600;
	e->entry_timeout = 3600;
}

static void fl_init(void *u, struct fuse_conn_info *conn)
{
	(void)u;
	/* as gamefs: 512 KiB requests spliced from the page cache of the source */
	conn->max_readahead = 1u << 20;
	conn->max_read = 512u << 10;	/* as the mount option says */
	if (conn->capable & FUSE_CAP_SPLICE_WRITE)
		conn->want |= FUSE_CAP_SPLICE_WRITE;
	if (conn->capable & FUSE_CAP_SPLICE_MOVE)
		conn->want |= FUSE_CAP_SPLICE_MOVE;
	if (conn->capable & FUSE_CAP_READDIRPLUS)
		conn->want |= FUSE_CAP_READDIRPLUS;
	conn->want &= ~(unsigned)FUSE_CAP_READDIRPLUS_AUTO;
}

static void fl_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct node *p = get(parent);
	struct fuse_entry_param e;

	for (size_t i = 0; p && i < p->nkids; i++)
		if (!strcmp(get(p->kids[i])->name, name)) {
			entry_of(p->kids[i], &e);
			fuse_reply_entry(req, &e);
			return;
		}
	fuse_reply_err(req, ENOENT);
}

static void fl_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)fi;
	if (!get(ino))
		fuse_reply_err(req, ENOENT);
	else
		fuse_reply_attr(req, &get(ino)->st, 3600);
}

static void fl_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct node *n = get(ino);

	if (noopen) {
		fuse_reply_err(req, ENOSYS);
		return;
	}
	fi->fh = 0;
	if (n && n->path) {
		int fd = open(n->path, O_RDONLY);

		if (fd < 0) {
			fuse_reply_err(req, errno);
			return;
		}
		fi->fh = (uint64_t)fd + 1;
	}
	fi->keep_cache = 1;
	fi->cache_readdir = 1;	/* meant for directories; files ignore it */
	fuse_reply_open(req, fi);
}

static void fl_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	if (fi->fh)
		close((int)fi->fh - 1);
	fuse_reply_err(req, 0);
}

static void fl_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct node *n = get(ino);

	if (!n || off >= n->st.st_size) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if ((off_t)size > n->st.st_size - off)
		size = (size_t)(n->st.st_size - off);
	if (!n->data) {
		struct fuse_bufvec bv = FUSE_BUFVEC_INIT(size);
		int fd = fi->fh ? (int)fi->fh - 1 : open(n->path, O_RDONLY);	/* noopen: no handle */

		if (fd < 0) {
			fuse_reply_err(req, errno);
			return;
		}
		bv.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK;
		bv.buf[0].fd = fd;
		bv.buf[0].pos = off;
		fuse_reply_data(req, &bv, FUSE_BUF_SPLICE_MOVE);
		if (!fi->fh)
			close(fd);
		return;
	}
	fuse_reply_buf(req, n->data + off, size);
}

static void fl_readdir_any(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, int plus)
{
	struct node *d = get(ino);
	char *buf = malloc(size);
	size_t used = 0;

	if (!d || !buf) {
		free(buf);
		fuse_reply_err(req, d ? ENOMEM : ENOENT);
		return;
	}
	/* offsets: 1 ".", 2 "..", 3.. the entries */
	for (off_t i = off; i < (off_t)d->nkids + 2; i++) {
		fuse_ino_t k = i == 0 ? ino : i == 1 ? (d->parent ? d->parent : ino) : d->kids[i - 2];
		const char *name = i == 0 ? "." : i == 1 ? ".." : get(k)->name;
		size_t len;

		if (plus) {
			struct fuse_entry_param e;

			entry_of(k, &e);
			if (i < 2)
				e.ino = 0;	/* no lookup count for . and .. */
			len = fuse_add_direntry_plus(req, buf + used, size - used, name, &e, i + 1);
		} else {
			len = fuse_add_direntry(req, buf + used, size - used, name, &get(k)->st, i + 1);
		}
		if (len > size - used)
			break;
		used += len;
	}
	fuse_reply_buf(req, buf, used);
	free(buf);
}

static void fl_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	(void)fi;
	fl_readdir_any(req, ino, size, off, 0);
}

static void fl_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			   struct fuse_file_info *fi)
{
	(void)fi;
	fl_readdir_any(req, ino, size, off, 1);
}

static const struct fuse_lowlevel_ops fl_ops = {
	.init = fl_init,
	.lookup = fl_lookup,
	.getattr = fl_getattr,
	.open = fl_open,
	.opendir = fl_open,
	.release = fl_release,
	.releasedir = fl_release,
	.read = fl_read,
	.readdir = fl_readdir,
	.readdirplus = fl_readdirplus,
};

/*
 * A 1 MiB read-ahead for the mount at real (the mount point's real path,
 * taken before the mount: after it, resolving it would ask this process),
 * as gamefs gives its own (root only).
 */
static void readahead_1m(char *real)
{
	char line[8192], dev[64] = "", path[256];
	FILE *f = fopen("/proc/self/mountinfo", "r");

	while (f && real && fgets(line, sizeof(line), f)) {
		char d[64], m[4096];

		if (sscanf(line, "%*s %*s %63s %*s %4095s", d, m) == 2 && !strcmp(m, real))
			snprintf(dev, sizeof(dev), "%s", d);	/* the last: ours */
	}
	if (f)
		fclose(f);
	free(real);
	snprintf(path, sizeof(path), "/sys/class/bdi/%s/read_ahead_kb", dev);
	if (dev[0] && (f = fopen(path, "w"))) {
		fputs("1024\n", f);
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_session *se;
	struct stat st;
	char *real;
	int a = 1, r;

	if (argc > 2 && !strcmp(argv[1], "-o") && !strcmp(argv[2], "noopen")) {
		noopen = 1;
		a = 3;
	}
	if (argc - a != 2 || stat(argv[a], &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "usage: floor [-o noopen] SRCDIR MOUNTPOINT\n");
		return 2;
	}
	/* real paths: the daemon runs in / */
	real = realpath(argv[a], NULL);
	if (!real)
		return 1;
	add("", &st, 0);
	load(real, 1);
	free(real);
	real = realpath(argv[a + 1], NULL);
	if (!real)
		return 1;
	fuse_opt_add_arg(&args, argv[0]);
	fuse_opt_add_arg(&args, "-oro,fsname=floor,default_permissions,max_read=524288");
	se = fuse_session_new(&args, &fl_ops, sizeof(fl_ops), NULL);
	if (!se || fuse_session_mount(se, real))
		return 1;
	readahead_1m(real);
	fuse_daemonize(0);
	r = fuse_session_loop(se);
	fuse_session_unmount(se);
	fuse_session_destroy(se);
	fuse_opt_free_args(&args);
	free(real);
	return r ? 1 : 0;
}
