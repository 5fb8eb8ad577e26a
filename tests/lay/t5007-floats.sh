#!/bin/sh
# Every finite float survives chunks.csv: 20000 random bit patterns
# (subnormals, -0, huge values) printed by gamefs, written back unchanged or
# respelled by another printer (%.17g of the double), leave the layout
# byte-identical.
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1
python3 - <<'PY'
import random, struct
rnd = random.Random(3)
vals = [0x80000000, 0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0x4b800001]
while len(vals) < 20000:
    b = rnd.getrandbits(32)
    if (b >> 23) & 0xff != 0xff:
        vals.append(b)
n = len(vals) // 4
d = struct.pack("<II", 1, n) + struct.pack("<BBBBII", 1, 0, 0, 0, 0, n)
d += b"".join(struct.pack("<I", v) for v in vals[:4 * n])
open("F_.lay", "wb").write(d)
PY
cp F_.lay orig.lay
gfs_mount F_.lay m || fail "mount"
cp m/chunks.csv same.csv
cp same.csv m/chunks.csv || fail "write back unchanged"
python3 - <<'PY' || fail "respell"
import struct
lines = open("same.csv").read().splitlines()
out = [lines[0]]
for l in lines[1:]:
    f = l.split(",")
    out.append(",".join([f[0]] + ["%.17g" % struct.unpack("<f", struct.pack("<f", float(v)))[0] for v in f[1:]]))
open("respelled.csv", "w").write("\n".join(out) + "\n")
PY
cmp -s same.csv respelled.csv && fail "respelling changed nothing"
cp respelled.csv m/chunks.csv || fail "write back respelled"
cmp m/chunks.csv same.csv || fail "view after respelling"
gfs_umount m || fail "unmount"
cmp F_.lay orig.lay || fail "floats changed bits"
echo ok
