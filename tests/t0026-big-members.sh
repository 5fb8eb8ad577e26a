#!/bin/sh
# Archives and members past 2 GiB are checked and edited like small ones
# (issue 28, 6a).  590cbeb's check called them damaged ("cannot read: File
# too large") and an edit of the member failed with EFBIG: buffers stopped
# at 2 GiB.  A sparse OHRRPGCE lumped file with a lump of 2 GiB + 12345
# bytes: check is ok, a few bytes written in place land and the rest of the
# lump stays; a TirNanoG game with a 2.2 GB sound: check is ok.  Both need
# disk and memory (an edit is staged in a memfd): skipped without them.
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1
avail_kib() { df -Pk "$T" | awk 'NR == 2 {print $4}'; }
mem_kib() { awk '/MemAvailable/ {print $2}' /proc/meminfo; }
[ "$(avail_kib)" -gt $((8 << 20)) ] && [ "$(mem_kib)" -gt $((8 << 20)) ] ||
	{ echo "SKIP: needs 8 GiB free on $T and 8 GiB of memory"; exit 77; }

big=$(((2 << 30) + 12345))
python3 - $big <<'PY' || fail "write big.rpg"
import struct, sys
big = int(sys.argv[1])
pdp = lambda n: struct.pack('<HH', n >> 16, n & 0xffff)
with open('big.rpg', 'wb') as f:
    f.write(b'SMALL.TXT\0' + pdp(5) + b'hello' + b'BIG.BIN\0' + pdp(big))
    f.seek(big - 1, 1)		# a hole: sparse on disk
    f.write(b'Z' + b'TAIL.TXT\0' + pdp(3) + b'end')
PY
check_eq "-rw-r--r-- $big BIG.BIN" "$("$GAMEFS" ls big.rpg BIG.BIN | tr -s ' ')" "listing"
"$GAMEFS" check big.rpg >out 2>&1 || fail "check of a lump past 2 GiB: $(cat out)"
grep -q "^big.rpg: ok" out || fail "check says: $(cat out)"

gfs_mount big.rpg m || fail "mount"
printf 'EDITED' | dd of=m/BIG.BIN bs=1 seek=100 conv=notrunc 2>err || fail "an edit in place of a lump past 2 GiB: $(cat err)"
gfs_umount m || fail "unmount"
data=31		# SMALL.TXT\0, its size, hello, BIG.BIN\0, its size
python3 - $big $data <<'PY' || fail "the edited lump"
import sys
big, data = int(sys.argv[1]), int(sys.argv[2])
f = open('big.rpg', 'rb')
f.seek(data + 90); got = f.read(20)
assert got == bytes(10) + b'EDITED' + bytes(4), got
f.seek(data + big - 1); assert f.read(1 + 9 + 4 + 3)[:1] == b'Z'
f.seek(0, 2); assert f.tell() == data + big + 9 + 4 + 3, f.tell()
PY
"$GAMEFS" check big.rpg >out 2>&1 || fail "check after the edit: $(cat out)"
rm -f big.rpg

# past 4 GiB: two lumps of 2 GiB + 12345 bytes, so the third starts where a
# 32-bit offset wraps; it reads and edits at its own place, not 4 GiB before
python3 - $big <<'PY' || fail "write big4.rpg"
import struct, sys
big = int(sys.argv[1])
pdp = lambda n: struct.pack('<HH', n >> 16, n & 0xffff)
with open('big4.rpg', 'wb') as f:
    for name in (b'ONE.BIN', b'TWO.BIN'):
        f.write(name + b'\0' + pdp(big))
        f.seek(big - 1, 1)
        f.write(b'Z')
    f.write(b'TAIL.TXT\0' + pdp(9) + b'the end.\n')
PY
"$GAMEFS" check big4.rpg >out 2>&1 || fail "check of a lump past 4 GiB: $(cat out)"
gfs_mount big4.rpg m || fail "mount past 4 GiB"
check_eq "the end." "$(cat m/TAIL.TXT)" "a lump past 4 GiB read"
sed -i 's/the end/THE END/' m/TAIL.TXT || fail "sed -i on a lump past 4 GiB"
check_eq "THE END." "$(cat m/TAIL.TXT)" "the edit read back"
gfs_umount m || fail "unmount past 4 GiB"
python3 - $big <<'PY' || fail "the lump past 4 GiB in the archive"
import sys
big = int(sys.argv[1])
f = open('big4.rpg', 'rb')
at = 2 * (8 + 4 + big) + 9 + 4
assert at > 1 << 32
f.seek(at); got = f.read(20)
assert got == b'THE END.\n', got
f.seek(8 + 4 + big - 1); assert f.read(1) == b'Z'
PY
rm -f big4.rpg

P="python3 $top_srcdir/tests/tng/tngpy.py"
$P write bigs.tng --sounds 1 --sound-size 2200000000 || fail "write a game with a 2.2 GB sound"
"$GAMEFS" check bigs.tng >out 2>&1 || fail "check of a game past 2 GiB: $(grep -v '^warning' out)"
grep -q "^bigs.tng: ok" out || fail "check of a game past 2 GiB says: $(grep -v '^warning' out)"
echo ok
