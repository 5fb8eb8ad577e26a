#!/bin/sh
# A file manager sees it right: GIO (as GNOME Files uses it) lists the mount
# and reports content types and sizes.
. "$top_srcdir/tests/lib.sh"
command -v gio >/dev/null 2>&1 || { echo "SKIP: gio absent (libglib2.0-bin)"; exit 77; }

"$top_builddir/gamefs-mkdemo" "$T/demo.rpg"
gfs_mount "$T/demo.rpg" "$T/m" || fail "mount"
gio list "$T/m" >"$T/list" 2>"$T/err" || { cat "$T/err"; fail "gio list"; }
for f in ARCHINYM.LMP BROWSE.TXT OHRRPGCE.GEN EMPTY.BIN; do grep -qx "$f" "$T/list" || fail "gio list lacks $f"; done
gio info -a standard::content-type,standard::size "$T/m/BROWSE.TXT" >"$T/info" || fail "gio info"
grep -q "standard::content-type: text/plain" "$T/info" || fail "BROWSE.TXT is not text/plain: $(cat "$T/info")"
grep -q "standard::size: 63" "$T/info" || fail "gio size"
gio info -a standard::content-type "$T/m/EMPTY.BIN" | grep -q "content-type: application/x-zerosize" ||
	gio info -a standard::content-type "$T/m/EMPTY.BIN" | grep -q "content-type:" || fail "gio content type of EMPTY.BIN"
gio info -a standard::content-type "$T/m/PALETTES.BIN" | grep -q "content-type: application/octet-stream" ||
	fail "binary lump content type"
# copy in and out through GIO, as a file manager does
printf 'via gio\n' >"$T/new.txt"
gio copy "$T/new.txt" "$T/m/GIO.TXT" || fail "gio copy in"
gio copy "$T/m/BROWSE.TXT" "$T/out.txt" || fail "gio copy out"
grep -q "Demo Quest" "$T/out.txt" || fail "gio copy out content"
gfs_umount "$T/m" || fail "unmount"
check_eq "via gio" "$("$GAMEFS" cat "$T/demo.rpg" GIO.TXT)" "gio copy committed"
"$GAMEFS" ls "$T/demo.rpg" | grep -q goutputstream && fail "GIO temp file entered the archive"
echo ok
