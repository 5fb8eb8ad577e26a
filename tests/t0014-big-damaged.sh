#!/bin/sh
# A damaged TirNanoG game too big to check during the mount (over 16 MiB)
# is checked in the background: an edit's commit waits for the verdict, a
# bad CRC makes the mount read-only with a one-line reason (.gamefs.log,
# stderr), and the damaged file is never written over (unless -o force).
# A sound one takes two commits in one mount, and each keeps the CRCs right
# (the second combines its CRCs from the pass over the first's new file).
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
$P write good.tng --sounds 40 --sound-size 500000 || fail "write"
size=$(stat -c %s good.tng)
[ "$size" -gt $((16 << 20)) ] || fail "the game is only $size bytes"
python3 - <<'PY' || fail "flip"
d = bytearray(open("good.tng", "rb").read())
d[len(d) // 2] ^= 0x5a
open("bad.tng", "wb").write(d)
PY
cp bad.tng orig.tng

# damaged: the first commit is refused, the file stays as it was
gfs_mount bad.tng m || fail "mount"
snd=$(ls m/sounds | head -1)
[ -n "$snd" ] || fail "no sounds"
check_eq EROFS "$(errno_of "f=open('m/sounds/$snd','r+b'); f.write(b'OggS edited'); f.close()")" "edit of a damaged game"
grep -q "read-only from now on: the archive is damaged (header CRC" m/.gamefs.log || fail ".gamefs.log: $(cat m/.gamefs.log)"
check_eq EROFS "$(errno_of "open('m/sounds/$snd','r+b')")" "later opens for writing"
gfs_umount m
cmp bad.tng orig.tng || fail "damaged game rewritten"
grep -q "damaged (header CRC" "$T/gamefs.log" || fail "stderr did not say why"
"$GAMEFS" check bad.tng >check.out 2>&1; check_eq 1 $? "check status"
grep -q "header CRC: .* BAD" check.out || fail "check says: $(cat check.out)"

# -o force writes it, with a right CRC
gfs_mount bad.tng m -o force || fail "mount force"
printf 'OggS forced' | dd of="m/sounds/$snd" conv=notrunc 2>/dev/null || fail "forced edit"
gfs_umount m || fail "umount force"
$P verify bad.tng >/dev/null || fail "CRCs after a forced commit"

# sound: two commits in one mount, CRCs right after each
cp good.tng before.tng
gfs_mount good.tng m || fail "mount good"
printf 'OggS one' | dd of="m/sounds/$snd" conv=notrunc 2>/dev/null || fail "first edit"
$P verify good.tng >/dev/null || fail "CRCs after the first commit"
printf 'OggS two' | dd of="m/sounds/$snd" bs=1 seek=100 conv=notrunc 2>/dev/null || fail "second edit"
$P verify good.tng >/dev/null || fail "CRCs after the second commit"
grep -q "damaged\|read-only" m/.gamefs.log && fail "sound game called damaged: $(cat m/.gamefs.log)"
gfs_umount m || fail "umount good"
"$GAMEFS" cat good.tng "sounds/$snd" | head -c 8 | grep -q "OggS one" || fail "first edit lost"
cmp before.tng good.tng >/dev/null && fail "nothing was written"
echo ok
