#!/bin/sh
# A RELOAD document on its own whose root is rgfx (a game's WALKABOUTS.RGFX
# ... unlumped) shows spritesets/<id>.png beside document.txt, in the
# reld driver's fixed palette (index i: red (i>>5)*255/7, green
# ((i>>2)&7)*255/7, blue (i&3)*85).  Generated document: golden listing,
# the same indices as the game's view of it, unchanged write-back, a
# pixel changes exactly its byte, document.txt and the PNGs follow each
# other, bad PNGs refused with EINVAL; rgfx lumps of a corpus game unlumped
# into the test's directory round-trip; other documents show only
# document.txt.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/rpg/rpglib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
GFX="python3 $top_srcdir/tests/rpg/gfxgame.py"
cd "$T" || exit 1

$GFX rgfx-doc s.rgfx
cp s.rgfx orig.rgfx
check_eq "-rw-r--r--       4042 document.txt
drwxr-xr-x          0 spritesets/
-rw-r--r--       1039 spritesets/000.png
-rw-r--r--       1038 spritesets/001.png
-rw-r--r--       1051 spritesets/002.png" "$("$GAMEFS" ls s.rgfx)" "golden listing"
"$GAMEFS" check s.rgfx >/dev/null || fail "check"

# the indices are the document's bytes, as the game shows the same lump
$GFX mkrgfx g.rpg
gfs_mount g.rpg g || fail "mount game"
$GFX png-index g/sprites/walkabouts/001.png | sed '$d' >game.txt || fail "game PNG"
gfs_umount g || fail "unmount game"
gfs_mount s.rgfx m || fail "mount"
$GFX png-index m/spritesets/001.png >doc.txt || fail "read PNG"
sed '$d' doc.txt >docidx.txt
cmp game.txt docidx.txt || fail "indices differ from the game's view"
check_eq "40 20" "$(head -1 doc.txt)" "frames side by side"
python3 -c "
p = bytes.fromhex(open('doc.txt').read().split()[-1])
want = b''.join(bytes(((i >> 5) * 255 // 7, ((i >> 2) & 7) * 255 // 7, (i & 3) * 85)) for i in range(256))
assert p == want, 'palette'" || fail "the fixed palette"
$GFX png-index m/spritesets/002.png | sed -n 2p | cut -c11-12 | grep -qx c8 || fail "index 200 shown"

# unchanged write-back, of every view
for v in document.txt spritesets/000.png spritesets/001.png spritesets/002.png; do
	cat "m/$v" >view.bin
	cp view.bin "m/$v" || fail "write back $v"
done
cmp s.rgfx orig.rgfx || fail "unchanged views changed the document"
# a palette PNG with the colours in other places: remapped by exact colour, nothing changes
python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests/rpg'); import gfxgame, rpgtool
w, h, rows, plte = gfxgame.png_index('m/spritesets/000.png')
rpgtool.png_write('rev.png', w, h, [bytes(255 - v for v in r) for r in rows],
                  b''.join(plte[3 * (255 - i):3 * (255 - i) + 3] for i in range(256)))" || fail "reversed PNG"
cp rev.png m/spritesets/000.png || fail "write reversed palette"
cmp s.rgfx orig.rgfx || fail "a remapped palette changed the document"

# one pixel: exactly its byte (frame 1 of spriteset 1, x 5, y 3 -> 77)
$GFX png-poke m/spritesets/001.png p.png 25 3 77 || fail "poke"
cp p.png m/spritesets/001.png || fail "write poked PNG"
python3 -c "
import base64, sys; sys.path.insert(0, '$top_srcdir/tests/rpg'); import gfxgame
d = bytearray(open('orig.rgfx', 'rb').read())
fr = bytes(gfxgame.rgfx_pixels(1, 1)); at = d.find(fr)
assert at > 0 and d.find(fr, at + 1) < 0
d[at + 3 * 20 + 5] = 77
open('want.rgfx', 'wb').write(d)
new = bytes(d[at:at + len(fr)])
assert ('image = base64:' + base64.b64encode(new).decode()) in open('m/document.txt').read(), 'text'
" || fail "document.txt does not show the pixel"
cmp want.rgfx s.rgfx || fail "the pixel did not change exactly its byte"
# document.txt edited: the PNG follows (first pixel of spriteset 0 -> 0x33)
python3 -c "
import base64
t = open('m/document.txt').read().split('\n')
i = next(i for i, l in enumerate(t) if l.lstrip().startswith('image = base64:'))
pre, b = t[i].split('base64:')
b = bytearray(base64.b64decode(b)); b[0] = 0x33
t[i] = pre + 'base64:' + base64.b64encode(bytes(b)).decode()
open('m/document.txt', 'w').write('\n'.join(t))" || fail "edit text"
$GFX png-index m/spritesets/000.png | sed -n 2p | cut -c1-2 | grep -qx 33 || fail "the PNG did not follow the text"
cp s.rgfx edited.rgfx

# bad PNGs: EINVAL, the document stays, the log says why
$GFX png-index m/spritesets/000.png >/dev/null
python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests/rpg'); import gfxgame, rpgtool
w, h, rows, plte = gfxgame.png_index('m/spritesets/000.png')
rpgtool.png_write('small.png', w - 1, h, [r[:-1] for r in rows], plte)" || fail "small PNG"
check_eq EINVAL "$(errno_of "f=open('m/spritesets/000.png','wb'); f.write(open('small.png','rb').read()); f.close()")" "39x20"
grep -q "000.png: want a 40x20 PNG" m/.gamefs.log || fail "log of the wrong size: $(cat m/.gamefs.log)"
$GFX png-rgb-copy m/spritesets/000.png rgb.png
check_eq EINVAL "$(errno_of "f=open('m/spritesets/000.png','wb'); f.write(open('rgb.png','rb').read()); f.close()")" "RGB PNG"
grep -q "000.png: want a palette-indexed PNG (colour type 3), not type 2" m/.gamefs.log || fail "log of the RGB PNG"
$GFX png-plte m/spritesets/000.png odd.png 1 010203
check_eq EINVAL "$(errno_of "f=open('m/spritesets/000.png','wb'); f.write(open('odd.png','rb').read()); f.close()")" "colour not in the palette"
grep -q "000.png: pixel [0-9]*,[0-9]*: colour #010203 is not in the document's fixed palette" m/.gamefs.log ||
	fail "log of the colour: $(cat m/.gamefs.log)"
gfs_umount m || fail "unmount"
cmp edited.rgfx s.rgfx || fail "refused PNGs changed the document"

# rgfx lumps of a corpus game, unlumped here: every view written back unchanged
dir=$(corpus rpg) || exit 77
n=0
for l in WALKABOUTS.RGFX ENEMIES.RGFX BACKDROPS.RGFX; do
	$RPG get "$dir/autotest.rpg" $l >c.rgfx || fail "extract $l"
	cp c.rgfx c-orig.rgfx
	"$GAMEFS" ls c.rgfx | grep -q ' spritesets/000.png$' || fail "$l: no PNGs"
	writeback_all c.rgfx
	cmp c.rgfx c-orig.rgfx || fail "$l: unchanged views changed it"
done
cp "$dir/autotest.rpg" a.rpg
gfs_mount a.rpg g || fail "mount autotest"
$GFX png-index g/sprites/walkabouts/001.png | sed '$d' >game.txt || fail "autotest PNG"
gfs_umount g || fail "unmount autotest"
$RPG get a.rpg WALKABOUTS.RGFX >w.rgfx
gfs_mount w.rgfx m || fail "mount walkabouts"
$GFX png-index m/spritesets/001.png | sed '$d' >docidx.txt
gfs_umount m || fail "unmount walkabouts"
cmp game.txt docidx.txt || fail "autotest walkabout 001: indices differ from the game's"

# documents whose root is not rgfx: document.txt only, and they round-trip
dir=$(corpus rsav) || exit 77
k=0
for f in "$dir"/*.reld; do
	b=$(basename "$f")
	cp "$f" "$b" && chmod 644 "$b"
	check_eq "document.txt" "$("$GAMEFS" ls "$b" | awk '{print $3}')" "$b: listing"
	writeback_all "$b"
	cmp "$f" "$b" || fail "$b: written back unchanged, it changed"
	k=$((k + 1))
done
check_eq 3 $k "corpus documents"
echo "ok: $n corpus views written back unchanged ($k of them the non-rgfx documents)"
