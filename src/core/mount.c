/*
 * What a mount adds around an archive (gfs_mount.h): the mount point that
 * would cover the archive, the replaced archive of a read-only mount, the
 * read-ahead raised, the record of refusals behind `gamefs status`,
 * desktop notifications and the recent messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "gfs_mount.h"
#include "core.h"

extern char **environ;

/* ---- a mount point over the archive's directory ------------------------------ */

/* Is dir (resolved) mnt (resolved) or below it?  Then say so in err. */
static int gfs_covers(const char *m, const char *dir, const char *what, const char *path,
		      char *err, size_t errlen)
{
	char *d = dir && dir[0] ? realpath(dir, NULL) : NULL;
	size_t ml = strlen(m) == 1 ? 0 : strlen(m);	/* "/" is every directory's parent */
	int r = 0;

	if (d && !strncmp(d, m, ml) && (d[ml] == 0 || d[ml] == '/')) {
		snprintf(err, errlen, "%s: the mount point %s %s %s directory %s: "
			 "a commit would write into the mount and wait for itself; "
			 "mount it elsewhere", path, m, d[ml] ? "holds" : "is", what, d);
		r = -ELOOP;
	}
	free(d);
	return r;
}

int gfs_mount_covers_archive(const struct gfs_archive *ar, const char *mnt, char *err, size_t errlen)
{
	char *m = realpath(mnt, NULL);
	const char *cd;
	int r;

	if (!m)
		return 0;
	r = gfs_covers(m, ar->dir, "the archive's", ar->path, err, errlen);
	for (size_t i = 0; !r && (cd = gfs_companion_dir(ar, i)); i++)
		r = gfs_covers(m, cd, "its companion file's", ar->path, err, errlen);
	free(m);
	return r;
}

/* ---- a read-only mount's archive replaced --------------------------------- */

int gfs_archive_replaced(const struct gfs_archive *ar, struct stat *now)
{
	if (!ar->dir[0] || stat(ar->path, now) || !S_ISREG(now->st_mode))
		return 0;
	return !gfs_stat_same(now, &ar->st);
}

int gfs_archive_reopen(const struct gfs_archive *old, struct gfs_archive **out, char *err, size_t errlen)
{
	struct gfs_opts o = old->opts;
	struct gfs_archive *ar;
	int r;

	o.readonly = 1;		/* never a journal recovery nor a lock: it stays read-only */
	r = gfs_archive_open(old->path, &o, &ar, err, errlen);
	if (r)
		return r;
	ar->readonly = 1;
	if (!ar->ro_reason[0])
		memcpy(ar->ro_reason, old->ro_reason, sizeof(ar->ro_reason));
	ar->log = old->log;
	*out = ar;
	return 0;
}

int gfs_archive_take_writer(struct gfs_archive *old, struct gfs_archive *ar)
{
	if (old->readonly || ar->ro_reason[0])
		return 0;	/* no writer to pass on, or the new file is damaged: read-only */
	flock(old->fd, LOCK_UN);
	if (gfs_archive_lock(ar)) {
		flock(old->fd, LOCK_EX | LOCK_NB);
		return -EBUSY;
	}
	ar->readonly = 0;
	ar->opts.readonly = 0;
	return 0;
}

void gfs_archive_close_into(struct gfs_archive *old, struct gfs_archive *ar)
{
	if (old->fd >= 0) {
		gfs_retire_fd(ar, old->fd);
		old->fd = -1;
	}
	for (size_t i = 0; i < sizeof(old->retired_fd) / sizeof(old->retired_fd[0]); i++)
		if (old->retired_fd[i] >= 0) {
			gfs_retire_fd(ar, old->retired_fd[i]);
			old->retired_fd[i] = -1;
		}
	gfs_archive_close(old);
}

/* ---- read-ahead ---------------------------------------------------------- */

/*
 * The kernel reads a FUSE file ahead 128 KiB at a time whatever the init
 * reply asks; a read-ahead of 1 MiB makes a first read of a big asset a
 * third faster (bench/readahead.sh).  Only root may raise it: on the
 * mount's own backing device (its major:minor, from mountinfo rather than
 * a stat of the mount point, which the serving thread would have to
 * answer; want is the mount point's real path, taken before the mount).
 */
void gfs_raise_readahead(const char *want)
{
	char line[2 * PATH_MAX], dev[32] = "", path[64];
	FILE *f;

	if (geteuid() != 0 || !want[0] || !(f = fopen("/proc/self/mountinfo", "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char d[32], mnt[2 * PATH_MAX], *o = mnt;

		if (sscanf(line, "%*s %*s %31s %*s %4095s", d, mnt) != 2)
			continue;
		for (const char *p = mnt; *p; p++, o++) {	/* mountinfo writes ' ' as \040 */
			if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] && p[3]) {
				*o = (char)(((p[1] - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0'));
				p += 3;
			} else {
				*o = *p;
			}
		}
		*o = 0;
		if (!strcmp(mnt, want))
			snprintf(dev, sizeof(dev), "%s", d);	/* the last: ours, mounted just now */
	}
	fclose(f);
	if (!dev[0] || strchr(dev, '/'))
		return;
	snprintf(path, sizeof(path), "/sys/class/bdi/%s/read_ahead_kb", dev);
	f = fopen(path, "r+");
	if (f) {
		unsigned kb = 0;

		if (fscanf(f, "%u", &kb) == 1 && kb < 1024) {
			rewind(f);
			fprintf(f, "1024\n");
		}
		fclose(f);
	}
}

/* ---- refusals -------------------------------------------------------------- */

struct gfs_refusal {
	time_t when;
	char op[16];
	int err;
	char path[256];
	char reason[512];
};

static struct {
	pthread_mutex_t mu;
	struct gfs_refusal kept[GFS_REFUSALS_KEPT];
	unsigned long n;		/* since the mount; kept[n % KEPT] is the next */
	int begun;
	struct stat mounted;		/* the archive file the mount began with */
} gfs_refusals = { .mu = PTHREAD_MUTEX_INITIALIZER };

void gfs_status_begin(const struct gfs_archive *ar)
{
	pthread_mutex_lock(&gfs_refusals.mu);
	if (!gfs_refusals.begun)
		gfs_refusals.mounted = ar->st;
	gfs_refusals.begun = 1;
	pthread_mutex_unlock(&gfs_refusals.mu);
}

/* The errors a user must hear about: the archive or the edit said no. */
static int gfs_is_refusal(int err)
{
	switch (-err) {
	case EINVAL: case EBUSY: case ENOSPC: case EIO: case EFBIG: case ENAMETOOLONG:
	case EPERM: case ENOTSUP: case EDQUOT: case ENOTEMPTY: case EBADMSG: case ENOMEM:
		return 1;
	default:
		return 0;
	}
}

static const char *gfs_errno_name(int err)
{
	switch (-err) {
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case ENOSPC: return "ENOSPC";
	case EIO: return "EIO";
	case EFBIG: return "EFBIG";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case EPERM: return "EPERM";
	case ENOTSUP: return "ENOTSUP";
	case EDQUOT: return "EDQUOT";
	case ENOTEMPTY: return "ENOTEMPTY";
	case EBADMSG: return "EBADMSG";
	case ENOMEM: return "ENOMEM";
	default: return "error";
	}
}

int gfs_status_refused(struct gfs_archive *ar, const char *op, const char *path, int err)
{
	struct gfs_refusal *f;
	char summary[128], body[900];

	if (!gfs_is_refusal(err))
		return 0;
	pthread_mutex_lock(&gfs_refusals.mu);
	f = &gfs_refusals.kept[gfs_refusals.n++ % GFS_REFUSALS_KEPT];
	f->when = time(NULL);
	f->err = err;
	snprintf(f->op, sizeof(f->op), "%s", op);
	snprintf(f->path, sizeof(f->path), "%s", path && path[0] == '/' ? path + 1 : path ? path : "?");
	snprintf(f->reason, sizeof(f->reason), "%s", ar->err[0] ? gfs_err_reason(ar) : strerror(-err));
	snprintf(body, sizeof(body), "%s of %s refused (%s): %s\n"
		 "The archive is unchanged.  gamefs status or .gamefs.log at the mount's root say more.",
		 f->op, f->path, gfs_errno_name(err), f->reason);
	pthread_mutex_unlock(&gfs_refusals.mu);
	snprintf(summary, sizeof(summary), "gamefs: %s: an edit was refused", ar->base ? ar->base : "?");
	gfs_notify(summary, body);
	return 1;
}

static void gfs_stamp(char *buf, size_t len, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The files with an edit not yet in the archive (not populating anything). */
static void gfs_status_pending(struct gfs_node *d, struct gfs_buf *out, size_t *count)
{
	for (size_t i = 0; i < d->nkids; i++) {
		struct gfs_node *n = d->kids[i];
		const char *what;

		if (S_ISDIR(n->mode)) {
			gfs_status_pending(n, out, count);
			continue;
		}
		if (n->flags & GFS_NODE_SCRATCH)
			continue;
		what = n->writers ? "being written" : n->dirty ? "edited, not yet parsed" :
		       n->modified ? "parsed, not yet written" : NULL;
		if (!what)
			continue;
		(*count)++;
		gfs_buf_add(out, "  ", 2);
		gfs_node_path(n, out);
		gfs_buf_printf(out, "  (%s)\n", what);
	}
}

int gfs_status_render(struct gfs_archive *ar, struct gfs_buf *out)
{
	struct gfs_buf pend = GFS_BUF_INIT;
	size_t npend = 0;
	unsigned long n, first;
	char when[32];

	gfs_buf_printf(out, "archive: %s (%s, %s, commit=%s)\n", ar->path, ar->fmt ? ar->fmt->name : "?",
		       ar->readonly ? "read-only" : "read-write",
		       ar->opts.commit == GFS_COMMIT_UNMOUNT ? "unmount" : "close");
	if (ar->readonly && ar->ro_reason[0])
		gfs_buf_printf(out, "read-only: %s\n", ar->ro_reason);
	gfs_stamp(when, sizeof(when), ar->st.st_mtim.tv_sec);
	pthread_mutex_lock(&gfs_refusals.mu);
	if (ar->readonly || !gfs_refusals.begun || (ar->st.st_ino == gfs_refusals.mounted.st_ino &&
						    ar->st.st_dev == gfs_refusals.mounted.st_dev))
		gfs_buf_printf(out, "last commit: none by this mount (the archive file: %s, %lld bytes)\n",
			       when, (long long)ar->st.st_size);
	else
		gfs_buf_printf(out, "last commit: %s, %lld bytes\n", when, (long long)ar->st.st_size);
	pthread_mutex_unlock(&gfs_refusals.mu);
	gfs_status_pending(ar->root, &pend, &npend);
	if (ar->changed && !npend)
		npend++;
	gfs_buf_printf(out, "pending edits: %zu%s\n", npend,
		       ar->changed ? " (files made, renamed or removed: written at the next commit)" : "");
	if (pend.len)
		gfs_buf_add(out, pend.data, pend.len);
	gfs_buf_release(&pend);
	pthread_mutex_lock(&gfs_refusals.mu);
	n = gfs_refusals.n;
	first = n > GFS_REFUSALS_KEPT ? n - GFS_REFUSALS_KEPT : 0;
	gfs_buf_printf(out, "refusals: %lu%s\n", n, first ? " (the newest are listed)" : "");
	for (unsigned long i = first; i < n; i++) {
		const struct gfs_refusal *f = &gfs_refusals.kept[i % GFS_REFUSALS_KEPT];

		gfs_stamp(when, sizeof(when), f->when);
		gfs_buf_printf(out, "  %s %s %s: %s: %s\n", when, f->op, f->path, gfs_errno_name(f->err),
			       f->reason);
	}
	pthread_mutex_unlock(&gfs_refusals.mu);
	return 0;
}

/* ---- desktop notifications ------------------------------------------------ */

static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int started, waiting;
	char summary[128];
	char body[1024];
} gfs_notice = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

/* s as GVariant text: a double-quoted string, escaped. */
static void gfs_gvariant_string(char *dst, size_t len, const char *s)
{
	size_t o = 0;

	if (len < 3)
		return;
	dst[o++] = '"';
	for (; *s && o + 4 < len; s++) {
		if (*s == '"' || *s == '\\') {
			dst[o++] = '\\';
			dst[o++] = *s;
		} else if (*s == '\n') {
			dst[o++] = '\\';
			dst[o++] = 'n';
		} else if ((unsigned char)*s >= 0x20) {
			dst[o++] = *s;
		}
	}
	dst[o++] = '"';
	dst[o] = 0;
}

/* Is there a session bus to tell?  (the daemon keeps its mounter's environment) */
static int gfs_session_bus(void)
{
	const char *a = getenv("DBUS_SESSION_BUS_ADDRESS"), *rt = getenv("XDG_RUNTIME_DIR");
	char path[PATH_MAX];
	struct stat st;

	if (a && a[0])
		return 1;
	if (!rt || !rt[0])
		return 0;
	snprintf(path, sizeof(path), "%s/bus", rt);
	return !stat(path, &st) && S_ISSOCK(st.st_mode);
}

static int gfs_run(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, r;

	/* its answer (the notice's number) is no message of ours */
	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void gfs_notify_send(const char *summary, const char *body)
{
	char s[300], b[2200];
	char *gdbus[] = { "gdbus", "call", "--session", "--timeout", "5",
			  "--dest", "org.freedesktop.Notifications",
			  "--object-path", "/org/freedesktop/Notifications",
			  "--method", "org.freedesktop.Notifications.Notify",
			  "gamefs", "0", "dialog-warning", s, b, "[]", "{}", "10000", NULL };
	char *ns[] = { "notify-send", "-a", "gamefs", "-i", "dialog-warning", (char *)summary,
		       (char *)body, NULL };

	gfs_gvariant_string(s, sizeof(s), summary);
	gfs_gvariant_string(b, sizeof(b), body);
	if (gfs_run(gdbus) < 0)		/* no gdbus: notify-send, if there is one */
		gfs_run(ns);
}

static void *gfs_notice_main(void *unused)
{
	char summary[sizeof(gfs_notice.summary)], body[sizeof(gfs_notice.body)];

	(void)unused;
	pthread_mutex_lock(&gfs_notice.mu);
	for (;;) {
		while (!gfs_notice.waiting)
			pthread_cond_wait(&gfs_notice.cv, &gfs_notice.mu);
		memcpy(summary, gfs_notice.summary, sizeof(summary));
		memcpy(body, gfs_notice.body, sizeof(body));
		gfs_notice.waiting = 0;
		pthread_mutex_unlock(&gfs_notice.mu);
		gfs_notify_send(summary, body);
		pthread_mutex_lock(&gfs_notice.mu);
	}
	return NULL;
}

void gfs_notify(const char *summary, const char *body)
{
	pthread_t t;

	if (!gfs_session_bus())
		return;
	pthread_mutex_lock(&gfs_notice.mu);
	snprintf(gfs_notice.summary, sizeof(gfs_notice.summary), "%s", summary);
	snprintf(gfs_notice.body, sizeof(gfs_notice.body), "%s", body);
	gfs_notice.waiting = 1;
	/* started at the first notice: a daemon's threads do not survive its fork */
	if (!gfs_notice.started && !pthread_create(&t, NULL, gfs_notice_main, NULL)) {
		pthread_detach(t);
		gfs_notice.started = 1;
	}
	pthread_cond_signal(&gfs_notice.cv);
	pthread_mutex_unlock(&gfs_notice.mu);
}

/* ---- the recent messages (a mount's .gamefs.log) ---------------------------- */

#define GFS_LOG_MAX (64 * 1024)

static struct {
	pthread_mutex_t mu;
	char text[GFS_LOG_MAX];
	size_t len;
	struct timespec time;
} gfs_log = { .mu = PTHREAD_MUTEX_INITIALIZER };

void gfs_mount_log(const char *msg)
{
	size_t len = strlen(msg);
	char stamp[32];
	struct tm tm;
	size_t slen;

	pthread_mutex_lock(&gfs_log.mu);
	clock_gettime(CLOCK_REALTIME, &gfs_log.time);
	gmtime_r(&gfs_log.time.tv_sec, &tm);
	slen = strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ ", &tm);
	if (slen + len + 1 > GFS_LOG_MAX / 2)
		len = GFS_LOG_MAX / 2 - slen - 1;
	if (gfs_log.len + slen + len + 1 > GFS_LOG_MAX) {
		/* drop the oldest whole lines */
		size_t cut = gfs_log.len + slen + len + 1 - GFS_LOG_MAX;
		char *nl = memchr(gfs_log.text + cut, '\n', gfs_log.len - cut);

		cut = nl ? (size_t)(nl - gfs_log.text) + 1 : gfs_log.len;
		memmove(gfs_log.text, gfs_log.text + cut, gfs_log.len - cut);
		gfs_log.len -= cut;
	}
	memcpy(gfs_log.text + gfs_log.len, stamp, slen);
	memcpy(gfs_log.text + gfs_log.len + slen, msg, len);
	gfs_log.len += slen + len;
	gfs_log.text[gfs_log.len++] = '\n';
	pthread_mutex_unlock(&gfs_log.mu);
}

size_t gfs_mount_log_read(char *buf, size_t size, uint64_t off)
{
	size_t n = 0;

	pthread_mutex_lock(&gfs_log.mu);
	if (off < gfs_log.len) {
		n = gfs_log.len - (size_t)off < size ? gfs_log.len - (size_t)off : size;
		memcpy(buf, gfs_log.text + off, n);
	}
	pthread_mutex_unlock(&gfs_log.mu);
	return n;
}

size_t gfs_mount_log_size(struct timespec *when)
{
	size_t len;

	pthread_mutex_lock(&gfs_log.mu);
	len = gfs_log.len;
	*when = gfs_log.time;
	pthread_mutex_unlock(&gfs_log.mu);
	return len;
}
