#!/bin/sh
# A TirNanoG script saved half way (a writer killed, a full disk) is refused
# (issue 28, 6b): every script view ends with the line "; end", and a text
# without it is EINVAL, the game unchanged.  590cbeb assembled every cut as
# a valid, shorter script.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cutshort.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
$P write g.tng --full || fail "write"
check_eq "; end" "$("$GAMEFS" cat g.tng startup/0000.tngs | tail -n 1)" "the last line of a script"
gfs_mount g.tng m || fail "mount"
cut_short m/startup/0000.tngs g.tng "startup/0000.tngs"
: >"$T/gamefs.log"
cut_short m/npcs/guard.on_click.tngs g.tng "npcs/guard.on_click.tngs"
gfs_umount m || fail "unmount"
echo ok
