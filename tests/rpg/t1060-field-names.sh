#!/bin/sh
# Every OHRRPGCE record field named from the engine's own record definitions
# (issue 30, 2): a generated game of today's record sizes shows named keys
# (no wNN in items/, heroes/; gen.ini and fixbits.ini named); references to
# items, attacks, enemies, tags, songs, sound effects and scripts show as the
# number with the name in a trailing comment; "default_weapon = 2 ; anything"
# stores 2 (read back with rpgtool.py, the independent lump reader); an
# unknown key or a bad value is EINVAL with the archive unchanged; views
# written back unchanged leave it byte-identical.  Then every record INI of
# every corpus game: at most 5% of the keys unnamed (wNN, gen.NNN).
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1

python3 - "$top_srcdir/tests" g.rpg <<'PY' || fail "generate the game"
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t

def w(*vals):
    return b''.join(struct.pack('<h', v) for v in vals)

def rec(size, words, head=b''):
    """a record of size bytes: head, then zeros, with words {index: value} set"""
    b = bytearray(head.ljust(size, b'\0'))
    for i, v in words.items():
        b[2 * i:2 * i + 2] = struct.pack('<h', v)
    return bytes(b)

gen = [0] * 500
gen[95] = 21                    # format_version
gen[96] = 250                   # start_money
gen[41] = 16384                 # new_game_script: trigger 0 of LOOKUP1.BIN
gen[173] = 2                    # accept_sfx: sound effect 1 + 1
gen[2] = 1                      # title_music: song 0 + 1
gen[240] = 7                    # a word the engine leaves unused
genl = b'\xfd' + struct.pack('<hhh', -24576, 0, 1000) + w(*gen)
binsize = w(632, 84, 32, 34, 40, 56, 68, 126, 400, 30, 858, 744, 480)
items = b''.join(rec(480, {46: 10 * (i + 1), 47: 2, 210: 5}, t.bad_binstring(n, 8, 0))
                 for i, n in enumerate([b'Sword', b'Shield', b'Potion']))
hero = bytearray(rec(858, {22: 1, 47: 2, 292: 5, 296: 8}, t.bad_binstring(b'Bob', 16, 0)))
hero[2 * 301:2 * 301 + 4] = struct.pack('<f', 0.5)      # elemental0
enemy = rec(744, {24: 1, 58: 2, 79: 1, 92: 1, 367: 2}, t.bad_binstring(b'Slime', 16, 0))
def atk(name):
    return rec(80, {}, bytes(48) + t.bad_binstring(name, 10, 0)[:2] + b'\0\0' + t.bad_binstring(name, 10, 0)[2:])
tags = b''.join(t.bad_binstring(n, 20, 0) for n in [b'', b'', b'', b'', b'', b'Hero joined'])
sfx = b''.join(t.binstring(n, 30, 0) + b'\0\0' for n in [b'Click', b'Boom'])
songs = t.binstring(b'Theme', 30, 0)
lumps = [('ARCHINYM.LMP', b'gamefs\ntestgame\n'), ('GAMEFS.GEN', genl), ('BINSIZE.BIN', binsize),
         ('GAMEFS.ITM', items), ('GAMEFS.DT0', bytes(hero)), ('GAMEFS.DT1', enemy),
         ('GAMEFS.DT6', atk(b'Cut') + atk(b'Fire')), ('ATTACK.BIN', rec(632, {59 - 40: 1, 65 - 40: 1})),
         ('GAMEFS.TMN', tags), ('SFXDATA.BIN', sfx), ('SONGDATA.BIN', songs),
         ('GAMEFS.FOR', rec(80, {0: 1, 33: 1, 36: -5})),
         ('GAMEFS.EFS', rec(50, {1: 1})),
         ('PLOTSCR.LST', t.script_list([b'hello'], [1])), ('LOOKUP1.BIN', t.script_list([b'hello'], [1])),
         ('FIXBITS.BIN', b'\x05\x00\x00\x00')]
with open(sys.argv[2], 'wb') as f:
    for name, body in lumps:
        f.write(t.lump_bytes(name, body))
PY
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
H=m/heroes/000.ini; I=m/items/000.ini; E=m/enemies/000.ini
check_eq "default_weapon = 1 ; Shield" "$(grep '^default_weapon ' $H)" "hero: an item by its name"
check_eq "spell0_attack = 2 ; Fire" "$(grep '^spell0_attack ' $H)" "hero: an attack +1"
check_eq "have_tag = 5 ; Hero joined" "$(grep '^have_tag ' $H)" "hero: a tag"
check_eq "max_name_length = 8 elemental0 = 0.5" "$(grep -E '^(elemental0|max_name_length) ' $H | tr '\n' ' ' | sed 's/ $//')" \
	"hero: the engine's fields past the spells"
check_eq "value = 10 battle_attack = 2 ; Fire stack_size = 5" \
	"$(grep -E '^(value|battle_attack|stack_size) ' $I | tr '\n' ' ' | sed 's/ $//')" "item"
check_eq "death_sound = 1 ; Click reward_item = 2 ; Potion spawn_on_death = 1 ; Slime regular_attack0 = 1 ; Cut bequest_attack = 2 ; Fire" \
	"$(grep -E '^(death_sound|reward_item|spawn_on_death|regular_attack0|bequest_attack) ' $E | tr '\n' ' ' | sed 's/ $//')" "enemy"
check_eq "tag0 = 1 bits4 = 1" "$(grep -E '^(tag0|bits4) ' m/attacks/000.ini | tr '\n' ' ' | sed 's/ $//')" "attack"
check_eq "slot0_enemy = 1 ; Slime music = 1 ; Theme victory_tag = -5 ; not Hero joined" \
	"$(grep -E '^(slot0_enemy|music|victory_tag) ' m/formations/000.ini | tr '\n' ' ' | sed 's/ $//')" "formation"
check_eq "formation0 = 1 ; formations/000.ini" "$(grep '^formation0 ' m/formation-sets/0000.ini)" "formation set"
check_eq "title_music = 1 ; Theme new_game_script = 16384 ; hello start_money = 250 accept_sfx = 2 ; Boom gen.240 = 7" \
	"$(grep -E '^(title_music|new_game_script|start_money|accept_sfx|gen.240) ' m/game/gen.ini | tr '\n' ' ' | sed 's/ $//')" "gen.ini"
check_eq "attack_items = 1 weap_points = 0 stun_cancel_targ = 1" "$(sed -n 3,5p m/game/fixbits.ini | tr '\n' ' ' | sed 's/ $//')" \
	"fixbits.ini"
check_eq 0 "$(cat m/items/*.ini m/heroes/*.ini | grep -c '^w[0-9]')" "no wNN in items, heroes"
check_eq "w321 w322 w341 w342 w343" "$(sed -n 's/^\(w[0-9]*\) .*/\1/p' m/attacks/000.ini | tr '\n' ' ' | sed 's/ $//')" \
	"attacks: wNN only where the engine reads nothing"
check_eq 0 "$(grep -c '^gen\.[01]' m/game/gen.ini)" "gen.ini: every word below 237 named"

# unchanged write-back: nothing changes
n=0
for f in $(cd m && find heroes items enemies attacks formations formation-sets -name '*.ini'); do
	cat "m/$f" >v.ini && cat v.ini >"m/$f" || fail "write back $f"
	n=$((n + 1))
done
gfs_umount m || fail "unmount"
cmp g.rpg orig.rpg || fail "$n views written back unchanged changed the archive"

# a reference is read back as its number; what follows ';' is ignored
gfs_mount g.rpg m || fail "remount"
sed -i 's/^default_weapon = .*/default_weapon = 2 ; anything/; s/^elemental1 = .*/elemental1 = 2.25/' $H || fail "sed hero"
check_eq "default_weapon = 2 ; Potion" "$(grep '^default_weapon ' $H)" "the name follows the number"
sed -i 's/^bequest_attack = .*/bequest_attack = 0/' $E || fail "sed enemy"
cp g.rpg before.rpg
cp $H good.ini
for bad in 'no_such_key = 1' 'default_weapon = abc' 'default_weapon = 40000' 'default_weapon = ; Shield' \
	'default_weapon = 1.5' 'default_weapon = 5x ; Shield'; do
	sed "s/^default_weapon = .*/$bad/" good.ini >h.ini
	check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('h.ini', '$H')")" "refused: $bad"
done
grep -qF "heroes/000.ini: line" "$T/gamefs.log" || fail "the refusal names the view and the line"
check_eq "default_weapon = 2 ; Potion" "$(grep '^default_weapon ' $H)" "refusals changed nothing"
gfs_umount m || fail "unmount after edits"
python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "bytes after the edits"
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
want = {k: bytearray(v) for k, v in a.items()}
want['GAMEFS.DT0'][44:46] = struct.pack('<h', 2)
want['GAMEFS.DT0'][2 * 303:2 * 303 + 4] = struct.pack('<f', 2.25)
want['GAMEFS.DT1'][2 * 367:2 * 367 + 2] = struct.pack('<h', 0)
for k in a:
    assert bytes(want[k]) == b[k], k
print('default_weapon', struct.unpack_from('<h', b['GAMEFS.DT0'], 44)[0])
PY

# the corpus: at most 5% of the keys of its record INIs unnamed
dir=$(corpus rpg) || { echo "ok (no corpus)"; exit 0; }
: >keys.txt
for f in "$dir"/*.rpg; do
	b=$(basename "$f")
	cp "$f" "$b" && chmod 644 "$b"
	gfs_mount "$b" c -o ro || fail "mount $b"
	(cd c && find . -name '*.ini' -exec cat {} + ) | sed -n 's/^\([A-Za-z_][^ =]*\) *=.*/\1/p' >k.txt
	all=$(wc -l <k.txt); un=$(grep -cE '^(w[0-9]+|gen\.[0-9]+)$' k.txt)
	note "$b: $un of $all keys unnamed"
	cat k.txt >>keys.txt
	gfs_umount c || fail "unmount $b"
	rm -f "$b"
done
all=$(wc -l <keys.txt); un=$(grep -cE '^(w[0-9]+|gen\.[0-9]+)$' keys.txt)
note "corpus: $un of $all keys unnamed"
[ $((un * 100)) -le $((all * 5)) ] || fail "corpus: $un of $all keys unnamed, more than 5%"
echo ok
