#!/bin/sh
# A palette PNG whose palette is the view's keeps its indices, duplicate
# colours included (issue 30, item 4): a generated game whose master
# palette holds colour 5 twice (as 200 too) takes a tileset pixel set to
# index 200, shows it back, and rpgtool reads exactly that byte changed;
# the PNG served before the edit, written back, undoes it.  An RGB PNG is
# still matched by colour (the twice-held colour on a new pixel: EINVAL).
# The corpus: every graphics PNG written back unchanged (python, in place)
# changes nothing, and on every page (tilesets, backdrops) whose palette
# holds a colour twice a pixel moved to the other index and back again
# leaves the archive byte-identical.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
GFX="python3 $top_srcdir/tests/rpg/gfxgame.py"
cd "$T" || exit 1

$RPG mkgame g.rpg
python3 - "$top_srcdir/tests" g.rpg <<'PY' || fail "make the game"
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
pal = bytearray(t.master_palette())
pal[600:603] = pal[15:18]          # colour 200 is colour 5
lumps = [(n, struct.pack('<hh', 4, 768) + bytes(pal) if n == 'PALETTES.BIN' else b) for n, b in t.read_lumps(sys.argv[2])]
open(sys.argv[2], 'wb').write(b''.join(t.lump_bytes(n, b) for n, b in lumps))
PY
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
cat m/tilesets/00.png >served.png
# pixel 7,0 (index 1, tileset_pixels) set to 200, a colour also at 5
$GFX png-poke served.png poke.png 7 0 200 || fail "png-poke"
check_eq OK "$(errno_of "f=open('m/tilesets/00.png','wb'); f.write(open('poke.png','rb').read()); f.close()")" "index 200 taken"
check_eq "c8" "$($GFX png-index m/tilesets/00.png | sed -n 2p | cut -c15-16)" "index 200 shown back"
# the same colour as RGB on another pixel: which of 5 and 200 is not known
python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests'); sys.path.insert(0, '$top_srcdir/tests/rpg'); import gfxgame as g, rpgtool as t
w, h, rows, plte = g.png_index('poke.png')
rgb = [bytearray(b''.join(plte[3 * v:3 * v + 3] for v in r)) for r in rows]
rgb[0][3 * 8:3 * 8 + 3] = plte[15:18]
t.png_write('rgb.png', w, h, [bytes(r) for r in rgb])" || fail "rgb.png"
check_eq EINVAL "$(errno_of "f=open('m/tilesets/00.png','wb'); f.write(open('rgb.png','rb').read()); f.close()")" "RGB: a colour twice"
grep -q "00.png: pixel 8,0: colour #05fa23 is twice in the master palette" m/.gamefs.log || fail "log of the RGB PNG"
gfs_umount m || fail "unmount"
python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "the byte of pixel 7,0"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
want = bytearray(a['GAMEFS.TIL'])
assert want[3 * 16000 + 1] == t.tileset_pixels()[7] != 200
want[3 * 16000 + 1] = 200          # x 7: plane 3, byte 7 // 4
assert b['GAMEFS.TIL'] == bytes(want)
assert [k for k in a if a[k] != b[k]] == ['GAMEFS.TIL']
PY
gfs_mount g.rpg m || fail "remount"
cp served.png m/tilesets/00.png || fail "the served PNG written back"
gfs_umount m || fail "unmount undo"
cmp g.rpg orig.rpg || fail "the served PNG did not undo the edit"

# the corpus
dir=$(corpus rpg) || exit 77
pages=0 files=0
for f in "$dir"/*.rpg; do
	b=$(basename "$f")
	cp "$f" "$b" && chmod 644 "$b"
	gfs_mount "$b" m || fail "mount $b"
	out=$(python3 - "$top_srcdir/tests/rpg" m <<'PY') || fail "$b: $out"
import os, sys
sys.path.insert(0, sys.argv[1])
import gfxgame as g
sys.path.insert(0, sys.argv[1] + '/..')
import rpgtool as t
m, files, pages = sys.argv[2], 0, 0
for top in ('sprites', 'tilesets', 'backdrops', 'font.png'):
    for root, _, names in os.walk(os.path.join(m, top)) if top != 'font.png' else [(m, [], ['font.png'])]:
        for nm in sorted(names):
            p = os.path.join(root, nm)
            if not nm.endswith('.png') or not os.path.exists(p):
                continue
            data = open(p, 'rb').read()
            with open(p, 'wb') as fh:            # the same bytes, in place
                fh.write(data)
            files += 1
            if top not in ('tilesets', 'backdrops'):
                continue
            w, h, rows, plte = g.png_index(p)
            cols = [plte[3 * i:3 * i + 3] for i in range(len(plte) // 3)]
            hit = next(((x, y, v) for y, r in enumerate(rows) for x, v in enumerate(r) if cols.count(cols[v]) > 1), None)
            if not hit:
                continue
            x, y, v = hit
            other = next(i for i, c in enumerate(cols) if c == cols[v] and i != v)
            rows2 = list(rows)
            rows2[y] = rows[y][:x] + bytes([other]) + rows[y][x + 1:]
            t.png_write('poke.png', w, h, rows2, plte)
            with open(p, 'wb') as fh:
                fh.write(open('poke.png', 'rb').read())
            got = g.png_index(p)[2][y][x]
            assert got == other, (p, x, y, v, other, got)
            with open(p, 'wb') as fh:            # the PNG served before: the edit undone
                fh.write(data)
            pages += 1
print(files, pages)
PY
	files=$((files + ${out% *})) pages=$((pages + ${out#* }))
	gfs_umount m || fail "unmount $b"
	cmp "$f" "$b" || fail "$b: PNGs written back unchanged, or a duplicate index and back, changed the archive"
	rm -f "$b"
done
[ "$pages" -gt 0 ] || fail "no corpus page with a colour twice"
echo "ok: $files corpus PNGs written back in place; $pages pages took a duplicate index and gave it back"
