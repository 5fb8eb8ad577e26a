#!/bin/sh
# Every board of every corpus world renders (gamefs extract, no error) and
# each board.png matches zztlib.py's own drawing of that board cell by cell.
. "$top_srcdir/tests/lib.sh"
dir=$(corpus zzt) || exit 77
[ -f /usr/share/consolefonts/cp865-8x14.psf.gz ] || { echo "SKIP: console-data not installed"; exit 77; }
n=0
for f in "$dir"/*; do
	b=$(basename "$f")
	case $b in *.szt|*.md) continue ;; esac
	rm -rf "$T/x"
	"$GAMEFS" extract "$f" "$T/x" 2>"$T/err" || fail "$b: extract: $(cat "$T/err")"
	[ -s "$T/err" ] && ! grep -q 'damaged\|runs past' "$T/err" && fail "$b: extract said: $(cat "$T/err")"
	python3 - "$top_srcdir/tests/zzt" "$f" "$T/x" <<'PY' || fail "$b: board.png differs from ZZT's drawing"
import os, sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
font = z.vga_font()
w = z.read_world(sys.argv[2])
boards = sorted(os.listdir(os.path.join(sys.argv[3], 'boards')))
bad = []
for d in boards:
    png = os.path.join(sys.argv[3], 'boards', d, 'board.png')
    if not os.path.exists(png):
        continue                      # a damaged board, shown raw
    bad += z.compare_render(w['boards'][int(d[:2])], png, font, d)[:5]
for line in bad[:20]:
    print('FAIL:', line)
sys.exit(1 if bad else 0)
PY
	n=$((n + 1))
done
[ $n -ge 15 ] || fail "only $n corpus worlds"
echo ok
