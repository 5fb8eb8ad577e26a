#!/bin/sh
# The corpus games (written from the spec by an independent writer): they
# load, check clean, show every asset byte for byte as the python reader
# sees it, and a mount without edits leaves them byte-identical.
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
		 maps/cave/layer10.csv sections/16-uielements.bin sections/33-tilesmeta.bin quests/0000.bin; do
		grep -q " $d\$" ls.out || fail "$b: $d missing from the tree"
	done
	gfs_mount "$b" m || fail "$b: mount"
	$P dump "$b" | while read -r k _ _; do
		case "$k" in
		fonts/*|music/*|sounds/*|movies/*|lang/*/speech/*)
			$P get "$b" "$k" >want; f=$(ls m/"$k".* | head -1)
			cmp want "$f" || { echo "$k"; exit 1; } ;;
		quests/*|npcs/*|objects/*|cutscenes/*)
			# the record's bytes before its scripts
			$P get "$b" "$k" >want; n=$(stat -c %s m/"$k".bin)
			head -c "$n" want | cmp - m/"$k".bin || { echo "$k"; exit 1; } ;;
		esac
	done || fail "$b: an asset differs from the python reader"
	# every script reads as assembly and writes back to the same bytes
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
