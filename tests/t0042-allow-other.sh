#!/bin/sh
# -o allow_other (an fstab mount by root that users browse) enforces the
# modes the tree shows (issue 28, item 4): gamefs adds default_permissions,
# so user nobody reads the game but cannot overwrite, remove, create or
# rename anything in a root-owned archive's mount, and the archive stays
# as it was; root still edits.  Needs root, runuser and the user nobody.
. "$top_srcdir/tests/lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: not root"; exit 77; }
command -v runuser >/dev/null && id nobody >/dev/null 2>&1 || { echo "SKIP: no runuser or nobody"; exit 77; }
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
chmod 755 "$T"
$RPG make g.rpg BROWSE.TXT=hello A.TXT=one B.TXT=bee || fail "make g.rpg"
sum=$(sha256sum <g.rpg)

# as nobody: errno name (EACCES...) or OK
nobody() {
	runuser -u nobody -- python3 - "$1" <<'PY'
import os, sys, errno
try:
    exec(sys.argv[1])
    print("OK")
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
PY
}

gfs_mount g.rpg m -o allow_other || fail "mount -o allow_other"
check_eq OK "$(nobody "assert open('$T/m/A.TXT').read() == 'one'")" "nobody reads"
check_eq EACCES "$(nobody "open('$T/m/A.TXT', 'w').write('theirs')")" "nobody overwrites"
check_eq EACCES "$(nobody "open('$T/m/A.TXT', 'a').write('theirs')")" "nobody appends"
check_eq EACCES "$(nobody "os.truncate('$T/m/A.TXT', 0)")" "nobody truncates"
check_eq EACCES "$(nobody "os.unlink('$T/m/B.TXT')")" "nobody removes"
check_eq EACCES "$(nobody "open('$T/m/C.TXT', 'w').write('new')")" "nobody creates"
check_eq EACCES "$(nobody "os.rename('$T/m/B.TXT', '$T/m/D.TXT')")" "nobody renames"
check_eq EACCES "$(nobody "open('$T/m/.scratch', 'w').write('x')")" "nobody makes a scratch file"
check_eq one "$(cat m/A.TXT)" "A.TXT after nobody"
grep " $T/m " /proc/mounts | grep -q default_permissions || fail "no default_permissions: $(grep " $T/m " /proc/mounts)"
gfs_umount m || fail "unmount"
check_eq "$sum" "$(sha256sum <g.rpg)" "the archive after nobody's attempts"

# the option given too: not twice; root still edits
gfs_mount g.rpg m -o allow_other,default_permissions || fail "mount with both"
check_eq 1 "$(grep " $T/m " /proc/mounts | grep -o default_permissions | wc -l)" "default_permissions once"
printf 'root\n' >m/A.TXT || fail "root edits"
gfs_umount m || fail "unmount"
check_eq root "$("$GAMEFS" cat g.rpg A.TXT)" "root's edit"
echo ok
