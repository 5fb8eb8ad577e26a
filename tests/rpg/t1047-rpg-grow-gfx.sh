#!/bin/sh
# Issue 29, OHRRPGCE: a new tileset page, backdrop and sprite set by cp of
# a PNG to the next free number (tilesets/NN.png, backdrops/NN.png,
# sprites/<kind>/NNN.png): the lump grows by the record, DEFPALn.BIN by an
# entry, GEN's last tileset / last set / backdrop count follow.  Re-read
# after unmount by the tests' own readers (tests/rpgtool.py, pixels
# unpacked by tests/rpg/gfxgame.py's rules); `gamefs check` passes; a
# fresh mount shows them.  Refusals leave the archive byte-identical with
# the reason in the log: a PNG of the wrong size (EINVAL, both sizes), a
# number past the next (EINVAL), a set that is not the last removed
# (EPERM), a set an item shows or a page a map draws from (EBUSY naming
# them), a set in an rgfx lump (EPERM: not made here).  rm of the new
# ones gives the lumps back.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
GFX="python3 $top_srcdir/tests/rpg/gfxgame.py"
cd "$T" || exit 1

$GFX mkgame g.rpg new || fail "mkgame"
# a backdrop lump (one page) and GEN telling the truth of the kinds grown here
python3 - "$top_srcdir/tests" g.rpg <<'PY' || fail "fixture"
import sys, struct
sys.path.insert(0, sys.argv[1])
import rpgtool as t
def gen(b):
    b = bytearray(b)
    for f, v in ((26, 1), (30, 2), (33, 0), (100, 1)):
        b[7 + 2 * f:9 + 2 * f] = struct.pack('<h', v)
    return bytes(b)
t.rewrite(sys.argv[2], lambda n, b: gen(b) if n == 'GAMEFS.GEN' else b)
with open(sys.argv[2], 'ab') as f:
    f.write(t.lump_bytes('GAMEFS.MXS', bytes((i * 7) % 256 for i in range(64000))))
PY
cp g.rpg orig.rpg
# a 100x100 palette PNG (the wrong size for everything)
python3 -c "
import zlib, struct
def ch(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
raw = b''.join(b'\0' + bytes(100) for _ in range(100))
open('small.png', 'wb').write(b'\x89PNG\r\n\x1a\n' + ch(b'IHDR', struct.pack('>IIBBBBB', 100, 100, 8, 3, 0, 0, 0))
    + ch(b'PLTE', bytes(48)) + ch(b'IDAT', zlib.compress(raw)) + ch(b'IEND', b''))"

gfs_mount g.rpg m || fail "mount"
cp m/tilesets/00.png m/tilesets/01.png || fail "cp a new tileset page: $(tail -n 1 m/.gamefs.log)"
cp m/backdrops/00.png m/backdrops/01.png || fail "cp a new backdrop: $(tail -n 1 m/.gamefs.log)"
cp m/sprites/walkabouts/001.png m/sprites/walkabouts/003.png || fail "cp a new walkabout set: $(tail -n 1 m/.gamefs.log)"
cp m/sprites/heroes/001.png m/sprites/heroes/002.png || fail "cp a new hero sprite set: $(tail -n 1 m/.gamefs.log)"
cp m/sprites/weapons/000.png m/sprites/weapons/001.png || fail "cp a new weapon set"
cp m/sprites/portraits/000.png m/sprites/portraits/001.png || fail "cp a new portrait"
cmp m/tilesets/00.png m/tilesets/01.png || fail "the new page reads as its copy"
cmp m/backdrops/00.png m/backdrops/01.png || fail "the new backdrop reads as its copy"
cmp m/sprites/heroes/001.png m/sprites/heroes/002.png || fail "the new hero set reads as its copy"
check_eq "3,0" "$(tail -n 1 m/palettes/default-walkabouts.csv)" "DEFPAL4: the new set's default palette"
gfs_umount m || fail "unmount"

python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "the grown game as read back"
import sys, struct
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
gen = lambda f: struct.unpack('<h', b['GAMEFS.GEN'][7 + 2 * f:9 + 2 * f])[0]
assert b['GAMEFS.TIL'] == a['GAMEFS.TIL'] * 2, 'TIL: page 1 a copy of page 0'
assert b['GAMEFS.MXS'] == a['GAMEFS.MXS'] * 2, 'MXS'
pt4 = a['GAMEFS.PT4']
assert len(pt4) == 4802 and b['GAMEFS.PT4'] == pt4[:4800] + pt4[1600:3200], 'PT4: set 3 over the partial record'
assert b['GAMEFS.PT0'] == a['GAMEFS.PT0'] + a['GAMEFS.PT0'][5120:], 'PT0: set 2 a copy of set 1'
assert b['GAMEFS.PT5'] == a['GAMEFS.PT5'] * 2 and b['GAMEFS.PT8'] == a['GAMEFS.PT8'] * 2, 'PT5, PT8'
assert b['DEFPAL4.BIN'] == a['DEFPAL4.BIN'] + b'\0\0', b['DEFPAL4.BIN']
got = [gen(f) for f in (33, 100, 30, 26, 31, 84)]
assert got == [1, 2, 3, 2, 1, 1], got
changed = sorted(n for n in a if a[n] != b[n])
assert changed == sorted(['GAMEFS.TIL', 'GAMEFS.MXS', 'GAMEFS.PT4', 'GAMEFS.PT0', 'GAMEFS.PT5', 'GAMEFS.PT8',
                          'DEFPAL4.BIN', 'GAMEFS.GEN']), changed
PY
"$GAMEFS" check g.rpg >check.txt || fail "check: $(cat check.txt)"

# refusals: nothing changes, the reason in the log
cp g.rpg before.rpg
gfs_mount g.rpg m || fail "remount"
check_eq "00.png 01.png" "$(ls m/tilesets | tr '\n' ' ' | sed 's/ $//')" "tilesets/ after remount"
check_eq EINVAL "$(errno_of "open('m/tilesets/05.png', 'x')")" "a page past the next"
grep -q 'tilesets/05.png: a new one is the next free number, 02.png' m/.gamefs.log ||
	fail "log of 05.png: $(tail -n 1 m/.gamefs.log)"
cp small.png m/tilesets/02.png 2>/dev/null && fail "a 100x100 tileset page taken"
grep -q 'tilesets/02.png: want a 320x200 PNG, not 100x100' m/.gamefs.log ||
	fail "log of the small page: $(tail -n 1 m/.gamefs.log)"
cp small.png m/sprites/walkabouts/004.png 2>/dev/null && fail "a 100x100 walkabout set taken"
grep -q 'sprites/walkabouts/004.png: want a 160x20 PNG, not 100x100' m/.gamefs.log ||
	fail "log of the small walkabout set: $(tail -n 1 m/.gamefs.log)"
check_eq EPERM "$(errno_of "os.unlink('m/sprites/heroes/000.png')")" "rm of a set that is not the last"
grep -q 'heroes/000.png: only the last (002.png) can be removed' m/.gamefs.log ||
	fail "log of rm heroes/000.png: $(tail -n 1 m/.gamefs.log)"
gfs_umount m || fail "unmount after refusals"
cmp g.rpg before.rpg || fail "a refusal changed the archive"

# the new ones removed: the lumps as they were (PT4's partial record was overwritten)
gfs_mount g.rpg m || fail "mount to shrink"
v=$(sed -n 's/^weapon_picture = //p' m/items/000.ini)
python3 -c "
p = 'm/items/000.ini'; t = open(p).read().replace('weapon_picture = $v\n', 'weapon_picture = 1\n')
f = open(p, 'w'); f.write(t); f.close()" || fail "item 0 shows weapon set 1"
check_eq EBUSY "$(errno_of "os.unlink('m/sprites/weapons/001.png')")" "rm of a weapon set an item shows"
grep -q 'sprites/weapons/001.png: used by items/000 weapon_picture; change that first' m/.gamefs.log ||
	fail "log of rm weapons/001.png: $(tail -n 1 m/.gamefs.log)"
python3 -c "
p = 'm/items/000.ini'; t = open(p).read().replace('weapon_picture = 1\n', 'weapon_picture = $v\n')
f = open(p, 'w'); f.write(t); f.close()" || fail "item 0 back"
rm m/tilesets/01.png m/backdrops/01.png m/sprites/walkabouts/003.png m/sprites/heroes/002.png \
	m/sprites/weapons/001.png m/sprites/portraits/001.png || fail "rm the new ones: $(tail -n 1 m/.gamefs.log)"
[ ! -e m/tilesets/01.png ] || fail "tilesets/01.png after rm"
gfs_umount m || fail "unmount after rm"
python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "the game after rm"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
assert b['GAMEFS.PT4'] == a['GAMEFS.PT4'][:4800], 'PT4'
del a['GAMEFS.PT4'], b['GAMEFS.PT4']
ga, gb = a["GAMEFS.GEN"], b["GAMEFS.GEN"]
assert a == b, [n for n in a if a[n] != b[n]] + [((i - 7) // 2, ga[i], gb[i]) for i in range(len(ga)) if ga[i] != gb[i]]
PY
"$GAMEFS" check g.rpg >check.txt || fail "check after rm: $(cat check.txt)"

# a page the maps use: a new one copied, not removed while a map's layer draws from it
$RPG mkgame t.rpg new 3 || fail "mkgame 3 maps"
gfs_mount t.rpg m || fail "mount the map game"
cp m/tilesets/00.png m/tilesets/01.png || fail "a new page in the map game"
check_eq EBUSY "$(errno_of "os.unlink('m/tilesets/01.png')")" "rm of a page maps use"
grep -q 'tilesets/01.png: used by maps/00-town/map.ini layer1_tileset, maps/01-cave/map.ini tileset; change that first' \
	m/.gamefs.log || fail "log of rm tilesets/01.png: $(tail -n 1 m/.gamefs.log)"
gfs_umount m || fail "unmount the map game"
check_eq 128000 "$($RPG list t.rpg | awk '$1 == "GAMEFS.TIL" { print $2 }')" "the map game's TIL: two pages"
"$GAMEFS" check t.rpg >check.txt || fail "check of the map game: $(cat check.txt)"

# sets in an rgfx lump (the engine reads those): none made here, said so, nothing changed
$GFX mkrgfx r.rpg || fail "mkrgfx"
cp r.rpg r0.rpg
gfs_mount r.rpg m || fail "mount the rgfx game"
check_eq EPERM "$(errno_of "open('m/sprites/walkabouts/003.png', 'x')")" "a new set in WALKABOUTS.RGFX"
grep -q 'walkabouts/003.png: the engine reads these sets from lumps/WALKABOUTS.RGFX' m/.gamefs.log ||
	fail "log of the rgfx set: $(tail -n 1 m/.gamefs.log)"
gfs_umount m || fail "unmount the rgfx game"
cmp r.rpg r0.rpg || fail "the refused rgfx set changed the archive"
echo "ok"
