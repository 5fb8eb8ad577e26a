#!/bin/sh
# Vehicle names follow the \xHH rule of every OHRRPGCE text (issue 30,
# item 6): a byte outside printable ASCII shows as \xHH (not as the
# Latin-1 character), and \xHH written back, quoted or bare, is that byte;
# a character outside printable ASCII written as UTF-8 is EINVAL.  The
# view written back unchanged changes nothing (generated and corpus).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/rpg/rpglib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

# veh NAME-HEX: the first 16 bytes of vehicle 0 of g.rpg (length byte, then the name) as hex
veh() {
	python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests'); import rpgtool as t
print(dict(t.read_lumps('g.rpg'))['GAMEFS.VEH'][:16].hex())"
}

$RPG mkgame g.rpg
python3 - "$top_srcdir/tests" g.rpg <<'PY' || fail "make the game"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
name = b'Bo\x84t\x03"\\\xe9'
rec = bytearray(80)
rec[0], rec[1:1 + len(name)], rec[16] = len(name), name, 3
lumps = t.read_lumps(sys.argv[2]) + [('GAMEFS.VEH', bytes(rec) + bytes(80))]
open(sys.argv[2], 'wb').write(b''.join(t.lump_bytes(n, b) for n, b in lumps))
PY
cp g.rpg orig.rpg
gfs_mount g.rpg m || fail "mount"
check_eq 'name = "Bo\x84t\x03\"\\\xe9"' "$(grep '^name' m/vehicles/000.ini)" "the name shown"
cat m/vehicles/000.ini >same.ini && cp same.ini m/vehicles/000.ini || fail "written back unchanged"
gfs_umount m || fail "unmount"
cmp g.rpg orig.rpg || fail "the unchanged view changed the archive"

gfs_mount g.rpg m || fail "remount"
sed -i 's/^name = .*/name = "Bo\\x85t"/' m/vehicles/000.ini || fail "sed quoted"
check_eq 'name = "Bo\x85t"' "$(grep '^name' m/vehicles/000.ini)" "quoted \\x85 shown back"
sed -i 's/^name = .*/name = Sh\\x8ep/' m/vehicles/001.ini || fail "sed bare"
check_eq EINVAL "$(errno_of "s=open('m/vehicles/000.ini').read().replace('Bo\\\\x85t', 'Bo\u00e9t'); f=open('m/vehicles/000.ini','w'); f.write(s); f.close()")" "UTF-8 é"
grep -qF 'name: U+00E9 is not printable ASCII: write a byte as \xHH' m/.gamefs.log ||
	fail "log of é: $(tail -n 2 m/.gamefs.log)"
gfs_umount m || fail "unmount edits"
check_eq "04426f8574" "$(veh | cut -c1-10)" "\\x85 stored as the byte"
python3 -c "
import sys; sys.path.insert(0, '$top_srcdir/tests'); import rpgtool as t
a, b = dict(t.read_lumps('orig.rpg')), dict(t.read_lumps('g.rpg'))
assert b['GAMEFS.VEH'][80:85] == b'\x04Sh\x8ep', b['GAMEFS.VEH'][80:96]
assert b['GAMEFS.VEH'][16:80] == a['GAMEFS.VEH'][16:80] and b['GAMEFS.VEH'][96:] == a['GAMEFS.VEH'][96:]
assert [k for k in a if a[k] != b[k]] == ['GAMEFS.VEH']" || fail "the bytes after the edits"

rpg_corpus_writeback "vehicle or strings.txt" vehicles strings.txt -type f
echo "ok: $n corpus vehicles (and strings.txt) written back unchanged"
