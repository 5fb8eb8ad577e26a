/*
 * `gamefs umount MOUNTPOINT` and the daemon's side of it (see umount.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gamefs.h"
#include "umount.h"

#define GFS_UMOUNT_KEY_BYTES 16		/* of the SHA-256 of the mount point's path */
#define GFS_FSTYPE "fuse.gamefs"

static int gfs_um_lock = -1;		/* the daemon's KEY.lock */
static char gfs_um_status[PATH_MAX];	/* the daemon's KEY.status */

/* The meeting directory of uid (made when create), or -1. */
static int gfs_um_dir(uid_t uid, int create, char *out, size_t len)
{
	struct stat st;
	char run[64];

	snprintf(run, sizeof(run), "/run/user/%u", (unsigned)uid);
	if (!stat(run, &st) && S_ISDIR(st.st_mode) && st.st_uid == uid)
		snprintf(out, len, "%s/gamefs", run);
	else
		snprintf(out, len, "/tmp/gamefs-%u", (unsigned)uid);
	if (create && mkdir(out, 0700) && errno != EEXIST)
		return -1;
	/* never a directory someone else made for us */
	if (lstat(out, &st) || !S_ISDIR(st.st_mode) || st.st_uid != uid || (st.st_mode & 077))
		return -1;
	return 0;
}

/* DIR/KEY.ext for the mount point's real path, or -1. */
static int gfs_um_path(uid_t uid, int create, const char *real, const char *ext, char *out, size_t len)
{
	struct gfs_sha256 s;
	uint8_t h[GFS_SHA256_LEN];
	char dir[PATH_MAX], key[2 * GFS_UMOUNT_KEY_BYTES + 1];

	if (gfs_um_dir(uid, create, dir, sizeof(dir)))
		return -1;
	gfs_sha256_init(&s);
	gfs_sha256_update(&s, real, strlen(real));
	gfs_sha256_final(&s, h);
	for (size_t i = 0; i < GFS_UMOUNT_KEY_BYTES; i++)
		snprintf(key + 2 * i, 3, "%02x", h[i]);
	return snprintf(out, len, "%s/%s.%s", dir, key, ext) < (int)len ? 0 : -1;
}

void gfs_umount_hold(const char *mnt)
{
	char real[PATH_MAX], lock[PATH_MAX];
	int fd;

	if (!realpath(mnt, real) || gfs_um_path(getuid(), 1, real, "lock", lock, sizeof(lock)) ||
	    gfs_um_path(getuid(), 1, real, "status", gfs_um_status, sizeof(gfs_um_status)))
		return;
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB)) {	/* another daemon on this path: it reports */
		close(fd);
		gfs_um_status[0] = 0;
		return;
	}
	unlink(gfs_um_status);		/* an old one is not this daemon's word */
	gfs_um_lock = fd;
}

void gfs_umount_report(int code, const char *msg)
{
	char tmp[PATH_MAX + 8];
	FILE *f;

	if (gfs_um_lock < 0)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", gfs_um_status);
	f = fopen(tmp, "we");
	if (f) {
		fprintf(f, "%d\n%s\n", code, msg ? msg : "");
		if (fflush(f) || fsync(fileno(f)) || fclose(f) || rename(tmp, gfs_um_status))
			unlink(tmp);
	}
	close(gfs_um_lock);		/* the lock goes: gamefs umount reads the status */
	gfs_um_lock = -1;
}

/* The uid a gamefs mount at real was mounted by (mountinfo's user_id=), or -1. */
static long gfs_um_owner(const char *real)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	long uid = -1;

	if (!f)
		return -1;
	while (uid < 0 && getline(&line, &cap, f) > 0) {
		char mnt[PATH_MAX], *o = mnt, *dash = strstr(line, " - "), *u;
		const char *p;
		int n = 0;

		/* id parent major:minor root MOUNTPOINT ... - TYPE SOURCE superopts */
		if (!dash || strncmp(dash + 3, GFS_FSTYPE " ", strlen(GFS_FSTYPE) + 1))
			continue;
		for (p = line; *p && n < 4; p++)
			n += *p == ' ';
		for (; *p && *p != ' ' && o < mnt + sizeof(mnt) - 1; p++, o++) {
			if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] && p[3]) {
				*o = (char)(((p[1] - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0'));
				p += 3;
			} else {
				*o = *p;
			}
		}
		*o = 0;
		if (strcmp(mnt, real))
			continue;
		u = strstr(dash, "user_id=");
		uid = u ? strtol(u + 8, NULL, 10) : -1;
	}
	free(line);
	fclose(f);
	return uid;
}

static int gfs_um_fusermount(const char *mnt)
{
	pid_t p = fork();
	int st;

	if (p < 0)
		return -1;
	if (p == 0) {
		execlp("fusermount3", "fusermount3", "-u", mnt, (char *)NULL);
		_exit(127);
	}
	while (waitpid(p, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int gfs_umount_main(int argc, char **argv)
{
	char real[PATH_MAX], lock[PATH_MAX], status[PATH_MAX], msg[4096] = "";
	int fd = -1, code = -1;
	long uid;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: gamefs umount MOUNTPOINT\n");
		return 2;
	}
	if (!realpath(argv[2], real)) {
		fprintf(stderr, "gamefs: umount: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	uid = gfs_um_owner(real);
	if (uid < 0) {
		fprintf(stderr, "gamefs: umount: %s: not a gamefs mount\n", real);
		return 2;
	}
	if (!gfs_um_path((uid_t)uid, 0, real, "lock", lock, sizeof(lock)) &&
	    !gfs_um_path((uid_t)uid, 0, real, "status", status, sizeof(status)))
		fd = open(lock, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (gfs_um_fusermount(real)) {
		fprintf(stderr, "gamefs: umount: %s is still mounted (is a file open in it?)\n", real);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (fd < 0) {
		fprintf(stderr, "gamefs: umount: %s unmounted, but its daemon left no way to wait for "
			"its last commit (an older gamefs?)\n", real);
		return 1;
	}
	/* the daemon holds the lock until its last commit is done */
	while (flock(fd, LOCK_EX) && errno == EINTR)
		;
	f = fopen(status, "re");
	if (f) {
		size_t n;

		if (fscanf(f, "%d\n", &code) != 1)
			code = -1;
		n = fread(msg, 1, sizeof(msg) - 1, f);
		msg[n] = 0;
		while (n && msg[n - 1] == '\n')
			msg[--n] = 0;
		fclose(f);
		unlink(status);
	}
	unlink(lock);
	close(fd);
	if (code < 0) {
		fprintf(stderr, "gamefs: umount: the daemon of %s ended without finishing (killed?): "
			"its last edits may not be in the archive\n", real);
		return 1;
	}
	if (code) {
		fprintf(stderr, "gamefs: umount: %s: %s\n", real, msg[0] ? msg : "the last commit failed");
		return 1;
	}
	return 0;
}
