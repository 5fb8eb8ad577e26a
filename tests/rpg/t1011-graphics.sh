#!/bin/sh
# A game's graphics and global strings: sprites/<kind>/NNN.png (PT0-PT8,
# frames side by side, in the set's default 16-colour palette), palettes/
# (PALETTES.BIN and MAS as text, PAL and DEFPALn.BIN as CSV), font.png
# (FNT), strings.txt (STT), rgfx spritesets as PNG.  Generated games (new and old layout): golden
# listing, pixels and palettes, unchanged write-back; a pixel, a glyph bit,
# a palette entry, a master colour, a default palette and a string edited
# (exactly those bytes change); bad PNGs and values refused with EINVAL and
# nothing changed; then every graphics view of the corpus written back.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/rpg/rpglib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
GFX="python3 $top_srcdir/tests/rpg/gfxgame.py"
cd "$T" || exit 1

for layout in new old; do
	$GFX mkgame g.rpg $layout
	cp g.rpg orig.rpg
	gfs_mount g.rpg m || fail "mount $layout"
	if [ $layout = new ]; then pals="16-colour.csv default-walkabouts.csv master-00.txt master-01.txt"; else pals="16-colour.csv legacy-master.txt"; fi
	check_eq "attacks/000.png box-borders/000.png heroes/000.png heroes/001.png large-enemies/000.png medium-enemies/000.png portraits/000.png small-enemies/000.png small-enemies/001.png walkabouts/000.png walkabouts/001.png walkabouts/002.png weapons/000.png" \
		"$(cd m/sprites && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ' | sed 's/ $//')" "$layout: sprites/"
	check_eq "$pals" "$(ls m/palettes | tr '\n' ' ' | sed 's/ $//')" "$layout: palettes/"
	[ -f m/font.png ] || fail "$layout: font.png"
	for v in sprites/walkabouts/000.png sprites/walkabouts/001.png sprites/heroes/001.png sprites/box-borders/000.png font.png; do
		$GFX png-index m/$v >"$(echo $v | tr / _).txt" || fail "$layout: read $v"
	done
	python3 - "$top_srcdir/tests" $layout <<'PY' || fail "$layout: pixels or palettes of the PNGs"
import sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + '/rpg')
import rpgtool as t, gfxgame as g
new = sys.argv[2] == 'new'
def load(v):
    lines = open(v.replace('/', '_') + '.txt').read().split('\n')
    w, h = map(int, lines[0].split())
    return w, h, [bytes.fromhex(l) for l in lines[1:1 + h]], bytes.fromhex(lines[1 + h])
if new:
    master = t.master_palette()
else:
    vga = [(i * 5) % 64 for i in range(768)]
    master = bytes(v * 4 + 3 if v else 0 for v in vga)
pals = g.pal16(5)
for v, kind, rec, pal in (('sprites/walkabouts/000.png', 4, 0, 2 if new else 0), ('sprites/walkabouts/001.png', 4, 1, 0),
                          ('sprites/heroes/001.png', 0, 1, 0), ('sprites/box-borders/000.png', 7, 0, 0)):
    w, h, rows, plte = load(v)
    gw, gh, fr, _ = g.PT[kind]
    assert (w, h) == (gw * fr, gh), (v, w, h)
    assert rows == g.sprite_pixels(kind, rec, gw, gh, fr), v
    cols = [plte[3 * i:3 * i + 3] for i in range(16)]
    assert len(set(cols)) == 16, (v, 'colours not distinct')
    want = [master[3 * c:3 * c + 3] for c in pals[pal]]
    for i in range(16):
        if want[i] not in want[:i]:
            assert cols[i] == want[i], (v, i, cols[i].hex(), want[i].hex())
        else:   # a repeated colour is nudged in blue only
            assert cols[i][:2] == want[i][:2], (v, i)
w, h, rows, plte = load('font.png')
assert (w, h) == (128, 128) and plte == bytes([0, 0, 0, 255, 255, 255])
glyphs = g.font_glyphs()
for y in range(128):
    for x in range(128):
        assert rows[y][x] == glyphs[((y // 8) * 16 + x // 8) * 8 + x % 8] >> (y % 8) & 1, (x, y)
PY
	if [ $layout = new ]; then
		check_eq "5	250 5 220" "$(sed -n 6p m/palettes/master-01.txt)" "$layout: master palette 1, colour 5"
		check_eq "5	5 250 35" "$(sed -n 6p m/palettes/master-00.txt)" "$layout: master palette 0, colour 5"
	else
		check_eq "5	11 16 21" "$(sed -n 6p m/palettes/legacy-master.txt)" "$layout: MAS colour 5"
	fi
	check_eq "0,3,3,3,10,11,12,13,14,15,16,17,18,19,20,21" "$(sed -n 2p m/palettes/16-colour.csv)" "$layout: palette 0"
	# strings.txt: the known indices whose slots fit in the lump
	printf '0\tHP\n1\tMP\n2\tAttack!!!!\n3\t\n' >want.txt
	head -n 4 m/strings.txt | diff -u want.txt - || fail "$layout: strings.txt head"
	check_eq "25	\\x9dHead" "$(grep '^25' m/strings.txt)" "$layout: string 25"
	check_eq "0 1 2 3 4 5 6 7 8 25 26 27 28 29 30 31 33 34 35 36 37 38 39" "$(cut -f1 m/strings.txt | tr '\n' ' ' | sed 's/ $//')" "$layout: strings shown"

	# every graphics view written back unchanged: nothing changes
	for v in $(cd m && find sprites palettes font.png -type f | sort); do
		cat "m/$v" >same.bin && cp same.bin "m/$v" || fail "$layout: write back $v"
	done
	cat m/strings.txt >same.bin && cp same.bin m/strings.txt || fail "$layout: write back strings.txt"
	cmp g.rpg orig.rpg || fail "$layout: unchanged graphics views changed the archive"

	# edits: a walkabout pixel (frame 1, x 5, y 3) from index 7 to 9, a glyph bit cleared,
	# palette 1 entry 2, a master colour
	$GFX png-poke m/sprites/walkabouts/001.png poke.png 25 3 9 || fail "png-poke"
	cp poke.png m/sprites/walkabouts/001.png || fail "$layout: cp poked sprite"
	$GFX png-poke m/font.png font.png 17 10 0 || fail "png-poke font"
	cp font.png m/font.png || fail "$layout: cp font"
	sed -i '3s/^16,21,26,/16,21,99,/' m/palettes/16-colour.csv || fail "$layout: sed 16-colour.csv"
	if [ $layout = new ]; then mv_view=master-01.txt; new_line="5	1 2 3"; else mv_view=legacy-master.txt; new_line="5	63 0 62"; fi
	sed -i "6s/.*/$new_line/" m/palettes/$mv_view || fail "$layout: sed $mv_view"
	check_eq "$new_line" "$(sed -n 6p m/palettes/$mv_view)" "$layout: re-rendered master colour"
	sed -i 's/^1\tMP$/1\tMana/' m/strings.txt || fail "$layout: sed strings.txt"
	if [ $layout = new ]; then
		printf 'set,palette\n0,2\n1,-1\n2,9\n' | diff -u - m/palettes/default-walkabouts.csv || fail "$layout: default palettes"
		sed -i 's/^1,-1$/1,4/' m/palettes/default-walkabouts.csv || fail "$layout: sed default-walkabouts.csv"
	fi

	# bad edits: EINVAL, the archive stays
	gfs_umount m || fail "unmount $layout"
	cp g.rpg good.rpg
	gfs_mount g.rpg m || fail "remount $layout"
	python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests'); import rpgtool as t
t.png_write('small.png', 159, 20, [bytes(159)] * 20, bytes(48))"
	check_eq EINVAL "$(errno_of "f=open('m/sprites/walkabouts/000.png','wb'); f.write(open('small.png','rb').read()); f.close()")" "$layout: 159x20"
	grep -q "000.png: want a 160x20 PNG" m/.gamefs.log || fail "$layout: log of the wrong size: $(cat m/.gamefs.log)"
	$GFX png-rgb-copy m/sprites/walkabouts/000.png rgb.png || fail "png-rgb-copy"
	# an RGB copy is matched by colour (the sprite's 16 are distinct): the same indices
	check_eq OK "$(errno_of "f=open('m/sprites/walkabouts/000.png','wb'); f.write(open('rgb.png','rb').read()); f.close()")" "$layout: RGB PNG"
	python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests'); sys.path.insert(0, '$top_srcdir/tests/rpg'); import gfxgame as g, rpgtool as t
w, h, rows, plte = g.png_index('m/sprites/weapons/000.png')
t.png_write('odd.png', w, h, rows, plte[:3] + b'\x01\x02\x03' + plte[6:])" || fail "odd.png"
	check_eq EINVAL "$(errno_of "f=open('m/sprites/weapons/000.png','wb'); f.write(open('odd.png','rb').read()); f.close()")" "$layout: colour not in the palette"
	grep -q "000.png: pixel [0-9]*,[0-9]*: colour #010203 is not in the sprite's palette" m/.gamefs.log || fail "$layout: log of the colour"
	check_eq EINVAL "$(errno_of "f=open('m/font.png','wb'); f.write(b'not a png'); f.close()")" "$layout: font not a PNG"
	check_eq EINVAL "$(errno_of "f=open('m/palettes/16-colour.csv','a'); f.write('1,2\n'); f.close()")" "$layout: CSV row too short"
	check_eq EINVAL "$(errno_of "s=open('m/palettes/16-colour.csv').read().replace('0,3,3,3,', '0,3,256,3,', 1); f=open('m/palettes/16-colour.csv','w'); f.write(s); f.close()")" "$layout: index 256"
	check_eq EINVAL "$(errno_of "s=open('m/palettes/$mv_view').read().replace('$new_line', '5	1 2', 1); f=open('m/palettes/$mv_view','w'); f.write(s); f.close()")" "$layout: two values"
	if [ $layout = new ]; then
		check_eq EINVAL "$(errno_of "s=open('m/palettes/$mv_view').read().replace('$new_line', '5	1 2 300', 1); f=open('m/palettes/$mv_view','w'); f.write(s); f.close()")" "$layout: 300"
		grep -q "master-01.txt: line 6: 300 is not in 0..255" m/.gamefs.log || fail "$layout: log of 300"
	fi
	check_eq EINVAL "$(errno_of "f=open('m/palettes/$mv_view','a'); f.write('256	1 2 3\n'); f.close()")" "$layout: 257 lines"
	check_eq EINVAL "$(errno_of "s=open('m/strings.txt').read().replace('0\tHP', '0\tHit Points!', 1); f=open('m/strings.txt','w'); f.write(s); f.close()")" "$layout: string too long"
	grep -q "strings.txt: line 1: longer than 10 characters" m/.gamefs.log || fail "$layout: log of the long string"
	check_eq EINVAL "$(errno_of "s=open('m/strings.txt').read().replace('25\t', '24\t', 1); f=open('m/strings.txt','w'); f.write(s); f.close()")" "$layout: string index moved"
	if [ $layout = new ]; then
		check_eq EINVAL "$(errno_of "f=open('m/palettes/default-walkabouts.csv','w'); f.write('set,palette\n0,2\n2,4\n1,9\n'); f.close()")" "$layout: sets moved"
		grep -qF "default-walkabouts.csv: line 3, column 1 (set): want 1 (rows stay in order" m/.gamefs.log || fail "$layout: log: $(tail -n 2 m/.gamefs.log)"
		check_eq EINVAL "$(errno_of "f=open('m/palettes/default-walkabouts.csv','w'); f.write('set,palette\n0,2\n1,4\n'); f.close()")" "$layout: a set less"
		grep -qF "default-walkabouts.csv: 2 rows, want 3" m/.gamefs.log || fail "$layout: log: $(tail -n 2 m/.gamefs.log)"
		check_eq EINVAL "$(errno_of "f=open('m/palettes/default-walkabouts.csv','w'); f.write('set,palette\n0,2\n1,40000\n2,9\n'); f.close()")" "$layout: palette 40000"
	fi
	gfs_umount m || fail "unmount bad $layout"
	cmp g.rpg good.rpg || fail "$layout: refused edits changed the archive"

	# exactly the intended bytes changed
	python3 - "$top_srcdir/tests" orig.rpg g.rpg $layout <<'PY' || fail "$layout: bytes after the edits"
import struct, sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + '/rpg')
import rpgtool as t, gfxgame as g
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
new = sys.argv[4] == 'new'
want = dict(a)
pt4 = bytearray(a['GAMEFS.PT4'])
rows = g.sprite_pixels(4, 1, 20, 20, 8)
rows[3] = rows[3][:25] + b'\x09' + rows[3][26:]
pt4[1600:3200] = g.pack_sprite(rows, 20, 20, 8)
want['GAMEFS.PT4'] = bytes(pt4)
fnt = bytearray(a['GAMEFS.FNT'])
fnt[7 + (1 * 16 + 2) * 8 + 1] &= ~(1 << 2)     # x 17, y 10: glyph 18, column 1, row 2
want['GAMEFS.FNT'] = bytes(fnt)
pal = bytearray(a['GAMEFS.PAL'])
pal[(16 if new else 7) + 16 + 2] = 99
want['GAMEFS.PAL'] = bytes(pal)
if new:
    m = bytearray(a['PALETTES.BIN'])
    m[4 + 768 + 15:4 + 768 + 18] = bytes([1, 2, 3])
    want['PALETTES.BIN'] = bytes(m)
else:
    m = bytearray(a['GAMEFS.MAS'])
    m[7 + 30:7 + 36] = struct.pack('<3h', 63, 0, 62)
    want['GAMEFS.MAS'] = bytes(m)
assert a['GAMEFS.FNT'] != want['GAMEFS.FNT'] and a['GAMEFS.PT4'] != want['GAMEFS.PT4']
s = bytearray(a['GAMEFS.STT'])
s[11:22] = bytes([4]) + b'Mana' + bytes(6)      # length, text, zeros to the maximum (10)
want['GAMEFS.STT'] = bytes(s)
if new:
    want['DEFPAL4.BIN'] = struct.pack('<3h', 2, 4, 9)
for k in a:
    assert b[k] == want[k], k
assert list(a) == list(b)
PY
	"$GAMEFS" check g.rpg >/dev/null || fail "$layout: check"
	rm -f g.rpg orig.rpg good.rpg
done

# rgfx: each spriteset of WALKABOUTS.RGFX as sprites/walkabouts/NNN.png
# beside its RELOAD text; a pixel written back changes that byte only
$GFX mkrgfx g.rpg
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount rgfx"
check_eq "000.png 001.png" "$(ls m/sprites/walkabouts | tr '\n' ' ' | sed 's/ $//')" "rgfx: spritesets shown"
[ -f m/reload/walkabouts.rgfx.txt ] || fail "rgfx: its RELOAD text"
grep -q "WALKABOUTS.RGFX: spriteset not shown as PNG: spriteset 2 frame 0: index 200 in a 16-colour sprite" m/.gamefs.log ||
	fail "rgfx: log of the set not shown: $(cat m/.gamefs.log)"
$GFX png-index m/sprites/walkabouts/001.png >rg.txt || fail "rgfx: read PNG"
python3 - "$top_srcdir/tests" <<'PY' || fail "rgfx: pixels"
import sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + '/rpg')
import gfxgame as g
lines = open('rg.txt').read().split('\n')
assert lines[0] == '40 20', lines[0]
for y in range(20):
    want = b''.join(bytes(g.rgfx_pixels(1, f)[y * 20:(y + 1) * 20]) for f in range(2))
    assert bytes.fromhex(lines[1 + y]) == want, y
PY
cat m/sprites/walkabouts/000.png >same.bin && cp same.bin m/sprites/walkabouts/000.png || fail "rgfx: write back"
cmp g.rpg orig.rpg || fail "rgfx: unchanged PNG changed the archive"
$GFX png-poke m/sprites/walkabouts/001.png poke.png 25 7 12 || fail "rgfx: png-poke"
cp poke.png m/sprites/walkabouts/001.png || fail "rgfx: cp poked PNG"
grep -q "^          image = base64:" m/reload/walkabouts.rgfx.txt || fail "rgfx: text re-rendered"
gfs_umount m || fail "unmount rgfx"
cp g.rpg good.rpg
gfs_mount g.rpg m || fail "remount rgfx"
$GFX png-rgb-copy m/sprites/walkabouts/000.png rgb.png || fail "png-rgb-copy"
check_eq OK "$(errno_of "f=open('m/sprites/walkabouts/000.png','wb'); f.write(open('rgb.png','rb').read()); f.close()")" "rgfx: RGB PNG"
check_eq EINVAL "$(errno_of "f=open('m/sprites/walkabouts/000.png','wb'); f.write(open('poke.png','rb').read()[:60]); f.close()")" "rgfx: cut PNG"
python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests'); import rpgtool as t
t.png_write('small.png', 20, 20, [bytes(20)] * 20, bytes(48))"
check_eq EINVAL "$(errno_of "f=open('m/sprites/walkabouts/000.png','wb'); f.write(open('small.png','rb').read()); f.close()")" "rgfx: one frame"
gfs_umount m || fail "unmount rgfx bad"
cmp g.rpg good.rpg || fail "rgfx: refused PNGs changed the archive"
python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "rgfx: bytes after the edit"
import sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + '/rpg')
import rpgtool as t, gfxgame as g
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
def px(k, f):
    p = g.rgfx_pixels(k, f)
    if (k, f) == (1, 1):
        assert p[7 * 20 + 5] != 12
        p[7 * 20 + 5] = 12
    return p
want = g.rgfx_doc(px)
assert b['WALKABOUTS.RGFX'] == want and a['WALKABOUTS.RGFX'] != want
assert sum(x != y for x, y in zip(a['WALKABOUTS.RGFX'], want)) == 1
for k in a:
    assert k == 'WALKABOUTS.RGFX' or a[k] == b[k], k
PY
rm -f g.rpg orig.rpg good.rpg

# a lump too short for one record, a PAL without a known header, a FNT
# without its BSAVE byte: no view, no crash; the raw lumps stay
$RPG mkgame g.rpg
python3 - "$top_srcdir/tests" g.rpg <<'PY' || fail "short lumps"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
lumps = t.read_lumps(sys.argv[2]) + [('GAMEFS.PT4', bytes(1599)), ('GAMEFS.PAL', b'\x01\x02' + bytes(30)),
                                     ('GAMEFS.FNT', bytes(2055)), ('PALETTES.BIN', b'\x04\x00\x10\x00')]
lumps = [(n, b) for n, b in lumps if not (n == 'PALETTES.BIN' and len(b) > 4)]
open(sys.argv[2], 'wb').write(b''.join(t.lump_bytes(n, b) for n, b in lumps))
PY
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount short"
[ -e m/sprites ] || [ -e m/palettes ] || [ -e m/font.png ] && fail "views of unusable lumps"
cat m/tilesets/00.png >/dev/null || fail "tileset without a master palette"
gfs_umount m || fail "unmount short"
cmp g.rpg orig.rpg || fail "short lumps changed"
rm -f g.rpg orig.rpg

# the corpus: every graphics view and strings.txt written back unchanged: the same archive
rpg_corpus_writeback "graphics view" sprites palettes font.png strings.txt tilesets backdrops -type f
echo "ok: $n corpus graphics views round-trip"
