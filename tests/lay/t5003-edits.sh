#!/bin/sh
# Edits of chunks.csv, sprites.csv and tail.bin with real tools survive
# unmount and reload; floats read back to the same bits; bad edits fail
# with EINVAL, leave the file untouched and read back the last good view.
. "$top_srcdir/tests/lib.sh"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
cd "$T" || exit 1

$LAY gen G_.lay --atlas G.png --tail 5
gfs_mount G_.lay m || fail "mount"

# chunk 0 moves left by 30 (sed -i), chunk 17 (sub 2) gets a fractional dst
# and a subnormal src_y (python): they read back as the nearest floats
sed -i 's/^0,-67,-87,/0,-97,-87,/' m/chunks.csv || fail "sed -i chunks.csv"
python3 - <<'PY' || fail "python edit of chunks.csv"
lines = open("m/chunks.csv").read().split("\n")
f = lines[18].split(",")
f[1], f[4] = "0.1", "1e-45"
lines[18] = ",".join(f)
open("m/chunks.csv", "w").write("\n".join(lines))
PY
grep -q '^17,0.100000001,-87,33,1.40129846e-45$' m/chunks.csv || fail "floats read back: $(sed -n 19p m/chunks.csv)"
# a new chunk row, then sprite 2 (id 0 -> 5) takes it
echo "25,-7,-57,65,65" >>m/chunks.csv || fail "append to chunks.csv"
sed -i 's/^2,0x40,0,1,0,14,1$/2,0x40,5,1,0,14,2/' m/sprites.csv || fail "sed -i sprites.csv"
printf 'NEWTAIL' >m/tail.bin || fail "write tail.bin"
ls m/variants | grep -q t64_d1_5.png || fail "variant renamed after the sprite edit: $(ls m/variants)"
ls m/variants | grep -q t64_d1_0.png && fail "old variant name still listed"
grep -q "variant s2 skipped: chunk 17 has fractional" gamefs.log || fail "fractional chunk: variant skipped with a log line"
cp m/sprites.csv sprites.want
cp m/chunks.csv chunks.want
gfs_umount m || fail "unmount"

$LAY csv G_.lay sprites | cmp - sprites.want || fail "sprites.csv after reload"
$LAY csv G_.lay chunks | cmp - chunks.want || fail "chunks.csv after reload"
$LAY layout G_.lay | tail -c 7 | grep -q NEWTAIL || fail "tail.bin after reload"
eval "$($LAY info G_.lay)"
check_eq "9 26 7 0" "$sprites $chunks $tail $compressed" "counts after reload"
"$GAMEFS" extract G_.lay x >/dev/null 2>&1 || fail "extract"
$LAY verify G_.lay G.png x/variants >v.out || fail "variants after edits: $(cat v.out)"
[ -e x/variants/s2.png ] && fail "sub variant drawn despite the fractional chunk"
[ -e x/variants/t96_d2_0.png ] && fail "its dependent drawn despite the fractional chunk"

# commit=unmount: a new chunk and the sprite that uses it in one commit
gfs_mount G_.lay m -o commit=unmount || fail "mount commit=unmount"
echo "26,-67,-87,97,65" >>m/chunks.csv || fail "append (commit=unmount)"
sed -i 's/^8,0x50,1,0,16,23,2$/8,0x50,1,0,16,23,4/' m/sprites.csv || fail "sed -i (commit=unmount)"
cp m/sprites.csv sprites.want
cp m/chunks.csv chunks.want
gfs_umount m || fail "unmount commit=unmount"
$LAY csv G_.lay sprites | cmp - sprites.want || fail "sprites.csv after commit=unmount"
$LAY csv G_.lay chunks | cmp - chunks.want || fail "chunks.csv after commit=unmount"

# tail.bin: removed, then created again
gfs_mount G_.lay m || fail "mount for tail.bin"
check_eq EPERM "$(errno_of 'open("m/other.bin", "wb")')" "creating another file"
rm m/tail.bin || fail "rm tail.bin"
[ -e m/tail.bin ] && fail "tail.bin still listed"
check_eq 0 "$($LAY info G_.lay | sed -n 's/^tail=//p')" "no tail after rm"
printf 'again' >m/tail.bin || fail "create tail.bin"
gfs_umount m || fail "unmount tail.bin"
$LAY layout G_.lay | tail -c 5 | grep -q again || fail "created tail.bin written"

# bad edits: EINVAL on close, file and view untouched
cp G_.lay good.lay
gfs_mount G_.lay m || fail "remount"
cp m/chunks.csv c0
cp m/sprites.csv s0
cp m/layout.ini l0
bad() { # FILE SED-EXPR WHAT
	sed "$2" "m/$1" >edit.tmp
	check_eq "EINVAL" "$(errno_of "import shutil; shutil.copyfile('edit.tmp', 'm/$1')")" "$3"
	cmp -s G_.lay good.lay || fail "$3: layout file changed"
}
bad chunks.csv 's/^3,.*/3,nan,0,1,1/' "NaN coordinate"
bad chunks.csv 's/^3,.*/3,inf,0,1,1/' "infinite coordinate"
bad chunks.csv 's/^3,.*/3,1e30,0,1,1/' "huge coordinate"
bad chunks.csv 's/^3,.*/3,x,0,1,1/' "not a number"
bad chunks.csv 's/^3,.*/3,0,0,1/' "missing field"
bad chunks.csv 's/^3,/4,/' "index out of order"
bad chunks.csv 's/^3,\(.*\),[0-9]*,\([0-9]*\)$/3,\1,4001,\2/' "src outside the atlas"
bad chunks.csv '20,$d' "rows a sprite still uses"
bad chunks.csv '1s/.*/a,b,c,d,e/' "bad header"
bad sprites.csv 's/^1,0x20,/1,0x99,/' "unknown type"
bad sprites.csv 's/^1,0x20,1,/1,0x20,256,/' "id out of range"
bad sprites.csv 's/^1,0x20,1,0,0,12,2$/1,0x20,1,0,0,26,2/' "chunk range past the list"
bad sprites.csv 's/^1,0x20,1,0,0,12,2$/1,0x20,1,0,0,-1,2/' "negative offset"
bad layout.ini 's/^sprites = .*/sprites = 5/' "sprite count"
bad layout.ini 's/^compressed = .*/compressed = maybe/' "compressed value"
bad layout.ini '$a bogus = 1' "unknown key"
cmp m/chunks.csv c0 || fail "chunks.csv reads back its last good content"
cmp m/sprites.csv s0 || fail "sprites.csv reads back its last good content"
cmp m/layout.ini l0 || fail "layout.ini reads back its last good content"
grep "chunks.csv refused" gamefs.log | grep -q "is not a finite number" || fail "log names file and reason"
gfs_umount m || fail "unmount after bad edits"
cmp G_.lay good.lay || fail "bad edits changed the layout"
echo ok
