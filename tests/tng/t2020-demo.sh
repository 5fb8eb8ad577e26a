#!/bin/sh
# The README's demo (demo.sh, tests/tng/village.py): a game that looks like
# one.  demo.sh mounts it and every path it prints exists; the map is 16x16
# tiles of 32x32 pixels, bright and many-coloured (not a dark test strip),
# and Tiled draws the same picture from the TMX; the hero has a strip of
# walk frames in four directions; the elder has a dialog and an on-click
# script; music and sound are real Ogg Vorbis where oggenc is installed.
. "$top_srcdir/tests/lib.sh"
nfail=0
check() { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; nfail=$((nfail + 1)); fi; }
GFS_MOUNTS="$T/mnt"
GAMEFS="$GAMEFS" DEMO_DIR="$T" sh "$top_srcdir/demo.sh" >"$T/demo.out" 2>&1 || { cat "$T/demo.out"; fail "demo.sh"; }
m=$T/mnt
check "demo.sh mounted the demo" 'mountpoint -q "$m"'
for p in $(grep -o "$m/[^ ]*" "$T/demo.out" | sort -u); do
	check "demo.sh points at $p" 'ls $p >/dev/null 2>&1'
done
check "demo.sh ends by saying how to unmount" 'tail -1 "$T/demo.out" | grep -q "fusermount3 -u $m"'
check "32x32 tiles, 16x16 map" 'grep -q "^tile_width = 32$" "$m/header.ini" && grep -q "^tile_height = 32$" "$m/header.ini" &&
	grep -q "^map_size_log2 = 4$" "$m/header.ini"'
check "the map is 512x512" '[ "$(identify -format "%w %h" "$m/maps/village.png")" = "512 512" ]'
mean=$(convert "$m/maps/village.png" -format "%[fx:mean]" info:)
colours=$(identify -format "%k" "$m/maps/village.png")
check "the map is bright (mean $mean) and many-coloured ($colours colours)" \
	'awk "BEGIN { exit !($mean > 0.3) }" && [ "$colours" -ge 24 ]'
check "ground, water, path, bridge on layer 0; trees, house, wall on layer 1" \
	'tr , "\n" <"$m/maps/village/layer00.csv" | sort -u | tr "\n" " " | grep -q "^0 1 11 2 3 " &&
	 tr , "\n" <"$m/maps/village/layer01.csv" | grep -qx 5 && grep -q "4,4,4" "$m/maps/village/layer01.csv"'
check "the grass tile is green" '[ "$(convert "$m/sprites/tiles/0000-south.png" -format "%[fx:mean.g > mean.r && mean.g > mean.b]" info:)" = 1 ]'
check "the water tile is blue and has two frames" \
	'[ "$(convert "$m/sprites/tiles/0003-south.png" -format "%[fx:mean.b > mean.r && mean.b > mean.g]" info:)" = 1 ] &&
	 [ "$(identify -format "%w" "$m/sprites/tiles/0003-south.png")" = 64 ]'
for d in south west north east; do
	check "the hero walks $d: four 32x32 frames" '[ "$(identify -format "%w %h" "$m/sprites/chars/0000-$d.png")" = "128 32" ]'
done
check "east is west flipped, frame by frame" \
	'convert "$m/sprites/chars/0000-west.png" -crop 32x32 +repage -flop +append png:- |
	 compare -metric AE - "$m/sprites/chars/0000-east.png" null: 2>&1 | grep -qx 0'
check "the elder talks when clicked" 'grep -q "PUSHDLG welcome" "$m/npcs/elder.on_click.tngs" && grep -q "FNC2 dialog" "$m/npcs/elder.on_click.tngs"'
check "his dialog and its answers" 'grep -q "^text = 3 ; Welcome to Meadowbrook" "$m/dialogs/welcome.ini" && grep -c "^\[answer" "$m/dialogs/welcome.ini" | grep -qx 2'
check "the wanderer has a timer script" 'grep -q "FNC1 south" "$m/npcs/wanderer.on_timer.tngs"'
check "the map's NPCs are drawn" 'grep -q "0" "$m/maps/village/layer05.csv" && grep -q "1" "$m/maps/village/layer05.csv"'
if command -v oggenc >/dev/null && command -v ogginfo >/dev/null; then
	check "the music is Ogg Vorbis, stereo" 'ogginfo "$m/music/village_theme.ogg" >"$T/ogg" 2>&1 && grep -q "type vorbis" "$T/ogg" && grep -q "Channels: 2" "$T/ogg"'
	check "the sound is Ogg Vorbis, mono" 'ogginfo "$m/sounds/chime.ogg" >"$T/ogg" 2>&1 && grep -q "type vorbis" "$T/ogg" && grep -q "Channels: 1" "$T/ogg"'
else
	echo "# no oggenc/ogginfo: audio not checked"
fi
if command -v tmxrasterizer >/dev/null; then
	QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$T tmxrasterizer "$m/maps/village.tmx" "$T/tiled.png" >/dev/null 2>&1
	# within 2%: Tiled rounds the blend of the characters' half-transparent shadows otherwise
	ae=$(compare -fuzz 2% -metric AE "$T/tiled.png" "$m/maps/village.png" null: 2>&1)
	check "Tiled draws the TMX as maps/village.png ($ae pixels differ)" '[ "$ae" = 0 ]'
else
	echo "# no tmxrasterizer: Tiled not checked"
fi
check "the demo checks ok" '"$GAMEFS" check "$T/demo.tng" | tail -1 | grep -q ": ok$"'
fusermount3 -u "$m"
[ $nfail = 0 ] || fail "$nfail checks failed"
echo "all ok"
