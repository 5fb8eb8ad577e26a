#!/bin/sh
# Tiled shows the map the engine draws: tile 0 on a tile layer above layer
# 0 (drawn as nothing) is gid 0 in map.tmx and gid 0 reads back as tile 0;
# a layer that map.ini's layer_enable hides (bit k-1: layer k; layer 0 is
# always drawn) is visible="0", and its visibility saved in Tiled is
# written to layer_enable (only those two bytes of the MAP lump change);
# map.png leaves out hidden layers and tile 0 above layer 0.  A TMX written
# back unchanged changes nothing; a visible attribute that is neither 0 nor
# 1 is EINVAL.  Corpus: every upper layer's tile 0 is gid 0 (test_old's
# empty overlay layers all gid 0, as Tiled loads them too), visibility from
# layer_enable.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
export top_srcdir

# map 0: 3 layers (1: tile 0 and tile 5 in stripes; 2: all tile 7), layer_enable 0x0001 (layer 2 hidden)
$RPG mkgame g.rpg new 3 || fail "mkgame"
python3 - "$top_srcdir/tests" g.rpg <<'PY' || fail "make the layers"
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
w, h = 20, 12


def edit(name, body):
    if name == 'GAMEFS.T00':
        l0 = bytes((i * 7 + i // w) % 160 for i in range(w * h))
        l1 = bytes(5 if (i // w) % 2 else 0 for i in range(w * h))
        l2 = bytes([7]) * (w * h)
        return bytes(7) + struct.pack('<hh', w, h) + l0 + l1 + l2
    if name == 'GAMEFS.MAP':
        # layer 2 hidden; layers 0-2 drawn from the map's tileset (0)
        return body[:38] + struct.pack('<H', 1) + body[40:44] + bytes(6) + body[50:]
    return body


t.rewrite(sys.argv[2], edit)
PY
cp g.rpg orig.rpg

cat >chk.py <<'PY'
import os, re, struct, sys
sys.path.insert(0, os.environ["top_srcdir"] + "/tests")
import rpgtool as t


def layers(tmx):
    """{name: (visible, [gids])} of a TMX's CSV layers"""
    s = open(tmx).read()
    out = {}
    for m in re.finditer(r'<layer [^>]*name="([^"]+)"([^>]*)>\s*<data encoding="csv">\s*(.*?)\s*</data>', s, re.S):
        vis = 'visible="0"' not in m.group(2)
        out[m.group(1)] = (vis, [int(v) for v in m.group(3).replace("\n", "").split(",")])
    return out


def csv(path):
    return [int(v) for row in open(path).read().splitlines()[1:] for v in row.split(",")]


def enable(d):
    for l in open(d + "/map.ini"):
        if l.startswith("layer_enable = "):
            return int(l.split("=")[1], 16)
    return 0xffff


def check_map(d):
    """upper layers: gid 0 exactly where the byte is 0; visible as layer_enable says"""
    ls, en = layers(d + "/map.tmx"), enable(d)
    k = 0
    while os.path.exists("%s/tiles-%d.csv" % (d, k)):
        vis, gids = ls["tiles-%d" % k]
        cells = csv("%s/tiles-%d.csv" % (d, k))
        assert len(gids) == len(cells), (d, k)
        if k:
            assert all((g == 0) == (c == 0) for g, c in zip(gids, cells)), (d, k, "gid 0 where tile 0")
        else:
            assert all(g for g in gids), (d, "layer 0 has no empty cell")
        assert vis == (k == 0 or bool(en >> (k - 1) & 1)), (d, k, vis, hex(en))
        k += 1
    return k


if sys.argv[1] == "gen":
    ls = layers(sys.argv[2] + "/map.tmx")
    assert [ls["tiles-1"][0], ls["tiles-2"][0]] == [sys.argv[3][0] == "1", sys.argv[3][1] == "1"], "visibility"
    assert check_map(sys.argv[2]) == 3
    # map.png: layer 0, then layer 1's tile 5 where colour is not 0; tile 0 and layer 2 not drawn
    pal, pix = t.master_palette(), t.tileset_pixels()
    w, h = 20, 12
    l = [csv("%s/tiles-%d.csv" % (sys.argv[2], k)) for k in range(3)]
    show = [True, sys.argv[3][0] == "1", sys.argv[3][1] == "1"]
    _, _, rows = t.png_read_rgb(sys.argv[2] + "/map.png")
    for y in range(h * 20):
        want = bytearray()
        for x in range(w * 20):
            c = 0
            for k in range(3):
                v = l[k][y // 20 * w + x // 20]
                p = pix[(v // 16 * 20 + y % 20) * 320 + v % 16 * 20 + x % 20]
                if k == 0 or (show[k] and v and p):
                    c = p
            want += pal[3 * c:3 * c + 3]
        assert rows[y] == bytes(want), ("map.png row", y)
elif sys.argv[1] == "corpus":
    n = 0
    for d in sys.argv[2:]:
        n += check_map(d) - 1
    print(n)
PY

gfs_mount g.rpg m || fail "mount"
check_eq "layer_enable = 0x0001" "$(grep '^layer_enable' m/maps/00-town/map.ini | sed 's/ *;.*//')" "map.ini"
python3 chk.py gen m/maps/00-town 10 || fail "map 0: TMX and map.png as the engine draws them"
# written back unchanged: nothing changes
for d in m/maps/[0-9]*; do
	cat "$d/map.tmx" >same.tmx && cp same.tmx "$d/map.tmx" || fail "$d: TMX written back"
done
gfs_umount m || fail "umount"
cmp g.rpg orig.rpg || fail "TMX written back unchanged changed the archive"

# layer 1 hidden, layer 2 shown in Tiled: layer_enable 0x0002, only GAMEFS.MAP bytes 38-39 change
gfs_mount g.rpg m || fail "mount 2"
sed -e 's/name="tiles-1" width="20" height="12"/& visible="0"/' \
    -e 's/\(name="tiles-2" width="20" height="12"\) visible="0"/\1/' m/maps/00-town/map.tmx >vis.tmx
cmp -s vis.tmx m/maps/00-town/map.tmx && fail "the visibility edit did nothing"
cp vis.tmx m/maps/00-town/map.tmx || fail "visibility written"
check_eq "layer_enable = 0x0002" "$(grep '^layer_enable' m/maps/00-town/map.ini | sed 's/ *;.*//')" "map.ini after"
cmp -s vis.tmx m/maps/00-town/map.tmx || fail "the TMX does not read back as written"
python3 chk.py gen m/maps/00-town 01 || fail "map.png after the visibility edit"
# a visible attribute Tiled never writes
sed 's/name="tiles-1" width="20" height="12" visible="0"/name="tiles-1" width="20" height="12" visible="maybe"/' \
	vis.tmx >bad.tmx
check_eq EINVAL "$(errno_of "f=open('m/maps/00-town/map.tmx','wb'); f.write(open('bad.tmx','rb').read()); f.close()")" "visible=maybe"
grep -q "visible=\"maybe\" is neither 0 nor 1" m/.gamefs.log || fail "the log does not say why: $(tail -n 2 m/.gamefs.log)"
gfs_umount m || fail "umount 2"
python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "not only layer_enable changed"
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = t.read_lumps(sys.argv[2]), t.read_lumps(sys.argv[3])
assert [n for n, _ in a] == [n for n, _ in b]
want = dict(a)
m = bytearray(want['GAMEFS.MAP'])
m[38:40] = struct.pack('<H', 2)
want['GAMEFS.MAP'] = bytes(m)
for n, d in b:
    assert want[n] == d, n
PY

# the corpus: every map; test_old's overlay layers are all gid 0, in Tiled too
dir=$(corpus rpg) || exit 77
for f in "$dir"/*.rpg; do
	b=$(basename "$f")
	cp "$f" "$b" && chmod 644 "$b"
	gfs_mount "$b" m || fail "mount $b"
	n=$(python3 chk.py corpus m/maps/[0-9]*) || fail "$b: the maps' TMX"
	echo "$b: $n upper layers checked"
	if [ "$b" = test_old.rpg ]; then
		d=$(ls -d m/maps/00-*)
		check_eq 2 "$(grep -c 'name="tiles-[12]".*visible="0"' "$d/map.tmx")" "test_old: layers 1, 2 hidden"
		if command -v tiled >/dev/null 2>&1; then
			QT_QPA_PLATFORM=offscreen tiled --export-map json "$d/map.tmx" old.json >tiled.out 2>&1 ||
				fail "tiled cannot load test_old's map: $(cat tiled.out)"
			python3 -c "
import json, sys
m = json.load(open('old.json'))
up = [l for l in m['layers'] if l['name'] in ('tiles-1', 'tiles-2')]
assert len(up) == 2 and all(not any(l['data']) and not l['visible'] for l in up), 'overlay layers not empty'
" || fail "test_old in Tiled: overlay layers not empty and hidden"
		fi
	fi
	for d in m/maps/[0-9]*; do
		cat "$d/map.tmx" >same.tmx && cp same.tmx "$d/map.tmx" || fail "$b: $d TMX written back"
	done
	gfs_umount m || fail "unmount $b"
	cmp "$f" "$b" || fail "$b: TMX written back unchanged changed the archive"
	rm -f "$b"
done
exit 0
