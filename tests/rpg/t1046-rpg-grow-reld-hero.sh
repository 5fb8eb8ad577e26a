#!/bin/sh
# Issue 29, OHRRPGCE: a new hero in a game whose heroes are in HEROES.RELD.
# reload/heroes.txt is the one editable hero view there (t1041): a hero
# node appended with the next number is the new hero; .DT0 grows by
# Custom's blank hero with it (the lumps agree on the count) and GEN's
# last hero follows; its heroes/NNN.ini appears read-only.  Re-read after
# unmount by the tests' own RELOAD reader (tests/rpgtool.py); `gamefs
# check` passes.  Refusals leave the archive byte-identical: a number past
# the next, rm of the hero's .DT0 view while HEROES.RELD holds it.  The
# node removed, rm of heroes/NNN.ini gives the game back byte for byte.
# Corpus: npcwalktest grown by a copy of its last hero and shrunk back;
# autotest grown past the hero its HEROES.RELD holds beyond .DT0.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
shrunk=""

# add_hero FILE ID NAME: a hero node (a copy of the last one, renamed) appended to reload/heroes.txt
add_hero() {
	python3 - "$@" <<'PY'
import sys
p, hid, name = sys.argv[1:]
t = open(p).read().split('\n')
end = max(i for i, l in enumerate(t) if l == 'end')
start = max(i for i, l in enumerate(t[:end]) if l.startswith('  hero = '))
block = t[start:end]
block[0] = '  hero = ' + hid
block = [('    name = "%s"' % name) if l.startswith('    name = ') else l for l in block]
t[end:end] = block
f = open(p, 'w')
f.write('\n'.join(t))
f.close()
PY
}
# del_hero FILE ID: that hero node taken out of reload/heroes.txt
del_hero() {
	python3 - "$@" <<'PY'
import sys
p, hid = sys.argv[1:]
t = open(p).read().split('\n')
s = t.index('  hero = ' + hid)
e = s + 1
while not (t[e].startswith('  ') and not t[e].startswith('   ')) and t[e] != 'end':
    e += 1
del t[s:e]
f = open(p, 'w')
f.write('\n'.join(t))
f.close()
PY
}

$RPG mkrecords plain.rpg || fail "mkrecords"
# DT0 with 2 heroes (Bob, Ann), GEN saying so; HEROES.RELD holds hero 0 only (Helga)
python3 - "$top_srcdir/tests" plain.rpg g.rpg <<'PY' || fail "add HEROES.RELD"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
import shutil
shutil.copy(sys.argv[2], sys.argv[3])
dt0 = t.bad_binstring(b'Bob', 16, 0) + t.words(301, 16) + t.bad_binstring(b'Ann', 16, 0) + t.words(301, 17)
gen = lambda b: b[:7 + 70] + b'\x01\x00' + b[9 + 70:]	# GEN's last hero: 1, the truth
t.rewrite(sys.argv[3], lambda name, body: dt0 if name == 'GAMEFS.DT0' else gen(body) if name == 'GAMEFS.GEN' else body)
with open(sys.argv[3], 'ab') as f:
    f.write(t.lump_bytes('HEROES.RELD', t.reld_encode(('heroes', 0, None, [('hero', 1, 0, [('name', 6, b'Helga', [])])]),
                                                      ['heroes', 'hero', 'name'])))
PY
cp g.rpg orig.rpg

gfs_mount g.rpg m || fail "mount"
add_hero m/reload/heroes.txt 2 Zed || fail "a new hero node: $(tail -n 1 m/.gamefs.log)"
[ -f m/heroes/002.ini ] || fail "heroes/002.ini after the new hero node"
check_eq 444 "$(stat -c %a m/heroes/002.ini)" "the new hero's .DT0 view is read-only"
check_eq 644 "$(stat -c %a m/heroes/001.ini)" "heroes/001.ini stays editable"
check_eq "2	" "$(tail -n 1 m/names/heroes.txt)" "names/heroes.txt: the new .DT0 record"
gfs_umount m || fail "unmount"
python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "the new hero read back"
import sys, struct
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
assert sorted(a) == sorted(b)
d = t.reld_dump(b['HEROES.RELD'])
assert b'Zed'.hex() in d and b'Helga'.hex() in d, d
assert len(b['GAMEFS.DT0']) == 3 * 636 and b['GAMEFS.DT0'][:1272] == a['GAMEFS.DT0'], 'DT0: a third hero'
assert b['GAMEFS.DT0'][1272:] == bytes(636), "DT0: Custom's blank hero"
assert struct.unpack('<h', b['GAMEFS.GEN'][7 + 70:9 + 70])[0] == 2, 'GEN last hero'
for n in a:
    if n not in ('HEROES.RELD', 'GAMEFS.DT0', 'GAMEFS.GEN'):
        assert a[n] == b[n], n
PY
"$GAMEFS" check g.rpg >check.txt || fail "check: $(cat check.txt)"
grep -q ', 0 warnings' check.txt || fail "check warns: $(cat check.txt)"

# refusals
cp g.rpg before.rpg
gfs_mount g.rpg m || fail "remount"
check_eq 444 "$(stat -c %a m/heroes/002.ini)" "read-only after remount"
add_hero m/reload/heroes.txt 5 Far 2>/dev/null && fail "hero = 5 accepted"
grep -q 'reload/heroes.txt: hero = 5: a new hero is the next number, 3' m/.gamefs.log ||
	fail "log of hero = 5: $(tail -n 1 m/.gamefs.log)"
check_eq EPERM "$(errno_of "os.unlink('m/heroes/002.ini')")" "rm of a hero HEROES.RELD holds"
grep -q 'heroes/002.ini: lumps/HEROES.RELD holds this hero: remove its hero = 2 from reload/heroes.txt first' \
	m/.gamefs.log || fail "log of rm heroes/002.ini: $(tail -n 1 m/.gamefs.log)"
gfs_umount m || fail "unmount after refusals"
cmp g.rpg before.rpg || fail "a refusal changed the archive"

# the node out, then the .DT0 record: the game as it was
gfs_mount g.rpg m || fail "mount to shrink"
del_hero m/reload/heroes.txt 2 || fail "the hero node removed"
check_eq 644 "$(stat -c %a m/heroes/002.ini)" "heroes/002.ini editable once HEROES.RELD lacks it"
rm m/heroes/002.ini || fail "rm heroes/002.ini: $(tail -n 1 m/.gamefs.log)"
gfs_umount m || fail "unmount after shrink"
python3 - "$top_srcdir/tests" orig.rpg g.rpg <<'PY' || fail "shrunk back"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
assert a == b, [n for n in a if a[n] != b.get(n)]
PY

# the corpus: npcwalktest grown by a copy of its last hero, and grown and
# shrunk back in one mount (byte-identical); autotest, whose HEROES.RELD holds a hero past .DT0's
# and GEN's (67), grown by hero 68: .DT0 follows to 69 records, check passes
dir=$(corpus rpg) || exit 0
# next_hero: the next free hero number (past .DT0's views and the document's heroes)
next_hero() {
	python3 -c "
import re, os
ids = [int(x) for x in re.findall(r'(?m)^  hero = (\d+)$', open('m/reload/heroes.txt').read())]
print(max([len(os.listdir('m/heroes'))] + [i + 1 for i in ids]))"
}
for g in npcwalktest autotest; do
	[ -f "$dir/$g.rpg" ] || continue
	cp "$dir/$g.rpg" a.rpg && chmod 644 a.rpg
	gfs_mount a.rpg m || fail "mount $g"
	had=$(ls m/heroes | wc -l)
	next=$(next_hero)
	add_hero m/reload/heroes.txt "$next" Newcomer || fail "$g: a new hero: $(tail -n 1 m/.gamefs.log)"
	[ -f "m/heroes/$(printf %03d "$next").ini" ] || fail "$g: the new hero's view"
	check_eq $((next + 1)) "$(ls m/heroes | wc -l)" "$g: heroes/ (had $had)"
	gfs_umount m || fail "unmount $g"
	"$GAMEFS" check a.rpg >check.txt || fail "$g check: $(cat check.txt)"
	python3 - "$top_srcdir/tests" a.rpg "$next" <<'PY' || fail "$g read back"
import sys, struct
sys.path.insert(0, sys.argv[1])
import rpgtool as t
b = dict(t.read_lumps(sys.argv[2]))
n = int(sys.argv[3])
assert b'Newcomer'.hex() in t.reld_dump(b['HEROES.RELD'])
dt0 = [v for k, v in b.items() if k.endswith('.DT0')][0]
gen = [v for k, v in b.items() if k.endswith('.GEN')][0]
rs = struct.unpack('<h', b['BINSIZE.BIN'][20:22])[0]
assert len(dt0) == (n + 1) * rs and struct.unpack('<h', gen[77:79])[0] == n, (len(dt0), rs, gen[77:79])
PY
	[ "$next" = "$had" ] || continue
	# grown and shrunk in one mount (GEN's stale last hero put back as it was)
	cp "$dir/$g.rpg" a.rpg && chmod 644 a.rpg
	gfs_mount a.rpg m || fail "remount $g"
	add_hero m/reload/heroes.txt "$next" Newcomer || fail "$g: a new hero again"
	del_hero m/reload/heroes.txt "$next" || fail "$g: the node removed"
	rm "m/heroes/$(printf %03d "$next").ini" || fail "$g: rm the new hero: $(tail -n 1 m/.gamefs.log)"
	gfs_umount m || fail "unmount $g after shrink"
	cmp "$dir/$g.rpg" a.rpg || fail "$g grown and shrunk back differs"
	shrunk="$shrunk $g"
done
case "$shrunk" in *npcwalktest*) ;; *) [ -f "$dir/npcwalktest.rpg" ] && fail "npcwalktest not shrunk back" ;; esac
echo "ok"
