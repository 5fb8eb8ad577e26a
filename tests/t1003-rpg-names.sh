#!/bin/sh
# Lump name rules on create and rename; no directories; nothing changes on refusal.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
$RPG make g.rpg BROWSE.TXT=title A.BIN=a
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
long=$(printf 'N%.0s' $(seq 1 51))
ok50=$(printf 'N%.0s' $(seq 1 50))
check_eq EINVAL "$(errno_of "open('m/bad:name','wb')")" "colon refused"
check_eq EINVAL "$(errno_of "open('m/bad\\u00e9','wb')")" "non-ASCII refused"
check_eq ENAMETOOLONG "$(errno_of "open('m/$long','wb')")" "51 characters refused"
check_eq EEXIST "$(errno_of "open('m/browse.txt','wb')")" "case-insensitive clash on create"
check_eq EEXIST "$(errno_of "os.rename('m/A.BIN','m/Browse.Txt')")" "case-insensitive clash on rename"
check_eq EINVAL "$(errno_of "os.rename('m/A.BIN','m/a*b')")" "bad rename"
check_eq EPERM "$(errno_of "os.mkdir('m/sub')")" "mkdir"

check_eq ENOENT "$(errno_of "open('m/browse.txt','rb')")" "lookups are exact"
cmp g.rpg orig.rpg || fail "refusals changed the archive"
check_eq OK "$(errno_of "open('m/$ok50','wb').write(b'x')")" "50 characters allowed"
check_eq OK "$(errno_of "open('m/with space ~-_.txt','wb').write(b'y')")" "allowed punctuation"
check_eq OK "$(errno_of "os.rename('m/A.BIN','m/a.bin')")" "case-only rename"
gfs_umount m || fail "unmount"
check_eq "BROWSE.TXT a.bin $ok50 with space ~-_.txt" "$($RPG list g.rpg | cut -f1 | tr '\n' ' ' | sed 's/ $//')" "names"
echo ok
