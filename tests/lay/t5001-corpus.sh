#!/bin/sh
# Every corpus layout mounts, its views match the independent reader, and
# a mount that reads everything but edits nothing leaves the file untouched
# (same bytes, same inode, same mtime).
. "$top_srcdir/tests/lib.sh"
C=$(corpus lay) || exit 77
LAY="python3 $top_srcdir/tests/lay/mklay.py"
cd "$T" || exit 1

n=0
for src in "$C"/*.lay; do
	b=$(basename "$src")
	mkdir -p w && cp "$src" "w/$b" && chmod 644 "w/$b" || fail "copy $b"
	f="w/$b"
	"$GAMEFS" ls "$f" >ls.out || fail "$b: ls"
	"$GAMEFS" check "$f" >/dev/null || fail "$b: check"
	before=$(stat -c '%i %Y' "$f")
	gfs_mount "$f" m || fail "$b: mount"
	$LAY csv "$f" sprites | cmp - m/sprites.csv || fail "$b: sprites.csv differs from the reader"
	$LAY csv "$f" chunks | cmp - m/chunks.csv || fail "$b: chunks.csv differs from the reader"
	eval "$($LAY info "$f")"
	grep -qx "sprites = $sprites" m/layout.ini || fail "$b: sprite count in layout.ini"
	grep -qx "chunks = $chunks" m/layout.ini || fail "$b: chunk count in layout.ini"
	grep -qx "compressed = no" m/layout.ini || fail "$b: compressed in layout.ini"
	if [ "$tail" -gt 0 ]; then
		check_eq "$tail" "$(stat -c %s m/tail.bin)" "$b: tail.bin size"
		tail -c "$tail" "$f" | cmp - m/tail.bin || fail "$b: tail.bin content"
	else
		[ -e m/tail.bin ] && fail "$b: tail.bin without trailing bytes"
	fi
	check_eq "644" "$(stat -c %a m/chunks.csv)" "$b: chunks.csv mode"
	# every node reads back at its stat size (ls sizes agree with content)
	for v in m/layout.ini m/sprites.csv m/chunks.csv; do
		check_eq "$(stat -c %s "$v")" "$(wc -c <"$v")" "$b: $v size"
	done
	cat m/*.* >/dev/null || fail "$b: reading the views"
	gfs_umount m || fail "$b: unmount"
	cmp "$src" "$f" || fail "$b: not byte-identical after a read-only mount"
	check_eq "$before" "$(stat -c '%i %Y' "$f")" "$b: rewritten without an edit"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n corpus layouts"

# one value edited: exactly that float changes; edited back: the file is as it was
cp "$C/FEI_IMD_.lay" w/e_.lay && chmod 644 w/e_.lay
gfs_mount w/e_.lay m || fail "mount FEI_IMD_"
sed -i 's/^100,\([-0-9]*\),/100,\1.5,/' m/chunks.csv || fail "sed -i"
gfs_umount m || fail "unmount"
python3 - "$C/FEI_IMD_.lay" w/e_.lay <<'PY' || fail "one float edit changed other bytes"
import sys, struct
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
assert len(a) == len(b), (len(a), len(b))
diff = [i for i in range(len(a)) if a[i] != b[i]]
sc = struct.unpack_from("<I", a)[0]
off = 8 + 12 * sc + 16 * 100
assert diff and all(off <= i < off + 4 for i in diff), diff
old = struct.unpack_from("<f", a, off)[0]
assert struct.unpack_from("<f", b, off)[0] == float("%d.5" % old), (old, struct.unpack_from("<f", b, off))
PY
gfs_mount w/e_.lay m || fail "remount FEI_IMD_"
sed -i 's/^100,\([-0-9]*\)\.5,/100,\1,/' m/chunks.csv || fail "sed -i back"
gfs_umount m || fail "unmount 2"
cmp "$C/FEI_IMD_.lay" w/e_.lay || fail "edited back: not the original bytes"

# the layout without a base sprite: its dependents are drawn on their own
cp "$C/URP_ASA_.lay" w/URP_ASA_.lay
"$GAMEFS" cat w/URP_ASA_.lay layout.ini | grep -q "^note = no companion image URP_ASA.png" ||
	fail "no-atlas note in layout.ini"
"$GAMEFS" ls w/URP_ASA_.lay | grep -q "atlas.png\|variants" && fail "atlas.png or variants/ without an atlas"
# an atlas too small for the chunks: every variant skipped with a log line
"$GAMEFS" ls w/URP_ASA_.lay -o atlas="$C/MAY_QSE.png" >ls.out 2>err || fail "ls with -o atlas"
grep -q "variants/" ls.out || fail "variants/ with an atlas"
grep -q "variants/." ls.out && fail "variants drawn from an atlas too small"
check_eq 6 "$(grep -c 'skipped: chunk .* outside the 2048x288 atlas' err)" "skip messages"
# one large enough: 6 dependents drawn on their own
$LAY atlas w/big.png 2048 832
"$GAMEFS" ls w/URP_ASA_.lay -o atlas=w/big.png >ls.out 2>err || fail "ls with -o atlas"
check_eq 6 "$(grep -c 'variants/t64_d._.\.png' ls.out)" "URP_ASA: 6 dependent variants without a base"
"$GAMEFS" extract w/URP_ASA_.lay -o atlas=w/big.png x >/dev/null || fail "extract URP_ASA"
$LAY verify w/URP_ASA_.lay w/big.png x/variants --only t64_d2_1 >v.out || fail "URP_ASA variant: $(cat v.out)"
echo ok
