#!/bin/sh
# Issue 29, OHRRPGCE: a record other data refers to is not removed.  rm of
# an item, attack or text box that a hero, enemy, shop stock slot, item or
# NPC type refers to is refused with EBUSY naming every referrer in the log
# ("items/001.ini: used by heroes/000 default_weapon, ..."), the last
# record as one in the middle; a record in the middle nothing refers to
# stays refused with EPERM (Custom removes none in the middle either).
# The archive is byte-identical after each refusal; once the references
# are changed the record goes, and tests/rpgtool.py reads the game back
# without it; `gamefs check` passes.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
GROW="python3 $top_srcdir/tests/rpg/growgame.py"
cd "$T" || exit 1

# ini_set FILE KEY VALUE: the key's line rewritten in place (one write, as an editor saves)
ini_set() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "ini_set $1 $2"
import sys
p, k, v = sys.argv[1:]
t = open(p).read().split('\n')
t = [k + ' = ' + v if l.split(' = ')[0] == k else l for l in t]
open(p, 'w').write('\n'.join(t))
PY
}

# records that refer to an item and an attack
$GROW g.rpg
gfs_mount g.rpg m || fail "mount"
cp m/items/000.ini m/items/001.ini || fail "a new item"
ini_set m/heroes/000.ini default_weapon 1
ini_set m/enemies/000.ini steal_item 1
ini_set m/shops/000.ini last_stock_slot 3
ini_set m/shop-stock/0000.ini type 0
ini_set m/shop-stock/0000.ini id 1
ini_set m/items/000.ini battle_attack 2
gfs_umount m || fail "unmount after the edits"
cp g.rpg before.rpg
gfs_mount g.rpg m || fail "remount"
refused EBUSY "os.unlink('m/items/001.ini')" "rm of an item others refer to" \
	'items/001.ini: used by shop-stock/0000.ini (shop 0 stock 0) id, enemies/000 steal_item, heroes/000 default_weapon; change that first' "log of rm items/001.ini"
refused EBUSY "os.unlink('m/attacks/001.ini')" "rm of an attack an item uses" \
	'attacks/001.ini: used by items/000 battle_attack; change that first' "log of rm attacks/001.ini"
refused EPERM "os.unlink('m/attacks/000.ini')" "rm of the first attack" \
	'attacks/000.ini: only the last attack (attacks/001.ini) can be removed: nothing refers to this one' "log of rm attacks/000.ini"
[ -f m/items/001.ini ] && [ -f m/attacks/001.ini ] || fail "a refused rm removed the view"
gfs_umount m || fail "unmount after refusals"
cmp g.rpg before.rpg || fail "a refused rm changed the archive"

# references changed: the item and the attack go
gfs_mount g.rpg m || fail "mount to change the references"
ini_set m/heroes/000.ini default_weapon 0
ini_set m/enemies/000.ini steal_item -1
check_eq EBUSY "$(errno_of "os.unlink('m/items/001.ini')")" "not yet: the stock slot used holds the item"
ini_set m/shops/000.ini last_stock_slot -1
rm m/items/001.ini || fail "rm of an item nothing refers to now: $(tail -n 1 m/.gamefs.log)"
ini_set m/items/000.ini battle_attack 0
rm m/attacks/001.ini || fail "rm of an attack nothing refers to now: $(tail -n 1 m/.gamefs.log)"
gfs_umount m || fail "unmount after rm"
python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests/rpg'); from growgame import gen, lump
assert len(lump('g.rpg', 'GAMEFS.ITM')) == 200 and len(lump('g.rpg', 'ATTACK.BIN')) == 64, 'lumps'
assert len(lump('g.rpg', 'GAMEFS.DT6')) == 80 and gen('g.rpg', 82) == 0 and gen('g.rpg', 34) == 0, 'GEN'
" || fail "the game read back after rm"
"$GAMEFS" check g.rpg >check.txt || fail "check: $(cat check.txt)"
grep -q ', 0 warnings' check.txt || fail "check warns: $(cat check.txt)"

# NPC types: a text box and an item they use
$RPG mkgame n.rpg new 3
gfs_mount n.rpg m || fail "mount the map game"
cp m/items/000.ini m/items/003.ini || fail "a new item"
echo 'Hello' >m/textboxes/0002.txt || fail "a new text box"
python3 -c "
p = 'm/maps/01-cave/npc-types.csv'; t = open(p).read().split('\n')
r = t[2].split(','); r[5] = '2'; r[7] = '4'; t[2] = ','.join(r)
open(p, 'w').write('\n'.join(t))" || fail "NPC type 1 of map 1: text box 2, item 3"
gfs_umount m || fail "unmount the map game"
cp n.rpg before.rpg
gfs_mount n.rpg m || fail "remount the map game"
refused EBUSY "os.unlink('m/items/003.ini')" "rm of an item an NPC gives" \
	'items/003.ini: used by maps/01-cave/npc-types.csv id 1 item; change that first' "log of rm items/003.ini"
refused EBUSY "os.unlink('m/textboxes/0002.txt')" "rm of a text box an NPC says" \
	'textboxes/0002.txt: used by maps/01-cave/npc-types.csv id 1 textbox; change that first' "log of rm textboxes/0002.txt"
check_eq EPERM "$(errno_of "os.unlink('m/textboxes/0001.txt')")" "a text box in the middle"
gfs_umount m || fail "unmount after the refusals"
cmp n.rpg before.rpg || fail "a refused rm changed the map game"
"$GAMEFS" check n.rpg >check.txt || fail "check of the map game: $(cat check.txt)"
echo "ok"
