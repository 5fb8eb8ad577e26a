/*
 * umount.h - `gamefs umount MOUNTPOINT`: an unmount that returns when the
 * daemon has finished its last commit, and says whether it failed.
 *
 * The daemon and the command meet in a directory of the mounting user's
 * ($XDG_RUNTIME_DIR's /run/user/UID/gamefs, else /tmp/gamefs-UID, 0700),
 * under a name made from the mount point's real path: KEY.lock, which the
 * daemon holds locked (flock) from before it mounts until it exits, and
 * KEY.status, which it writes just before it exits (its exit code, then
 * its last message).  The command unmounts, waits for the lock, and reads
 * the status; no status means the daemon was killed.
 *
 * Daemon side, in this order:
 *   gfs_umount_hold(mnt)         before mounting (the lock survives the fork
 *                                of fuse_daemonize: it belongs to the open file)
 *   gfs_umount_report(code, msg) after the last commit, just before exit
 */
#ifndef GFS_UMOUNT_H
#define GFS_UMOUNT_H

void gfs_umount_hold(const char *mnt);
void gfs_umount_report(int code, const char *msg);
int gfs_umount_main(int argc, char **argv);

#endif
