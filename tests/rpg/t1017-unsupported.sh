#!/bin/sh
# Inputs gamefs does not mount are refused with what they are (issue 30,
# items 7 and 8): a legacy OHRRPGCE save (60000-byte slots, before RELOAD
# saves; 590cbeb said "zzt: ... not a ZZT world") and an unlumped .rpgdir
# folder (590cbeb: "not a regular file"), by ls, check and a mount alike;
# a .sav that is neither ZZT nor a legacy save says both.
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1

# refused CMD... : exit status of gamefs CMD..., its message in $T/err
refused() { "$GAMEFS" "$@" >/dev/null 2>"$T/err"; echo $?; }

python3 -c "
import struct
slot = lambda v: struct.pack('<h', v) + bytes(range(256)) * 234 + bytes(60000 - 2 - 256 * 234)
open('old.sav', 'wb').write(b''.join(slot(v) for v in (3, 3, 0, 3, 3)))
open('odd.sav', 'wb').write(struct.pack('<h', 0) + bytes(1000))
"
for cmd in ls check; do
	check_eq 2 "$(refused $cmd old.sav)" "$cmd of a legacy save"
	grep -q "old.sav: rpg: a legacy OHRRPGCE save (5 slots of 60000 bytes, from before RELOAD saves): gamefs does not mount it" err ||
		fail "$cmd of a legacy save: $(cat err)"
done
mkdir m
check_eq 1 "$(refused old.sav m)" "mount of a legacy save"
grep -q "a legacy OHRRPGCE save" err || fail "mount of a legacy save: $(cat err)"
mountpoint -q m && fail "a legacy save mounted"
check_eq 2 "$(refused ls odd.sav)" "a .sav of neither kind"
grep -q "odd.sav: rpg: not a ZZT save (first word 0, not -1) nor a legacy OHRRPGCE save (1002 bytes, not whole slots of 60000 bytes)" err ||
	fail "a .sav of neither kind: $(cat err)"
if dir=$(corpus rsav 2>/dev/null); then
	for f in "$dir"/legacy_*.sav; do
		check_eq 2 "$(refused ls "$f")" "ls $f"
		grep -q "a legacy OHRRPGCE save (5 slots of 60000 bytes" err || fail "$f: $(cat err)"
	done
fi

# an unlumped game: by its name, or by its archinym.lmp
mkdir game.rpgdir other
printf 'game\nversion\n' >game.rpgdir/archinym.lmp
cp game.rpgdir/archinym.lmp other/ARCHINYM.LMP
for cmd in ls check; do
	check_eq 2 "$(refused $cmd game.rpgdir)" "$cmd of a .rpgdir"
	grep -q "game.rpgdir: gamefs: an unlumped OHRRPGCE game (a folder of lumps): gamefs mounts lumped files; lump it first with OHRRPGCE's relump (relump game.rpgdir game.rpg), then mount that file" err ||
		fail "$cmd of a .rpgdir: $(cat err)"
done
check_eq 1 "$(refused game.rpgdir m)" "mount of a .rpgdir"
grep -q "relump game.rpgdir game.rpg" err || fail "mount of a .rpgdir: $(cat err)"
check_eq 2 "$(refused ls other)" "a folder holding ARCHINYM.LMP"
grep -q "relump other GAME.rpg" err || fail "a folder holding ARCHINYM.LMP: $(cat err)"
check_eq 2 "$(refused ls m)" "a plain folder"
grep -q "m: gamefs: a directory, not an archive" err || fail "a plain folder: $(cat err)"
echo ok
