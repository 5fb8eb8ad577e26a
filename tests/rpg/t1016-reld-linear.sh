#!/bin/sh
# A RELOAD document with N distinct node names costs time linear in N, both
# to render (document.txt read) and to parse (document.txt written back):
# issue 28 measured 2.6 s and 12.2 s of CPU for 20,000 and 40,000 names.
# A name table listing a name twice still makes that name #N in the text.
. "$top_srcdir/tests/lib.sh"
H="python3 $top_srcdir/tests/hostile.py"
cd "$T" || exit 1
N=10000

for n in $N $((4 * N)); do
	$H reld-names $n r$n.reld
	$H reld-text $n d$n.txt
done
c1=$($H cpu "$GAMEFS" cat r$N.reld document.txt | cut -d' ' -f1)
# 4N gets a deadline, so a quadratic renderer fails in seconds, not minutes
c4=$($H cpu timeout $((16 * ${c1%.*} + 10)) "$GAMEFS" cat r$((4 * N)).reld document.txt | cut -d' ' -f1)
linear_ok "render of N names" "$c1" "$c4"
"$GAMEFS" cat r$N.reld document.txt | cmp - d$N.txt || fail "render of N names"

for n in $N $((4 * N)); do
	gfs_mount r$n.reld m || fail "mount"
	a=$($H pcpu "$GFS_PID")
	timeout 120 cp d$n.txt m/document.txt || fail "write back $n names"
	b=$($H pcpu "$GFS_PID")
	gfs_umount m || fail "unmount"
	eval "w$n=\$(echo \"\$b - \$a\" | bc)"
done
linear_ok "parse of N names" "$(eval echo \$w$N)" "$(eval echo \$w$((4 * N)))"
$H reld-names $N want.reld
cmp r$N.reld want.reld || fail "document.txt of N names written back changed the document"

# a name listed twice is shown and taken as #N, quoted or bare
printf 'RELOAD 1\nnames\n  1 root\n  2 a\n  3 a\n  4 "b c"\n  5 "b c"\ntree\nroot\n  #2\n  #5\nend\n' >twice.txt
cp r$N.reld t.reld
gfs_mount t.reld m || fail "mount"
cp twice.txt m/document.txt || fail "write a table with twice-listed names"
cmp m/document.txt twice.txt || fail "twice-listed names not shown as #N"
check_eq EINVAL "$(errno_insert m/document.txt '  a')" "a bare name listed twice"
check_eq EINVAL "$(errno_insert m/document.txt '  "b c"')" "a quoted name listed twice"
grep -q 'document.txt: line 12: a is listed twice in names' "$T/gamefs.log" || fail "message of a bare name listed twice"
grep -q 'document.txt: line 12: "b c" is listed twice in names' "$T/gamefs.log" || fail "message of a quoted name listed twice"
gfs_umount m || fail "unmount"
echo "ok"
