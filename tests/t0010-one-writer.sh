#!/bin/sh
# One writer per archive: a second writable mount is refused with one line
# (a read-only one is allowed), and a commit never overwrites an archive
# that another program saved meanwhile: it fails, says so in .gamefs.log,
# and the other program's file stays.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
$RPG make g.rpg BROWSE.TXT=hello A.TXT=one

gfs_mount g.rpg m || fail "first mount"
mkdir m2
"$GAMEFS" -f g.rpg m2 >second.err 2>&1 & p=$!
sleep 1
if mountpoint -q m2; then fusermount3 -u m2; fail "a second writable mount was allowed"; fi
wait $p; check_eq 1 $? "second mount exit status"
check_eq 1 "$(wc -l <second.err)" "second mount: one line"
grep -q "already mounted for writing" second.err || fail "second mount says: $(cat second.err)"
gfs_mount g.rpg m2 -o ro || fail "a read-only second mount"
printf 'edited\n' >m/A.TXT || fail "edit through the writer"
gfs_umount m2 || fail "unmount ro"
# the lock follows the archive to the file each commit writes
"$GAMEFS" -f g.rpg m2 >second.err 2>&1 && fail "second writable mount after a commit"
grep -q "already mounted for writing" second.err || fail "after a commit: $(cat second.err)"

# another program replaces the archive while it is mounted
$RPG make other.rpg BROWSE.TXT=theirs
cp other.rpg keep.rpg
mv other.rpg g.rpg
check_eq EBUSY "$(errno_of "f=open('m/A.TXT','w'); f.write('mine'); f.close()")" "commit over a replaced archive"
grep -q "changed on disk since it was read" m/.gamefs.log || fail ".gamefs.log does not say why"
gfs_umount m && fail "unmount exit status 0 with an edit that could not be saved"
cmp g.rpg keep.rpg || fail "the other program's archive was overwritten"
echo ok
