#!/bin/sh
# An unmount that tells the truth: `gamefs umount MOUNTPOINT` returns only
# when the daemon has written its last commit (a script that unmounts and
# then copies the archive copies the new one), exits 0 when it did, and
# non-zero with the reason when it failed.  A failed last commit
# (-o commit=unmount, the archive changed on disk) keeps every edited view
# in ARCHIVE.unsaved/, named in the message.  A daemon killed before its
# last commit is reported as such.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
$RPG gen g.rpg 60 1000000 || fail "gen"		# ~60 MB: the last commit takes a while
printf 'edited\n' >want

# the last commit is on disk when gamefs umount returns
gfs_mount g.rpg m -o commit=unmount || fail "mount"
pid=$GFS_PID
cp want m/LUMP00001.BIN || fail "edit"
head -c 5000000 /dev/urandom >big
cp big m/LUMP00002.BIN || fail "big edit"
"$GAMEFS" umount m 2>err || fail "gamefs umount: $(cat err)"
mountpoint -q m && fail "still mounted"
$RPG get g.rpg LUMP00001.BIN | cmp -s - want || fail "gamefs umount returned before the last commit was written"
$RPG get g.rpg LUMP00002.BIN | cmp -s - big || fail "the big edit not written when gamefs umount returned"
kill -0 "$pid" 2>/dev/null && fail "the daemon still runs after gamefs umount returned"

# a last commit that fails: every edited view kept, the reason and the place said
gfs_mount g.rpg m -o commit=unmount || fail "mount 2"
printf 'one\n' >m/LUMP00001.BIN && printf 'two\n' >m/LUMP00003.BIN || fail "edits 2"
cp g.rpg theirs && mv theirs g.rpg && cp g.rpg keep
"$GAMEFS" umount m 2>err && fail "gamefs umount exit status 0 after a failed last commit"
grep -q "changed on disk" err || fail "the reason is not said: $(cat err)"
grep -q "g.rpg.unsaved" err || fail "the kept files are not named: $(cat err)"
check_eq one "$(cat g.rpg.unsaved/LUMP00001.BIN)" "first edited view kept"
check_eq two "$(cat g.rpg.unsaved/LUMP00003.BIN)" "second edited view kept"
cmp g.rpg keep || fail "the other program's archive was overwritten"
rm -rf g.rpg.unsaved

# a daemon killed before its last commit
gfs_mount g.rpg m -o commit=unmount || fail "mount 3"
printf 'three\n' >m/LUMP00001.BIN || fail "edit 3"
kill -9 "$GFS_PID"; wait "$GFS_PID" 2>/dev/null
"$GAMEFS" umount m 2>err && fail "gamefs umount exit status 0 after the daemon was killed"
grep -q "killed" err || fail "a killed daemon not reported: $(cat err)"
mountpoint -q m && { fusermount3 -u m 2>/dev/null || umount -l m; }

# not a gamefs mount
"$GAMEFS" umount "$T" 2>err && fail "gamefs umount of a plain directory"
grep -q "not a gamefs mount" err || fail "plain directory: $(cat err)"
echo ok
