#!/bin/sh
# board.png: 480x350 (60x25 cells of 8x14), read-only, CGA colours, the
# element's default glyph from the code page 437 console font, objects
# drawn with their P1 character and text with the character in its colour.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
font="$top_builddir/src/formats/zzt/zzt-font.c"
if [ -f "$font" ] && grep -q 'zzt_font_real = 0' "$font"; then
	echo "SKIP: built without a console font (install console-data)"; exit 77
fi
cd "$T" || exit 1
$ZZT mk w.zzt
gfs_mount w.zzt m || fail "mount"
B0=m/boards/00-title-screen
check_eq "-r--r--r--" "$(stat -c %A $B0/board.png)" "board.png mode"
check_eq EACCES "$(errno_of "open('$B0/board.png', 'wb')")" "board.png is read-only"
cp $B0/board.png b0.png
cp m/boards/01-wide-runs/board.png b1.png
gfs_umount m || fail "unmount"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "pixels"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
def px(png, x, y):
    w, h, bpp, rows = z.png_pixels(png)
    assert (w, h) == (480, 350), (w, h)
    return tuple(rows[y][x * bpp:x * bpp + 3])
BLUE, WHITE, BLACK, YELLOW = (0, 0, 170), (255, 255, 255), (0, 0, 0), (255, 255, 85)
checks = [
    ('b0.png', 0, 0, BLUE, 'player cell background (colour 0x1f)'),
    ('b0.png', 3, 3, WHITE, 'player glyph 0x02, row 3 is solid'),
    ('b0.png', 8, 0, BLACK, 'object cell background (colour 0x0e)'),
    ('b0.png', 8 + 0, 4, YELLOW, 'object drawn with P1 = 0x01: row 4 left pixel'),
    ('b0.png', 8 + 1, 4, BLACK, 'object glyph 0x01 row 4 is 0x81'),
    ('b0.png', 24 + 3, 3, WHITE, 'blue text showing A: row 3 is 0x10'),
    ('b0.png', 24 + 0, 2, BLUE, 'blue text background'),
    ('b1.png', 4, 10 * 14 + 7, YELLOW, 'solid wall 0xdb in colour 0x4e'),
    ('b1.png', 4, 0, BLACK, 'empty is black'),
]
bad = 0
for png, x, y, want, what in checks:
    got = px(png, x, y)
    if got != want:
        print('FAIL: %s (%d,%d): %s, want %s' % (what, x, y, got, want))
        bad = 1
sys.exit(bad)
PY
echo ok
