#!/bin/sh
# The .lay atlas is a file of the archive like the layout: an atlas saved
# by another program while the layout is mounted is not overwritten by the
# next atlas edit through the mount (EBUSY, atlas.png.rejected, the other
# program's image stays).  A second writable mount started while the first
# daemon is inside its two-file commit is refused before it touches
# anything: it never finishes the first daemon's commit as if it were a
# crash's (before, it renamed the first daemon's temporaries into place,
# then the first daemon put the old atlas back: layout and atlas from two
# commits).  strace delays each rename of the first daemon by 2 s.
. "$top_srcdir/tests/lib.sh"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
cd "$T" || exit 1
chunks_with() {
	$LAY csv G_.lay chunks | awk -F, -v x="$1" 'BEGIN { OFS = "," } NR == 2 { $2 = x } { print }'
}
$LAY gen G_.lay --atlas G.png
$LAY atlas a1.png 1024 1024 --seed 3
$LAY atlas a2.png 1024 1024 --seed 4
$LAY atlas a3.png 1024 1024 --seed 5
cp a1.png G.png

# another program saves the atlas in place (same inode) while mounted
gfs_mount G_.lay m || fail "mount"
cp a2.png G.png
check_eq EBUSY "$(errno_of "f = open('m/atlas.png', 'wb'); f.write(open('a3.png', 'rb').read()); f.close()")" \
	"an atlas edit over another program's atlas"
cmp G.png a2.png || fail "the other program's atlas was overwritten"
cmp m/atlas.png.rejected a3.png || fail "the refused atlas is not atlas.png.rejected"
cmp -s m/atlas.png a3.png && fail "atlas.png still reads the refused image"
grep -q "G.png changed on disk since it was read" m/.gamefs.log || fail "the log does not say why: $(cat m/.gamefs.log)"
"$GAMEFS" umount m 2>err && fail "gamefs umount exit status 0 with the atlas not saved"
cmp G_.lay.unsaved/atlas.png.rejected a3.png || fail "the refused atlas not kept at unmount: $(cat err)"
rm -rf G_.lay.unsaved

# the layout too: its atlas changed on disk, a layout edit alone still commits
gfs_mount G_.lay m || fail "mount 2"
cp a1.png G.png
chunks_with -59 >want.csv
cp want.csv m/chunks.csv || fail "a layout edit with the atlas changed on disk"
cmp G.png a1.png || fail "a layout-only commit touched the atlas"
"$GAMEFS" umount m || fail "umount 2"

# a second writable mount during the first daemon's two-file commit
command -v strace >/dev/null || { echo "SKIP: no strace"; exit 77; }
cp a1.png G.png
chunks_with -61 >want.csv
mkdir -p m m2
# (LeakSanitizer cannot run under ptrace: a sanitizer build's leak check is off for this daemon)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -f -qq -o /dev/null -e trace=rename,renameat,renameat2 \
	-e inject=rename,renameat,renameat2:delay_exit=2000000 \
	"$GAMEFS" -f -o commit=unmount G_.lay m >>"$T/gamefs.log" 2>&1 &
pid=$!
GFS_PIDS="$GFS_PIDS $pid" GFS_MOUNTS="$GFS_MOUNTS $T/m $T/m2"
i=0; while ! mountpoint -q m; do i=$((i + 1)); [ $i -gt 400 ] && fail "mount under strace"; sleep 0.05; done
cp want.csv m/chunks.csv && cp a2.png m/atlas.png || fail "edits"
fusermount3 -u m || fail "unmount"
# the atlas renamed in place, the layout not yet: the commit is in flight
i=0; while ! cmp -s G.png a2.png; do i=$((i + 1)); [ $i -gt 400 ] && fail "the commit did not start"; sleep 0.05; done
[ -e .G_.lay.gamefs-journal ] || fail "no journal during the commit"
"$GAMEFS" -f G_.lay m2 >second.err 2>&1 && fail "a second writable mount during the commit"
grep -q "already mounted for writing" second.err || fail "the second mount says: $(cat second.err)"
grep -q "finished a commit a crash interrupted" second.err && fail "the second mount recovered a live daemon's commit"
wait $pid || fail "the first daemon's commit failed: $(cat "$T/gamefs.log")"
cmp G.png a2.png || fail "the atlas is not the one committed"
$LAY csv G_.lay chunks | sed -n 2p | grep -q '^0,-61,' || fail "the layout is not the one committed with the atlas"
ls -a | grep -q 'gamefs-' && fail "temporaries or journal left: $(ls -a | grep gamefs-)"
echo ok
