#!/bin/sh
# Issue 29's "done when" on baby_bob.rpg (corpus): a modder adds, with
# ordinary tools on a real mount, a walkabout sprite (cp of a PNG to the
# next number), a hero (cp of an INI), a text box (echo), an item (cp),
# and a new map (mkdir) whose NPC type shows the new sprite and says the
# new text box, placed by a line of npcs.csv.  After unmount the archive
# is re-read by tests/rpgtool.py (the lumps grew by exactly those records,
# the new ones are their copies, the NPC's words are where the engine
# reads them); `gamefs check` is clean; a fresh mount shows the same
# files.  Removed again (rm -r, rm) in a later mount, the game is the one
# it was but for GEN's last-item word, which the first commit set from 0
# (unset in this old game) to the truth.
. "$top_srcdir/tests/lib.sh"
dir=$(corpus rpg) || exit 77
cd "$T" || exit 1
cp "$dir/baby_bob.rpg" bob.rpg && chmod 644 bob.rpg

gfs_mount bob.rpg m || fail "mount"
cp m/sprites/walkabouts/001.png m/sprites/walkabouts/004.png || fail "cp a walkabout set: $(tail -n 2 m/.gamefs.log)"
cp m/heroes/000.ini m/heroes/060.ini || fail "cp a hero"
echo 'Welcome to the new village' >m/textboxes/0002.txt || fail "echo a text box"
cp m/items/000.ini m/items/256.ini || fail "cp an item"
mkdir m/maps/01-village || fail "mkdir a map"
printf '%s\n%s\n' 'id,picture,palette,movetype,speed,textbox,facetype,item,pushtype,activation,tag1,tag2,usetag,script,scriptarg,vehicle' \
	'0,4,1,1,0,2,0,0,0,0,0,0,0,0,0,0' >m/maps/01-village/npc-types.csv || fail "the new map's NPC type"
printf 'slot,x,y,npc,direction,frame\n0,5,6,0,2,0\n' >m/maps/01-village/npcs.csv || fail "the new map's NPC"
gfs_umount m || fail "unmount"

"$GAMEFS" check bob.rpg >check.txt || fail "check: $(cat check.txt)"
grep -q ', 0 warnings' check.txt || fail "check warns: $(cat check.txt)"

python3 - "$top_srcdir/tests" "$dir/baby_bob.rpg" bob.rpg <<'PY' || fail "the archive re-read"
import sys, struct
sys.path.insert(0, sys.argv[1])
import rpgtool as t
O, L = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
def grew(k, n):
    assert L[k][:len(O[k])] == O[k] and len(L[k]) == len(O[k]) + n, (k, len(O[k]), len(L[k]))
    return L[k][len(O[k]):]
# a walkabout set is 8 frames of 20x20 at 4 bits; the new one is set 1's pixels
assert grew('BABY_BOB.PT4', 1600) == O['BABY_BOB.PT4'][1600:3200]
hero = len(O['BABY_BOB.DT0']) // 60
assert grew('BABY_BOB.DT0', hero) == O['BABY_BOB.DT0'][:hero]
assert grew('BABY_BOB.ITM', 200) == O['BABY_BOB.ITM'][:200]
say = grew('BABY_BOB.SAY', 400)
assert say.startswith(b'Welcome to the new village\0'), say[:40]
assert len(L['BABY_BOB.MAP']) == 2 * len(O['BABY_BOB.MAP']) and len(L['BABY_BOB.MN']) == 160
assert L['BABY_BOB.MN'][80:88] == b'\x07village'
gen = lambda f: struct.unpack('<h', L['BABY_BOB.GEN'][7 + 2 * f:9 + 2 * f])[0]
assert gen(0) == 1 and gen(30) == 4 and gen(82) == 256, (gen(0), gen(30), gen(82))
# the NPC type: picture 4, palette 1, walks, says text box 2
n = struct.unpack('<15h', L['BABY_BOB.N01'][7:37])
assert n[:5] == (4, 1, 1, 0, 2) and not any(n[5:]), n
# its instance: x 5, y 6 (stored + 1), type 0 (stored + 1), facing 2
w = struct.unpack('<1500h', L['BABY_BOB.L01'][7:3007])
assert [w[i * 300] for i in range(5)] == [5, 7, 1, 2, 0], [w[i * 300] for i in range(5)]
assert [w[i * 300 + 1] for i in range(5)] == [0, 1, 0, 0, 0], "slot 1 stays empty (y + 1 = 1)"
for x in 'TPE':
    w, h = struct.unpack('<2h', L['BABY_BOB.%s01' % x][7:11])
    assert (w, h) == (64, 64), (x, w, h)
PY

gfs_mount bob.rpg m || fail "mount again"
cmp m/sprites/walkabouts/001.png m/sprites/walkabouts/004.png || fail "the new sprite after a remount"
cmp m/heroes/000.ini m/heroes/060.ini || fail "the new hero after a remount"
cmp m/items/000.ini m/items/256.ini || fail "the new item after a remount"
check_eq "Welcome to the new village" "$(head -n 1 m/textboxes/0002.txt)" "the new text box after a remount"
check_eq "1	village" "$(tail -n 1 m/names/maps.txt)" "the new map's name"
check_eq "0,5,6,0,2,0" "$(sed -n 2p m/maps/01-village/npcs.csv)" "the NPC after a remount"
check_eq "0,4,1,1,0,2,0,0,0,0,0,0,0,0,0,0" "$(sed -n 2p m/maps/01-village/npc-types.csv)" "its type after a remount"
[ -s m/maps/01-village/map.tmx ] && [ -s m/maps/01-village/map.png ] || fail "the new map's map.tmx and map.png"
rm -r m/maps/01-village || fail "rm -r the map: $(tail -n 2 m/.gamefs.log)"
rm m/items/256.ini m/heroes/060.ini m/textboxes/0002.txt m/sprites/walkabouts/004.png ||
	fail "rm the rest: $(tail -n 2 m/.gamefs.log)"
gfs_umount m || fail "unmount after rm"
python3 - "$top_srcdir/tests" "$dir/baby_bob.rpg" bob.rpg <<'PY' || fail "shrunk back"
import sys, struct
sys.path.insert(0, sys.argv[1])
import rpgtool as t
O, L = t.read_lumps(sys.argv[2]), t.read_lumps(sys.argv[3])
assert [k for k, _ in O] == [k for k, _ in L]
diff = [k for (k, a), (_, b) in zip(O, L) if a != b]
assert diff == ['BABY_BOB.GEN'], diff
a, b = dict(O)['BABY_BOB.GEN'], dict(L)['BABY_BOB.GEN']
assert a[:171] + a[173:] == b[:171] + b[173:] and b[171:173] == struct.pack('<h', 255), b[171:173]
PY
