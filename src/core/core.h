/*
 * core.h - what the core's own files share and nobody else calls.
 */
#ifndef GFS_CORE_H
#define GFS_CORE_H

#include "gamefs.h"

/* The directory of the archive's companion file i (the .lay atlas), NULL past the last. */
const char *gfs_companion_dir(const struct gfs_archive *ar, size_t i);

/* Forget the archive's companion files (archive close). */
void gfs_companions_release(struct gfs_archive *ar);

/*
 * Finish the renames of a commit with companions that a kill interrupted
 * after its commit point (the journal beside the archive), before the
 * archive is read.  0 when there was nothing to finish or it is done;
 * else the error, after a warning naming the files.
 */
int gfs_archive_recover(struct gfs_archive *ar);

/* Closing: a background check still running is told to stop, its verdict dropped. */
void gfs_check_drop(struct gfs_archive *ar);

/*
 * While an archive loads, its warnings are held back (file.c): a load that
 * fails prints only its one-line error, one that succeeds prints them after.
 * gfs_warn_held_first() is the first held warning's reason ("" if none).
 */
void gfs_warn_hold(struct gfs_archive *ar);
void gfs_warn_release(struct gfs_archive *ar, int print);
const char *gfs_warn_held_first(void);

/* Write all of data to fd (retrying short writes and EINTR): 0 or -errno. */
int gfs_write_all(int fd, const void *data, size_t len);

/*
 * Keep fd (an earlier file of the archive) open in ar for a while and close
 * it later: a splice of it may still be in flight (commit.c).
 */
void gfs_retire_fd(struct gfs_archive *ar, int fd);
/* the same file, unchanged, as far as stat() tells (gfs_mount.h) */
int gfs_stat_same(const struct stat *a, const struct stat *b);

#endif
