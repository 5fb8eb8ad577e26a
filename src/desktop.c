/*
 * The desktop's commands (see desktop.h).
 *
 * thumbnail: the core's gfs_cmd_thumbnail() on an archive opened
 * read-only; it reads nothing but the archive (GNOME runs thumbnailers in
 * a sandbox that holds only that file).
 *
 * open: a mount where GIO and the file manager list it.  GLib shows a
 * user's FUSE mount in the sidebar when it lies under /run/media/USER
 * (any /run/media/ path for root), /media or the home directory, with no
 * dot directory in its path (g_unix_mount_guess_should_display).  Root
 * gets /run/media/root/NAME (where udisks mounts for it); another user,
 * who cannot write /run/media, ~/gamefs/NAME; $GAMEFS_MOUNT_DIR chooses
 * another directory.  NAME is the archive's file name.  The mount is
 * `gamefs -f ARCHIVE MOUNTPOINT` under a small supervisor that outlives
 * `open` and, when the daemon exits, writes its exit status beside the
 * mount point (.NAME.gamefs-exit, with the daemon's messages in
 * .NAME.gamefs-log), so that close can report a failed last commit.
 *
 * close: unmounts (fusermount3 -u), waits for the daemon to finish its
 * last commit and exit, reports its failure, and removes the mount point
 * and the two files open made.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "gamefs.h"
#include "desktop.h"

#define GFS_THUMB_MAX 4096u		/* largest SIZE (freedesktop's biggest is 1024) */
#define GFS_OPEN_WAIT_MS 30000		/* for the mount to appear */
#define GFS_CLOSE_WAIT_MS 600000	/* for the daemon's last commit */
#define GFS_POLL_MS 20
#define GFS_MAX_CLASH 99		/* NAME (2) ... NAME (99) */
#define GFS_FSTYPE "fuse.gamefs"

int gfs_desktop_cmd(const char *cmd)
{
	return !strcmp(cmd, "thumbnail") || !strcmp(cmd, "open") || !strcmp(cmd, "close");
}

static void gfs_desktop_usage(void)
{
	fprintf(stderr, "usage: gamefs thumbnail ARCHIVE OUT.png SIZE\n"
		"       gamefs open [-n] [-o OPT[,OPT...]] ARCHIVE\n"
		"       gamefs close MOUNTPOINT\n");
}

static void gfs_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- thumbnail ----------------------------------------------------------- */

static int gfs_thumbnail(int argc, char **argv)
{
	struct gfs_opts o = { 0 };
	struct gfs_archive *ar;
	char err[600], *end;
	unsigned long size;
	int r;

	if (argc != 5) {
		gfs_desktop_usage();
		return 2;
	}
	errno = 0;
	size = strtoul(argv[4], &end, 10);
	if (errno || *end || !size || size > GFS_THUMB_MAX) {
		fprintf(stderr, "gamefs: thumbnail: SIZE is 1 to %u pixels, not %s\n", GFS_THUMB_MAX, argv[4]);
		return 2;
	}
	o.readonly = 1;
	r = gfs_archive_open(argv[2], &o, &ar, err, sizeof(err));
	if (r) {
		fprintf(stderr, "gamefs: %s\n", err);
		return 2;
	}
	r = gfs_cmd_thumbnail(ar, argv[3], (unsigned)size);
	if (r)
		fprintf(stderr, "gamefs: %s\n", ar->err[0] ? ar->err : strerror(-r));
	gfs_archive_close(ar);
	return r ? 1 : 0;
}

/* ---- the mount table --------------------------------------------------- */

/* Undo the octal escapes of /proc/self/mountinfo (\040 for a space) in place. */
static void gfs_unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else
			*d++ = *s;
	}
	*d = 0;
}

/*
 * Find a gamefs mount by its mount point (mnt) or by its archive (src,
 * when mnt is NULL); copy the other into out.  1 found, 0 not.
 */
static int gfs_mount_find(const char *mnt, const char *src, char *out, size_t outlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		char *save = NULL, *field[5] = { 0 }, *t, *type, *source;
		int i = 0;

		/* id parent major:minor root MOUNTPOINT options [tags...] - TYPE SOURCE superopts */
		for (t = strtok_r(line, " \n", &save); t && i < 5; t = strtok_r(NULL, " \n", &save))
			field[i++] = t;
		while (t && strcmp(t, "-"))
			t = strtok_r(NULL, " \n", &save);
		type = t ? strtok_r(NULL, " \n", &save) : NULL;
		source = type ? strtok_r(NULL, " \n", &save) : NULL;
		if (i < 5 || !source || strcmp(type, GFS_FSTYPE))
			continue;
		gfs_unescape(field[4]);
		gfs_unescape(source);
		if (mnt ? !strcmp(field[4], mnt) : !strcmp(source, src)) {
			snprintf(out, outlen, "%s", mnt ? source : field[4]);
			found = 1;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* ---- open ------------------------------------------------------------------ */

/* The directory open mounts in (made if missing); see the top of the file. */
static int gfs_mount_base(char *out, size_t outlen)
{
	const char *env = getenv("GAMEFS_MOUNT_DIR"), *home = getenv("HOME");
	struct passwd *pw = getpwuid(getuid());
	char made[PATH_MAX];

	if (env && *env)
		snprintf(out, outlen, "%s", env);
	else if (getuid() == 0)
		snprintf(out, outlen, "/run/media/%s", pw ? pw->pw_name : "root");
	else if (home && *home == '/')
		snprintf(out, outlen, "%s/gamefs", home);
	else if (pw)
		snprintf(out, outlen, "%s/gamefs", pw->pw_dir);
	else {
		fprintf(stderr, "gamefs: open: no home directory: set GAMEFS_MOUNT_DIR\n");
		return -1;
	}
	/* mkdir -p, each level private to its owner (as udisks makes /run/media/USER) */
	for (char *p = out + 1;; p++) {
		if (*p && *p != '/')
			continue;
		snprintf(made, sizeof(made), "%.*s", (int)(p - out), out);
		if (mkdir(made, 0750) && errno != EEXIST) {
			fprintf(stderr, "gamefs: open: %s: %s\n", made, strerror(errno));
			return -1;
		}
		if (!*p)
			break;
	}
	return 0;
}

/* The state files beside mount point mnt: .NAME.gamefs-SUFFIX */
static void gfs_state_path(const char *mnt, const char *suffix, char *out, size_t outlen)
{
	const char *slash = strrchr(mnt, '/');

	snprintf(out, outlen, "%.*s/.%s.gamefs-%s", (int)(slash - mnt), mnt, slash + 1, suffix);
}

/* A fresh mount point for the archive named name in base: base/NAME, base/NAME (2)... */
static int gfs_new_mountpoint(const char *base, const char *name, char *out, size_t outlen)
{
	char clean[NAME_MAX + 1];

	snprintf(clean, sizeof(clean), "%s", name);
	/* a dot directory would hide the mount from the sidebar */
	if (clean[0] == '.')
		clean[0] = '_';
	for (int i = 1; i <= GFS_MAX_CLASH; i++) {
		char exit_file[PATH_MAX];
		int n = i == 1 ? snprintf(out, outlen, "%s/%s", base, clean)
			       : snprintf(out, outlen, "%s/%s (%d)", base, clean, i);

		if (n < 0 || (size_t)n >= outlen)
			break;
		gfs_state_path(out, "exit", exit_file, sizeof(exit_file));
		if (!mkdir(out, 0755)) {
			unlink(exit_file);
			return 0;
		}
		/* an empty directory nothing is mounted on (a stale one of ours) is taken again */
		if (errno == EEXIST && !rmdir(out) && !mkdir(out, 0755)) {
			unlink(exit_file);
			return 0;
		}
	}
	fprintf(stderr, "gamefs: open: no free mount point for %s in %s\n", name, base);
	return -1;
}

/*
 * Start `gamefs -f [-o OPTS] ARCHIVE MNT` under a supervisor that writes
 * its exit status to MNT's exit file when it ends.  Returns at once.
 */
static int gfs_spawn_mount(const char *archive, const char *mnt, const char *opts)
{
	char log[PATH_MAX], exit_file[PATH_MAX], tmp[PATH_MAX + 8];
	pid_t sup;

	gfs_state_path(mnt, "log", log, sizeof(log));
	gfs_state_path(mnt, "exit", exit_file, sizeof(exit_file));
	snprintf(tmp, sizeof(tmp), "%s.tmp", exit_file);
	sup = fork();
	if (sup < 0) {
		fprintf(stderr, "gamefs: open: fork: %s\n", strerror(errno));
		return -1;
	}
	if (sup == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		int nul = open("/dev/null", O_RDWR), st = 0;
		pid_t d;
		FILE *f;

		setsid();
		if (fd < 0 || nul < 0)
			_exit(1);
		d = fork();
		if (d == 0) {
			const char *av[] = { "gamefs", "-f", opts ? "-o" : archive, opts ? opts : mnt,
					     opts ? archive : NULL, opts ? mnt : NULL, NULL };

			dup2(nul, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			execv("/proc/self/exe", (char **)av);
			dprintf(fd, "gamefs: open: cannot run gamefs: %s\n", strerror(errno));
			_exit(127);
		}
		dup2(nul, STDIN_FILENO);
		dup2(nul, STDOUT_FILENO);
		dup2(nul, STDERR_FILENO);
		if (d < 0)
			st = 127 << 8;
		else
			while (waitpid(d, &st, 0) < 0 && errno == EINTR)
				;
		f = fopen(tmp, "w");
		if (f) {
			fprintf(f, "%d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
			if (!fclose(f))
				rename(tmp, exit_file);
		}
		_exit(0);
	}
	return 0;
}

/* Copy the daemon's messages (the log open kept) to stderr. */
static void gfs_show_log(const char *mnt)
{
	char log[PATH_MAX], buf[4096];
	size_t n;
	FILE *f;

	gfs_state_path(mnt, "log", log, sizeof(log));
	f = fopen(log, "r");
	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(f);
}

/* The daemon's exit status from the exit file, or -1 while it runs. */
static int gfs_daemon_status(const char *mnt)
{
	char exit_file[PATH_MAX];
	FILE *f;
	int st = -1;

	gfs_state_path(mnt, "exit", exit_file, sizeof(exit_file));
	f = fopen(exit_file, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &st) != 1)
		st = 255;
	fclose(f);
	return st;
}

static void gfs_state_remove(const char *mnt)
{
	char p[PATH_MAX];

	gfs_state_path(mnt, "log", p, sizeof(p));
	unlink(p);
	gfs_state_path(mnt, "exit", p, sizeof(p));
	unlink(p);
}

/* Run argv (a program looked up in PATH) and wait: its exit status, 127 when it cannot run. */
static int gfs_run(const char *const *argv)
{
	pid_t p = fork();
	int st;

	if (p < 0)
		return 127;
	if (p == 0) {
		execvp(argv[0], (char **)argv);
		_exit(127);
	}
	while (waitpid(p, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * Show mnt in the file manager: gio open, else xdg-open, detached (a file
 * manager that starts slowly, or asks D-Bus to start it, is not waited for).
 */
static void gfs_show_folder(const char *mnt)
{
	const char *gio[] = { "gio", "open", mnt, NULL }, *xdg[] = { "xdg-open", mnt, NULL };
	pid_t p = fork();

	if (p == 0) {
		setsid();
		if (fork() == 0) {
			execvp(gio[0], (char **)gio);
			execvp(xdg[0], (char **)xdg);
			fprintf(stderr, "gamefs: open: neither gio nor xdg-open can show %s\n", mnt);
		}
		_exit(0);
	}
	while (p > 0 && waitpid(p, NULL, 0) < 0 && errno == EINTR)
		;
}

static int gfs_open(int argc, char **argv)
{
	const char *archive = NULL, *opts = NULL, *e = getenv("GAMEFS_NO_OPEN");
	char *abs = NULL, base[PATH_MAX], mnt[PATH_MAX];
	int show = !(e && *e && strcmp(e, "0")), r = 1, st = -1;
	struct stat sb;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-n"))
			show = 0;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			opts = argv[++i];
		else if (!archive && argv[i][0] != '-')
			archive = argv[i];
		else {
			gfs_desktop_usage();
			return 2;
		}
	}
	if (!archive) {
		gfs_desktop_usage();
		return 2;
	}
	abs = realpath(archive, NULL);
	if (!abs || stat(abs, &sb) || !S_ISREG(sb.st_mode)) {
		fprintf(stderr, "gamefs: open: %s: %s\n", archive, abs ? "not a file" : strerror(errno));
		goto out;
	}
	/* opened before: show the mount it has */
	if (gfs_mount_find(NULL, abs, mnt, sizeof(mnt))) {
		r = 0;
		goto shown;
	}
	if (gfs_mount_base(base, sizeof(base)) ||
	    gfs_new_mountpoint(base, strrchr(abs, '/') + 1, mnt, sizeof(mnt)) ||
	    gfs_spawn_mount(abs, mnt, opts))
		goto out;
	for (long waited = 0; waited < GFS_OPEN_WAIT_MS; waited += GFS_POLL_MS) {
		char src[PATH_MAX];

		if (gfs_mount_find(mnt, NULL, src, sizeof(src))) {
			r = 0;
			break;
		}
		if ((st = gfs_daemon_status(mnt)) >= 0)
			break;
		gfs_sleep_ms(GFS_POLL_MS);
	}
	if (r) {
		gfs_show_log(mnt);
		if (st < 0)
			fprintf(stderr, "gamefs: open: %s did not appear within %d s\n", mnt,
				GFS_OPEN_WAIT_MS / 1000);
		else {
			gfs_state_remove(mnt);
			rmdir(mnt);
		}
		goto out;
	}
	/* what the daemon said while mounting (mounted read-only, and why); later
	 * messages (a refused edit) are in the mount's .gamefs.log and syslog */
	gfs_show_log(mnt);
shown:
	printf("%s\n", mnt);
	fflush(stdout);
	if (show)
		gfs_show_folder(mnt);
out:
	free(abs);
	return r;
}

/* ---- close ----------------------------------------------------------------- */

/* The pid of the gamefs process holding archive open, or 0. */
static pid_t gfs_daemon_pid(const char *archive)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	pid_t found = 0;

	if (!proc)
		return 0;
	while (!found && (d = readdir(proc))) {
		char path[64], comm[32] = "", link[PATH_MAX];
		pid_t pid = (pid_t)atoi(d->d_name);
		struct dirent *fd;
		DIR *fds;
		FILE *f;

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = 0;
		fclose(f);
		if (strcmp(comm, "gamefs\n"))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
		fds = opendir(path);
		while (fds && !found && (fd = readdir(fds))) {
			ssize_t n = readlinkat(dirfd(fds), fd->d_name, link, sizeof(link) - 1);

			if (n > 0) {
				link[n] = 0;
				found = !strcmp(link, archive) ? pid : 0;
			}
		}
		if (fds)
			closedir(fds);
	}
	closedir(proc);
	return found;
}

static int gfs_close(int argc, char **argv)
{
	const char *um[] = { "fusermount3", "-u", NULL, NULL };
	char *mnt, src[PATH_MAX] = "", log[PATH_MAX];
	int ours, mounted, st = -1, r = 1;
	pid_t pid = 0;

	if (argc != 3) {
		gfs_desktop_usage();
		return 2;
	}
	mnt = realpath(argv[2], NULL);
	if (!mnt) {
		fprintf(stderr, "gamefs: close: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	mounted = gfs_mount_find(mnt, NULL, src, sizeof(src));
	/* made by open: its supervisor keeps the daemon's log and will write its exit status */
	gfs_state_path(mnt, "log", log, sizeof(log));
	ours = access(log, F_OK) == 0;
	if (!mounted && !ours) {
		fprintf(stderr, "gamefs: close: %s: not a gamefs mount\n", mnt);
		r = 2;
		goto out;
	}
	if (mounted) {
		if (!ours)
			pid = gfs_daemon_pid(src);
		um[2] = mnt;
		if (gfs_run(um)) {
			fprintf(stderr, "gamefs: close: %s is still mounted (is a file open in it?)\n", mnt);
			goto out;
		}
	}
	/* the daemon commits what is pending at unmount, then exits */
	for (long waited = 0; waited < GFS_CLOSE_WAIT_MS; waited += GFS_POLL_MS) {
		if (ours ? (st = gfs_daemon_status(mnt)) >= 0 : !pid || kill(pid, 0))
			break;
		gfs_sleep_ms(GFS_POLL_MS);
	}
	if (ours && st < 0) {
		fprintf(stderr, "gamefs: close: the daemon of %s has not exited after %d s\n", mnt,
			GFS_CLOSE_WAIT_MS / 1000);
		goto out;
	}
	if (st > 0) {
		gfs_show_log(mnt);
		fprintf(stderr, "gamefs: close: %s: the daemon exited with status %d: its last changes may "
			"not be in %s\n", mnt, st, src[0] ? src : "the archive");
	}
	r = st > 0;
	if (ours) {
		gfs_state_remove(mnt);
		if (rmdir(mnt) && errno != ENOENT)
			fprintf(stderr, "gamefs: close: cannot remove %s: %s\n", mnt, strerror(errno));
	}
out:
	free(mnt);
	return r;
}

int gfs_desktop_main(int argc, char **argv)
{
	if (!strcmp(argv[1], "thumbnail"))
		return gfs_thumbnail(argc, argv);
	if (!strcmp(argv[1], "open"))
		return gfs_open(argc, argv);
	return gfs_close(argc, argv);
}
