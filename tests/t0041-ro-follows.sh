#!/bin/sh
# A read-only mount follows its archive (issue 28, item 3): when another
# mount commits, another program renames a new file over it, or rewrites it
# in place and puts its mtime back (rsync -t, touch -r), the read-only mount
# serves the new content within a second (the test allows 2 s on a busy
# machine and prints the time); a new file it cannot read leaves it serving
# the old one, and its .gamefs.log says it is stale.  While readers walk it
# and the other mount commits every 0.2 s, it follows to the last commit.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
$RPG make g.rpg BROWSE.TXT=hello A.TXT=one B.TXT=bee || fail "make g.rpg"

# until FILE reads WANT: the seconds it took, or fail after 2 s
wait_for() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "$3: $1 still reads [$(cat "$1")], want [$2]"
import sys, time
path, want, what = sys.argv[1], sys.argv[2], sys.argv[3]
t0 = time.monotonic()
while True:
    try:
        got = open(path).read().rstrip("\n")
    except OSError as e:
        got = str(e)
    if got == want:
        print("# %s: new content after %.2f s" % (what, time.monotonic() - t0))
        break
    if time.monotonic() - t0 > 2.0:
        sys.exit(1)
    time.sleep(0.02)
PY
}

gfs_mount g.rpg w || fail "writable mount"
gfs_mount g.rpg r -o ro || fail "read-only mount"
check_eq one "$(cat r/A.TXT)" "first read"
check_eq one "$(cat r/A.TXT)" "second read (page cache)"

# another mount's commit
printf 'two\n' >w/A.TXT || fail "edit through the writable mount"
wait_for r/A.TXT two "after the other mount's commit"
check_eq bee "$(cat r/B.TXT)" "an untouched lump"
# readers walking the read-only mount while the writer commits again and again
(end=$(($(date +%s) + 5)); while [ "$(date +%s)" -lt $end ]; do
	find r -type f -exec cat {} + >/dev/null 2>&1; ls -R r >/dev/null 2>&1; done) & rd=$!
i=0; while kill -0 $rd 2>/dev/null; do
	i=$((i + 1)); printf 'n%d\n' $i >w/A.TXT || fail "commit $i"; sleep 0.2
done
wait $rd
wait_for r/A.TXT "n$i" "after $i commits under readers"
gfs_umount w || fail "unmount the writer"

# another program renames a new archive over it
$RPG make new.rpg BROWSE.TXT=hello A.TXT=three C.TXT=sea || fail "make new.rpg"
mv new.rpg g.rpg
wait_for r/A.TXT three "after a rename over the archive"
wait_for r/C.TXT sea "a lump only the new file has"
[ -e r/B.TXT ] && fail "a lump the new file does not have is still listed"

# rewritten in place, its mtime put back: same inode, same size, same mtime,
# the lumps in another order (the old offsets read the wrong bytes)
$RPG make same.rpg BROWSE.TXT=hello C.TXT=sea A.TXT=fives || fail "make same.rpg"
check_eq "$(stat -c %s g.rpg)" "$(stat -c %s same.rpg)" "same size"
touch -r g.rpg stamp
cat same.rpg >g.rpg
touch -r stamp g.rpg
wait_for r/A.TXT fives "after a rewrite in place with its mtime put back"

# a new file that cannot be read: the old content stays, and the log says why
printf 'not a lumped file' >bad.rpg
mv bad.rpg g.rpg
sleep 1
check_eq fives "$(cat r/A.TXT)" "after an unreadable replacement"
grep -q "stale" r/.gamefs.log || fail "the log does not say the mount is stale: $(cat r/.gamefs.log)"
"$GAMEFS" status r >status.txt; check_eq 0 $? "status of a read-only mount"
grep -q "read-only" status.txt || fail "status: $(cat status.txt)"
gfs_umount r || fail "unmount the read-only mount"
echo ok
