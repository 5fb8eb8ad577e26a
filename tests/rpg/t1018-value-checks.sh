#!/bin/sh
# OHRRPGCE values are checked against what they refer to (issue 28, 6b): a
# hero's walkabout or battle sprite set must be one the game has, an NPC must
# stand on its map (x=256, y=999 on a small map was accepted by 590cbeb);
# EINVAL names the file, the line, the field and the limit.  Untouched
# views still write back unchanged.
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1
dir=$(corpus rpg) || exit 77
cp "$dir/baby_bob.rpg" g.rpg && chmod 644 g.rpg
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
sets=$(ls m/sprites/walkabouts | wc -l)
bsets=$(ls m/sprites/heroes | wc -l)
note "baby_bob: $sets walkabout sets, $bsets hero battle sprite sets"
line=$(grep -n '^walkabout = ' m/heroes/000.ini | cut -d: -f1)
for v in -5 $sets 32767; do
	sed "s/^walkabout = .*/walkabout = $v/" m/heroes/000.ini >h.ini
	check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('h.ini', 'm/heroes/000.ini')")" "walkabout $v"
	grep -qF "heroes/000.ini: line $line: walkabout = $v: the game has $sets sets of sprites/walkabouts (0 to $((sets - 1)))" \
		"$T/gamefs.log" || fail "message of walkabout $v"
done
bline=$(grep -n '^battle_sprite = ' m/heroes/000.ini | cut -d: -f1)
sed "s/^battle_sprite = .*/battle_sprite = $bsets/" m/heroes/000.ini >h.ini
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('h.ini', 'm/heroes/000.ini')")" "battle_sprite $bsets"
grep -qF "heroes/000.ini: line $bline: battle_sprite = $bsets: the game has $bsets sets of sprites/heroes" "$T/gamefs.log" ||
	fail "message of battle_sprite $bsets"
cmp g.rpg orig.rpg || fail "refused edits changed the game"
sed -i "s/^walkabout = .*/walkabout = $((sets - 1))/" m/heroes/000.ini || fail "the last walkabout set refused"

# an NPC off its map
npcs=$(ls m/maps/*/npcs.csv | head -n 1)
tiles=$(dirname "$npcs")/tiles-0.csv
w=$(sed -n 2p "$tiles" | tr "," "\n" | wc -l); h=$(($(wc -l <"$tiles") - 1))	# a header row, then the map
note "$npcs: a ${w}x$h map"
cp "$npcs" n.csv && echo ",256,999,0,0,0" >>n.csv
[ "$(head -n 1 n.csv | tr ',' '\n' | wc -l)" = 7 ] && sed -i '$s/$/,0/' n.csv
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('n.csv', '$npcs')")" "an NPC at 256,999"
grep -qF "npcs.csv: line $(wc -l <n.csv), column 2 (x): 256 is off the ${w}x$h map (x from 0 to $((w - 1)))" "$T/gamefs.log" ||
	fail "message of an NPC at 256,999"
cp "$npcs" n.csv && echo ",0,999,0,0,0" >>n.csv
[ "$(head -n 1 n.csv | tr ',' '\n' | wc -l)" = 7 ] && sed -i '$s/$/,0/' n.csv
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('n.csv', '$npcs')")" "an NPC at 0,999"
grep -qF "column 3 (y): 999 is off the ${w}x$h map (y from 0 to $((h - 1)))" "$T/gamefs.log" || fail "message of y 999"
gfs_umount m || fail "unmount"
echo ok
