#!/bin/sh
# External changes are told by the file's identity (inode, size, mtime and
# ctime), not its mtime alone: another program that rewrites the archive in
# place and puts its mtime back (rsync -t --inplace, or a write and
# touch -r) is seen before a commit overwrites its work: the save through
# the mount is refused (EBUSY) and kept as NAME.rejected, the other
# program's archive stays.  Before, the commit went ahead and the other
# program's save was lost.
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
cat other.rpg >g.rpg && touch -r stamp g.rpg
check_eq EBUSY "$(errno_of "f = open('m/A.TXT', 'w'); f.write('mine'); f.close()")" "a save after an in-place rewrite with the old mtime"
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
	rsync -t -I --inplace --no-whole-file other.rpg g.rpg || fail "rsync"
	check_eq "$(stat -c %Y other.rpg)" "$(stat -c %Y g.rpg)" "rsync -t kept the mtime"
	check_eq EBUSY "$(errno_of "f = open('m/A.TXT', 'w'); f.write('mine'); f.close()")" "a save after rsync -t --inplace"
	cmp g.rpg other.rpg || fail "the archive rsync wrote was overwritten"
	"$GAMEFS" umount m 2>/dev/null && fail "gamefs umount exit status 0 after rsync's change"
else
	note "no rsync: its case skipped"
fi
echo ok
