#!/bin/sh
# board.png draws each board as ZZT does, cell by cell: a generated board
# per special-draw element (line walls joined to their neighbours and the
# board edge, transporters, pushers, bombs, duplicators, objects, the
# animated elements at tick 0, text, ids past the element table) is
# compared glyph by glyph with zztlib.py's own reading of ZZT's draw rules.
# The glyph table: all 256 characters (white text) pixel for pixel against
# the console-data fonts read by Python, and the box drawing characters,
# triangles and pilcrow that a Unicode-mapped console font gets wrong
# checked for their shape.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
[ -f /usr/share/consolefonts/cp865-8x14.psf.gz ] || { echo "SKIP: console-data not installed"; exit 77; }
cd "$T" || exit 1
$ZZT mk d.zzt draw
gfs_mount d.zzt m || fail "mount"
for d in m/boards/*/; do
	cp "$d/board.png" "$(basename "$d").png" || fail "read $d/board.png"
done
gfs_umount m || fail "unmount"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "render"
import sys, unicodedata
sys.path.insert(0, sys.argv[1])
import zztlib as z
font = z.vga_font()
w = z.read_world('d.zzt')
names = ['00-line-walls', '01-transporters', '02-pushers', '03-bombs', '04-duplicators',
         '05-objects', '06-animated', '07-every-element', '08-glyphs']
bad = []
for b, n in zip(w['boards'], names):
    bad += z.compare_render(b, n + '.png', font, n)[:10]
# the expectations themselves: a few cells spelled out, so that a wrong
# oracle cannot agree with a wrong renderer
b = w['boards']
def ch(i, x, y):
    return z.expect_cell(b[i], x - 1, y - 1, z.stat_at(b[i]))[0]
spelled = [(1, 2, 3, ord('^')), (1, 4, 3, ord('v')), (1, 6, 3, ord('(')), (1, 8, 3, ord(')')),
           (1, 40, 3, 0xc5), (2, 2, 5, 0x10), (2, 4, 5, 0x11), (2, 6, 5, 0x1e), (2, 8, 5, 0x1f),
           (3, 2, 7, 0x0b), (3, 6, 7, ord('2')), (4, 8, 9, 0xf8), (5, 2, 11, 1), (5, 40, 11, 2),
           (6, 2, 13, 0xb3), (6, 6, 13, ord('\\')), (6, 10, 13, 0xb3), (6, 14, 13, 0x18)]
for i, x, y, want in spelled:
    if ch(i, x, y) != want:
        bad.append('oracle: board %d x %d y %d is 0x%02x, want 0x%02x' % (i, x, y, ch(i, x, y), want))
# the glyph board, pixel for pixel, and the shapes
wd, ht, rows = z.png_indices('08-glyphs.png')
def glyph(c):
    return [sum(0x80 >> k for k in range(8) if r[k]) for r in z.cell_pixels(rows, c % 60, c // 60)]
for c in range(256):
    if glyph(c) != list(font[c]):
        bad.append('glyph 0x%02x differs from the font' % c)
def runs(bits):
    return sum(1 for i, v in enumerate(bits) if v and (i == 0 or not bits[i - 1]))
def arms(name):
    """BOX DRAWINGS names -> {direction: 'LIGHT' | 'DOUBLE'}"""
    words = name[len('BOX DRAWINGS '):].replace('SINGLE', 'LIGHT')
    weight = None
    if words.split()[0] in ('LIGHT', 'DOUBLE'):
        weight, words = words.split()[0], words.split(' ', 1)[1]
    out = {}
    for part in words.split(' AND '):
        p = part.split()
        for d in {'VERTICAL': ['UP', 'DOWN'], 'HORIZONTAL': ['LEFT', 'RIGHT']}.get(p[0], [p[0]]):
            out[d] = weight or p[1]
    return out
named = 0
for c in range(128, 256):
    name = unicodedata.name(bytes([c]).decode('cp437'))
    if not name.startswith('BOX DRAWINGS'):
        continue
    g = glyph(c)
    px = [[bool(g[y] & (0x80 >> x)) for x in range(8)] for y in range(14)]
    seen = {'UP': runs(px[0]), 'DOWN': runs(px[13]), 'LEFT': runs([r[0] for r in px]),
            'RIGHT': runs([r[7] for r in px])}
    want = {d: {'LIGHT': 1, 'DOUBLE': 2}[a] for d, a in arms(name).items()}
    want = {d: want.get(d, 0) for d in seen}
    if seen != want:
        bad.append('0x%02x %s: lines at the edges %s, want %s' % (c, name, seen, want))
    named += 'DOUBLE' in name
if named != 29:
    bad.append('%d double-line characters checked, want 29' % named)
def widths(g, cols):
    if cols:
        return [sum(1 for y in range(14) if g[y] & (0x80 >> x)) for x in range(8)]
    return [bin(r).count('1') for r in g]
def contiguous(bits):
    return runs(bits) <= 1
for c, cols, grow in ((0x10, True, False), (0x11, True, True), (0x1e, False, True), (0x1f, False, False)):
    g = glyph(c)
    wid = [v for v in widths(g, cols) if v]
    lines = [[bool(r & (0x80 >> x)) for x in range(8)] for r in g] if not cols else \
        [[bool(g[y] & (0x80 >> x)) for y in range(14)] for x in range(8)]
    ok = len(wid) >= 4 and wid == sorted(wid, reverse=not grow) and all(contiguous(l) for l in lines)
    if not ok:
        bad.append('0x%02x is not a solid triangle: %s' % (c, wid))
g = glyph(0x14)
if sum(1 for x in range(8) if sum(1 for y in range(14) if g[y] & (0x80 >> x)) >= 6) < 2:
    bad.append('0x14 has no pilcrow stems')
for line in bad[:40]:
    print('FAIL:', line)
sys.exit(1 if bad else 0)
PY
echo ok
