#!/bin/sh
# tests/t0045-forget-renamed.sh [ROUNDS]: files renamed over while they are
# held open, read while the kernel forgets its nodes again and again.  A
# reader holds every file of an .rpg open and reads it through its old
# descriptor; each round a new content is written to a scratch file and
# renamed over each file (as editors save), then the kernel's dentries and
# inodes are dropped (echo 2 > /proc/sys/vm/drop_caches, as root) and every
# file is opened anew by its name.  No open or read may fail (no ESTALE, no
# ENOENT), every name must stay listed and read the round's content, no
# hidden name may show, and the daemon's memory must not grow with the
# rounds.  ROUNDS defaults to 40.
. "$top_srcdir/tests/lib.sh"
ROUNDS=${1:-40}
FILES="A.TXT B.TXT C.TXT D.TXT"
cd "$T" || exit 1
for f in $FILES; do printf 'first %s\n' "$f" >"$f.v"; done
python3 "$top_srcdir/tests/rpgtool.py" make g.rpg A.TXT=@A.TXT.v B.TXT=@B.TXT.v C.TXT=@C.TXT.v \
	D.TXT=@D.TXT.v || fail "make rpg"
gfs_mount g.rpg m || fail "mount"
pid=$GFS_PID
drop=0
[ -w /proc/sys/vm/drop_caches ] && drop=1
[ "$drop" = 1 ] || note "not root: the kernel's caches are not dropped between rounds"

# the holder: every file open for the whole test, read through the old fd each round
rm -f go stop
python3 - m "$FILES" >holder.out 2>&1 <<'PY' &
import errno, os, sys, time
mnt, names = sys.argv[1], sys.argv[2].split()
fds = [os.open(os.path.join(mnt, n), os.O_RDONLY) for n in names]
reads, errs = 0, {}
while not os.path.exists("stop"):
    for fd in fds:
        try:
            os.pread(fd, 4096, 0)
            reads += 1
        except OSError as e:
            k = errno.errorcode.get(e.errno, str(e.errno))
            errs[k] = errs.get(k, 0) + 1
    time.sleep(0.01)
for fd in fds:
    os.close(fd)
print(reads, " ".join("%s=%d" % kv for kv in sorted(errs.items())))
PY
hp=$!

rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status"; }
r=0
rss0=""
while [ "$r" -lt "$ROUNDS" ]; do
	for f in $FILES; do
		printf 'round %d of %s\n' "$r" "$f" >"m/.$f.tmp" || fail "round $r: write .$f.tmp"
		mv "m/.$f.tmp" "m/$f" || fail "round $r: rename over $f"
	done
	[ "$drop" = 1 ] && { sync; echo 2 >/proc/sys/vm/drop_caches; }
	for f in $FILES; do
		got=$(cat "m/$f" 2>&1) || fail "round $r: open of $f after the kernel forgot it: $got"
		check_eq "round $r of $f" "$got" "round $r: $f reads the last save"
	done
	names=$(ls -a m | grep -v '^\.\.\?$' | tr '\n' ' ')
	check_eq ".gamefs.log A.TXT B.TXT C.TXT D.TXT " "$names" "round $r: the names listed"
	[ "$r" = 4 ] && rss0=$(rss)
	r=$((r + 1))
done
rss1=$(rss)
touch stop
wait "$hp"
read -r reads errs <holder.out || fail "the holder said nothing: $(cat holder.out)"
note "$ROUNDS rounds; the holder read $reads times${errs:+, failures: $errs}; daemon RSS ${rss0}k after 5 rounds, ${rss1}k at the end"
[ "$reads" -gt 0 ] || fail "the holder did not read"
[ -z "$errs" ] || fail "reads through descriptors held across the renames failed: $errs"
# a sanitizer's quarantine of freed blocks (256 MiB by default) is no daemon's own growth
limit=4096
grep -q __asan_init "$GAMEFS" && limit=$((limit * 16))
[ $((rss1 - rss0)) -lt $limit ] || fail "the daemon grew by $((rss1 - rss0)) KiB over $((ROUNDS - 5)) rounds"
gfs_umount m || fail "unmount"
gfs_mount g.rpg m || fail "mount again"
for f in $FILES; do
	check_eq "round $((ROUNDS - 1)) of $f" "$(cat "m/$f")" "$f in the archive after unmount"
done
gfs_umount m || fail "unmount again"
echo ok
