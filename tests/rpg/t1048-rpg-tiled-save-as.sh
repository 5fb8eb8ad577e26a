#!/bin/sh
# A map.tmx of another size written into a map (cp, Tiled's "Save As"):
# the map takes that width and height as Custom's resize does (every .T
# layer, .P, .E cut or padded with 0 at the right and bottom, the .Z zone
# map's w and h), a tiles-N layer after the last is a new layer, and a
# layer drawing from another of the game's tilesets takes it (MAP).  Below
# 16x10, above 32767 a side or 1048576 tiles: EINVAL naming the limits; an
# NPC or door off the new size, a zone tile it would cut: EINVAL; the
# archive unchanged.  With the real Tiled: a new map (mkdir) takes another
# map by Tiled's export into it, read back by tests/rpgtool.py.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
command -v tiled >/dev/null 2>&1 && have_tiled=1 || have_tiled=
export top_srcdir

cat >tmx.py <<'PY'
import os, re, struct, sys
sys.path.insert(0, os.environ["top_srcdir"] + "/tests")
import rpgtool as t


def resize(src, dst, w, h, cells, noobj):
    """src as a w x h map: each layer cut or padded with 0; cells: (layer, x, y, gid)"""
    s = open(src).read()
    s = re.sub(r'(<map [^>]*?)width="\d+" height="\d+"', r'\1width="%d" height="%d"' % (w, h), s, 1)

    def layer(m):
        name = m.group("name")
        rows = [[int(v) for v in l.rstrip(",").split(",")] for l in m.group("data").strip().splitlines()]
        rows = [(r + [0] * w)[:w] for r in rows[:h]] + [[0] * w for _ in range(h - min(h, len(rows)))]
        for (ln, x, y, g) in cells:
            if ln == name:
                rows[y][x] = g
        body = ",\n".join(",".join(map(str, r)) for r in rows)
        return '<layer id="%s" name="%s" width="%d" height="%d"%s>\n  <data encoding="csv">\n%s\n</data>' % (
            m.group("id"), name, w, h, m.group("rest"), body)
    s = re.sub(r'<layer id="(?P<id>\d+)" name="(?P<name>[^"]+)" width="\d+" height="\d+"(?P<rest>[^>]*)>\s*'
               r'<data encoding="csv">(?P<data>.*?)</data>', layer, s, flags=re.S)
    if noobj:
        s = re.sub(r'\s*<objectgroup .*?</objectgroup>', '', s, flags=re.S)
    open(dst, "w").write(s)


def grid(path, lump):
    """w h then each layer's bytes as hex"""
    b = dict(t.read_lumps(path))[lump]
    w, h = struct.unpack("<hh", b[7:11])
    n = (len(b) - 11) // (w * h)
    return "%d %d %d %s" % (w, h, n, b[11:].hex())


cmd = sys.argv[1]
if cmd == "resize":
    cells = [(c.split(":")[0],) + tuple(map(int, c.split(":")[1:])) for c in sys.argv[6:] if ":" in c]
    resize(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), cells, "noobj" in sys.argv[6:])
elif cmd == "grid":
    print(grid(sys.argv[2], sys.argv[3]))
elif cmd == "grown":
    # lump of new (w x h) is lump of old cut/padded, plus the cells x:y:byte:layer set
    w, h = int(sys.argv[5]), int(sys.argv[6])
    a, b = dict(t.read_lumps(sys.argv[2]))[sys.argv[4]], dict(t.read_lumps(sys.argv[3]))[sys.argv[4]]
    ow, oh = struct.unpack("<hh", a[7:11])
    n = (len(a) - 11) // (ow * oh)
    want = bytearray(a[:7] + struct.pack("<hh", w, h) + bytes(n * w * h))
    for k in range(n):
        for y in range(min(h, oh)):
            for x in range(min(w, ow)):
                want[11 + (k * h + y) * w + x] = a[11 + (k * oh + y) * ow + x]
    for c in sys.argv[7:]:
        x, y, v, k = map(int, c.split(":"))
        want[11 + (k * h + y) * w + x] = v
    assert bytes(want) == b, (sys.argv[4], len(want), len(b))
PY

$RPG mkgame g.rpg new 3 || fail "mkgame"
cp g.rpg orig.rpg

# ---- map 0 (.T 20x12 of two layers, .P/.E 20x10, a zone map) grown to 24x12 by cp ----
gfs_mount g.rpg m || fail "mount"
cp m/maps/00-town/map.tmx t0.tmx
# a wall at 23,11 (walls' first gid + 5) and a tile at 22,0 (tileset 00's 7th)
wg=$(sed -n 's/.*<tileset firstgid="\([0-9]*\)" name="walls".*/\1/p' t0.tmx)
tg=$(sed -n 's/.*<tileset firstgid="\([0-9]*\)" name="00".*/\1/p' t0.tmx)
[ -n "$wg" ] && [ -n "$tg" ] || fail "map 0's tilesets: $(grep '<tileset' t0.tmx)"
python3 tmx.py resize t0.tmx big.tmx 24 12 walls:23:11:$((wg + 5)) tiles-0:22:0:$((tg + 6)) || fail "big.tmx"
cp big.tmx m/maps/00-town/map.tmx || fail "a 24x12 map.tmx into map 0: $(tail -n 1 m/.gamefs.log)"
grep -q '<map [^>]* width="24" height="12"' m/maps/00-town/map.tmx || fail "map.tmx is not 24x12 now"
check_eq 24 "$(head -n 1 m/maps/00-town/tiles-0.csv | tr ',' '\n' | wc -l)" "tiles-0.csv's columns"
check_eq 13 "$(wc -l <m/maps/00-town/walls.csv)" "walls.csv's rows (a header, 12)"
sed -n '/<layer/,$p' m/maps/00-town/map.tmx >shown.txt
gfs_umount m || fail "umount"
python3 tmx.py grown orig.rpg g.rpg GAMEFS.T00 24 12 22:0:6:0 || fail "GAMEFS.T00 is not map 0 grown to 24x12"
python3 tmx.py grown orig.rpg g.rpg GAMEFS.P00 24 12 23:11:5:0 || fail "GAMEFS.P00 is not grown to 24x12"
python3 tmx.py grown orig.rpg g.rpg GAMEFS.E00 24 12 || fail "GAMEFS.E00 is not grown to 24x12"
$RPG reld-dump g.rpg GAMEFS.Z00 >z.txt || fail "Z00"
grep -q '^1 w 1 24$' z.txt && grep -q '^1 h 1 12$' z.txt || fail "the zone map's w and h: $(head -n 4 z.txt)"
"$GAMEFS" check g.rpg >check.out 2>&1 || fail "check after the resize: $(cat check.out)"
gfs_mount g.rpg m || fail "mount 2"
sed -n '/<layer/,$p' m/maps/00-town/map.tmx | cmp -s - shown.txt || fail "a fresh mount shows another map.tmx"
cp g.rpg grown.rpg

# ---- refusals: EINVAL with the reason, the archive unchanged ----
bad() { # WHAT FILE LOG
	check_eq EINVAL "$(errno_of "f=open('m/maps/00-town/map.tmx','wb'); f.write(open('$2','rb').read()); f.close()")" "$1"
	grep -q "$3" m/.gamefs.log || fail "$1: the log does not say '$3': $(tail -n 2 m/.gamefs.log)"
}
cp m/maps/00-town/map.tmx t3.tmx
python3 tmx.py resize t3.tmx small.tmx 15 10 || fail "small.tmx"
bad "a 15x10 map" small.tmx "a 15x10 map is past OHRRPGCE's limits: at least 16x10"
python3 tmx.py resize t3.tmx low.tmx 20 9 || fail "low.tmx"
bad "a 20x9 map" low.tmx "at least 16x10"
sed 's/<map \(.*\) width="24" height="12"/<map \1 width="2000" height="1000"/' t3.tmx >huge.tmx
bad "a 2000x1000 map" huge.tmx "at most 32767 wide or high and 1048576 tiles"
sed 's/<map \(.*\) width="24" height="12"/<map \1 width="40000" height="16"/' t3.tmx >wide.tmx
bad "a 40000x16 map" wide.tmx "at most 32767 wide"
sed 's/tilewidth="20" tileheight="20" infinite="0"/tilewidth="20" tileheight="20" infinite="1"/' big.tmx >inf.tmx
bad "an infinite map" inf.tmx "the map is not finite with 20x20 tiles"
# NPC slot 1 (3,4) moved to 21,4 in npcs.csv, then a 20x12 map.tmx without the objects, and one with them
sed 's/^1,3,4,/1,21,4,/' m/maps/00-town/npcs.csv >npcs.csv
cp npcs.csv m/maps/00-town/npcs.csv || fail "NPC slot 1 to 21,4"
python3 tmx.py resize m/maps/00-town/map.tmx cut.tmx 20 12 noobj || fail "cut.tmx"
bad "an NPC off the new size" cut.tmx "NPC slot 1 at 21,4 would be off the 20x12 map"
python3 tmx.py resize m/maps/00-town/map.tmx cut0.tmx 20 12 || fail "cut0.tmx"
bad "an NPC object off the new size" cut0.tmx "NPC slot 1 at 21,4 would be off the 20x12 map"
sed 's/^1,21,4,/1,3,4,/' npcs.csv >npcs2.csv
cp npcs2.csv m/maps/00-town/npcs.csv || fail "NPC slot 1 back"
# a door at 22,11
sed 's/^1,3,0,1$/1,22,11,1/' m/maps/00-town/doors.csv >doors.csv
grep -q '^1,22,11,1$' doors.csv || fail "doors.csv: $(head -n 3 doors.csv)"
cp doors.csv m/maps/00-town/doors.csv || fail "door 1 to 22,11"
python3 tmx.py resize m/maps/00-town/map.tmx cut3.tmx 20 10 noobj || fail "cut3.tmx"
bad "a door off the new size" cut3.tmx "door 1 at 22,11 would be off the 20x10 map"
sed 's/^1,22,11,1$/1,3,0,1/' doors.csv >doors2.csv
cp doors2.csv m/maps/00-town/doors.csv || fail "door 1 back"
# a zone tile at 22,11 (zones.txt: a row y = 11, 22 tiles out, 2 in)
cp m/maps/00-town/zones.txt zones0.txt
python3 - m/maps/00-town/zones.txt zones.txt <<'PY' || fail "zones.txt"
import sys
s = open(sys.argv[1]).read()
i = s.index("end\n")
open(sys.argv[2], "w").write(s[:i] + '    y = 11\n      span = "\\x16\\x02"\n' + s[i:])
PY
cp zones.txt m/maps/00-town/zones.txt || fail "a zone row 11: $(tail -n 1 m/.gamefs.log)"
python3 tmx.py resize m/maps/00-town/map.tmx cut4.tmx 20 12 || fail "cut4.tmx"
bad "a zone tile off the new size" cut4.tmx "a 20x12 map would cut zone tile 22,11 of the zone map"
python3 tmx.py resize m/maps/00-town/map.tmx cut5.tmx 24 10 || fail "cut5.tmx"
bad "a zone row off the new size" cut5.tmx "a 24x10 map would cut zone tile 22,11"
cp zones0.txt m/maps/00-town/zones.txt || fail "the zone row removed"
sed -n '/<layer/,$p' m/maps/00-town/map.tmx | cmp -s - shown.txt || fail "the refusals changed map.tmx"
gfs_umount m || fail "umount bad"
cmp g.rpg grown.rpg || fail "the refused resizes (and the edits undone) changed the archive"
# and shrunk to 16x10 (the NPCs, doors and zones are on it): every grid cut
gfs_mount g.rpg m || fail "mount shrink"
python3 tmx.py resize m/maps/00-town/map.tmx shrunk.tmx 16 10 || fail "shrunk.tmx"
cp shrunk.tmx m/maps/00-town/map.tmx || fail "a 16x10 map.tmx into map 0: $(tail -n 1 m/.gamefs.log)"
gfs_umount m || fail "umount shrink"
for l in T00 P00 E00; do
	python3 tmx.py grown grown.rpg g.rpg GAMEFS.$l 16 10 || fail "GAMEFS.$l is not map 0 cut to 16x10"
done
$RPG reld-dump g.rpg GAMEFS.Z00 >z.txt || fail "Z00 shrunk"
grep -q '^1 w 1 16$' z.txt && grep -q '^1 h 1 10$' z.txt || fail "the zone map's w and h: $(head -n 4 z.txt)"
"$GAMEFS" check g.rpg >check.out 2>&1 || fail "check after the shrink: $(cat check.out)"

# ---- a new map (mkdir) taking map 0 (20x12, two layers of tilesets 00 and 01) by cp ----
cp orig.rpg g.rpg
gfs_mount g.rpg m || fail "mount new"
cp m/tilesets/00.png m/tilesets/01.png || fail "a tileset page 01"
gfs_umount m || fail "umount new"
cp g.rpg paged.rpg
saveas() { # TOOL MAP: map 0 saved into a new map by TOOL (cp or tiled)
	gfs_mount g.rpg m || fail "mount $1"
	mkdir "m/maps/$2" || fail "mkdir maps/$2"
	for f in npc-types.csv npcs.csv doors.csv; do
		cp m/maps/00-town/$f m/maps/$2/$f || fail "$f copied into maps/$2: $(tail -n 1 m/.gamefs.log)"
	done
	if [ "$1" = tiled ]; then
		QT_QPA_PLATFORM=offscreen tiled --export-map tmx m/maps/00-town/map.tmx t0.tmx >tiled.out 2>&1 ||
			fail "tiled exports map 0: $(cat tiled.out)"
		QT_QPA_PLATFORM=offscreen tiled --export-map tmx t0.tmx "m/maps/$2/map.tmx" >tiled.out 2>&1 ||
			fail "tiled exports map 0 into maps/$2: $(cat tiled.out) $(tail -n 1 m/.gamefs.log)"
	else
		cp m/maps/00-town/map.tmx "m/maps/$2/map.tmx" || fail "map 0's map.tmx into maps/$2: $(tail -n 1 m/.gamefs.log)"
	fi
	cmp -s m/maps/00-town/map.tmx "m/maps/$2/map.tmx" || fail "$1: maps/$2/map.tmx is not map 0's"
	gfs_umount m || fail "umount $1"
	"$GAMEFS" check g.rpg >check.out 2>&1 || fail "check after $1: $(cat check.out)"
	python3 - "$top_srcdir/tests" g.rpg <<'PY' || fail "$1: map 3 read back by rpgtool is not map 0"
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
L = dict(t.read_lumps(sys.argv[2]))
t0, t3 = L["GAMEFS.T00"], L["GAMEFS.T03"]
assert t3[7:] == t0[7:], "T03 is not T00"
for x in "PE":
    a, b = L["GAMEFS.%s00" % x], L["GAMEFS.%s03" % x]
    assert struct.unpack("<hh", b[7:11]) == (20, 12), x
    w, h = struct.unpack("<hh", a[7:11])
    for y in range(12):
        row = b[11 + y * 20:11 + y * 20 + 20]
        assert row == (a[11 + y * w:11 + y * w + 20] if y < h else bytes(20)), (x, y)
m = L["GAMEFS.MAP"]
rs = len(m) // 4
f = lambda rec, i: struct.unpack("<h", m[rec * rs + 2 * i:rec * rs + 2 * i + 2])[0]
assert f(3, 23) == 2, "map 3's layer 1 does not draw from tileset 01"
PY
	gfs_mount g.rpg m || fail "mount $1 fresh"
	cmp -s m/maps/00-town/map.tmx "m/maps/$2/map.tmx" || fail "$1: a fresh mount shows another maps/$2/map.tmx"
	check_eq 2 "$(ls m/maps/$2/tiles-*.csv | wc -l)" "$1: the new map's layers"
	gfs_umount m || fail "umount $1 fresh"
}
saveas cp 03-forest
if [ -z "$have_tiled" ]; then
	echo "SKIP: tiled absent (the rest ran)"
	exit 77
fi
cp paged.rpg g.rpg
saveas tiled 03-lake
exit 0
