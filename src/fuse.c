/*
 * The FUSE front end, on libfuse's low-level API: a translation layer over
 * a mount of the core (struct gfs_mount, gfs_mount.h), as squashfuse's ll.c
 * is over its library.  It knows no format and no policy: each request is
 * unpacked, served by one core call under the mount's lock, and answered.
 * The kernel's node ids are the tree's inode numbers; the core counts the
 * lookups FORGET drops.  Reads of stored assets are spliced from the
 * archive file.  The core's notifier thread sends the invalidations
 * (gfs_front below); one thread serves the requests (gfs_serve).
 */
#define FUSE_USE_VERSION 34
#include <errno.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include "gfs_fuse.h"
#include "gfs_mount.h"

#define GFS_TIMEOUT 1.0		/* entry and attribute timeouts */

/* A session's user data: the mount it serves and the session itself. */
struct gfs_fuse {
	struct gfs_mount *m;
	struct fuse_session *se;
	unsigned max_read;		/* the largest READ request: gfs_pick_max_read */
};

void gfs_fuse_log(const char *msg)
{
	gfs_mount_log(msg);
}

static struct gfs_mount *gfs_req_m(fuse_req_t req)
{
	return ((struct gfs_fuse *)fuse_req_userdata(req))->m;
}

static struct gfs_handle *gfs_fh(const struct fuse_file_info *fi)
{
	return fi ? (struct gfs_handle *)(uintptr_t)fi->fh : NULL;
}

/* ---- what the core's notifier sends ---------------------------------------------- */

static void gfs_send_inval_entry(void *ctx, uint64_t parent, const char *name)
{
	fuse_lowlevel_notify_inval_entry(ctx, parent, name, strlen(name));
}

static void gfs_send_inval_inode(void *ctx, uint64_t ino)
{
	fuse_lowlevel_notify_inval_inode(ctx, ino, 0, 0);
}

/* ---- replies ------------------------------------------------------------------------ */

static void gfs_reply_attr(fuse_req_t req, int r, const struct stat *st)
{
	if (r)
		fuse_reply_err(req, -r);
	else
		fuse_reply_attr(req, st, GFS_TIMEOUT);
}

static void gfs_entry_param(struct fuse_entry_param *e, const struct stat *st)
{
	memset(e, 0, sizeof(*e));
	e->ino = st->st_ino;
	e->attr_timeout = GFS_TIMEOUT;
	e->entry_timeout = GFS_TIMEOUT;
	e->attr = *st;
}

static void gfs_reply_entry(fuse_req_t req, int r, const struct stat *st)
{
	struct fuse_entry_param e;

	if (r) {
		fuse_reply_err(req, -r);
		return;
	}
	gfs_entry_param(&e, st);
	fuse_reply_entry(req, &e);
}

/* An open's answer in fi (which came zeroed but for its flags). */
static void gfs_fi_set(struct fuse_file_info *fi, const struct gfs_open *o)
{
	fi->fh = (uint64_t)(uintptr_t)o->h;
	fi->direct_io = o->direct_io;
	fi->keep_cache = o->keep_cache;
	fi->noflush = o->noflush;
}

/* The opener is gone (interrupted): its handle goes again. */
static void gfs_release_unreplied(struct gfs_mount *m, struct gfs_handle *h)
{
	gfs_mount_enter(m);
	gfs_mount_release(m, h);
	gfs_mount_leave(m);
}

static void gfs_reply_open(struct gfs_mount *m, fuse_req_t req, struct fuse_file_info *fi, int r,
			   const struct gfs_open *o)
{
	if (r) {
		fuse_reply_err(req, -r);
		return;
	}
	gfs_fi_set(fi, o);
	if (fuse_reply_open(req, fi) == -ENOENT)
		gfs_release_unreplied(m, o->h);
}

/* ---- the requests ------------------------------------------------------------------ */

static void gfs_ll_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct fuse_entry_param e;
	struct stat st;
	int r;

	gfs_mount_enter(m);
	r = gfs_mount_lookup(m, parent, name, &st);
	gfs_mount_leave(m);
	if (r == -ENOENT) {
		memset(&e, 0, sizeof(e));	/* a negative entry, not cached (timeout 0) */
		fuse_reply_entry(req, &e);
	} else {
		gfs_reply_entry(req, r, &st);
	}
}

static void gfs_ll_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	struct gfs_mount *m = gfs_req_m(req);

	gfs_mount_lock(m);
	gfs_mount_forget(m, ino, nlookup);
	gfs_mount_unlock(m);
	fuse_reply_none(req);
}

static void gfs_ll_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *fd)
{
	struct gfs_mount *m = gfs_req_m(req);

	gfs_mount_lock(m);
	for (size_t i = 0; i < count; i++)
		gfs_mount_forget(m, fd[i].ino, fd[i].nlookup);
	gfs_mount_unlock(m);
	fuse_reply_none(req);
}

static void gfs_ll_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct stat st;
	int r;

	gfs_mount_enter(m);
	r = gfs_mount_getattr(m, ino, gfs_fh(fi), &st);
	gfs_mount_leave(m);
	gfs_reply_attr(req, r, &st);
}

static void gfs_ll_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
			   struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	int set = (to_set & FUSE_SET_ATTR_SIZE ? GFS_SET_SIZE : 0) |
		  (to_set & FUSE_SET_ATTR_MTIME ? GFS_SET_MTIME : 0) |
		  (to_set & FUSE_SET_ATTR_MTIME_NOW ? GFS_SET_MTIME_NOW : 0);
	struct stat st;
	int r;

	gfs_mount_enter(m);
	r = gfs_mount_setattr(m, ino, gfs_fh(fi), attr, set, &st);
	gfs_mount_leave(m);
	gfs_reply_attr(req, r, &st);
}

/* OPEN and OPENDIR: the core's open, then the handle and the kernel's caching in the reply. */
static void gfs_ll_open_with(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
			     int (*op)(struct gfs_mount *, uint64_t, struct gfs_open *))
{
	struct gfs_mount *m = gfs_req_m(req);
	struct gfs_open o = { .flags = fi->flags };
	int r;

	gfs_mount_enter(m);
	r = op(m, ino, &o);
	gfs_mount_leave(m);
	gfs_reply_open(m, req, fi, r, &o);
}

static void gfs_ll_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	gfs_ll_open_with(req, ino, fi, gfs_mount_opendir);
}

/* Where readdir's entries go: the reply's buffer. */
struct gfs_dirbuf {
	fuse_req_t req;
	char *buf;
	size_t size, at;
	int plus;
};

static int gfs_dirent(void *ctx, const char *name, const struct stat *st, int entry, int64_t next)
{
	struct gfs_dirbuf *b = ctx;
	struct fuse_entry_param e;
	size_t sz;

	memset(&e, 0, sizeof(e));
	e.attr = *st;
	if (entry)
		gfs_entry_param(&e, st);
	sz = b->plus ? fuse_add_direntry_plus(b->req, b->buf + b->at, b->size - b->at, name, &e, next)
		     : fuse_add_direntry(b->req, b->buf + b->at, b->size - b->at, name, &e.attr, next);
	if (sz > b->size - b->at)
		return 1;
	b->at += sz;
	return 0;
}

static void gfs_ll_readdir_any(fuse_req_t req, size_t size, off_t off, struct fuse_file_info *fi, int plus)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct gfs_dirbuf b = { .req = req, .buf = malloc(size ? size : 1), .size = size, .plus = plus };
	int r;

	if (!b.buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	gfs_mount_enter(m);
	r = gfs_mount_readdir(m, gfs_fh(fi), off, plus, gfs_dirent, &b);
	gfs_mount_leave(m);
	if (r)
		fuse_reply_err(req, -r);
	else
		fuse_reply_buf(req, b.buf, b.at);
	free(b.buf);
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

static void gfs_ll_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	gfs_ll_open_with(req, ino, fi, gfs_mount_open);
}

static void gfs_ll_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
			  struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct gfs_open o = { .flags = fi->flags };
	struct fuse_entry_param e;
	struct stat st;
	int r;

	gfs_mount_enter(m);
	r = gfs_mount_create(m, parent, name, &o, &st);
	gfs_mount_leave(m);
	if (r) {
		fuse_reply_err(req, -r);
		return;
	}
	gfs_entry_param(&e, &st);
	gfs_fi_set(fi, &o);
	if (fuse_reply_create(req, &e, fi) == -ENOENT)
		gfs_release_unreplied(m, o.h);
}

static void gfs_ll_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct fuse_bufvec bv = FUSE_BUFVEC_INIT(size);
	struct gfs_read rd;
	int r;

	gfs_mount_lock(m);
	r = gfs_mount_read(m, ino, gfs_fh(fi), size, (uint64_t)off, &rd);
	gfs_mount_unlock(m);
	if (r) {
		fuse_reply_err(req, -r);
	} else if (!rd.mem) {	/* the archive's bytes, spliced */
		bv.buf[0].size = rd.len;
		bv.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK | FUSE_BUF_FD_RETRY;
		bv.buf[0].fd = rd.fd;
		bv.buf[0].pos = (off_t)rd.pos;
		fuse_reply_data(req, &bv, FUSE_BUF_SPLICE_MOVE);
	} else {
		fuse_reply_buf(req, rd.mem, rd.len);
		free(rd.mem);
	}
}

static void gfs_ll_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
			 struct fuse_file_info *fi)
{
	struct gfs_mount *m = gfs_req_m(req);
	int r;

	gfs_mount_enter(m);
	r = gfs_mount_write(m, gfs_fh(fi), buf, size, (uint64_t)off);
	gfs_mount_leave(m);
	if (r < 0)
		fuse_reply_err(req, -r);
	else
		fuse_reply_write(req, (size_t)r);
}

/* FLUSH and FSYNC: one core call on the handle, its errno the reply. */
static void gfs_ll_on_handle(fuse_req_t req, struct fuse_file_info *fi,
			     int (*op)(struct gfs_mount *, struct gfs_handle *))
{
	struct gfs_mount *m = gfs_req_m(req);
	int r;

	gfs_mount_enter(m);
	r = op(m, gfs_fh(fi));
	gfs_mount_leave(m);
	fuse_reply_err(req, -r);
}

static void gfs_ll_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	gfs_ll_on_handle(req, fi, gfs_mount_flush);
}

static void gfs_ll_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	gfs_release_unreplied(gfs_req_m(req), gfs_fh(fi));
	fuse_reply_err(req, 0);
}

static void gfs_ll_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	gfs_ll_on_handle(req, fi, gfs_mount_fsync);
}

/* UNLINK and RMDIR: one core call on the name, its errno the reply. */
static void gfs_ll_on_name(fuse_req_t req, fuse_ino_t parent, const char *name,
			   int (*op)(struct gfs_mount *, uint64_t, const char *))
{
	struct gfs_mount *m = gfs_req_m(req);
	int r;

	gfs_mount_enter(m);
	r = op(m, parent, name);
	gfs_mount_leave(m);
	fuse_reply_err(req, -r);
}

static void gfs_ll_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	gfs_ll_on_name(req, parent, name, gfs_mount_unlink);
}

static void gfs_ll_rename(fuse_req_t req, fuse_ino_t parent, const char *name, fuse_ino_t newparent,
			  const char *newname, unsigned int flags)
{
	struct gfs_mount *m = gfs_req_m(req);
	int r;

	gfs_mount_enter(m);
	r = gfs_mount_rename(m, parent, name, newparent, newname, flags);
	gfs_mount_leave(m);
	fuse_reply_err(req, -r);
}

static void gfs_ll_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct stat st;
	int r;

	gfs_mount_enter(m);
	r = gfs_mount_mkdir(m, parent, name, &st);
	gfs_mount_leave(m);
	gfs_reply_entry(req, r, &st);
}

static void gfs_ll_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	gfs_ll_on_name(req, parent, name, gfs_mount_rmdir);
}

static void gfs_ll_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct gfs_mount *m = gfs_req_m(req);
	struct statvfs sv;

	gfs_mount_lock(m);
	gfs_mount_statfs(m, &sv);
	gfs_mount_unlock(m);
	fuse_reply_statfs(req, &sv);
}

static void gfs_ll_init(void *userdata, struct fuse_conn_info *conn)
{
	struct gfs_fuse *f = userdata;

	if (conn->capable & FUSE_CAP_READDIRPLUS)
		conn->want |= FUSE_CAP_READDIRPLUS;
	conn->want &= ~(unsigned)FUSE_CAP_READDIRPLUS_AUTO;
	conn->max_readahead = conn->max_readahead > (1u << 20) ? conn->max_readahead : (1u << 20);
	conn->max_write = 1u << 20;
	conn->max_read = f->max_read;	/* as the mount option gfs_fuse_run gave */
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

/* ---- the session ------------------------------------------------------------------- */

/* The largest READ: up to 1 MiB, as far as a pipe may grow for its splice. */
static unsigned gfs_pick_max_read(void)
{
	unsigned long pmax = 1ul << 20;
	unsigned max_read = 128u << 10;
	FILE *f = fopen("/proc/sys/fs/pipe-max-size", "r");

	if (f) {
		if (fscanf(f, "%lu", &pmax) != 1)
			pmax = 1ul << 20;
		fclose(f);
	}
	while (max_read < (1u << 20) && 2ul * (2ul * max_read) <= pmax)
		max_read *= 2;
	return max_read;
}

/* One request, then what it left for this thread to finish (gfs_mount_after). */
/* not inlined: gfs_serve's pthread_cleanup_push (a setjmp) would see res clobbered */
static __attribute__((noinline)) void gfs_process(struct gfs_mount *m, struct fuse_session *se,
						  const struct fuse_buf *fb)
{
	fuse_session_process_buf(se, fb);
	gfs_mount_after(m);
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
	free(fb.mem);
	fuse_session_exit(se);
	return res < 0 ? -1 : 0;
}

int gfs_fuse_run(struct gfs_archive **arp, int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts opts;
	struct gfs_fuse f = { .max_read = gfs_pick_max_read() };
	struct gfs_front fe = { gfs_send_inval_entry, gfs_send_inval_inode, NULL };
	char mnt_real[PATH_MAX], opt[32];
	int r = 1;

	memset(&opts, 0, sizeof(opts));
	if (fuse_parse_cmdline(&args, &opts) || !opts.mountpoint) {
		fprintf(stderr, "gamefs: bad mount options (see gamefs --help)\n");
		goto out_args;
	}
	snprintf(opt, sizeof(opt), "-omax_read=%u", f.max_read);
	if (fuse_opt_add_arg(&args, opt))
		goto out_args;
	if (!(f.m = gfs_mount_new(*arp))) {
		fprintf(stderr, "gamefs: out of memory\n");
		goto out_args;
	}
	f.se = fuse_session_new(&args, &gfs_ll_ops, sizeof(gfs_ll_ops), &f);
	if (!f.se)
		goto out_m;
	if (!realpath(opts.mountpoint, mnt_real))
		mnt_real[0] = 0;
	if (fuse_session_mount(f.se, opts.mountpoint))
		goto out_new;
	gfs_raise_readahead(mnt_real);
	if (fuse_daemonize(opts.foreground))
		goto out_mount;
	if (fuse_set_signal_handlers(f.se))
		goto out_mount;
	/* -s is accepted as before: one thread serves anyway (gfs_serve) */
	fe.ctx = f.se;
	r = gfs_mount_start(f.m, &fe);
	if (r) {
		fprintf(stderr, "gamefs: cannot start a thread: %s\n", strerror(-r));
		goto out_signals;
	}
	r = gfs_serve(f.m, f.se);
	gfs_mount_stop(f.m);
out_signals:
	fuse_remove_signal_handlers(f.se);
out_mount:
	fuse_session_unmount(f.se);
out_new:
	fuse_session_destroy(f.se);
out_m:
	*arp = gfs_mount_free(f.m);	/* a read-only mount may have read a new file */
out_args:
	free(opts.mountpoint);
	fuse_opt_free_args(&args);
	return r ? 1 : 0;
}
