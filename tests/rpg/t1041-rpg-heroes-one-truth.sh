#!/bin/sh
# One truth for heroes: the engine reads a hero from HEROES.RELD when it
# holds it, else from .DT0.  In a game with HEROES.RELD, names/heroes.txt
# (when it holds any hero) and heroes/NNN.ini of the heroes it holds are
# read-only (0444, EACCES on write), their first line naming the lump the
# engine reads; a hero it lacks keeps its editable heroes/NNN.ini; the
# rename goes through reload/heroes.txt and lands in HEROES.RELD (read back
# by the tests' own RELOAD reader), .DT0 untouched.  Without HEROES.RELD
# everything stays editable.  Corpus: autotest, npcwalktest and
# unicodetest_kosme (their HEROES.RELD holds every hero of .DT0): no
# writable hero view besides reload/heroes.txt; turntest has no
# HEROES.RELD and keeps its editable views.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

$RPG mkrecords plain.rpg || fail "mkrecords"
# DT0 with 2 heroes (Bob, Ann); HEROES.RELD holds hero 0 only (Helga)
python3 - "$top_srcdir/tests" plain.rpg g.rpg <<'PY' || fail "add HEROES.RELD"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
import shutil
shutil.copy(sys.argv[2], sys.argv[3])
dt0 = t.bad_binstring(b'Bob', 16, 0) + t.words(301, 16) + t.bad_binstring(b'Ann', 16, 0) + t.words(301, 17)
t.rewrite(sys.argv[3], lambda name, body: dt0 if name == 'GAMEFS.DT0' else body)
with open(sys.argv[3], 'ab') as f:
    f.write(t.lump_bytes('HEROES.RELD', t.reld_encode(('heroes', 0, None, [('hero', 1, 0, [('name', 6, b'Helga', [])])]),
                                                      ['heroes', 'hero', 'name'])))
PY
cp g.rpg orig.rpg

mode() { stat -c %a "$1"; }

gfs_mount g.rpg m || fail "mount"
check_eq 444 "$(mode m/names/heroes.txt)" "names/heroes.txt read-only"
check_eq 444 "$(mode m/heroes/000.ini)" "heroes/000.ini (in HEROES.RELD) read-only"
check_eq 644 "$(mode m/heroes/001.ini)" "heroes/001.ini (not in HEROES.RELD) editable"
check_eq 644 "$(mode m/reload/heroes.txt)" "reload/heroes.txt editable"
head -n 1 m/names/heroes.txt | grep -q '^# read-only: the engine reads hero names from lumps/HEROES.RELD' ||
	fail "names/heroes.txt's first line: $(head -n 1 m/names/heroes.txt)"
check_eq "0	Bob" "$(sed -n 2p m/names/heroes.txt)" "names/heroes.txt still shows .DT0"
head -n 1 m/heroes/000.ini | grep -q 'HEROES.RELD, which the engine reads' ||
	fail "heroes/000.ini's first line: $(head -n 1 m/heroes/000.ini)"
check_eq EACCES "$(errno_of "open('m/names/heroes.txt','w').write('0\tHelge\n')")" "names/heroes.txt write"
check_eq EACCES "$(errno_of "open('m/heroes/000.ini','a')")" "heroes/000.ini write"
# the hero HEROES.RELD lacks is still edited through .DT0
sed "s/^default_level = .*/default_level = 77/" m/heroes/001.ini >h1.ini
cmp -s h1.ini m/heroes/001.ini && fail "the heroes/001.ini edit did nothing"
cp h1.ini m/heroes/001.ini || fail "heroes/001.ini write"
# the rename through reload/heroes.txt
sed 's/name = "Helga"/name = "Helge"/' m/reload/heroes.txt >r.txt
cmp -s r.txt m/reload/heroes.txt && fail "the rename did nothing"
cp r.txt m/reload/heroes.txt || fail "reload/heroes.txt write"
gfs_umount m || fail "umount"
python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "the rename is not in HEROES.RELD alone"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
assert sorted(a) == sorted(b)
assert b'Helge'.hex() in t.reld_dump(b['HEROES.RELD']), t.reld_dump(b['HEROES.RELD'])
assert a['GAMEFS.DT0'][:636] == b['GAMEFS.DT0'][:636], "hero 0 of DT0 changed"
assert a['GAMEFS.DT0'][636:] != b['GAMEFS.DT0'][636:], "hero 1 of DT0 not edited"
for n in a:
    if n not in ('HEROES.RELD', 'GAMEFS.DT0'):
        assert a[n] == b[n], n
PY

# no HEROES.RELD: all editable, no comment line
gfs_mount plain.rpg p || fail "mount plain"
check_eq "644 644" "$(mode p/names/heroes.txt) $(mode p/heroes/000.ini)" "without HEROES.RELD"
check_eq "0	Bob" "$(head -n 1 p/names/heroes.txt)" "names/heroes.txt without HEROES.RELD"
gfs_umount p || fail "umount plain"

# the corpus
dir=$(corpus rpg) || exit 77
for g in autotest npcwalktest unicodetest_kosme turntest; do
	[ -f "$dir/$g.rpg" ] || continue
	cp "$dir/$g.rpg" c.rpg && chmod 644 c.rpg
	gfs_mount c.rpg c || fail "mount $g"
	if [ -f c/lumps/HEROES.RELD ]; then
		check_eq 444 "$(mode c/names/heroes.txt)" "$g: names/heroes.txt"
		head -n 1 c/names/heroes.txt | grep -q '^# read-only' || fail "$g: names/heroes.txt's first line"
		check_eq "" "$(find c/heroes -perm -200 -type f)" "$g: writable heroes/ files"
		check_eq 644 "$(mode c/reload/heroes.txt)" "$g: reload/heroes.txt"
		echo "$g: $(ls c/heroes | wc -l) heroes read-only"
	else
		check_eq 644 "$(mode c/names/heroes.txt)" "$g (no HEROES.RELD): names/heroes.txt"
	fi
	gfs_umount c || fail "umount $g"
	cmp "$dir/$g.rpg" c.rpg || fail "$g: changed"
done
exit 0
