#!/bin/sh
# Issue 29, OHRRPGCE: a new map as Custom adds one, through the tree.  On a
# generated game of 3 maps: mkdir maps/03-forest makes Custom's blank map
# (its T/P/E/L/N/D/Z lumps, MAP and MN records, GEN's last map), cp -r of a
# map folder makes map 04 from the files as they arrive (every file reads
# back as its copy: two layers, a zone map, NPC types, doors); re-read by
# tests/rpgtool.py after unmount; `gamefs check`; a fresh mount shows them.
# Refusals leave the archive byte-identical with the reason in the log: a
# number that is not the next, a map that is not the last, a map a door
# link leads to (EBUSY naming it), a file no map has.  rm -r of the last
# maps gives back the game byte for byte; so do baby_bob.rpg (corpus)
# grown by an item, a copy of its map and a blank one, and autotest,
# npcwalktest and test_old grown by a copy of map 0.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

lumps() { python3 -c "import sys; sys.path.insert(0, '$top_srcdir/tests'); import rpgtool as t, struct
L = dict(t.read_lumps('$1'))
def gen(f): return struct.unpack('<h', L['GAMEFS.GEN'][7 + 2 * f:9 + 2 * f])[0]
$2"; }

$RPG mkgame g.rpg new 3
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
mkdir m/maps/03-forest || fail "mkdir a new map"
check_eq "" "$(ls m/maps/03-forest)" "a new map's folder starts empty"
check_eq "3	forest" "$(tail -n 1 m/names/maps.txt)" "names/maps.txt: the new map's name"
cp -r m/maps/00-town m/maps/04-copy || fail "cp -r of a map folder: $(tail -n 3 m/.gamefs.log)"
for f in m/maps/00-town/*; do
	cmp "$f" "m/maps/04-copy/${f##*/}" || fail "04-copy/${f##*/} is not its copy"
done

# refusals: nothing changes, the reason in the log
cp g.rpg before.rpg
check_eq EINVAL "$(errno_of "os.mkdir('m/maps/07-far')")" "a map number past the next"
grep -q 'maps/07-far: a new map is the next free number: maps/05-NAME' m/.gamefs.log || fail "log of 07-far"
check_eq EPERM "$(errno_of "os.rmdir('m/maps/03-forest')")" "rmdir of a map that is not the last"
grep -q 'maps/03-forest: only the last map (4) can be removed' m/.gamefs.log || fail "log of 03-forest"
check_eq EPERM "$(errno_of "open('m/maps/04-copy/tiles-7.csv', 'x')")" "a layer past the next"
check_eq EPERM "$(errno_of "os.mkdir('m/maps/00-town/sub')")" "mkdir elsewhere"
cmp g.rpg before.rpg || fail "a refusal changed the archive"
gfs_umount m || fail "unmount"

lumps g.rpg "
assert gen(0) == 4, gen(0)
assert len(L['GAMEFS.T03']) == 11 + 64 * 64 and L['GAMEFS.T03'][:11] == bytes(7) + b'\x40\0\x40\0', L['GAMEFS.T03'][:11]
assert L['GAMEFS.P03'] == L['GAMEFS.T03'] == L['GAMEFS.E03'] and not any(L['GAMEFS.T03'][11:])
assert L['GAMEFS.L03'] == bytes(607) + b'\x01\0' * 300 + bytes(2400), 'L: 300 empty slots, y+1 = 1'
assert L['GAMEFS.N03'] == bytes(9) + b'\xff\xff' + bytes(2) + b'\x04\0' + bytes(30), L['GAMEFS.N03']
assert L['GAMEFS.D03'] == b'\xfd\x99\x99\0\0\xd0\x07' + b'\xff\xff' * 200 + bytes(1600)
assert L['GAMEFS.Z03'][:4] == b'RELD'
mp, mn = L['GAMEFS.MAP'], L['GAMEFS.MN']
assert len(mp) == 5 * 764 and len(mn) == 5 * 80 and len(L['GAMEFS.DOX']) == 12000
m3 = mp[3 * 764:4 * 764]
assert m3[32:34] == b'\x02\0' and m3[62:64] == b'\x01\0' and not any(m3[:32] + m3[34:62] + m3[64:]), 'MAP: Custom blank'
assert mn[240:320] == bytes([6]) + b'forest' + bytes(73) and mn[320:325] == b'\x04copy'
assert L['GAMEFS.DOX'] == dict(t.read_lumps('orig.rpg'))['GAMEFS.DOX'][:1800] + L['GAMEFS.DOX'][1800:2400] + L['GAMEFS.DOX'][2400:]
assert L['GAMEFS.DOX'][2400:3000] == L['GAMEFS.DOX'][:600], 'doors of map 4: a copy of map 0s'
for x in 'TPEN':
    assert L['GAMEFS.%c04' % x] == L['GAMEFS.%c00' % x], x
assert mp[4 * 764:] == mp[:764], 'MAP record of the copy'
" || fail "the grown game as read back"
"$GAMEFS" check g.rpg >check.txt || fail "check: $(cat check.txt)"
check_eq 4 "$(sed -n 's/.*lumps (.*), \([0-9]*\) warnings/\1/p' check.txt)" "check: the copied map's warnings, as map 0's"

# a fresh mount shows them; a door link leading to the last map holds it
gfs_mount g.rpg m || fail "remount"
check_eq "00-town 01-cave 02-map-2 03-forest 04-copy tilesets" "$(ls m/maps | tr '\n' ' ' | sed 's/ $//')" "maps after remount"
check_eq 11 "$(ls m/maps/03-forest | wc -l)" "files of the blank map"
cmp m/maps/00-town/tiles-1.csv m/maps/04-copy/tiles-1.csv || fail "the copy's second layer after remount"
sed -i 's/^1,1,0,2,0,-3$/1,1,0,4,0,-3/' m/maps/00-town/door-links.csv || fail "a link to map 4"
cp g.rpg before.rpg
check_eq EBUSY "$(errno_of "os.unlink('m/maps/04-copy/map.ini')")" "rm of a map a door link leads to"
grep -q '04-copy/map.ini: map 4 is where door link 1 of map 0 (its door-links.csv) leads' m/.gamefs.log ||
	fail "log of EBUSY: $(tail -n 1 m/.gamefs.log)"
cmp g.rpg before.rpg || fail "EBUSY changed the archive"
sed -i 's/^1,1,0,4,0,-3$/1,1,0,2,0,-3/' m/maps/00-town/door-links.csv || fail "the link back"
rm -r m/maps/04-copy m/maps/03-forest || fail "rm -r of the last maps: $(tail -n 2 m/.gamefs.log)"
check_eq "00-town 01-cave 02-map-2 tilesets" "$(ls m/maps | tr '\n' ' ' | sed 's/ $//')" "maps after rm -r"
gfs_umount m || fail "unmount after rm"
cmp g.rpg orig.rpg || fail "grown by two maps and shrunk back: not the game it was"

# baby_bob: an item, a copy of its map and a blank one, then removed (in the
# same mount, and the maps again across a remount): byte-identical
if dir=$(corpus rpg); then
	cp "$dir/baby_bob.rpg" bob.rpg && chmod 644 bob.rpg
	gfs_mount bob.rpg m || fail "mount baby_bob"
	cp m/items/000.ini m/items/256.ini || fail "baby_bob: an item"
	cp -r m/maps/00-grassylandy m/maps/01-copy || fail "baby_bob: cp -r of its map"
	mkdir m/maps/02-blank || fail "baby_bob: mkdir"
	"$GAMEFS" check bob.rpg >check.txt || fail "baby_bob check: $(cat check.txt)"
	grep -q ', 0 warnings' check.txt || fail "baby_bob check warns: $(cat check.txt)"
	rm -r m/maps/02-blank m/maps/01-copy m/items/256.ini || fail "baby_bob: rm"
	gfs_umount m || fail "unmount baby_bob"
	cmp "$dir/baby_bob.rpg" bob.rpg || fail "baby_bob grown and shrunk back in a mount differs"
	gfs_mount bob.rpg m || fail "mount baby_bob again"
	cp -r m/maps/00-grassylandy m/maps/01-copy && mkdir m/maps/02-blank || fail "baby_bob: the maps again"
	gfs_umount m || fail "unmount baby_bob again"
	gfs_mount bob.rpg m || fail "remount baby_bob"
	for f in m/maps/00-grassylandy/*; do
		cmp "$f" "m/maps/01-copy/${f##*/}" || fail "baby_bob: 01-copy/${f##*/} after remount"
	done
	rm -r m/maps/02-blank m/maps/01-copy || fail "baby_bob: rm -r after remount"
	gfs_umount m || fail "unmount baby_bob a third time"
	cmp "$dir/baby_bob.rpg" bob.rpg || fail "baby_bob: its maps removed after a remount differs"
	# games with zone maps, old 5-array .L, more MAP/MN records than maps: map 0 copied and removed
	for g in autotest npcwalktest test_old; do
		[ -f "$dir/$g.rpg" ] || continue
		cp "$dir/$g.rpg" c.rpg && chmod 644 c.rpg
		gfs_mount c.rpg m -o commit=unmount || fail "mount $g"
		last=$(ls m/maps | grep -v tilesets | tail -n 1)
		nn=$(printf %02d "$(expr "${last%%-*}" + 1)")
		src=$(ls -d m/maps/00-* | head -n 1)
		cp -r "$src" "m/maps/$nn-copy" || fail "$g: cp -r of map 0: $(grep refused m/.gamefs.log | tail -n 1)"
		for f in "$src"/*; do
			cmp "$f" "m/maps/$nn-copy/${f##*/}" || fail "$g: $nn-copy/${f##*/} is not its copy"
		done
		rm -r "m/maps/$nn-copy" || fail "$g: rm -r"
		gfs_umount m || fail "unmount $g"
		cmp "$dir/$g.rpg" c.rpg || fail "$g grown by a map and shrunk back differs"
	done
fi
echo "ok"
