#!/bin/sh
# Sprites and chunks are added and removed as rows at the end of sprites.csv
# and chunks.csv; the layout's counts follow (layout.ini and the file, read
# back by mklay.py), a new sprite's variant is drawn, removing the rows again
# gives back the same bytes (plain and zlib-compressed), and more rows than
# the format holds are EINVAL with the limit in the log, the file unchanged.
. "$top_srcdir/tests/lib.sh"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
cd "$T" || exit 1

for kind in plain compressed; do
	opt=; [ $kind = compressed ] && opt=--compressed
	$LAY gen G_.lay $opt --atlas G.png --tail 5 || fail "gen $kind"
	cp G_.lay orig.lay
	gfs_mount G_.lay m || fail "mount $kind"
	echo "25,-37,-87,33,97" >>m/chunks.csv || fail "$kind: a new chunk"
	echo "9,0x20,3,0,0,25,1" >>m/sprites.csv || fail "$kind: a new sprite on it"
	check_eq "sprites = 10 chunks = 26" "$(grep -E '^(sprites|chunks) =' m/layout.ini | tr '\n' ' ' | sed 's/ $//')" \
		"$kind: counts in layout.ini"
	[ -s m/variants/s3.png ] || fail "$kind: the new sprite's variant: $(ls m/variants)"
	cp m/sprites.csv sprites.want
	cp m/chunks.csv chunks.want
	gfs_umount m || fail "unmount $kind"
	eval "$($LAY info G_.lay)"
	check_eq "10 26" "$sprites $chunks" "$kind: counts in the file"
	$LAY csv G_.lay sprites | cmp - sprites.want || fail "$kind: sprites.csv read back"
	$LAY csv G_.lay chunks | cmp - chunks.want || fail "$kind: chunks.csv read back"
	"$GAMEFS" check G_.lay >check.out || fail "$kind: check after the new rows: $(cat check.out)"

	gfs_mount G_.lay m || fail "remount $kind"
	head -n 1 m/chunks.csv >header.csv
	check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('header.csv', 'm/chunks.csv')")" \
		"$kind: chunks a sprite still uses removed"
	sed -i '$d' m/sprites.csv || fail "$kind: remove the sprite"
	sed -i '$d' m/chunks.csv || fail "$kind: remove the chunk"
	check_eq "sprites = 9 chunks = 25" "$(grep -E '^(sprites|chunks) =' m/layout.ini | tr '\n' ' ' | sed 's/ $//')" \
		"$kind: counts after the removal"
	[ -e m/variants/s3.png ] && fail "$kind: the removed sprite's variant is still listed"
	gfs_umount m || fail "unmount $kind after the removal"
	cmp G_.lay orig.lay || fail "$kind: grown and shrunk back is not byte-identical"
done

# the limit: 65536 sprites
cp G_.lay orig.lay
gfs_mount G_.lay m || fail "mount for the limit"
python3 - <<'PY' >big.csv
import sys
rows = open('m/sprites.csv').read().splitlines()
out = rows[:]
for i in range(len(rows) - 1, 65537):
    out.append('%d,0x20,1,0,0,12,2' % i)
sys.stdout.write('\n'.join(out) + '\n')
PY
check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('big.csv', 'm/sprites.csv')")" "65537 sprites"
grep -q 'sprites.csv: 65537 rows, at most 65536' m/.gamefs.log || fail "EINVAL names the limit"
gfs_umount m || fail "unmount after the limit"
cmp G_.lay orig.lay || fail "a refused edit changed the layout"
echo ok
