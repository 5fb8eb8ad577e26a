#!/bin/sh
# The layout and its atlas are one commit (the core's engine, both files or
# neither): a full disk refuses both and leaves both old; a daemon killed
# with SIGKILL at random moments of a commit that changes both leaves both
# old or both new, never a mix, and the next mount removes every temporary
# and finishes a commit killed past its commit point.
. "$top_srcdir/tests/lib.sh"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
cd "$T" || exit 1
TRIALS=${GAMEFS_KILL_TRIALS:-12}

# chunks.csv with chunk 0's dst_x set to $1
chunks_with() {
	$LAY csv G_.lay chunks | awk -F, -v x="$1" 'BEGIN { OFS = "," } NR == 2 { $2 = x } { print }'
}
temps() { ls -a | grep -E '^\.G(_\.lay|\.png)\.gamefs-' ; }

$LAY gen G_.lay --atlas G.png
$LAY atlas a1.png 1024 1024 --seed 3
$LAY atlas a2.png 1024 1024 --seed 4
cp a1.png G.png

# both in one commit at unmount
gfs_mount G_.lay m -o commit=unmount || fail "mount"
chunks_with -60 >m/chunks.csv || fail "chunks.csv edit"
cp a2.png m/atlas.png || fail "atlas edit"
gfs_umount m || fail "unmount"
cmp G.png a2.png || fail "atlas written with the layout"
$LAY csv G_.lay chunks | sed -n 2p | grep -q '^0,-60,' || fail "layout written with the atlas"
[ -z "$(temps)" ] || fail "temporaries left: $(temps)"
ls -a | grep -q 'gamefs-journal' && fail "journal left after a commit"

# a journal left by a kill past the commit point is finished by the next mount
cp G_.lay lay.now
chunks_with -61 >want.csv
gfs_mount G_.lay m -o commit=unmount || fail "mount 2"
cp want.csv m/chunks.csv && cp a1.png m/atlas.png || fail "edits 2"
gfs_umount m || fail "unmount 2"
cp G_.lay lay.new
cp lay.now G_.lay
cp a2.png G.png
cp lay.new .G_.lay.gamefs-Jrn001
cp a1.png .G.png.gamefs-Jrn002
printf '%s\0%s\0%s\0%s\0' "$T/.G.png.gamefs-Jrn002" "$T/G.png" "$T/.G_.lay.gamefs-Jrn001" "$T/G_.lay" \
	>.G_.lay.gamefs-journal
gfs_mount G_.lay m || fail "mount with a journal"
cmp G.png a1.png || fail "journal: atlas not rolled forward"
cmp G_.lay lay.new || fail "journal: layout not rolled forward"
cmp m/atlas.png a1.png || fail "journal: the mount shows the finished commit"
[ -z "$(temps)" ] || fail "journal: temporaries left: $(temps)"
[ -e .G_.lay.gamefs-journal ] && fail "journal kept after it was finished"
gfs_umount m || fail "unmount after the journal"
grep -q "finished a commit a crash interrupted" "$T/gamefs.log" || fail "recovery not reported"
# a journal that names anything but temporaries beside their files is not obeyed
cp a2.png other.png
printf '%s\0%s\0' "$T/other.png" "$T/G.png" >.G_.lay.gamefs-journal
gfs_mount G_.lay m || fail "mount with a foreign journal"
cmp G.png a1.png || fail "a foreign journal replaced the atlas"
[ -e other.png ] || fail "a foreign journal moved a file"
[ -e .G_.lay.gamefs-journal ] && fail "foreign journal kept"
gfs_umount m || fail "unmount after the foreign journal"
grep -q "is not a journal gamefs wrote" "$T/gamefs.log" || fail "foreign journal not reported"

# full disk: neither file changes, no temporary stays
if mkdir -p fs && mount -t tmpfs -o size=6m tmpfs fs 2>/dev/null; then
	GFS_MOUNTS="$GFS_MOUNTS $T/fs"
	cp G_.lay fs/ && cp a1.png fs/G.png || fail "copy to tmpfs"
	(cd fs && chunks_with -62 >"$T/want.csv")
	cp fs/G_.lay lay.old
	python3 -c "
import os
st = os.statvfs('fs'); free = st.f_bavail * st.f_frsize
open('fs/filler', 'wb').write(b'x' * (free - 2 * 1024 * 1024))"
	gfs_mount fs/G_.lay m -o commit=unmount || fail "mount on tmpfs"
	cp want.csv m/chunks.csv && cp a2.png m/atlas.png || fail "edits on tmpfs"
	gfs_umount m && fail "unmount exit status 0 after ENOSPC"
	cmp fs/G_.lay lay.old || fail "ENOSPC: layout replaced without its atlas"
	cmp fs/G.png a1.png || fail "ENOSPC: atlas changed"
	ls -a fs | grep -q 'gamefs-' && fail "ENOSPC: temporary left: $(ls -a fs)"
	grep -q "No space left" "$T/gamefs.log" || fail "ENOSPC not reported"
	umount fs
else
	note "tmpfs not mountable here: ENOSPC case skipped"
fi

# kill trials
old_l=$(sha256sum <G_.lay) old_a=$(sha256sum <G.png)
x=-70 next=a2.png both_old=0 both_new=0
for i in $(seq 1 "$TRIALS"); do
	x=$((x - 1))
	[ "$(cmp -s G.png a1.png && echo 1)" = 1 ] && next=a2.png || next=a1.png
	gfs_mount G_.lay m -o commit=unmount || fail "mount $i"
	pid=$GFS_PID
	chunks_with "$x" >m/chunks.csv && cp "$next" m/atlas.png || fail "edits $i"
	cp m/chunks.csv want.csv
	fusermount3 -u m &
	um=$!
	# the commit runs from about 0.05 s to 0.6 s after the unmount starts
	sleep "0.$(shuf -i 0-600 -n 1 | xargs printf '%03d')"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	wait "$um" 2>/dev/null
	mountpoint -q m && { fusermount3 -u m 2>/dev/null || umount -l m; }
	# the next mount finishes or drops what the kill left
	gfs_mount G_.lay m || fail "remount $i"
	[ -z "$(temps)" ] || fail "trial $i: temporaries left after the next mount: $(temps)"
	ls -a | grep -q 'gamefs-journal' && fail "trial $i: journal left after the next mount"
	now_l=$(sha256sum <G_.lay) now_a=$(sha256sum <G.png)
	if [ "$now_l" = "$old_l" ] && [ "$now_a" = "$old_a" ]; then
		both_old=$((both_old + 1))
	elif [ "$now_l" != "$old_l" ] && [ "$now_a" != "$old_a" ]; then
		cmp -s G.png "$next" || fail "trial $i: atlas is neither the old nor the new one"
		cmp -s m/chunks.csv want.csv || fail "trial $i: layout is neither the old nor the new one"
		both_new=$((both_new + 1)) old_l=$now_l old_a=$now_a
	else
		fail "trial $i: one file old, the other new (layout $([ "$now_l" = "$old_l" ] && echo old || echo new))"
	fi
	gfs_umount m || fail "unmount $i"
done
echo "ok: $TRIALS kill trials ($both_old left both old, $both_new both new)"
