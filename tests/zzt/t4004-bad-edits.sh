#!/bin/sh
# Bad edits fail with EINVAL at close (or make sed fail), are logged with
# the file and the reason, leave the world untouched, and the view reads
# back its last good content.  A board over 20000 bytes is written but
# logged as too big for ZZT; one over 65535 bytes is refused.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
cd "$T" || exit 1
$ZZT mk w.zzt
cp w.zzt orig.zzt
B0=m/boards/00-title-screen

gfs_mount w.zzt m || fail "mount"
cp $B0/elements.csv good-elements.csv
bad_write() { # FILE PYTHON-STRING-EXPR WHAT
	check_eq EINVAL "$(errno_of "s = $2; f = open('$1', 'w'); f.write(s); f.close()")" "$3"
}
bad_write $B0/elements.csv "open('good-elements.csv').read().rsplit('\\n', 2)[0] + '\\n'" "24 rows"
bad_write $B0/elements.csv "open('good-elements.csv').read().replace('\\n', ',1\\n', 3)" "61 values"
bad_write $B0/colors.csv "open('good-elements.csv').read().replace('\\n', '\\n300,', 3).replace(',', ',,', 0).replace('\\n300,', '\\n', 2)" "value 300"
bad_write $B0/elements.csv "'hello\\n'" "not a grid"
bad_write m/world.ini "'[player]\\nammo = 40000\\n'" "ammo over int16"
bad_write m/world.ini "'[world]\\nname = \"this name is far too long for zzt\"\\n'" "name over 20"
bad_write m/world.ini "'[world]\\nname = \"\\u4e2d\"\\n'" "character outside code page 437"
bad_write m/world.ini "'[world]\\ncolour = 3\\n'" "unknown key"
bad_write $B0/board.ini "'[board]\\ndark = 256\\n'" "dark 256"
bad_write $B0/board.ini "'[board]\\nmessage = \"' + 'x' * 59 + '\"\\n'" "message over 58"
bad_write $B0/stats.csv "'stat,x\\n0,1\\n'" "stats.csv with 2 columns"
bad_write $B0/stats.csv "open('$B0/stats.csv').read().replace(',,0102', ',7,0102')" "bind to a missing stat"
bad_write $B0/stats.csv "open('$B0/stats.csv').read().replace('\\n3,10', '\\n4,10')" "stats out of order"
bad_write $B0/code/bob.oop "'x' * 32768" "code over 32767 bytes"
bad_write $B0/elements.csv "open('good-elements.csv').read().replace('\\n4,36,36,', '\\n4,54,36,', 1)" "element 54, past ZZT's table"
bad_write $B0/stats.csv "open('$B0/stats.csv').read().replace('\\n3,10,10,', '\\n3,62,10,')" "stat at x 62, outside ZZT's board"
bad_write $B0/stats.csv "open('$B0/stats.csv').read().replace('\\n3,10,10,', '\\n3,10,27,')" "stat at y 27, outside ZZT's board"
sed -i 's/^dark = 0/dark = 2x/' $B0/board.ini 2>/dev/null && fail "sed -i with a bad value succeeded"
cmp $B0/elements.csv good-elements.csv || fail "elements.csv does not read back its last good content"
grep -q '^dark = 0$' $B0/board.ini || fail "board.ini does not read back its last good content"
gfs_umount m || fail "unmount"
cmp w.zzt orig.zzt || fail "a bad edit changed the world"
# the one CSV face of records words them all alike: view, line, column and key
grep -q 'stats.csv: line 5, column 1 (stat): want 3 (rows stay in order' gamefs.log || fail "stats order: $(grep stats.csv gamefs.log)"
grep -q 'stats.csv: line 5: bind: 7 is not a stat 1\.\.3' gamefs.log || fail "bind: $(grep stats.csv gamefs.log)"
grep -q "stats.csv: line 5: x 62, y 10 is outside ZZT's board" gamefs.log || fail "x: $(grep stats.csv gamefs.log)"
grep -q 'board.ini: line 2: dark' gamefs.log || note "FIXME: log does not name the file and line (core: gfs_warn over ar->err)"

# board size: over 20000 is written with a warning, over 65535 refused
gfs_mount w.zzt m || fail "mount 2"
python3 -c "open('$B0/code/bob.oop', 'w').write('\\'' + 'x' * 30000 + '\\n')" || fail "30000 bytes of code refused"
B2=m/boards/02-third
python3 -c "open('$B2/code/01.oop', 'w').write('y' * 32000 + '\\n')" || fail "32000 bytes of code refused"
check_eq EINVAL "$(errno_of "f = open('$B2/extra.bin', 'wb'); f.write(b'z' * 34000); f.close()")" "board over 65535"
gfs_umount m || fail "unmount 2"
grep -q 'more than ZZT itself loads' gamefs.log || fail "no warning for a board over 20000 bytes"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "big board"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
w = z.read_world('w.zzt')
o = z.read_world('orig.zzt')
b = w['boards'][0]
assert len(b.stats[1]['code']) == 30002, len(b.stats[1]['code'])
assert b.stats[3]['code'] == o['boards'][0].stats[3]['code']
assert b.size > 20000
assert w['boards'][1].raw == o['boards'][1].raw
assert w['boards'][2].stats[1]['code'] == b'y' * 32000 + b'\r'
assert w['boards'][2].tail == b'TAILBYTES'
PY

# a world that already holds them: check says so (the stat is an error), the
# mount stays writable and an edit elsewhere keeps them
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "make odd.zzt"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
e, c = [0] * z.TILES, [0x0f] * z.TILES
e[5], e[6] = 60, 60
b = z.board_bytes(b'Odd', e, c, [dict(x=1, y=1), dict(x=100, y=3)])
open('odd.zzt', 'wb').write(z.header_bytes(1) + b)
PY
"$GAMEFS" check odd.zzt >check.out && fail "check passed a stat outside the board"
grep -q 'board 0: error: stat 1 at x 100, y 3 is outside' check.out || fail "check: $(cat check.out)"
grep -q 'board 0: warning: 2 tiles with element ids past' check.out || fail "check: $(cat check.out)"
gfs_mount odd.zzt m || fail "mount odd"
sed -i '2s/^0,/21,/' m/boards/00-odd/elements.csv || fail "edit beside element 60"
gfs_umount m || fail "unmount odd"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "odd.zzt after the edit"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
b = z.read_world('odd.zzt')['boards'][0]
assert b.elem[:7] == [21, 0, 0, 0, 0, 60, 60], b.elem[:7]
assert b.stats[1]['x'] == 100
PY
echo ok
