#!/bin/sh
# Colour 0 is transparent where the engine does not draw it (issue 30,
# item 3): every sprite PNG and font.png carries a tRNS chunk making index
# 0 clear, tilesets and master-palette backdrops none.  Written back
# through ImageMagick's convert, keeping the tRNS or dropping it (-alpha
# off), they change nothing; a pixel made transparent in an RGBA edit is
# index 0.  The corpus: every sprite and font.png clear at 0, a fifth of
# them (each kind's first, the font) through convert both ways byte-identical.
. "$top_srcdir/tests/lib.sh"
GFX="python3 $top_srcdir/tests/rpg/gfxgame.py"
cd "$T" || exit 1
command -v convert >/dev/null || { echo "SKIP: no ImageMagick convert" >&2; exit 77; }

# trns FILE: the PNG's tRNS chunk as hex, "none" without one
trns() {
	python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests/rpg'); import gfxgame as g
print(next((b.hex() for k, b in g.png_chunks('$1') if k == b'tRNS'), 'none'))"
}

$GFX mkgame g.rpg new
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
check_eq 00 "$(trns m/sprites/walkabouts/001.png)" "walkabout: index 0 clear"
check_eq 00 "$(trns m/sprites/heroes/000.png)" "hero: index 0 clear"
check_eq 00 "$(trns m/font.png)" "font: index 0 clear"
check_eq none "$(trns m/tilesets/00.png)" "tileset: opaque"
for v in sprites/walkabouts/001.png sprites/box-borders/000.png font.png; do
	convert "m/$v" keep.png && convert "m/$v" -alpha off drop.png || fail "convert $v"
	check_eq 00 "$(trns keep.png | cut -c1-2)" "$v: convert keeps the tRNS (index 0 clear)"
	check_eq none "$(trns drop.png)" "$v: -alpha off drops it"
	cp keep.png "m/$v" || fail "$v: the tRNS kept"
	cp drop.png "m/$v" || fail "$v: the tRNS dropped"
done
gfs_umount m || fail "unmount"
cmp g.rpg orig.rpg || fail "PNGs through convert changed the archive"

# a pixel made transparent (7,2 of walkabout 1: index 9 there) is index 0
gfs_mount g.rpg m || fail "remount"
check_eq 9 "$($GFX png-index m/sprites/walkabouts/001.png | sed -n 4p | cut -c15-16 | sed 's/^0//')" "index before"
convert m/sprites/walkabouts/001.png -alpha set -fill none -draw "matte 7,2 point" clear.png || fail "convert clear"
cp clear.png m/sprites/walkabouts/001.png || fail "the cleared pixel"
check_eq 00 "$($GFX png-index m/sprites/walkabouts/001.png | sed -n 4p | cut -c15-16)" "index after"
gfs_umount m || fail "unmount clear"
check_eq 0 "$($GFX sprite-pixel g.rpg GAMEFS.PT4 20 20 8 1 7 2)" "PT4 byte"
check_eq 9 "$($GFX sprite-pixel orig.rpg GAMEFS.PT4 20 20 8 1 7 2)" "PT4 byte before"

# the corpus
dir=$(corpus rpg) || exit 77
n=0 c=0
for f in "$dir"/*.rpg; do
	b=$(basename "$f")
	cp "$f" "$b" && chmod 644 "$b"
	gfs_mount "$b" m || fail "mount $b"
	(cd m && find sprites font.png -name '*.png' 2>/dev/null | sort) >pngs.txt
	python3 - "$top_srcdir/tests/rpg" <<'PY' || fail "$b: a sprite or the font not clear at 0"
import sys
sys.path.insert(0, sys.argv[1])
import gfxgame as g
for v in open('pngs.txt').read().split():
    t = next((b for k, b in g.png_chunks('m/' + v) if k == b'tRNS'), None)
    assert t == b'\0', (v, t)
PY
	for v in $(cat pngs.txt); do
		n=$((n + 1))
		# through convert: every fifth (the machine is shared), the font and each kind's first
		case $v in font.png | */000.png) ;; *) [ $((n % 5)) = 0 ] || continue ;; esac
		convert "m/$v" keep.png && convert "m/$v" -alpha off drop.png || fail "$b: convert $v"
		cp keep.png "m/$v" && cp drop.png "m/$v" || fail "$b: $v through convert"
		c=$((c + 1))
	done
	gfs_umount m || fail "unmount $b"
	cmp "$f" "$b" || fail "$b: sprites through convert changed the archive"
	rm -f "$b"
done
echo "ok: $n corpus sprites and fonts clear at 0, $c through convert both ways unchanged"
