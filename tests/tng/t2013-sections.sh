#!/bin/sh
# The last opaque sections and records as INI: the main menu (17, at its
# full length and intro-only), HUD (18), alerts (20), credits (21) and
# character options (27, an option ending in three lists) have golden
# views; each written back unchanged leaves the game byte-identical; sed
# edits of fields, added and removed group elements and list items change
# exactly those bytes (checked with the python reader); bad edits are
# EINVAL naming the file, line and key, with the archive untouched.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
. "$top_srcdir/tests/tng/edits.sh"
cd "$T" || exit 1

$P write f.tng --full || fail "write --full"
cp f.tng orig.tng
"$GAMEFS" ls f.tng | grep -E ' (sections/(17|18|20|21)-|charoptions/)' >ls.out
cat >golden <<'GOLD'
-rw-r--r--       1251 sections/17-mainmenu.ini
-rw-r--r--        984 sections/18-hud.ini
-rw-r--r--        613 sections/20-alerts.ini
-rw-r--r--        609 sections/21-credits.ini
drwxr-xr-x          0 charoptions/
-rw-r--r--        607 charoptions/face.ini
GOLD
diff -u golden ls.out || fail "golden listing"
"$GAMEFS" ls f.tng | grep -E '(1[78]|2[01])-.*\.bin|charoptions/.*\.bin' && fail "opaque files left"

cat >golden <<'GOLD'
; texts are text indices (the first language's text follows ';'); names are those of
; the media, attributes...; sprites are CATEGORY/INDEX; #N: a value with no name
; colors 0xAABBGGRR; [parallax N]: dx, dy, time and sprite of each background layer;
; [button N]: the buttons' colors and sprites
[mainmenu]
intro = intro_scene
music = theme
movie = 
background = backs/0
title_sprite = ui/0
show_title = 1
; 1: the background image or movie is not cropped
no_crop = 0
title_color = 0xff00ffff
title_shadow = 0x80000000
title_font_style = 1
title_font_size = 16
title_font = main
url = example.org
button_padding = 4
button_font_style = 0
button_font_size = 12
button_font = main
graph_color = 0xff00c000
graph_background = 0x40000000

[parallax 0]
dx = -2
dy = 0
time = 10
sprite = tiles/0

[parallax 1]
dx = 1
dy = 1
time = 20
sprite = tiles/1

[parallax 2]
dx = 0
dy = 0
time = 0
sprite = -1

[button 0]
color = 0xff202020
left = ui/0
background = ui/0
right = -1

[button 1]
color = 0xff202021
left = ui/0
background = -1
right = -1

[button 2]
color = 0xff202022
left = ui/0
background = ui/0
right = -1

[button 3]
color = 0xff202023
left = ui/0
background = -1
right = -1

[button 4]
color = 0xff202024
left = ui/0
background = ui/0
right = -1
GOLD
"$GAMEFS" cat f.tng sections/17-mainmenu.ini | diff -u golden - || fail "sections/17-mainmenu.ini"
cat >golden <<'GOLD'
; texts are text indices (the first language's text follows ';'); names are those of
; the media, attributes...; sprites are CATEGORY/INDEX; #N: a value with no name
; [progressbar N]: one per bar; value and max are attributes
[hud]
navigator = ui/0
action_buttons = ui/0
itembar_background = ui/0
itembar_foreground = ui/0
items = 8
item_width = 32
item_height = 32
item_left = 4
item_top = 4
item_gap = 2
item_handheld_gap = 6
; 0: the status bar is not combined with the item bar
combined = 1
statusbar_background = -1
statusbar_foreground = -1
inventory_icon = ui/0
inventory_pressed = ui/0
slot_width = 40
slot_height = 40
slot_left = 10
slot_top = 10
items_font_style = 0
items_font_size = 10
items_font = main
slot_background = ui/0
slot_selected = ui/0
equipment_background = ui/0

[progressbar 0]
type = 0
left = 10
top = 20
value = hp
max = power
sprite = ui/0
background = -1

[progressbar 1]
type = 1
left = 10
top = 30
value = gold
max = 
sprite = ui/0
background = ui/0
GOLD
"$GAMEFS" cat f.tng sections/18-hud.ini | diff -u golden - || fail "sections/18-hud.ini"
cat >golden <<'GOLD'
; texts are text indices (the first language's text follows ';'); names are those of
; the media, attributes...; sprites are CATEGORY/INDEX; #N: a value with no name
; times in 1/100 s; colors 0xAABBGGRR; [alert N]: one per alert, at least 3
[alerts]
font_style = 0
font_size = 14
font = main
display_time = 300
fade_in_end = 50
fade_out_start = 250

[alert 0]
color = 0xff0000ff
sound = 
text = 0 ; Fixture Game

[alert 1]
color = 0xff000100
sound = door
text = 1 ; English

[alert 2]
color = 0xff000101
sound = 
text = 2 ; Hello there

[alert 3]
color = 0xff000102
sound = door
text = 3 ; Line with \ backslash
GOLD
"$GAMEFS" cat f.tng sections/20-alerts.ini | diff -u golden - || fail "sections/20-alerts.ini"
cat >golden <<'GOLD'
; texts are text indices (the first language's text follows ';'); names are those of
; the media, attributes...; sprites are CATEGORY/INDEX; #N: a value with no name
; colors 0xAABBGGRR; [category N]: a category (gcdafmsvtp) and its authors, names of strings.txt
[credits]
music = theme
background = backs/0
header_color = 0xffffffff
header_font_style = 1
header_font_size = 20
header_font = main
names_color = 0xffc0c0c0
names_font_style = 0
names_font_size = 12
names_font = main

[category 0]
category = g
authors = alice bob

[category 1]
category = c
authors = carol

[category 2]
category = m
authors =
GOLD
"$GAMEFS" cat f.tng sections/21-credits.ini | diff -u golden - || fail "sections/21-credits.ini"
cat >golden <<'GOLD'
; texts are text indices (the first language's text follows ';'); names are those of
; the media, attributes...; sprites are CATEGORY/INDEX; #N: a value with no name
; [option N]: one per option; attributes = RELATION,ATTRIBUTE,VALUE ...;
; items = QUANTITY,SPRITE ...; sprites = SPRITE ... (the last the portrait)
[charoption]
name = 2 ; Hello there
palettes = chars/0

[option 0]
name = 3 ; Line with \ backslash
description = 4 ; Two lines
attributes = eq,hp,5 set,gold,-1
items = 3,chars/0
sprites = chars/0 portraits/0

[option 1]
name = 5 ; Bye
description = -1
attributes =
items =
sprites = chars/0
GOLD
"$GAMEFS" cat f.tng charoptions/face.ini | diff -u golden - || fail "charoptions/face.ini"

# the main menu disabled: three bytes, the intro cutscene alone
$P write s.tng --full --short-menu || fail "write --short-menu"
cat >golden <<'GOLD'
; the main menu is disabled: only the intro cutscene
[mainmenu]
intro = intro_scene
GOLD
"$GAMEFS" cat s.tng sections/17-mainmenu.ini | diff -u golden - || fail "the intro-only main menu"

# every view written back unchanged: the same game, byte for byte
gfs_mount f.tng m || fail "mount"
for f in sections/17-mainmenu.ini sections/18-hud.ini sections/20-alerts.ini sections/21-credits.ini \
	charoptions/face.ini; do
	cat "m/$f" >same && cp same "m/$f" || fail "copy back $f"
done
gfs_umount m || fail "umount"
cmp orig.tng f.tng || fail "writing the views back changed the game"

# edits: fields with sed, group elements added and removed, list items added and removed
gfs_mount f.tng m || fail "mount for edits"
sed -i -e 's/^movie = $/movie = intro/' -e 's/^no_crop = 0$/no_crop = 1/' -e 's/^dx = -2$/dx = -5/' \
	-e '/^\[button 3\]$/,/^$/s/^color = .*/color = 0x11223344/' m/sections/17-mainmenu.ini ||
	fail "sed main menu"
grep -qx 'movie = intro' m/sections/17-mainmenu.ini || fail "the main menu's movie reads back"
check_eq EBUSY "$(errno_of "os.unlink('m/movies/intro.ogv')")" "a movie the main menu plays"
grep -qF "intro.ogv: sections/17-mainmenu.ini refers to it" gamefs.log || fail "the log names section 17"
sed -i -e 's/^items = 8$/items = 9/' -e '/^\[progressbar 1\]$/,$d' m/sections/18-hud.ini || fail "sed HUD"
printf '[progressbar 1]\ntype = 2\nleft = 5\ntop = 6\nvalue = gold\nmax = hp\nsprite = ui/0\n\n[progressbar 2]\ntype = 3\n' \
	>>m/sections/18-hud.ini || fail "new progress bars"
sed -i -e 's/^display_time = 300$/display_time = 400/' -e '/^\[alert 3\]$/,$d' m/sections/20-alerts.ini ||
	fail "sed alerts"
sed -i -e 's/^authors = alice bob$/authors = alice/' -e 's/^authors = carol$/authors = carol bob/' \
	-e 's/^category = m$/category = a/' m/sections/21-credits.ini || fail "sed credits"
printf '\n[category 3]\ncategory = t\nauthors = alice\n' >>m/sections/21-credits.ini || fail "new credits category"
sed -i -e 's/^attributes = eq,hp,5 set,gold,-1$/attributes = eq,hp,5 set,gold,-1 gt,power,7/' \
	-e 's/^items = 3,chars\/0$/items =/' -e 's/^sprites = chars\/0$/sprites = portraits\/0 chars\/0/' \
	m/charoptions/face.ini || fail "sed character options"
grep -qx 'items =' m/charoptions/face.ini || fail "the emptied item list reads back"
gfs_umount m || fail "umount after edits"
edited_only "charoptions/0000 sections/17 sections/18 sections/20 sections/21"
python3 - orig.tng f.tng "$top_srcdir/tests/tng" <<'PY' || fail "edited bytes"
import struct, sys
sys.path.insert(0, sys.argv[3])
from tngpy import u24, compare
old, new, s, same = compare(sys.argv[1], sys.argv[2])

m = bytearray(old["sections/17"])
m[6:9] = u24(s("intro"))
m[43] |= 2
struct.pack_into("<h", m, 13, -5)
struct.pack_into("<I", m, 68 + 3 * 13, 0x11223344)
same("sections/17", m)
h = bytearray(old["sections/18"])
h[12] = 9
h[50] = 3
h = (h[:51 + 17] + bytes([2]) + struct.pack("<HH", 5, 6) + u24(s("gold")) + u24(s("hp")) + bytes(6) +
     bytes([3]) + bytes(16))
same("sections/18", h)
a = bytearray(old["sections/20"])
struct.pack_into("<H", a, 5, 400)
a[11] = 3
same("sections/20", a[:12 + 30])
c = bytearray(old["sections/21"])
c = (c[:24] + b"g" + struct.pack("<H", 1) + u24(s("alice")) + b"c" + struct.pack("<H", 2) + u24(s("carol")) +
     u24(s("bob")) + b"a" + struct.pack("<H", 0) + b"t" + struct.pack("<H", 1) + u24(s("alice")))
same("sections/21", c)
q = bytearray(old["charoptions/0000"])
opt0 = q[7:7 + 9]
opt0[6:9] = bytes([3, 0, 2])
opt0 += q[16:16 + 16] + bytes([3]) + u24(s("power")) + struct.pack("<i", 7) + q[16 + 16 + 4:16 + 16 + 4 + 6]
assert q[16 + 16 + 4:16 + 16 + 10] == bytes([2, 0, 0, 3, 0, 0]), q.hex()
opt1 = q[42:42 + 9]
opt1[8] = 2
same("charoptions/0000", q[:7] + opt0 + opt1 + bytes([3, 0, 0, 2, 0, 0]))
PY
cp f.tng edited.tng

# bad edits: EINVAL, the view reads back its last good content, the log says where, the game stays
gfs_mount f.tng m || fail "mount for bad edits"
bad_edit sections/17-mainmenu.ini "b'[mainmenu]\\nintro = nosuch\\n'" "a cutscene that is not there" \
	"sections/17-mainmenu.ini: line 2: intro: 'nosuch' is not the name of a cutscene"
bad_edit sections/17-mainmenu.ini "b'[mainmenu]\\n[parallax 1]\\ndx = 40000\\n'" "parallax dx out of range" \
	"sections/17-mainmenu.ini: line 3: dx: '40000' is not in -32768..32767"
bad_edit sections/17-mainmenu.ini "b'[parallax 3]\\ndx = 1\\n'" "a fourth parallax" \
	"sections/17-mainmenu.ini: line 2: unknown section [parallax 3]"
bad_edit sections/17-mainmenu.ini "b'[mainmenu]\\nlogo = ui/0\\n'" "unknown key" \
	"sections/17-mainmenu.ini: line 2: unknown key logo in [mainmenu]"
bad_edit sections/18-hud.ini "b'[hud]\\nitems = 256\\n'" "HUD items out of range" \
	"sections/18-hud.ini: line 2: items: '256' is not"
bad_edit sections/18-hud.ini "b'[progressbar 0]\\nvalue = nosuch\\n'" "an attribute that is not there" \
	"sections/18-hud.ini: line 2: value: 'nosuch' is not the name of an attribute"
bad_edit sections/20-alerts.ini "b'[alerts]\\n[alert 0]\\ntext = 1\\n[alert 1]\\ntext = 2\\n'" "two alerts" \
	"sections/20-alerts.ini: 2 alerts, want at least 3"
bad_edit sections/20-alerts.ini "b'[alerts]\\nvolume = 3\\n'" "unknown alerts key" \
	"sections/20-alerts.ini: line 2: unknown key volume in [alerts]"
bad_edit sections/20-alerts.ini "b'[alert 0]\\nsound = gong\\n'" "a sound that is not there" \
	"sections/20-alerts.ini: line 2: sound: 'gong' is not the name of a sound"
bad_edit sections/21-credits.ini "b'[category 0]\\ncategory = x\\n'" "credits category letter" \
	"sections/21-credits.ini: line 2: category: 'x' is not a category letter"
bad_edit sections/21-credits.ini "b'[category 0]\\nauthors = alice nosuch\\n'" "an author that is no string" \
	"sections/21-credits.ini: line 2: author: 'nosuch' is not the name of a string"
bad_edit charoptions/face.ini "b'[option 0]\\nattributes = eq,hp\\n'" "an attribute of two fields" \
	"charoptions/face.ini: line 2: attributes: 'eq,hp' is not RELATION,ATTRIBUTE,VALUE"
bad_edit charoptions/face.ini "b'[option 0]\\nitems = 256,chars/0\\n'" "item quantity out of range" \
	"charoptions/face.ini: line 2: quantity: '256'"
bad_edit charoptions/face.ini "b'[option 0]\\nsprites = chars/9\\n'" "a sprite that is not there" \
	"charoptions/face.ini: line 2: sprite: 'chars/9' is not a sprite"
gfs_umount m || fail "umount after bad edits"
cmp edited.tng f.tng || fail "bad edits changed the game"

# the intro-only main menu: its one key, the full menu's keys are not its own
gfs_mount s.tng m || fail "mount the intro-only game"
cp s.tng s0.tng
check_eq EINVAL "$(errno_of "f=open('m/sections/17-mainmenu.ini','wb'); f.write(b'[mainmenu]\\nmusic = theme\\n'); f.close()")" \
	"a full menu's key in the intro-only menu"
grep -qF "sections/17-mainmenu.ini: line 2: unknown key music in [mainmenu]" gamefs.log ||
	fail "the log names the key"
sed -i 's/^intro = intro_scene$/intro = -1/' m/sections/17-mainmenu.ini || fail "sed intro"
gfs_umount m || fail "umount the intro-only game"
python3 - s0.tng s.tng "$top_srcdir/tests/tng" <<'PY' || fail "the intro-only menu's bytes"
import sys
sys.path.insert(0, sys.argv[3])
import tngpy
o = dict(tngpy.Reader(open(sys.argv[1], "rb").read()).items())
n = dict(tngpy.Reader(open(sys.argv[2], "rb").read()).items())
assert n["sections/17"] == b"\xff\xff\xff", n["sections/17"].hex()
assert {k for k in n if n[k] != o.get(k)} == {"sections/17"}
PY
echo ok
