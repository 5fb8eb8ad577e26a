#!/bin/sh
# Sprite strips: every direction of every sprite is drawn as the spec's
# sprite map says (frames side by side, atlas region with its operation
# applied at its margins), checked pixel by pixel against a python drawing.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
$P write g.tng || fail "write"
"$GAMEFS" extract g.tng x || fail "extract"
python3 - "$top_srcdir/tests/tng" g.tng x <<'PY' || fail "strips differ"
import struct, sys, zlib
sys.path.insert(0, sys.argv[1])
import tngpy

def png_decode(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    p, idat, ihdr = 8, b"", None
    while p < len(data):
        n, t = struct.unpack(">I4s", data[p:p + 8])
        if t == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", data[p + 8:p + 21])
        elif t == b"IDAT":
            idat += data[p + 8:p + 8 + n]
        p += 12 + n
    w, h, depth, ctype = ihdr[:4]
    assert depth == 8 and ctype == 6, ihdr
    raw = zlib.decompress(idat)
    out, prev, stride = [], bytearray(w * 4), w * 4
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        out.append(bytes(line))
        prev = line
    return w, h, out

r = tngpy.Reader(open(sys.argv[2], "rb").read())
items = dict(r.items())
atlases = [png_decode(items["atlases/%04d" % i]) for i in range(2)]
names = ["south", "southwest", "west", "northwest", "north", "northeast", "east", "southeast"]
checked = 0
for cat in ("ui", "tiles", "chars", "portraits"):
    k = 0
    while "%s/%04d" % (cat, k) in items:
        spr, p = items["%s/%04d" % (cat, k)], 0
        while p < len(spr):
            sw, sh, typ, nf = struct.unpack_from("<HHBB", spr, p)
            p += 6
            want = [[b"\0\0\0\0"] * (sw * nf) for _ in range(sh)]
            for f in range(nf):
                a, x, y, w, h, l, t = struct.unpack_from("<7H", spr, p)
                p += 14
                aw, ah, rows = atlases[a & 0xFFF]
                op = a >> 12
                ow, oh = (h, w) if op in (3, 5) else (w, h)
                for Y in range(oh):
                    for X in range(ow):
                        # where (X, Y) of the drawn frame comes from on the atlas
                        sx, sy = {0: (X, Y), 1: (X, h - 1 - Y), 2: (w - 1 - X, Y),
                                  3: (Y, h - 1 - X), 4: (w - 1 - X, h - 1 - Y),
                                  5: (w - 1 - Y, X)}[op]
                        if x + sx < aw and y + sy < ah and l + X < sw and t + Y < sh:
                            want[t + Y][f * sw + l + X] = rows[y + sy][(x + sx) * 4:(x + sx) * 4 + 4]
            gw, gh, got = png_decode(open("%s/sprites/%s/%04d-%s.png" % (sys.argv[3], cat, k, names[typ & 0x3F]), "rb").read())
            assert (gw, gh) == (sw * nf, sh), (cat, k, gw, gh)
            for yy in range(sh):
                assert got[yy] == b"".join(want[yy]), (cat, k, typ, yy)
            checked += 1
        k += 1
assert checked == 6, checked
PY
echo ok
