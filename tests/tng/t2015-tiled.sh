#!/bin/sh
# Maps for Tiled: maps/<name>.tmx (orientation from the header's game type,
# tile size, one tile layer per map layer with gids from the CSV views,
# tilesets pointing at PNG views in the mount, properties from map.ini,
# patrol paths as polylines), maps/<name>.png and the tileset PNGs; a 3D
# game has none.  The TMX is editable: written back unchanged nothing
# changes, hand edits (a tile, a property, a path point; CSV, <tile> elements, base64 with
# zlib or gzip; tilesets inline or by reference) change exactly those, and what the map cannot hold is
# EINVAL with the element's line.  With Tiled installed: every map loads
# (--export-map json) with the layer data of the CSV views, a TMX Tiled
# re-saves changes nothing, one tile changed in it changes that cell, and
# Tiled's own save into the mount (QSaveFile's temporary file renamed over
# the TMX) is taken, whatever the case of the temporary name's letters.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tng/edits.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
$P write g.tng --full || fail "write"
cp g.tng orig.tng

cat >head.golden <<'GOLD'
<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="8" height="8" tilewidth="288" tileheight="48" infinite="0" nextlayerid="13" nextobjectid="2">
 <properties>
  <property name="title" value="2"/>
  <property name="neighbour0" value="dungeon"/>
  <property name="neighbour1" value=""/>
  <property name="neighbour2" value=""/>
  <property name="neighbour3" value=""/>
  <property name="neighbour4" value=""/>
  <property name="neighbour5" value=""/>
  <property name="daylight" value="600"/>
  <property name="daylight_sprite" value="1:0"/>
  <property name="music" value="theme"/>
  <property name="parallax0.background" value="1"/>
  <property name="parallax0.speed_x" value="-10"/>
  <property name="parallax0.delta_x" value="10"/>
  <property name="parallax0.speed_y" value="5"/>
  <property name="parallax0.delta_y" value="0"/>
  <property name="parallax0.time" value="100"/>
  <property name="parallax0.sprite" value="0:0"/>
 </properties>
 <tileset firstgid="1" name="tiles" tilewidth="24" tileheight="20" tilecount="2" columns="2">
  <image source="tilesets/tiles.png" width="48" height="20"/>
 </tileset>
 <tileset firstgid="65537" name="npcs" tilewidth="24" tileheight="20" tilecount="1" columns="1">
  <image source="tilesets/npcs.png" width="24" height="20"/>
 </tileset>
 <tileset firstgid="131073" name="spawners" tilewidth="24" tileheight="20" tilecount="1" columns="1">
  <image source="tilesets/spawners.png" width="24" height="20"/>
 </tileset>
GOLD
cat >tail.golden <<'GOLD'
 </layer>
 <objectgroup id="12" name="paths">
  <object id="1" name="path" x="432" y="72">
   <properties>
    <property name="id" value="3"/>
   </properties>
   <polyline points="0,0 1440,240"/>
  </object>
 </objectgroup>
</map>
GOLD

# check_map MNT NAME ORIENTATION: the TMX against the CSV views, map.ini and the PNG views
check_map() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "$2.tmx against its views ($3)"
import struct, sys, xml.etree.ElementTree as ET
mnt, name, orient = sys.argv[1:]
root = ET.parse("%s/maps/%s.tmx" % (mnt, name)).getroot()
hdr = dict(l.split(" = ", 1) for l in open(mnt + "/header.ini").read().splitlines() if " = " in l)
tw, th, ms = int(hdr["tile_width"]), int(hdr["tile_height"]), 1 << int(hdr["map_size_log2"])
a = root.attrib
assert a["orientation"] == orient, a
assert (int(a["width"]), int(a["height"]), int(a["tilewidth"]), int(a["tileheight"])) == (ms, ms, tw, th), a
if orient == "hexagonal":
    assert a["staggeraxis"] == {"2": "x", "3": "y"}[hdr["type"]], a
def png_size(path):
    b = open(path, "rb").read(24)
    assert b[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", b[16:24])
first = {}
for ts in root.findall("tileset"):
    im = ts.find("image")
    w, h = png_size("%s/maps/%s" % (mnt, im.get("source")))
    assert (w, h) == (int(im.get("width")), int(im.get("height"))), (ts.get("name"), w, h)
    cols, tc = int(ts.get("columns")), int(ts.get("tilecount"))
    assert w == cols * int(ts.get("tilewidth")) and h == -(-tc // cols) * int(ts.get("tileheight"))
    first[ts.get("name")] = int(ts.get("firstgid"))
assert first == {"tiles": 1, "npcs": 65537, "spawners": 131073}, first
layers = root.findall("layer")
assert [l.get("name") for l in layers] == ["layer%02d" % i for i in range(int(hdr["layers"]))]
for i, l in enumerate(layers):
    base = first["npcs" if i == 5 else "spawners" if i == 6 else "tiles"]
    d = l.find("data")
    assert d.get("encoding") == "csv" and d.get("compression") is None
    gids = [int(v) for v in d.text.replace("\n", "").split(",")]
    want = [int(v) for row in open("%s/maps/%s/layer%02d.csv" % (mnt, name, i)).read().splitlines()[1:]
            for v in row.split(",")]
    assert [g - base if g else -1 for g in gids] == want, (name, i)
ini, sect = {}, None
for line in open("%s/maps/%s/map.ini" % (mnt, name)).read().splitlines():
    if line.startswith("["):
        sect = line[1:-1]
    elif " = " in line and not line.startswith(";"):
        k, v = line.split(" = ", 1)
        ini.setdefault(sect, {})[k] = v
props = {p.get("name"): p.get("value") for p in root.find("properties")}
want = dict(ini["map"])
for s, kv in ini.items():
    if s.startswith("parallax "):
        want.update({s.replace(" ", "") + "." + k: v for k, v in kv.items()})
assert props == want, (props, want)
objs = root.find("objectgroup").findall("object")
paths = [kv for s, kv in ini.items() if s.startswith("path ")]
assert len(objs) == len(paths)
ux = th if orient == "isometric" else tw
for o, p in zip(objs, paths):
    x0, y0 = int(o.get("x")), int(o.get("y"))
    pts = [(x0 + int(q.split(",")[0]), y0 + int(q.split(",")[1])) for q in o.find("polyline").get("points").split()]
    assert " ".join("%d,%d" % (x // ux, y // th) for x, y in pts) == p["points"], (pts, p)
    assert o.find("properties/property").get("value") == p["id"]
w, h = png_size("%s/maps/%s.png" % (mnt, name))
if orient == "orthogonal" or orient == "isometric":
    assert (w, h) == (ms * tw, ms * th), (w, h)
elif a["staggeraxis"] == "y":
    assert (w, h) == (ms * tw + tw // 2, (ms - 1) * ((th + th // 2) // 2) + th), (w, h)
else:
    assert (w, h) == ((ms - 1) * ((tw + tw // 2) // 2) + tw, ms * th + th // 2), (w, h)
PY
}

# tiled_loads MNT NAME: Tiled loads the TMX with the map's size and the CSV views' cells
tiled_loads() {
	QT_QPA_PLATFORM=offscreen tiled --export-map json "$1/maps/$2.tmx" "$2.json" >tiled.out 2>&1 ||
		fail "tiled cannot load $2.tmx: $(cat tiled.out)"
	python3 - "$1" "$2" "$2.json" <<'PY' || fail "Tiled's $2 against the CSV views"
import json, sys
mnt, name, js = sys.argv[1:]
hdr = dict(l.split(" = ", 1) for l in open(mnt + "/header.ini").read().splitlines() if " = " in l)
ms, layers = 1 << int(hdr["map_size_log2"]), int(hdr["layers"])
d = json.load(open(js))
assert (d["width"], d["height"]) == (ms, ms), d["width"]
first = {t["name"]: t["firstgid"] for t in d["tilesets"]}
assert set(first) == {"tiles", "npcs", "spawners"}, first
tl = [l for l in d["layers"] if l["type"] == "tilelayer"]
assert [l["name"] for l in tl] == ["layer%02d" % i for i in range(layers)]
for i, l in enumerate(tl):
    base = first["npcs" if i == 5 else "spawners" if i == 6 else "tiles"]
    want = [int(v) for row in open("%s/maps/%s/layer%02d.csv" % (mnt, name, i)).read().splitlines()[1:]
            for v in row.split(",")]
    assert [g - base if g else -1 for g in l["data"]] == want, (name, i)
assert len([l for l in d["layers"] if l["type"] == "objectgroup"]) == 1
PY
}

gfs_mount g.tng m || fail "mount"
check_eq "-rw-r--r-- -r--r--r-- -r--r--r-- -r--r--r-- -r--r--r--" \
	"$(stat -c %A m/maps/meadow.tmx m/maps/meadow.png m/maps/tilesets/tiles.png m/maps/tilesets/npcs.png \
	   m/maps/tilesets/spawners.png | tr '\n' ' ' | sed 's/ $//')" "the TMX is editable, the pictures read-only"
head -30 m/maps/meadow.tmx | diff -u head.golden - || fail "golden TMX head"
tail -10 m/maps/meadow.tmx | diff -u tail.golden - || fail "golden TMX tail"
for map in meadow dungeon; do check_map m $map orthogonal; done
# the map picture: drawn (not blank), the same on a second read
python3 - m/maps/meadow.png <<'PY' || fail "meadow.png is a picture of tiles"
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
i, idat = 8, b""
while i < len(b):
    n, = struct.unpack(">I", b[i:i + 4]); t = b[i + 4:i + 8]
    if t == b"IHDR": w, h, depth, ctype = struct.unpack(">IIBB", b[i + 8:i + 18])
    if t == b"IDAT": idat += b[i + 8:i + 8 + n]
    i += 12 + n
raw = zlib.decompress(idat)
assert len(raw) > w * h and any(raw), "blank"
PY
cmp m/maps/meadow.png m/maps/meadow.png || fail "second read"
# the pictures' sizes are known before they are drawn (stat draws nothing) and are what a read gives
for f in m/maps/dungeon.png m/maps/tilesets/npcs.png m/maps/tilesets/spawners.png; do
	check_eq "$(stat -c %s "$f")" "$(wc -c <"$f" | tr -d ' ')" "$f: stat size and read size"
done
if command -v tiled >/dev/null 2>&1; then
	for map in meadow dungeon; do tiled_loads m $map; done
else
	note "tiled absent: its loads are not checked"
fi
gfs_umount m || fail "umount"
cmp g.tng orig.tng || fail "reading the views changed the archive"

# ---- write-back -------------------------------------------------------------------
cp orig.tng f.tng
map_cells() { # GAME OUT: the meadow map's header, parallaxes, paths, cells and tail as python literals
	$P get "$1" maps/meadow >"$2.bin" || fail "get the map of $1"
}
gfs_mount f.tng m || fail "mount f"
cat m/maps/meadow.tmx >t.tmx
cat t.tmx >m/maps/meadow.tmx || fail "write the TMX back unchanged"
gfs_umount m || fail "umount f"
cmp f.tng orig.tng || fail "a TMX written back unchanged changed the archive"

# hand edits: a tile of layer 2 (0 -> 4), music to none, the path's second point 6,6 -> 6,7
python3 - t.tmx e.tmx <<'PY' || fail "edit the TMX"
import sys
s = open(sys.argv[1]).read()
i = s.index('name="layer02"'); j = s.index('<data encoding="csv">\n', i) + 22
k = s.index(",", j)
assert s[j:k] == "0", s[j:k]
s = s[:j] + "5" + s[k:]
s = s.replace('name="music" value="theme"', 'name="music" value=""')
s = s.replace('points="0,0 1440,240"', 'points="0,0 1440,288"')
open(sys.argv[2], "w").write(s)
PY
gfs_mount f.tng m || fail "mount f 2"
cp e.tmx m/maps/meadow.tmx || fail "copy the edited TMX in"
check_eq "4,2,-1,-1,2,-1,-1,2" "$(sed -n 2p m/maps/meadow/layer02.csv)" "the CSV view shows the new tile"
grep -qx "music = " m/maps/meadow/map.ini || fail "map.ini shows no music"
grep -qx "points = 1,1 6,7" m/maps/meadow/map.ini || fail "map.ini shows the moved point"
gfs_umount m || fail "umount f 2"
edited_only "maps/meadow"
map_cells orig.tng o
map_cells f.tng n
python3 - "$top_srcdir/tests/tng" <<'PY' || fail "exactly the edited bytes changed"
import struct, sys
sys.path.insert(0, sys.argv[1])
import tngpy
def parts(b):
    npar, npath = b[29], b[30]
    i = 34 + 10 * npar
    paths = []
    for _ in range(npath):
        n, = struct.unpack_from("<H", b, i + 1)
        paths.append((b[i], list(struct.unpack_from("<%dH" % (2 * n), b, i + 3))))
        i += 3 + 4 * n
    rl = int.from_bytes(b[31:34], "little")
    return b[:29], b[34:34 + 10 * npar], paths, tngpy.unrle(b[i:i + rl], 11 * 64), b[i + rl:]
oh, op, opaths, ocells, otail = parts(open("o.bin", "rb").read())
nh, np_, npaths, ncells, ntail = parts(open("n.bin", "rb").read())
assert nh == oh[:26] + bytes(3), (oh.hex(), nh.hex())
assert np_ == op and ntail == otail
assert opaths == [(3, [1, 1, 6, 6])] and npaths == [(3, [1, 1, 6, 7])], npaths
diff = [i for i in range(len(ocells)) if ocells[i] != ncells[i]]
assert diff == [2 * 64] and ncells[2 * 64] == 4, (diff, ncells[2 * 64])
PY

# base64 layer data, uncompressed, zlib and gzip: the same cells change nothing, layer00's
# first cell bumped changes it
b64() { # COMP BUMP: t.tmx with every layer's data as base64 (layer00's first cell + BUMP) into b.tmx
	python3 - t.tmx b.tmx "$1" "$2" <<'PY' || fail "base64 $1"
import base64, gzip, re, struct, sys, zlib
src, dst, comp, bump = sys.argv[1:]
s = open(src).read()
first = [True]
def enc(m):
    gids = [int(v) for v in m.group(1).replace("\n", "").split(",")]
    if first[0]:
        gids[0] += int(bump)    # layer00's first cell
        first[0] = False
    raw = struct.pack("<%dI" % len(gids), *gids)
    raw = {"none": raw, "zlib": zlib.compress(raw), "gzip": gzip.compress(raw)}[comp]
    attr = "" if comp == "none" else ' compression="%s"' % comp
    return '<data encoding="base64"%s>\n   %s\n  </data>' % (attr, base64.b64encode(raw).decode())
s = re.sub(r'<data encoding="csv">\n(.*?)\n</data>', enc, s, flags=re.S)
open(dst, "w").write(s)
PY
}
for comp in none zlib gzip; do
	cp orig.tng f.tng
	gfs_mount f.tng m || fail "mount $comp"
	b64 $comp 0
	cp b.tmx m/maps/meadow.tmx || fail "base64 $comp data written back"
	gfs_umount m || fail "umount $comp"
	cmp f.tng orig.tng || fail "base64 $comp data of the same cells changed the archive"
	gfs_mount f.tng m || fail "mount $comp 2"
	b64 $comp 1
	cp b.tmx m/maps/meadow.tmx || fail "base64 $comp data with a cell changed"
	check_eq "1,0,0,0,0,0,0,0" "$(sed -n 2p m/maps/meadow/layer00.csv)" "base64 $comp: the first cell"
	gfs_umount m || fail "umount $comp 2"
	edited_only "maps/meadow"
done

# a tileset by reference (an external .tsx, matched by its name) and layer data as <tile gid> elements
cp orig.tng f.tng
python3 - t.tmx r.tmx <<'PY' || fail "external tileset, XML data"
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r'<tileset firstgid="(\d+)" name="(\w+)"[^>]*>\n  <image[^>]*/>\n </tileset>',
           r'<tileset firstgid="\1" source="tilesets/\2.tsx"/>', s)
assert s.count(".tsx") == 3
def tiles(m):
    gids = m.group(1).replace("\n", "").split(",")
    return "<data>\n" + "".join('   <tile gid="%s"/>\n' % g for g in gids) + "  </data>"
s = re.sub(r'<data encoding="csv">\n(.*?)\n</data>', tiles, s, count=1, flags=re.S)
open(sys.argv[2], "w").write(s)
PY
gfs_mount f.tng m || fail "mount ref"
cp r.tmx m/maps/meadow.tmx || fail "external tilesets and <tile> data written back"
gfs_umount m || fail "umount ref"
cmp f.tng orig.tng || fail "external tilesets and <tile> data of the same cells changed the archive"

# what the map cannot hold: EINVAL, the archive unchanged, the log names it
cp orig.tng f.tng
gfs_mount f.tng m || fail "mount bad"
bad() { # WHAT SED-EXPRESSION LOG
	sed "$2" t.tmx >bad.tmx
	cmp -s bad.tmx t.tmx && fail "$1: the edit did nothing"
	bad_edit maps/meadow.tmx "open('bad.tmx','rb').read()" "$1" "$3"
}
bad "an unknown layer" 's/name="layer10"/name="layer11"/' "layer 'layer11' is not one of the map's"
bad "a map size change" '2s/width="8" height="8"/width="9" height="8"/' "line 2: the map is not 8x8"
bad "a layer size change" 's/name="layer03" width="8"/name="layer03" width="4"/' "layer 'layer03' is not 8x8"
bad "a tile of another tileset" '/name="layer00"/,/<\/layer>/s/^1,1,1,1,1,1,1,1,$/65537,1,1,1,1,1,1,1,/' \
	"gid 65537 is not a tile of tileset 'tiles'"
bad "a foreign tileset" 's/name="spawners"/name="monsters"/' "tileset 'monsters' is not one of the game's"
bad "an unknown property" 's/name="music"/name="weather"/' "unknown property 'weather'"
bad "a bad property value" 's/name="daylight" value="600"/name="daylight" value="lots"/' "daylight"
bad "a flipped tile" '/name="layer00"/,/<\/layer>/s/^1,1,1,1,1,1,1,1,$/2147483649,1,1,1,1,1,1,1,/' \
	"a flipped or rotated tile"
bad "too few cells (two rows cut)" '/name="layer01"/,/<\/layer>/s/^2,2,2,2,2,2,2,2,$/2,2,2,2,2,2,2,/' "62 gids, the map has 64 cells"
bad "another orientation" '2s/orthogonal/isometric/' "orientation 'isometric' is not the game's"
bad "an image layer" 's|<objectgroup id="12" name="paths">|<imagelayer id="20" name="sky"/>\n&|' \
	"<imagelayer> is nothing the map holds"
bad "a point outside the map" 's/points="0,0 1440,240"/points="0,0 1440,2400"/' "outside the map"
bad "broken XML" 's|</layer>|</layr>|' "</layr> closes <layer>"
bad "a DOCTYPE" '1a<!DOCTYPE map [<!ENTITY x SYSTEM "/etc/passwd">]>' "DOCTYPE"
bad "zstd data" 's|<data encoding="csv">|<data encoding="base64" compression="zstd">|' "compression 'zstd'"
gfs_umount m || fail "umount bad"
cmp f.tng orig.tng || fail "refused TMX edits changed the archive"

# Tiled itself: its re-save changes nothing, one tile changed in it changes that cell,
# and its save straight into the mount (a temporary file renamed over the TMX) works
if command -v tiled >/dev/null 2>&1; then
	cp orig.tng f.tng
	gfs_mount f.tng m || fail "mount tiled"
	QT_QPA_PLATFORM=offscreen tiled --export-map tmx m/maps/meadow.tmx tiled.tmx >tiled.out 2>&1 ||
		fail "tiled re-saves meadow: $(cat tiled.out)"
	want=$(sed -n 2p m/maps/meadow/layer04.csv | awk -F, -v OFS=, '{ $3 = 1; print }')
	cp tiled.tmx m/maps/meadow.tmx || fail "Tiled's TMX copied in"
	gfs_umount m || fail "umount tiled"
	cmp f.tng orig.tng || fail "Tiled's re-save of the TMX changed the archive"
	python3 - tiled.tmx tiled2.tmx <<'PY' || fail "edit Tiled's TMX"
import sys
s = open(sys.argv[1]).read()
i = s.index('name="layer04"'); j = s.index('<data encoding="csv">\n', i) + 22
k = s.index(",", j)
k = s.index(",", k + 1)     # the end of the second cell of the first row
open(sys.argv[2], "w").write(s[:k + 1] + "2" + s[s.index(",", k + 1):])   # the third cell: tile 1
PY
	gfs_mount f.tng m || fail "mount tiled 2"
	cp tiled2.tmx m/maps/meadow.tmx || fail "Tiled's TMX with a tile changed"
	check_eq "$want" "$(sed -n 2p m/maps/meadow/layer04.csv)" "Tiled's edit in the CSV view"
	gfs_umount m || fail "umount tiled 2"
	edited_only "maps/meadow"
	cp orig.tng f.tng
	gfs_mount f.tng m || fail "mount tiled 3"
	QT_QPA_PLATFORM=offscreen tiled --export-map tmx tiled2.tmx m/maps/meadow.tmx >tiled.out 2>&1 ||
		fail "tiled saves into the mount: $(cat tiled.out)"
	check_eq "$want" "$(sed -n 2p m/maps/meadow/layer04.csv)" "Tiled's save into the mount"
	gfs_umount m || fail "umount tiled 3"
	edited_only "maps/meadow"
fi
# QSaveFile's save as Tiled does it, whatever case its six random letters fall in
cp orig.tng f.tng
gfs_mount f.tng m || fail "mount qsavefile"
for tail in qwerty QWERTY qWeRty; do
	python3 - m/maps/meadow.tmx "$tail" <<'PY' || fail "a QSaveFile save through meadow.tmx.$tail"
import os, sys
path, tail = sys.argv[1:]
data = open(path, "rb").read()
with open(path + "." + tail, "wb") as f:
    f.write(data)
os.rename(path + "." + tail, path)
PY
done
[ "$(ls -a m/maps | grep -c 'meadow\.tmx\.')" = 0 ] || fail "QSaveFile's temporary file left: $(ls -a m/maps)"
gfs_umount m || fail "umount qsavefile"
cmp f.tng orig.tng || fail "a QSaveFile save of an unchanged TMX changed the archive"

# the other game types: isometric, hexagonal (both axes); 3D has no TMX
for t in 1:isometric 2:hexagonal 3:hexagonal 4:none; do
	gfs_mount g.tng m || fail "mount $t"
	sed -i "s/^type = .*/type = ${t%%:*}/" m/header.ini || fail "type ${t%%:*}"
	gfs_umount m || fail "umount $t"
	gfs_mount g.tng m || fail "remount $t"
	if [ "${t#*:}" = none ]; then
		[ ! -e m/maps/meadow.tmx ] && [ ! -e m/maps/meadow.png ] && [ ! -e m/maps/tilesets ] ||
			fail "a 3D game has no TMX"
	else
		check_map m meadow "${t#*:}"
		if command -v tiled >/dev/null 2>&1; then
			QT_QPA_PLATFORM=offscreen tiled --export-map json m/maps/meadow.tmx t.json >tiled.out 2>&1 ||
				fail "tiled cannot load the ${t#*:} map: $(cat tiled.out)"
			python3 -c "import json,sys; d=json.load(open('t.json')); assert d['orientation']=='${t#*:}', d['orientation']" ||
				fail "Tiled's orientation for type ${t%%:*}"
		fi
	fi
	gfs_umount m || fail "umount 2 $t"
done
"$GAMEFS" check g.tng >check.out 2>&1
grep -q "3D" check.out || fail "check says a 3D game's maps have no TMX: $(cat check.out)"
# the corpus games: every map's TMX against its views, loaded by Tiled, written back unchanged
C="$top_srcdir/../shared/corpus/tng"
for game in "$C"/*.tng; do
	[ -f "$game" ] || { note "corpus tng absent"; break; }
	cp "$game" c.tng && chmod u+w c.tng
	gfs_mount c.tng m || fail "mount $game"
	for tmx in m/maps/*.tmx; do
		map=$(basename "$tmx" .tmx)
		orient=$(sed -n 's/.*orientation="\([a-z]*\)".*/\1/p' "$tmx" | head -n 1)
		check_map m "$map" "$orient"
		if command -v tiled >/dev/null 2>&1; then tiled_loads m "$map"; fi
		cat "$tmx" >same.tmx && cp same.tmx "$tmx" || fail "write $game's $map.tmx back"
	done
	gfs_umount m || fail "umount $game"
	cmp c.tng "$game" || fail "$game: its TMX written back unchanged changed it"
done

echo ok
