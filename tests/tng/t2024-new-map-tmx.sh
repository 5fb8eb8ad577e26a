#!/bin/sh
# A new map from a TMX: a TMX copied into maps/ as NAME.tmx, or saved there
# by Tiled ("Save As": QSaveFile's temporary file renamed over NAME.tmx), is
# a new map named NAME with the TMX's layers and properties (tilesets the
# game's, as the maps' own TMX have them); its folder, CSVs and PNG appear.
# With Tiled installed the TMX is Tiled's own export.  The independent
# reader finds the new maps with the bytes of the map the TMX came from,
# the header unchanged, the CRCs right; check is clean, a fresh mount the
# same.  rm -r maps/NAME removes a map nothing leads to; a map a script or
# another map's neighbour leads to is EBUSY with the referrer in the log.
# Refusals (a bad name, a TMX the map cannot hold) leave the archive
# byte-identical and leave no name behind.  And the README's demo game
# grows a map from Tiled, a tile, an NPC with a dialog and a script; the
# corpus games (when there) grown and shrunk back in one commit are
# byte-identical.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

$P write g.tng --full || fail "write"
cp g.tng orig.tng
gfs_mount g.tng m || fail "mount"
if command -v tiled >/dev/null 2>&1; then
	QT_QPA_PLATFORM=offscreen tiled --export-map tmx m/maps/meadow.tmx forest.tmx >tiled.out 2>&1 ||
		fail "Tiled exports meadow: $(cat tiled.out)"
	grep -q 'tiledversion=' forest.tmx || fail "Tiled's own TMX"
else
	note "tiled absent: the mount's own TMX stands in for Tiled's"
	cp m/maps/meadow.tmx forest.tmx || fail "copy meadow.tmx out"
fi
grep -q '<data encoding="csv">' forest.tmx || fail "tile layers as CSV"
cp forest.tmx m/maps/ || fail "cp a TMX into maps/"
[ -d m/maps/forest ] && [ -f m/maps/forest.png ] || fail "the new map's folder and PNG"
for f in map.ini layer00.csv layer05.csv layer10.csv; do
	cmp m/maps/meadow/$f m/maps/forest/$f || fail "forest's $f"
done
cmp m/maps/meadow.png m/maps/forest.png || fail "forest drawn as meadow"
if command -v tiled >/dev/null 2>&1; then
	QT_QPA_PLATFORM=offscreen tiled --export-map tmx forest.tmx m/maps/lake.tmx >tiled.out 2>&1 ||
		fail "Tiled saves a new map into the mount: $(cat tiled.out)"
else
	cp forest.tmx m/maps/.lake.tmx.tmp && mv m/maps/.lake.tmx.tmp m/maps/lake.tmx || fail "a TMX renamed into place"
fi
cmp m/maps/meadow/layer03.csv m/maps/lake/layer03.csv || fail "lake's layers"
# a TMX with one tile changed (the first cell of layer 0 to tile 1)
python3 - forest.tmx glade.tmx <<'PY' || fail "edit the TMX"
import re, sys
s = open(sys.argv[1]).read()
i = s.index('<layer')
j = s.index('<data encoding="csv">', i) + len('<data encoding="csv">')
m = re.compile(r'\s*(\d+)').match(s, j)
open(sys.argv[2], "w").write(s[:m.start(1)] + "2" + s[m.end(1):])
PY
cp glade.tmx m/maps/glade.tmx || fail "a TMX with a tile changed"
check_eq "1" "$(sed -n 2p m/maps/glade/layer00.csv | cut -d, -f1)" "glade's changed cell"
[ -f m/maps/glade/map.ini ] || fail "glade's map.ini"

# refused: the archive stays byte-identical
cp g.tng snap.tng
check_eq EINVAL "$(errno_of "open('m/maps/a.b.tmx','w').close()")" "a map name with a dot"
check_eq EINVAL "$(errno_of "open('m/maps/tilesets.tmx','w').close()")" "a map named tilesets"
sed 's/width="8"/width="9"/' forest.tmx >wide.tmx
check_eq EINVAL "$(errno_of "f=open('m/maps/wide.tmx','w'); f.write(open('wide.tmx').read()); f.close()")" "a TMX of another size"
grep -q "maps/wide.tmx refused: wide.tmx: line [0-9]*: the map is not 8x8" gamefs.log || fail "why, in the log"
[ -e m/maps/wide ] && fail "a folder for the refused map"
rm m/maps/wide.tmx m/maps/wide.tmx.rejected || fail "remove the refused TMX"
sed 's/name="tiles"/name="stones"/; s/tilesets\/tiles.png/elsewhere\/stones.png/' forest.tmx >stones.tmx
check_eq EINVAL "$(errno_of "f=open('m/maps/stones.tmx','w'); f.write(open('stones.tmx').read()); f.close()")" \
	"a tileset not the game's"
rm -f m/maps/stones.tmx m/maps/stones.tmx.rejected
# Tiled's TMX cut short anywhere: refused, the map that was being made undone
size=$(stat -c %s forest.tmx)
for n in 1 $((size / 7)) $((size / 3)) $((size / 2)) $((size * 4 / 5)) $((size - 12)); do
	head -c "$n" forest.tmx >cut.tmx
	check_eq EINVAL "$(errno_of "f=open('m/maps/cut$n.tmx','w'); f.write(open('cut.tmx').read()); f.close()")" \
		"a TMX cut at byte $n"
	rm -f "m/maps/cut$n.tmx" "m/maps/cut$n.tmx.rejected"
done
check_eq EBUSY "$(errno_of "import shutil; shutil.rmtree('m/maps/dungeon')")" "a map another map leads to"
grep -q "unlink /maps/dungeon/map.ini refused: maps/dungeon: maps/meadow/map.ini (a neighbour) leads to it" gamefs.log ||
	fail "the neighbour named"
check_eq EBUSY "$(errno_of "os.rmdir('m/maps/meadow')")" "a map a script leads to"
grep -q "rmdir /maps/meadow refused: maps/meadow: startup/0000.tngs (byte [0-9]*) leads to it" gamefs.log ||
	fail "the script named"
check_eq EPERM "$(errno_of "os.unlink('m/maps/meadow.tmx')")" "a map's TMX alone"
check_eq EPERM "$(errno_of "os.rmdir('m/maps/tilesets')")" "the tilesets"
cmp snap.tng g.tng || fail "refused changes changed the game"
ls m/maps/dungeon | grep -q map.ini || fail "a refused rm -r took files"
gfs_umount m || fail "umount"

# the independent reader: three new maps, meadow's bytes (glade one cell apart)
$P verify g.tng >verify.out || fail "CRCs: $(cat verify.out)"
grep -qx "maps-last ok" verify.out || fail "new maps stored last"
python3 - "$top_srcdir/tests/tng" g.tng orig.tng <<'PY' || fail "the reader's maps"
import sys
sys.path.insert(0, sys.argv[1])
import tngpy
r, o = (tngpy.Reader(open(p, "rb").read()) for p in sys.argv[2:4])
new, old = dict(r.items()), dict(o.items())
assert sorted(k for k in new if k.startswith("maps/")) == \
    ["maps/dungeon", "maps/forest", "maps/glade", "maps/lake", "maps/meadow"], new.keys()
assert new["maps/forest"] == old["maps/meadow"] and new["maps/lake"] == old["maps/meadow"]
g, m = new["maps/glade"], old["maps/meadow"]
assert g[:31] == m[:31] and g != m, "glade: meadow's header, other cells"
strings = r.secs[0][1].split(b"\0")
for n in (b"forest", b"lake", b"glade"):
    assert n in strings, n
for n in (b"wide", b"stones", b"a.b"):
    assert n not in strings, "a refused map's name stayed: %r" % n
assert not [n for n in strings if n.startswith(b"cut")], "a cut TMX's name stayed"
assert r.d[:56] == o.d[:56], "the header (counts, byte 43) as it was"
PY
"$GAMEFS" check g.tng >check.out || fail "check: $(cat check.out)"
grep -q warning check.out && fail "warnings: $(cat check.out)"

# a fresh mount: the same; then the new maps removed with rm -r
gfs_mount g.tng m || fail "remount"
for map in forest lake; do
	cmp m/maps/meadow/layer07.csv m/maps/$map/layer07.csv || fail "$map after a fresh mount"
	cmp m/maps/meadow/map.ini m/maps/$map/map.ini || fail "$map's map.ini after a fresh mount"
done
check_eq "1" "$(sed -n 2p m/maps/glade/layer00.csv | cut -d, -f1)" "glade after a fresh mount"
rm -r m/maps/forest m/maps/lake m/maps/glade || fail "rm -r the new maps"
check_eq "dungeon dungeon.png dungeon.tmx meadow meadow.png meadow.tmx tilesets" \
	"$(ls m/maps | tr '\n' ' ' | sed 's/ $//')" "maps after rm -r"
mkdir m/maps/cave && rmdir m/maps/cave || fail "mkdir and rmdir of a map"
gfs_umount m || fail "umount 2"
$P verify g.tng >/dev/null || fail "CRCs 2"
$P dump g.tng | grep '^maps/' | cut -d' ' -f1 | tr '\n' ' ' >got
check_eq "maps/meadow maps/dungeon " "$(cat got)" "the maps left"
"$GAMEFS" check g.tng >check.out || fail "check 2: $(cat check.out)"
grep -q warning check.out && fail "warnings 2: $(cat check.out)"
gfs_mount g.tng m || fail "remount 2"
check_eq "dungeon dungeon.png dungeon.tmx meadow meadow.png meadow.tmx tilesets" \
	"$(ls m/maps | tr '\n' ' ' | sed 's/ $//')" "maps after a fresh mount"
gfs_umount m || fail "umount 3"
# the README's demo game grown as a modder would: a map from Tiled, a tile
# sprite, an NPC with a dialog and a script, the NPC placed on the new map
python3 "$top_srcdir/tests/tng/village.py" demo.tng --no-audio >/dev/null 2>&1 || fail "the demo game"
gfs_mount demo.tng d || fail "mount the demo"
if command -v tiled >/dev/null 2>&1; then
	QT_QPA_PLATFORM=offscreen tiled --export-map tmx d/maps/village.tmx forest.tmx >tiled.out 2>&1 ||
		fail "Tiled exports the village: $(cat tiled.out)"
else
	cp d/maps/village.tmx forest.tmx || fail "copy village.tmx out"
fi
cp forest.tmx d/maps/forest.tmx || fail "the demo: a new map"
cp d/sprites/tiles/0011.txt d/sprites/tiles/0012.txt || fail "the demo: a new tile sprite"
cp d/npcs/elder.ini d/npcs/villager.ini && cp d/dialogs/welcome.ini d/dialogs/chat.ini ||
	fail "the demo: a new NPC and dialog"
printf '\tPUSHDLG chat\n\tPUSH16 0\n\tFNC2 dialog\n\tEND\n; end\n' >d/npcs/villager.on_click.tngs ||
	fail "the demo: the NPC's script opens the dialog"
python3 - d/maps/forest/layer05.csv <<'PY' || fail "the demo: the villager placed on the new map"
import sys
rows = open(sys.argv[1]).read().splitlines()
cells = rows[2].split(",")
cells[3] = "2"
rows[2] = ",".join(cells)
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
cp d/maps/forest/layer05.csv demo-layer05.csv
gfs_umount d || fail "umount the demo"
$P verify demo.tng >verify.out || fail "the demo's CRCs: $(cat verify.out)"
"$GAMEFS" check demo.tng >check.out || fail "check the demo: $(cat check.out)"
grep -q warning check.out && fail "the demo's warnings: $(cat check.out)"
gfs_mount demo.tng d || fail "a fresh mount of the demo"
for f in maps/forest/map.ini maps/forest.png sprites/tiles/0012-south.png npcs/villager.ini dialogs/chat.ini; do
	[ -f "d/$f" ] || fail "the demo after a fresh mount: $f"
done
cmp demo-layer05.csv d/maps/forest/layer05.csv || fail "the villager on the new map after a fresh mount"
grep -q "PUSHDLG chat" d/npcs/villager.on_click.tngs || fail "the villager's script after a fresh mount"
check_eq EBUSY "$(errno_of "os.unlink('d/npcs/villager.ini')")" "an NPC the new map places"
gfs_umount d || fail "umount the demo 2"
# the corpus games grown and shrunk back in one commit: byte-identical
for g in demo1 demo2; do
	c="$top_srcdir/../shared/corpus/tng/$g.tng"
	[ -f "$c" ] || { note "corpus $g.tng absent"; continue; }
	cp "$c" c.tng && chmod u+w c.tng || fail "copy $g"
	gfs_mount c.tng c -o commit=unmount || fail "mount $g"
	tmx=$(ls c/maps | grep '\.tmx$' | head -n 1)
	[ -n "$tmx" ] || fail "$g has no map"
	if command -v tiled >/dev/null 2>&1; then
		QT_QPA_PLATFORM=offscreen tiled --export-map tmx "c/maps/$tmx" ctiled.tmx >tiled.out 2>&1 ||
			fail "Tiled exports $g's $tmx: $(cat tiled.out)"
	else
		cp "c/maps/$tmx" ctiled.tmx || fail "copy $g's $tmx"
	fi
	cp ctiled.tmx c/maps/grown.tmx && mkdir c/maps/hollow || fail "$g: new maps"
	[ -f c/maps/grown/map.ini ] || fail "$g: the map from the TMX"
	n=$(ls c/atlases | grep -c '\.png$')
	cp c/atlases/0000.png "c/atlases/$(printf %04d "$n").png" || fail "$g: a new atlas"
	rm -r c/maps/grown c/maps/hollow || fail "$g: rm -r the new maps"
	rm "c/atlases/$(printf %04d "$n").png" || fail "$g: rm the new atlas"
	gfs_umount c || fail "umount $g"
	cmp "$c" c.tng || fail "$g grown and shrunk back is not byte-identical"
done
echo ok
