#!/bin/sh
# The CSV views read the core's one dialect back: CRLF, quoted cells, blank
# lines and no header row change nothing when the values are the same (nor
# do a byte order mark and CRLF in the INI views); a
# quoted value edits the tile or stat it stands for, and nothing else.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
cd "$T" || exit 1
$ZZT mk w.zzt
cp w.zzt orig.zzt
B0=m/boards/00-title-screen

gfs_mount w.zzt m || fail "mount"
python3 - <<'PY' || fail "rewrite in the dialect"
for v in ('elements.csv', 'colors.csv', 'stats.csv'):
    p = 'm/boards/00-title-screen/' + v
    rows = open(p).read().split('\n')
    rows = rows[1:] if v != 'stats.csv' else rows   # header left out (kept in stats.csv)
    rows = [','.join('"%s"' % c if i == 1 else ' %s ' % c for i, c in enumerate(r.split(',')))
            if r else r for r in rows]
    open(p, 'w', newline='').write('\ufeff' + '\r\n\r\n'.join(rows))
for p in ('m/world.ini', 'm/boards/00-title-screen/board.ini'):     # the INI reader too
    t = open(p).read()
    with open(p, 'w', newline='') as f:     # (a refused edit fails at close)
        f.write('\ufeff' + t.replace('\n', '\r\n'))
PY
gfs_umount m || fail "unmount"
cmp w.zzt orig.zzt || fail "the same values in the dialect changed the world"

gfs_mount w.zzt m || fail "mount 2"
python3 - <<'PY' || fail "quoted edit"
p = 'm/boards/00-title-screen/elements.csv'
rows = open(p).read().split('\n')
r = rows[2].split(','); r[1] = '"22"'; rows[2] = ','.join(r)
open(p, 'w').write('\r\n'.join(rows))
p = 'm/boards/00-title-screen/stats.csv'
rows = open(p).read().split('\n')
r = rows[4].split(','); r[6] = '"2"'; rows[4] = ','.join(r)
open(p, 'w').write('\n'.join(rows))
PY
gfs_umount m || fail "unmount 2"
python3 - "$top_srcdir/tests/zzt" <<'PY' || fail "the world read back differs"
import sys
sys.path.insert(0, sys.argv[1])
import zztlib as z
a, b = z.read_world('orig.zzt'), z.read_world('w.zzt')
a0, b0 = a['boards'][0], b['boards'][0]
bad = []
if b0.elem[61] != 22 or [x for i, x in enumerate(b0.elem) if i != 61] != [x for i, x in enumerate(a0.elem) if i != 61]:
    bad.append('tiles')
if b0.color != a0.color:
    bad.append('colours')
if b0.stats[3]['p1'] != 2 or [s for i, s in enumerate(b0.stats) if i != 3] != [s for i, s in enumerate(a0.stats) if i != 3]:
    bad.append('stats')
if b['boards'][1].raw != a['boards'][1].raw or b['header'] != a['header']:
    bad.append('untouched parts')
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
echo ok
