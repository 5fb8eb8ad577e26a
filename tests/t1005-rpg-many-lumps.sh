#!/bin/sh
# A generated archive with thousands of lumps: every lump byte-exact through
# the mount, an edit of one rewrites the file with every other lump intact.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
$RPG gen g.rpg 3000 700 || fail "gen"
$RPG extract g.rpg ref
gfs_mount g.rpg m || fail "mount"
check_eq 3000 "$(ls m | wc -l)" "lump count"
diff -r -x .gamefs.log ref m >/dev/null || fail "lump bytes differ"
check_eq "700" "$(stat -c %s m/LUMP02999.BIN)" "size of last lump"
printf 'edited' | dd of=m/LUMP01500.BIN bs=1 seek=10 conv=notrunc 2>/dev/null || fail "dd edit"
gfs_umount m || fail "unmount"
$RPG extract g.rpg after
python3 - ref/LUMP01500.BIN <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read()); d[10:16] = b'edited'
open(sys.argv[1], 'wb').write(d)
PY
diff -r ref after >/dev/null || fail "lumps after edit"
check_eq 3000 "$($RPG list g.rpg | wc -l)" "count after edit"
echo ok
