#!/bin/sh
# Hostile TirNanoG input costs time and memory linear in its size (issue 28):
# a script of N labels is assembled in linear time; a TMX whose editor
# settings hold many elements, or elements of 256 attributes each, is read
# in linear time and in memory of a few times its size.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
H="python3 $top_srcdir/tests/hostile.py"
cd "$T" || exit 1
$P write g.tng || fail "write"

# N labels, each a jump to the next: 590cbeb took 0.45 s of CPU for 10,000
# and 2.05 s for 20,000
N=10000
for n in $N $((4 * N)); do
	python3 -c "import sys; n = int(sys.argv[1]); sys.stdout.write(''.join('\tJMP L%d\nL%d:\n' % (i, i) for i in range(1, n + 1)) + '\tEND\n')" $n >s$n.tngs
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
[ $((mem * 1024)) -le $((8 * size)) ] || fail "TMX of $size bytes took $mem KiB: more than 8 times its size"
K=100000
set -- $(tmx_write tmx-kids $K); c1=$1
set -- $(tmx_write tmx-kids $((4 * K))); c4=$1
linear_ok "TMX of K empty elements" "$c1" "$c4"
echo "ok"
