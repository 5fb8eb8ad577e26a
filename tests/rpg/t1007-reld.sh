#!/bin/sh
# RELOAD documents on their own (.reld, .rsav) mount as document.txt: a
# generated document edited with sed, refused bad edits, broken files
# refused with the offset; every corpus document written back unchanged
# gives the same bytes.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

$RPG reld-make s.rsav
cp s.rsav orig.rsav
check_eq "-rw-r--r--        793 document.txt" "$("$GAMEFS" ls s.rsav)" "golden listing"
"$GAMEFS" check s.rsav >/dev/null || fail "check"
gfs_mount s.rsav m || fail "mount"
check_eq "document.txt" "$(ls m)" "root"
grep -q '^  blob = base64:AAECAwQF' m/document.txt || fail "binary string as base64"
cp m/document.txt doc.txt
cp doc.txt m/document.txt || fail "write back unchanged"
cmp s.rsav orig.rsav || fail "unchanged text changed the document"
$RPG reld-dump s.rsav >before
sed -i -e 's/^    code = 1000$/    code = -1000/' -e 's/^  #0 = -300$/  #0 = "now a string"/' m/document.txt || fail "sed"
# each bad line goes before the end line (after it, it would be refused for that)
check_eq EINVAL "$(errno_insert m/document.txt '  big = 99999999999999999999')" "integer out of range"
check_eq EINVAL "$(errno_insert m/document.txt '   odd = 1')" "odd indentation"
check_eq EINVAL "$(errno_insert m/document.txt '  #99 = 1')" "no such name index"
check_eq EINVAL "$(errno_insert m/document.txt '  t = "caf\u00e9"')" "raw non-ASCII in a string"
check_eq 0 "$(grep -c 'text after the' "$T/gamefs.log")" "the bad lines were refused for themselves"
gfs_umount m || fail "unmount"
$RPG reld-dump s.rsav >after
sed -e 's/^2 code 2 1000$/2 code 2 -1000/' \
    -e "s/^1  2 -300\$/1  6 $(printf 'now a string' | od -An -tx1 | tr -d ' \n')/" before >want
diff -u want after || fail "edited document"

# broken documents: refused with the offset, never a crash
head -c 40 orig.rsav >cut.reld
"$GAMEFS" ls cut.reld >/dev/null 2>err && fail "cut document accepted"
grep -q "cut.reld: reld: at 0x9: string table offset" err || fail "message: $(cat err)"
python3 -c "
d = bytearray(open('orig.rsav','rb').read()); d[13] = 0xff; open('size.reld','wb').write(d)"
"$GAMEFS" check size.reld >/dev/null 2>err; check_eq 1 $? "check of a lying node size"
grep -q "size.reld: reld: at 0xd: node size" err || fail "message: $(cat err)"

# the corpus documents
dir=$(corpus rsav) || exit 77
n=0
for f in "$dir"/*.reld; do
	b=$(basename "$f")
	cp "$f" "$b" && chmod 644 "$b"
	gfs_mount "$b" m || fail "mount $b"
	cat m/document.txt >doc.txt
	cp doc.txt m/document.txt || fail "$b: write back"
	gfs_umount m || fail "unmount $b"
	cmp "$f" "$b" || fail "$b: text did not give the bytes back"
	n=$((n + 1))
done
check_eq 3 $n "corpus documents"
echo "ok: $n corpus documents round-trip"
