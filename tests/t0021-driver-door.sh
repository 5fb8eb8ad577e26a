#!/bin/sh
# The driver contract is the only door, and the format table the one list:
# formats include gfs_driver.h only; a format that names a core-only field
# does not compile; format options reach only their format; the usage text,
# the man pages and README name every format of the table; the committed
# gamefs-formats.5 is what man/mkformats.sh makes from the table.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${GAMEFS:=$top_builddir/gamefs}"
: "${CC:=cc}"
T=$(mktemp -d "${TMPDIR:-/tmp}/gamefs-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# formats see the driver header only
bad=$(grep -rlE '#[[:space:]]*include[[:space:]]*"(gamefs\.h|core/|gfs_fuse\.h)|GFS_CORE_SIDE' \
	"$top_srcdir/src/formats" 2>/dev/null)
[ -z "$bad" ] || fail "formats reaching past gfs_driver.h: $bad"

# core-only fields are unavailable to a format, its own fields are not
cat >"$T/ok.c" <<'C'
#include "gfs_driver.h"
int f(struct gfs_node *n);
int f(struct gfs_node *n) { return n->name[0] + (int)n->nkids + (n->priv != 0); }
C
$CC -fsyntax-only -I"$top_srcdir/include" "$T/ok.c" 2>"$T/err" || fail "a format's fields: $(cat "$T/err")"
for field in 'n->ino' 'n->span_len' 'n->flags' 'n->ops' 'n->modified' 'n->edit' 'n->ar->fd' 'n->ar->next_ino'; do
	printf '#include "gfs_driver.h"\nlong f(struct gfs_node *n);\nlong f(struct gfs_node *n) { return (long)%s; }\n' \
		"$field" >"$T/bad.c"
	$CC -fsyntax-only -I"$top_srcdir/include" "$T/bad.c" 2>"$T/err" && fail "a format can read $field"
	grep -q "unavailable" "$T/err" || fail "$field: not refused as unavailable: $(cat "$T/err")"
done

# the one table
formats=$("$GAMEFS" --formats | cut -f1)
[ "$(echo "$formats" | wc -l)" -ge 5 ] || fail "--formats: $formats"
help=$("$GAMEFS" --help)
list=$(echo "$formats" | paste -sd'|')
echo "$help" | grep -q "format=$list " || fail "--help does not list format=$list"
echo "$help" | grep -q "atlas=PATH .*lay: " || fail "--help does not show lay's atlas= option"
for f in $formats; do
	grep -q "^\.Cm .*\<$f\>" "$top_srcdir/man/gamefs.1" || fail "gamefs.1 does not name format $f"
	grep -q "format=.*\<$f\>" "$top_srcdir/README.md" || fail "README does not name format $f"
	[ -f "$top_srcdir/src/formats/$f/MANUAL.mdoc" ] || fail "$f has no MANUAL.mdoc"
	[ -d "$top_srcdir/fuzz/corpus/$f" ] || fail "$f has no fuzz seeds"
done
sh "$top_srcdir/man/mkformats.sh" -o "$T/formats.5" || fail "mkformats.sh"
cmp -s "$T/formats.5" "$top_srcdir/man/gamefs-formats.5" ||
	fail "man/gamefs-formats.5 is not what man/mkformats.sh makes (run it and commit)"

# a format's option reaches its format, and only it
"$top_builddir/gamefs-mkdemo" "$T/demo.rpg" || fail "mkdemo"
"$GAMEFS" ls -o atlas=x.png "$T/demo.rpg" >/dev/null 2>"$T/err" && fail "atlas= accepted for an rpg"
grep -q "option atlas= is not one the rpg format takes" "$T/err" || fail "atlas= message: $(cat "$T/err")"
"$GAMEFS" ls -o format=nope "$T/demo.rpg" 2>"$T/err" && fail "format=nope accepted"
grep -q "unknown format 'nope' ($(echo "$formats" | paste -sd, | sed 's/,/, /g'))" "$T/err" ||
	fail "unknown format message does not list the table: $(cat "$T/err")"
echo ok
