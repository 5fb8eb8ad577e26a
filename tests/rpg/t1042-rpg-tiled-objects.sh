#!/bin/sh
# map.tmx holds the map's NPC instances (.L, the used slots: object id
# 1 + slot) and doors (DOX, the existing doors: object id 301 + door) as
# object groups "npcs" and "doors" of 20x20 rectangles on their tiles.
# Moving an object moves that NPC or door (npcs.csv / doors.csv show it,
# only its x and y words change); Tiled's own re-save changes nothing, and
# an NPC moved in a TMX that Tiled saves into the mount lands in .L.  An
# object removed, added (unknown id), twice or off the map, and a group of
# another name, are EINVAL with the archive unchanged.  Corpus: every
# map's objects against its npcs.csv and doors.csv.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
command -v tiled >/dev/null 2>&1 && have_tiled=1 || have_tiled=
export top_srcdir

$RPG mkgame g.rpg new 3 || fail "mkgame"
# map 0's layers drawn from tileset 0, the one the game has (Tiled drops a tileset without its image)
python3 - "$top_srcdir/tests" g.rpg <<'PY' || fail "map 0's tilesets"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
t.rewrite(sys.argv[2], lambda name, body: body[:44] + bytes(6) + body[50:] if name == 'GAMEFS.MAP' else body)
PY
cp g.rpg orig.rpg

cat >obj.py <<'PY'
import os, re, sys
sys.path.insert(0, os.environ["top_srcdir"] + "/tests")


def objects(tmx):
    """{group: {id: (name, x, y)}}"""
    s = open(tmx).read()
    out = {}
    for g in re.finditer(r'<objectgroup [^>]*name="(\w+)"[^>]*?(/>|>(.*?)</objectgroup>)', s, re.S):
        # a tile object (an NPC drawn with its walkabout) has its y at its bottom
        out[g.group(1)] = {int(o.group(1)): (o.group(2), float(o.group(4)), float(o.group(5)) - (20 if o.group(3) else 0))
                           for o in re.finditer(r'<object id="(\d+)" name="([^"]*)" (gid="\d+" )?x="([-\d.]+)" y="([-\d.]+)"',
                                                g.group(3) or "")}
    return out


def rows(path):
    ls = open(path).read().splitlines()
    return [dict(zip(ls[0].split(","), map(int, l.split(",")))) for l in ls[1:]]


def check(d):
    o = objects(d + "/map.tmx")
    n = 0
    if os.path.exists(d + "/npcs.csv"):
        want = {1 + r["slot"]: (r["x"] * 20.0, r["y"] * 20.0) for r in rows(d + "/npcs.csv")}
        assert {k: v[1:] for k, v in o["npcs"].items()} == want, (d, o["npcs"], want)
        n += len(want)
    if os.path.exists(d + "/doors.csv"):
        want = {301 + r["door"]: (r["x"] * 20.0, r["y"] * 20.0) for r in rows(d + "/doors.csv") if r["exists"] & 1}
        assert {k: v[1:] for k, v in o["doors"].items()} == want, (d, o["doors"], want)
        n += len(want)
    return n


def move(src, dst, oid, x, y):
    s = open(src).read()
    s2 = re.sub(r'(<object id="%d" name="[^"]*" (?:gid="\d+" )?)x="[-\d.]+" y="[-\d.]+"' % oid, r'\1x="%s" y="%s"' % (x, y), s)
    assert s2 != s, "object %d not found" % oid
    open(dst, "w").write(s2)


if sys.argv[1] == "check":
    print(sum(check(d) for d in sys.argv[2:]))
elif sys.argv[1] == "move":
    move(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6])
PY

# changed_words ORIG NEW LUMP:OFF=VALUE...: NEW is ORIG with those int16s set
changed_words() {
	python3 - "$top_srcdir/tests" "$@" <<'PY' || fail "not only $*"
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = t.read_lumps(sys.argv[2]), t.read_lumps(sys.argv[3])
assert [n for n, _ in a] == [n for n, _ in b]
want = {n: bytearray(d) for n, d in a}
for kv in sys.argv[4:]:
    lump, rest = kv.split(":")
    off, val = map(int, rest.split("="))
    want[lump][off:off + 2] = struct.pack("<h", val)
for n, d in b:
    assert bytes(want[n]) == d, n
PY
}

gfs_mount g.rpg m || fail "mount"
check_eq 15 "$(python3 obj.py check m/maps/[0-9]*)" "objects of the 3 maps (3 NPCs and 2 doors each)"
grep -q '<object id="2" name="npc 1" x="60" y="80" width="20" height="20"/>' m/maps/00-town/map.tmx ||
	fail "NPC slot 1 as object 2: $(grep 'object id="2"' m/maps/00-town/map.tmx)"
grep -q 'name="global npc 2"' m/maps/00-town/map.tmx || fail "slot 5 of the global pool"
# NPC slot 1 moved to 5,3 (a little off the grid, as a mouse leaves it), door 0 to 7,8
python3 obj.py move m/maps/00-town/map.tmx a.tmx 2 101.5 58 || fail "move NPC"
python3 obj.py move a.tmx b.tmx 301 140 160 || fail "move door"
cp b.tmx m/maps/00-town/map.tmx || fail "moved objects written"
check_eq "1,5,3,1,0,0,0" "$(grep '^1,' m/maps/00-town/npcs.csv)" "npcs.csv after the move"
check_eq "0,7,8,1" "$(grep '^0,' m/maps/00-town/doors.csv)" "doors.csv after the move"
gfs_umount m || fail "umount"
changed_words orig.rpg g.rpg GAMEFS.L00:$((7 + 2))=5 GAMEFS.L00:$((7 + 600 + 2))=4 GAMEFS.DOX:0=7 GAMEFS.DOX:200=9

# refusals: EINVAL, the archive unchanged
cp orig.rpg g.rpg
gfs_mount g.rpg m || fail "mount bad"
cp m/maps/00-town/map.tmx t.tmx
bad() { # WHAT FILE LOG
	check_eq EINVAL "$(errno_of "f=open('m/maps/00-town/map.tmx','wb'); f.write(open('$2','rb').read()); f.close()")" "$1"
	grep -q "$3" m/.gamefs.log || fail "$1: the log does not say '$3': $(tail -n 2 m/.gamefs.log)"
}
grep -v 'object id="2"' t.tmx >rm.tmx
bad "an NPC removed" rm.tmx "NPC slot 1 has no object (remove it in npcs.csv)"
sed 's|<object id="2" |<object id="3" |' t.tmx >add.tmx
bad "an unknown object" add.tmx "object 3 is none of the map's npcs (add them in npcs.csv)"
python3 obj.py move t.tmx off.tmx 2 400 0 || fail "off"
bad "an NPC off the map" off.tmx "object 2 is off the 20x12 map"
sed 's|<object id="302" \(.*\)$|&\n<object id="302" \1|' t.tmx >twice.tmx
bad "a door twice" twice.tmx "object 302 twice"
gfs_umount m || fail "umount bad"
cmp g.rpg orig.rpg || fail "refused object edits changed the archive"

if [ -n "$have_tiled" ]; then
	gfs_mount g.rpg m || fail "mount tiled"
	QT_QPA_PLATFORM=offscreen tiled --export-map tmx m/maps/00-town/map.tmx tiled.tmx >tiled.out 2>&1 ||
		fail "tiled re-saves map 0: $(cat tiled.out)"
	grep -q '<objectgroup id="[0-9]*" name="npcs"' tiled.tmx || fail "Tiled dropped the NPC objects"
	cp tiled.tmx m/maps/00-town/map.tmx || fail "Tiled's TMX copied in"
	gfs_umount m || fail "umount tiled"
	cmp g.rpg orig.rpg || fail "Tiled's re-save changed the archive"
	# the NPC of slot 1 moved in Tiled's file, Tiled saves it into the mount
	python3 obj.py move tiled.tmx edit.tmx 2 100 60 || fail "move in Tiled's TMX"
	gfs_mount g.rpg m || fail "mount tiled 2"
	QT_QPA_PLATFORM=offscreen tiled --export-map tmx edit.tmx m/maps/00-town/map.tmx >tiled.out 2>&1 ||
		fail "tiled saves the moved NPC into the mount: $(cat tiled.out)"
	check_eq "1,5,3,1,0,0,0" "$(grep '^1,' m/maps/00-town/npcs.csv)" "Tiled's move in npcs.csv"
	gfs_umount m || fail "umount tiled 2"
	changed_words orig.rpg g.rpg GAMEFS.L00:$((7 + 2))=5 GAMEFS.L00:$((7 + 600 + 2))=4
fi

# the corpus: every map's objects against its CSV views
dir=$(corpus rpg) || exit 77
for f in "$dir"/*.rpg; do
	gfs_mount "$f" c -o ro || fail "mount $f"
	n=$(python3 obj.py check c/maps/[0-9]*) || fail "$f: objects against npcs.csv, doors.csv"
	echo "$(basename "$f"): $n objects"
	gfs_umount c || fail "umount $f"
done
[ -n "$have_tiled" ] || { echo "SKIP: tiled absent (the rest passed)"; exit 77; }
exit 0
