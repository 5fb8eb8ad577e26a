#!/bin/sh
# Issue 29, OHRRPGCE: new records as Custom adds them, through the tree.
# A generated game (tests/rpg/growgame.py) gets a new item, hero, enemy,
# attack, formation, shop, vehicle, menu, menu item (cp of an INI to the
# next free number), text box (echo), item and tag name (a line appended
# to names/), global string (the next known one appended to strings.txt); re-read after unmount by tests/rpgtool.py: GEN's last-record
# fields, lump sizes in whole BINSIZE records, companions (DT6 with
# ATTACK.BIN, 50 STF slots a shop), the new records' bytes and Custom's
# defaults; `gamefs check` clean; a fresh mount shows them.  Refusals (a
# number that is not the next, a record in the middle removed, past the
# engine's 512 heroes) leave the archive byte-identical with the reason in
# the log.  The last records removed by rm; baby_bob.rpg (corpus) grown by
# an item and shrunk back is byte-identical.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
GROW="python3 $top_srcdir/tests/rpg/growgame.py"
cd "$T" || exit 1

py() { python3 -c "import sys; sys.path.insert(0, '$top_srcdir/tests/rpg'); from growgame import gen, lump; $1"; }

$GROW g.rpg
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
cp m/items/000.ini m/items/001.ini || fail "cp a new item"
cmp m/items/000.ini m/items/001.ini || fail "the new item reads as its copy"
check_eq "$(printf '0\tSword\n1\t')" "$(cat m/names/items.txt)" "names/items.txt after the new item"
printf '2\tPotion\n' >>m/names/items.txt || fail "a new item by its name"
[ -f m/items/002.ini ] || fail "items/002.ini after the name line"
cp m/heroes/000.ini m/heroes/001.ini || fail "cp a new hero"
cp m/enemies/000.ini m/enemies/001.ini || fail "cp a new enemy"
cp m/attacks/001.ini m/attacks/002.ini || fail "cp a new attack"
check_eq "$(printf '0\tPunch\n1\tFire\n2\t')" "$(cat m/names/attacks.txt)" "names/attacks.txt: DT6 grew with ATTACK.BIN"
cp m/formations/000.ini m/formations/001.ini || fail "cp a new formation"
cp m/shops/000.ini m/shops/001.ini || fail "cp a new shop"
check_eq 100 "$(ls m/shop-stock | wc -l)" "a shop's 50 stock slots"
cp m/vehicles/000.ini m/vehicles/001.ini || fail "cp a new vehicle"
cp m/menus/000.ini m/menus/001.ini || fail "cp a new menu"
cp m/menu-items/0000.ini m/menu-items/0001.ini || fail "cp a new menu item"
echo 'Hello there' >m/textboxes/0002.txt || fail "echo a new text box"
check_eq "Hello there" "$(head -n 1 m/textboxes/0002.txt)" "the new text box"
printf '3\tDoor open\n' >>m/names/tags.txt || fail "a new tag name"
printf '25\tAttack\n' >>m/strings.txt || fail "a new global string (the next known one, 25)"
check_eq "$(printf '8\tSpd\n25\tAttack')" "$(tail -n 2 m/strings.txt)" "strings.txt with the new string"

# refusals: nothing changes, the reason in the log
cp g.rpg before.rpg
refused EINVAL "open('m/items/009.ini', 'x').close()" "a number past the next" \
	'items/009.ini: a new item is the next free number, items/003.ini' "log of items/009.ini"
refused EPERM "os.unlink('m/items/001.ini')" "rm of an item in the middle" \
	'items/001.ini: only the last item (items/002.ini) can be removed' "log of rm items/001.ini"
check_eq EPERM "$(errno_of "os.unlink('m/textboxes/0000.txt')")" "rm of the first text box"
check_eq EINVAL "$(errno_of "f = open('m/names/items.txt', 'a'); f.write('7\tSkip\n'); f.close()")" "a name line that is not the next record"
grep -q 'items.txt: line 4: want record 3 (a line added is the next record' m/.gamefs.log || fail "log of item 7"
check_eq EINVAL "$(errno_of "f = open('m/strings.txt', 'a'); f.write('99\tX\n'); f.close()")" "a global string that is not the next known one"
cmp g.rpg before.rpg || fail "a refusal changed the archive"
gfs_umount m || fail "unmount"

# re-read by the independent reader
py "
g = 'g.rpg'
want = {82: 2, 35: 1, 36: 1, 34: 2, 37: 1, 97: 1, 55: 1, 80: 1, 81: 1, 39: 2, 56: 3}
got = {f: gen(g, f) for f in want}
assert got == want, got
sizes = {'GAMEFS.ITM': 600, 'GAMEFS.DT0': 1272, 'GAMEFS.DT1': 640, 'ATTACK.BIN': 192, 'GAMEFS.DT6': 240,
         'GAMEFS.FOR': 160, 'GAMEFS.SHO': 80, 'GAMEFS.STF': 8400, 'GAMEFS.VEH': 160, 'MENUS.BIN': 112,
         'MENUITEM.BIN': 136, 'GAMEFS.SAY': 1200, 'GAMEFS.TMN': 168, 'GAMEFS.STT': 25 * 11 + 11}
assert {n: len(lump(g, n)) for n in sizes} == sizes, {n: len(lump(g, n)) for n in sizes}
itm = lump(g, 'GAMEFS.ITM')
assert itm[200 + 92:400] == itm[92:200] and itm[200:292] == bytes(92), 'item 1: a copy but the name and description'
# Custom's blank item: elemental multipliers 1.0 from word 82, cut at the file's record size
assert itm[400:402] == b'\x06\x00' and itm[402:414:2] == b'Potion' and itm[414:564] == bytes(150), itm[400:430]
assert itm[564:600] == b'\0\0\x80\x3f' * 9, itm[564:600]
dt1 = lump(g, 'GAMEFS.DT1')
assert dt1[320 + 34:] == dt1[34:320] and dt1[320:354] == bytes(34), 'enemy 1'
say = lump(g, 'GAMEFS.SAY')[800:]
assert say[:11] == b'Hello there' and say[11:388] == bytes(377) and say[388:390] == b'\xff\xff' and say[390:] == bytes(10), say
stf = lump(g, 'GAMEFS.STF')
assert stf[:84] == lump('orig.rpg', 'GAMEFS.STF') and stf[84:50 * 84] == bytes(49 * 84), 'shop 0 slots kept, grown blank'
s50 = stf[50 * 84:51 * 84]
assert s50[38:40] == b'\xff\xff' and s50[74:76] == b'\x01\x00' and s50[:38] == bytes(38), s50
assert stf[51 * 84:] == bytes(49 * 84)
stt = lump(g, 'GAMEFS.STT')
assert stt[:99] == lump('orig.rpg', 'GAMEFS.STT') and stt[99:275] == bytes(176) and stt[275:] == b'\x06Attack' + bytes(4), stt[270:]
tmn = lump(g, 'GAMEFS.TMN')[126:]
assert tmn[:2] == b'\x09\x00' and tmn[2:20:2] == b'Door open', tmn
assert lump(g, 'GAMEFS.FOR')[80:] == lump('orig.rpg', 'GAMEFS.FOR')[:80], 'formation 1 overwrote the partial record'
o = dict((n, b) for n, b in __import__('rpgtool').read_lumps('orig.rpg'))
n = dict((n, b) for n, b in __import__('rpgtool').read_lumps(g))
same = [k for k in o if o[k] == n[k]]
assert set(o) == set(n) and sorted(k for k in o if k not in same) == sorted(list(sizes) + ['GAMEFS.GEN']), sorted(k for k in o if k not in same)
" || fail "the grown game as read back"
"$GAMEFS" check g.rpg >check.txt || fail "check: $(cat check.txt)"
grep -q ', 0 warnings' check.txt || fail "check warns: $(cat check.txt)"

# a fresh mount shows them; rm of the last ones
gfs_mount g.rpg m || fail "remount"
check_eq "2	Potion" "$(tail -n 1 m/names/items.txt)" "names/items.txt after remount"
check_eq "3	Door open" "$(tail -n 1 m/names/tags.txt)" "names/tags.txt after remount"
check_eq "Hello there" "$(head -n 1 m/textboxes/0002.txt)" "text box after remount"
cmp m/items/000.ini m/items/001.ini || fail "item 1 after remount"
rm m/items/002.ini m/items/001.ini || fail "rm the last items, newest first"
rm m/textboxes/0002.txt m/attacks/002.ini m/shops/001.ini m/heroes/001.ini || fail "rm the last records"
[ ! -e m/items/001.ini ] && [ ! -e m/shop-stock/0050.ini ] || fail "removed views still there"
check_eq "$(printf '0\tPunch\n1\tFire')" "$(cat m/names/attacks.txt)" "DT6 shrank with ATTACK.BIN"
check_eq EPERM "$(errno_of "os.unlink('m/items/000.ini')")" "the only item"
grep -q 'items/000.ini: a game keeps at least one item' m/.gamefs.log || fail "log of the only item"
gfs_umount m || fail "unmount after rm"
py "
g = 'g.rpg'
assert (gen(g, 82), gen(g, 39), gen(g, 34), gen(g, 97), gen(g, 35)) == (0, 1, 1, 0, 0), [gen(g, f) for f in (82, 39, 34, 97, 35)]
assert lump(g, 'GAMEFS.ITM') == lump('orig.rpg', 'GAMEFS.ITM') and lump(g, 'GAMEFS.SAY') == lump('orig.rpg', 'GAMEFS.SAY')
assert len(lump(g, 'GAMEFS.STF')) == 50 * 84 and len(lump(g, 'GAMEFS.SHO')) == 40 and len(lump(g, 'ATTACK.BIN')) == 128
" || fail "the game after rm"
"$GAMEFS" check g.rpg >check.txt || fail "check after rm: $(cat check.txt)"

# the engine's limit: heroes 0 to 511
$GROW h.rpg 512
cp h.rpg h0.rpg
gfs_mount h.rpg m || fail "mount 512 heroes"
check_eq ENOSPC "$(errno_of "open('m/heroes/512.ini', 'x').close()")" "a 513th hero"
grep -q "heroes/512.ini: heroes/ holds 512 records, the engine's most (hero 0 to 511)" m/.gamefs.log ||
	fail "log of the 513th hero: $(tail -n 1 m/.gamefs.log)"
gfs_umount m || fail "unmount 512 heroes"
cmp h.rpg h0.rpg || fail "a refused hero changed the archive"

# baby_bob grown by an item and shrunk back: byte-identical
if dir=$(corpus rpg); then
	cp "$dir/baby_bob.rpg" bob.rpg && chmod 644 bob.rpg
	gfs_mount bob.rpg m || fail "mount baby_bob"
	cp m/items/000.ini m/items/256.ini || fail "baby_bob: a new item"
	"$GAMEFS" check bob.rpg >/dev/null || fail "baby_bob check after the item"
	check_eq 256 "$(python3 -c "
import sys, struct; sys.path.insert(0, '$top_srcdir/tests'); import rpgtool as t
l = dict(t.read_lumps('bob.rpg')); g = [v for k, v in l.items() if k.endswith('.GEN')][0]
print(struct.unpack('<h', g[7 + 164:9 + 164])[0])")" "baby_bob: GEN's last item"
	rm m/items/256.ini || fail "baby_bob: rm the new item"
	gfs_umount m || fail "unmount baby_bob"
	cmp "$dir/baby_bob.rpg" bob.rpg || fail "baby_bob grown and shrunk back differs"
fi
echo "ok"
