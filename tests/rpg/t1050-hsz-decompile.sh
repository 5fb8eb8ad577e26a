#!/bin/sh
# Compiled HamsterSpeak as text: scripts/<name>.hss, each <id>.HSZ / .HSX
# of the HSP decompiled, read-only.  A game whose HSP hszlib.py assembles
# from the documented layout (every node kind, flow and math id, strings,
# a format-0 .HSX, a subscript, names from SCRIPTS.BIN / .TXT, COMMANDS.BIN,
# the sources' global variables and the variable-name table): the text is
# the expected one, writes refused, the archive unchanged; damaged scripts
# (truncated, lying offsets, cycles, huge counts, bad headers) give a
# partial text ending in a comment, never a crash or a hang; every corpus
# script decompiles whole with every node kind known and no binary file is
# left outside lumps/ (opaque-share.py --tree).
. "$top_srcdir/tests/lib.sh"
HSZ="python3 $top_srcdir/tests/rpg/hszlib.py"
cd "$T" || exit 1

$HSZ game g.rpg || fail "make the game"
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
check_eq "scripts/helper.hss scripts/hsp/HS scripts/hsp/SCRIPTS.TXT scripts/inner.hss scripts/main.hss scripts/source/main.hss scripts/source/plotscr.hsd" \
	"$(cd m && find scripts -type f | sort | tr '\n' ' ' | sed 's/ $//')" "listing: the bytecode, SCRIPTS.BIN, COMMANDS.BIN and SOURCE.LUMPED only decoded"
cat >want-main.hss <<'HSS'
# script 1, main: decompiled by gamefs from 1.HSZ, read-only (format 3)
plotscript, main, hero x, hero y, begin
  variable (count)
  count := hero x + hero y * 3
  $1="Hi \"you\""
  appendstringfromtable(1, 4)
  if (gold found == 1) then, begin
    pause(1)
  end
  elseif (count < 0) then, begin
    exit returning(7)
  end
  else, begin
    return(0)
  end
  if (global9) then, begin
  end
  while (not(door open)) do, begin
    door open += 2
    break
    continue(2)
  end
  for (count, 1, 10, 2) do, begin
    helper(4)
    script77
  end
  for (hero x, 0, 5) do, begin
  end
  switch (hero x) do, begin
    case (1, 2) do, begin
      waitforhero
    end
    case (3) do, begin
    end
    case (else) do, begin
      exit script
    end
  end
  switch (hero y) do, begin
    case (4, else) do, begin
      gold found -= 1
    end
  end
  put_many(random(1, 6), abs(-2), sign(hero y), sqrt(16))
  tracevalueinternal("Hi \"you\"", hero x, "\\and\x01\n", hero y)
  cmd9999
  flow8(1)
  math40(1)
  hero y := hero x ^ 0
  hero y := hero x,mod,1
  hero y := hero x / 2
  hero y := hero x * 3
  hero y := hero x -- 4
  hero y := hero x + 5
  hero y := hero x,xor,6
  hero y := hero x,or,7
  hero y := hero x,and,8
  hero y := hero x == 9
  hero y := hero x <> 10
  hero y := hero x < 11
  hero y := hero x > 12
  hero y := hero x <= 13
  hero y := hero x >= 14
  hero y := hero x && 15
  hero y := hero x || 16
  hero y := hero x ^^ 17
end
HSS
cat >want-helper.hss <<'HSS'
# script 2, helper: decompiled by gamefs from 2.HSX, read-only (format 0)
script, helper, arg0=5, begin
  variable (var0)
  return(arg0 + var0)
end
HSS
cat >want-inner.hss <<'HSS'
# script 3, inner: decompiled by gamefs from 3.HSZ, read-only (format 3)
# a subscript of main (2 nonlocals)
script, inner, begin
  nonlocal1_0 := nonlocal1_1
  return(nonlocal1_0)
end
HSS
for s in main helper inner; do
	diff -u want-$s.hss m/scripts/$s.hss >&2 || fail "scripts/$s.hss"
done
ls -l m/scripts/main.hss | grep -q '^-r--r--r--' || fail "scripts/main.hss not read-only"
for f in scripts/main.hss scripts/helper.hss; do
	e=$(errno_of "f=open('m/$f','r+b'); f.write(b'x'); f.close()")
	case $e in EACCES|EROFS|EPERM) ;; *) fail "writing $f: $e" ;; esac
done
gfs_umount m || fail "unmount"
cmp g.rpg orig.rpg || fail "reading the scripts changed the archive"

# damaged scripts: the text up to the fault and a comment saying where
$HSZ hostile h.rpg || fail "make the damaged game"
gfs_mount h.rpg m || fail "mount the damaged game"
for want in "10:stopped at code word" "11:stopped at code word 99999: a node offset past the end" \
	"12:nested deeper than 200" "13:more nodes than the code can hold" "14:an argument count past the end" \
	"15:a header length of -5" "16:a header length of 400 in 28 bytes" "17:script format 99" \
	"18:setstringfromtable(1, 50)" "19:unknown node kind 42" "20:shorter than a script header" \
	"21:does not start with do()"; do
	n=${want%%:*}
	timeout 60 cat "m/scripts/bad$n.hss" >bad.txt || fail "bad$n.hss: cat failed"
	grep -qF "${want#*:}" bad.txt || fail "bad$n.hss: no '${want#*:}' in $(head -c 300 bad.txt)"
	head -n 1 bad.txt | grep -q "^# script $n, bad$n: decompiled by gamefs" || fail "bad$n.hss: first line"
done
[ "$(wc -c <m/scripts/bad13.hss)" -lt 1000000 ] || fail "the shared subtrees were not bounded"
gfs_umount m || fail "unmount the damaged game"

# the corpus: every compiled script shown, whole, every node kind known
dir=$(corpus rpg) || exit 77
for game in "$dir"/*.rpg; do
	name=$(basename "$game")
	gfs_mount "$game" m -o ro || fail "$name: mount"
	python3 - "$top_srcdir/tests" "$game" m <<'PY' || fail "$name: scripts"
import os, re, sys, tempfile
sys.path.insert(0, sys.argv[1])
import rpgtool as t
mnt = sys.argv[3]
hsp = [b for n, b in t.read_lumps(sys.argv[2]) if n.upper().endswith('.HSP')]
if hsp:
    p = tempfile.mktemp()
    open(p, 'wb').write(hsp[0])
    inner = t.read_lumps(p)
    os.unlink(p)
    want = sorted(n for n, _ in inner if re.match(r'^[0-9]+\.HS[ZX]$', n.upper()))
    files = sorted(f for f in os.listdir(os.path.join(mnt, 'scripts')) if f.endswith('.hss'))
    assert len(files) == len(want), (len(files), len(want))
    seen = set()
    for f in files:
        text = open(os.path.join(mnt, 'scripts', f), 'rb').read().decode('latin-1')
        first = text.split('\n', 1)[0]
        m = re.match(r'^# script (-?[0-9]+)(, .*)?: decompiled by gamefs from ([0-9]+\.HS[ZX]), read-only', first)
        assert m, (f, first)
        seen.add(m.group(3))
        assert 'gamefs:' not in text, (f, text[text.index('gamefs:') - 200:][:400])
        code = re.sub(r'"([^"\\]|\\.)*"', '""', text)                     # strings out
        bad = re.findall(r'\b(?:cmd|math|flow)[0-9]+\b', code.split('\n', 1)[1])
        assert not bad, (f, bad)
        assert re.search(r'^(plot)?script, .*, begin$', text, re.M) and text.endswith('end\n'), f
    assert sorted(seen) == want, 'every lump once'
    print('#', os.path.basename(sys.argv[2]), len(files), 'scripts')
PY
	gfs_umount m || fail "$name: unmount"
done
python3 "$top_srcdir/tests/rpg/opaque-share.py" --tree -v "$GAMEFS" "$dir"/*.rpg >share.txt || fail "opaque-share"
cat share.txt
awk 'NR > 1 && $1 ~ /\.rpg$/ && ($3 != "0.0%" || $4 != "0.0%") { bad = 1 } END { exit bad }' share.txt ||
	fail "files outside lumps/ that are neither text nor PNG"
echo ok
