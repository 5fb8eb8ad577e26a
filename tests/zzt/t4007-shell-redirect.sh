#!/bin/sh
# Shells write with "> file": open(O_TRUNC), dup2 to stdout, close the first
# descriptor (a flush of an empty, unparsable view), then write.  The edit
# must survive that first flush and be committed by the last close; a view
# rewritten with bad content still falls back to its last good content.
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1
python3 "$top_srcdir/tests/zzt/zztlib.py" mk w.zzt basic || fail "make world"
gfs_mount w.zzt m || fail "mount"
sed 's/^health = .*/health = 77/' m/world.ini >ini.new
bash -c 'cat ini.new > m/world.ini' || fail "shell redirect"
grep -q "^health = 77" m/world.ini || fail "edit visible"
gfs_umount m || fail "unmount"
"$GAMEFS" cat w.zzt world.ini | grep -q "^health = 77" || fail "redirected edit committed"

# a bad edit through a redirect: refused, the view reads back the good content
cp w.zzt good.zzt
gfs_mount w.zzt m || fail "remount"
bash -c 'printf "health = lots\n" > m/world.ini' 2>/dev/null
grep -q "^health = 77" m/world.ini || fail "bad redirect: last good content"
gfs_umount m || fail "unmount 2"
cmp w.zzt good.zzt || fail "bad redirect changed the world"

# a file removed while open: fstat and reads go on through the descriptor
gfs_mount w.zzt m || fail "remount 3"
python3 - m <<'PY' || fail "fstat after unlink"
import os, sys, glob
code = sorted(glob.glob(sys.argv[1] + '/boards/*/code/*.oop'))
if code:
    f = open(code[0], 'rb')
    want = f.read(); f.seek(0)
    os.unlink(code[0])
    assert os.fstat(f.fileno()).st_size == len(want)
    assert f.read() == want
PY
gfs_umount m || fail "unmount 3"
echo ok
