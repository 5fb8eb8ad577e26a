#!/bin/sh
# Issue 29, OHRRPGCE: a tile layer added to a map in Tiled.  A layer the map
# does not have (Tiled's "Tile Layer 3", or tiles-N one past the last)
# becomes the map's next layer: .T grows by a layer, the MAP record's
# tileset word of that layer names the tileset its tiles are drawn from,
# layer_enable shows it, and tiles-N.csv appears beside the others.  On a
# generated game by cp of an edited map.tmx; re-read by tests/rpgtool.py;
# `gamefs check`; a fresh mount shows it.  Refused with the reason in the
# log and the archive byte-identical: a tiles-N name that is not the next.
# Then baby_bob.rpg (corpus) with the real Tiled: its map exported, a layer
# added, Tiled saves it back into the mount.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
ADD="python3 $top_srcdir/tests/rpg/addlayer.py"
cd "$T" || exit 1

$RPG mkgame g.rpg new 3
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
$ADD m/maps/00-town/map.tmx bad.tmx tiles-5 tiles-0 || fail "addlayer"
cp bad.tmx m/maps/00-town/map.tmx 2>cp.err && fail "tiles-5 on a map of 2 layers taken"
grep -q 'Invalid argument' cp.err || fail "tiles-5: cp says $(cat cp.err)"
grep -q "layer 'tiles-5' is not one of the map's (tiles-N, walls, foes; a new tile layer is tiles-2 or any other name)" m/.gamefs.log ||
	fail "the log of tiles-5: $(tail -n 2 m/.gamefs.log)"
gfs_umount m || fail "unmount after the refusal"
cmp g.rpg orig.rpg || fail "a refused layer changed the archive"

gfs_mount g.rpg m || fail "mount again"
$ADD m/maps/00-town/map.tmx new.tmx "Tile Layer 3" tiles-0 || fail "addlayer"
cp new.tmx m/maps/00-town/map.tmx || fail "a map.tmx with a new layer: $(tail -n 2 m/.gamefs.log)"
cmp m/maps/00-town/tiles-0.csv m/maps/00-town/tiles-2.csv || fail "tiles-2.csv: the new layer's tiles"
grep -q '<layer id="[0-9]*" name="tiles-2"' m/maps/00-town/map.tmx || fail "map.tmx shows the new layer as tiles-2"
grep -q '^layer2_tileset = 1$' m/maps/00-town/map.ini || fail "map.ini: layer 2 draws from tileset 0 ($(grep layer2 m/maps/00-town/map.ini))"
gfs_umount m || fail "unmount"
"$GAMEFS" check g.rpg >check.txt 2>&1 || fail "check: $(cat check.txt)"
python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "the archive re-read"
import sys, struct
sys.path.insert(0, sys.argv[1])
import rpgtool as t
O, L = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
T = L['GAMEFS.T00']
w, h = struct.unpack('<2h', T[7:11])
assert len(T) == 11 + 3 * w * h and T[:11 + 2 * w * h] == O['GAMEFS.T00'], 'T00: one layer more'
assert T[11 + 2 * w * h:] == T[11:11 + w * h], 'the new layer: a copy of layer 0'
rs = len(O['GAMEFS.MAP']) // 3
a, b = O['GAMEFS.MAP'][:rs], L['GAMEFS.MAP'][:rs]
word = lambda r, f: struct.unpack('<h', r[2 * f:2 * f + 2])[0]
assert word(b, 24) == 1, ('layer 2 tileset word', word(b, 24))
assert word(b, 19) == word(a, 19) | 2, ('layer_enable', word(a, 19), word(b, 19))
assert [f for f in range(rs // 2) if word(a, f) != word(b, f)] in ([19, 24], [24]), 'only those words'
assert L['GAMEFS.MAP'][rs:] == O['GAMEFS.MAP'][rs:]
assert sorted(k for k in O if O[k] != L[k]) == ['GAMEFS.MAP', 'GAMEFS.T00'], [k for k in O if O[k] != L[k]]
PY
gfs_mount g.rpg m || fail "a fresh mount"
cmp m/maps/00-town/tiles-0.csv m/maps/00-town/tiles-2.csv || fail "tiles-2.csv after a remount"
gfs_umount m || fail "unmount after the remount"

command -v tiled >/dev/null 2>&1 || { echo "SKIP: tiled absent (the rest passed)"; exit 77; }
dir=$(corpus rpg) || exit 77
cp "$dir/baby_bob.rpg" bob.rpg && chmod 644 bob.rpg
gfs_mount bob.rpg m || fail "mount baby_bob"
QT_QPA_PLATFORM=offscreen tiled --export-map tmx m/maps/00-grassylandy/map.tmx tiled.tmx >tiled.out 2>&1 ||
	fail "Tiled exports baby_bob's map: $(cat tiled.out)"
$ADD tiled.tmx edit.tmx "Tile Layer 2" tiles-0 || fail "addlayer"
QT_QPA_PLATFORM=offscreen tiled --export-map tmx edit.tmx m/maps/00-grassylandy/map.tmx >tiled.out 2>&1 ||
	fail "Tiled saves the new layer into the mount: $(cat tiled.out) $(tail -n 2 m/.gamefs.log)"
cmp m/maps/00-grassylandy/tiles-0.csv m/maps/00-grassylandy/tiles-1.csv || fail "baby_bob: tiles-1.csv"
gfs_umount m || fail "unmount baby_bob"
"$GAMEFS" check bob.rpg >check.txt 2>&1 || fail "baby_bob check: $(cat check.txt)"
python3 - "$top_srcdir/tests" "$dir/baby_bob.rpg" bob.rpg <<'PY' || fail "baby_bob re-read"
import sys, struct
sys.path.insert(0, sys.argv[1])
import rpgtool as t
O, L = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
T = L['BABY_BOB.T00']
w, h = struct.unpack('<2h', T[7:11])
assert len(T) == 11 + 2 * w * h and T[:11 + w * h] == O['BABY_BOB.T00'] and T[11 + w * h:] == T[11:11 + w * h]
assert sorted(k for k in O if O[k] != L[k]) == ['BABY_BOB.MAP', 'BABY_BOB.T00'], [k for k in O if O[k] != L[k]]
PY
