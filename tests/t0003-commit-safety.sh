#!/bin/sh
# Commits: readers undisturbed, failures reported at close and the original kept,
# -o backup, commit=unmount, stale temporary files removed, unmount exit status.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"

"$top_builddir/gamefs-mkdemo" "$T/demo.rpg" || fail "mkdemo"

# a stale temporary file from a crashed commit goes away at mount
: >"$T/.demo.rpg.gamefs-AbC123"
gfs_mount "$T/demo.rpg" "$T/m" || fail "mount"
[ -e "$T/.demo.rpg.gamefs-AbC123" ] && fail "stale temporary file kept"

# a reader keeps reading the right bytes while commits replace the archive
python3 - "$T/m" <<'PY' &
import os, sys, time
m = sys.argv[1]
want = open(m + '/OHRRPGCE.T00', 'rb').read()
with open(m + '/OHRRPGCE.T00', 'rb') as f:
    for i in range(60):
        f.seek(0)
        if f.read() != want:
            sys.exit(1)
        time.sleep(0.02)
PY
reader=$!
for i in 1 2 3 4 5; do echo "line $i" >>"$T/m/README.TXT" || fail "append $i"; done
wait $reader || fail "reader saw wrong bytes during commits"
$RPG get "$T/demo.rpg" README.TXT | tail -n 1 | grep -q "line 5" || fail "appends committed at close"
ls -a "$T" | grep -q "gamefs-" && fail "temporary file left after commit"
gfs_umount "$T/m" || fail "unmount"

# -o backup keeps the archive as it was before the first commit of the mount
cp "$T/demo.rpg" "$T/orig.rpg"
gfs_mount "$T/demo.rpg" "$T/m" -o backup || fail "mount backup"
echo one >>"$T/m/README.TXT"; echo two >>"$T/m/README.TXT"
gfs_umount "$T/m" || fail "unmount"
cmp "$T/orig.rpg" "$T/demo.rpg.bak" || fail "backup is the archive before the mount"
$RPG get "$T/demo.rpg" README.TXT | tail -n 1 | grep -q two || fail "backup mount commits"

# commit=unmount: nothing written until unmount
cp "$T/demo.rpg" "$T/orig.rpg"
gfs_mount "$T/demo.rpg" "$T/m" -o commit=unmount || fail "mount commit=unmount"
echo three >>"$T/m/README.TXT"
cmp -s "$T/orig.rpg" "$T/demo.rpg" || fail "commit=unmount wrote before unmount"
grep -q three "$T/m/README.TXT" || fail "edit visible in the mount"
gfs_umount "$T/m" || fail "unmount"
$RPG get "$T/demo.rpg" README.TXT | tail -n 1 | grep -q three || fail "commit at unmount"

# failures: a directory that turns read-only, a full disk
if mkdir -p "$T/fs" && mount -t tmpfs -o size=64k tmpfs "$T/fs" 2>/dev/null; then
	GFS_MOUNTS="$GFS_MOUNTS $T/fs"
	"$top_builddir/gamefs-mkdemo" "$T/fs/g.rpg"
	cp "$T/fs/g.rpg" "$T/g.orig"
	gfs_mount "$T/fs/g.rpg" "$T/m" || fail "mount on tmpfs"
	mount -o remount,ro "$T/fs" || fail "remount ro"
	r=$(errno_of "f=open('$T/m/README.TXT','ab'); f.write(b'x'); f.close()")
	check_eq EROFS "$r" "close reports the failed commit"
	cmp "$T/g.orig" "$T/fs/g.rpg" || fail "original changed by a failed commit"
	gfs_umount "$T/m" && fail "unmount exit status 0 after losing an edit"
	mount -o remount,rw "$T/fs" || fail "remount rw"
	cmp "$T/g.orig" "$T/fs/g.rpg" || fail "original intact"
	# full disk: the new archive does not fit
	python3 -c "open('$T/fs/filler','wb').write(b'x'*(64*1024-3*len(open('$T/fs/g.rpg','rb').read())//2))" 2>/dev/null
	gfs_mount "$T/fs/g.rpg" "$T/m" || fail "mount on full tmpfs"
	r=$(errno_of "f=open('$T/m/OHRRPGCE.T00','ab'); f.write(b'y'*20000); f.close()")
	check_eq ENOSPC "$r" "close reports ENOSPC"
	cmp "$T/g.orig" "$T/fs/g.rpg" || fail "original changed by a failed commit (ENOSPC)"
	ls -a "$T/fs" | grep -q "gamefs-" && fail "temporary file left after ENOSPC"
	# nothing lost: the refused bytes are NAME.rejected, the view its last good content
	check_eq 4096 "$(stat -c %s "$T/m/OHRRPGCE.T00")" "the view after ENOSPC reads the archive's content"
	check_eq 24096 "$(stat -c %s "$T/m/OHRRPGCE.T00.rejected")" "the refused bytes are kept"
	rm -f "$T/fs/filler"
	mv "$T/m/OHRRPGCE.T00.rejected" "$T/m/OHRRPGCE.T00" || fail "mv NAME.rejected NAME commits once there is room"
	gfs_umount "$T/m" || fail "unmount after room"
	[ "$($RPG get "$T/fs/g.rpg" OHRRPGCE.T00 | wc -c)" = 24096 ] || fail "edit written once there was room"
	umount "$T/fs"
else
	note "tmpfs not mountable here: failure cases skipped"
fi
echo ok
