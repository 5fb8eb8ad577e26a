"""Check a mounted TirNanoG game's map pictures (tests/tng/t2016-map-png.sh).

  mappng.py MNT NAME
  mappng.py --opaque PNG    rewrite an RGBA PNG (filter 0 rows) with every pixel opaque
  mappng.py --is-opaque PNG fail unless every pixel of PNG is opaque

maps/NAME.png is decoded here (every chunk's CRC, the zlib stream with its
Adler-32, filter bytes) and its pixels compared with a reference drawn from
the other views alone: the tileset PNGs (maps/tilesets/*.png, decoded the
same way), the CSV views (maps/NAME/layerNN.csv) and header.ini, every
layer in order, each tile bottom-left in its cell, straight-alpha "over" in
the driver's integer arithmetic.  Then 4 KiB preads at random offsets, in
random order, must give the bytes of one whole read.  Written from the
manual (gamefs-formats(5)), independently of the C driver.
"""
import os
import random
import struct
import sys
import zlib


def png_decode(data):
    """(w, h, RGBA rows as bytearrays) of an 8-bit RGBA PNG; asserts it is valid."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "signature"
    pos, idat, w = 8, b"", None
    chunks = []
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert len(body) == n, "chunk %r cut short" % kind
        assert zlib.crc32(kind + body) == crc, "CRC of chunk %r at %d" % (kind, pos)
        chunks.append(kind)
        if kind == b"IHDR":
            w, h, depth, ctype, comp, filt, inter = struct.unpack(">IIBBBBB", body)
            assert (depth, ctype, comp, filt, inter) == (8, 6, 0, 0, 0), body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert pos == len(data) and chunks[0] == b"IHDR" and chunks[-1] == b"IEND", chunks
    d = zlib.decompressobj()
    raw = d.decompress(idat) + d.flush()
    assert d.eof and not d.unused_data, "zlib stream does not end where IDAT does"
    stride = 1 + w * 4
    assert len(raw) == h * stride, (len(raw), h, stride)
    rows = []
    for y in range(h):
        assert raw[y * stride] == 0, "row %d filter %d" % (y, raw[y * stride])
        rows.append(bytearray(raw[y * stride + 1:(y + 1) * stride]))
    return w, h, rows


def cdiv(a, b):
    """C's division (truncates toward zero)."""
    q = abs(a) // b
    return q if a >= 0 else -q


def cell_xy(orient, stagger, ms, tw, th, x, y):
    """Top-left of cell x, y in the picture (Tiled's layout, stagger index odd)."""
    side = tw // 2 if stagger == "x" else th // 2
    if stagger == "y":
        return x * tw + (tw // 2 if y & 1 else 0), y * ((th + side) // 2)
    if stagger == "x":
        return x * ((tw + side) // 2), y * th + (th // 2 if x & 1 else 0)
    if orient == "isometric":
        return ms * tw // 2 + cdiv((x - y - 1) * tw, 2), (x + y) * th // 2
    return x * tw, y * th


def over(dst, dx, src, sx, n):
    """n pixels of src from sx over dst from dx (straight alpha, the driver's integer rounding)."""
    for i in range(n):
        s = (sx + i) * 4
        d = (dx + i) * 4
        a = src[s + 3]
        if not a:
            continue
        if a == 255 or not dst[d + 3]:
            dst[d:d + 4] = src[s:s + 4]
            continue
        da = dst[d + 3] * (255 - a) // 255
        for c in range(3):
            dst[d + c] = (src[s + c] * a + dst[d + c] * da) // (a + da)
        dst[d + 3] = a + da


def reference(mnt, name, w, h):
    hdr = dict(l.split(" = ", 1) for l in open(mnt + "/header.ini").read().splitlines() if " = " in l)
    tw, th, ms = int(hdr["tile_width"]) or 1, int(hdr["tile_height"]) or 1, 1 << int(hdr["map_size_log2"])
    gtype = int(hdr["type"])
    orient = ["orthogonal", "isometric", "hexagonal", "hexagonal"][gtype]
    stagger = {2: "x", 3: "y"}.get(gtype)
    sets = {}
    tmx = open("%s/maps/%s.tmx" % (mnt, name)).read()
    for kind in ("tiles", "npcs", "spawners"):
        # the tileset's grid from its TMX element (checked against the PNG by t2015)
        at = tmx.index('name="%s"' % kind)
        el = tmx[at:tmx.index(">", at)]
        attr = dict(kv.split("=", 1) for kv in el.split()[1:])
        g = {k: int(attr[k].strip('"')) for k in ("tilewidth", "tileheight", "tilecount", "columns")}
        sw, sh, rows = png_decode(open("%s/maps/tilesets/%s.png" % (mnt, kind), "rb").read())
        assert sw == g["columns"] * g["tilewidth"], (kind, sw, g)
        sets[kind] = (g, rows)
    canvas = [bytearray(w * 4) for _ in range(h)]
    for k in range(int(hdr["layers"])):
        kind = "npcs" if k == 5 else "spawners" if k == 6 else "tiles"
        g, rows = sets[kind]
        gw, gh, cols = g["tilewidth"], g["tileheight"], g["columns"]
        lines = open("%s/maps/%s/layer%02d.csv" % (mnt, name, k)).read().splitlines()[1:]
        for y, line in enumerate(lines):
            for x, v in enumerate(int(c) for c in line.split(",")):
                if v < 0 or v >= g["tilecount"]:
                    continue
                px, py = cell_xy(orient, stagger, ms, tw, th, x, y)
                py += th - gh	# the tileset cell bottom-left in the map cell
                ox, oy = (v % cols) * gw, (v // cols) * gh
                x0, x1 = max(0, -px), min(gw, w - px)
                for ty in range(max(0, -py), min(gh, h - py)):
                    if x0 < x1:
                        over(canvas[py + ty], px + x0, rows[oy + ty], ox + x0, x1 - x0)
    return canvas


def main():
    mnt, name = sys.argv[1:3]
    path = "%s/maps/%s.png" % (mnt, name)
    data = open(path, "rb").read()
    assert len(data) == os.stat(path).st_size, "size"
    w, h, rows = png_decode(data)
    # the manual's layout: one stored deflate block a row, so a size known without drawing
    assert len(data) == 8 + 25 + 8 + 2 + h * (5 + 1 + 4 * w) + 4 + 4 + 12, (path, len(data), w, h)
    want = reference(mnt, name, w, h)
    for y in range(h):
        if rows[y] != want[y]:
            x = next(i for i in range(w * 4) if rows[y][i] != want[y][i]) // 4
            sys.exit("%s: pixel %d,%d is %s, the views draw %s" %
                     (path, x, y, bytes(rows[y][x * 4:x * 4 + 4]).hex(), bytes(want[y][x * 4:x * 4 + 4]).hex()))
    # a reader in small pieces, anywhere, in any order, sees the one render
    fd = os.open(path, os.O_RDONLY)
    offs = list(range(0, len(data), 4096))
    random.Random(len(data)).shuffle(offs)
    for o in offs:
        got = os.pread(fd, 4096, o)
        assert got == data[o:o + 4096], "%s: pread at %d" % (path, o)
    os.close(fd)


def opaque(path):
    w, h, rows = png_decode(open(path, "rb").read())
    raw = b"".join(b"\0" + bytes(b for x in range(w) for b in (r[x * 4], r[x * 4 + 1], r[x * 4 + 2], 255))
                   for r in rows)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    with open(path, "r+b") as f:
        f.truncate(0)
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


if sys.argv[1] == "--opaque":
    opaque(sys.argv[2])
elif sys.argv[1] == "--is-opaque":
    rows = png_decode(open(sys.argv[2], "rb").read())[2]
    assert all(r[i] == 255 for r in rows for i in range(3, len(r), 4)), sys.argv[2]
else:
    main()
