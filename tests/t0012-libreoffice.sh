#!/bin/sh
# LibreOffice Calc saves CSV views into a mount through its lu*.tmp files:
# `soffice --convert-to csv --outdir` into a ZZT board, and a python3-uno
# script that opens a view, changes a cell and stores it (a ZZT board, a
# MAGES layout and a TirNanoG map layer).  One soffice start per way; both edits are on disk.
. "$top_srcdir/tests/lib.sh"
command -v soffice >/dev/null || { echo "SKIP: soffice not installed"; exit 77; }
PYUNO=""
for p in /usr/bin/python3 python3; do "$p" -c 'import uno' 2>/dev/null && { PYUNO=$p; break; }; done
[ -n "$PYUNO" ] || { echo "SKIP: python3-uno not installed"; exit 77; }
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
TNG="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
LO="soffice -env:UserInstallation=file://$T/profile --headless --norestore --nologo"
$ZZT mk w.zzt
$LAY gen G_.lay --atlas G.png --tail 5
$TNG write g.tng

# 1. --convert-to csv --outdir MNT/...: elements.csv with one cell changed
gfs_mount w.zzt m || fail "mount"
B=m/boards/$(ls m/boards | head -1)
mkdir src && sed '2s/^\([^,]*\),[^,]*/\1,0/' "$B/elements.csv" >src/elements.csv
start=$(date +%s)
$LO --convert-to csv --outdir "$B" src/elements.csv >lo.out 2>&1 || fail "convert-to: $(cat lo.out)"
note "soffice --convert-to: $(( $(date +%s) - start )) s"
cmp src/elements.csv "$B/elements.csv" || fail "convert-to did not save into the mount: $(cat m/.gamefs.log)"
ls -a "$B" | grep -q '^lu.*tmp$' && fail "a LibreOffice temporary file is left"
gfs_umount m || fail "unmount"
"$GAMEFS" cat w.zzt "${B#m/}/elements.csv" | cmp - src/elements.csv || fail "convert-to edit not on disk"

# 2. python3-uno: open the view, change a cell, store()
gfs_mount w.zzt m || fail "remount zzt"
gfs_mount G_.lay l || fail "mount lay"
gfs_mount g.tng t || fail "mount tng"
start=$(date +%s)
$LO --accept="pipe,name=gamefs$$;urp;" >lo.out 2>&1 & lo=$!
$PYUNO "$top_srcdir/tests/lo-edit.py" "gamefs$$" "$PWD/$B/elements.csv" 1 2 0 || fail "uno store zzt: $(cat m/.gamefs.log)"
$PYUNO "$top_srcdir/tests/lo-edit.py" "gamefs$$" "$PWD/l/chunks.csv" 1 1 -97 || fail "uno store lay: $(cat l/.gamefs.log)"
$PYUNO "$top_srcdir/tests/lo-edit.py" "gamefs$$" "$PWD/t/maps/meadow/layer00.csv" 1 1 4 || fail "uno store tng: $(cat t/.gamefs.log)"
kill $lo 2>/dev/null; wait $lo 2>/dev/null
note "soffice + python3-uno, three stores: $(( $(date +%s) - start )) s"
sed -n 2p "$B/elements.csv" | grep -q "^[0-9]*,[0-9]*,0," || fail "uno edit not visible: $(sed -n 2p "$B/elements.csv" | cut -c1-40)"
grep -q '^0,-97,' l/chunks.csv || fail "uno edit of chunks.csv not visible: $(sed -n 2p l/chunks.csv)"
gfs_umount m || fail "unmount zzt"
gfs_umount l || fail "unmount lay"
sed -n 2p t/maps/meadow/layer00.csv | grep -q '^0,4,0,0,0,0,0,0$' || fail "uno edit of layer00.csv not visible: $(sed -n 2p t/maps/meadow/layer00.csv)"
gfs_umount t || fail "unmount tng"
python3 "$top_srcdir/tests/tng/tngpy.py" verify g.tng >/dev/null || fail "tng CRCs after the uno store"
"$GAMEFS" cat w.zzt "${B#m/}/elements.csv" | sed -n 2p | grep -q "^[0-9]*,[0-9]*,0," || fail "uno edit not on disk"
"$GAMEFS" cat G_.lay chunks.csv | grep -q '^0,-97,' || fail "uno lay edit not on disk"
[ "$("$GAMEFS" cat g.tng maps/meadow/layer00.csv | sed -n 2p)" = "0,4,0,0,0,0,0,0" ] || fail "uno tng edit not on disk"
echo ok
