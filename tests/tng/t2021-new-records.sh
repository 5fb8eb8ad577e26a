#!/bin/sh
# Records made and removed through the mount: an INI copied to a new name
# (cp, a scratch file renamed over a new name as sed -i and editors save,
# vim) is a new record named by the file, in the strings section, with no
# event handlers (an END script for quests and cutscenes); it reads back the
# same after the commit and a fresh mount, and the independent reader finds
# it.  A record nothing refers to can be removed; one a script refers to, a
# numbered one not the last, and an NPC a map places cannot (EBUSY, the
# referrer named); a refused new INI or removal leaves the archive as it was.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

$P write g.tng --full || fail "write"
maxcmd() { python3 -c "import sys; print(open(sys.argv[1],'rb').read()[43])" "$1"; }
want_max=$(maxcmd g.tng)
gfs_mount g.tng m || fail "mount"
for k in npcs/guard:villager dialogs/greet:bye choosers/class:race cutscenes/intro_scene:outro \
	crafts/forge:anvil quests/rescue:fetch spawners/0000:camp charoptions/face:hair; do
	src=${k%%:*}
	cp "m/$src.ini" "m/${src%/*}/${k##*:}.ini" || fail "cp $src.ini to ${k##*:}.ini"
done
# objects have no names: the next number, the first sprite index no object has
check_eq EINVAL "$(errno_of "open('m/objects/0005.ini','w').close()")" "an object not numbered next"
cp m/objects/0000.ini m/objects/0001.ini || fail "a new object"
check_eq "$(printf 'asset,sprite_index\n0000,3\n0001,0')" "$(cat m/objects/index.csv)" "the new object's sprite"
# an editor's save: a scratch file written, then renamed over the new name
sed 's/^speed = 100$/speed = 80/' m/npcs/guard.ini >m/npcs/.walker.tmp || fail "write a scratch file"
mv m/npcs/.walker.tmp m/npcs/walker.ini || fail "rename the scratch file over a new name"
if command -v vim >/dev/null 2>&1; then
	vim -u NONE -N -es -c 'w m/dialogs/vimmed.ini' -c 'q' m/dialogs/greet.ini </dev/null ||
		fail "vim writes a new dialog"
fi
sed -i 's/^speed = 80$/speed = 70/' m/npcs/walker.ini || fail "sed -i on the new NPC"
check_eq "speed = 70" "$(grep '^speed' m/npcs/walker.ini)" "the new NPC edited"
printf '\tPUSHDLG bye\n\tPUSH16 0\n\tFNC2 dialog\n\tEND\n; end\n' >m/npcs/villager.on_click.tngs ||
	fail "a handler beside the new NPC, naming the new dialog"
[ -f m/quests/fetch.on_complete.tngs ] && [ -f m/cutscenes/outro.script.tngs ] ||
	fail "the script of a new quest and cutscene"
# refused: the archive stays as it was
cp g.tng snap.tng
check_eq EINVAL "$(errno_of "open('m/npcs/1234.ini','w').close()")" "an all-digit name"
check_eq EINVAL "$(errno_of "open('m/npcs/a.b.ini','w').close()")" "a name with a dot"
check_eq EPERM "$(errno_of "open('m/npcs/x.txt','w').close()")" "not an INI"
check_eq EINVAL "$(errno_of "f=open('m/dialogs/broken.ini','w'); f.write('[dialog]\ntitle = nonsense words\n'); f.close()")" \
	"an INI that does not parse"
check_eq EINVAL "$(errno_of "f=open('m/npcs/x.ini','w'); f.write('[npc]\nspeed = 100000\n'); f.close()")" \
	"a value out of range"
cmp snap.tng g.tng || fail "refused new records changed the game"
rm -f m/dialogs/broken.ini m/npcs/x.ini m/dialogs/broken.ini.rejected m/npcs/x.ini.rejected
gfs_umount m || fail "umount"

# the independent reader: each new record, its name in section 0, its bytes
$P verify g.tng >verify.out || fail "CRCs"
grep -qx "maps-last ok" verify.out || fail "the new records are stored before the maps"
check_eq "$want_max" "$(maxcmd g.tng)" "byte 43 (max command)"
python3 - "$top_srcdir/tests/tng" g.tng <<'PY' || fail "the reader's view"
import struct, sys, zlib
sys.path.insert(0, sys.argv[1])
import tngpy
r = tngpy.Reader(open(sys.argv[2], "rb").read())
recs = {}
for t, d in r.secs:
    if t not in (22, 23, 27, 28, 29, 30, 31, 32, 35):
        continue
    for p in range(0, len(d), 16):
        off, ln, nm = struct.unpack_from("<QII", d, p)
        name = r.string(nm) if nm and t != 31 else "%04d" % len(recs.get(t, {}))
        recs.setdefault(t, {})[name] = zlib.decompress(r.d[r.base + off:r.base + off + ln]) if t >= 22 and ln else b""
same = {30: ("greet", "bye"), 22: ("class", "race"), 32: ("forge", "anvil"), 27: ("face", "hair"),
        29: ("0000", "camp")}
for t, (a, b) in same.items():
    assert recs[t][a] == recs[t][b], (t, a, b)
assert recs[30]["greet"] == recs[30]["vimmed"] or "vimmed" not in recs[30]
# records with scripts: the same bytes before them, the handlers' count (NPC) or script differ
for t, a, b in ((28, "guard", "villager"), (35, "rescue", "fetch"), (23, "intro_scene", "outro")):
    x, y = recs[t][a], recs[t][b]
    assert b in recs[t] and len(y) < len(x) + 20, (t, b)
assert recs[31]["0000"][:9] == recs[31]["0001"][:9] and len(recs[31]) == 2, "object"
assert len(recs[28]) == 3 and set(recs[28]) == {"guard", "villager", "walker"}, recs[28].keys()
v, g = recs[28]["villager"], recs[28]["guard"]
assert v[:9] == g[:9], "NPC header"
PY
"$GAMEFS" check g.tng >check.out || fail "check: $(cat check.out)"
grep -q warning check.out && fail "warnings: $(cat check.out)"

# a fresh mount shows them, the same as their sources
gfs_mount g.tng m || fail "remount"
for k in npcs/guard:villager dialogs/greet:bye choosers/class:race cutscenes/intro_scene:outro \
	crafts/forge:anvil quests/rescue:fetch spawners/0000:camp charoptions/face:hair objects/0000:0001; do
	src=${k%%:*}
	cmp "m/$src.ini" "m/${src%/*}/${k##*:}.ini" || fail "${k##*:}.ini reads back as $src.ini"
done
check_eq "speed = 70" "$(grep '^speed' m/npcs/walker.ini)" "the edited new NPC after remount"
grep -q 'PUSHDLG bye' m/npcs/villager.on_click.tngs || fail "the new NPC's handler"

# removal: what nothing refers to goes; a referrer is named
cp g.tng snap.tng
check_eq EBUSY "$(errno_of "os.unlink('m/dialogs/bye.ini')")" "a dialog a script names"
grep -q "dialogs/bye.ini: npcs/villager.on_click.tngs (byte [0-9]*) refers to it" gamefs.log ||
	fail "the referrer in the log"
check_eq EBUSY "$(errno_of "os.unlink('m/npcs/guard.ini')")" "an NPC not the last"
check_eq EBUSY "$(errno_of "os.unlink('m/objects/0000.ini')")" "an object not the last"
grep -q "npcs/guard.ini: npcs are numbered: only the last can be removed" gamefs.log || fail "why in the log"
# an NPC a map places (NPC 2, walker, on layer 5 of meadow)
sed -i '2s/^-1/2/' m/maps/meadow/layer05.csv || fail "place walker on the meadow"
cp g.tng snap.tng
check_eq EBUSY "$(errno_of "os.unlink('m/npcs/walker.ini')")" "an NPC a map places"
grep -q "npcs/walker.ini: maps/meadow/layer05.csv places it" gamefs.log || fail "the map in the log"
cmp snap.tng g.tng || fail "refused removals changed the game"
sed -i '2s/^2/-1/' m/maps/meadow/layer05.csv || fail "take walker off the meadow"
rm m/npcs/walker.ini || fail "remove the last NPC"
rm m/npcs/villager.on_click.tngs m/dialogs/bye.ini m/quests/fetch.ini m/choosers/race.ini \
	m/crafts/anvil.ini m/cutscenes/outro.ini m/objects/0001.ini || fail "remove records nothing refers to"
[ -e m/quests/fetch.on_complete.tngs ] && fail "the quest's script stays"
gfs_umount m || fail "umount 2"
$P verify g.tng >/dev/null || fail "CRCs after removal"
check_eq "index.csv 0000.ini 0000.on_click.tngs" \
	"$("$GAMEFS" ls g.tng objects | awk '{print $3}' | sed 's|^objects/||' | grep . | tr '\n' ' ' | sed 's/ $//')" \
	"objects after removal"
"$GAMEFS" check g.tng >check.out || fail "check after removal: $(cat check.out)"
check_eq "guard.ini guard.on_click.tngs guard.on_timer.tngs villager.ini" \
	"$("$GAMEFS" ls g.tng npcs | awk '{print $3}' | sed 's|^npcs/||' | grep . | tr '\n' ' ' | sed 's/ $//')" \
	"NPCs after removal"
$P dump g.tng | grep -c '^dialogs/' | grep -qx "$(command -v vim >/dev/null 2>&1 && echo 2 || echo 1)" ||
	fail "dialogs after removal"

# the README's line on the demo game
python3 "$top_srcdir/tests/tng/village.py" demo.tng --no-audio >/dev/null 2>&1 || fail "the demo"
gfs_mount demo.tng d || fail "mount the demo"
cp d/npcs/elder.ini d/npcs/villager.ini || fail "the README's new NPC"
gfs_umount d || fail "umount the demo"
"$GAMEFS" check demo.tng >check.out || fail "check the demo: $(cat check.out)"
check_eq "$("$GAMEFS" cat demo.tng npcs/elder.ini)" "$("$GAMEFS" cat demo.tng npcs/villager.ini)" "the demo's new NPC"
echo ok
