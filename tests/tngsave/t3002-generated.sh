#!/bin/sh
# Generated saves: player and server, with and without preview, zlib and raw
# deflate, CRC over the inflated or the compressed payload.  Untouched mounts
# change no byte; an edit keeps the wrapping, the CRC convention, the preview
# bytes and every other chunk.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tngsave/tngsave.py"

for kind in player server; do
for pv in --preview --no-preview; do
for wrap in zlib raw; do
for crc in inflated compressed; do
	what="$kind $pv $wrap $crc"
	s="$T/s.sav"
	if [ "$pv" = --preview ]; then $P mk "$s" --kind $kind --wrap $wrap --crc $crc
	else $P mk "$s" --kind $kind --wrap $wrap --crc $crc --no-preview; fi || fail "mk $what"
	cp "$s" "$T/orig.sav"
	"$GAMEFS" check "$s" >"$T/check" || fail "check $what"
	grep -q "over the $crc payload: ok" "$T/check" || fail "check names the $crc CRC ($what)"
	grep -q "payload: $wrap deflate" "$T/check" || fail "check names $wrap ($what)"
	gfs_mount "$s" "$T/m" || fail "mount $what"
	if [ "$pv" = --preview ]; then
		[ -f "$T/m/preview.png" ] && [ -f "$T/m/preview.ini" ] || fail "preview files ($what)"
	else
		[ ! -e "$T/m/preview.png" ] && [ ! -e "$T/m/preview.ini" ] || fail "no preview files ($what)"
	fi
	if [ $kind = server ]; then
		check_eq "alice bob carol" "$(ls "$T/m/users" | tr '\n' ' ' | sed 's/ $//')" "users ($what)"
		[ -f "$T/m/deny.txt" ] || fail "deny.txt ($what)"
	else
		check_eq "alice" "$(ls "$T/m/users")" "one user ($what)"
		[ ! -e "$T/m/deny.txt" ] || fail "no deny.txt ($what)"
	fi
	check_eq "0000.ini 0001.ini 0002.ini" "$(ls "$T/m/npcs" | tr '\n' ' ' | sed 's/ $//')" "npcs ($what)"
	check_eq "1.csv 4.csv" "$(ls "$T/m/maps" | tr '\n' ' ' | sed 's/ $//')" "maps ($what)"
	if [ $kind = server ]; then x=10-XTRA.bin; else x=08-XTRA.bin; fi
	check_eq "$x" "$(ls "$T/m/chunks")" "unknown chunk ($what)"
	find "$T/m" -type f -exec cat {} + >/dev/null || fail "read all ($what)"
	gfs_umount "$T/m" || fail "umount $what"
	cmp "$T/orig.sav" "$s" || fail "untouched mount changed bytes ($what)"

	# extract, then write every file back through a mount: no byte changes
	rm -rf "$T/x"
	"$GAMEFS" extract "$s" "$T/x" || fail "extract ($what)"
	gfs_mount "$s" "$T/m" -o commit=unmount || fail "mount for re-import ($what)"
	(cd "$T/x" && find . -type f ! -name trailing.bin) | while read -r f; do
		cp "$T/x/$f" "$T/m/$f" || fail "re-import $f ($what)"
	done
	gfs_umount "$T/m" || fail "umount after re-import ($what)"
	cmp "$T/orig.sav" "$s" || fail "extract + re-import changed bytes ($what)"

	# one edit: a global appended
	gfs_mount "$s" "$T/m" || fail "mount 2 $what"
	echo 1234 >>"$T/m/globals.txt" || fail "append global ($what)"
	gfs_umount "$T/m" || fail "umount 2 $what"
	$P dump "$s" >"$T/after" || fail "dump after edit ($what)"
	$P dump "$T/orig.sav" >"$T/before"
	check_eq "wrap: $wrap" "$(grep '^wrap:' "$T/after")" "wrapping kept ($what)"
	check_eq "crc: $crc" "$(grep '^crc:' "$T/after")" "CRC convention kept ($what)"
	check_eq "GLBL: 3 31 -2 46 0 -1 1234" "$(grep '^GLBL:' "$T/after")" "global appended ($what)"
	grep -v '^GLBL\|^chunk 0:' "$T/before" >"$T/b2"; grep -v '^GLBL\|^chunk 0:' "$T/after" >"$T/a2"
	diff "$T/b2" "$T/a2" || fail "other chunks changed ($what)"
	if [ "$pv" = --preview ]; then
		n=$(( $(od -An -tu4 -j36 -N4 "$T/orig.sav") + 32 ))
		cmp -n $n "$T/orig.sav" "$s" || fail "header and preview chunk not byte-identical ($what)"
	else
		cmp -n 32 "$T/orig.sav" "$s" || fail "header not byte-identical ($what)"
	fi
	"$GAMEFS" check "$s" >/dev/null || fail "check after edit ($what)"
done; done; done; done
echo ok
