#!/bin/sh
# OHRRPGCE maps for Tiled: maps/NN-name/map.tmx (one tile layer per .T
# layer with gids first + byte of the layer's tileset from map.ini, the
# animated range 160-255 in NN-animated, walls and foes as layers of their
# own tilesets) and map.png, read-only, the .T layers drawn.  Generated
# games (3 tilesets, TAP patterns, animated tiles, walls and foes smaller
# than the map) and every corpus map: the TMX against the CSV views, Tiled
# loads it (--export-map json) with the same cells, Tiled's re-save copied
# in changes nothing, a tile changed in Tiled's TMX and saved by Tiled into
# the mount changes that byte, a wall changed by hand changes that byte,
# base64 zlib/gzip data and tilesets by reference are taken, and what the
# map cannot hold is EINVAL with the archive unchanged.
# Without Tiled the rest runs and the test then skips.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
command -v tiled >/dev/null 2>&1 && have_tiled=1 || have_tiled=

# A game of 3 maps, 3 tileset pages, TAP start tiles, animated tiles on map 0 and 1
$RPG mkgame g.rpg new 3 || fail "mkgame"
python3 - "$top_srcdir/tests" g.rpg <<'PY' || fail "add tilesets and animations"
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
lumps = t.read_lumps(sys.argv[2])
pix = t.tileset_pixels()
pages = b''.join(t.modex(bytes((p * 37 + v) & 0xff for v in pix)) for p in range(3))
tap = b''.join(struct.pack('<20h', 10 * s + 3, *range(19)) + struct.pack('<20h', 100 + s, *range(19)) for s in range(3))
out = []
for name, body in lumps:
    if name == 'GAMEFS.TIL':
        body = pages
    if name in ('GAMEFS.T00', 'GAMEFS.T01'):
        b = bytearray(body)
        b[11] = 160; b[12] = 207; b[13] = 208; b[14] = 255; b[15] = 170
        body = bytes(b)
    out.append((name, body))
out.append(('GAMEFS.TAP', tap))
with open(sys.argv[2], 'wb') as f:
    for name, body in out:
        f.write(t.lump_bytes(name, body))
PY
cp g.rpg orig.rpg

# the gids of a layer (TMX or Tiled's JSON) back to bytes, by the tilesets' names
cat >tmx.py <<'PY'
import json, os, struct, sys, zlib, xml.etree.ElementTree as ET
sys.path.insert(0, os.environ["top_srcdir"] + "/tests")
import rpgtool


def csv(path):
    return [[int(v) for v in row.split(",")] for row in open(path).read().splitlines()[1:]]


def png_size(path):
    b = open(path, "rb").read(24)
    assert b[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", b[16:24])


def layer_tilesets(d, nlayers):
    """each tiles-K's tileset, from map.ini (0: the map's, n: n-1); 0 without map.ini"""
    ini = {}
    if os.path.exists(d + "/map.ini"):
        ini = dict(l.split(" = ", 1) for l in open(d + "/map.ini").read().splitlines() if " = " in l)
    out = []
    for k in range(nlayers):
        v = int(ini.get("layer%d_tileset" % k, "0"))
        out.append(v - 1 if v > 0 else max(int(ini.get("tileset", "0")), 0))
    return out


def to_bytes(gids, sets, kind, ts):
    out = []
    for g in gids:
        if g == 0:
            out.append(0)
            continue
        first, name = max((f, n) for f, n in sets if f <= g)
        if kind == "tiles":
            assert name in ("%02d" % ts, "%02d-animated" % ts, "%02d-upper" % ts), (g, name, ts)
            out.append(g - first + (160 if name.endswith("-animated") else 0))
        else:
            assert name == kind, (g, name, kind)
            out.append(g - first)
    return out


def want_layers(d):
    """{layer name: (kind, tileset, w*h bytes at the .T size)} from the CSV views"""
    t0 = csv(d + "/tiles-0.csv")
    w, h = len(t0[0]), len(t0)
    names = sorted(f[:-4] for f in os.listdir(d) if f.endswith(".csv") and f.split("-")[0].split(".")[0] in ("tiles", "walls", "foes"))
    ntiles = len([n for n in names if n.startswith("tiles")])
    ts = layer_tilesets(d, ntiles)
    out = {}
    for n in names:
        g = csv(d + "/" + n + ".csv")
        cells = [g[y][x] if y < len(g) and x < len(g[0]) else 0 for y in range(h) for x in range(w)]
        kind = n.split("-")[0]
        out[n] = (kind, ts[int(n[6:])] if kind == "tiles" else None, cells)
    return w, h, out


def check_tmx(d):
    w, h, want = want_layers(d)
    root = ET.parse(d + "/map.tmx").getroot()
    a = root.attrib
    assert (a["orientation"], int(a["width"]), int(a["height"]), a["tilewidth"], a["tileheight"]) == \
        ("orthogonal", w, h, "20", "20"), a
    sets = []
    for ts in root.findall("tileset"):
        im = ts.find("image")
        assert png_size(os.path.join(d, im.get("source"))) == (int(im.get("width")), int(im.get("height"))), im.attrib
        sets.append((int(ts.get("firstgid")), ts.get("name")))
    layers = root.findall("layer")
    assert sorted(l.get("name") for l in layers) == sorted(want), ([l.get("name") for l in layers], list(want))
    for l in layers:
        kind, ts, cells = want[l.get("name")]
        gids = [int(v) for v in l.find("data").text.replace("\n", "").split(",")]
        assert to_bytes(gids, sets, kind, ts) == cells, (d, l.get("name"))
    pw, ph = png_size(d + "/map.png")
    assert (pw, ph) == (w * 20, h * 20), (pw, ph)
    assert os.stat(d + "/map.png").st_mode & 0o222 == 0, "map.png is writable"


def check_json(d, js):
    w, h, want = want_layers(d)
    m = json.load(open(js))
    assert (m["width"], m["height"]) == (w, h), (m["width"], m["height"])
    sets = [(t["firstgid"], t["name"]) for t in m["tilesets"]]
    tiles = [l for l in m["layers"] if l["type"] == "tilelayer"]    # object groups: t1042
    assert sorted(l["name"] for l in tiles) == sorted(want)
    for l in tiles:
        kind, ts, cells = want[l["name"]]
        assert (l["width"], l["height"]) == (w, h)
        assert to_bytes(l["data"], sets, kind, ts) == cells, (d, l["name"])


def check_png(d, til):
    """a one-layer map: every pixel of map.png is its tile's pixel of the tileset (first frame)"""
    w, h, want = want_layers(d)
    _, _, rows = rpgtool.png_read_rgb(d + "/map.png")
    _, _, trows = rpgtool.png_read_rgb(til)
    kind, ts, cells = want["tiles-0"]
    tap = [int(x) for x in sys.argv[4].split(",")]
    for i, v in enumerate(cells):
        tile = v if v < 160 else (tap[(v - 160) // 48] + (v - 160) % 48) % 160
        x, y, tx, ty = i % w * 20, i // w * 20, tile % 16 * 20, tile // 16 * 20
        for j in range(20):
            assert rows[y + j][x * 3:(x + 20) * 3] == trows[ty + j][tx * 3:(tx + 20) * 3], (d, i, v, j)


if sys.argv[1] == "tmx":
    for d in sys.argv[2:]:
        check_tmx(d)
elif sys.argv[1] == "json":
    for i in range(2, len(sys.argv), 2):
        check_json(sys.argv[i], sys.argv[i + 1])
elif sys.argv[1] == "png":
    check_png(sys.argv[2], sys.argv[3])
elif sys.argv[1] == "upper":
    # NN-upper.png: tiles 0-159 are NN.png's, colour 0 alone clear (tRNS)
    up, til = sys.argv[2], sys.argv[3]
    assert png_size(up) == (320, 320), png_size(up)
    b = open(up, "rb").read()
    at = b.index(b"tRNS")
    n = struct.unpack(">I", b[at - 4:at])[0]
    assert b[at + 4:at + 4 + n] == b"\0", b[at + 4:at + 4 + n]
    _, _, rows = rpgtool.png_read_rgb(up)
    _, _, trows = rpgtool.png_read_rgb(til)
    assert rows[:200] == trows, "tiles 0-159 differ from the tileset's"
PY
export top_srcdir

# check_maps MNT: every map's TMX against its views, and as Tiled loads it
check_maps() {
	mnt=$1
	python3 tmx.py tmx "$mnt"/maps/[0-9]* || fail "$mnt: a map.tmx against the CSV views"
	[ -n "$have_tiled" ] || return 0
	set --
	i=0
	for d in "$mnt"/maps/[0-9]*; do
		i=$((i + 1))
		QT_QPA_PLATFORM=offscreen tiled --export-map json "$d/map.tmx" map$i.json >tiled.out 2>&1 ||
			fail "tiled cannot load $d/map.tmx: $(cat tiled.out)"
		set -- "$@" "$d" map$i.json
	done
	python3 tmx.py json "$@" || fail "Tiled's maps against the CSV views"
}

# changed_only ORIG NEW LUMP OFFSET VALUE: NEW is ORIG with that one byte of LUMP set
changed_only() {
	python3 - "$top_srcdir/tests" "$@" <<'PY' || fail "not only $3 byte $4 changed"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = t.read_lumps(sys.argv[2]), t.read_lumps(sys.argv[3])
assert [n for n, _ in a] == [n for n, _ in b]
want = dict(a)
body = bytearray(want[sys.argv[4]])
body[int(sys.argv[5])] = int(sys.argv[6])
want[sys.argv[4]] = bytes(body)
for n, d in b:
    assert want[n] == d, n
PY
}

gfs_mount g.rpg m || fail "mount"
check_eq "00-town 01-cave 02-map-2 tilesets" "$(ls m/maps | tr '\n' ' ' | sed 's/ $//')" "maps/"
check_eq "00-animated.png 00-upper.png 01-animated.png 01-upper.png 02-animated.png 02-upper.png foes.png walls.png" \
	"$(ls m/maps/tilesets | tr '\n' ' ' | sed 's/ $//')" "maps/tilesets/"
check_maps m
grep -q 'name="01-animated"' m/maps/00-town/map.tmx || fail "layer 1's tileset (01) with its animated range"
grep -q 'name="01-upper"' m/maps/00-town/map.tmx || fail "layer 1's tileset (01) with colour 0 clear"
grep -q 'name="00-upper"' m/maps/00-town/map.tmx && fail "no upper layer draws from 00: no 00-upper"
python3 tmx.py upper m/maps/tilesets/01-upper.png m/tilesets/01.png || fail "01-upper.png against tileset 01"
grep -q 'name="walls"' m/maps/01-cave/map.tmx && fail "map 1 has no walls lump, its TMX no walls"
python3 tmx.py png m/maps/01-cave m/tilesets/01.png 13,101 || fail "map.png of map 1 against tileset 01"
check_eq EACCES "$(errno_of "open('m/maps/00-town/map.png','wb')")" "map.png read-only"
for f in walls foes 00-animated; do
	check_eq "320" "$(python3 -c "import struct,sys; print(struct.unpack('>I', open(sys.argv[1],'rb').read(20)[16:20])[0])" m/maps/tilesets/$f.png)" "$f.png width"
done
# every TMX written back unchanged, also as base64 with zlib and gzip: nothing changes
for d in m/maps/[0-9]*; do
	cat "$d/map.tmx" >same.tmx && cp same.tmx "$d/map.tmx" || fail "$d: TMX written back"
done
for comp in zlib gzip; do
	python3 - m/maps/00-town/map.tmx b64.tmx $comp <<'PY' || fail "make base64 $comp"
import base64, gzip, re, struct, sys, zlib
s = open(sys.argv[1]).read()
def enc(m):
    raw = b"".join(struct.pack("<I", int(v)) for v in m.group(1).replace("\n", "").split(","))
    z = zlib.compress(raw) if sys.argv[3] == "zlib" else gzip.compress(raw)
    return '<data encoding="base64" compression="%s">\n   %s\n  </data>' % (sys.argv[3], base64.b64encode(z).decode())
open(sys.argv[2], "w").write(re.sub(r'<data encoding="csv">\n(.*?)\n</data>', enc, s, flags=re.S))
PY
	cp b64.tmx m/maps/00-town/map.tmx || fail "base64 $comp written back"
done
# tilesets by reference (external .tsx files, known by their file names)
python3 - m/maps/00-town/map.tmx ref.tmx <<'PY' || fail "make tileset references"
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r'<tileset firstgid="(\d+)" name="([^"]+)"[^>]*>.*?</tileset>', r'<tileset firstgid="\1" source="../\2.tsx"/>',
           s, flags=re.S)
assert s.count(".tsx") == 7, s.count(".tsx")
open(sys.argv[2], "w").write(s)
PY
cp ref.tmx m/maps/00-town/map.tmx || fail "tilesets by reference written back"
gfs_umount m || fail "umount"
cmp g.rpg orig.rpg || fail "TMX written back unchanged changed the archive"

# a wall changed by hand (cell 3,2 of walls: gid first + 9), a foe cleared (cell 0,0)
gfs_mount g.rpg m || fail "mount hand"
python3 - m/maps/00-town/map.tmx hand.tmx <<'PY' || fail "hand edit"
import re, sys
s = open(sys.argv[1]).read()
first = int(re.search(r'firstgid="(\d+)" name="walls"', s).group(1))
i = s.index('<layer id'); i = s.index('name="walls" width', i); j = s.index('<data encoding="csv">\n', i) + 22
rows = s[j:s.index("\n</data>", j)].split("\n")
cells = rows[2].split(",")
cells[3] = str(first + 9)
rows[2] = ",".join(cells)
open(sys.argv[2], "w").write(s[:j] + "\n".join(rows) + s[s.index("\n</data>", j):])
PY
cp hand.tmx m/maps/00-town/map.tmx || fail "hand-edited TMX written"
check_eq 9 "$(sed -n 4p m/maps/00-town/walls.csv | cut -d, -f4)" "the wall in walls.csv"
gfs_umount m || fail "umount hand"
changed_only orig.rpg g.rpg GAMEFS.P00 $((11 + 2 * 20 + 3)) 9

# what the map cannot hold: EINVAL, the archive unchanged, the log names it
cp orig.rpg g.rpg
gfs_mount g.rpg m || fail "mount bad"
cp m/maps/00-town/map.tmx t.tmx
bad() { # WHAT SED-EXPRESSION LOG
	sed "$2" t.tmx >bad.tmx
	cmp -s bad.tmx t.tmx && fail "$1: the edit did nothing"
	check_eq EINVAL "$(errno_of "f=open('m/maps/00-town/map.tmx','wb'); f.write(open('bad.tmx','rb').read()); f.close()")" "$1"
	grep -q "$3" m/.gamefs.log || fail "$1: the log does not say '$3': $(tail -n 3 m/.gamefs.log)"
	cmp -s m/maps/00-town/map.tmx t.tmx || fail "$1: the TMX does not read back its last good content"
}
bad "a map size change without its layers" '2s/width="20" height="12"/width="21" height="12"/' "layer 'tiles-0' is not 21x12"
bad "a map below 16x10" '2s/width="20" height="12"/width="20" height="9"/' "a 20x9 map is past OHRRPGCE's limits: at least 16x10"
bad "another tile size" '2s/tilewidth="20"/tilewidth="16"/' "line 2: the map is not finite with 20x20 tiles"
bad "a layer size change" 's/name="tiles-1" width="20"/name="tiles-1" width="10"/' "layer 'tiles-1' is not 20x12"
bad "an unknown gid" '/name="tiles-0"/,/<\/layer>/s/^161,/99999,/' "gid 99999 is not a tile of tileset '00'"
bad "a tile of layer 1's tileset on layer 0" '/name="tiles-0"/,/<\/layer>/s/^161,/257,/' "gid 257 is not a tile of tileset '00'"
bad "a foreign tileset" 's/name="01"/name="07"/' "tileset '07' is none of the game's"
bad "a wall below the walls map" '/name="walls"/,/<\/layer>/s/^\(\([0-9]*,\)\{19\}\)0$/\1520/' "outside the walls map (20x10)"
bad "a tile layer past the next" 's/name="foes" width/name="tiles-7" width/' "layer 'tiles-7' is not one of the map's"
bad "broken XML" 's|</layer>|</layr>|' "</layr> closes <layer>"
bad "an object layer of no kind the map has" 's|</map>|<objectgroup id="9" name="monsters"/></map>|' "object group 'monsters' is not one of the map's"
bad "a map property" 's|</tileset>|&<properties><property name="x" value="1"/></properties>|' "map properties are nothing the map holds"
gfs_umount m || fail "umount bad"
cmp g.rpg orig.rpg || fail "refused TMX edits changed the archive"

if [ -n "$have_tiled" ]; then
	# Tiled's re-save changes nothing; one tile changed in it (tiles-1, cell 5,3: tile 7) and
	# saved again by Tiled changes that byte
	gfs_mount g.rpg m || fail "mount tiled"
	QT_QPA_PLATFORM=offscreen tiled --export-map tmx m/maps/00-town/map.tmx tiled.tmx >tiled.out 2>&1 ||
		fail "tiled re-saves map 0: $(cat tiled.out)"
	cp tiled.tmx m/maps/00-town/map.tmx || fail "Tiled's TMX copied in"
	gfs_umount m || fail "umount tiled"
	cmp g.rpg orig.rpg || fail "Tiled's re-save changed the archive"
	python3 - tiled.tmx edit.tmx <<'PY' || fail "edit Tiled's TMX"
import re, sys
s = open(sys.argv[1]).read()
first = int(re.search(r'firstgid="(\d+)" name="01"', s).group(1))
i = s.index('name="tiles-1"'); j = s.index('<data encoding="csv">\n', i) + 22
rows = s[j:s.index("\n</data>", j)].split("\n")
cells = rows[3].split(",")
cells[5] = str(first + 7)
rows[3] = ",".join(cells)
open(sys.argv[2], "w").write(s[:j] + "\n".join(rows) + s[s.index("\n</data>", j):])
PY
	# Tiled saves it straight into the mount (QSaveFile: a temporary file renamed over map.tmx)
	gfs_mount g.rpg m || fail "mount tiled 2"
	QT_QPA_PLATFORM=offscreen tiled --export-map tmx edit.tmx m/maps/00-town/map.tmx >tiled.out 2>&1 ||
		fail "tiled saves the edited map into the mount: $(cat tiled.out)"
	check_eq 7 "$(sed -n 5p m/maps/00-town/tiles-1.csv | cut -d, -f6)" "Tiled's edit in tiles-1.csv"
	gfs_umount m || fail "umount tiled 2"
	changed_only orig.rpg g.rpg GAMEFS.T00 $((11 + 20 * 12 + 3 * 20 + 5)) 7
fi

# every corpus map: the TMX against the views, in Tiled; the first map's Tiled re-save changes nothing
dir=$(corpus rpg) || dir=
for f in ${dir:+"$dir"/*.rpg}; do
	b=$(basename "$f")
	cp "$f" "$b" && chmod 644 "$b"
	gfs_mount "$b" m || fail "mount $b"
	check_maps m
	first=$(ls -d m/maps/[0-9]* | head -n 1)
	for d in m/maps/[0-9]*; do
		cat "$d/map.tmx" >same.tmx && cp same.tmx "$d/map.tmx" || fail "$b: $d TMX written back"
	done
	if [ -n "$have_tiled" ]; then
		QT_QPA_PLATFORM=offscreen tiled --export-map tmx "$first/map.tmx" tiled.tmx >tiled.out 2>&1 ||
			fail "$b: tiled re-saves $first: $(cat tiled.out)"
		cp tiled.tmx "$first/map.tmx" || fail "$b: Tiled's TMX copied in"
	fi
	gfs_umount m || fail "unmount $b"
	cmp "$f" "$b" || fail "$b: TMX written back unchanged changed the archive"
	rm -f "$b"
done
[ -n "$have_tiled" ] || { echo "SKIP: tiled absent (the rest passed)"; exit 77; }
exit 0
