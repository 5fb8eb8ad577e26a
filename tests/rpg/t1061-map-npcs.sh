#!/bin/sh
# map.png draws the NPCs as the engine does at rest (issue 30, 5): a
# generated game with three NPC instances on map 0 (one of the global pool)
# and a .PT4 whose frames are each one colour: map.png differs from the
# same game's without walkabouts in exactly the three 20x20 boxes, less
# each frame's colour 0 pixel, and each box is the first frame of its
# direction of its type's walkabout in its type's 16-colour palette.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

$RPG mkgame plain.rpg new 3 || fail "generate"
python3 - "$top_srcdir/tests" plain.rpg g.rpg <<'PY' || fail "add walkabouts"
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
lumps = t.read_lumps(sys.argv[2])
pt4 = bytearray()
for s in range(16):                     # set s, frame f: colour 1 + (f + s) % 15, pixel 0,0 clear
    for f in range(8):
        k = 1 + (f + s) % 15
        fr = bytearray([k << 4 | k] * 200)
        fr[0] = k                       # x 0: rows 0 (high nibble: 0) and 1
        pt4 += fr
pal = struct.pack('<h', 4444) + bytes(14) + bytes((16 * p + c + 50) & 0xff for p in range(20) for c in range(16))
with open(sys.argv[3], 'wb') as f:
    for name, body in lumps + [('GAMEFS.PT4', bytes(pt4)), ('GAMEFS.PAL', pal)]:
        f.write(t.lump_bytes(name, body))
PY
gfs_mount plain.rpg p -o ro || fail "mount plain"
gfs_mount g.rpg m -o ro || fail "mount"
cp p/maps/00-town/map.png plain.png && cp m/maps/00-town/map.png npcs.png || fail "map.png"
check_eq "$(cat p/maps/00-town/npcs.csv)" "$(cat m/maps/00-town/npcs.csv)" "the same NPCs"
python3 - "$top_srcdir/tests" plain.png npcs.png <<'PY' || fail "the NPCs on map.png"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
w, h, a = t.png_read_rgb(sys.argv[2])
w2, h2, b = t.png_read_rgb(sys.argv[3])
assert (w, h) == (w2, h2) == (400, 240), (w, h, w2, h2)
master = t.master_palette()
# slot: tile x, y, the master index of its frame's colour
# (type 0: walkabout 0, palette 1, down: frame 4; type 1: 3, 4, up: frame 0; global type 2: 13, 14, left: frame 6)
npcs = [(1, 2, (16 * 1 + 1 + (4 + 0) % 15 + 50) & 0xff), (3, 4, (16 * 4 + 1 + (0 + 3) % 15 + 50) & 0xff),
        (0, 9, (16 * 14 + 1 + (6 + 13) % 15 + 50) & 0xff)]
want = {}
for tx, ty, c in npcs:
    for y in range(20):
        for x in range(20):
            if (x, y) != (0, 0):
                want[(20 * tx + x, 20 * ty + y)] = master[3 * c:3 * c + 3]
for y in range(h):
    ra, rb = bytes.fromhex(a[y].hex()), bytes.fromhex(b[y].hex())
    for x in range(w):
        pa, pb = ra[3 * x:3 * x + 3], rb[3 * x:3 * x + 3]
        if (x, y) in want:
            assert pb == want[(x, y)], ('npc pixel', x, y, pb.hex(), want[(x, y)].hex())
        else:
            assert pa == pb, ('not an npc pixel changed', x, y)
print('%d NPC pixels' % len(want))
PY
gfs_umount m || fail "unmount"
gfs_umount p || fail "unmount plain"
echo ok
