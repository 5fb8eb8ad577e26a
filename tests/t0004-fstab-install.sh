#!/bin/sh
# make install puts the binary and both man pages in place; mount(8) with
# -t fuse.gamefs finds gamefs on PATH through mount.fuse3.
. "$top_srcdir/tests/lib.sh"

make -C "$top_builddir" install DESTDIR="$T/inst" >"$T/install.log" 2>&1 || { cat "$T/install.log"; fail "make install"; }
bin=$(find "$T/inst" -type f -name gamefs -perm -u+x | head -n 1)
[ -n "$bin" ] || fail "no installed gamefs"
find "$T/inst" -name gamefs.1 | grep -q man1 || fail "gamefs.1 not installed"
find "$T/inst" -name gamefs-formats.5 | grep -q man5 || fail "gamefs-formats.5 not installed"
"$bin" --version >/dev/null || fail "installed binary runs"

if ! command -v mount.fuse3 >/dev/null 2>&1 && [ ! -x /sbin/mount.fuse3 ]; then
	echo "SKIP: mount.fuse3 absent"; exit 77
fi
"$top_builddir/gamefs-mkdemo" "$T/demo.rpg"
mkdir -p "$T/m"
# mount(8) runs helpers with the standard PATH: the old "PROGRAM#SOURCE" form
# names the installed binary, the -t fuse.gamefs form finds it on that PATH.
mount -t fuse "$bin#$T/demo.rpg" "$T/m" -o backup || fail "mount -t fuse PROGRAM#ARCHIVE"
GFS_MOUNTS="$GFS_MOUNTS $T/m"
grep -q "fuse.gamefs" /proc/mounts || fail "not listed as fuse.gamefs"
grep -q "Demo Quest" "$T/m/BROWSE.TXT" || fail "fstab mount serves the tree"
echo "fstab" >>"$T/m/README.TXT" || fail "edit on fstab mount"
umount "$T/m" || fail "umount"
sleep 0.5
"$GAMEFS" cat "$T/demo.rpg" README.TXT | grep -q fstab || fail "edit committed"
[ -f "$T/demo.rpg.bak" ] || fail "-o backup through fstab options"

if [ ! -e /usr/local/bin/gamefs ] && [ "$(id -u)" = 0 ] && [ -w /usr/local/bin ]; then
	ln -s "$bin" /usr/local/bin/gamefs && trap 'rm -f /usr/local/bin/gamefs; cleanup' EXIT
fi
if command -v gamefs >/dev/null 2>&1 || [ -e /usr/local/bin/gamefs ]; then
	mount -t fuse.gamefs "$T/demo.rpg" "$T/m" || fail "mount -t fuse.gamefs"
	grep -q "Demo Quest" "$T/m/BROWSE.TXT" || fail "fuse.gamefs mount serves the tree"
	umount "$T/m" || fail "umount fuse.gamefs"
fi
echo ok
