#!/bin/sh
# Tilesets (TIL Mode-X pages) as 320x200 PNG in the master palette: the
# pixels are the page's indices; a retouched PNG (written as RGB by another
# program) changes exactly the pixel retouched; a wrong size, a colour the
# palette lacks, or a file that is no PNG: EINVAL, nothing changes on disk.
# ImageMagick's convert (where installed) retouches a pixel the same way.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

# retouched WHAT: g.rpg is orig.rpg with tileset pixel 5,3 set to index 77, nothing else
retouched() {
	python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "$1"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
want = bytearray(a['GAMEFS.TIL'])
want[(5 % 4) * 16000 + 3 * 80 + 5 // 4] = 77     # #4db21b is index 77
assert b['GAMEFS.TIL'] == bytes(want)
for k in a:
    assert k == 'GAMEFS.TIL' or a[k] == b[k], k
PY
}

for layout in old new; do
	$RPG mkgame g.rpg $layout
	cp g.rpg orig.rpg
	gfs_mount g.rpg m || fail "mount $layout"
	check_eq "00.png" "$(ls m/tilesets)" "$layout: one page"
	$RPG png-rgb m/tilesets/00.png >got.txt || fail "$layout: read PNG"
	python3 - "$top_srcdir/tests" got.txt <<'PY' || fail "$layout: PNG pixels are not the page's colours"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
lines = open(sys.argv[2]).read().split()
assert lines[:2] == ['320', '200'], lines[:2]
pal, px = t.master_palette(), t.tileset_pixels()
for y in range(200):
    want = b''.join(pal[3 * v:3 * v + 3] for v in px[y * 320:(y + 1) * 320])
    assert bytes.fromhex(lines[2 + y]) == want, y
PY
	# unchanged, then one pixel set to the colour of index 77 by an RGB writer
	cp m/tilesets/00.png same.png && cp same.png m/tilesets/00.png || fail "$layout: write back"
	cmp g.rpg orig.rpg || fail "$layout: an unchanged PNG changed the archive"
	$RPG png-set m/tilesets/00.png new.png 5 3 4db21b || fail "png-set"
	cp new.png m/tilesets/00.png || fail "$layout: cp retouched PNG"
	cp g.rpg good.rpg
	$RPG png-set m/tilesets/00.png bad.png 6 3 010203
	check_eq EINVAL "$(errno_of "f=open('m/tilesets/00.png','wb'); f.write(open('bad.png','rb').read()); f.close()")" "$layout: colour not in the palette"
	grep -q "00.png: pixel 6,3: colour #010203 is not in the master palette" m/.gamefs.log || fail "$layout: log: $(cat m/.gamefs.log)"
	python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests'); import rpgtool as t
t.png_write('small.png', 320, 199, [bytes(320)] * 199, t.master_palette())"
	check_eq EINVAL "$(errno_of "f=open('m/tilesets/00.png','wb'); f.write(open('small.png','rb').read()); f.close()")" "$layout: 320x199"
	check_eq EINVAL "$(errno_of "f=open('m/tilesets/00.png','wb'); f.write(b'not a png'); f.close()")" "$layout: not a PNG"
	cmp g.rpg good.rpg || fail "$layout: refused PNGs changed the archive"
	gfs_umount m || fail "unmount $layout"
	retouched "$layout: bytes after the retouch"
	rm -f g.rpg orig.rpg good.rpg
done

# a tileset retouched with ImageMagick (its own palette order, or RGB): exactly that pixel changes
if convert -version 2>/dev/null | grep -q '^Version: ImageMagick'; then
	$RPG mkgame g.rpg new
	cp g.rpg orig.rpg
	gfs_mount g.rpg m || fail "mount for ImageMagick"
	convert m/tilesets/00.png -fill '#4db21b' -draw 'point 5,3' png:im.png || fail "convert"
	cp im.png m/tilesets/00.png || fail "cp the PNG ImageMagick wrote"
	gfs_umount m || fail "unmount after ImageMagick"
	retouched "ImageMagick: bytes after the retouch"
else
	echo "# ImageMagick absent: its retouch not tried"
fi
echo ok
