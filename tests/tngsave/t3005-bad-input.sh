#!/bin/sh
# Bad saves: refused with one message naming file, offset and reason, or the
# broken chunk shown raw; a CRC mismatch marks the save damaged (commits
# refused without -o force); random corruption never crashes.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tngsave/tngsave.py"

refused() {	# FILE WHAT-THE-MESSAGE-SAYS
	"$GAMEFS" ls "$1" >/dev/null 2>"$T/err" && fail "$1 was not refused"
	grep -q "$(basename "$1"): tngsave: at 0x[0-9a-f]*: .*$2" "$T/err" || fail "message for $1: $(cat "$T/err")"
	gfs_mount "$1" "$T/m" 2>/dev/null && fail "mount of $1 not refused"
	"$GAMEFS" check "$1" >/dev/null 2>&1 && fail "check of $1 said ok"
	return 0
}
for b in truncated smallchunk pastend; do $P mk "$T/$b.sav" --bad $b --kind server || fail "mk $b"; done
refused "$T/truncated.sav" "not a complete deflate stream"
refused "$T/smallchunk.sav" "size 4 is smaller than its 8-byte header"
refused "$T/pastend.sav" "size 400 runs past the end of the payload"
$P mk "$T/ok.sav" --kind player || fail "mk"
head -c 20 "$T/ok.sav" >"$T/short.sav"
refused "$T/short.sav" "shorter than the 32-byte header"
head -c 32 "$T/ok.sav" >"$T/hdronly.sav"
refused "$T/hdronly.sav" "no payload"
$P mk "$T/np.sav" --no-preview || fail "mk"
n=$(stat -c %s "$T/np.sav"); head -c $((n - 2)) "$T/np.sav" >"$T/nocrc.sav"
refused "$T/nocrc.sav" "CRC missing"
python3 - "$T/ok.sav" "$T/prvsmall.sav" "$T/prvpast.sav" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
a = bytearray(d); struct.pack_into("<I", a, 36, 20); open(sys.argv[2], "wb").write(a)
b = bytearray(d); struct.pack_into("<I", b, 36, len(d)); open(sys.argv[3], "wb").write(b)
PY
refused "$T/prvsmall.sav" "preview chunk size 20 is smaller"
refused "$T/prvpast.sav" "preview chunk size [0-9]* runs past the end"

# broken chunks and previews are shown raw, and kept byte for byte
$P mk "$T/overrun.sav" --bad overrun --kind server || fail "mk"
"$GAMEFS" ls "$T/overrun.sav" >"$T/ls" || fail "overrun refused"
grep -q " chunks/02-USER.bin$" "$T/ls" || fail "overrun USER not raw"
check_eq "bob carol" "$(grep ' users/[a-z]*/$' "$T/ls" | sed 's|.*users/||; s|/$||' | tr '\n' ' ' | sed 's/ $//')" "other users decoded"
"$GAMEFS" check "$T/overrun.sav" | grep -q "chunk 2 USER: shown raw: entity counts overrun" || fail "check explains raw"
$P mk "$T/rle.sav" --bad rle || fail "mk"
"$GAMEFS" ls "$T/rle.sav" | grep -q " chunks/06-MAP.bin$" || fail "broken RLE not raw"
$P mk "$T/prv.sav" --bad preview --kind server || fail "mk"
"$GAMEFS" ls "$T/prv.sav" >"$T/ls" 2>/dev/null || fail "bad preview refused"
grep -q "preview.png" "$T/ls" && fail "bad preview decoded"
grep -q " chunks/preview-PRVW.bin$" "$T/ls" || fail "bad preview not raw"
$P mk "$T/trail.sav" --bad trailing || fail "mk"
"$GAMEFS" ls "$T/trail.sav" | grep -q "^-r--r--r-- *4 trailing.bin$" || fail "trailing bytes not shown"
for f in overrun prv trail; do
	cp "$T/$f.sav" "$T/$f.orig"
	gfs_mount "$T/$f.sav" "$T/m" 2>/dev/null || fail "mount $f"
	echo 8 >>"$T/m/globals.txt" || fail "edit $f"
	gfs_umount "$T/m" || fail "umount $f"
	"$GAMEFS" check "$T/$f.sav" >/dev/null 2>&1 || fail "check $f after edit"
	check_eq "GLBL: 3 31 -2 46 0 -1 8" "$("$GAMEFS" cat "$T/$f.sav" globals.txt 2>/dev/null | sed 's/^/ /' | tr -d '\n' | sed 's/^/GLBL:/')" "$f edit"
done
check_eq "$("$GAMEFS" cat "$T/overrun.orig" chunks/02-USER.bin | sha256sum)" \
	"$("$GAMEFS" cat "$T/overrun.sav" chunks/02-USER.bin | sha256sum)" "raw USER kept"
n=$(( $(od -An -tu4 -j36 -N4 "$T/prv.orig") + 32 ))
cmp -n $n "$T/prv.orig" "$T/prv.sav" || fail "raw preview chunk kept"
check_eq "tail: 6a756e6b" "$($P dump "$T/trail.sav" | grep '^tail:')" "trailing bytes kept"

# CRC mismatch: mounts read-only saying why, check says DAMAGED, -o force writes
$P mk "$T/crc.sav" --bad badcrc || fail "mk"
cp "$T/crc.sav" "$T/crc.orig"
"$GAMEFS" check "$T/crc.sav" >"$T/check" 2>/dev/null; check_eq 1 $? "check exit on bad CRC"
grep -q "DAMAGED" "$T/check" || fail "check says damaged"
gfs_mount "$T/crc.sav" "$T/m" || fail "mount damaged"
check_eq EROFS "$(errno_of "f=open('$T/m/globals.txt','a'); f.write('1\n'); f.close()")" "damaged: read-only"
grep -q "mounted read-only: the archive is damaged" "$T/gamefs.log" || fail "the mount did not say why"
gfs_umount "$T/m"
cmp "$T/crc.orig" "$T/crc.sav" || fail "damaged save rewritten"
gfs_mount "$T/crc.sav" "$T/m" -o force || fail "mount -o force"
echo 9 >>"$T/m/globals.txt" || fail "forced edit"
gfs_umount "$T/m" || fail "umount forced"
"$GAMEFS" check "$T/crc.sav" >/dev/null || fail "forced commit leaves a valid CRC"

# random corruption: refusal or a tree, never a crash
python3 - "$T/ok.sav" "$T/fz" <<'PY'
import random, struct, sys, zlib
d = open(sys.argv[1], "rb").read()
rnd = random.Random(7)
# corrupt the inflated payload too (and recompress it with a valid CRC)
p = 32 + struct.unpack_from("<I", d, 36)[0]
z = zlib.decompressobj(); pay = z.decompress(d[p:])
for i in range(150):
    if i % 2:
        b = bytearray(d)
        for _ in range(rnd.randrange(1, 8)):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        if rnd.random() < 0.3:
            b = b[:rnd.randrange(len(b))]
    else:
        q = bytearray(pay)
        for _ in range(rnd.randrange(1, 6)):
            q[rnd.randrange(len(q))] = rnd.choice([0, 1, 7, 0x7f, 0x80, 0xff, rnd.randrange(256)])
        c = zlib.compress(bytes(q))
        b = d[:p] + c + struct.pack("<I", zlib.crc32(bytes(q)))
    open("%s%03d.sav" % (sys.argv[2], i), "wb").write(b)
PY
for f in "$T"/fz*.sav; do
	"$GAMEFS" ls "$f" >"$T/ls" 2>/dev/null
	rc=$?
	[ $rc -le 2 ] || fail "ls of $f exited $rc"
	[ $rc -eq 0 ] || continue
	for p in $(awk '$1 ~ /^-/ {print $3}' "$T/ls"); do
		"$GAMEFS" cat "$f" "$p" >/dev/null 2>&1
		rc=$?
		[ $rc -le 2 ] || fail "cat $p of $f exited $rc"
	done
done
echo ok
