#!/bin/sh
# Every corpus ZZT world and saved game shows exactly what it holds (grids,
# stats, code, board and world settings, checked against zztlib.py's own
# reader), and a mount without edits leaves it byte-identical and unwritten.
# The Weave save keeps the 12,043 bytes after its declared boards.  (The
# Super ZZT world is t4015's.)
. "$top_srcdir/tests/lib.sh"
dir=$(corpus zzt) || exit 77
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
n=0
for f in "$dir"/*; do
	b=$(basename "$f")
	case $b in *.szt|*.md) continue ;; esac
	cp "$f" "$T/$b"
	chmod 644 "$T/$b"
	before=$(stat -c '%i %Y' "$T/$b")
	"$GAMEFS" extract "$T/$b" "$T/x" || fail "$b: extract"
	$ZZT compare "$T/$b" "$T/x" || fail "$b: extracted tree differs from the world"
	"$GAMEFS" check "$T/$b" >"$T/check.out" || fail "$b: check: $(cat "$T/check.out")"
	gfs_mount "$T/$b" "$T/m" || fail "mount $b"
	diff -r -x .gamefs.log "$T/x" "$T/m" >/dev/null || fail "$b: mount and extract differ"
	gfs_umount "$T/m" || fail "unmount $b"
	cmp "$f" "$T/$b" || fail "$b: untouched mount changed bytes"
	check_eq "$before" "$(stat -c '%i %Y' "$T/$b")" "$b: untouched mount rewrote"
	rm -rf "$T/x" "$T/$b"
	n=$((n + 1))
done
[ $n -ge 15 ] || fail "only $n corpus worlds"

# extract, then write every editable file back through a mount: no byte changes
for b in TOWN30.ZZT lifeseed_SAVED.SAV dreamzzt_enigma.zzt; do
	cp "$dir/$b" "$T/$b"
	chmod 644 "$T/$b"
	"$GAMEFS" extract "$T/$b" "$T/x" || fail "$b: extract"
	gfs_mount "$T/$b" "$T/m" || fail "mount $b"
	(cd "$T/x" && find . -type f ! -name '*.png' | while read -r f; do
		cat "$f" >"$T/m/$f" || echo "$f" >>"$T/reimport-failed"
	done)
	[ -f "$T/reimport-failed" ] && fail "$b: writing back failed: $(cat "$T/reimport-failed")"
	gfs_umount "$T/m" || fail "unmount $b"
	cmp "$dir/$b" "$T/$b" || fail "$b: extract and re-import changed bytes"
	rm -rf "$T/x" "$T/$b"
done

# the Weave save: bytes after the boards are a file of their own
s="$dir/lifeseed_SAVED.SAV"
"$GAMEFS" cat "$s" trailing.bin >"$T/trail" || fail "trailing.bin"
check_eq 12043 "$(stat -c %s "$T/trail")" "Weave trailing bytes"
tail -c 12043 "$s" | cmp - "$T/trail" || fail "trailing.bin content"
"$GAMEFS" check "$s" | grep -q "more than ZZT itself loads" || fail "check names the oversized board"

# NumBoards 0: one board, the title screen
check_eq 1 "$("$GAMEFS" ls "$dir/playtest.ZZT" boards | grep -c '^d.*boards/[^/]*/$')" "playtest boards"

# the locked world: the saved-game flag shows and can be cleared
l="$T/lock.zzt"
cp "$dir/LOCK-SAV.ZZT" "$l"; chmod 644 "$l"
gfs_mount "$l" "$T/m" || fail "mount lock"
grep -qx 'saved = 1' "$T/m/world.ini" || fail "saved flag not shown"
sed -i 's/^saved = 1$/saved = 0/' "$T/m/world.ini" || fail "sed world.ini"
gfs_umount "$T/m" || fail "unmount lock"
cmp -l "$dir/LOCK-SAV.ZZT" "$l" >"$T/diff" || true
check_eq "265 1 0" "$(tr -s ' ' <"$T/diff" | sed 's/^ //')" "only the saved flag changed"
echo "ok: $n corpus worlds"
