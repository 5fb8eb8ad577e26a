#!/bin/sh
# Atlases written back are decoded whole and must hold every frame drawn from
# them: a PNG with a garbage image chunk and a 16x16 atlas that sprites read
# past both fail with EINVAL, the archive stays, and `check` reports an
# archive whose atlas is too small.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
$P write g.tng || fail "write"
cp g.tng orig.tng
python3 - <<'PY'
import struct, zlib
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
def png(w, h, idat=None):
    raw = b''.join(b'\0' + b'\x80' * (w * 4) for _ in range(h))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0)) +
            chunk(b'IDAT', idat if idat is not None else zlib.compress(raw)) + chunk(b'IEND', b''))
open('small.png', 'wb').write(png(16, 16))
open('garbage.png', 'wb').write(png(64, 32, b'\x78\x9c garbage, not deflate'))
open('ok.png', 'wb').write(png(64, 32))
PY
gfs_mount g.tng m || fail "mount"
check_eq EINVAL "$(errno_of "f=open('m/atlases/0000.png','wb'); f.write(open('garbage.png','rb').read()); f.close()")" "garbage image chunk"
check_eq EINVAL "$(errno_of "f=open('m/atlases/0000.png','wb'); f.write(open('small.png','rb').read()); f.close()")" "atlas too small"
grep -q "past the 16x16 atlas" m/.gamefs.log || fail "the log does not say why: $(cat m/.gamefs.log)"
cmp small.png m/atlases/0000.png.rejected || fail "refused atlas not kept as .rejected"
cp ok.png m/atlases/0000.png || fail "an atlas of the same size"
gfs_umount m || fail "unmount"
"$GAMEFS" check g.tng >/dev/null || fail "check after a good atlas"

# an archive whose atlas is already too small: check says so
$P write bad.tng --bad smallatlas || fail "write smallatlas"
"$GAMEFS" check bad.tng >check.out 2>&1; check_eq 1 $? "check status of a too small atlas"
grep -q "past the 8x8 atlas" check.out || fail "check says: $(cat check.out)"
echo ok
