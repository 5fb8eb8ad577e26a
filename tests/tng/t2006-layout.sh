#!/bin/sh
# Asset layout corner cases: two descriptors sharing the same bytes (one is
# replaced, the other keeps the old bytes), a missing (zero-length) speech
# file that gets content (placed before the maps), the speech emptied again,
# reserved and unknown section types shown raw and editable, a section
# growing (the section block is rebuilt, not patched in place).
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
$P write g.tng --dedup --unknown || fail "write"
$P dump g.tng >before
"$GAMEFS" ls g.tng >ls.out || fail "ls"
grep -q ' sections/12-reserved.bin$' ls.out || fail "reserved section"
grep -q ' sections/77-unknown.bin$' ls.out || fail "unknown section"
gfs_mount g.tng m || fail "mount"
cmp m/sounds/door.ogg m/sounds/step.ogg || fail "shared bytes"
python3 -c "import sys; sys.stdout.buffer.write(b'OggS' + b'door!' * 300)" >newdoor
cp newdoor m/sounds/door.ogg || fail "replace shared"
python3 -c "import sys; sys.stdout.buffer.write(b'OggS' + b'auf wiedersehen' * 20)" >bye
cp bye m/lang/de/speech/voice_bye.ogg || fail "fill missing speech"
printf 'grown unknown section with more bytes than before' >m/sections/77-unknown.bin || fail "unknown"
printf 'R' >m/sections/12-reserved.bin || fail "reserved"
gfs_umount m || fail "umount"
$P verify g.tng >v || fail "CRCs: $(cat v)"
grep -q "maps-last ok" v || fail "maps not last: $(cat v)"
"$GAMEFS" check g.tng >/dev/null || fail "check"
$P get g.tng sounds/door | cmp - newdoor || fail "door"
$P get g.tng sounds/step >step && grep -q "^sounds/step $(wc -c <step) $(sha1sum <step | cut -c1-40)$" before || fail "step kept"
$P get g.tng lang/de/speech/voice_bye | cmp - bye || fail "speech"
check_eq "grown unknown section with more bytes than before" "$($P get g.tng sections/77)" "unknown"
check_eq "R" "$($P get g.tng sections/12)" "reserved"
$P dump g.tng >after
diff before after | grep '^[<>]' | awk '{print $2}' | sort -u | paste -sd' ' >changed
check_eq "lang/de/speech/voice_bye sections/12 sections/77 sounds/door" "$(cat changed)" "changed"
# bytes no descriptor covers: shown read-only, kept when the game is written
$P write gap.tng --gaps || fail "write gaps"
check_eq "<gap after asset 3><trailing bytes>" "$("$GAMEFS" cat gap.tng unreferenced.bin)" "unreferenced.bin"
"$GAMEFS" ls gap.tng | grep -q '^-r--r--r-- .* unreferenced.bin$' || fail "unreferenced.bin mode"
gfs_mount gap.tng m || fail "mount gaps"
printf 'OggS-a-much-longer-door-sound' >m/sounds/door.ogg || fail "door in gap game"
gfs_umount m || fail "umount gaps"
$P verify gap.tng >/dev/null || fail "gap game CRCs"
check_eq "<gap after asset 3><trailing bytes>" "$("$GAMEFS" cat gap.tng unreferenced.bin)" "gaps kept"
"$GAMEFS" ls g.tng | grep -q unreferenced && fail "unreferenced.bin without gaps"

# empty it again
gfs_mount g.tng m || fail "mount 2"
: >m/lang/de/speech/voice_bye.ogg || fail "empty speech"
gfs_umount m || fail "umount 2"
$P verify g.tng >/dev/null || fail "CRCs 2"
check_eq 0 "$($P get g.tng lang/de/speech/voice_bye | wc -c | tr -d ' ')" "speech emptied"
echo ok
