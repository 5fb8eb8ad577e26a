#!/bin/sh
# Scripts as assembly: startup scripts and default actions read as text,
# written back unchanged change nothing, edited with sed or rewritten they
# are assembled (labels become addresses, names become string offsets,
# header byte 43 follows the highest command), and bad text is EINVAL
# naming the file and line, with the archive untouched.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

hex() { $P get "$1" "$2" | od -An -v -tu1 | tr -s ' \n' ' ' | sed 's/^ //;s/ $//'; }

$P write g.tng || fail "write"
cp g.tng orig.tng
gfs_mount g.tng m || fail "mount"
check_eq "$(printf '\tPUSH8 1\n\tFNC0 #8\n\tEND\n; end\nx')" "$(cat m/startup/0000.tngs; echo x)" "startup/0000.tngs"
check_eq "$(printf '\tEND\n; end')" "$(cat m/startup/0001.tngs)" "startup/0001.tngs"
for f in m/startup/*.tngs; do
	cat "$f" >same && cp same "$f" || fail "copy back $f"
done
cmp orig.tng g.tng || fail "writing scripts back unchanged changed the archive"

# sed: one operand changed in place
sed -i 's/PUSH8 1/PUSH8 7/' m/startup/0000.tngs || fail "sed"
# a new script with a loop, a sound by name and a command by name
cat >m/startup/0001.tngs <<'S' || fail "rewrite"
top:	PUSH8 3		; count
	JZ done
	PUSHSND door
	FNC1 sound
	JMP top
done:
	END
; end
S
check_eq "$(printf 'L1:\n\tPUSH8 3\n\tJZ L2\n\tPUSHSND door\n\tFNC1 sound\n\tJMP L1\nL2:\n\tEND\n; end')" \
	"$(cat m/startup/0001.tngs)" "the rewritten script reads back in canonical form"
for bad in "	FOO 1" "	JMP nowhere" "	PUSHSND gong" "	FNC1 dialog" "	PUSH8 256" "a:
a:"; do
	check_eq EINVAL "$(errno_of "f=open('m/startup/0000.tngs','w'); f.write('''$bad\n; end\n'''); f.close()")" "bad script [$bad]"
done
grep -q "startup/0000.tngs: line 1: unknown mnemonic 'FOO'" gamefs.log || fail "the log names file, line and mnemonic"
grep -q "startup/0000.tngs: line 2: label 'a' is already defined on line 1" gamefs.log || fail "duplicate label in the log"
grep -q "command 'dialog' takes 2 stack values (FNC2), not 1" gamefs.log || fail "arity in the log"
gfs_umount m || fail "umount"
$P verify g.tng >/dev/null || fail "CRCs after the script edits"
door=$(python3 - g.tng <<'PY'
import sys, struct, zlib
d = open(sys.argv[1], "rb").read()
n = struct.unpack_from("<I", d, 64)[0]
b = zlib.decompress(d[68:68 + n - 4])
off, lt = struct.unpack_from("<II", b, 0)
s = b[off:off + (lt & 0xFFFFFF)]
print(s.index(b"\0door\0") + 1)
PY
)
check_eq "37 7 4 8 0" "$(hex g.tng startup/0000)" "sed-edited script bytes"
check_eq "37 3 3 16 0 0 44 $door 0 0 5 8 2 0 0 0 0" "$(hex g.tng startup/0001)" "assembled script bytes"
check_eq 43 "$(od -An -tu1 -j43 -N1 g.tng | tr -d ' ')" "max command stays 43"

# a command number past the header's highest raises header byte 43
cp g.tng before.tng
gfs_mount g.tng m || fail "mount 2"
printf '\tFNC1 #50\n\tEND\n; end\n' >m/startup/0000.tngs || fail "raw command"
gfs_umount m || fail "umount 2"
check_eq 50 "$(od -An -tu1 -j43 -N1 g.tng | tr -d ' ')" "max command raised to 50"
check_eq "5 50 0" "$(hex g.tng startup/0000)" "raw command bytes"
$P verify g.tng >/dev/null || fail "CRCs after the max command"
"$GAMEFS" check g.tng >/dev/null || fail "check after the edits"

# event handlers of NPCs and objects: a file each, created, edited, removed
cp g.tng before.tng
gfs_mount g.tng m || fail "mount 3"
check_eq "0000.ini" "$(ls m/npcs | tr '\n' ' ' | sed 's/ $//')" "an NPC without handlers"
printf '\tPUSHSND door\n\tFNC1 sound\n\tEND\n; end\n' >m/npcs/0000.on_click.tngs || fail "new on_click"
printf '.param 5\n\tPUSH8 1\n\tEND\n; end\n' >m/npcs/0000.on_timer.tngs || fail "new on_timer"
sed -i 's/PUSH8 1/PUSH8 9/' m/npcs/0000.on_timer.tngs || fail "sed on_timer"
check_eq "$(printf '.param 5\n\tPUSH8 9\n\tEND\n; end')" "$(cat m/npcs/0000.on_timer.tngs)" "on_timer reads back"
check_eq "0000.ini 0000.on_click.tngs 0000.on_timer.tngs" "$(ls m/npcs | tr '\n' ' ' | sed 's/ $//')" "two handlers"
rm m/npcs/0000.on_click.tngs || fail "rm on_click"
check_eq "0000.ini 0000.on_timer.tngs" "$(ls m/npcs | tr '\n' ' ' | sed 's/ $//')" "after rm"
touch m/objects/0000.on_buy.tngs || fail "touch on_buy"
check_eq "$(printf '\tEND\n; end')" "$(cat m/objects/0000.on_buy.tngs)" "a new handler is END"
sed -i 's/END/PUSH8 3\n\tEND/' m/quests/0000.on_complete.tngs || fail "sed quest"
check_eq EPERM "$(errno_of "open('m/npcs/0001.on_click.tngs','w').close()")" "handler of an NPC that does not exist"
check_eq EINVAL "$(errno_of "open('m/npcs/0000.on_fly.tngs','w').close()")" "unknown handler"
check_eq EEXIST "$(errno_of "os.open('m/npcs/0000.on_timer.tngs', os.O_CREAT|os.O_EXCL|os.O_WRONLY)")" "existing handler"
check_eq EINVAL "$(errno_of "f=open('m/npcs/0000.ini','ab'); f.write(b'x'); f.close()")" "a record line that is not key = value"
check_eq EINVAL "$(errno_of "f=open('m/npcs/0000.on_timer.tngs','w'); f.write('.param x\\n; end\\n'); f.close()")" "bad .param"
gfs_umount m || fail "umount 3"
$P verify g.tng >/dev/null || fail "CRCs after the handler edits"
check_eq "2 0 0 1 100 0 50 0 0 0 0 0 1 16 5 0 0 3 0 0 37 9 0" "$(hex g.tng npcs/0000)" "NPC record with one timer handler"
check_eq "0 2 0 0 3 0 0 3 0 0 37 3 0" "$(hex g.tng quests/0000)" "quest with its longer script"
check_eq "1 18 0 0 0 1 0 0 0" "$($P get g.tng objects/0000 | od -An -v -tu1 | tr -s ' \n' ' ' | cut -d' ' -f40,233-240)" "object: count and the on_buy handler"
"$GAMEFS" check g.tng >/dev/null || fail "check after the handler edits"

# a full game: every opcode and command by name, every script written back unchanged
$P write f.tng --full || fail "write --full"
cp f.tng f0.tng
gfs_mount f.tng m || fail "mount full"
ls m/*/*.tngs >scripts
check_eq 18 "$(wc -l <scripts | tr -d ' ')" "scripts of the full game"
for op in END SWITCH JMP JZ FNC0 FNC1 FNC2 FNC3 CNT0 CNT1 SUM CNTO0 CNTO1 SUMO RND MIN MAX ADD SUB \
	  MUL DIV MOD EQ NE GE GT LE LT NOT OR AND POP POPA POPO PUSH PUSHA PUSHO PUSH8 PUSH16 PUSH24 \
	  PUSH32 PUSHMAP PUSHSPR PUSHMUS PUSHSND PUSHSPC PUSHCHR PUSHCUT PUSHDLG PUSHCFT PUSHQST PUSHTXT; do
	grep -q "^	$op\( \|\$\)" m/startup/0000.tngs || fail "mnemonic $op missing"
done
for c in exit delay music sound speak chooser cutscn dialog location quest canim oanim npc actor \
	 behave market south southwest west northwest north northeast east southeast remove drop \
	 delete add replace give take event transport scene waitnpc craft match alert altitude; do
	grep -q "^	FNC[0-3] $c\$" m/startup/0000.tngs || fail "command $c missing"
done
grep -n '#' m/startup/0000.tngs && fail "a reference without its name"
grep -q '^	PUSHSPC voice_hello$' m/startup/0000.tngs || fail "speech by name"
grep -q '^	PUSHTXT 2	; Hello there$' m/startup/0000.tngs || fail "text with its comment"
grep -q '^	PUSHMAP meadow 3 4$' m/startup/0000.tngs || fail "map with x and y"
while read -r f; do
	cat "$f" >same && cp same "$f" || fail "copy back $f"
done <scripts
gfs_umount m || fail "umount full"
cmp f0.tng f.tng || fail "writing every script back changed the game"
"$GAMEFS" check f.tng >check.out || fail "check of the full game"
grep -q '^scripts: 18, 144 instructions, highest command 43$' check.out || fail "check counts the scripts: $(cat check.out)"
grep -q warning check.out && fail "warnings on the full game: $(cat check.out)"

# a jump outside the script or into an instruction is refused with the line;
# made with .byte (as another tool could), it reads back as a .byte line
# naming the jump, and check warns of it
gfs_mount f.tng m || fail "mount full 2"
check_eq EINVAL "$(errno_of "f=open('m/actions/0003.tngs','w'); f.write('\tEND\n\tJMP @16777215\n; end\n'); f.close()")" "JMP @16777215"
grep -q "actions/0003.tngs: line 2: jump to @16777215: outside the script (5 bytes)" "$T/gamefs.log" || fail "message of JMP @16777215"
check_eq EINVAL "$(errno_of "f=open('m/actions/0003.tngs','w'); f.write('\tPUSH8 1\n\tJZ @1\n\tEND\n; end\n'); f.close()")" "JZ @1"
grep -q "actions/0003.tngs: line 2: jump to @1: into the middle of line 1 (no instruction starts there)" "$T/gamefs.log" || fail "message of JZ @1"
# check says where a script means nothing: a jump into an instruction, bytes
# that do not decode, a sound that is not there, a command with a wrong arity
printf '\t.byte 0x02 0x01 0x00 0x00\n\tPUSHSND #99\n\tFNC1 #12\n\tEND\n\t.byte 0xfe 0x01\n; end\n' >m/actions/0003.tngs || fail "raw script"
check_eq "$(printf '\t.byte 0x02 0x01 0x00 0x00\t; JMP @1: a jump outside the script or into an instruction')" \
	"$(head -n 1 m/actions/0003.tngs)" "a bad jump reads back as .byte"
cat m/actions/0003.tngs >same && cp same m/actions/0003.tngs || fail "a script with a bad jump written back unchanged"
gfs_umount m || fail "umount full 2"
"$GAMEFS" check f.tng >check.out || fail "check exits 0 on warnings"
for w in "actions/0003.tngs line 1: .byte 0x02 0x01 0x00 0x00	; JMP @1: a jump outside the script or into an instruction" \
	 "actions/0003.tngs line 2: PUSHSND #99: a reference to something the game does not have" \
	 "actions/0003.tngs line 3: FNC1 #12: a command the document does not name, or with the wrong stack arity" \
	 "actions/0003.tngs line 5: .byte 0xfe 0x01: bytes that do not decode as instructions"; do
	grep -qF "warning: $w" check.out || fail "check: [$w] missing from: $(cat check.out)"
done
echo ok
