/*
 * `gamefs pack DIR ARCHIVE`: an extracted (and edited) tree back into its
 * archive without FUSE, through the rules a mount applies (edit.c) and the
 * one commit engine (commit.c).
 *
 * Two passes.  The plan compares every file of DIR with the view it was
 * extracted from, before anything is stored: storing one view re-renders
 * the others (a map's CSV and its TMX), so a later comparison would take
 * the stale twin in DIR for an edit and undo the first.  Then the changed
 * files are written one by one in tree order, each parsed into the model
 * at once as a mount's close would, then the new files; the first refusal
 * stops everything before the commit, so the archive stays as it was.
 * With nothing changed there is no commit: the archive keeps its inode
 * and mtime.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gamefs.h"
#include "core/core.h"

/* Files of DIR larger than this are refused (the commit holds edits in memory or a memfd). */
#define GFS_PACK_FILE_MAX ((uint64_t)GFS_BUF_MAX)

/* One step of the plan: a changed file, a new file or a new directory. */
struct gfs_pack_step {
	struct gfs_node *node;		/* the changed file; NULL for a new one */
	char *path;			/* in the tree (and under DIR) */
	struct gfs_buf *data;		/* new content; NULL for a directory */
};

struct gfs_pack {
	struct gfs_archive *ar;
	FILE *msgs;
	struct gfs_pack_step *steps;
	size_t nsteps, cap;
	unsigned refused;		/* files that cannot be applied at all */
};

static int gfs_pack_say(struct gfs_pack *pk, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int gfs_pack_say(struct gfs_pack *pk, const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(pk->msgs, "gamefs: pack: %s: ", path);
	va_start(ap, fmt);
	vfprintf(pk->msgs, fmt, ap);
	va_end(ap);
	fputc('\n', pk->msgs);
	return 0;
}

static int gfs_pack_add(struct gfs_pack *pk, struct gfs_node *n, const char *path, struct gfs_buf *data)
{
	char *p = strdup(path);

	if (!p)
		return -ENOMEM;
	if (pk->nsteps == pk->cap) {
		size_t cap = pk->cap ? 2 * pk->cap : 16;
		struct gfs_pack_step *s = realloc(pk->steps, cap * sizeof(*s));

		if (!s) {
			free(p);
			return -ENOMEM;
		}
		pk->steps = s;
		pk->cap = cap;
	}
	pk->steps[pk->nsteps].node = n;
	pk->steps[pk->nsteps].path = p;
	pk->steps[pk->nsteps].data = data;
	pk->nsteps++;
	return 0;
}

/* The whole of the regular file name in dirfd into a new buffer. */
static int gfs_pack_read(int dirfd, const char *name, struct gfs_buf **out)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct gfs_buf *b;
	struct stat st;
	int r = 0;

	*out = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || (uint64_t)st.st_size > GFS_PACK_FILE_MAX) {
		r = errno ? -errno : -EFBIG;
		goto out_fd;
	}
	b = gfs_buf_new();
	if (!b || gfs_buf_set_len(b, (size_t)st.st_size)) {
		gfs_buf_free(b);
		r = -ENOMEM;
		goto out_fd;
	}
	for (size_t got = 0; got < b->len;) {
		ssize_t k = read(fd, b->data + got, b->len - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			r = k < 0 ? -errno : -EIO;	/* shrank while read */
			gfs_buf_free(b);
			goto out_fd;
		}
		got += (size_t)k;
	}
	*out = b;
out_fd:
	close(fd);
	return r;
}

static int gfs_pack_join(struct gfs_buf *p, const char *dir, const char *name)
{
	p->len = 0;
	if (dir[0] && (gfs_buf_add(p, dir, strlen(dir)) || gfs_buf_add(p, "/", 1)))
		return -ENOMEM;
	return gfs_buf_add(p, name, strlen(name) + 1) ? -ENOMEM : 0;
}

/* Is the file the same bytes as the view n? */
static int gfs_pack_same(struct gfs_archive *ar, struct gfs_node *n, const struct gfs_buf *b, int *same)
{
	struct gfs_buf v = GFS_BUF_INIT;
	uint64_t size;
	int r = gfs_node_size(ar, n, &size);

	*same = 0;
	if (r || size != b->len)
		return r;
	r = gfs_node_content(ar, n, &v);
	if (!r)
		*same = v.len == b->len && (!b->len || !memcmp(v.data, b->data, b->len));
	gfs_buf_release(&v);
	gfs_buf_free(n->cache);		/* one render at a time in memory */
	n->cache = NULL;
	return r;
}

static int gfs_pack_plan_dir(struct gfs_pack *pk, struct gfs_node *dir, int dirfd, const char *rel);

/* Everything under a directory of DIR the tree does not have: all new. */
static int gfs_pack_plan_new(struct gfs_pack *pk, int dirfd, const char *name, const char *path)
{
	struct stat st;
	int r, sub;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (S_ISREG(st.st_mode)) {
		struct gfs_buf *b;

		if ((r = gfs_pack_read(dirfd, name, &b)))
			return gfs_pack_say(pk, path, "cannot read: %s", strerror(-r)), pk->refused++, 0;
		r = gfs_pack_add(pk, NULL, path, b);
		if (r)
			gfs_buf_free(b);
		return r;
	}
	if (!S_ISDIR(st.st_mode))
		return gfs_pack_say(pk, path, "not a regular file or directory; not applied"), 0;
	if ((r = gfs_pack_add(pk, NULL, path, NULL)))
		return r;
	sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sub < 0)
		return gfs_pack_say(pk, path, "cannot open: %s", strerror(errno)), pk->refused++, 0;
	r = gfs_pack_plan_dir(pk, NULL, sub, path);
	close(sub);
	return r;
}

static int gfs_pack_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names DIR's directory dirfd has and the tree's dir does not, sorted by name. */
static int gfs_pack_plan_extra(struct gfs_pack *pk, struct gfs_node *dir, int dirfd, const char *rel,
			       struct gfs_buf *path)
{
	struct gfs_archive *ar = pk->ar;
	int self = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = self >= 0 ? fdopendir(self) : NULL;
	struct dirent *e;
	char **names = NULL;
	size_t nn = 0, cn = 0;
	int r = 0;

	if (!d) {
		r = -errno;
		if (self >= 0)
			close(self);
		return r;
	}
	while (!r && (e = readdir(d))) {
		char *c;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (dir && gfs_node_child(ar, dir, e->d_name))
			continue;
		/* editor leftovers never enter an archive */
		if (dir ? gfs_is_scratch_in(ar, dir, e->d_name) : gfs_is_scratch_name(e->d_name))
			continue;
		if (nn == cn) {
			char **nw = realloc(names, (cn ? 2 * cn : 8) * sizeof(*nw));

			if (!nw) {
				r = -ENOMEM;
				break;
			}
			names = nw;
			cn = cn ? 2 * cn : 8;
		}
		if (!(c = strdup(e->d_name)))
			r = -ENOMEM;
		else
			names[nn++] = c;
	}
	closedir(d);
	if (nn)
		qsort(names, nn, sizeof(*names), gfs_pack_cmp);
	for (size_t i = 0; i < nn; i++) {
		if (!r && !(r = gfs_pack_join(path, rel, names[i])))
			r = gfs_pack_plan_new(pk, dirfd, names[i], (char *)path->data);
		free(names[i]);
	}
	free(names);
	return r;
}

/* The files of DIR's directory dirfd against the tree's dir (NULL: not in the tree). */
static int gfs_pack_plan_dir(struct gfs_pack *pk, struct gfs_node *dir, int dirfd, const char *rel)
{
	struct gfs_archive *ar = pk->ar;
	struct gfs_buf path = GFS_BUF_INIT;
	int r = 0;

	if (dir && (r = gfs_dir_ready(ar, dir)))
		return gfs_pack_say(pk, rel[0] ? rel : ".", "cannot list the tree: %s",
				    ar->err[0] ? gfs_err_reason(ar) : strerror(-r)), pk->refused++, 0;
	/* the tree's files, in tree order */
	for (size_t i = 0; dir && i < dir->nkids && !r; i++) {
		struct gfs_node *k = dir->kids[i];
		struct gfs_buf *b = NULL;
		struct stat st;
		int same;

		if (k->flags & GFS_NODE_SCRATCH)
			continue;
		if ((r = gfs_pack_join(&path, rel, k->name)))
			break;
		if (fstatat(dirfd, k->name, &st, AT_SYMLINK_NOFOLLOW))
			continue;	/* not in DIR: kept as it is */
		if (S_ISDIR(k->mode) != S_ISDIR(st.st_mode) || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) {
			gfs_pack_say(pk, (char *)path.data, "is a %s in the tree", S_ISDIR(k->mode) ? "directory" : "file");
			pk->refused++;
			continue;
		}
		if (S_ISDIR(k->mode)) {
			int sub = openat(dirfd, k->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (sub < 0) {
				gfs_pack_say(pk, (char *)path.data, "cannot open: %s", strerror(errno));
				pk->refused++;
				continue;
			}
			r = gfs_pack_plan_dir(pk, k, sub, (char *)path.data);
			close(sub);
			continue;
		}
		if ((r = gfs_pack_read(dirfd, k->name, &b))) {
			gfs_pack_say(pk, (char *)path.data, "cannot read: %s", strerror(-r));
			pk->refused++;
			r = 0;
			continue;
		}
		ar->err[0] = 0;
		r = gfs_pack_same(ar, k, b, &same);
		if (r == -ENOMEM)
			;
		else if (r || same) {
			/* a view that cannot be produced is left alone: check reports it */
			r = 0;
		} else if (!(k->mode & 0200)) {
			gfs_pack_say(pk, (char *)path.data, "differs from its read-only view (a render); not applied");
		} else if (!(r = gfs_pack_add(pk, k, (char *)path.data, b)))
			b = NULL;
		gfs_buf_free(b);
	}
	if (!r)
		r = gfs_pack_plan_extra(pk, dir, dirfd, rel, &path);
	gfs_buf_release(&path);
	return r;
}

/* The store's refusal goes to msgs once, by pack, not to the log as well. */
static void gfs_pack_quiet(const char *msg)
{
	(void)msg;
}

static const char *gfs_pack_reason(struct gfs_archive *ar, int r)
{
	return ar->err[0] ? gfs_err_reason(ar) : strerror(-r);
}

/* One step of the plan, as a mount's create/mkdir, write and close make it. */
static int gfs_pack_apply(struct gfs_pack *pk, struct gfs_pack_step *s)
{
	struct gfs_archive *ar = pk->ar;
	struct gfs_node *n = s->node;
	int r;

	ar->err[0] = 0;
	if (!n) {
		char *slash = strrchr(s->path, '/');
		struct gfs_node *dir;

		if (slash)
			*slash = 0;
		dir = slash ? gfs_node_lookup(ar, s->path) : ar->root;
		if (slash)
			*slash = '/';
		if (!dir || !S_ISDIR(dir->mode))
			return gfs_pack_say(pk, s->path, "its directory is not in the archive"), -ENOENT;
		r = s->data ? gfs_edit_create(ar, dir, slash ? slash + 1 : s->path, &n)
			    : gfs_edit_mkdir(ar, dir, slash ? slash + 1 : s->path, &n);
		if (r == -EPERM && !ar->err[0])
			gfs_err(ar, r, "the %s format cannot create it", ar->fmt->name);
		if (r) {
			gfs_pack_say(pk, s->path, "cannot be created%s: %s",
				     r == -EPERM ? " (not supported yet)" : "", gfs_pack_reason(ar, r));
			return r;
		}
		if (!s->data)
			return 0;
	}
	r = gfs_edit_replace(ar, n, s->data->data, s->data->len);
	if (!r)
		r = gfs_archive_store(ar, n);
	if (r)
		gfs_pack_say(pk, s->path, "refused: %s", gfs_pack_reason(ar, r));
	return r;
}

/*
 * After the commit, the views of DIR that the new model draws otherwise (a
 * map's TMX after its CSV was packed, comments quoting an edited text) are
 * written anew, as a mount would show them: a later pack of DIR must not
 * take a stale twin for an edit and undo this one.  Each is replaced by
 * rename, with its view's mode.  Returns how many were, or -errno.
 */
static int gfs_pack_refresh(struct gfs_archive *ar, struct gfs_node *dir, int dirfd, FILE *msgs)
{
	int count = 0;

	if (gfs_dir_ready(ar, dir))
		return 0;
	for (size_t i = 0; i < dir->nkids; i++) {
		struct gfs_node *k = dir->kids[i];
		struct gfs_buf *b = NULL, v = GFS_BUF_INIT;
		char tmp[32];
		struct stat st;
		int same, fd, r;

		if ((k->flags & GFS_NODE_SCRATCH) || fstatat(dirfd, k->name, &st, AT_SYMLINK_NOFOLLOW) ||
		    S_ISDIR(k->mode) != S_ISDIR(st.st_mode))
			continue;
		if (S_ISDIR(k->mode)) {
			int sub = openat(dirfd, k->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (sub >= 0) {
				r = gfs_pack_refresh(ar, k, sub, msgs);
				count = r < 0 ? r : count + r;
				close(sub);
			}
			if (count < 0)
				return count;
			continue;
		}
		if (gfs_pack_read(dirfd, k->name, &b))
			continue;
		r = gfs_pack_same(ar, k, b, &same);
		gfs_buf_free(b);
		if (r || same || gfs_node_content(ar, k, &v))
			continue;
		snprintf(tmp, sizeof(tmp), ".gamefs-pack.%d", (int)getpid());
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		r = fd < 0 ? -errno : gfs_write_all(fd, v.data, v.len);
		if (fd >= 0) {
			if (!r && fchmod(fd, k->mode & 07777))
				r = -errno;
			if (close(fd) && !r)
				r = -errno;
		}
		if (!r && renameat(dirfd, tmp, dirfd, k->name))
			r = -errno;
		if (r) {
			unlinkat(dirfd, tmp, 0);
			fprintf(msgs, "gamefs: pack: %s: cannot write the new view: %s\n", k->name, strerror(-r));
		} else
			count++;
		gfs_buf_release(&v);
		gfs_buf_free(k->cache);
		k->cache = NULL;
	}
	return count;
}

int gfs_cmd_pack(struct gfs_archive *ar, const char *dir, FILE *msgs, size_t *napplied)
{
	struct gfs_pack pk = { .ar = ar, .msgs = msgs };
	void (*log)(const char *) = ar->log;
	unsigned bad = 0;
	int fd, r;

	*napplied = 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return gfs_err(ar, -errno, "%s: %s", dir, strerror(errno));
	r = gfs_pack_plan_dir(&pk, ar->root, fd, "");
	close(fd);
	if (r) {
		if (!ar->err[0])
			gfs_err(ar, r, "%s: %s", dir, strerror(-r));
		goto out;
	}
	if (pk.refused) {
		r = gfs_err(ar, -EINVAL, "%u file%s of %s refused; the archive is unchanged",
			    pk.refused, pk.refused == 1 ? "" : "s", dir);
		goto out;
	}
	if (!pk.nsteps)
		goto out;
	if (ar->readonly) {
		r = gfs_err(ar, -EROFS, "the archive is read-only (%s); %zu change%s not written",
			    ar->ro_reason[0] ? ar->ro_reason : "opened read-only", pk.nsteps,
			    pk.nsteps == 1 ? "" : "s");
		goto out;
	}
	ar->log = gfs_pack_quiet;
	for (size_t i = 0; i < pk.nsteps; i++)
		if (gfs_pack_apply(&pk, &pk.steps[i]))
			bad++;
	ar->log = log;
	if (bad) {
		r = gfs_err(ar, -EINVAL, "%u file%s refused; the archive is unchanged", bad, bad == 1 ? "" : "s");
		goto out;
	}
	r = gfs_archive_commit(ar);
	if (!r) {
		*napplied = pk.nsteps;
		fprintf(msgs, "gamefs: pack: %zu file%s of %s applied to %s\n", pk.nsteps,
			pk.nsteps == 1 ? "" : "s", dir, ar->path);
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			int k = gfs_pack_refresh(ar, ar->root, fd, msgs);

			if (k > 0)
				fprintf(msgs, "gamefs: pack: %d view%s of %s drawn anew from the new archive\n",
					k, k == 1 ? "" : "s", dir);
			close(fd);
		}
	}
out:
	ar->log = log;
	for (size_t i = 0; i < pk.nsteps; i++) {
		free(pk.steps[i].path);
		gfs_buf_free(pk.steps[i].data);
	}
	free(pk.steps);
	return r;
}
