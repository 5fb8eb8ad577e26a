#!/bin/sh
# External changes are told by the file's identity (inode, size, mtime and
# ctime), not its mtime alone: another program that rewrites the archive in
# place and puts its mtime back (rsync -t --inplace, or a write and
# touch -r) is seen before a commit overwrites its work: the save through
# the mount is refused (EBUSY) and kept as NAME.rejected, the other
# program's archive stays.  Before, the commit went ahead and the other
# program's save was lost.  A mount that holds no edit follows such a change
# within a second (as a read-only one does) and edits on top of it; before,
# it read the new bytes at the old offsets (empty files, EIO).
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
$RPG make g.rpg A.TXT=hello B.TXT=world || fail "make"
# the same size, other bytes: what the other program saves
$RPG make other.rpg A.TXT=hello B.TXT=WORLD || fail "make other"
cmp -s g.rpg other.rpg && fail "fixture: the two archives are the same"

# in place, mtime put back (as touch -r does)
gfs_mount g.rpg m || fail "mount"
touch -r g.rpg stamp
# the save is open (an edit held) while the other program rewrites
check_eq EBUSY "$(errno_of "import subprocess, time
f = open('m/A.TXT', 'w')
subprocess.run(['sh', '-c', 'cat other.rpg >g.rpg && touch -r stamp g.rpg'], check=True)
time.sleep(0.6)
f.write('mine'); f.close()")" "a save after an in-place rewrite with the old mtime"
cmp g.rpg other.rpg || fail "the other program's in-place save was overwritten"
check_eq mine "$(cat m/A.TXT.rejected)" "the refused save kept"
"$GAMEFS" umount m 2>err && fail "gamefs umount exit status 0 with a save refused"
check_eq mine "$(cat g.rpg.unsaved/A.TXT.rejected)" "kept at unmount"
rm -rf g.rpg.unsaved

# rsync -t --inplace
if command -v rsync >/dev/null; then
	$RPG make g.rpg A.TXT=hello B.TXT=world || fail "make 2"
	touch -d '2020-01-01 00:00:00' g.rpg other.rpg
	gfs_mount g.rpg m || fail "mount 2"
	check_eq EBUSY "$(errno_of "import subprocess, time
f = open('m/A.TXT', 'w')
subprocess.run(['rsync', '-t', '-I', '--inplace', '--no-whole-file', 'other.rpg', 'g.rpg'], check=True)
time.sleep(0.6)
f.write('mine'); f.close()")" "a save after rsync -t --inplace"
	check_eq "$(stat -c %Y other.rpg)" "$(stat -c %Y g.rpg)" "rsync -t kept the mtime"
	cmp g.rpg other.rpg || fail "the archive rsync wrote was overwritten"
	"$GAMEFS" umount m 2>/dev/null && fail "gamefs umount exit status 0 after rsync's change"
else
	note "no rsync: its case skipped"
fi

# a mount holding no edit follows the in-place rewrite, then edits on top
$RPG make g.rpg A.TXT=hello B.TXT=world || fail "make 3"
gfs_mount g.rpg m || fail "mount 3"
check_eq world "$(cat m/B.TXT)" "before"
# other lumps at other offsets: read at the old offsets they were garbage
$RPG make grown.rpg A.TXT=hi B.TXT=WORLD C.TXT=new || fail "make grown"
touch -r g.rpg stamp
cat grown.rpg >g.rpg && touch -r stamp g.rpg
i=0
while [ "$(cat m/C.TXT 2>/dev/null)" != new ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
check_eq new "$(cat m/C.TXT)" "the mount shows the rewritten archive (after $i tenths)"
check_eq WORLD "$(cat m/B.TXT)" "B.TXT of the rewritten archive"
[ $i -le 10 ] || fail "followed after $i tenths of a second, want within 1 s"
grep -q "was replaced on disk" m/.gamefs.log || fail "the log does not say the archive was replaced"
printf mine >m/A.TXT || fail "an edit on top of the rewritten archive"
"$GAMEFS" umount m || fail "gamefs umount after an edit on top"
check_eq mine "$($RPG get g.rpg A.TXT)" "the edit on top"
check_eq WORLD "$($RPG get g.rpg B.TXT)" "the other program's change kept"
echo ok
