#!/bin/sh
# variants/: one PNG per variant, named as sg-sprite names them, composed
# along the dependency chain with the 30x30 rule on one shared canvas (the
# bounding box of all chunks), read-only; pixels checked by the independent
# reader against generated atlases and the corpus atlas (16-bit RGB).
. "$top_srcdir/tests/lib.sh"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
cd "$T" || exit 1

$LAY gen G_.lay --atlas G.png
$LAY names G_.lay | sort >want.names
gfs_mount G_.lay m || fail "mount"
ls m/variants | sort >got.names
diff -u want.names got.names || fail "variant names"
cat >want.sg <<X
b1.png
o0.png
o1.png
s1.png
s2.png
t48_d9_3.png
t64_d1_0.png
t64_d1_1.png
t96_d2_0.png
X
diff -u want.sg got.names || fail "sg-sprite names"
set -- $($LAY canvas G_.lay)
for v in m/variants/*.png; do
	check_eq "$1 $2" "$($LAY pngsize "$v")" "canvas of $v"
	check_eq "444" "$(stat -c %a "$v")" "mode of $v"
	check_eq "$(stat -c %s "$v")" "$(wc -c <"$v")" "stat size of $v"
done
grep -qx "width = $1" m/layout.ini || fail "canvas width in layout.ini"
grep -qx "origin_x = $3" m/layout.ini || fail "canvas origin in layout.ini"
$LAY verify G_.lay G.png m/variants >v.out || fail "variant pixels: $(cat v.out)"
check_eq "EACCES" "$(errno_of 'open("m/variants/b1.png", "r+b")')" "writing a variant"
check_eq "EPERM" "$(errno_of 'open("m/variants/new.png", "wb")')" "creating in variants/"
check_eq "EPERM" "$(errno_of 'os.unlink("m/variants/b1.png")')" "removing a variant"
check_eq "EPERM" "$(errno_of 'os.unlink("m/chunks.csv")')" "removing a view"
gfs_umount m || fail "unmount"

# the same from a compressed layout, and with the atlas given explicitly
$LAY gen Z.lay --compressed --tail 7
mv G.png other.png
gfs_mount Z.lay m -o atlas="$T/other.png" || fail "mount compressed"
grep -qx "file = other.png" m/layout.ini || fail "atlas= in layout.ini"
$LAY verify Z.lay other.png m/variants >v.out || fail "compressed variant pixels: $(cat v.out)"
gfs_umount m || fail "unmount"

# the corpus atlas (2048x288, 16-bit RGB, gAMA): a base, a sub, a dependent
if C=$(corpus lay 2>/dev/null); then
	cp "$C/MAY_QSE_.lay" "$C/MAY_QSE.png" .
	gfs_mount MAY_QSE_.lay m || fail "mount corpus"
	check_eq 21 "$(ls m/variants | wc -l)" "corpus variant count"
	check_eq "480 1110" "$($LAY pngsize m/variants/s3.png)" "corpus canvas"
	$LAY verify MAY_QSE_.lay MAY_QSE.png m/variants --only b1,s3,t64_d4_2 >v.out ||
		fail "corpus variant pixels: $(cat v.out)"
	gfs_umount m || fail "unmount"
	cmp MAY_QSE.png "$C/MAY_QSE.png" || fail "atlas touched"
else
	note "corpus absent: the corpus atlas case is skipped"
fi
echo ok
