#!/bin/sh
# Every corpus .rpg (2000-era to modern, long names, empty lumps) mounts as a
# game, lists every lump in archive order under lumps/ with its exact bytes,
# and an untouched mount leaves the file as it was.
. "$top_srcdir/tests/lib.sh"
dir=$(corpus rpg) || exit 77
RPG="python3 $top_srcdir/tests/rpgtool.py"
n=0
for f in "$dir"/*.rpg; do
	b=$(basename "$f")
	cp "$f" "$T/$b"	# a private copy: the corpus stays read-only
	before=$(stat -c '%i %Y' "$T/$b")
	$RPG extract "$T/$b" "$T/ref-$b"
	gfs_mount "$T/$b" "$T/m" || fail "mount $b"
	$RPG game "$T/$b" || fail "$b: rpgtool finds no GEN lump"
	[ -d "$T/m/lumps" ] || fail "$b: a game without lumps/"
	want=$($RPG list "$T/$b" | cut -f1 | tr '\n' ' ')
	got=$(python3 -c 'import os,sys; print(" ".join(os.listdir(sys.argv[1])), end=" ")' "$T/m/lumps")
	check_eq "$want" "$got" "$b: lump order"
	diff -r "$T/ref-$b" "$T/m/lumps" >/dev/null || fail "$b: lump bytes differ"
	"$GAMEFS" check "$T/$b" >/dev/null || fail "$b: check"
	gfs_umount "$T/m" || fail "unmount $b"
	cmp "$f" "$T/$b" || fail "$b: untouched mount changed bytes"
	check_eq "$before" "$(stat -c '%i %Y' "$T/$b")" "$b: untouched mount rewrote"
	rm -rf "$T/ref-$b" "$T/$b"
	n=$((n + 1))
done
[ $n -gt 0 ] || fail "no corpus files"
echo "ok: $n corpus games"
