#!/bin/sh
# gamefs thumbnail ARCHIVE OUT.png SIZE, for every format with a picture:
# the thumbnail has the size that fits SIZE (aspect kept, never enlarged)
# and its pixels are the view the format names (a TirNanoG game's first
# map, a save's preview, an OHRRPGCE title screen or first map, a ZZT
# title board, a .lay base sprite) scaled down: ImageMagick's -scale (area
# averaging) of that view, read with `gamefs cat`, is within 1% RMSE, and
# the mirror image of it is not.
. "$top_srcdir/tests/lib.sh"
for t in convert compare identify; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: $t absent (imagemagick)"; exit 77; }
done
C=$top_srcdir/../shared/corpus
[ -d "$C" ] || { echo "SKIP: corpus absent"; exit 77; }
n=0 bad=0

# thumb ARCHIVE VIEW SIZE: check one thumbnail against its view
thumb() {
	a=$C/$1 view=$2 size=$3 out=$T/thumb-$n.png
	n=$((n + 1))
	[ -f "$a" ] || { note "skip $1: absent"; return 0; }
	if ! "$GAMEFS" thumbnail "$a" "$out" "$size" 2>"$T/err"; then
		echo "not ok: $1: thumbnail failed: $(cat "$T/err")"; bad=$((bad + 1)); return 0
	fi
	"$GAMEFS" cat "$a" "$view" >"$T/view.png" || { echo "not ok: $1: cat $view"; bad=$((bad + 1)); return 0; }
	set -- $1 $(identify -format '%w %h' "$T/view.png") $(identify -format '%w %h %m' "$out")
	# the size that fits: the long side becomes SIZE, the short one is rounded
	want=$(awk -v w="$2" -v h="$3" -v s="$size" 'BEGIN {
		if (w <= s && h <= s) { print w, h; exit }
		if (w >= h) { o = int((h * s + int(w / 2)) / w); print s, (o ? o : 1) }
		else { o = int((w * s + int(h / 2)) / h); print (o ? o : 1), s } }')
	if [ "$4 $5" != "$want" ] || [ "$6" != PNG ]; then
		echo "not ok: $1 at $size: a $6 of $4x$5, want $want from a $2x$3 $view"; bad=$((bad + 1)); return 0
	fi
	convert "$T/view.png" -scale "$4x$5!" "$T/want.png"
	convert "$T/want.png" -flop "$T/mirror.png"
	same=$(compare -metric RMSE "$out" "$T/want.png" null: 2>&1 | sed 's/.*(\(.*\))/\1/')
	other=$(compare -metric RMSE "$out" "$T/mirror.png" null: 2>&1 | sed 's/.*(\(.*\))/\1/')
	if awk -v a="$same" -v b="$other" 'BEGIN { exit !(a < 0.01 && b > 0.01) }'; then
		echo "ok: $1 at $size: $4x$5 from $view ($2x$3), RMSE $same (mirrored $other)"
	else
		echo "not ok: $1 at $size: RMSE $same against $view scaled, $other against its mirror"; bad=$((bad + 1))
	fi
}

thumb tng/demo1.tng maps/village.png 128
thumb tngsave/demo1.sav preview.png 64
thumb rpg/baby_bob.rpg backdrops/00.png 128
thumb rpg/npc_tag.rpg maps/00/map.png 100
thumb zzt/TOWN30.ZZT boards/00-introduction-screen/board.png 256
thumb zzt/TOWN30.ZZT boards/00-introduction-screen/board.png 1024
thumb zzt/almost-of-zzt_SAVED.SAV boards/00-introduction-screen/board.png 128
thumb lay/MAY_QSE_.lay variants/b1.png 256

# refusals: nothing to picture, a bad size, a file that is no archive
if [ -f "$C/rsav/reload_heroes.reld" ]; then
	"$GAMEFS" thumbnail "$C/rsav/reload_heroes.reld" "$T/none.png" 128 2>"$T/err"
	check_eq 1 $? "a RELOAD document has no picture (exit)"
	[ -e "$T/none.png" ] && fail "a failed thumbnail left its output"
fi
"$GAMEFS" thumbnail "$C/zzt/TOWN30.ZZT" "$T/x.png" 0 2>/dev/null
check_eq 2 $? "SIZE 0"
printf 'not a game' >"$T/junk.rpg"
"$GAMEFS" thumbnail "$T/junk.rpg" "$T/x.png" 128 2>/dev/null
[ $? -ne 0 ] || fail "a junk file made a thumbnail"
[ $bad -eq 0 ] || fail "$bad of $n thumbnails wrong"
echo ok
