#!/bin/sh
# tests/t0025-ro-reads.sh: a read-only mount serves every file without an
# OPEN (the kernel opens on its own after the first ENOSYS and reads by
# path), and what it serves is what a writable mount serves: every view and
# stored asset of a TirNanoG game (one large enough to be spliced) and of an
# OHRRPGCE game, read with cat, pread, mmap and read again from the page
# cache; fsync of a reader is fine; writes fail with EROFS; the log reads;
# the archives are not touched.
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1
python3 "$top_srcdir/tests/tng/tngpy.py" write g.tng --full || fail "write tng"
python3 "$top_srcdir/tests/rpgtool.py" mkgame g.rpg new 3 || fail "write rpg"
python3 -c "import os, sys; sys.stdout.buffer.write(b'OggS' + os.urandom(400000))" >big.ogg
gfs_mount g.tng m || fail "mount tng"
cp big.ogg m/sounds/big.ogg || fail "cp big.ogg"
gfs_umount m || fail "unmount tng"

for a in g.tng g.rpg; do
	sum=$(sha256sum <"$a")
	rm -rf ref
	gfs_mount "$a" m || fail "mount $a"
	cp -r m ref || fail "copy of $a's tree"
	rm -f ref/.gamefs.log	# the log says when each mount began: not the archive's content
	gfs_umount m || fail "unmount $a"
	gfs_mount "$a" m -o ro || fail "mount $a -o ro"
	# twice: the second from the page cache the kernel kept
	diff -r -x .gamefs.log ref m >diff.out || fail "$a: the read-only tree differs: $(head -5 diff.out)"
	diff -r -x .gamefs.log ref m >diff.out || fail "$a: read again, differs: $(head -5 diff.out)"
	n=$(find m -type f | wc -l)
	note "$a: $n files read through the read-only mount, twice"
	python3 - m ref <<'PY' || fail "$a: pread, mmap, fsync"
import mmap, os, sys
m, ref = sys.argv[1:]
for d, _, files in os.walk(ref):
    for f in files:
        want = open(os.path.join(d, f), 'rb').read()
        p = os.path.join(m, os.path.relpath(os.path.join(d, f), ref))
        fd = os.open(p, os.O_RDONLY)
        os.fsync(fd)
        for off in (0, len(want) // 3, max(len(want) - 7, 0)):
            assert os.pread(fd, 4096, off) == want[off:off + 4096], (p, off)
        if want:
            with mmap.mmap(fd, 0, prot=mmap.PROT_READ) as mm:
                assert mm[:] == want, p
        os.close(fd)
PY
	check_eq EROFS "$(errno_of "open('$T/m/$(cd m && find . -type f | sed -n 3p)','r+b')")" "$a: open for writing"
	check_eq EROFS "$(errno_of "open('$T/m/new.txt','wb')")" "$a: create"
	cat m/.gamefs.log >/dev/null || fail "$a: the log does not read"
	if [ "$a" = g.tng ]; then
		cmp big.ogg m/sounds/big.ogg || fail "the large sound (spliced) differs"
	fi
	gfs_umount m || fail "unmount $a -o ro"
	check_eq "$sum" "$(sha256sum <"$a")" "$a: a read-only mount leaves its bytes"
done
echo ok
