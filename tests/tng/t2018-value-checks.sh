#!/bin/sh
# Values are checked against what they mean (issue 28, 6b): a patrol-path
# point that is NaN or infinite, in the map's TMX or its map.ini, is EINVAL
# with the line (590cbeb stored a NaN point as 0,0), and the map keeps its
# path.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
$P write g.tng || fail "write"
cp g.tng orig.tng
gfs_mount g.tng m || fail "mount"
cp m/maps/meadow.tmx meadow.tmx
cp m/maps/meadow/map.ini map.ini
line=$(grep -n '<polyline points="0,0 1440,240"/>' meadow.tmx | cut -d: -f1)
[ -n "$line" ] || fail "the generated map has no path polyline"
for pt in "nan,240" "1440,nan" "inf,240" "-inf,0" "1e999,0" "0x10,0" "NAN,1"; do
	sed "s|points=\"0,0 1440,240\"|points=\"0,0 $pt\"|" meadow.tmx >bad.tmx
	check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('bad.tmx', 'm/maps/meadow.tmx')")" "TMX path point $pt"
	grep -q "meadow.tmx: line $line: polyline points are not x,y pairs of finite numbers" "$T/gamefs.log" ||
		fail "message of TMX path point $pt"
done
oline=$(grep -n '<object id="1" name="path" x="432" y="72">' meadow.tmx | cut -d: -f1)
for xy in 'x="nan" y="72"' 'x="432" y="inf"'; do
	sed "s|x=\"432\" y=\"72\"|$xy|" meadow.tmx >bad.tmx
	check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('bad.tmx', 'm/maps/meadow.tmx')")" "TMX path object $xy"
	grep -q "meadow.tmx: line $oline: path object without x and y" "$T/gamefs.log" || fail "message of $xy"
done
sed 's|points="0,0 1440,240"|points="0,0 1440.0,240.5"|' meadow.tmx >frac.tmx
cp frac.tmx m/maps/meadow.tmx || fail "fractions as Tiled writes them"
for pt in "nan,1" "1,inf" "1,-1"; do
	sed "s|^points = 1,1 6,6\$|points = 1,1 $pt|" map.ini >bad.ini
	grep -q "points = 1,1 $pt" bad.ini || fail "map.ini has no points line"
	check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('bad.ini', 'm/maps/meadow/map.ini')")" "map.ini point $pt"
done
check_eq "points = 1,1 6,6" "$(grep '^points' m/maps/meadow/map.ini)" "the path after the refusals"
gfs_umount m || fail "unmount"
cmp g.tng orig.tng || fail "the refused points changed the game"
echo ok
