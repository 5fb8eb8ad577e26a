#!/bin/sh
# atlas.png is the companion image: discovered as NAME.png for NAME_.lay and
# NAME.lay or given with -o atlas=PATH; an edit is written back to that
# file atomically (temporary beside it, renamed), variants re-render, and
# bad images fail with EINVAL leaving the companion untouched.
. "$top_srcdir/tests/lib.sh"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
cd "$T" || exit 1

$LAY gen G_.lay --atlas G.png
set -- $($LAY pngsize G.png)
W=$1 H=$2
chmod 640 G.png
cp G_.lay lay.orig
cp G.png png.orig
: >.G.png.gamefs-Ab12Cd
gfs_mount G_.lay m || fail "mount"
cmp m/atlas.png G.png || fail "atlas.png is the companion"
check_eq "644" "$(stat -c %a m/atlas.png)" "atlas.png mode"
cat m/variants/b1.png >/dev/null

$LAY atlas new.png "$W" "$H" --seed 9
cp new.png m/atlas.png || fail "cp over atlas.png"
cmp G.png new.png || fail "companion not replaced on close"
[ -e .G.png.gamefs-Ab12Cd ] && fail "stale atlas temporary not removed by the mount"
check_eq "640" "$(stat -c %a G.png)" "companion mode kept"
cmp m/atlas.png new.png || fail "atlas.png reads the new image"
ls -a | grep -q '^\.G\.png\.gamefs-' && fail "temporary left beside the companion"
$LAY verify G_.lay new.png m/variants >v.out || fail "variants after the atlas edit: $(cat v.out)"
cmp G_.lay lay.orig || fail "layout content changed by an atlas edit"

# bad images: EINVAL, companion untouched, view reads back the last good one
echo "not a png" >bad.txt
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('bad.txt', 'm/atlas.png')")" "text as atlas"
$LAY atlas small.png 64 64
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('small.png', 'm/atlas.png')")" "atlas too small for the chunks"
head -c 2000 new.png >cut.png
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('cut.png', 'm/atlas.png')")" "truncated PNG"
python3 - <<'PY'
import struct, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open("huge.png", "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 60000, 60000, 8, 6, 0, 0, 0))
                             + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))
PY
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('huge.png', 'm/atlas.png')")" "atlas over the size limit"
cmp G.png new.png || fail "bad atlas edits touched the companion"
cmp m/atlas.png new.png || fail "atlas.png reads back its last good content"
ls -a | grep -q '^\.G\.png\.gamefs-' && fail "temporary left after a refused edit"

# a 16-bit RGB image is fine too
$LAY atlas rgb16.png "$W" "$H" --rgb16
cp rgb16.png m/atlas.png || fail "16-bit atlas"
$LAY verify G_.lay rgb16.png m/variants --only b1,t64_d1_1 >v.out || fail "16-bit atlas variants: $(cat v.out)"
gfs_umount m || fail "unmount"
cmp G.png rgb16.png || fail "companion after unmount"
cmp G_.lay lay.orig || fail "layout content changed"

# commit=unmount: the companion changes at unmount only
gfs_mount G_.lay m -o commit=unmount || fail "mount commit=unmount"
cp new.png m/atlas.png || fail "cp (commit=unmount)"
cmp -s G.png rgb16.png || fail "companion written before unmount"
cmp m/atlas.png new.png || fail "pending atlas visible"
gfs_umount m || fail "unmount commit=unmount"
cmp G.png new.png || fail "companion written at unmount"
"$GAMEFS" extract G_.lay x >/dev/null || fail "extract after the atlas edit"
$LAY verify G_.lay G.png x/variants >v.out || fail "variants after reload: $(cat v.out)"

# read-only mount
gfs_mount G_.lay m -o ro || fail "mount ro"
check_eq EROFS "$(errno_of "import shutil; shutil.copyfile('png.orig', 'm/atlas.png')")" "atlas edit on a ro mount"
gfs_umount m

# a companion without write permission is read-only
chmod 444 G.png
gfs_mount G_.lay m || fail "mount with a read-only atlas"
check_eq "444" "$(stat -c %a m/atlas.png)" "read-only companion"
check_eq "644" "$(stat -c %a m/chunks.csv)" "layout still editable"
gfs_umount m
chmod 644 G.png

# NAME.lay pairs with NAME.png; -o atlas=PATH writes back to PATH
cp lay.orig Plain.lay && cp png.orig Plain.png
"$GAMEFS" cat Plain.lay layout.ini | grep -qx "file = Plain.png" || fail "NAME.lay -> NAME.png"
mkdir sub && cp png.orig sub/elsewhere.png
gfs_mount Plain.lay m -o atlas=sub/elsewhere.png || fail "mount with atlas="
grep -qx "file = elsewhere.png" m/layout.ini || fail "atlas= used"
cp new.png m/atlas.png || fail "cp over atlas= atlas"
gfs_umount m || fail "unmount atlas="
cmp sub/elsewhere.png new.png || fail "atlas= companion written"
cmp Plain.png png.orig || fail "NAME.png touched with atlas="
"$GAMEFS" ls Plain.lay -o atlas=nope.png 2>err && fail "missing atlas= accepted"
grep -q "nope.png" err || fail "missing atlas= message: $(cat err)"
echo ok
