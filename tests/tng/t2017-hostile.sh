#!/bin/sh
# Hostile TirNanoG input costs time and memory linear in its size (issue 28):
# a script of N labels is assembled in linear time; a TMX whose editor
# settings hold many elements, or elements of 256 attributes each, is read
# in linear time and in memory of a few times its size; a PNG whose image
# data inflates past the pixels its header declares is refused (590cbeb
# took an atlas of 64x64 pixels inflating to 1 GiB of zeros, 1.35 s of CPU,
# with close() = 0), and so is an atlas over 2^atlas_size_log2 pixels a side,
# while PNGs of every kind (Adam7 interlaced, 1 to 16 bits) still decode;
# a TMX layer of <tile gid=".."/> elements takes gids from 0 to 2^32 - 1 and
# refuses others with the line (590cbeb wrapped 4294967297 to 1 and read
# "abc" as 0, with close() = 0).
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
H="python3 $top_srcdir/tests/hostile.py"
cd "$T" || exit 1
$P write g.tng || fail "write"

# N labels, each a jump to the next: 590cbeb took 0.45 s of CPU for 10,000
# and 2.05 s for 20,000
N=10000
for n in $N $((4 * N)); do
	python3 -c "import sys; n = int(sys.argv[1]); sys.stdout.write(''.join('\tJMP L%d\nL%d:\n' % (i, i) for i in range(1, n + 1)) + '\tEND\n; end\n')" $n >s$n.tngs
	cp g.tng g$n.tng
	gfs_mount g$n.tng m || fail "mount"
	a=$($H pcpu "$GFS_PID")
	timeout 120 cp s$n.tngs m/startup/0001.tngs || fail "write a script of $n labels"
	b=$($H pcpu "$GFS_PID")
	cmp s$n.tngs m/startup/0001.tngs || fail "script of $n labels reads back changed"
	gfs_umount m || fail "unmount"
	eval "w$n=\$(echo \"\$b - \$a\" | bc)"
done
linear_ok "assembly of N labels" "$(eval echo \$w$N)" "$(eval echo \$w$((4 * N)))"
# TMX: K elements of 256 attributes (590cbeb: 0.43 s and 34 MiB for 1.9 MB,
# 2.5 s and 137 MiB for 7.8 MB); K empty elements (0.5 s for 100,000, 11.9 s
# for 400,000)
tmx_write() {	# tmx_write GEN K: daemon CPU seconds and peak memory growth in KiB
	cp g.tng x.tng
	gfs_mount x.tng m || fail "mount"
	$H $1 $2 m/maps/meadow.tmx x.tmx
	a=$($H pcpu "$GFS_PID"); ma=$($H pmem "$GFS_PID")
	timeout 120 cp x.tmx m/maps/meadow.tmx || fail "$1 $2: write"
	b=$($H pcpu "$GFS_PID"); mb=$($H pmem "$GFS_PID")
	gfs_umount m || fail "unmount"
	echo "$(echo "$b - $a" | bc) $((mb - ma))"
}
K=1000
set -- $(tmx_write tmx-attrs $K); c1=$1
set -- $(tmx_write tmx-attrs $((4 * K))); c4=$1 mem=$2
linear_ok "TMX of K elements of 256 attributes" "$c1" "$c4"
size=$(stat -c %s x.tmx)
note "TMX of $size bytes: $mem KiB more peak memory"
# (as t0022: a sanitizer's shadow memory and quarantine are not the parser's)
factor=8; grep -q __asan_init "$GAMEFS" && factor=40
[ $((mem * 1024)) -le $((factor * size)) ] || fail "TMX of $size bytes took $mem KiB: more than $factor times its size"
# PNG inflation capped by the declared image size
cp g.tng p.tng
cp p.tng p-orig.tng
$H png-bomb 64 64 1024 bomb.png
$H png-bomb 64 64 1 bomb1.png
python3 - <<'PY'
import struct, zlib
def chunk(k, d): return struct.pack('>I', len(d)) + k + d + struct.pack('>I', zlib.crc32(k + d))
def png(w, h, rows): return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0)) +
                             chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
open('wide.png', 'wb').write(png(512, 16, (b'\0' + bytes(4 * 512)) * 16))
open('exact.png', 'wb').write(png(64, 64, (b'\0' + bytes(4 * 64)) * 64))
open('onemore.png', 'wb').write(png(64, 64, (b'\0' + bytes(4 * 64)) * 64 + b'\0'))
PY
gfs_mount p.tng m || fail "mount"
check_eq 8 "$(sed -n 's/^atlas_size_log2 = //p' m/header.ini)" "the generated game's atlas size"
a=$($H pcpu "$GFS_PID")
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('bomb.png', 'm/atlases/0000.png')")" "an atlas inflating to 1 GiB"
b=$($H pcpu "$GFS_PID")
note "refusing the 1 GiB bomb took $(echo "$b - $a" | bc) s of CPU"
grep -q "0000.png: not a PNG image that decodes (whole, and to no more than the pixels its header declares)" "$T/gamefs.log" ||
	fail "message of the bomb"
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('bomb1.png', 'm/backs/0000.png')")" "a background inflating to 1 MiB"
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('onemore.png', 'm/backs/0000.png')")" "one byte past the image"
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('wide.png', 'm/atlases/0000.png')")" "an atlas wider than 2^8"
grep -q "0000.png: 512x16 pixels, over the 256x256 of header.ini's atlas_size_log2" "$T/gamefs.log" || fail "message of the wide atlas"
cp exact.png m/atlases/0000.png || fail "an atlas of exactly its declared data"
cp wide.png m/backs/0000.png || fail "a background is not bound by the atlas size"
if command -v convert >/dev/null 2>&1; then
	convert -size 37x23 plasma: -interlace PNG PNG32:i-rgba.png
	convert -size 37x23 plasma: -colors 16 -interlace PNG i-pal.png
	convert -size 13x7 gradient: -depth 16 -interlace PNG PNG48:i-16.png
	convert -size 13x7 xc:gray -colors 2 -depth 1 -type bilevel -interlace PNG i-1bit.png
	for f in i-rgba.png i-pal.png i-16.png i-1bit.png; do
		cp $f m/backs/0000.png || fail "$f ($(file -b $f)) refused"
	done
fi
gfs_umount m || fail "unmount"
"$GAMEFS" check p.tng >/dev/null || fail "check after the refused atlases"
# fuzz/corpus/tng/atlas-bomb.tng: the generated game with atlas 0 a 64x64 PNG
# inflating to 32 MiB of zeros, stored by 590cbeb
"$GAMEFS" check "$top_srcdir/fuzz/corpus/tng/atlas-bomb.tng" >out 2>&1; check_eq 1 $? "check of the atlas bomb"
grep -q "^atlas 0: not a PNG image that decodes" out || fail "check of the atlas bomb: $(cat out)"

# <tile gid=".."/> layers: range-checked
cp g.tng t.tng
gfs_mount t.tng m || fail "mount"
cp m/maps/meadow.tmx meadow.tmx
first=$(sed -n '/<data encoding="csv">/{n;p;q}' meadow.tmx | cut -d, -f1)
$H tmx-tiles "$first" meadow.tmx same.tmx
cp same.tmx m/maps/meadow.tmx || fail "a layer as <tile> elements"
cmp m/maps/meadow.tmx meadow.tmx || fail "a layer as <tile> elements changed the map"
for gid in 4294967297 abc -1 1x "" 18446744073709551617; do
	$H tmx-tiles "$gid" meadow.tmx bad.tmx
	line=$(grep -n '<tile gid="'"$gid"'"/>' bad.tmx | head -n 1 | cut -d: -f1)
	check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('bad.tmx', 'm/maps/meadow.tmx')")" "gid [$gid]"
	grep -q "meadow.tmx: line $line: gid '$gid' is not a number from 0 to 4294967295" "$T/gamefs.log" ||
		fail "message of gid [$gid]"
done
cmp m/maps/meadow.tmx meadow.tmx || fail "refused gids changed the map"
$H tmx-tiles 4294967295 meadow.tmx top.tmx
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('top.tmx', 'm/maps/meadow.tmx')")" "gid 2^32 - 1 (all flip bits)"
grep -q "a flipped or rotated tile" "$T/gamefs.log" || fail "gid 2^32 - 1 refused as flipped"
gfs_umount m || fail "unmount"

K=100000
set -- $(tmx_write tmx-kids $K); c1=$1
set -- $(tmx_write tmx-kids $((4 * K))); c4=$1
linear_ok "TMX of K empty elements" "$c1" "$c4"
echo "ok"
