#!/bin/sh
# Every saved fuzz input and past crasher goes through load/render/save/reload.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
set -- 
for d in "$top_srcdir"/fuzz/corpus/* "$top_srcdir"/fuzz/crashers/*; do
	[ -d "$d" ] && set -- "$@" "$d"
done
[ $# -gt 0 ] || { echo "no fuzz inputs"; exit 77; }
exec "$top_builddir/tests/replay" "$@"
