#!/bin/sh
# Attributes, order, inodes, permissions; an untouched mount never rewrites.
. "$top_srcdir/tests/lib.sh"

"$top_builddir/gamefs-mkdemo" "$T/demo.rpg" || fail "mkdemo"
touch -d "2020-01-02 03:04:05" "$T/demo.rpg"
before=$(stat -c '%i %Y %s' "$T/demo.rpg"); sum=$(sha256sum <"$T/demo.rpg")
gfs_mount "$T/demo.rpg" "$T/m" || fail "mount"

# archive order, not sorted
order=$(python3 -c 'import os,sys; print(" ".join(n for n in os.listdir(sys.argv[1]) if n != ".gamefs.log"))' "$T/m")
check_eq "ARCHINYM.LMP BROWSE.TXT OHRRPGCE.GEN PALETTES.BIN OHRRPGCE.T00 README.TXT EMPTY.BIN" "$order" "readdir order"
# modes, sizes, owner, mtime = archive mtime
check_eq "-rw-r--r-- 63 $(id -u) 1577934245" "$(stat -c '%A %s %u %Y' "$T/m/BROWSE.TXT")" "attributes"
check_eq "drwxr-xr-x" "$(stat -c '%A' "$T/m")" "root dir mode"
i1=$(stat -c %i "$T/m/PALETTES.BIN"); ls -l "$T/m" >/dev/null; i2=$(stat -c %i "$T/m/PALETTES.BIN")
check_eq "$i1" "$i2" "stable inode"
[ "$(stat -c %i "$T/m/BROWSE.TXT")" != "$i1" ] || fail "inodes differ between files"
# d_type in readdir
python3 - "$T/m" <<'PY' || fail "d_type"
import os, sys
for e in os.scandir(sys.argv[1]):
    assert e.is_file(follow_symlinks=False), e.name
PY
# reading everything, twice, seeks too
python3 - "$T/m/OHRRPGCE.T00" <<'PY' || fail "read with seeks"
import sys
d = open(sys.argv[1], 'rb').read()
assert len(d) == 4096
with open(sys.argv[1], 'rb') as f:
    f.seek(4000); assert f.read(200) == d[4000:]
    f.seek(5000); assert f.read(10) == b''
PY
# things the format cannot do
check_eq EPERM "$(errno_of "os.mkdir('$T/m/dir')")" "mkdir"
check_eq ENOENT "$(errno_of "open('$T/m/none.txt','rb')")" "missing file"
check_eq OK "$(errno_of "os.chmod('$T/m/BROWSE.TXT', 0o600)")" "chmod accepted"
df "$T/m" >/dev/null || fail "statfs"
cat "$T/m"/* >/dev/null
gfs_umount "$T/m" || fail "unmount"
check_eq "$before" "$(stat -c '%i %Y %s' "$T/demo.rpg")" "untouched archive: inode, mtime, size"
check_eq "$sum" "$(sha256sum <"$T/demo.rpg")" "untouched archive: bytes"

# a file removed while open stays readable through its open descriptor
cp "$T/demo.rpg" "$T/d2.rpg"
gfs_mount "$T/d2.rpg" "$T/m2" || fail "mount d2"
python3 - "$T/m2" <<'PY' || fail "read after unlink"
import os, sys
m = sys.argv[1]
f = open(m + '/README.TXT', 'rb')
os.unlink(m + '/README.TXT')
assert not os.path.exists(m + '/README.TXT')
assert f.read().startswith(b'Edit me'), 'content gone'
assert os.fstat(f.fileno()).st_size == 58
f.close()
PY
gfs_umount "$T/m2" || fail "unmount d2"
"$GAMEFS" ls "$T/d2.rpg" | grep -q README.TXT && fail "unlinked lump still in the archive"

# -o ro: writes refused, nothing changes
gfs_mount "$T/demo.rpg" "$T/m" -o ro || fail "mount ro"
check_eq EROFS "$(errno_of "open('$T/m/BROWSE.TXT','ab')")" "write on ro mount"
check_eq EROFS "$(errno_of "os.unlink('$T/m/BROWSE.TXT')")" "unlink on ro mount"
gfs_umount "$T/m" || fail "unmount ro"
check_eq "$sum" "$(sha256sum <"$T/demo.rpg")" "ro mount leaves bytes"
echo ok
