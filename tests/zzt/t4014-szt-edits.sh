#!/bin/sh
# Super ZZT worlds edit as ZZT worlds do: a cell changed with sed in
# elements.csv and colors.csv, object code in code/NAME.oop, the header's
# own fields (stones, the 16th flag) in world.ini and the camera in
# board.ini come back from sztlib.py's independent reader, with the other
# boards byte-identical.  Refusals (EINVAL: an element id past Super ZZT's
# table 0-79, a stat outside its 96x80 board, ZZT-only keys, a board past
# 65535 bytes) leave the world byte-identical.  mkdir and cp -r make boards
# of Super ZZT's size, up to its 33.
. "$top_srcdir/tests/lib.sh"
SZT="python3 $top_srcdir/tests/zzt/sztlib.py"
cd "$T" || exit 1
$SZT mk w.szt every || fail "generate"
cp w.szt orig.szt
B2=m/boards/02-stats-code-and-text

# refusals first: nothing changes
gfs_mount w.szt m || fail "mount"
bad_write() { # FILE PYTHON-STRING-EXPR WHAT
	check_eq EINVAL "$(errno_of "s = $2; f = open('$1', 'w'); f.write(s); f.close()")" "$3"
}
bad_write $B2/elements.csv "open('$B2/elements.csv').read().replace('\\n47,47,', '\\n80,47,', 1)" "element 80"
bad_write $B2/elements.csv "open('$B2/elements.csv').read().replace('\\n47,47,', '\\n47,255,', 1)" "element 255"
bad_write $B2/elements.csv "open('$B2/elements.csv').read().rsplit('\\n', 2)[0] + '\\n'" "79 rows"
bad_write $B2/stats.csv "open('$B2/stats.csv').read().replace('\\n1,4,4,', '\\n1,98,4,')" "stat at x 98"
bad_write $B2/stats.csv "open('$B2/stats.csv').read().replace('\\n1,4,4,', '\\n1,4,82,')" "stat at y 82"
bad_write $B2/stats.csv "open('$B2/stats.csv').read().replace(',0x00000000,0,\\n', ',0x00000000,0,,00\\n', 1)" "a padding column"
bad_write $B2/board.ini "'[board]\\ndark = 1\\n'" "dark: a ZZT key"
bad_write $B2/board.ini "'[board]\\nmessage = \"hi\"\\n'" "message: a ZZT key"
bad_write $B2/board.ini "'[board]\\nname = \"' + 'n' * 61 + '\"\\n'" "name over 60"
bad_write m/world.ini "'[player]\\ntorches = 3\\n'" "torches: a ZZT key"
bad_write m/world.ini "'[flags]\\nflag16 = \"X\"\\n'" "a 17th flag"
python3 -c "open('$B2/code/guard.oop', 'w').write('\\'' + 'x' * 32000 + '\\n')" || fail "32000 bytes of code refused"
bad_write $B2/code/28.oop "'y' * 32700" "board over 65535 bytes"
gfs_umount m || fail "unmount"
grep -q "element 80 is not one of Super ZZT's (0-79)" gamefs.log || fail "element message: $(grep elements.csv gamefs.log)"
grep -q "x 98, y 4 is outside Super ZZT's board (x 0-97, y 0-81)" gamefs.log || fail "stat message"
grep -q "more than Super ZZT itself loads (32767)" gamefs.log || fail "no warning for a board over 32767 bytes"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "the accepted code"
import sys
sys.path.insert(0, sys.argv[1])
import sztlib as s
w, o = s.read_world('w.szt'), s.read_world('orig.szt')
assert w['header'] == o['header']
assert [b.raw for b in w['boards'][:2]] == [b.raw for b in o['boards'][:2]], 'boards 0-1 changed'
b = w['boards'][2]
assert b.stats[26]['code'] == b"'" + b'x' * 32000 + b'\r', 'guard code'
assert b.elem == o['boards'][2].elem and b.info == o['boards'][2].info
PY
cp orig.szt w.szt

# edits
gfs_mount w.szt m || fail "mount 2"
sed -i '21s/^\(\([0-9]*,\)\{49\}\)47,/\151,/' $B2/elements.csv || fail "sed elements.csv"
sed -i '21s/^\(\([0-9]*,\)\{49\}\)8,/\1159,/' $B2/colors.csv || fail "sed colors.csv"
printf '@guard\n#end\n:touch\n"Welcome to Super ZZT\n#give gems 5\n' >$B2/code/guard.oop || fail "code"
sed -i 's/^stones = -1$/stones = 3/; s/^flag15 = ""$/flag15 = "LAST"/' m/world.ini || fail "world.ini"
sed -i 's/^camera_y = 0$/camera_y = 7/; s/^exit_east = 0$/exit_east = 1/' $B2/board.ini || fail "board.ini"
grep -q '^camera_y = 7$' $B2/board.ini || fail "board.ini does not read back"
gfs_umount m || fail "unmount 2"
check_eq "51,159" "$($SZT get w.szt 2 50 20)" "the edited cell"
check_eq "47,8" "$($SZT get w.szt 2 51 20)" "the cell after it"
printf '@guard\n#end\n:touch\n"Welcome to Super ZZT\n#give gems 5\n' >want.oop
$SZT code w.szt 2 26 | cmp - want.oop || fail "code read back: $($SZT code w.szt 2 26)"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "re-read"
import sys, struct
sys.path.insert(0, sys.argv[1])
import sztlib as s
w, o = s.read_world('w.szt'), s.read_world('orig.szt')
h = w['header']
assert struct.unpack_from('<h', h, 0x185)[0] == 3, 'stones'
assert h[0x30 + 21 * 15:0x30 + 21 * 15 + 5] == b'\x04LAST', 'flag15'
diff = [i for i in range(1024) if h[i] != o['header'][i]]
f15 = 0x30 + 21 * 15
assert diff == list(range(f15, f15 + 5)) + [0x185, 0x186], [hex(i) for i in diff]
assert [b.raw for b in w['boards'][:2]] == [b.raw for b in o['boards'][:2]], 'untouched boards changed'
b, ob = w['boards'][2], o['boards'][2]
assert struct.unpack_from('<h', b.info, 10)[0] == 7 and b.info[4] == 1, 'camera_y, exit_east'
assert [i for i in range(30) if b.info[i] != ob.info[i]] == [4, 10], 'board info'
assert sum(1 for i in range(s.TILES) if b.elem[i] != ob.elem[i]) == 1
assert len(b.stats) == len(ob.stats)
PY

# boards made: mkdir and cp -r, Super ZZT's size, at most 33
gfs_mount w.szt m || fail "mount 3"
mkdir m/boards/03-Blank || fail "mkdir"
cp -r m/boards/01-lines-and-webs m/boards/04-copy || fail "cp -r"
check_eq "" "$(ls m/boards/03-Blank)" "a made board's folder is empty until the next mount"
i=5
while [ $i -lt 33 ]; do mkdir m/boards/$i || fail "mkdir board $i"; i=$((i + 1)); done
check_eq ENOSPC "$(errno_of "os.mkdir('m/boards/33-one-too-many')")" "the 34th board"
gfs_umount m || fail "unmount 3"
"$GAMEFS" check w.szt >check.out || fail "check: $(cat check.out)"
grep -q '33 of 33 boards' check.out || fail "check: $(head -2 check.out)"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "boards made"
import sys
sys.path.insert(0, sys.argv[1])
import sztlib as s
w = s.read_world('w.szt')
b = w['boards']
assert len(b) == 33
assert b[3].name == b'Blank' and b[3].elem[39 * 96 + 47] == s.E['player'], 'blank board'
assert b[3].stats[0]['x'] == 48 and b[3].stats[0]['y'] == 40
assert b[4].elem == b[1].elem and b[4].color == b[1].color and b[4].info == b[1].info, 'copy'
assert [st['under_element'] for st in b[4].stats] == [st['under_element'] for st in b[1].stats]
PY
"$GAMEFS" extract w.szt x || fail "extract the grown world"
$SZT compare w.szt x || fail "the grown world's tree"
echo ok
