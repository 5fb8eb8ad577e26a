#!/bin/sh
# A game's scripts and record lumps: scripts/ (the HSP's text lumps, its
# SOURCE.LUMPED as sources, PLOTSCR.LST and LOOKUP1.BIN as text, all
# read-only) and one INI a record of TAP, VEH, FOR, EFS, SHO, STF, DT0, ITM,
# DT1, ATTACK.BIN, MENUS.BIN, MENUITEM.BIN, UICOLORS.BIN, DEFPASS.BIN.  A generated game:
# golden listing and contents, unchanged write-back byte-identical, sed
# edits change exactly the intended bytes, bad edits EINVAL (log names the
# view and the line) and nothing changes, scripts refused; then every new
# view of every corpus game written back unchanged and the sources compared
# with the nested lumps.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
DIRS="default-walls enemies heroes tile-animations vehicles formations formation-sets shops shop-stock items attacks menus menu-items ui-colors scripts"

$RPG mkrecords g.rpg
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
check_eq "attacks/000.ini attacks/001.ini default-walls/000.ini enemies/000.ini formation-sets/0000.ini formation-sets/0001.ini formations/000.ini heroes/000.ini items/000.ini menu-items/0000.ini menus/000.ini scripts/hello.hss scripts/hsp/HS scripts/hsp/SCRIPTS.TXT scripts/lookup1.txt scripts/plotscr.txt scripts/source/my game.hss scripts/source/plotscr.hsd shop-stock/0000.ini shops/000.ini tile-animations/000.ini tile-animations/001.ini ui-colors/00.ini vehicles/000.ini" \
	"$(cd m && find $DIRS -type f | sort | tr '\n' ' ' | sed 's/ $//')" "listing"
check_eq "$(printf '1\thello\n32767\tgoodbye')" "$(cat m/scripts/plotscr.txt)" "plotscr.txt"
check_eq "$(printf '16384\t1\thello')" "$(cat m/scripts/lookup1.txt)" "lookup1.txt"
check_eq "$(printf 'include, plotscr.hsd\r\nplotscript, hello, begin\r\n  wait(1)\r\nend\r')" "$(cat "m/scripts/source/my game.hss")" "my game.hss"
check_eq 'name = "Boat"' "$(grep '^name' m/vehicles/000.ini)" "vehicle name"
check_eq "speed = -267" "$(grep '^speed' m/vehicles/000.ini)" "vehicle speed"
check_eq "w71 = -256" "$(grep '^w71 ' m/attacks/001.ini)" "attack words from 40"
check_eq "type = -223 id = -186 price = 36" "$(grep -E '^(type|id|price) ' m/shop-stock/0000.ini | tr '\n' ' ' | sed 's/ $//')" "stock"
check_eq 20 "$(grep -c '^pattern0_' m/tile-animations/001.ini)" "tile animation keys"
ls -l m/scripts/hsp/HS | grep -q '^-r--r--r--' || fail "scripts/ read-only"
# unchanged write-back: nothing changes
for f in $(cd m && find $DIRS -type f -name '*.ini'); do cat "m/$f" >t && cat t >"m/$f" || fail "write back $f"; done
gfs_umount m || fail "unmount"
cmp g.rpg orig.rpg || fail "unchanged write-back changed the archive"

# sed edits: exactly those bytes
gfs_mount g.rpg m || fail "remount"
sed -i 's/^speed = .*/speed = 9/; s/^name = .*/name = "Ship"/' m/vehicles/000.ini || fail "sed vehicle"
sed -i 's/^slot0_x = .*/slot0_x = 77/' m/formations/000.ini || fail "sed formation"
sed -i 's/^w45 = .*/w45 = -2/; s/^caption_delay = .*/caption_delay = 12/' m/attacks/001.ini || fail "sed attack"
sed -i 's/^price = .*/price = 0x100/' m/shop-stock/0000.ini || fail "sed stock"
sed -i 's/^have_tag = .*/have_tag = 99/' m/items/000.ini || fail "sed item"
sed -i 's/^selected_disabled = .*/selected_disabled = 1234/; s/^box14_border = .*/box14_border = 7/' m/ui-colors/00.ini || fail "sed ui colors"
sed -i 's/^formation3 = .*/formation3 = 5/' m/formation-sets/0001.ini || fail "sed formation set"
sed -i 's/^toggle_tag = .*/toggle_tag = -7/' m/menu-items/0000.ini || fail "sed menu item"
sed -i 's/^max_rows = .*/max_rows = 6/' m/menus/000.ini || fail "sed menu"
sed -i 's/^hp = .*/hp = 500/; s/^alone_attack4 = .*/alone_attack4 = 3/' m/enemies/000.ini || fail "sed enemy"
sed -i 's/^speed_level_max = .*/speed_level_max = 40/; s/^spell95_learned = .*/spell95_learned = 1/' m/heroes/000.ini || fail "sed hero"
sed -i 's/^inn_price = .*/inn_price = 25/' m/shops/000.ini || fail "sed shop"
sed -i 's/^tile5 = .*/tile5 = 15/' m/default-walls/000.ini || fail "sed default walls"
sed -i 's/^pattern1_arg8 = .*/pattern1_arg8 = 3/' m/tile-animations/001.ini || fail "sed tile animation"
gfs_umount m || fail "unmount after edits"
cp g.rpg good.rpg
python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "bytes after the edits"
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
want = {k: bytearray(v) for k, v in a.items()}
def put(lump, off, v):
    want[lump][off:off + 2] = struct.pack('<h', v)
put('GAMEFS.VEH', 16, 9)
want['GAMEFS.VEH'][0:5] = bytes([4]) + b'Ship'          # the garbage after the name kept
put('GAMEFS.FOR', 2, 77)
put('ATTACK.BIN', 64 + 2 * 5, -2)                       # record 1, word 45 = word 5 of the lump's record
put('ATTACK.BIN', 64 + 2 * 17, 12)
put('GAMEFS.STF', 48, 256)
put('GAMEFS.ITM', 148, 99)
put('UICOLORS.BIN', 10, 1234)
put('UICOLORS.BIN', 124, 7)
put('GAMEFS.EFS', 50 + 8, 5)        # formation3 is word 4
put('MENUITEM.BIN', 54, -7)
put('MENUS.BIN', 26, 6)
put('GAMEFS.TAP', 80 + 78, 3)
put('DEFPASS.BIN', 10, 15)
put('GAMEFS.DT1', 124, 500)
put('GAMEFS.SHO', 36, 25)
put('GAMEFS.DT0', 80, 40)
put('GAMEFS.DT0', 2 * 238, 1)
put('GAMEFS.DT1', 212, 3)
assert list(a) == list(b), 'lump order'
for k in a:
    assert b[k] == bytes(want[k]), (k, b[k].hex(), bytes(want[k]).hex())
PY

# bad edits: EINVAL, the log names the view and the line, nothing changes
gfs_mount g.rpg m || fail "mount for bad edits"
check_eq EINVAL "$(errno_of "s=open('m/vehicles/000.ini').read(); f=open('m/vehicles/000.ini','w'); f.write(s.replace('speed = 9', 'speed = 40000')); f.close()")" "out of range"
grep -q "vehicles/000.ini: line [0-9]*: speed" m/.gamefs.log || fail "log: $(cat m/.gamefs.log)"
check_eq EINVAL "$(errno_of "f=open('m/formations/000.ini','a'); f.write('colour = 3\n'); f.close()")" "unknown key"
check_eq EINVAL "$(errno_of "s=open('m/vehicles/000.ini').read(); f=open('m/vehicles/000.ini','w'); f.write(s.replace('\"Ship\"', '\"A very long boat name\"')); f.close()")" "name too long"
check_eq EINVAL "$(errno_of "f=open('m/items/000.ini','a'); f.write('w300 = 1\n'); f.close()")" "a word past the record"
for f in "scripts/source/my game.hss" scripts/plotscr.txt scripts/hsp/HS; do
	e=$(errno_of "f=open('m/$f','r+b'); f.write(b'x'); f.close()")
	case $e in EACCES|EROFS|EPERM) ;; *) fail "writing $f: $e" ;; esac
done
check_eq EPERM "$(errno_of "os.unlink('m/vehicles/000.ini')")" "records are not deleted"
gfs_umount m || fail "unmount after bad edits"
cmp g.rpg good.rpg || fail "refused edits changed the archive"
"$GAMEFS" check g.rpg >/dev/null || fail "check"

# damaged lumps: an HSP that is not a lumped file, a SOURCE.LUMPED that is
# not one, a record lump shorter than a record: no such views, the rest shown
python3 - "$top_srcdir/tests" <<'PY' || fail "make damaged games"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
for out, hsp in (('b1.rpg', b'HS\0\0\0\0\5abc'),
                 ('b2.rpg', t.lump_bytes('HS', b'HamsterSpeak') + t.lump_bytes('SOURCE.LUMPED', b'X' * 60))):
    with open(out, 'wb') as f:
        for n, b in (('GAMEFS.GEN', t.gen_lump(False)), ('GAMEFS.HSP', hsp), ('PLOTSCR.LST', b'\1\0\x50\0' + b'z' * 41),
                     ('GAMEFS.VEH', b'\xff' * 79), ('GAMEFS.FOR', b'\xff' * 80)):
            f.write(t.lump_bytes(n, b))
PY
gfs_mount b1.rpg m || fail "mount b1"
check_eq "formations/000.ini scripts/plotscr.txt" "$(cd m && find formations scripts vehicles -type f 2>/dev/null | sort | tr '\n' ' ' | sed 's/ $//')" "b1 views"
check_eq "$(printf '1\tzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz')" "$(cat m/scripts/plotscr.txt)" "b1 plotscr.txt: a length past the record clamped"
grep -q "GAMEFS.HSP: it is not a lumped file" m/.gamefs.log || fail "b1 log: $(cat m/.gamefs.log)"
gfs_umount m || fail "unmount b1"
gfs_mount b2.rpg m || fail "mount b2"
check_eq "scripts/hsp/HS scripts/plotscr.txt" "$(cd m && find scripts -type f | sort | tr '\n' ' ' | sed 's/ $//')" "b2 views"
grep -q "its SOURCE.LUMPED is not a lumped file" m/.gamefs.log || fail "b2 log: $(cat m/.gamefs.log)"
gfs_umount m || fail "unmount b2"

# the corpus: every new view written back unchanged, the sources as the nested lumps
dir=$(corpus rpg) || exit 77
for game in "$dir"/*.rpg; do
	name=$(basename "$game")
	cp "$game" c.rpg
	chmod u+w c.rpg
	gfs_mount c.rpg m || fail "$name: mount"
	python3 - "$top_srcdir/tests" "$game" m $DIRS <<'PY' || fail "$name: views"
import os, sys, tempfile
sys.path.insert(0, sys.argv[1])
import rpgtool as t
lumps = t.read_lumps(sys.argv[2])
mnt = sys.argv[3]
def nested(body):
    p = tempfile.mktemp()
    open(p, 'wb').write(body)
    try:
        return t.read_lumps(p)
    finally:
        os.unlink(p)
hsp = [b for n, b in lumps if n.upper().endswith('.HSP')]
n = 0
if hsp:
    inner = nested(hsp[0])
    for nm, body in inner:     # the text ones (the rest is decoded elsewhere, raw in lumps/)
        p = os.path.join(mnt, 'scripts/hsp', nm)
        binary = nm.upper().endswith(('.HSZ', '.HSX', 'SCRIPTS.BIN', 'COMMANDS.BIN', 'SOURCE.LUMPED'))
        text = all(c in (9, 10, 13) or 0x20 <= c < 0x7f for c in body)
        assert os.path.exists(p) == (text and not binary), nm
        if os.path.exists(p):
            assert open(p, 'rb').read() == body, nm
            n += 1
    for nm, body in inner:
        if nm == 'SOURCE.LUMPED':
            for snm, sbody in nested(body):
                assert open(os.path.join(mnt, 'scripts/source', snm.lower()), 'rb').read() == sbody, snm
                n += 1
for d in sys.argv[4:]:
    for root, _, files in os.walk(os.path.join(mnt, d)):
        for f in files:
            p = os.path.join(root, f)
            data = open(p, 'rb').read()
            if f.endswith('.ini') and os.stat(p).st_mode & 0o200:    # not the superseded heroes/
                with open(p, 'wb') as w:
                    w.write(data)
            n += 1
print('#', os.path.basename(sys.argv[2]), n, 'views')
PY
	gfs_umount m || fail "$name: unmount"
	cmp c.rpg "$game" || fail "$name: unchanged write-back changed the archive"
	rm -f c.rpg
done
echo ok
