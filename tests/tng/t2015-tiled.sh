#!/bin/sh
# Maps for Tiled: maps/<name>.tmx (orientation from the header's game type,
# tile size, one tile layer per map layer with gids from the CSV views,
# tilesets pointing at PNG views in the mount, properties from map.ini,
# patrol paths as polylines), maps/<name>.png and the tileset PNGs, all
# read-only; a 3D game has none.  With Tiled installed: every map loads
# (--export-map json) with the layer data of the CSV views.
. "$top_srcdir/tests/lib.sh"
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

gfs_mount g.tng m || fail "mount"
check_eq "-r--r--r-- -r--r--r-- -r--r--r-- -r--r--r-- -r--r--r--" \
	"$(ls -l m/maps/meadow.tmx m/maps/meadow.png m/maps/tilesets/tiles.png m/maps/tilesets/npcs.png \
	   m/maps/tilesets/spawners.png | cut -c1-10 | tr '\n' ' ' | sed 's/ $//')" "read-only views"
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
if command -v tiled >/dev/null 2>&1; then
	for map in meadow dungeon; do
		QT_QPA_PLATFORM=offscreen tiled --export-map json m/maps/$map.tmx $map.json >tiled.out 2>&1 ||
			fail "tiled cannot load $map.tmx: $(cat tiled.out)"
		python3 - m $map $map.json <<'PY' || fail "Tiled's $map against the CSV views"
import json, sys
mnt, name, js = sys.argv[1:]
d = json.load(open(js))
assert (d["width"], d["height"]) == (8, 8), d["width"]
first = {t["name"]: t["firstgid"] for t in d["tilesets"]}
assert set(first) == {"tiles", "npcs", "spawners"}, first
tl = [l for l in d["layers"] if l["type"] == "tilelayer"]
assert [l["name"] for l in tl] == ["layer%02d" % i for i in range(11)]
for i, l in enumerate(tl):
    base = first["npcs" if i == 5 else "spawners" if i == 6 else "tiles"]
    want = [int(v) for row in open("%s/maps/%s/layer%02d.csv" % (mnt, name, i)).read().splitlines()[1:]
            for v in row.split(",")]
    assert [g - base if g else -1 for g in l["data"]] == want, (name, i)
ob = [l for l in d["layers"] if l["type"] == "objectgroup"]
assert len(ob) == 1 and ob[0]["objects"][0]["polyline"], ob
PY
	done
else
	note "tiled absent: its loads are not checked"
fi
gfs_umount m || fail "umount"
cmp g.tng orig.tng || fail "reading the views changed the archive"

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
echo ok
