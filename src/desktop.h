/*
 * desktop.h - the commands a desktop runs: the freedesktop thumbnailer and
 * opening a game as a folder (src/desktop.c).
 *
 *   gamefs thumbnail ARCHIVE OUT.png SIZE
 *   gamefs open [-n] [-o OPT[,OPT...]] ARCHIVE
 *   gamefs close MOUNTPOINT
 */
#ifndef GFS_DESKTOP_H
#define GFS_DESKTOP_H

/* Is cmd (argv[1]) one of the commands above? */
int gfs_desktop_cmd(const char *cmd);
/* Run it; returns the exit status (0 done, 1 failed, 2 bad usage or input). */
int gfs_desktop_main(int argc, char **argv);

#endif
