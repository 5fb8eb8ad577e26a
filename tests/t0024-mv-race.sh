#!/bin/sh
# tests/t0024-mv-race.sh [MOVES]: mv across directories never leaves the
# source behind.  A TirNanoG sound moved to music/ is a copy and an unlink
# (an asset stays in its directory: EXDEV); the reader's close and the
# unlink reach the daemon back to back, while the copy's commit has a second
# thread serving, and libfuse could then hide the source for good (gone from
# the listing, kept in the archive).  MOVES (default 40) new sounds are
# written, read and moved; none may stay in sounds/, listed or in the
# archive, and every one must be in music/.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
N=${1:-40}
cd "$T" || exit 1
$P write g.tng --full || fail "write"
python3 -c "import sys; sys.stdout.buffer.write(b'OggS' + bytes(range(256)) * 3)" >gong.ogg
gfs_mount g.tng m || fail "mount"
i=0
while [ "$i" -lt "$N" ]; do
	cp gong.ogg "m/sounds/g$i.ogg" || fail "cp $i"
	cmp -s gong.ogg "m/sounds/g$i.ogg" || fail "g$i.ogg reads back"
	mv "m/sounds/g$i.ogg" "m/music/g$i.ogg" || fail "mv $i"
	i=$((i + 1))
done
ls -a m/sounds | grep -q '^g' && fail "moved sounds still listed: $(ls -a m/sounds | tr '\n' ' ')"
gfs_umount m || fail "unmount"
$P verify g.tng >/dev/null || fail "CRCs"
$P dump g.tng | cut -d' ' -f1 >names
left=$(grep -c '^sounds/g' names)
moved=$(grep -c '^music/g' names)
note "$N moves: $moved in music/, $left left in sounds/"
check_eq 0 "$left" "moved sounds left in the archive"
check_eq "$N" "$moved" "moved sounds in music/"
echo ok
