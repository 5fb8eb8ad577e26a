#!/bin/sh
# Stats and their code: a row added at the end of stats.csv is a new stat,
# rows removed from the end go with their code; a bind in stats.csv shares
# another stat's code (and drops the stat's own code file); code/NN.oop can
# be created for a stat without code and removed to leave it without.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
cd "$T" || exit 1
$ZZT mk w.zzt
cp w.zzt orig.zzt
B0=m/boards/00-title-screen
B2=m/boards/02-third

gfs_mount w.zzt m || fail "mount"
# code/ is filled on first use: a program read by path before any listing
first=$(cat $B0/code/bob.oop) || fail "code/bob.oop by path before a listing"
[ -n "$first" ] || fail "code/bob.oop by path is empty"
printf '4,20,20,0,0,3,1,0,0,-1,-1,0,0,0,0,,\n5,21,20,0,0,3,1,0,0,-1,-1,0,0,0,0,4,\n' >>$B0/stats.csv || fail "append stats"
check_eq "03.oop bob.oop" "$(ls $B0/code | tr '\n' ' ' | sed 's/ $//')" "code files after adding stats"
printf '@New\n#end\n' >$B0/code/04.oop || fail "create code for the new stat"
check_eq EINVAL "$(errno_of "open('$B0/code/02.oop', 'w')")" "code for a bound stat"
check_eq EINVAL "$(errno_of "open('$B0/code/09.oop', 'w')")" "code for a missing stat"
check_eq EINVAL "$(errno_of "open('$B0/code/4.oop', 'w')")" "code name not NN.oop"
check_eq EPERM "$(errno_of "open('$B0/notes.txt', 'w')")" "other new files"
rm $B0/code/03.oop || fail "rm code"
# stat 1 now binds to stat 4: its own code file goes away
sed -i 's/^1,2,1,0,0,3,1,0,0,-1,-1,0,0,0x00000000,0,,$/1,2,1,0,0,3,1,0,0,-1,-1,0,0,0x00000000,0,4,/' $B0/stats.csv ||
	fail "sed bind"
check_eq "04.oop" "$(ls $B0/code | tr '\n' ' ' | sed 's/ $//')" "code files after the bind"
# board 2: drop its last stat (and its code)
sed -i '$d' $B2/stats.csv || fail "drop a stat"
check_eq "" "$(ls $B2/code)" "board 2 code after dropping the stat"
gfs_umount m || fail "unmount"

python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "read back"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
w = z.read_world('w.zzt')
o = z.read_world('orig.zzt')
s = w['boards'][0].stats
assert len(s) == 6, len(s)
assert s[1]['bind'] == 4 and s[1]['length'] == -4, s[1]
assert s[2]['bind'] == 1
assert s[3]['length'] == 0 and s[3]['code'] == b''
assert s[4]['code'] == b'@New\r#end\r' and (s[4]['x'], s[4]['y']) == (20, 20)
assert s[5]['bind'] == 4
assert len(w['boards'][2].stats) == 1 and w['boards'][2].tail == b'TAILBYTES'
assert w['boards'][1].raw == o['boards'][1].raw
PY
# a created code file is named by its stat number until the next mount, then by its @name
"$GAMEFS" ls w.zzt boards/00-title-screen/code | grep -q ' boards/00-title-screen/code/new.oop$' ||
	fail "04.oop (@New) is new.oop after reload"
echo ok
