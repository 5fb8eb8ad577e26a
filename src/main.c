/*
 * gamefs: mount a game archive, or list/cat/extract/check it offline.
 *
 *   gamefs [-f] [-d] [-s] [-o OPT[,OPT...]] ARCHIVE MOUNTPOINT
 *   gamefs ls ARCHIVE [PATH] | cat ARCHIVE PATH | extract ARCHIVE DIR | check ARCHIVE
 *   gamefs dump ARCHIVE | pack DIR ARCHIVE
 *   gamefs umount MOUNTPOINT
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>
#include "gamefs.h"
#include "gfs_fuse.h"
#include "desktop.h"
#include "gfs_mount.h"
#include "umount.h"

static int gfs_foreground;

/* The format names and their own options come from the format table. */
static void gfs_usage(FILE *out)
{
	struct gfs_buf names = GFS_BUF_INIT;

	gfs_format_names(&names, "|");
	fprintf(out,
		"usage: gamefs [-f] [-d] [-s] [-o OPT[,OPT...]] ARCHIVE MOUNTPOINT\n"
		"       gamefs ls [-o OPT] ARCHIVE [PATH]\n"
		"       gamefs cat [-o OPT] ARCHIVE PATH\n"
		"       gamefs extract [-o OPT] ARCHIVE DIR\n"
		"       gamefs check [-o OPT] ARCHIVE\n"
		"       gamefs dump [-o OPT] ARCHIVE\n"
		"       gamefs pack [-o OPT] DIR ARCHIVE\n"
		"       gamefs thumbnail ARCHIVE OUT.png SIZE\n"
		"       gamefs open [-n] [-o OPT[,OPT...]] ARCHIVE | close MOUNTPOINT\n"
		"       gamefs status MOUNTPOINT | umount MOUNTPOINT\n"
		"       gamefs --version | --help | --formats\n"
		"\n"
		"gamefs options (-o):\n"
		"  format=%s   do not detect the format\n"
		"  ro                 mount read-only\n"
		"  backup             keep the previous archive as ARCHIVE.bak (once per mount)\n"
		"  commit=close|unmount  write back on last close (default) or only at unmount\n"
		"  force              write back even over an archive whose CRCs were bad\n",
		names.data ? (char *)names.data : "");
	for (size_t i = 0; gfs_formats[i]; i++)
		for (const struct gfs_format_option *o = gfs_formats[i]->options; o && o->key; o++)
			fprintf(out, "  %s=%-*s %s: %s\n", o->key, (int)(17 - strlen(o->key)), o->arg,
				gfs_formats[i]->name, o->help);
	fprintf(out, "and every libfuse option (see mount.fuse3(8)).\n");
	gfs_buf_release(&names);
}

/* --formats: one line per format of the table, name and description. */
static void gfs_list_formats(void)
{
	for (size_t i = 0; gfs_formats[i]; i++)
		printf("%s\t%s\n", gfs_formats[i]->name, gfs_formats[i]->description);
}

/* Every message goes to syslog, to the mount's .gamefs.log, and with -f to stderr. */
static void gfs_log_line(const char *msg)
{
	if (gfs_foreground)
		fprintf(stderr, "gamefs: %s\n", msg);
	syslog(LOG_WARNING, "%s", msg);
	gfs_fuse_log(msg);
}

/* The mount point: the last positional argument libfuse gets. */
static int gfs_check_mountpoint(const char *mnt)
{
	struct stat st;

	if (stat(mnt, &st)) {
		fprintf(stderr, "gamefs: %s: %s\n", mnt, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "gamefs: %s: the mount point is not a directory\n", mnt);
		return -1;
	}
	return 0;
}

/*
 * allow_other (or allow_root) lets other users in: then the kernel checks
 * the modes the tree shows (default_permissions), so that nobody changes
 * through the mount what they could not change on disk.
 */
static void gfs_default_permissions(char *rest, size_t restlen)
{
	char *copy = strdup(rest), *save = NULL;
	int others = 0, dp = 0;

	if (!copy)
		return;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		others |= !strcmp(t, "allow_other") || !strcmp(t, "allow_root");
		dp |= !strcmp(t, "default_permissions");
	}
	free(copy);
	if (others && !dp)
		snprintf(rest + strlen(rest), restlen - strlen(rest), ",default_permissions");
}

/*
 * status MOUNTPOINT: the mount's .gamefs.status to stdout.  0 nothing
 * refused, 1 something was refused since the mount, 2 not a gamefs mount.
 */
static int gfs_status(int argc, char **argv)
{
	struct gfs_buf b = GFS_BUF_INIT, path = GFS_BUF_INIT;
	char chunk[4096];
	FILE *f;
	size_t n;
	int r = 2;

	if (argc != 3) {
		gfs_usage(stderr);
		return 2;
	}
	if (gfs_buf_printf(&path, "%s/.gamefs.status", argv[2]) || !(f = fopen((char *)path.data, "r"))) {
		fprintf(stderr, "gamefs: %s: not a gamefs mount (%s)\n", argv[2], strerror(errno));
		goto out;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		gfs_buf_add(&b, chunk, n);
	fclose(f);
	fwrite(b.data, 1, b.len, stdout);
	/* the count line says whether anything was refused */
	r = b.len && !strstr((char *)b.data, "\nrefusals: 0\n");
out:
	gfs_buf_release(&b);
	gfs_buf_release(&path);
	return r;
}

/*
 * Take gamefs's own options out of one -o list (the strings stay in list,
 * which o points into); *rest gets the others.
 */
static int gfs_take_opts(char *list, struct gfs_opts *o, char *rest, size_t restlen)
{
	char *save = NULL;

	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const char *keep = NULL;
		int fa;

		if (!strncmp(t, "format=", 7))
			o->format = t + 7;
		else if ((fa = gfs_opts_format_arg(o, t)) != 0) {
			if (fa < 0) {
				fprintf(stderr, "gamefs: too many format options\n");
				return -1;
			}
		} else if (!strcmp(t, "backup"))
			o->backup = 1;
		else if (!strcmp(t, "force"))
			o->force = 1;
		else if (!strcmp(t, "commit=close"))
			o->commit = GFS_COMMIT_CLOSE;
		else if (!strcmp(t, "commit=unmount"))
			o->commit = GFS_COMMIT_UNMOUNT;
		else if (!strncmp(t, "commit=", 7)) {
			fprintf(stderr, "gamefs: commit= takes close or unmount, not %s\n", t + 7);
			return -1;
		} else if (!strcmp(t, "ro")) {
			o->readonly = 1;
			keep = t;
		} else if (!strcmp(t, "rw")) {
			o->readonly = 0;
			keep = t;
		} else if (!strcmp(t, "dev") || !strcmp(t, "suid") || !strcmp(t, "nodev") ||
			   !strcmp(t, "nosuid") || !strcmp(t, "exec") || !strcmp(t, "noexec") ||
			   !strcmp(t, "atime") || !strcmp(t, "noatime") || !strcmp(t, "user") ||
			   !strcmp(t, "nouser") || !strcmp(t, "auto") || !strcmp(t, "noauto") ||
			   !strcmp(t, "_netdev") || !strcmp(t, "nofail") || !strncmp(t, "x-", 2)) {
			keep = !strncmp(t, "no", 2) || !strcmp(t, "dev") || !strcmp(t, "suid") ||
			       !strcmp(t, "exec") || !strcmp(t, "atime") ? t : NULL;
			if (keep && (!strcmp(t, "noauto") || !strcmp(t, "nouser") || !strcmp(t, "nofail")))
				keep = NULL;
		} else
			keep = t;
		if (keep) {
			size_t used = strlen(rest);

			snprintf(rest + used, restlen - used, "%s%s", used ? "," : "", keep);
		}
	}
	return 0;
}

/* A mount point over the archive's own directory is refused before anything is written. */
static int gfs_refuse_covering_mount(struct gfs_archive *ar, const char *mnt)
{
	char err[PATH_MAX * 3];

	if (!gfs_mount_covers_archive(ar, mnt, err, sizeof(err)))
		return 0;
	fprintf(stderr, "gamefs: %s\n", err);
	return -1;
}

static int gfs_open_or_die(const char *path, struct gfs_opts *o, struct gfs_archive **ar)
{
	char err[600];
	int r = gfs_archive_open(path, o, ar, err, sizeof(err));

	if (r)
		fprintf(stderr, "gamefs: %s\n", err);
	return r;
}

/* dump: always some text and exit 0 for git's textconv, even when the archive cannot be read */
static int gfs_dump(const char *path, struct gfs_opts *o)
{
	struct gfs_archive *ar;
	char err[600];
	int r = gfs_archive_open(path, o, &ar, err, sizeof(err));

	if (r)
		r = gfs_cmd_dump_unreadable(path, err, stdout);
	else {
		r = gfs_cmd_dump(ar, stdout);
		gfs_archive_close(ar);
	}
	return r ? 2 : 0;
}

/* pack DIR ARCHIVE: 0 written or nothing to write, 1 refused (archive unchanged), 2 unusable */
static int gfs_pack(const char *dir, const char *path, struct gfs_opts *o)
{
	struct gfs_archive *ar;
	size_t done;
	int r;

	o->readonly = 0;
	r = gfs_open_or_die(path, o, &ar);
	if (r)		/* EBUSY: mounted for writing (the open takes the writer's lock) */
		return r == -EBUSY ? 1 : 2;
	r = gfs_archive_lock(ar);
	if (!r)
		r = gfs_cmd_pack(ar, dir, stderr, &done);
	if (r)
		fprintf(stderr, "gamefs: %s\n", ar->err[0] ? ar->err : strerror(-r));
	gfs_archive_close(ar);
	return r ? 1 : 0;
}

/* ls | cat | extract | check | dump | pack */
static int gfs_offline(int argc, char **argv)
{
	const char *cmd = argv[1];
	struct gfs_opts o = { 0 };
	struct gfs_archive *ar;
	char rest[4096] = "";
	const char *pos[3] = { 0 };
	int npos = 0, r;

	o.readonly = 1;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			if (gfs_take_opts(argv[++i], &o, rest, sizeof(rest)))
				return 2;
		} else if (npos < 3)
			pos[npos++] = argv[i];
		else
			npos++;
	}
	o.readonly = 1;
	if ((!strcmp(cmd, "ls") && (npos < 1 || npos > 2)) ||
	    ((!strcmp(cmd, "cat") || !strcmp(cmd, "extract") || !strcmp(cmd, "pack")) && npos != 2) ||
	    ((!strcmp(cmd, "check") || !strcmp(cmd, "dump")) && npos != 1)) {
		gfs_usage(stderr);
		return 2;
	}
	if (!strcmp(cmd, "dump"))
		return gfs_dump(pos[0], &o);
	if (!strcmp(cmd, "pack"))
		return gfs_pack(pos[0], pos[1], &o);
	r = gfs_open_or_die(pos[0], &o, &ar);
	if (r)
		return !strcmp(cmd, "check") && (r == -EBADMSG || r == -EFBIG) ? 1 : 2;
	if (ar->readonly && ar->ro_reason[0] && strcmp(cmd, "check"))
		fprintf(stderr, "gamefs: %s: read-only: %s\n", ar->path, ar->ro_reason);
	if (!strcmp(cmd, "ls"))
		r = gfs_cmd_ls(ar, pos[1], stdout);
	else if (!strcmp(cmd, "cat"))
		r = gfs_cmd_cat(ar, pos[1], STDOUT_FILENO);
	else if (!strcmp(cmd, "extract"))
		r = gfs_cmd_extract(ar, pos[1]);
	else {
		r = gfs_cmd_check(ar, stdout);
		gfs_archive_close(ar);
		return r;
	}
	if (r)
		fprintf(stderr, "gamefs: %s\n", ar->err[0] ? ar->err : strerror(-r));
	gfs_archive_close(ar);
	return r ? 1 : 0;
}

/*
 * Unmounted: write back whatever is still pending (commit=unmount, open
 * files); what cannot be written is kept beside the archive.  The outcome
 * goes to the log and to `gamefs umount`.  Returns the exit code.
 */
static int gfs_finish(struct gfs_archive *ar, int r)
{
	char msg[1024 + PATH_MAX];

	if (gfs_archive_finish(ar, msg, sizeof(msg))) {
		gfs_log_line(msg);
		r = 1;
	} else if (r) {
		snprintf(msg, sizeof(msg), "%s: the mount ended with an error", ar->path);
	} else {
		snprintf(msg, sizeof(msg), "%s: %s", ar->path, ar->readonly ? "unmounted (read-only)" :
			 "unmounted, every edit written");
	}
	gfs_umount_report(r, msg);
	return r;
}

int main(int argc, char **argv)
{
	struct gfs_opts o = { 0 };
	struct gfs_archive *ar;
	char rest[4096] = "", *archive = NULL, *mnt = NULL, *abs;
	char **fargv;
	int fargc = 0, npos = 0, r;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		gfs_usage(stdout);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--formats")) {
		gfs_list_formats();
		return 0;
	}
	if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("gamefs %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (argc >= 2 && (!strcmp(argv[1], "ls") || !strcmp(argv[1], "cat") ||
			  !strcmp(argv[1], "extract") || !strcmp(argv[1], "check") ||
			  !strcmp(argv[1], "dump") || !strcmp(argv[1], "pack")))
		return gfs_offline(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "status"))
		return gfs_status(argc, argv);
	if (argc >= 2 && gfs_desktop_cmd(argv[1]))
		return gfs_desktop_main(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "umount"))
		return gfs_umount_main(argc, argv);

	fargv = calloc((size_t)argc + 8, sizeof(char *));
	if (!fargv)
		return 2;
	r = 2;
	fargv[fargc++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			if (gfs_take_opts(argv[++i], &o, rest, sizeof(rest)))
				goto out_args;
		} else if (!strncmp(argv[i], "-o", 2) && argv[i][2]) {
			if (gfs_take_opts(argv[i] + 2, &o, rest, sizeof(rest)))
				goto out_args;
		} else if (argv[i][0] == '-') {
			if (!strcmp(argv[i], "-f"))
				gfs_foreground = 1;
			if (!strcmp(argv[i], "-d"))
				gfs_foreground = 1;
			fargv[fargc++] = argv[i];
		} else if (npos++ == 0)
			archive = argv[i];
		else
			fargv[fargc++] = mnt = argv[i];
	}
	if (!archive || npos != 2) {
		gfs_usage(stderr);
		goto out_args;
	}
	r = 1;		/* from here on: the archive could not be mounted */
	abs = realpath(archive, NULL);
	if (!abs) {
		fprintf(stderr, "gamefs: %s: %s\n", archive, strerror(errno));
		goto out_args;
	}
	if (gfs_check_mountpoint(mnt))
		goto out_abs;
	openlog("gamefs", LOG_PID, LOG_USER);
	gfs_set_log(gfs_log_line);
	if (gfs_open_or_die(abs, &o, &ar))
		goto out_abs;
	if (gfs_refuse_covering_mount(ar, mnt))
		goto out_ar;
	ar->log = gfs_log_line;
	if (!ar->readonly && !(ar->st.st_mode & 0222)) {
		ar->readonly = 1;
		snprintf(ar->ro_reason, sizeof(ar->ro_reason), "the archive file has no write permission");
	} else if (!ar->readonly && (access(ar->dir, W_OK) || access(abs, W_OK))) {
		ar->readonly = 1;
		snprintf(ar->ro_reason, sizeof(ar->ro_reason), "%s is not writable (%s)",
			 access(abs, W_OK) ? "the archive" : "its directory", strerror(errno));
	}
	if (!ar->readonly && gfs_archive_lock(ar)) {
		fprintf(stderr, "gamefs: %s\n", ar->err);
		goto out_ar;
	}
	if (ar->readonly && ar->ro_reason[0])
		fprintf(stderr, "gamefs: %s: mounted read-only: %s\n", archive, ar->ro_reason);
	if (ar->readonly)
		snprintf(rest + strlen(rest), sizeof(rest) - strlen(rest), "%sro", rest[0] ? "," : "");
	if (!ar->readonly)
		gfs_archive_clean_stale(ar);
	{
		size_t used = strlen(rest);
		char *fs = malloc(strlen(abs) + 32);

		if (!fs)
			goto out_ar;
		/* fsname shows the archive in mount(8) and df; commas would split options */
		snprintf(rest + used, sizeof(rest) - used, "%ssubtype=gamefs", used ? "," : "");
		if (!strchr(abs, ',')) {
			sprintf(fs, "fsname=%s", abs);
			used = strlen(rest);
			snprintf(rest + used, sizeof(rest) - used, ",%s", fs);
		}
		free(fs);
	}
	fargv[fargc++] = "-o";
	fargv[fargc++] = rest;
	gfs_default_permissions(rest, sizeof(rest));
	gfs_umount_hold(mnt);
	r = gfs_fuse_run(&ar, fargc, fargv);
	r = gfs_finish(ar, r);
out_ar:
	gfs_archive_close(ar);
out_abs:
	free(abs);
out_args:
	free(fargv);
	return r;
}
