#!/bin/sh
# Deleting the file of a chunk deletes the chunk (a user, an NPC, a map
# layer, the ban list, an unknown chunk); other files cannot be deleted.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tngsave/tngsave.py"
s="$T/s.sav"
$P mk "$s" --kind server --wrap raw || fail "mk"
$P dump "$s" >"$T/before"
gfs_mount "$s" "$T/m" || fail "mount"
M="$T/m"
check_eq EPERM "$(errno_of "os.unlink('$M/header.ini')")" "delete header.ini"
check_eq EPERM "$(errno_of "os.unlink('$M/preview.png')")" "delete preview.png"
check_eq ENOTEMPTY "$(errno_of "os.rmdir('$M/users')")" "rmdir non-empty users"
check_eq EPERM "$(errno_of "os.mkdir('$M/users/dave')")" "mkdir"
# an open file stays readable after its chunk is deleted
exec 3<"$M/npcs/0001.ini"
rm "$M/npcs/0001.ini" || fail "rm npc"
head -c 20 <&3 | grep -q "^type = 1$" || fail "deleted open file still readable"
exec 3<&-
rm -r "$M/users/bob" || fail "rm -r user"
rm "$M/deny.txt" "$M/chunks/10-XTRA.bin" "$M/maps/4.csv" || fail "rm chunks"
check_eq "alice carol" "$(ls "$M/users" | tr '\n' ' ' | sed 's/ $//')" "users left"
check_eq "0000.ini 0002.ini" "$(ls "$M/npcs" | tr '\n' ' ' | sed 's/ $//')" "npcs left"
rmdir "$M/chunks" || fail "rmdir empty chunks/"
gfs_umount "$M" || fail "umount"

$P dump "$s" >"$T/after" || fail "dump"
check_eq "wrap: raw" "$(grep '^wrap' "$T/after")" "wrapping kept"
check_eq "crc: inflated" "$(grep '^crc' "$T/after")" "CRC kept"
check_eq "GLBL QSTS USER USER NPC NPC MAP" "$(grep '^chunk' "$T/after" | awk '{print $3}' | tr '\n' ' ' | sed 's/ $//')" "chunks left, in order"
grep -q "^user.bob" "$T/after" && fail "bob still there"
check_eq "npc.0001.type: 2" "$(grep '^npc.0001.type' "$T/after")" "second NPC is the old third"
for k in GLBL QSTS user.alice user.carol map.1; do
	check_eq "$(grep "^$k" "$T/before")" "$(grep "^$k" "$T/after")" "untouched $k"
done
gfs_mount "$s" "$T/m" || fail "remount"
check_eq "0000.ini 0001.ini" "$(ls "$M/npcs" | tr '\n' ' ' | sed 's/ $//')" "npcs renumbered on reload"
[ ! -e "$M/deny.txt" ] || fail "deny.txt back"
gfs_umount "$M" || fail "umount 2"
"$GAMEFS" check "$s" >/dev/null || fail "check"
echo ok
