#!/bin/sh
# gamefs dump as git's textconv: the dump is the tree (checked against an
# independent rendering of `gamefs extract`, tests/dumpref.py), the same
# bytes every run, exit 0 with output on damaged and unreadable files; in a
# real git repository with the .gitattributes and `git config` lines of
# gamefs.1, `git diff` of two versions of a game of each format (the second
# made by a sed through a real mount) shows exactly the changed lines.
. "$top_srcdir/tests/lib.sh"
command -v git >/dev/null || { echo "SKIP: no git"; exit 77; }
cd "$T" || exit 1
nfail=0
check() { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; nfail=$((nfail + 1)); fi; }

# versions as v1/game.EXT and v2/game.EXT: git hands textconv a copy of the
# same base name (a .lay's note names the atlas it looked for beside it)
mkdir v1 v2
python3 "$top_srcdir/tests/tng/tngpy.py" write v1/game.tng --full || fail "tngpy"
python3 "$top_srcdir/tests/rpgtool.py" mkgame v1/game.rpg new 2 || fail "rpgtool"
python3 "$top_srcdir/tests/zzt/zztlib.py" mk v1/game.zzt || fail "zztlib"
python3 "$top_srcdir/tests/lay/mklay.py" gen v1/game.lay || fail "mklay"

# the dump is the tree: every file of `extract`, in the order of `ls`
for f in v1/game.tng v1/game.rpg v1/game.zzt v1/game.lay; do
	"$GAMEFS" ls "$f" >ls.out 2>/dev/null && "$GAMEFS" extract "$f" "$f.ex" 2>/dev/null || fail "ls/extract $f"
	python3 "$top_srcdir/tests/dumpref.py" ls.out "$f.ex" >"$f.want"
	"$GAMEFS" dump "$f" >"$f.d1" 2>/dev/null; rc=$?
	"$GAMEFS" dump "$f" >"$f.d2" 2>/dev/null
	check "$f: dump exits 0" '[ $rc = 0 ]'
	check "$f: dump is the same bytes twice" 'cmp -s "$f.d1" "$f.d2"'
	check "$f: dump is the extracted tree" 'tail -n +2 "$f.d1" | cmp -s - "$f.want"'
	check "$f: dump names the format" 'head -1 "$f.d1" | grep -q "^gamefs dump: ${f#v1/game.} "'
done

# second versions: one sed through a real mount each
edit() {	# EXT VIEW SED
	cp "v1/game.$1" "v2/game.$1"
	gfs_mount "v2/game.$1" m || fail "mount v2/game.$1"
	sed -i "$3" "m/$2" || fail "sed $2"
	gfs_umount m || fail "umount v2/game.$1"
	cmp -s "v1/game.$1" "v2/game.$1" && fail "the edit of $2 changed nothing"
	return 0
}
edit tng lang/en/texts.txt 's/^Hello there$/Hello, traveller/'
edit rpg textboxes/0000.txt 's/bridge is out/bridge is mended/'
edit zzt boards/00-title-screen/code/bob.oop "s/^'Hello there/'Good morning/"
edit lay chunks.csv 's/^1,-37,-87,/1,-36,-87,/'

git init -q repo || fail "git init"
cd repo || exit 1
git config user.email t@example.org && git config user.name t
cat >.gitattributes <<'X'
*.tng diff=gamefs
*.rpg diff=gamefs
*.zzt diff=gamefs
*.lay diff=gamefs
X
git config diff.gamefs.textconv "$GAMEFS dump"
for x in tng rpg zzt lay; do cp "../v1/game.$x" "game.$x"; done
git add . && git commit -qm v1 || fail "commit v1"
for x in tng rpg zzt lay; do cp "../v2/game.$x" "game.$x"; done
git commit -qam v2 || fail "commit v2"

for x in tng rpg zzt lay; do
	git diff HEAD~1 HEAD -- "game.$x" >../diff.$x 2>../diff.err || fail "git diff game.$x"
	# what must change: the -/+ lines between the two independent renderings
	(cd ../v2 && "$GAMEFS" ls game.$x >ls.out 2>/dev/null && "$GAMEFS" extract game.$x game.$x.ex 2>/dev/null &&
	 python3 "$top_srcdir/tests/dumpref.py" ls.out game.$x.ex >game.$x.want) || fail "reference of v2/game.$x"
	python3 - "../v1/game.$x.want" "../v2/game.$x.want" "../diff.$x" >../cmp.$x <<'PY'
import difflib, sys
a = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
b = open(sys.argv[2], encoding="utf-8", errors="replace").read().splitlines()
want = sorted(l for l in difflib.unified_diff(a, b, n=0, lineterm="")
              if l[:1] in "-+" and not l.startswith(("---", "+++")))
got = sorted(l for l in open(sys.argv[3], encoding="utf-8", errors="replace").read().splitlines()
             if l[:1] in "-+" and not l.startswith(("---", "+++")))
print("want", len(want), "got", len(got))
for l in sorted(set(want) ^ set(got)):
    print("differs:", l)
sys.exit(0 if want == got else 1)
PY
	check "git diff game.$x: exactly the changed lines ($(head -1 ../cmp.$x))" '[ $? = 0 ]'
	check "git diff game.$x: not 'Binary files differ'" '! grep -q "^Binary files" ../diff.$x'
done
check "git diff: the edited text line" 'grep -q "^-Hello there$" ../diff.tng && grep -q "^+Hello, traveller$" ../diff.tng'
check "git diff: the edited textbox line" 'grep -q "^+The \${V2} bridge is mended.$" ../diff.rpg'
check "git diff: the edited ZZT-OOP line" "grep -q \"^+'Good morning\" ../diff.zzt"
check "git diff: the edited chunk row" \
	'grep -q "^+1,-36,-87,33,1$" ../diff.lay'
cd ..

# damaged: still output and exit 0 (textconv must not fail)
head -c 1000 v1/game.tng >cut.tng
"$GAMEFS" dump cut.tng >cut.out 2>/dev/null; rc=$?
check "truncated: dump exits 0" '[ $rc = 0 ]'
check "truncated: a line says what could not be read, without the file name" \
	'grep -q "^gamefs dump: cannot read this archive: tng: " cut.out && ! grep -q cut.tng cut.out'
check "truncated: the whole file's size and sha256" \
	'grep -q "^=== the whole file: 1000 bytes, sha256 $(sha256sum cut.tng | cut -c1-64)$" cut.out'
python3 - v1/game.zzt bad.zzt <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[0x200 + 40] ^= 0xFF		# inside the first board
open(sys.argv[2], "wb").write(d)
PY
"$GAMEFS" dump bad.zzt >bad.out 2>/dev/null; rc=$?
check "damaged board: dump exits 0 with output" '[ $rc = 0 ] && [ -s bad.out ]'
"$GAMEFS" dump nowhere.tng >none.out 2>/dev/null; rc=$?
check "missing file: dump exits 0 and says so" '[ $rc = 0 ] && grep -q "cannot read this archive" none.out'
"$GAMEFS" dump >/dev/null 2>&1; rc=$?
check "dump without an archive: usage, exit 2" '[ $rc = 2 ]'
[ $nfail = 0 ] || fail "$nfail checks failed"
echo "all ok"
