#!/bin/sh
# map.png draws the map's NPC instances as the engine does at rest (issue
# 30 item 5): each used .L slot on its tile, frame 2 x direction of its NPC
# type's walkabout (the .N record's picture; the global pool's
# GLOBALNPCS1.N for a pooled one), in the type's palette (its own PAL
# palette, or DEFPAL4.BIN's for -1), colour 0 clear; the layers below the
# map's walkabout layer (MAP field 31, 0 meaning 2) under them, the others
# over them.  Checked pixel by pixel against the same map without PT4 (no
# NPC drawn) and the walkabouts, palettes and master palette decoded here;
# the corpus's map.png of every map still draws (skipped without it).
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1
export top_srcdir

python3 - <<'PY' || fail "make the games"
import os, struct, sys
sys.path.insert(0, os.environ['top_srcdir'] + '/tests')
import rpgtool as t
t.make_game('base.rpg', False, 2)
lumps = t.read_lumps('base.rpg')
def ntypes(recs, rs=38):
    return bytes(7) + b''.join(t.i16s([pic, pal] + [0] * (rs // 2 - 2)) for pic, pal in recs)
def pt4(sets):
    # set s, frame f: nibble (x + 2y + 3f + s) % 16 at (x, y): columns of 10 bytes, high nibble the upper row
    out = b''
    for s in range(sets):
        for f in range(8):
            for x in range(20):
                for y in range(0, 20, 2):
                    hi, lo = ((x + 2 * y + 3 * f + s) % 16, (x + 2 * (y + 1) + 3 * f + s) % 16)
                    out += bytes([hi << 4 | lo])
    return out
pal = struct.pack('<hh', 4444, 3) + bytes(12) + b''.join(bytes((p * 40 + i * 15) % 256 for i in range(16)) for p in range(4))
out = []
for name, body in lumps:
    if name == 'GAMEFS.N00':
        body = ntypes([(1, -1), (0, 3), (2, 0), (1, 2)])
    elif name == 'GLOBALNPCS1.N':
        body = ntypes([(0, 0), (0, 0), (1, 1)])
    elif name == 'GAMEFS.MAP':
        b = bytearray(body)
        b[62:64] = struct.pack('<h', 0)      # map 0: walkabout layer 0, i.e. 2: NPCs over both layers
        b[38:40] = struct.pack('<h', 1)      # layer 1 shown
        b[46:48] = struct.pack('<h', 0)      # layer 1 drawn from the map's tileset (00, the game's only)
        b[764 + 62:764 + 64] = struct.pack('<h', 1)  # map 1: NPCs between layer 0 and 1
        body = bytes(b)
    elif name == 'GAMEFS.T00':
        b = bytearray(body)
        b[11 + 20 * 12 + 2 * 20 + 1] = 0       # layer 1 clear over slot 0's tile (1, 2)
        body = bytes(b)
    out.append((name, body))
with open('base.rpg', 'wb') as f:
    for name, body in out:
        f.write(t.lump_bytes(name, body))
with open('npc.rpg', 'wb') as f:
    for name, body in out + [('GAMEFS.PT4', pt4(3)), ('GAMEFS.PAL', pal), ('DEFPAL4.BIN', t.i16s([1, 2, 0]))]:
        f.write(t.lump_bytes(name, body))
PY
gfs_mount base.rpg b || fail "mount the game without walkabouts"
gfs_mount npc.rpg m || fail "mount the game with walkabouts"
python3 - <<'PY' || fail "NPCs on map.png"
import os, struct, sys
sys.path.insert(0, os.environ['top_srcdir'] + '/tests')
import rpgtool as t
master = t.master_palette()
pals = [[(p * 40 + i * 15) % 256 for i in range(16)] for p in range(4)]
defpal = [1, 2, 0]
def nib(s, f, x, y):
    return (x + 2 * y + 3 * f + s) % 16
def expect(d, slots):
    _, _, base = t.png_read_rgb('b/maps/%s/map.png' % d)
    _, _, got = t.png_read_rgb('m/maps/%s/map.png' % d)
    want = [bytearray(r) for r in base]
    for (x, y, s, pal, d4) in slots:
        p = pals[defpal[s] if pal < 0 else pal]
        for py in range(20):
            for px in range(20):
                c = nib(s, 2 * d4, px, py)
                if c:
                    k = p[c]
                    X, Y = x * 20 + px, y * 20 + py
                    want[Y][3 * X:3 * X + 3] = master[3 * k:3 * k + 3]
    bad = [(i, j) for i, (a, b) in enumerate(zip(got, want)) for j in range(0, len(a), 3) if a[j:j + 3] != b[j:j + 3]]
    assert not bad, (d, len(bad), bad[:5])
    return base, got
# map 0: slots 0 (1,2) type 0 dir 2, 1 (3,4) type 1 dir 0, 5 (0,9) global type 2 dir 3
expect('00-town', [(1, 2, 1, -1, 2), (3, 4, 0, 3, 0), (0, 9, 1, 1, 3)])
PY
# map.tmx: NPCs with a walkabout are tile objects of its tileset, frame 2 x direction, y their bottom
python3 - <<'PY' || fail "NPC tile objects in map.tmx"
import re
s = open('m/maps/00-town/map.tmx').read()
sets = {n: int(f) for f, n in re.findall(r'<tileset firstgid="(\d+)" name="([^"]+)"', s)}
assert 'walkabout-000' in sets and 'walkabout-001' in sets, sets
assert '../../sprites/walkabouts/001.png' in s
objs = {int(i): (int(g), int(x), int(y)) for i, g, x, y in
        re.findall(r'<object id="(\d+)" name="[^"]*" gid="(\d+)" x="(\d+)" y="(\d+)"', s)}
assert objs == {1: (sets['walkabout-001'] + 4, 20, 60), 2: (sets['walkabout-000'] + 0, 60, 100),
                6: (sets['walkabout-001'] + 6, 0, 200)}, objs
b = open('b/maps/00-town/map.tmx').read()
assert 'walkabout-' not in b and 'gid="' not in b.split('<objectgroup')[1], "no walkabouts: rectangles"
PY
if command -v tmxrasterizer >/dev/null; then
	# Tiled's own renderer: slot 0 (default palette) as map.png draws it, colour 0 clear over the map
	QT_QPA_PLATFORM=offscreen tmxrasterizer --hide-layer walls --hide-layer foes m/maps/00-town/map.tmx tiled.png \
		>tiled.out 2>&1 || fail "tmxrasterizer: $(cat tiled.out)"
	python3 - <<'PY' || fail "Tiled draws slot 0 as map.png does"
import os, sys
sys.path.insert(0, os.environ['top_srcdir'] + '/tests')
import rpgtool as t
_, _, tiled = t.png_read_rgb('tiled.png')
_, _, png = t.png_read_rgb('m/maps/00-town/map.png')
tile = lambda rows, x, y: [r[x * 60:x * 60 + 60] for r in rows[y * 20:y * 20 + 20]]
assert tile(tiled, 1, 2) == tile(png, 1, 2), "slot 0's tile"
assert tile(tiled, 5, 5) == tile(png, 5, 5), "a tile without NPC"
PY
fi
gfs_umount b || fail "unmount base"
gfs_umount m || fail "unmount npc"

# a tile object moved by hand moves its NPC: slot 0 from (1, 2) to (4, 7)
cp npc.rpg before.rpg && cp npc.rpg mv.rpg
gfs_mount mv.rpg m || fail "mount to move"
sed 's/<object id="1" name="npc 0" gid="\([0-9]*\)" x="20" y="60"/<object id="1" name="npc 0" gid="\1" x="80" y="160"/' \
	m/maps/00-town/map.tmx >moved.tmx
cmp -s moved.tmx m/maps/00-town/map.tmx && fail "the object was not in map.tmx"
cp moved.tmx m/maps/00-town/map.tmx || fail "write the moved object"
gfs_umount m || fail "unmount moved"
python3 - <<'PY' || fail "slot 0 moved in .L, nothing else"
import os, struct, sys
sys.path.insert(0, os.environ['top_srcdir'] + '/tests')
import rpgtool as t
a, b = dict(t.read_lumps('before.rpg')), dict(t.read_lumps('mv.rpg'))
assert [k for k in a if a[k] != b[k]] == ['GAMEFS.L00'], [k for k in a if a[k] != b[k]]
l = b['GAMEFS.L00']
assert struct.unpack_from('<h', l, 7)[0] == 4 and struct.unpack_from('<h', l, 7 + 600)[0] == 8, "x 4, y+1 8"
PY


# a layer above the walkabout layer covers the NPC: map 0 with walkabout layer 1
python3 - <<'PY' || fail "walkabout layer 1"
import os, struct, sys
sys.path.insert(0, os.environ['top_srcdir'] + '/tests')
import rpgtool as t
for fn in ('base.rpg', 'npc.rpg'):
    out = []
    for name, body in t.read_lumps(fn):
        if name == 'GAMEFS.MAP':
            b = bytearray(body); b[62:64] = struct.pack('<h', 1); body = bytes(b)
        if name == 'GAMEFS.T00':
            b = bytearray(body); b[11 + 20 * 12 + 4 * 20 + 3] = 17; body = bytes(b)   # an opaque tile over slot 1
        out.append((name, body))
    with open(fn, 'wb') as f:
        for name, body in out:
            f.write(t.lump_bytes(name, body))
PY
gfs_mount base.rpg b || fail "mount base 2"
gfs_mount npc.rpg m || fail "mount npc 2"
python3 - <<'PY' || fail "layer 1 over the NPCs"
import os, sys
sys.path.insert(0, os.environ['top_srcdir'] + '/tests')
import rpgtool as t
_, _, base = t.png_read_rgb('b/maps/00-town/map.png')
_, _, got = t.png_read_rgb('m/maps/00-town/map.png')
tile = lambda rows, x, y: [r[x * 60:x * 60 + 60] for r in rows[y * 20:y * 20 + 20]]
assert tile(got, 3, 4) == tile(base, 3, 4), "slot 1 under an opaque tile of layer 1 shows"
assert tile(got, 1, 2) != tile(base, 1, 2), "slot 0, where layer 1 is clear, is not drawn"
PY
gfs_umount b || fail "unmount base 2"
gfs_umount m || fail "unmount npc 2"

# the corpus: every map.png still draws, NPCs and all
if dir=$(corpus rpg); then
	for f in "$dir"/*.rpg; do
		gfs_mount "$f" c -o ro || fail "mount $f"
		for p in c/maps/*/map.png; do
			[ -e "$p" ] || continue
			python3 -c "import sys; sys.path.insert(0, '$top_srcdir/tests'); import rpgtool as t; t.png_read_rgb(sys.argv[1])" "$p" ||
				fail "$f: $p does not read"
		done
		gfs_umount c || fail "unmount $f"
	done
fi
echo ok
