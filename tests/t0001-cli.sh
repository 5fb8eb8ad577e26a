#!/bin/sh
# The offline commands: --help, --version, ls, cat, extract, check and their exit codes;
# extract gives exactly the mounted tree.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"

"$GAMEFS" --help | grep -q "gamefs ls" || fail "--help"
"$GAMEFS" --version | grep -q "^gamefs [0-9]" || fail "--version"

"$top_builddir/gamefs-mkdemo" "$T/demo.rpg" || fail "mkdemo"
"$GAMEFS" ls "$T/demo.rpg" >"$T/ls.out" || fail "ls"
cat >"$T/ls.want" <<'X'
-rw-r--r--         27 ARCHINYM.LMP
-rw-r--r--         63 BROWSE.TXT
-rw-r--r--       1000 OHRRPGCE.GEN
-rw-r--r--        768 PALETTES.BIN
-rw-r--r--       4096 OHRRPGCE.T00
-rw-r--r--         58 README.TXT
-rw-r--r--          0 EMPTY.BIN
X
diff -u "$T/ls.want" "$T/ls.out" || fail "golden listing differs"
"$GAMEFS" ls "$T/demo.rpg" BROWSE.TXT | grep -q "63 BROWSE.TXT" || fail "ls PATH"
"$GAMEFS" ls "$T/demo.rpg" NOPE.TXT 2>"$T/err" && fail "ls of a missing path succeeded"
grep -q "NOPE.TXT" "$T/err" || fail "ls error names the path"

"$GAMEFS" cat "$T/demo.rpg" BROWSE.TXT >"$T/browse" || fail "cat"
$RPG get "$T/demo.rpg" BROWSE.TXT | cmp - "$T/browse" || fail "cat differs from the lump"

"$GAMEFS" extract "$T/demo.rpg" "$T/ex" || fail "extract"
$RPG extract "$T/demo.rpg" "$T/ref"
diff -r "$T/ref" "$T/ex" || fail "extract differs from the lumps"

"$GAMEFS" check "$T/demo.rpg" >"$T/check" || fail "check of a good file"
grep -q "ok" "$T/check" || fail "check says ok"

# exit codes: 1 damaged, 2 unreadable
head -c 100 "$T/demo.rpg" >"$T/cut.rpg"
"$GAMEFS" check "$T/cut.rpg" >/dev/null 2>"$T/err"; check_eq 1 $? "check of a truncated file"
grep -q "cut.rpg: rpg: at 0x" "$T/err" || fail "check names file, format and offset: $(cat "$T/err")"
"$GAMEFS" check "$T/missing.rpg" >/dev/null 2>&1; check_eq 2 $? "check of a missing file"
printf '\377\376garbage' >"$T/junk.bin"
"$GAMEFS" check "$T/junk.bin" >/dev/null 2>"$T/err"; check_eq 2 $? "check of an unknown format"
grep -q "not a format gamefs knows" "$T/err" || fail "unknown format message"
"$GAMEFS" ls -o format=nope "$T/demo.rpg" 2>"$T/err" && fail "unknown format= accepted"
grep -q "unknown format 'nope'" "$T/err" || fail "format= message"
"$GAMEFS" ls -o format=rpg "$T/demo.rpg" >/dev/null || fail "format=rpg"

# extract gives exactly the mounted tree
gfs_mount "$T/demo.rpg" "$T/m" || fail "mount"
diff -r -x .gamefs.log "$T/m" "$T/ex" || fail "mounted tree differs from extract (but for the mount's .gamefs.log)"
gfs_umount "$T/m" || fail "unmount"
echo "ok"
