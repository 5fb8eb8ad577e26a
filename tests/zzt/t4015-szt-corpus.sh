#!/bin/sh
# The corpus Super ZZT world (DreamZZT's monster.szt, 8 boards) mounts with
# the ZZT tree: what it shows agrees with sztlib.py's own reader, every
# board.png draws its board as Super ZZT does, check is clean, a mount
# without edits leaves it byte-identical and unwritten, and every editable
# file written back unchanged through a mount changes no byte.  Skipped
# when the corpus (or that world) is absent.
. "$top_srcdir/tests/lib.sh"
SZT="python3 $top_srcdir/tests/zzt/sztlib.py"
dir=$(corpus zzt) || exit 77
f="$dir/dreamzzt_monster.szt"
[ -f "$f" ] || { echo "SKIP: $f absent"; exit 77; }
cd "$T" || exit 1
cp "$f" w.szt
chmod 644 w.szt
"$GAMEFS" check w.szt >check.out || fail "check: $(cat check.out)"
grep -q '^Super ZZT world: 8 of 8 boards loaded' check.out || fail "check: $(cat check.out)"
"$GAMEFS" extract w.szt x || fail "extract"
$SZT compare w.szt x || fail "the tree differs from the world"
grep -q '^name = "MONSTER"$' x/world.ini || fail "world name"
check_eq "00-intro-screen 01-level-1 02-level-2 03-level-3 04-level-4 05-level-5 06-level-6 07-level-7" \
	"$(ls x/boards | tr '\n' ' ' | sed 's/ $//')" "boards"
if [ -f /usr/share/consolefonts/cp865-8x14.psf.gz ]; then
	$SZT render w.szt x || fail "board.png differs from Super ZZT's drawing"
else
	note "console-data not installed: board.png not compared"
fi
before=$(stat -c '%i %Y' w.szt)
gfs_mount w.szt m || fail "mount"
diff -r -x .gamefs.log x m >/dev/null || fail "mount and extract differ"
gfs_umount m || fail "unmount"
cmp "$f" w.szt || fail "an untouched mount changed bytes"
check_eq "$before" "$(stat -c '%i %Y' w.szt)" "an untouched mount rewrote the world"
gfs_mount w.szt m || fail "mount 2"
(cd x && find . -type f ! -name '*.png' | while read -r p; do
	cat "$p" >"$T/m/$p" || echo "$p" >>"$T/reimport-failed"
done)
[ -f "$T/reimport-failed" ] && fail "writing back failed: $(cat "$T/reimport-failed")"
gfs_umount m || fail "unmount 2"
cmp "$f" w.szt || fail "writing every file back changed bytes"
echo ok
