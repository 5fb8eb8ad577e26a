#!/bin/sh
# Boards renamed and moved with mv: boards/NN-old to boards/NN-new title
# renames the board (its name is the title as typed); to another number MM
# it moves the board there, the boards between shift by one (a name looked
# up before is gone at once) and the start board, the exits and the
# passages follow their boards.  Board 0 keeps its
# number, a number past the last board and a title ZZT cannot hold are
# refused (EINVAL, the reason in the log, the archive unchanged).  check
# passes, a fresh mount shows the new names, the ZZT reader agrees, and a
# move back gives the boards their bytes again.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
cd "$T" || exit 1
$ZZT mk w.zzt
gfs_mount w.zzt m || fail "mount"
mkdir m/boards/03-cellar || fail "a fourth board"
gfs_umount m || fail "unmount"
gfs_mount w.zzt m || fail "mount with the fourth board"
# board 1 leads east to board 2; board 3's passage leads to board 2; the world starts on 2
sed -i 's/^exit_east = 0/exit_east = 2/' m/boards/01-wide-runs/board.ini || fail "exit to board 2"
sed -i 's/^board = .*/board = 2/' m/world.ini || fail "start board 2"
python3 - <<'PY' || fail "a passage to board 2"
p = 'm/boards/03-cellar/elements.csv'
rows = open(p).read().split('\n')
r = rows[5].split(','); r[4] = '11'; rows[5] = ','.join(r)
open(p, 'w').write('\n'.join(rows))
open('m/boards/03-cellar/stats.csv', 'a').write('1,5,5,0,0,0,0,0,2,-1,-1,0,0,0,0,,\n')
PY
gfs_umount m || fail "unmount 1"
cp w.zzt before.zzt

gfs_mount w.zzt m || fail "mount 2"
mv "m/boards/02-third" "m/boards/02-The Third Room" || fail "mv renames a board"
grep -qx 'name = "The Third Room"' "m/boards/02-The Third Room/board.ini" || fail "the new title"
cp w.zzt snap.zzt
check_eq EINVAL "$(errno_of "os.rename('m/boards/00-title-screen', 'm/boards/02-title')")" "board 0 moved"
grep -q "board 0 is the title screen: it keeps its number" m/.gamefs.log || fail "why board 0 stays"
check_eq EINVAL "$(errno_of "os.rename('m/boards/01-wide-runs', 'm/boards/04-far')")" "past the last board"
grep -q "04-far: the last board is 03" m/.gamefs.log || fail "why not 04"
check_eq EINVAL "$(errno_of "os.rename('m/boards/01-wide-runs', 'm/boards/01-\u4e00')")" "a title not in CP437"
check_eq EINVAL "$(errno_of "os.rename('m/boards/01-wide-runs', 'm/boards/01-' + 'x' * 51)")" "a title too long"
check_eq EINVAL "$(errno_of "os.rename('m/boards/01-wide-runs', 'm/01-x')")" "out of boards/"
check_eq EPERM "$(errno_of "os.rename('m/boards/01-wide-runs/board.ini', 'm/boards/01-wide-runs/b.ini')")" \
	"a board's file"
[ -d m/boards/01-wide-runs ] || fail "a refused mv moved the board"
cmp -s snap.zzt w.zzt || fail "refused renames changed the archive"
# board 2 moves to 1: board 1 becomes 2, and everything that led to either follows
mv "m/boards/02-The Third Room" m/boards/01-third || fail "mv to another number"
check_eq "00-title-screen 01-third 02-wide-runs 03-cellar" "$(ls m/boards | tr '\n' ' ' | sed 's/ $//')" \
	"the boards after the move"
grep -q '^exit_east = 1$' m/boards/02-wide-runs/board.ini || fail "the exit follows its board"
grep -q '^board = 1$' m/world.ini || fail "the start board follows its board"
grep -q '^1,5,5,0,0,0,0,0,1,' m/boards/03-cellar/stats.csv || fail "the passage follows its board"
grep -qx 'name = "Wide runs"' m/boards/02-wide-runs/board.ini || fail "the shifted board's views"
"$GAMEFS" check w.zzt >check.out || fail "check after the move: $(cat check.out)"
gfs_umount m || fail "unmount 2"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "the ZZT reader"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
w, o = z.read_world('w.zzt'), z.read_world('before.zzt')
assert [b.name for b in w['boards']] == [b'Title screen', b'third', b'Wide runs', b'cellar'], \
    [b.name for b in w['boards']]
assert z.s16(w['header'], 2) == 3 and z.s16(w['header'], 0x11) == 1, 'count, start board'
assert w['boards'][2].props[5] == 1 and w['boards'][3].stats[1]['p3'] == 1
assert w['boards'][0].raw == o['boards'][0].raw, 'the title screen untouched'
assert (w['boards'][1].elem, w['boards'][1].stats) == (o['boards'][2].elem, o['boards'][2].stats)
PY

# a fresh mount: the names; moving back up gives every board its bytes again
gfs_mount w.zzt m || fail "mount 3"
check_eq "00-title-screen 01-third 02-wide-runs 03-cellar" "$(ls m/boards | tr '\n' ' ' | sed 's/ $//')" \
	"a fresh mount's boards"
# the kernel is told of the names a move shifted: a name looked up just before
# is gone at once, not after the entry timeout (1 s)
python3 - <<'PY' || fail "mv up, and the shifted board's old name"
import os, sys, time
b = 'm/boards/'
for n in os.listdir(b):
    os.stat(b + n)
t0 = time.monotonic()
os.rename(b + '01-third', b + '02-third')
t1 = time.monotonic()
while os.path.exists(b + '02-wide-runs') and time.monotonic() < t0 + 0.9:
    time.sleep(0.01)
if os.path.exists(b + '02-wide-runs') and t1 - t0 < 0.5:
    sys.exit("02-wide-runs, now 01-wide-runs, still found %.2f s after the move" % (time.monotonic() - t1))
PY
check_eq "00-title-screen 01-wide-runs 02-third 03-cellar" "$(ls m/boards | tr '\n' ' ' | sed 's/ $//')" \
	"the boards after the move back"
gfs_umount m || fail "unmount 3"
"$GAMEFS" check w.zzt >check.out || fail "check after the move back: $(cat check.out)"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "the boards' bytes after the move back"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
w, o = z.read_world('w.zzt'), z.read_world('before.zzt')
assert z.s16(w['header'], 0x11) == 2
for i in (0, 1, 3):
    assert w['boards'][i].raw == o['boards'][i].raw, i
assert w['boards'][2].name == b'third'
PY
echo ok
