#!/bin/sh
# Corrupt layouts are refused with one message naming file, format, offset
# and reason; doubtful ones (fractional or far coordinates, chunks outside
# the atlas, a broken atlas) mount with the affected variants skipped and a
# log line; no prefix or bit flip of a layout crashes anything.
. "$top_srcdir/tests/lib.sh"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
cd "$T" || exit 1

$LAY gen G_.lay --atlas B.png
refused() { # KIND PATTERN
	$LAY bad "$1" B_.lay
	"$GAMEFS" check B_.lay >out 2>err
	rc=$?
	[ $rc -eq 1 ] || fail "$1: check exit $rc, want 1: $(cat err)"
	grep -q "B_.lay: lay: at 0x[0-9a-f]*: .*$2" err || fail "$1: message: $(cat err)"
	[ "$(wc -l <err)" -eq 1 ] || fail "$1: one message line: $(cat err)"
	gfs_mount B_.lay m && fail "$1: mounted"
	grep -q "$2" gamefs.log || fail "$1: mount message"
}
refused short "too short for the 8-byte header"
refused counts "9 sprites and 25 chunks need 516 bytes, the file has 476"
refused range "sprite 2: chunks 24..29 run past the 25-chunk list"
refused nan "chunk 3: dst_x is NaN"
refused inf "chunk 5: src_x is infinite"
refused badzlib "no valid zlib stream"
refused zlibcounts "the inflated layout has 496"
refused bigcounts "4294967295 sprites and 4294967295 chunks need"

skipped() { # KIND GREP-LOG VARIANTS-LEFT
	$LAY bad "$1" B_.lay
	: >gamefs.log
	gfs_mount B_.lay m || fail "$1: mount"
	[ -z "$2" ] || grep -q "$2" gamefs.log || fail "$1: log line: $(cat gamefs.log)"
	check_eq "$3" "$(ls m/variants | wc -l)" "$1: variants left"
	[ "$3" -eq 0 ] || cat m/variants/* >/dev/null || fail "$1: reading the variants left"
	cp B_.lay before
	gfs_umount m || fail "$1: unmount"
	cmp B_.lay before || fail "$1: rewritten"
}
skipped frac "variant b1 skipped: chunk 0 has fractional" 2
skipped outside "variant s1 skipped: chunk 12 src 4001,33 is outside the 256x128 atlas" 6
skipped hugecanvas "no variants: canvas 10000097x10000063 exceeds the limits" 0
skipped badtype "" 8
"$GAMEFS" cat B_.lay sprites.csv | grep -q "^1,0x99,1,0,0,12,2$" || fail "unknown sprite type kept"

# a broken or oversized atlas: the layout mounts, no variants, a note
cp B.png good.png
echo "not a png" >B.png
gfs_mount B_.lay m || fail "mount with a broken atlas"
grep -qx "note = B.png is not a PNG: no variants" m/layout.ini || fail "note for a broken atlas"
check_eq 0 "$(ls m/variants | wc -l)" "variants from a broken atlas"
cp good.png m/atlas.png || fail "replace the broken atlas"
check_eq 8 "$(ls m/variants | wc -l)" "variants once the atlas is fixed"
gfs_umount m || fail "unmount"
cmp B.png good.png || fail "fixed atlas written"
python3 - <<'PY'
import struct, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open("B.png", "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16384, 16384, 8, 6, 0, 0, 0))
                          + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))
PY
"$GAMEFS" cat B_.lay layout.ini 2>/dev/null | grep -q "^note = B.png is 16384x16384, over the limits" || fail "note for a huge atlas"
# an atlas whose header is fine but whose data is not: the variant read fails, nothing crashes
head -c 3000 good.png >B.png
gfs_mount B_.lay m || fail "mount with a truncated atlas"
# (the core shows a failed render as an empty file)
check_eq 0 "$(cat m/variants/b1.png m/variants/s1.png 2>/dev/null | wc -c)" "variant from a truncated atlas"
check_eq 1 "$(grep -c "does not decode" gamefs.log)" "one log line for an undecodable atlas"
gfs_umount m || fail "unmount"

# every prefix and some bit flips: refused or loaded, never a crash
$LAY gen small.lay --tail 3
$LAY gen smallz.lay --compressed
cp good.png small.png
for f in small.lay smallz.lay; do
	size=$(stat -c %s $f)
	i=0
	while [ $i -lt "$size" ]; do
		head -c $i $f >cut.lay
		"$GAMEFS" check cut.lay >/dev/null 2>&1
		rc=$?
		[ $rc -le 2 ] || fail "$f cut at $i: exit $rc"
		i=$((i + 7))
	done
done
python3 - <<'PY' || fail "bit flips"
import random, subprocess, sys, os
rnd = random.Random(5)
src = open("small.lay", "rb").read()
for n in range(150):
    d = bytearray(src)
    for _ in range(rnd.randint(1, 4)):
        d[rnd.randrange(len(d))] ^= 1 << rnd.randrange(8)
    open("flip.lay", "wb").write(d)
    os.system("cp small.png flip.png")
    r = subprocess.run([os.environ["GAMEFS"], "extract", "flip.lay", "fx%d" % n],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode < 0 or r.returncode > 2:
        sys.exit("flip %d: exit %d" % (n, r.returncode))
    subprocess.run(["rm", "-rf", "fx%d" % n])
PY
echo ok
