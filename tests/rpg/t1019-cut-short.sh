#!/bin/sh
# A RELOAD text saved half way (a writer killed, a full disk) is refused
# (issue 28, 6b): document.txt of a .rsav and a game's reload/ view end with
# the line "end", and a text without it is EINVAL, the document unchanged.
# 590cbeb committed every cut as a valid, smaller document.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cutshort.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

$RPG reld-make s.rsav
check_eq "end" "$("$GAMEFS" cat s.rsav document.txt | tail -n 1)" "the last line of document.txt"
gfs_mount s.rsav m || fail "mount"
cut_short m/document.txt s.rsav "document.txt"
gfs_umount m || fail "unmount"
: >"$T/gamefs.log"

$RPG mkgame g.rpg
gfs_mount g.rpg m || fail "mount game"
cut_short m/reload/general.txt g.rpg "reload/general.txt"
gfs_umount m || fail "unmount game"
echo ok
