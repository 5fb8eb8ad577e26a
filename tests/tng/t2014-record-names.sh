#!/bin/sh
# Record files are named by the record's name: a plain word no other record
# of its kind has; anything else (a name two records share, all digits, a
# dot, a slash, a blank, non-ASCII, none) falls back to the record's number.
# Scripts follow their record's name, a new handler is created beside it,
# removing it works by that name, and messages (check's too) name the files by it.
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1

python3 - "$top_srcdir/tests/tng" <<'PY' || fail "write the game"
import struct, sys, zlib
sys.path.insert(0, sys.argv[1])
import tngpy
w = tngpy.Writer()
names = ["greet", "twin", "twin", "1234", "a.b", "x/y", "two words", "caf\xe9", None, "bye"]
dlg = bytes([0xff, 0xff, 0xff, 0, 0, 0, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0])
d = bytearray()
descs = []
for n in names:
    descs.append((len(d), w.asset(zlib.compress(dlg))))
    d += struct.pack("<QII", 0, 0, w.s(n) if n else 0)
w.section(30, d, descs)
# two NPCs without handlers: one named guard, one named with a dot (numbered)
npc = struct.pack("<3sBHHBBBBB", b"\xff\xff\xff", 1, 100, 50, 0, 0, 0, 0, 0)
d = bytearray(struct.pack("<QII", 0, 0, w.s("guard")) + struct.pack("<QII", 0, 0, w.s("x.y")))
w.section(28, d, [(0, w.asset(zlib.compress(npc))), (16, w.asset(zlib.compress(npc)))])
open("n.tng", "wb").write(b"".join(w.build()))
PY
cp n.tng orig.tng
names() { "$GAMEFS" ls n.tng "$1" | awk '{print $3}' | sed "s|^$1/||" | grep . | tr '\n' ' ' | sed 's/ $//'; }
check_eq "greet.ini 0001.ini 0002.ini 0003.ini 0004.ini 0005.ini 0006.ini 0007.ini 0008.ini bye.ini" \
	"$(names dialogs)" "dialog files: names, numbers where the name cannot be a file name"
check_eq "guard.ini 0001.ini" "$(names npcs)" "NPC files"

gfs_mount n.tng m || fail "mount"
printf '\tPUSH8 1\n\tEND\n; end\n' >m/npcs/guard.on_click.tngs || fail "a handler beside guard.ini"
printf '\tPUSH8 2\n\tEND\n; end\n' >m/npcs/0001.on_touch.tngs || fail "a handler beside 0001.ini"
check_eq EPERM "$(errno_of "open('m/npcs/nobody.on_click.tngs','w').close()")" "a handler of no record"
check_eq EPERM "$(errno_of "open('m/npcs/0000.on_click.tngs','w').close()")" "the number of a named record"
check_eq EINVAL "$(errno_of "open('m/npcs/guard.on_fly.tngs','w').close()")" "an unknown handler"
check_eq "guard.ini 0001.ini guard.on_click.tngs 0001.on_touch.tngs" "$(ls -U m/npcs | tr '\n' ' ' | sed 's/ $//')" \
	"handler files follow their record"
grep -q "nobody.on_click.tngs: only media" gamefs.log || fail "the log says what can be created"
gfs_umount m || fail "umount"
check_eq "guard.ini guard.on_click.tngs 0001.ini 0001.on_touch.tngs" "$(names npcs)" "after the commit"
"$GAMEFS" cat n.tng npcs/guard.on_click.tngs | grep -q 'PUSH8 1' || fail "guard's handler reads back"
"$GAMEFS" cat n.tng npcs/0001.on_touch.tngs | grep -q 'PUSH8 2' || fail "0001's handler reads back"

gfs_mount n.tng m || fail "mount 2"
rm m/npcs/guard.on_click.tngs || fail "remove guard's handler"
gfs_umount m || fail "umount 2"
check_eq "guard.ini 0001.ini 0001.on_touch.tngs" "$(names npcs)" "after removing a handler"
# check: every reference of every record resolves, else a warning names file, line and field
"$GAMEFS" check n.tng >check.out || fail "check: $(cat check.out)"
grep -qx 'warning: dialogs/greet.ini line 6: text = #0: a reference to something the game does not have' \
	check.out || fail "check names the dialog's text that is not there: $(cat check.out)"
grep -qx 'warning: dialogs/0001.ini line 8: portrait = #ui/0: a reference to something the game does not have' \
	check.out || fail "check names the portrait that is not there"
grep -q '^records and sections as INI: 12, references checked$' check.out || fail "records checked"

# the example of gamefs-formats.5: a dialog and a script of the full game edited with sed
python3 "$top_srcdir/tests/tng/tngpy.py" write game.tng --full || fail "write --full"
gfs_mount game.tng g || fail "mount the full game"
check_eq "$(printf 'text = 3 ; Line with \\ backslash\ntext = 5 ; Bye')" "$(grep '^text' g/dialogs/greet.ini)" \
	"the manual's dialog"
sed -i 's/^text = 5 ; Bye$/text = 1/' g/dialogs/greet.ini || fail "sed the dialog"
check_eq "$(printf '\tPUSHDLG greet\n\tPUSH16 0\n\tFNC2 dialog\n\tEND\n; end')" "$(cat g/npcs/guard.on_click.tngs)" \
	"the manual's script"
sed -i 's/PUSH16 0/PUSH16 300/' g/npcs/guard.on_click.tngs || fail "sed the script"
gfs_umount g || fail "umount the full game"
"$GAMEFS" cat game.tng dialogs/greet.ini | grep -qx 'text = 1 ; English' || fail "the dialog after the commit"
"$GAMEFS" cat game.tng npcs/guard.on_click.tngs | grep -qx '	PUSH16 300' || fail "the script after the commit"
"$GAMEFS" check game.tng >check.out || fail "check after the manual's edits: $(cat check.out)"
exit 0
