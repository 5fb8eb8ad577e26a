#!/bin/sh
# Hostile TirNanoG input costs time and memory linear in its size (issue 28):
# a script of N labels is assembled in linear time.
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
echo "ok"
