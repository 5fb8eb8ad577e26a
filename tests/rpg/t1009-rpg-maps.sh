#!/bin/sh
# Map layers of generated games (old: BSAVE stamps and a remainder after the
# layers; new: zeroed headers) as CSV: golden listing, a tile changed with
# sed changes exactly that byte, walls and foes keep their own size, zones
# as RELOAD text; a value out of range, a row too short or missing: EINVAL
# and nothing changes on disk.  `check` warns of the layers' sizes and GEN.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

for layout in old new; do
	$RPG mkgame g.rpg $layout
	cp g.rpg orig.rpg
	# check warns of what is inconsistent, and still says ok
	"$GAMEFS" check g.rpg >check.out || fail "$layout: check exit status $?"
	grep -v '^gamefs: ' check.out | grep '^warning' >got
	cat >want <<'X'
warning: map 0: GAMEFS.T00 is 20x12, GAMEFS.P00 is 20x10
warning: map 0: GAMEFS.T00 is 20x12, GAMEFS.E00 is 20x10
warning: GEN says the last map is 0, the tile maps go to 1
X
	diff -u want got || fail "$layout: check warnings"
	grep -q "a game: .* 3 warnings" check.out || fail "$layout: check summary"
	gfs_mount g.rpg m || fail "mount $layout"
	check_eq "00-town 01-cave tilesets" "$(ls m/maps | tr '\n' ' ' | sed 's/ $//')" "$layout: map folders named from MN"
	check_eq "zones.txt tiles-0.csv tiles-1.csv walls.csv foes.csv map.tmx map.png" "$(ls -U m/maps/00-town | tr '\n' ' ' | sed 's/ $//')" "$layout: map 0 files"
	check_eq "tiles-0.csv zones.txt map.tmx map.png" "$(ls -U m/maps/01-cave | tr '\n' ' ' | sed 's/ $//')" "$layout: map 1 files"
	check_eq "x0,x1,x2,x3,x4,x5,x6,x7,x8,x9,x10,x11,x12,x13,x14,x15,x16,x17,x18,x19" "$(head -n 1 m/maps/00-town/tiles-0.csv)" "$layout: header"
	check_eq 13 "$(wc -l <m/maps/00-town/tiles-1.csv)" "$layout: 12 rows + header"
	check_eq 11 "$(wc -l <m/maps/00-town/walls.csv)" "$layout: walls keep their own height"
	grep -q '^zonemap$' m/maps/01-cave/zones.txt || fail "$layout: zones as RELOAD text"
	python3 - "$top_srcdir/tests" g.rpg m/maps/00-town/tiles-1.csv <<'PY' || fail "$layout: CSV differs from the lump"
import sys, struct
sys.path.insert(0, sys.argv[1])
import rpgtool as t
d = dict(t.read_lumps(sys.argv[2]))['GAMEFS.T00']
w, h = struct.unpack('<hh', d[7:11])
rows = [l.split(',') for l in open(sys.argv[3]).read().splitlines()[1:]]
assert [int(c) for r in rows for c in r] == list(d[11 + w * h:11 + 2 * w * h])
PY
	# a tile of layer 1, row 3, column 5 set to 200 with sed
	sed -i '5s/^\(\([0-9]*,\)\{5\}\)[0-9]*,/\1200,/' m/maps/00-town/tiles-1.csv || fail "$layout: sed tile"
	cp g.rpg good.rpg
	check_eq EINVAL "$(errno_of "f=open('m/maps/00-town/walls.csv','a'); f.write('1,' * 19 + '256\n'); f.close()")" "$layout: extra row / 256"
	check_eq EINVAL "$(errno_of "f=open('m/maps/00-town/foes.csv','w'); f.write('0,' * 19 + '0\n' + '0\n' * 9); f.close()")" "$layout: short rows"
	check_eq EINVAL "$(errno_of "f=open('m/maps/01-cave/tiles-0.csv','w'); f.write(('0,' * 15 + '-1\n') * 10); f.close()")" "$layout: -1"
	# a row more: the grid's own wording (the map is not resized here)
	h=$(($(wc -l <m/maps/00-town/tiles-1.csv) - 1))
	{ cat m/maps/00-town/tiles-1.csv; sed -n 2p m/maps/00-town/tiles-1.csv; } >rows.csv
	check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('rows.csv', 'm/maps/00-town/tiles-1.csv')")" "$layout: a row more"
	grep -qF "tiles-1.csv: $((h + 1)) rows, want $h" m/.gamefs.log || fail "$layout: rows message: $(tail -n 2 m/.gamefs.log)"
	cmp g.rpg good.rpg || fail "$layout: refused edits changed the archive"
	gfs_umount m || fail "unmount $layout"
	python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "$layout: bytes after the tile edit"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
want = bytearray(a['GAMEFS.T00'])
want[11 + 20 * 12 + 3 * 20 + 5] = 200
assert b['GAMEFS.T00'] == bytes(want)
for k in a:
    assert k == 'GAMEFS.T00' or a[k] == b[k], k
PY
	rm -f g.rpg orig.rpg good.rpg
done
echo ok
