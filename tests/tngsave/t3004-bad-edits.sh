#!/bin/sh
# Bad edits fail with EINVAL at close, log a line naming the file, leave the
# save untouched, and the file reads back its last good content.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tngsave/tngsave.py"
s="$T/s.sav"
$P mk "$s" --kind server || fail "mk"
cp "$s" "$T/orig.sav"
$P png "$T/small.png" --size 128 128 || fail "png"
$P png "$T/big.png" --size 300 300 || fail "png"
gfs_mount "$s" "$T/m" || fail "mount"
M="$T/m"

# bad VIEW 'python expression giving the new text from the old one (t)'
bad() {
	view=$1; expr=$2
	before=$(cat "$M/$view")
	got=$(python3 - "$M/$view" "$expr" <<'PY'
import errno, sys
p, expr = sys.argv[1], sys.argv[2]
t = open(p, "rb").read().decode("utf-8", "replace")
new = eval(expr)
try:
    with open(p, "wb") as f:
        f.write(new if isinstance(new, bytes) else new.encode())
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno])
PY
)
	check_eq EINVAL "$got" "bad edit of $view: $expr"
	cmp "$T/orig.sav" "$s" || fail "save changed by a bad edit of $view"
	check_eq "$before" "$(cat "$M/$view")" "$view reads back its last good content"
}

bad globals.txt 't + "abc\n"'
bad globals.txt 't + "99999999999\n"'
bad quests.txt '"1.5\n"'
bad deny.txt 't + "999.1.1.1\n"'
bad deny.txt 't + "raw 2 1234\n"'
bad header.ini 't.replace("game_id = testgame", "game_id = 0123456789abcdefg")'
bad header.ini 't + "colour = blue\n"'
bad header.ini '"[header]\n"'
bad preview.ini 't.replace("time_played = 3723", "time_played = -1")'
# preview.ini is a record of the codec: its wording, and its other keys
grep -qF "preview.ini: line 3: time_played: '-1' is not in 0..4294967295" "$M/.gamefs.log" ||
	fail "preview.ini refusal: $(tail -n 2 "$M/.gamefs.log")"
bad preview.ini 't + "time_played = 5\n"'
grep -qF "preview.ini: line 5: time_played given twice" "$M/.gamefs.log" || fail "preview.ini key twice: $(tail -n 2 "$M/.gamefs.log")"
bad preview.ini 't + "image = 1\n"'
bad preview.png 'open("'"$T"'/small.png", "rb").read()'
bad preview.png 'open("'"$T"'/big.png", "rb").read()'
bad preview.png 'b"not a png at all"'
U=users/alice/user.ini
bad $U '"\n".join(l for l in t.splitlines() if not l.startswith("x ="))'
bad $U 't.replace("direction = 2", "direction = 256")'
bad $U 't.replace("password_hash = ", "password_hash = zz")'
bad $U 't.replace("name = alice", "name =")'
bad $U 't + "item = 1\n"'
bad $U 't + "[inventory]\nitem = 1 2 3\n"'
bad $U 't.replace("language = en", "language = eng")'
bad $U 't.replace("equipped = 0 ", "equipped = ")'
bad $U 't + "[entity]\nspeed = 3\n"'
bad $U 't.replace("[user]", "[usr]")'
bad $U 't + "no equals sign here\n"'
bad npcs/0000.ini 't + "[quests]\nquest = 5 maybe\n"'
bad npcs/0000.ini 't.replace("[npc]", "[npc]\nname = bob")'
bad npcs/0000.ini 't.replace("map = 1", "map = 16777216")'
bad maps/1.csv '"\n".join(t.splitlines()[:-1]) + "\n"'
bad maps/1.csv 't.replace("-1", "70000", 1).replace("x0,", "x0,", 1)'
bad maps/4.csv 't + "7\n"'
bad maps/4.csv 't.replace("\n2\n", "\nabc\n")'
grep -q "edit of users/alice/user.ini refused" "$T/gamefs.log" || fail "log names the file"
grep -q "edit of preview.png refused" "$T/gamefs.log" || fail "log names the image"

# a good edit still works afterwards
echo 5 >>"$M/globals.txt" || fail "good edit after bad ones"
gfs_umount "$M" || fail "umount"
check_eq "GLBL: 3 31 -2 46 0 -1 5" "$($P dump "$s" | grep '^GLBL')" "good edit"
echo ok
