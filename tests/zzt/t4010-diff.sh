#!/bin/sh
# Views diff cleanly: two worlds that differ in one tile of their first
# board (a change that makes that board's RLE longer, so every later board
# moves) show exactly one changed line in diff -r of their mounts, in that
# board's elements.csv, and its board.png; no offset or size of another
# board appears in any view.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
cd "$T" || exit 1
$ZZT mk a.zzt
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "make b.zzt"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
a = open('a.zzt', 'rb').read()
w = z.read_world(a)
b0 = w['boards'][0]
elem, color = list(b0.elem), list(b0.color)
t = 12 * z.W + 30               # in the middle of a run: one run becomes three
assert elem[t - 1] == elem[t] == elem[t + 1] and color[t - 1] == color[t] == color[t + 1], 'not in a run'
elem[t] = 22 if elem[t] != 22 else 23
body = bytearray(b0.raw[2:])
old = z.rle(b0.elem, b0.color)
new = z.rle(elem, color)
i = bytes(body).index(old, 51)
body[i:i + len(old)] = new
assert len(new) > len(old)
nb = len(body).to_bytes(2, 'little') + bytes(body)
out = a[:b0.off] + nb + a[b0.off + 2 + b0.size:]
open('b.zzt', 'wb').write(out)
assert z.read_world('b.zzt')['boards'][2].raw == w['boards'][2].raw
PY
gfs_mount a.zzt ma || fail "mount a"
gfs_mount b.zzt mb || fail "mount b"
diff -r ma mb >d.out
gfs_umount ma || fail "unmount a"
gfs_umount mb || fail "unmount b"
check_eq 1 "$(grep -c '^<' d.out)" "lines gone: $(cat d.out)"
check_eq 1 "$(grep -c '^>' d.out)" "lines added: $(cat d.out)"
check_eq "diff -r ma/boards/00-title-screen/elements.csv mb/boards/00-title-screen/elements.csv" \
	"$(grep '^diff' d.out)" "the changed file"
check_eq "Binary files ma/boards/00-title-screen/board.png and mb/boards/00-title-screen/board.png differ" \
	"$(grep '^Binary' d.out)" "the changed render"
check_eq 0 "$(grep -v -c -e '^[<>]' -e '^diff' -e '^Binary' -e '^---$' -e '^[0-9]*c[0-9]*$' d.out)" \
	"other diff lines: $(cat d.out)"
echo ok
