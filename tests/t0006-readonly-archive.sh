#!/bin/sh
# An archive without write permission, or in a directory that cannot be
# written, mounts read-only: writes fail cleanly with EROFS and nothing is lost.
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1
"$top_builddir/gamefs-mkdemo" g.rpg
cp g.rpg orig.rpg

chmod a-w g.rpg
gfs_mount g.rpg m || fail "mount of a read-only archive file"
grep -q "mounted read-only: the archive file has no write permission" "$T/gamefs.log" || fail "says why it is read-only"
check_eq EROFS "$(errno_of "open('m/BROWSE.TXT','ab')")" "write to a read-only archive"
check_eq EROFS "$(errno_of "os.unlink('m/BROWSE.TXT')")" "unlink in a read-only archive"
check_eq "-r--r--r--" "$(stat -c %A m/BROWSE.TXT)" "files show no write bits"
grep -q "Demo Quest" m/BROWSE.TXT || fail "still readable"
gfs_umount m || fail "unmount"
cmp g.rpg orig.rpg || fail "archive changed"
chmod u+w g.rpg

# a read-only directory (a read-only bind mount, so that root is refused too)
mkdir -p ro src
cp orig.rpg src/g.rpg
if mount --bind src ro 2>/dev/null && mount -o remount,ro,bind ro 2>/dev/null; then
	GFS_MOUNTS="$GFS_MOUNTS $T/ro"
	gfs_mount ro/g.rpg m || fail "mount in a read-only directory"
	grep -q "mounted read-only" "$T/gamefs.log" || fail "read-only directory reported"
	check_eq EROFS "$(errno_of "open('m/README.TXT','ab')")" "write in a read-only directory"
	gfs_umount m || fail "unmount ro dir"
	umount ro
	cmp src/g.rpg orig.rpg || fail "archive in read-only dir changed"
else
	note "bind mounts unavailable: read-only directory case skipped"
fi
echo ok
