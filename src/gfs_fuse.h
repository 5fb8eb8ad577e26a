/* The FUSE front end: serves an opened archive's tree at a mount point. */
#ifndef GFS_FUSE_H
#define GFS_FUSE_H

#include "gamefs.h"

/*
 * argc/argv: the libfuse arguments (program name, -f/-d/-s, -o ..., mountpoint).
 * A read-only mount follows its archive file when it is replaced: *ar is
 * then the archive served last (the one given was closed).
 */
int gfs_fuse_run(struct gfs_archive **ar, int argc, char **argv);

/*
 * Keep msg (one line) for the mount's read-only .gamefs.log, which holds
 * the most recent messages.  Callable from any thread, mounted or not.
 */
void gfs_fuse_log(const char *msg);

#endif
