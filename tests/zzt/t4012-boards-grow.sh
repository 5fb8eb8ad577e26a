#!/bin/sh
# Boards made and removed as KevEdit does: cp -r of a board folder and mkdir
# (a blank board, ZZT's BoardCreate) append boards with the next number and
# the header's count follows; rm -r removes a board nothing leads to (later
# boards move down, their exits and passages follow), refuses one an exit
# leads to with EBUSY naming it (archive unchanged); the limit on boards is
# ENOSPC.  check passes after each step; untouched boards stay byte-identical.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
cd "$T" || exit 1
$ZZT mk w.zzt
cp w.zzt orig.zzt
gfs_mount w.zzt m || fail "mount"
# board 1 leads east to board 2
sed -i 's/^exit_east = 0/exit_east = 2/' m/boards/01-wide-runs/board.ini || fail "exit to board 2"
cp w.zzt linked.zzt
cp -r m/boards/00-title-screen m/boards/03-copy || fail "cp -r a board"
mkdir m/boards/04-My\ Forest || fail "mkdir a board"
check_eq "" "$(ls m/boards/04-My\ Forest)" "a made board's folder is empty until the next mount"
check_eq EINVAL "$(errno_of "os.mkdir('m/boards/09-far')")" "a number that is not the next"
check_eq EPERM "$(errno_of "os.mkdir('m/boards/03-copy/sub')")" "other folders"
"$GAMEFS" check w.zzt >check.out || fail "check after the new boards: $(cat check.out)"
cp w.zzt before-rm.zzt
check_eq EBUSY "$(errno_of "os.unlink('m/boards/02-third/board.ini')")" "rm of a board an exit leads to"
grep -q 'board 2 is still the destination of the east exit of board 01-wide-runs' m/.gamefs.log ||
	fail "EBUSY names the referrer"
rm -r m/boards/02-third 2>/dev/null && fail "rm -r of a board an exit leads to"
rm -r m/boards/00-title-screen 2>/dev/null && fail "rm -r of the title screen"
cmp -s w.zzt before-rm.zzt || fail "a refused rm -r changed the archive"
ls m/boards/02-third/code >/dev/null && [ -f m/boards/02-third/board.ini ] || fail "a refused rm -r removed files"
cp w.zzt grown.zzt
gfs_umount m || fail "unmount"

python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "read back the grown world"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
w, o = z.read_world('w.zzt'), z.read_world('orig.zzt')
assert len(w['boards']) == 5, len(w['boards'])
assert z.s16(w['header'], 2) == 4, 'board count in the header'
a, c = w['boards'][0], w['boards'][3]
# a program copied ends in CR, as ZZT's editor writes it (the view cannot say it did not)
def norm(stats):
    return [dict(s, code=s['code'].rstrip(b'\r'), length=None) for s in stats]
assert (a.elem, a.color, a.props, a.tail) == (c.elem, c.color, c.props, c.tail), 'copy'
assert norm(a.stats) == norm(c.stats), 'copied stats'
assert c.name == b'Title screen'
f = w['boards'][4]
assert f.name == b'My Forest', f.name
assert len(f.stats) == 1 and (f.stats[0]['x'], f.stats[0]['y'], f.stats[0]['cycle']) == (30, 12, 1)
assert f.elem[11 * 60 + 29] == 4 and f.elem[0] == 22 and f.color[0] == 0x0e and f.elem[61] == 0
assert f.props[0] == 255, 'max shots'
assert w['boards'][0].raw == o['boards'][0].raw and w['boards'][2].raw == o['boards'][2].raw
PY

# after a fresh mount the copy shows what its source does, under its number
gfs_mount w.zzt m || fail "mount 2"
diff -r m/boards/00-title-screen m/boards/03-title-screen >/dev/null || fail "the copy reads back as its source"
ls m/boards/04-my-forest/board.ini >/dev/null || fail "the blank board has its views"
rm -r m/boards/03-title-screen || fail "rm -r of a board nothing leads to"
check_eq "00-title-screen 01-wide-runs 02-third 03-my-forest" "$(ls m/boards | tr '\n' ' ' | sed 's/ $//')" \
	"later boards move down"
"$GAMEFS" check w.zzt >check.out || fail "check after the removal: $(cat check.out)"
gfs_umount m || fail "unmount 2"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "read back the shrunk world"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
w, g = z.read_world('w.zzt'), z.read_world('grown.zzt')
assert len(w['boards']) == 4 and z.s16(w['header'], 2) == 3
for i in range(3):
    assert w['boards'][i].raw == g['boards'][i].raw, i
assert w['boards'][3].raw == g['boards'][4].raw
PY

# a removal lowers the exits, passages and start board that lead past it;
# each of them makes a board busy; the limit on boards is ENOSPC
gfs_mount w.zzt m || fail "mount 3"
sed -i 's/^exit_east = 2/exit_east = 3/' m/boards/01-wide-runs/board.ini || fail "exit to board 3"
sed -i 's/^board = .*/board = 3/' m/world.ini || fail "start board 3"
# a passage (element 11) at x 5, y 5 of board 1 with its stat, leading to board 3
python3 - <<'PY' || fail "a passage to board 3"
p = 'm/boards/01-wide-runs/elements.csv'
rows = open(p).read().split('\n')
r = rows[5].split(','); r[4] = '11'; rows[5] = ','.join(r)
open(p, 'w').write('\n'.join(rows))
open('m/boards/01-wide-runs/stats.csv', 'a').write('1,5,5,0,0,0,0,0,3,-1,-1,0,0,0,0,,\n')
PY
rm -r m/boards/02-third || fail "rm -r board 2"
grep -q '^exit_east = 2$' m/boards/01-wide-runs/board.ini || fail "the exit follows its board down"
grep -q '^board = 2$' m/world.ini || fail "the start board follows its board down"
grep -q '^1,5,5,0,0,0,0,0,2,' m/boards/01-wide-runs/stats.csv || fail "the passage follows its board down"
rm -r m/boards/02-my-forest 2>/dev/null && fail "rm -r of the start board"
grep -q 'board 2 is still the destination of the start board (world.ini board)' m/.gamefs.log ||
	fail "EBUSY names the start board"
sed -i 's/^exit_east = 2/exit_east = 0/' m/boards/01-wide-runs/board.ini || fail "exit removed"
sed -i 's/^board = 2/board = 0/' m/world.ini || fail "start board 0"
rm -r m/boards/02-my-forest 2>/dev/null && fail "rm -r of a board a passage leads to"
grep -q 'board 2 is still the destination of the passage of board 01-wide-runs (stats.csv stat 1, p3)' \
	m/.gamefs.log || fail "EBUSY names the passage"
i=3
while [ $i -lt 101 ]; do mkdir m/boards/$i || fail "mkdir board $i"; i=$((i + 1)); done
check_eq ENOSPC "$(errno_of "os.mkdir('m/boards/101-one-too-many')")" "the 102nd board"
grep -q "ZZT's most (boards 0-100)" m/.gamefs.log || fail "ENOSPC says the limit"
gfs_umount m || fail "unmount 3"
"$GAMEFS" check w.zzt >check.out || fail "check at 101 boards: $(cat check.out)"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "read back 101 boards"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
w = z.read_world('w.zzt')
assert len(w['boards']) == 101 and w['boards'][1].stats[1]['p3'] == 2 and w['boards'][1].props[5] == 0
assert z.s16(w['header'], 0x11) == 0, 'start board'
PY

# TOWN30.ZZT grown by a copy of its last board and shrunk back: the same bytes
town="$top_srcdir/../shared/corpus/zzt/TOWN30.ZZT"
if [ -f "$town" ]; then
	cp "$town" town.zzt && chmod u+w town.zzt
	gfs_mount town.zzt t || fail "mount town"
	cp -r t/boards/33-end-game-ii t/boards/34-copy || fail "cp -r in town"
	gfs_umount t || fail "unmount town"
	"$GAMEFS" check town.zzt >check.out || fail "check town: $(cat check.out)"
	gfs_mount town.zzt t || fail "mount town 2"
	diff -r t/boards/33-end-game-ii t/boards/34-end-game-ii >/dev/null || fail "town's copy reads back as its source"
	rm -r t/boards/33-end-game-ii 2>/dev/null && fail "rm -r of a board an exit leads to (town)"
	grep -q 'board 33 is still the destination of the south exit of board 32-end-game' t/.gamefs.log ||
		fail "town: EBUSY names the exit"
	rm -r t/boards/34-end-game-ii || fail "rm -r of town's copy"
	gfs_umount t || fail "unmount town 2"
	cmp town.zzt "$town" || fail "town grown and shrunk back is not byte-identical"
else
	note "corpus TOWN30.ZZT absent: its part skipped"
fi
echo ok
