#!/bin/sh
# Assemble man/gamefs-formats.5 from its head and each format's MANUAL.mdoc,
# in the order of the format table (src/core/formats.c, the one list of
# formats).  Run after editing a format's manual section or the table; the
# result is committed.  `mkformats.sh -o FILE` writes FILE instead (the
# tests compare it with the committed page).
cd "$(dirname "$0")/.." || exit 1
out=man/gamefs-formats.5
[ "${1:-}" = "-o" ] && out=$2
formats=$(sed -n 's/^[[:space:]]*&gfs_format_\([a-z0-9_]*\),.*/\1/p' src/core/formats.c)
[ -n "$formats" ] || { echo "mkformats.sh: no formats in src/core/formats.c" >&2; exit 1; }
{
	cat man/gamefs-formats.5.head
	for f in $formats; do
		[ -f "src/formats/$f/MANUAL.mdoc" ] && cat "src/formats/$f/MANUAL.mdoc"
	done
	printf '.Sh SEE ALSO\n.Xr gamefs 1\n'
} >"$out"
