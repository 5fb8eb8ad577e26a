#!/bin/sh
# Edits of world settings, tiles, colours, stats, code and board settings
# with ordinary tools survive unmount and reload; every board not edited
# stays byte-identical, stale bytes after a shortened string stay, and the
# re-encoded boards use runs of at most 255 that never cross the board end.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
cd "$T" || exit 1
$ZZT mk w.zzt
cp w.zzt orig.zzt
B0=m/boards/00-title-screen
B2=m/boards/02-third

gfs_mount w.zzt m || fail "mount"
sed -i 's/^ammo = .*/ammo = 42/; s/^flag1 = .*/flag1 = "OK"/; s/^name = .*/name = "Caf\xc3\xa9 \\"Z\\""/' m/world.ini ||
	fail "sed world.ini"
sed -i 's/Hello there/Hi/' $B0/code/bob.oop || fail "sed code"
sed -i 's/^3,10,10,0,0,1,/3,10,10,0,0,2,/' $B0/stats.csv || fail "sed stats"
python3 - <<'PY' || fail "python edit of elements.csv"
p = 'm/boards/00-title-screen/elements.csv'
rows = open(p).read().split('\n')
r = rows[3].split(','); r[4] = '22'; rows[3] = ','.join(r)
open(p, 'w').write('\n'.join(rows))
p = 'm/boards/00-title-screen/colors.csv'
rows = open(p).read().split('\n')
r = rows[25].split(','); r[59] = '0x4f'; rows[25] = ','.join(r)
open(p, 'w').write('\n'.join(rows))
PY
sed -i 's/^dark = 0/dark = 1/; s/^exit_east = 0/exit_east = 1/; s/^message = .*/message = "Hi \\"you\\""/' \
	$B2/board.ini || fail "sed board.ini"
# vim, as a user would (sed when there is no vim)
if command -v vim >/dev/null 2>&1; then
	vim -u NONE -i NONE -N -n -es -c '%s/#end/#END/' -c 'wq' $B2/code/01.oop </dev/null || fail "vim"
else
	sed -i 's/#end/#END/' $B2/code/01.oop || fail "sed code"
fi
grep -q '^#END$' $B2/code/01.oop || fail "code edit not seen"
gfs_umount m || fail "unmount"

python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "the world read back differs"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
a = z.read_world('orig.zzt')
b = z.read_world('w.zzt')
bad = []
def want(c, m):
    if not c:
        bad.append(m)
h = b['header']
want(z.s16(h, 4) == 42, 'ammo')
want(h[71:92] == b'\x02OKSTALE' + bytes(13), 'flag1 with its stale bytes: %r' % h[71:92])
want(h[29] == 8 and h[30:38] == b'Caf\x82 "Z"', 'world name: %r' % h[29:50])
want(h[38:50] == a['header'][38:50], 'stale bytes after the world name')
want(h[50:71] == a['header'][50:71] and h[92:] == a['header'][92:], 'other header bytes')
want(b['boards'][1].raw == a['boards'][1].raw, 'board 1 not byte-identical')
b0, a0 = b['boards'][0], a['boards'][0]
want(b0.elem[2 * 60 + 4] == 22, 'tile edit')
want(b0.color[24 * 60 + 59] == 0x4f, 'colour edit')
want([x for i, x in enumerate(b0.elem) if i != 124] == [x for i, x in enumerate(a0.elem) if i != 124], 'other tiles')
want(b0.stats[1]['code'] == b"@Bob\r#end\r:touch\r'Hi\r", 'code: %r' % b0.stats[1]['code'])
want(b0.stats[2]['bind'] == 1, 'bind kept')
want(b0.stats[3]['cycle'] == 2 and b0.stats[3]['padding'] == b'\1\2' + bytes(6), 'stat edit')
want(b0.name_raw == a0.name_raw, 'board name')
b2, a2 = b['boards'][2], a['boards'][2]
want(b2.props[1] == 1 and b2.props[5] == 1, 'dark / exit_east')
want(b2.props[7] == 8 and b2.props[8:16] == b'Hi "you"', 'message')
want(b2.stats[1]['code'] == b'#END\r', 'vim edit: %r' % b2.stats[1]['code'])
want(b2.tail == b'TAILBYTES', 'board tail')
want(b2.elem == a2.elem and b2.color == a2.color, 'board 2 tiles')
for bd in (b0, b2):
    d = bd.raw
    p = 53
    n = 0
    while n < 1500:
        cnt = d[p]
        want(1 <= cnt <= 255, 'run count %d' % cnt)
        n += cnt or 256
        p += 3
    want(n == 1500, 'runs cross the board end')
for m in bad:
    print('FAIL:', m)
sys.exit(1 if bad else 0)
PY
"$GAMEFS" check w.zzt >/dev/null || fail "check after edits"

# diff -r of the two worlds mounted side by side names what changed
gfs_mount orig.zzt m1 -o ro || fail "mount orig"
gfs_mount w.zzt m2 -o ro || fail "mount edited"
diff -r m1 m2 >diff.out
gfs_umount m1 || fail "unmount orig"
gfs_umount m2 || fail "unmount edited"
grep -q "^diff -r m1/boards/00-title-screen/elements.csv" diff.out || fail "diff misses the tile edit"
grep -q "^> 'Hi$" diff.out || fail "diff misses the code line: $(cat diff.out)"
grep -q "^> ammo = 42$" diff.out || fail "diff misses the world edit"
grep -q "01-wide-runs" diff.out && fail "diff shows the untouched board"
echo ok
