#!/bin/sh
# user.ini and the NPC views through the record codec (gfs_record_*): every
# kind of value edits and reads back, a user renamed moves its directory at
# once, a view written back unchanged changes no byte, and a bad value
# names its line and key.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tngsave/tngsave.py"
s="$T/s.sav"
$P mk "$s" --kind server || fail "mk"
cp "$s" "$T/orig.sav"
gfs_mount "$s" "$T/m" || fail "mount"
M="$T/m"

# unchanged views written back: no byte changes
for v in users/alice/user.ini users/bob/user.ini npcs/0000.ini npcs/0002.ini; do
	cat "$M/$v" >"$T/v" && cp "$T/v" "$M/$v" || fail "write back $v"
done
gfs_umount "$M" || fail "umount"
cmp "$T/orig.sav" "$s" || fail "views written back unchanged changed the save"

gfs_mount "$s" "$T/m" || fail "mount 2"
python3 - "$M/users/bob/user.ini" "$M/npcs/0001.ini" <<'PY' || fail "edit"
import re, sys
u, n = sys.argv[1], sys.argv[2]
t = open(u).read()
t = t.replace("quest = 5 open", "quest = 7\nquest = 8 1").replace("language = en", "language = 0x0000")
t = re.sub(r"equipped = .*", "equipped = " + ",".join(["-1"] * 32), t)
t = re.sub(r"options = .*", "options = 1,-2, 4294967295", t)
t = t.replace("name = bob", "name = B\u00f8b/2")
t = re.sub(r"created = .*", "created = -5", t)
t = t.replace("[skills]", "[skills]\nskill = 1,2")
open(u, "w").write(t)
t = open(n).read()
t = re.sub(r"type = .*", "type = -1", t)
t = re.sub(r"attributes = .*", "attributes =", t)
t = re.sub(r"\nquest = .*", "", t)
open(n, "w").write(t)
PY
B=$(printf 'B\303\270b')
[ -f "$M/users/${B}_2/user.ini" ] || fail "renamed user's directory: $(ls "$M/users" | tr '\n' ' ')"
ls "$M/users" | grep -qx bob && fail "old directory left"
U="$M/users/${B}_2/user.ini"
grep -qx "language = 0x0000" "$U" || fail "language as hex"
grep -qx "options = 1 -2 -1" "$U" || fail "options"
grep -qx "created = -5" "$U" || fail "a date before 1970"
grep -q "^; created" "$U" && fail "no ISO date for a negative time"
grep -qx "quest = 7 open" "$U" || fail "a quest without its state is open"
grep -qx "quest = 8 completed" "$U" || fail "quest state 1"
grep -qx "type = 4294967295" "$M/npcs/0001.ini" || fail "npc type -1"
grep -qx "attributes =" "$M/npcs/0001.ini" || fail "no attributes"
grep -q "^quest =" "$M/npcs/0001.ini" && fail "npc quests removed"
# a new name with the same safe name keeps the directory (no " (2)")
sed -i 's|^name = carol$|name = c/d|' "$M/users/carol/user.ini" || fail "rename carol"
check_eq "c_d" "$(ls "$M/users" | grep '^c')" "carol's directory follows"
sed -i 's|^name = c/d$|name = c_d|' "$M/users/c_d/user.ini" || fail "rename c/d"
sed -i 's|^name = c_d$|name = c/d|' "$M/users/c_d/user.ini" || fail "rename c_d"
check_eq "c_d" "$(ls "$M/users" | grep '^c')" "same safe name: the directory stays"
grep -qx "name = c/d" "$M/users/c_d/user.ini" || fail "renamed twice"
gfs_umount "$M" || fail "umount 2"
$P dump "$s" >"$T/d" || fail "dump"
n="user.$B/2"
check_eq "$n.options: 1 -2 -1" "$(grep -a "^$n.options" "$T/d")" "options bytes"
check_eq "$n.equipped: $(python3 -c 'print(" ".join(["65535"] * 32))')" "$(grep -a "^$n.equipped" "$T/d")" "slots bytes"
check_eq "$n.skills: [(1, 2), (2, 9)]" "$(grep -a "^$n.skills" "$T/d")" "skills bytes"
check_eq "$n.quests: [7, 2147483656, 2147483654]" "$(grep -a "^$n.quests" "$T/d")" "quests bytes"

# bad values: EINVAL, the log names line and key, the save unchanged
cp "$s" "$T/orig.sav"
gfs_mount "$s" "$T/m" || fail "mount 3"
bad() {
	view=$1; expr=$2; want=$3
	got=$(python3 - "$M/$view" "$expr" <<'PY'
import errno, sys
p, expr = sys.argv[1], sys.argv[2]
t = open(p).read()
try:
    with open(p, "w") as f:
        f.write(eval(expr))
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno])
PY
)
	check_eq EINVAL "$got" "bad edit of $view: $expr"
	grep -qF "$want" "$T/gamefs.log" || fail "log lacks [$want]: $(tail -n 1 "$T/gamefs.log")"
}
U=users/alice/user.ini
bad $U 't.replace("x = 105", "x = 105\nx = 3")' "user.ini: line 26: x given twice"
bad $U 't.replace("options = 0 1", "options = " + " ".join(["1"] * 256))' "line 17: options: more than 255 values"
bad $U 't.replace("equipped = 0 ", "equipped = ")' "line 19: equipped: want 32 values"
bad $U 't.replace("language = en", "language = e")' "line 13: language: want 2 characters or 0x and 4 hex digits"
bad $U 't.replace("[inventory]", "[inventory]\nitem = 1 2 3")' "line 33: item: want quantity object"
bad $U '"\n".join(l for l in t.splitlines() if not l.startswith("belt"))' "user.ini: [user] belt missing"
bad $U 't.replace("[entity]", "[ent]")' "line 23: unknown section [ent]"
bad npcs/0000.ini 't.replace("x = ", "x = 4294967296 #")' "0000.ini: line 8: x: '4294967296 #0' is not in"
gfs_umount "$M" || fail "umount 3"
cmp "$T/orig.sav" "$s" || fail "bad edits changed the save"

# header.ini and preview.ini show the bytes they keep (after the game id's
# NUL, the preview's reserved bytes) in comments; written back unchanged or
# with the time edited, those bytes stay
k="$T/k.sav"
$P mk "$k" --flat || fail "mk k"
python3 - "$k" <<'PY' || fail "stale bytes"
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[16 + 9] = 0xab                  # after "testgame" and its NUL
d[32 + 12 + 3] = 0x5a             # PRVW: the fourth reserved byte
open(sys.argv[1], 'wb').write(d)
PY
cp "$k" "$T/k-orig.sav"
gfs_mount "$k" "$M" || fail "mount k"
check_eq "; bytes after the id (kept unless the id changes): 00 ab 00 00 00 00 00 00" \
	"$(grep '^; bytes' "$M/header.ini")" "header.ini: kept bytes"
check_eq "; reserved bytes (kept): 00 00 00 5a 00 00 00 00 00 00 00 00 00 00 00 00 00 00" \
	"$(grep '^; reserved' "$M/preview.ini")" "preview.ini: kept bytes"
for v in header.ini preview.ini; do
	cat "$M/$v" >"$T/v" && cp "$T/v" "$M/$v" || fail "write back $v"
done
gfs_umount "$M" || fail "umount k"
cmp "$T/k-orig.sav" "$k" || fail "header.ini, preview.ini written back unchanged changed the save"
gfs_mount "$k" "$M" || fail "mount k 2"
sed -i 's/^time_played = .*/time_played = 60/' "$M/preview.ini" || fail "sed time_played"
check_eq "; time spent playing, in seconds (0:01:00)" "$(grep '^; time' "$M/preview.ini")" "the time's note follows"
gfs_umount "$M" || fail "umount k 2"
python3 - "$k" <<'PY' || fail "bytes after the time edit"
import struct, sys
d = open(sys.argv[1], 'rb').read()
assert d[16 + 9] == 0xab and d[32 + 12 + 3] == 0x5a, "kept bytes lost"
assert struct.unpack_from('<I', d, 32 + 8)[0] == 60, "time not written"
PY
echo ok
