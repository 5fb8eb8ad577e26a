#!/bin/sh
# Big edits in bounded memory: replacing a 64 MiB movie of a TirNanoG game
# and a 64 MiB lump of an .rpg with cp through the mount (and by an
# editor's temporary file renamed over it) stages the bytes in a memfd, not
# the heap: the archive gets the new bytes, checks sound, the daemon's peak
# memory (VmHWM, read just before unmount) stays under 64 MiB + a margin, and
# no memfd outlives its edit.  A refused big edit stays readable as
# NAME.rejected; under commit=unmount the edit reads back before the commit.  No timing here: see bench/big-edit.sh.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
big=$((64 << 20))

# 64 MiB of pseudo-random bytes starting with OggS, a different stream for each seed
ogg() {
	python3 - "$1" "$2" "$big" <<'PY'
import random, sys
r = random.Random(int(sys.argv[2]))
with open(sys.argv[1], 'wb') as f:
    f.write(b'OggS')
    left = int(sys.argv[3]) - 4
    while left:
        n = min(left, 1 << 20)
        f.write(r.randbytes(n))
        left -= n
PY
}
hwm() { awk '/VmHWM/ {print $2}' "/proc/$1/status"; }
# the memfds the daemon holds (its edits' stages), once the last close settled
memfds() {
	i=0
	while [ $i -lt 50 ]; do
		n=$(ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'memfd:gamefs-edit' || :)
		[ "$n" = 0 ] && break
		i=$((i + 1)); sleep 0.1
	done
	echo "$n"
}
limit=$(((64 + 24) << 10))	# KiB: 64 MiB and a margin for the daemon itself
# a sanitizer's shadow memory and quarantine of freed blocks are no daemon's own
grep -q __asan_init "$GAMEFS" && limit=$((limit * 4))

$P write g.tng --sounds 2 --sound-size 1000 --movie-size "$big" || fail "write game"
ogg new1.ogv 1; ogg new2.ogv 2
gfs_mount g.tng m || fail "mount"
pid=$GFS_PID
cp new1.ogv m/movies/intro.ogv || fail "cp of a 64 MiB movie"
cmp new1.ogv m/movies/intro.ogv || fail "the new movie reads back"
check_eq 0 "$(memfds "$pid")" "memfds after the commit"
# an editor's save: a temporary file renamed over the movie
cp new2.ogv m/movies/.intro.ogv.tmp && mv m/movies/.intro.ogv.tmp m/movies/intro.ogv || fail "rename over"
cmp new2.ogv m/movies/intro.ogv || fail "the renamed movie reads back"
check_eq 0 "$(memfds "$pid")" "memfds after the rename"
# a small write into the big movie: its bytes go from the archive to a memfd, the rest stays
printf 'hello' | dd of=m/movies/intro.ogv bs=1 seek=5000000 conv=notrunc 2>/dev/null || fail "dd into the movie"
python3 -c "import sys; d = bytearray(open('new2.ogv', 'rb').read()); d[5000000:5000005] = b'hello'; open('new2.ogv', 'wb').write(d)"
cmp new2.ogv m/movies/intro.ogv || fail "the movie after a small write"
# a refused big edit: the bytes are kept as NAME.rejected, the movie is as it was
head -c "$big" new1.ogv | tr 'O' 'X' >bad.ogv
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('bad.ogv', 'm/movies/intro.ogv')")" "not an Ogg file"
cmp bad.ogv m/movies/intro.ogv.rejected || fail "the refused bytes as intro.ogv.rejected"
cmp new2.ogv m/movies/intro.ogv || fail "the movie after the refusal"
peak=$(hwm "$pid")
note "TirNanoG: daemon VmHWM ${peak} KiB (limit $limit KiB)"
[ "$peak" -lt "$limit" ] || fail "daemon peak memory ${peak} KiB over $limit KiB"
gfs_umount m || fail "umount"
"$GAMEFS" cat g.tng movies/intro.ogv | cmp - new2.ogv || fail "gamefs cat gives the new movie"
"$GAMEFS" check g.tng >check.out 2>&1 || fail "check: $(cat check.out)"
$P verify g.tng >/dev/null || fail "CRCs"

# commit=unmount: the store keeps the staged edit (shared, not copied); a
# later write to the file changes the file's bytes, not the kept ones, until
# its own close stores them
cp g.tng before.tng
gfs_mount g.tng m -o commit=unmount || fail "mount commit=unmount"
pid=$GFS_PID
cp new1.ogv m/movies/intro.ogv || fail "cp under commit=unmount"
head -c 1048576 new2.ogv | dd of=m/movies/intro.ogv conv=notrunc 2>/dev/null || fail "overwrite its first MiB"
{ head -c 1048576 new2.ogv; tail -c +1048577 new1.ogv; } >mixed.ogv
cmp mixed.ogv m/movies/intro.ogv || fail "the edit reads back before the commit"
cmp before.tng g.tng || fail "nothing written before unmount"
peak=$(hwm "$pid")
[ "$peak" -lt "$limit" ] || fail "commit=unmount: daemon peak memory ${peak} KiB over $limit KiB"
gfs_umount m || fail "umount commit=unmount"
"$GAMEFS" cat g.tng movies/intro.ogv | cmp - mixed.ogv || fail "the archive has the last edit"
$P verify g.tng >/dev/null || fail "CRCs after commit=unmount"

# an .rpg lump
$RPG gen g.rpg 10 1000 || fail "gen"
gfs_mount g.rpg r || fail "mount rpg"
pid=$GFS_PID
cp new1.ogv r/LUMP00005.BIN || fail "cp of a 64 MiB lump"
cmp new1.ogv r/LUMP00005.BIN || fail "the new lump reads back"
check_eq 0 "$(memfds "$pid")" "memfds after the lump's commit"
peak=$(hwm "$pid")
note "rpg: daemon VmHWM ${peak} KiB (limit $limit KiB)"
[ "$peak" -lt "$limit" ] || fail "daemon peak memory ${peak} KiB over $limit KiB"
gfs_umount r || fail "umount rpg"
"$GAMEFS" cat g.rpg LUMP00005.BIN | cmp - new1.ogv || fail "gamefs cat gives the new lump"
"$GAMEFS" check g.rpg >check.out 2>&1 || fail "rpg check: $(cat check.out)"
check_eq 10 "$($RPG list g.rpg | wc -l)" "lumps after the edit"
echo ok
