#!/bin/sh
# zlib-compressed layouts (Chaos;Child style) mount like plain ones, stay
# byte-identical untouched, are written back compressed after an edit, and
# layout.ini's "compressed" switches the encoding both ways.
. "$top_srcdir/tests/lib.sh"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
cd "$T" || exit 1
iszlib() { python3 -c "import sys,zlib; zlib.decompress(open(sys.argv[1],'rb').read())" "$1" 2>/dev/null; }

$LAY gen Z_.lay --compressed --tail 3 --atlas Z.png
$LAY gen P_.lay --tail 3
cp Z_.lay orig.lay
gfs_mount Z_.lay m || fail "mount"
grep -qx "compressed = yes" m/layout.ini || fail "compressed = yes"
$LAY csv Z_.lay chunks | cmp - m/chunks.csv || fail "chunks.csv of a compressed layout"
"$GAMEFS" cat P_.lay chunks.csv | cmp - m/chunks.csv || fail "same views as the plain twin"
check_eq 3 "$(stat -c %s m/tail.bin)" "tail inside the stream"
cat m/variants/*.png >/dev/null || fail "variants of a compressed layout"
gfs_umount m || fail "unmount"
cmp Z_.lay orig.lay || fail "untouched compressed layout rewritten"

# an edit: written back compressed
gfs_mount Z_.lay m || fail "mount 2"
sed -i 's/^5,\([-0-9]*\),/5,\1,/; s/^5,-37,/5,-38,/' m/chunks.csv || fail "sed -i"
gfs_umount m || fail "unmount 2"
iszlib Z_.lay || fail "edited layout no longer compressed"
eval "$($LAY info Z_.lay)"
check_eq "1 9 25 3" "$compressed $sprites $chunks $tail" "compressed layout after edit"
$LAY csv Z_.lay chunks | grep -q '^5,-38,' || fail "edit inside the compressed layout"

# switch to uncompressed and back
gfs_mount Z_.lay m || fail "mount 3"
sed -i 's/^compressed = yes/compressed = no/' m/layout.ini || fail "sed -i layout.ini"
grep -qx "compressed = no" m/layout.ini || fail "compressed = no visible"
gfs_umount m || fail "unmount 3"
iszlib Z_.lay && fail "still compressed after compressed = no"
$LAY layout Z_.lay >raw1
python3 -c "import sys; d=open(sys.argv[1],'rb').read(); import struct; s,c=struct.unpack_from('<II',d); sys.exit(0 if len(d)==8+12*s+16*c+3 else 1)" Z_.lay ||
	fail "uncompressed size"
gfs_mount Z_.lay m || fail "mount 4"
sed -i 's/^compressed = no/compressed = yes/' m/layout.ini || fail "sed -i layout.ini 2"
gfs_umount m || fail "unmount 4"
iszlib Z_.lay || fail "not compressed after compressed = yes"
$LAY layout Z_.lay | cmp - raw1 || fail "content changed by the round of compression"

# bytes after the zlib stream are kept; they forbid uncompressing
cp orig.lay J_.lay && printf 'JUNK' >>J_.lay
gfs_mount J_.lay m || fail "mount with bytes after the stream"
grep -qx "bytes_after_zlib_stream = 4" m/layout.ini || fail "bytes after the stream in layout.ini"
sed 's/^compressed = yes/compressed = no/' m/layout.ini >l.tmp
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('l.tmp', 'm/layout.ini')")" "uncompress with trailing bytes"
check_eq JUNK "$(cat m/after-stream.bin)" "after-stream.bin"
printf 'TAIL' >m/tail.bin || fail "tail edit"
gfs_umount m || fail "unmount 5"
check_eq JUNK "$(tail -c 4 J_.lay)" "bytes after the stream kept"
$LAY layout J_.lay | tail -c 4 | grep -q TAIL || fail "tail edit in the stream"
gfs_mount J_.lay m || fail "mount 6"
printf 'MORE' >m/after-stream.bin || fail "after-stream.bin edit"
truncate -s 0 m/after-stream.bin || fail "after-stream.bin emptied"
sed -i 's/^compressed = yes/compressed = no/' m/layout.ini || fail "uncompress once the stream is alone"
gfs_umount m || fail "unmount 6"
iszlib J_.lay && fail "still compressed"
$LAY layout J_.lay | tail -c 4 | grep -q TAIL || fail "uncompressed with its tail"
echo ok
