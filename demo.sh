#!/bin/sh
# The README's first command: on Debian, from the checkout, install what
# the build needs, build gamefs, make the demo game (tests/tng/village.py,
# our own code), mount it and say where to look.
#
#   ./demo.sh            everything (apt-get through sudo where not root)
#   GAMEFS=path/to/gamefs DEMO_DIR=dir ./demo.sh
#                        use that binary (no install, no build) and put
#                        demo.tng and its mount point mnt/ in dir
set -e
src=$(cd "$(dirname "$0")" && pwd)
dir=${DEMO_DIR:-$src}
if [ -z "${GAMEFS:-}" ]; then
	deps="autoconf automake make gcc pkg-config libfuse3-dev fuse3 zlib1g-dev libpng-dev python3 vorbis-tools"
	missing=""
	for p in $deps; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
	if [ -n "$missing" ]; then
		sudo=$( [ "$(id -u)" = 0 ] || command -v sudo || true)
		$sudo apt-get update
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
	fi
	cd "$src"
	[ -f configure ] || autoreconf -fi
	mkdir -p _build
	cd _build
	[ -f Makefile ] || ../configure -q
	make -j2 -s
	GAMEFS=$src/_build/gamefs
fi
cd "$dir"
python3 "$src/tests/tng/village.py" demo.tng
mkdir -p mnt
if mountpoint -q mnt; then fusermount3 -u mnt; fi
"$GAMEFS" demo.tng mnt
m=$dir/mnt
cat <<MSG

The demo game, Meadowbrook ($dir/demo.tng), is mounted at $m:
  $m/maps/village.png              the village map, drawn (any image viewer)
  $m/maps/village.tmx              the same map for Tiled: tiled $m/maps/village.tmx
  $m/maps/village/layer00.csv      its ground layer as CSV (layer01: trees, house, wall)
  $m/sprites/chars/0000-*.png      the hero's walk frames, one strip a direction
  $m/npcs/elder.ini                the elder; elder.on_click.tngs, his script
  $m/dialogs/welcome.ini           what he says; the texts are in lang/en/texts.txt
  $m/music/village_theme.ogg       the tune (Ogg Vorbis, when vorbis-tools is installed)
Edit in place, e.g.  sed -i 's/Meadowbrook/Brookfield/' $m/lang/en/texts.txt
Unmount with         fusermount3 -u $m
MSG
