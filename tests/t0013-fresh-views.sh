#!/bin/sh
# Views derived from committed data never read stale (a TirNanoG header.ini
# after a commit of a script, a MAGES layout.ini after a chunk is added, both with the
# same size and mtime as before), readers racing commits always get one
# whole render (ZZT board.png), and opens racing sed -i never fail.
. "$top_srcdir/tests/lib.sh"
TNG="python3 $top_srcdir/tests/tng/tngpy.py"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
cd "$T" || exit 1

$TNG write g.tng
gfs_mount g.tng m || fail "mount tng"
cat m/header.ini >before
# a script using command 50 raises header.ini's max_command from 43 (same size;
# header.ini has no CRC line any more, which changed at every commit)
printf '\tFNC0 #50\n\tEND\n; end\n' >m/startup/0001.tngs || fail "edit"
"$GAMEFS" cat g.tng header.ini >want
cmp -s before want && fail "the edit did not change header.ini (test is void)"
cmp want m/header.ini || fail "header.ini reads stale after a commit"
gfs_umount m || fail "unmount tng"

# A stored asset read again comes from the page cache, but never stale: not
# after an edit through the mount, nor after a refused one (not an Ogg file).
$TNG write s.tng
gfs_mount s.tng m || fail "mount tng (stored)"
cat m/sounds/door.ogg >s0 && cat m/sounds/door.ogg >s1 && cmp -s s0 s1 || fail "a stored asset read twice differs"
cat >poke.py <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
os.pwrite(fd, sys.argv[2].encode(), int(sys.argv[3]))
try:
    os.close(fd)
except OSError as e:
    sys.exit(3)
PY
python3 poke.py m/sounds/door.ogg Zz 10 || fail "a same-size edit of door.ogg was refused"
cat m/sounds/door.ogg >s2
cmp -s s0 s2 && fail "the edit of door.ogg reads as before (page cache kept)"
python3 - s0 s2 <<'PY' || fail "door.ogg after the edit is not the old bytes with Zz at 10"
import sys
a, b = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()
sys.exit(0 if b == a[:10] + b'Zz' + a[12:] else 1)
PY
# A write-only open writes past the page cache (direct I/O): a reader that
# holds door.ogg open with its pages cached still reads each write at once.
python3 - m/sounds/door.ogg <<'PY' || fail "a reader's cached pages hid a write-only edit"
import os, sys
r = os.open(sys.argv[1], os.O_RDONLY)
a = os.pread(r, 4096, 0)
w = os.open(sys.argv[1], os.O_WRONLY)
os.pwrite(w, b'Qq', 20)
mid = os.pread(r, 4096, 0)
os.close(w)
end = os.pread(r, 4096, 0)
want = a[:20] + b'Qq' + a[22:]
sys.exit(0 if a[20:22] != b'Qq' and mid == want and end == want else 1)
PY
cat m/sounds/door.ogg >s2
python3 poke.py m/sounds/door.ogg Nope 0
[ $? -eq 3 ] || fail "an edit that is not an Ogg file was not refused at close"
cmp m/sounds/door.ogg s2 || fail "after a refused edit door.ogg reads the refused bytes"
gfs_umount m || fail "unmount tng (stored)"

$LAY gen G_.lay --atlas G.png --tail 5
gfs_mount G_.lay m || fail "mount lay"
grep -q '^chunks = 25$' m/layout.ini || fail "layout.ini: $(grep chunks m/layout.ini)"
echo "25,-7,-57,65,65" >>m/chunks.csv || fail "add a chunk"
grep -q '^chunks = 26$' m/layout.ini || fail "layout.ini reads stale: $(grep '^chunks' m/layout.ini)"
gfs_umount m || fail "unmount lay"

$ZZT mk w.zzt
gfs_mount w.zzt m || fail "mount zzt"
B=m/boards/$(ls m/boards | head -1)
cat >reader.py <<'PY'
import os, struct, sys, zlib
png, ini, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
bad = 0
for i in range(rounds):
    try:
        with open(png, 'rb') as f:
            d = b''
            while True:   # small reads, so that a commit can fall between them
                c = f.read(4096)
                if not c:
                    break
                d += c
        ok = d[:8] == b'\x89PNG\r\n\x1a\n'
        p = 8
        while ok and p < len(d):
            n, = struct.unpack('>I', d[p:p + 4])
            ok = p + 12 + n <= len(d) and zlib.crc32(d[p + 4:p + 8 + n]) == struct.unpack('>I', d[p + 8 + n:p + 12 + n])[0]
            p += 12 + n
        if not ok or not d.endswith(b'IEND\xaeB`\x82'):
            bad += 1
            print('torn or truncated board.png (%d bytes)' % len(d))
        open(ini).read()
    except OSError as e:
        bad += 1
        print('open/read failed: %s' % e)
sys.exit(1 if bad else 0)
PY
pids=""
for i in 1 2 3 4; do
	timeout 120 python3 reader.py "$B/board.png" m/world.ini 30 & pids="$pids $!"
done
for i in $(seq 1 12); do
	python3 - "$B/elements.csv" "$i" <<'PY' || fail "edit elements.csv $i"
import sys
p, i = sys.argv[1], int(sys.argv[2])
rows = open(p).read().split('\n')
r = rows[1].split(','); r[1] = str(20 + i % 2); rows[1] = ','.join(r)
open(p, 'w').write('\n'.join(rows))
PY
	sed -i "s/^ammo = .*/ammo = $i/" m/world.ini || fail "sed -i $i"
done
for p in $pids; do wait "$p" || fail "a reader saw a torn render or a failed open"; done
gfs_umount m || fail "unmount zzt"
"$GAMEFS" cat w.zzt world.ini | grep -q '^ammo = 12$' || fail "last edit on disk"
echo ok
