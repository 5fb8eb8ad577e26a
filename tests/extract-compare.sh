#!/bin/sh
# extract-compare.sh OLD-GAMEFS NEW-GAMEFS [CORPUS]
#
# The proof that a refactor changed no view: `gamefs extract` with two
# binaries over every archive of the shared corpus (every format) and three
# generated TirNanoG games (tests/tng/tngpy.py write --full ...), then
# `diff -r` of the two trees of each.  Exit status, standard error and mode
# bits are compared too.  Prints one line an archive and a summary; exits 1
# when any archive differs.  Not part of `make check` (it needs two builds).
set -u
old=$1 new=$2
here=$(cd "$(dirname "$0")" && pwd)
corpus=${3:-$here/../../shared/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 "$here/tng/tngpy.py" write "$tmp/full.tng" --full >/dev/null
python3 "$here/tng/tngpy.py" write "$tmp/full-raw.tng" --full --raw --crc-comp >/dev/null
python3 "$here/tng/tngpy.py" write "$tmp/full-short.tng" --full --short-menu --sounds 3 >/dev/null

# the tree as files, with exit status, messages and modes beside it
run() {	# BIN ARCHIVE DIR
	mkdir -p "$3"
	"$1" extract "$2" "$3/tree" >"$3/stdout" 2>"$3/stderr"
	echo $? >"$3/rc"
	sed "s|$3|DIR|g" "$3/stderr" >"$3/stderr.n" && mv "$3/stderr.n" "$3/stderr"
	if [ -d "$3/tree" ]; then
		(cd "$3/tree" && find . -printf '%M %p\n' | sort) >"$3/modes"
	fi
}

n=0 bad=0
for f in $(find "$corpus" -type f ! -name SOURCES.md | sort) "$tmp"/*.tng; do
	n=$((n + 1))
	run "$old" "$f" "$tmp/old/$n"
	run "$new" "$f" "$tmp/new/$n"
	if diff -r "$tmp/old/$n" "$tmp/new/$n" >"$tmp/diff" 2>&1; then
		echo "same  $(basename "$f") ($(find "$tmp/new/$n/tree" -type f 2>/dev/null | wc -l) files)"
	else
		bad=$((bad + 1))
		echo "DIFF  $(basename "$f")"
		head -20 "$tmp/diff"
	fi
	rm -rf "$tmp/old/$n" "$tmp/new/$n"
done
echo "$n archives, $bad differ"
[ "$bad" = 0 ]
