#!/bin/sh
# maps/<name>.png: a valid PNG (every chunk's CRC, the zlib stream and its
# Adler-32) whose pixels are the map drawn from the other views (the
# tileset PNGs and the CSV layers, every layer in order; tests/tng/mappng.py
# draws the reference), the size a fresh mount's stat gives before any read,
# 4 KiB preads at random offsets the bytes of one whole read, read-only; for
# the generated games of every 2D type (one with opaque tiles) and the corpus games.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

# check_maps MNT WHAT: every map of the mounted game
check_maps() {
	n=0
	for tmx in "$1"/maps/*.tmx; do
		[ -f "$tmx" ] || fail "$2: no map"
		map=$(basename "$tmx" .tmx)
		size=$(stat -c %s "$1/maps/$map.png")	# before anything reads it
		python3 "$top_srcdir/tests/tng/mappng.py" "$1" "$map" || fail "$2: $map.png"
		check_eq "$size" "$(wc -c <"$1/maps/$map.png")" "$2: $map.png's stat size is its length"
		e=$(errno_of "open('$1/maps/$map.png', 'r+b')")
		case $e in EACCES | EROFS) ;; *) fail "$2: $map.png is read-only: open for writing gave $e" ;; esac
		n=$((n + 1))
	done
	note "$2: $n maps"
}

$P write g.tng --full || fail "write"
gfs_mount g.tng m || fail "mount"
check_maps m full
gfs_umount m || fail "umount"
# opaque tiles (drawn as row copies): every atlas opaque, each tile's first
# frame the whole sprite
cp g.tng o.tng
gfs_mount o.tng m || fail "mount o"
for a in m/atlases/*.png; do
	python3 "$top_srcdir/tests/tng/mappng.py" --opaque "$a" || fail "make $a opaque"
done
for f in m/sprites/tiles/*.txt; do
	awk '/^width/ {w = $3} /^height/ {h = $3}
	     /^frame/ && !done {print "frame = 0 0 0 0 " w " " h " 0 0"; done = 1; next} {print}' "$f" >f.txt &&
		cat f.txt >"$f" || fail "whole-sprite frame in $f"
done
gfs_umount m || fail "umount o"
gfs_mount o.tng m || fail "remount o"
python3 "$top_srcdir/tests/tng/mappng.py" --is-opaque m/maps/tilesets/tiles.png || fail "the tiles are not opaque"
check_maps m opaque
gfs_umount m || fail "umount o 2"

# the other 2D game types: isometric, hexagonal (both stagger axes)
$P write p.tng || fail "write plain"
for t in 0 1 2 3; do
	gfs_mount p.tng m || fail "mount $t"
	sed -i "s/^type = .*/type = $t/" m/header.ini || fail "type $t"
	gfs_umount m || fail "umount $t"
	gfs_mount p.tng m || fail "remount $t"
	check_maps m "type $t"
	gfs_umount m || fail "umount 2 $t"
done

C="$top_srcdir/../shared/corpus/tng"
for game in "$C"/*.tng; do
	[ -f "$game" ] || { note "corpus tng absent"; break; }
	gfs_mount "$game" m -o ro || fail "mount $game"
	check_maps m "$(basename "$game")"
	gfs_umount m || fail "umount $game"
done
echo ok
