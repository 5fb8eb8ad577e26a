#!/bin/sh
# Name clashes and odd names get safe unique names; a save with tens of
# thousands of chunks (same user name everywhere) loads quickly; editing a
# duplicate user keeps the others.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tngsave/tngsave.py"
python3 - "$top_srcdir/tests/tngsave" "$T" <<'PY' || fail "writing fixtures"
import random, struct, sys, zlib
sys.path.insert(0, sys.argv[1])
import tngsave as t
rnd = random.Random(3)

def save(fn, chunks):
    pay = b"".join(chunks)
    open(fn, "wb").write(t.MAGIC + b"names".ljust(16, b"\0") + zlib.compress(pay) +
                         struct.pack("<I", zlib.crc32(pay)))

ch = [t.chunk(b"GLBL", struct.pack("<2i", 1, 2)), t.chunk(b"GLBL", struct.pack("<1i", 3))]
for n in ["bob", "bob", "a/b", "..", "bob"]:
    ch.append(t.chunk(b"USER", t.user_body(n, rnd)))
ch.append(t.chunk(b"MAP\0", struct.pack("<I", 1) + t.rle_encode([1, 2, 3, 4])))
ch.append(t.chunk(b"MAP\0", struct.pack("<I", 1) + t.rle_encode([5, 6, 7, 8])))
ch.append(t.chunk(b"AB\0\x01", b"x"))
save(sys.argv[2] + "/names.sav", ch)

ub = t.user_body("same", rnd)
save(sys.argv[2] + "/big.sav", [t.chunk(b"USER", ub)] * 30000 +
     [t.chunk(b"MAP\0", struct.pack("<I", 7) + t.rle_encode([0] * 16))] * 30000)
PY
"$GAMEFS" ls "$T/names.sav" | sed -E 's/^[^ ]+ +[0-9]+ //' >"$T/ls" || fail "ls names"
for want in "globals.txt" "globals (2).txt" "users/bob/" "users/bob (2)/" "users/bob (3)/" "users/a_b/" \
	"users/_/" "maps/1.csv" "maps/1 (2).csv" "chunks/09-AB__.bin"; do
	grep -qxF "$want" "$T/ls" || fail "missing [$want] in: $(tr '\n' ' ' <"$T/ls")"
done
check_eq "name = a/b" "$("$GAMEFS" cat "$T/names.sav" users/a_b/user.ini | grep '^name')" "real name in the ini"
check_eq "3" "$("$GAMEFS" cat "$T/names.sav" 'globals (2).txt')" "second GLBL"

# edit the second bob and the second map: the others keep their bytes
cp "$T/names.sav" "$T/orig.sav"
gfs_mount "$T/names.sav" "$T/m" || fail "mount"
sed -i 's/^x = .*/x = 31337/' "$T/m/users/bob (2)/user.ini" || fail "edit bob (2)"
printf 'x0,x1\n9,9\n9,9\n' >"$T/m/maps/1 (2).csv" || fail "edit map 1 (2)"
gfs_umount "$T/m" || fail "umount"
$P dump "$T/names.sav" >"$T/d"
check_eq "user.bob.x: 103|user.bob.x: 31337|user.bob.x: 103" "$(grep -a '^user.bob.x' "$T/d" | paste -sd'|')" "only bob (2) changed"
check_eq "map.1: 4 values: 1 2 3 4|map.1: 4 values: 9 9 9 9" "$(grep -a '^map.1' "$T/d" | paste -sd'|')" "only map 1 (2) changed"

# 60000 chunks with clashing names: quick, and names stay unique
start=$(date +%s)
"$GAMEFS" ls "$T/big.sav" >"$T/ls" || fail "ls big"
end=$(date +%s)
[ $((end - start)) -le 30 ] || fail "listing 60000 clashing chunks took $((end - start)) s"
check_eq 90003 "$(wc -l <"$T/ls")" "entries of the big save"
check_eq 0 "$(sed -E 's/^[^ ]+ +[0-9]+ //' "$T/ls" | sort | uniq -d | wc -l)" "duplicate names"
grep -q "users/same (#29999)/user.ini" "$T/ls" || fail "clash suffix"
echo ok
