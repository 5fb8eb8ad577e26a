#!/bin/sh
# Records and sections as INI (tables on the core record codec): every
# record kind of the full game (choosers, cutscenes, spawners, NPCs,
# dialogs, objects, crafting, quests) and the sections UI elements,
# equipment slots, attributes and tiles meta have a golden listing and no
# .bin left; every view written back unchanged leaves the game
# byte-identical; sed edits of fields, added and removed repeated groups
# change exactly those bytes (checked with the python reader); the scripts
# still join their records; bad edits are EINVAL naming the file, line and
# key, with the archive untouched.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
. "$top_srcdir/tests/tng/edits.sh"
cd "$T" || exit 1

$P write f.tng --full || fail "write --full"
cp f.tng orig.tng

"$GAMEFS" ls f.tng | grep -E ' (sections|attributes|choosers|cutscenes|crafts|spawners|npcs|dialogs|quests|objects)/' >ls.out
cat >golden <<'GOLD'
drwxr-xr-x          0 sections/
-rw-r--r--        958 sections/16-uielements.ini
-rw-r--r--       1251 sections/17-mainmenu.ini
-rw-r--r--        984 sections/18-hud.ini
-rw-r--r--        195 sections/19-equipslots.ini
-rw-r--r--        613 sections/20-alerts.ini
-rw-r--r--        609 sections/21-credits.ini
-rw-r--r--        494 sections/33-tilesmeta.ini
drwxr-xr-x          0 attributes/
-rw-r--r--        756 attributes/attributes.ini
-rw-r--r--         75 attributes/gold.on_change.tngs
-rw-r--r--         35 attributes/power.expression.tngs
drwxr-xr-x          0 choosers/
-rw-r--r--        758 choosers/class.ini
drwxr-xr-x          0 cutscenes/
-rw-r--r--        391 cutscenes/intro_scene.ini
-rw-r--r--         49 cutscenes/intro_scene.script.tngs
drwxr-xr-x          0 crafts/
-rw-r--r--        778 crafts/forge.ini
drwxr-xr-x          0 spawners/
-rw-r--r--        414 spawners/0000.ini
drwxr-xr-x          0 npcs/
-rw-r--r--        567 npcs/guard.ini
-rw-r--r--         49 npcs/guard.on_click.tngs
-rw-r--r--         41 npcs/guard.on_timer.tngs
drwxr-xr-x          0 dialogs/
-rw-r--r--        458 dialogs/greet.ini
drwxr-xr-x          0 quests/
-rw-r--r--        350 quests/rescue.ini
-rw-r--r--         37 quests/rescue.on_complete.tngs
drwxr-xr-x          0 objects/
-rw-r--r--         26 objects/index.csv
-rw-r--r--       2469 objects/0000.ini
-rw-r--r--         36 objects/0000.on_click.tngs
GOLD
diff -u golden ls.out || fail "golden listing"
"$GAMEFS" ls f.tng | grep '\.bin$' && fail "opaque files left in the full game"

cat >golden <<'GOLD'
; texts are text indices (the first language's text follows ';'); names are those of
; the media, attributes...; sprites are CATEGORY/INDEX; #N: a value with no name
; [answer N]: one per answer option
[dialog]
title = 2 ; Hello there
text = 3 ; Line with \ backslash
speech = -1
portrait = chars/0
portrait_side = right

[answer 0]
require_attribute = 
require_relation = eq
require_value = 0
provide_attribute = 
provide_value = 0
speech = 
text = 5 ; Bye
GOLD
"$GAMEFS" cat f.tng dialogs/greet.ini | diff -u golden - || fail "dialogs/greet.ini"
cat >golden <<'GOLD'
[option 1]
position = 13
keep_running = 1
; three UI sprites; at position 13 a rectangle: rect X1 Y1 X2 Y2 in percent
area = rect 10 20 90 80
require1 = 
require1_value = 0
require2 = 
require2_value = 0
provide = 
provide_value = 0
GOLD
"$GAMEFS" cat f.tng choosers/class.ini | sed -n '/^\[option 1\]/,$p' | diff -u golden - || fail "chooser option 1"
check_eq "area = ui/0 -1 -1|require1 = hp|provide = local:b" \
	"$("$GAMEFS" cat f.tng choosers/class.ini | grep -E '^(require1|provide|area) = .' | head -3 | paste -sd'|')" \
	"chooser option 0: an attribute, a local variable, three UI sprites"
check_eq "row = 0 1 0|row = 1 1 1" "$("$GAMEFS" cat f.tng objects/0000.ini | grep '^row' | paste -sd'|')" \
	"object collision mask"

# every view written back unchanged: the same game, byte for byte
gfs_mount f.tng m || fail "mount"
find m -type f -perm -u+w ! -name '.*' >views
check_eq 87 "$(wc -l <views | tr -d ' ')" "editable files of the full game"
while read -r f; do
	cat "$f" >same && cp same "$f" || fail "copy back $f"
done <views
gfs_umount m || fail "umount"
cmp orig.tng f.tng || fail "writing every view back changed the game"

# edits: fields with sed, a group element added and one removed, on every kind
gfs_mount f.tng m || fail "mount for edits"
# media a record or a section names cannot be removed or renamed (no script plays these)
check_eq EBUSY "$(errno_of "os.rename('m/fonts/main.sfn', 'm/fonts/other.sfn')")" "a font the UI elements name"
grep -qF "main.sfn: sections/16-uielements.ini refers to it by its name" gamefs.log ||
	fail "the log names section 16"
printf '\n[answer 1]\nrequire_attribute = gold\nrequire_relation = ge\nrequire_value = 7\nspeech = voice_bye\ntext = 2\n' \
	>>m/dialogs/greet.ini || fail "a new answer option"
sed -i -e 's/^title = 2 ; Hello there$/title = 4/' -e 's/^text = 5 ; Bye$/text = 1/' m/dialogs/greet.ini ||
	fail "sed dialog"
grep -qx 'text = 1 ; English' m/dialogs/greet.ini || fail "the edited dialog reads back with its text"
sed -i -e 's/^speed = 100$/speed = 150/' -e '/^\[item 0\]$/,/^$/d' m/npcs/guard.ini || fail "sed npc"
grep -q '^\[item' m/npcs/guard.ini && fail "the NPC's item is still there"
cat m/npcs/guard.on_click.tngs >/dev/null || fail "the NPC's handler after its INI edit"
printf '\tPUSH8 4\n\tEND\n; end\n' >m/npcs/guard.on_touch.tngs || fail "a new handler after the INI edit"
sed -i 's/^area = rect 10 20 90 80$/area = rect 5 6 95 96/' m/choosers/class.ini || fail "sed chooser"
sed -i -e 's/^ingredient3 = none$/ingredient3 = 2 chars\/0/' -e 's/^order = matters$/order = irrelevant/' \
	m/crafts/forge.ini || fail "sed craft"
printf '\n[subtitle 0]\nstart = 10\nend = 200\ncolor = 0xffffffff\nx = 50\ny = 90\nalign = center\nfont = main\ntext = 2\n' \
	>>m/cutscenes/intro_scene.ini || fail "a new subtitle"
sed -i 's/^max_npcs = 5$/max_npcs = 9/' m/spawners/0000.ini || fail "sed spawner"
sed -i 's/^global = 0$/global = 1/' m/quests/rescue.ini || fail "sed quest"
python3 - m/objects/0000.ini <<'PY' || fail "object mask and sound"
import sys
t = open(sys.argv[1]).read()
t = t.replace("row = 0 1 0", "row = 1 1").replace("row = 1 1 1", "row = 0 1").replace("\nsound = door", "\nsound = step")
open(sys.argv[1], "w").write(t)
PY
check_eq EBUSY "$(errno_of "os.unlink('m/sounds/step.ogg')")" "a sound the object names"
grep -qF "step.ogg: objects/0000.ini refers to it" gamefs.log || fail "the log names the object"
sed -i 's/PUSH8 100/PUSH8 77/' m/attributes/gold.on_change.tngs || fail "sed on-change handler"
printf '\n[attribute 3]\nkind = global_calculated\nname = rescue\ntitle = 5\n' >>m/attributes/attributes.ini ||
	fail "a new attribute"
check_eq "$(printf '\tEND\n; end')" "$(cat m/attributes/rescue.expression.tngs)" "the new attribute's expression"
printf '\tPUSHA gold\n\tEND\n; end\n' >m/attributes/rescue.expression.tngs || fail "write the new expression"
sed -i 's/^left = 3$/left = 33/' m/sections/19-equipslots.ini || fail "sed equipment slot"
sed -i 's/^walk_speed = 80$/walk_speed = 85/' m/sections/33-tilesmeta.ini || fail "sed tiles meta"
sed -i 's/^color = 0xff111111$/color = 0x80112233/' m/sections/16-uielements.ini || fail "sed UI colour"
gfs_umount m || fail "umount after edits"
edited_only "choosers/0000 crafts/0000 cutscenes/0000 dialogs/0000 npcs/0000 objects/0000 quests/0000 sections/16 sections/19 sections/25 sections/33 spawners/0000"
python3 - orig.tng f.tng "$top_srcdir/tests/tng" <<'PY' || fail "edited bytes"
import struct, sys
sys.path.insert(0, sys.argv[3])
from tngpy import u24, compare
old, new, s, same = compare(sys.argv[1], sys.argv[2])

d = bytearray(old["dialogs/0000"])
d[0:3] = u24(4)
d[13] = 2
d[14 + 18:14 + 21] = u24(1)
d += u24(s("gold")) + bytes([2]) + struct.pack("<i", 7) + u24(0) + bytes(4) + u24(s("voice_bye")) + u24(2)
same("dialogs/0000", d)
p = bytearray(old["npcs/0000"])
struct.pack_into("<H", p, 4, 150)
p[10] = 0
p[12] = 3
p = p[:21] + p[31:] + bytes([1]) + u24(0) + u24(3) + bytes([37, 4, 0])
same("npcs/0000", p)
c = bytearray(old["choosers/0000"])
c[10 + 31 + 1:10 + 31 + 5] = bytes([5, 6, 95, 96])
same("choosers/0000", c)
c = bytearray(old["crafts/0000"])
c[12] = 1
c[14 + 4 + 12:14 + 4 + 16] = struct.pack("<HH", 2, 0)
same("crafts/0000", c)
c = bytearray(old["cutscenes/0000"])
c[16] = 1
sub = u24(10) + u24(0) + u24(0) + u24(200) + struct.pack("<I", 0xFFFFFFFF) + bytes([50, 90, 1, 0, 0]) + u24(s("main")) + u24(2)
c = c[:21 + 19] + sub + c[21 + 19:]
same("cutscenes/0000", c)
c = bytearray(old["spawners/0000"])
c[0] = 9
same("spawners/0000", c)
c = bytearray(old["quests/0000"])
c[0] = 1
same("quests/0000", c)
c = bytearray(old["objects/0000"])
struct.pack_into("<HH", c, 3, 2, 2)
c = c[:39] + bytes([1, 1, 0, 1]) + c[45:]
c[39 + 4 + 96:39 + 4 + 99] = u24(s("step"))
same("objects/0000", c)
a = bytearray(old["sections/25"])
a[17] = 4
i = a.index(bytes([37, 100, 24]))
a[i + 1] = 77
a += bytes([4]) + u24(s("rescue")) + u24(5) + struct.pack("<H", 5) + bytes([35]) + u24(s("gold")) + bytes([0])
same("sections/25", a)
e = bytearray(old["sections/19"])
e[4] = 33
same("sections/19", e)
e = bytearray(old["sections/33"])
struct.pack_into("<H", e, 17 + 2, 85)
same("sections/33", e)
e = bytearray(old["sections/16"])
struct.pack_into("<I", e, 5, 0x80112233)
same("sections/16", e)
PY
cp f.tng edited.tng

# bad edits: EINVAL, the view reads back its last good content, the log says where, the game stays
gfs_mount f.tng m || fail "mount for bad edits"
bad_edit npcs/guard.ini "b'[npc]\\nbehaviour = 1\\nspeed = 70000\\n'" "NPC speed out of range" \
	"npcs/guard.ini: line 3: speed: '70000' is not in 0..65535"
bad_edit npcs/guard.ini "b'[npc]\\nmood = 3\\n'" "unknown key" "npcs/guard.ini: line 2: unknown key mood in [npc]"
bad_edit npcs/guard.ini "b'[npc]\\n[weapon 0]\\nsprite = chars/0\\n'" "unknown section" \
	"npcs/guard.ini: line 3: unknown section [weapon 0]"
bad_edit dialogs/greet.ini "b'[dialog]\\ntitle = 99\\n'" "text index that is not there" \
	"dialogs/greet.ini: line 2: title: '99' is not a text index"
bad_edit dialogs/greet.ini "b'[dialog]\\nportrait = chars/9\\n'" "sprite that is not there" \
	"dialogs/greet.ini: line 2: portrait: 'chars/9' is not a sprite"
bad_edit dialogs/greet.ini "b'[answer 3]\\ntext = 1\\n'" "answer out of order" "[answer 3] out of order"
bad_edit crafts/forge.ini "b'[craft]\\nsound = gong\\n'" "sound that is not there" \
	"crafts/forge.ini: line 2: sound: 'gong' is not the name of a sound"
bad_edit crafts/forge.ini "b'[recipe 0]\\ningredient0 = 70000 chars/0\\n'" "ingredient quantity" \
	"crafts/forge.ini: line 2: ingredient0"
bad_edit choosers/class.ini "b'[option 0]\\nposition = 14\\n'" "chooser position" \
	"choosers/class.ini: line 2: position: '14' is not in 0..13"
bad_edit objects/0000.ini "b'[mask 0]\\nrow = 1 1\\n[mask 1]\\nrow = 1\\n'" "mask rows of two lengths" \
	"objects/0000.ini: [mask 1] has 1 cells, [mask 0] 2"
bad_edit attributes/attributes.ini "b'[attribute 0]\\ndefault = 5\\n'" "default of a primary attribute" \
	"attributes/attributes.ini: [attribute 0]: only variables have a default"
bad_edit attributes/attributes.ini "b'[attribute 0]\\nname = nosuchname\\n'" "attribute name not a string" \
	"attributes/attributes.ini: line 2: name: 'nosuchname'"
bad_edit attributes/gold.on_change.tngs "b'\\tFOO\\n; end\\n'" "bad on-change handler" \
	"attributes/gold.on_change.tngs: line 1: unknown mnemonic 'FOO'"
bad_edit sections/33-tilesmeta.ini "b'[tile 0]\\nwalk_sound = gong\\n'" "tile sound" \
	"sections/33-tilesmeta.ini: line 2: walk_sound"
bad_edit sections/16-uielements.ini "b'[font 0]\\nsize = 256\\n'" "font size" \
	"sections/16-uielements.ini: line 2: size: '256'"
gfs_umount m || fail "umount after bad edits"
cmp edited.tng f.tng || fail "bad edits changed the game"

# a view drawn anew longer than it was written (the text's comment comes
# back) and appended to at once: the append goes to the end of the new view,
# not to the size the kernel last heard
n0=$(wc -l <gamefs.log)
gfs_mount f.tng m || fail "mount for the append"
sed -i 's/^title = 4 ; .*$/title = 3/' m/dialogs/greet.ini || fail "sed the title"
printf '; a note\n' >>m/dialogs/greet.ini || fail "append at once"
gfs_umount m || fail "umount after the append"
tail -n +$((n0 + 1)) gamefs.log | grep refused && fail "the append was refused"
"$GAMEFS" cat f.tng dialogs/greet.ini | grep -q '^title = 3 ; ' || fail "the title after the append"
echo ok
