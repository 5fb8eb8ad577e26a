#!/bin/sh
# The corpus games (written from the spec by an independent writer): they
# load, check clean, show every asset byte for byte as the python reader
# sees it (records as INI with the same fields), every view written back
# unchanged and a mount without edits leave them byte-identical.
. "$top_srcdir/tests/lib.sh"
C=$(corpus tng) || exit 77
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
for g in "$C"/*.tng; do
	b=$(basename "$g")
	cp "$g" "$b" && chmod 644 "$b"
	"$GAMEFS" check "$b" >check.out 2>&1 || fail "$b: check: $(cat check.out)"
	grep -q "section CRC: ok" check.out || fail "$b: section CRC"
	grep -q "header CRC: .* ok" check.out || fail "$b: header CRC"
	"$GAMEFS" ls "$b" >ls.out || fail "$b: ls"
	for d in header.ini strings.txt lang/en/texts.txt fonts/ music/ sounds/ movies/ atlases/0000.png \
		 backs/0000.png sprites/chars/0000.txt sprites/chars/0000-north.png maps/village/map.ini \
		 maps/cave/layer10.csv sections/16-uielements.bin sections/33-tilesmeta.ini quests/0000.ini; do
		grep -q " $d\$" ls.out || fail "$b: $d missing from the tree"
	done
	gfs_mount "$b" m || fail "$b: mount"
	$P dump "$b" | while read -r k _ _; do
		case "$k" in
		fonts/*|music/*|sounds/*|movies/*|lang/*/speech/*)
			$P get "$b" "$k" >want; f=$(ls m/"$k".* | head -1)
			cmp want "$f" || { echo "$k"; exit 1; } ;;
		quests/*)
			# the record's fields: its title by index, with the text
			t=$($P get "$b" "$k" | python3 -c 'import sys; print(int.from_bytes(sys.stdin.buffer.read()[1:4], "little"))')
			grep -q "^title = $t ; " m/"$k".ini || { echo "$k"; exit 1; } ;;
		esac
	done || fail "$b: an asset differs from the python reader"
	# every record, section and script view writes back to the same bytes
	ls m/*/*.ini >views || fail "$b: no INI views"
	while read -r f; do
		cat "$f" >same && cp same "$f" || fail "$b: copy back $f"
	done <views
	ls m/*/*.tngs >scripts || fail "$b: no scripts"
	note "$b: $(wc -l <scripts) scripts, $(cat $(cat scripts) | grep -c '^	') instructions"
	while read -r f; do
		cat "$f" >same && cp same "$f" || fail "$b: copy back $f"
	done <scripts
	grep -q '^	#' $(cat scripts) && note "$b: some references have no name"
	cmp "$g" "$b" || fail "$b: writing the scripts back changed the game"
	check_eq "Demo Kaland ${b#demo}" "$(head -1 m/lang/hu/texts.txt).tng" "$b: title text"
	check_eq "Szia, utazó!" "$(sed -n 3p m/lang/hu/texts.txt)" "$b: UTF-8 text"
	check_eq "33" "$(wc -l <m/maps/cave/layer04.csv | tr -d ' ')" "$b: 32 rows + header"
	find m -type f -exec cat {} + >/dev/null || fail "$b: a view does not read"
	gfs_umount m || fail "$b: umount"
	cmp "$g" "$b" || fail "$b: untouched mount changed the file"
done
echo ok
