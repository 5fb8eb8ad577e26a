#!/bin/sh
# Refused edits are visible and nothing written is lost: the reason is in a
# read-only .gamefs.log at the mount root (a dot file: ls -a lists it; not in extract), the
# refused bytes stay readable as NAME.rejected and `mv NAME.rejected NAME`
# retries.  commit=unmount parses each file at its close (a bad one fails
# with EINVAL, the good ones are written at unmount).  A mount point that is
# not a directory is refused; damaged archives mount read-only saying why.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
cd "$T" || exit 1
$ZZT mk w.zzt
cp w.zzt orig.zzt

gfs_mount w.zzt m || fail "mount"
good=$(cat m/world.ini)
ls -a m | grep -qx .gamefs.log || fail ".gamefs.log is not listed by ls -a (issue 28)"
ls m | grep -q gamefs.log && fail ".gamefs.log is listed by a plain ls"
check_eq 444 "$(stat -c %a m/.gamefs.log)" ".gamefs.log mode"
check_eq EACCES "$(errno_of "open('m/.gamefs.log','w')")" ".gamefs.log is read-only"
check_eq EPERM "$(errno_of "os.unlink('m/.gamefs.log')")" ".gamefs.log cannot be removed"
# a shell redirect ignores the close error: the log and NAME.rejected tell
sh -c "printf 'ammo = lots\n' > m/world.ini"
check_eq "$good" "$(cat m/world.ini)" "refused edit reads back the last good content"
grep -q "world.ini refused" m/.gamefs.log || fail ".gamefs.log: $(cat m/.gamefs.log)"
check_eq "ammo = lots" "$(cat m/world.ini.rejected)" "refused bytes kept"
sed -i 's/lots/42/' m/world.ini.rejected || fail "fix the rejected file"
printf '%s\n' "$good" | sed 's/^ammo = .*/ammo = 42/' >m/world.ini.rejected
mv m/world.ini.rejected m/world.ini || fail "mv NAME.rejected NAME retries"
grep -q "^ammo = 42" m/world.ini || fail "retried edit"
gfs_umount m || fail "unmount"
"$GAMEFS" cat w.zzt world.ini | grep -q "^ammo = 42" || fail "retried edit on disk"
"$GAMEFS" extract w.zzt x && [ ! -e x/.gamefs.log ] || fail "extract"

# a name longer than NAME_MAX: ENAMETOOLONG for a new file and a new directory alike
gfs_mount w.zzt m || fail "mount (long names)"
long=$(printf 'x%.0s' $(seq 300))
check_eq ENAMETOOLONG "$(errno_of "open('m/boards/$long','w')")" "create of a 300-byte name"
check_eq ENAMETOOLONG "$(errno_of "os.mkdir('m/boards/$long')")" "mkdir of a 300-byte name"
check_eq EPERM "$(errno_of "os.mkdir('m/boards/short')")" "mkdir where the format makes no directories"
gfs_umount m || fail "unmount (long names)"

# commit=unmount: a bad file fails its close, the good edits are written
cp orig.zzt w.zzt
gfs_mount w.zzt m -o commit=unmount || fail "mount commit=unmount"
sed -i 's/^ammo = .*/ammo = 7/' m/world.ini || fail "good edit"
b=$(ls m/boards | head -1)
check_eq EINVAL "$(errno_of "f=open('m/boards/$b/board.ini','w'); f.write('dark = maybe\n'); f.close()")" "bad edit fails its close"
cmp w.zzt orig.zzt || fail "commit=unmount wrote before unmount"
gfs_umount m || fail "unmount commit=unmount"
"$GAMEFS" cat w.zzt world.ini | grep -q "^ammo = 7" || fail "good edit lost at unmount"

# the mount point must be a directory; one line
touch notadir
"$GAMEFS" w.zzt notadir >err 2>&1 && fail "mounted on a regular file"
check_eq 1 "$(wc -l <err)" "one line"
grep -q "not a directory" err || fail "mount point message: $(cat err)"
# a refused mount of a damaged file prints one line
head -c 600 orig.zzt >short.zzt
printf 'x' | dd of=short.zzt bs=1 seek=0 conv=notrunc 2>/dev/null
mkdir -p m3
"$GAMEFS" short.zzt m3 >err 2>&1 && { fusermount3 -u m3; true; }
[ "$(wc -l <err)" -le 1 ] || fail "more than one line: $(cat err)"
echo ok
