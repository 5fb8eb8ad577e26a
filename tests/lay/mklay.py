#!/usr/bin/env python3
"""Fixture writer and reference reader for MAGES .lay sprite layouts.

Written from the format notes (sg-sprite's lay-format.md) and the gamefs
contract (DESIGN.md sections 4 and 5), independently of the C driver:

  u32 sprite_count, u32 chunk_count
  sprite_count x [u8 id, u8 dep, u8 c, u8 type, u32 chunk_offset, u32 chunk_count]
  chunk_count  x [f32 dst_x, f32 dst_y, f32 src_x, f32 src_y]
  trailing bytes
  (the whole thing optionally one zlib stream)

Chunks sit on a 32-pixel atlas grid with a 1-pixel border: src is the first
interior pixel, and the 30x30 interior is drawn at dst.

Commands (all output to files or stdout):
  gen OUT.lay [--atlas OUT.png] [--compressed] [--tail N] [--seed S]
  atlas OUT.png W H [--seed S] [--rgb16]
  bad KIND OUT.lay                       corrupt layouts (see BAD)
  info LAY                               key=value summary
  csv LAY sprites|chunks                 the CSV views as gamefs should show them
  layout LAY                             inflated layout bytes to stdout
  names LAY                              expected variants/ names, one a line
  verify LAY ATLAS DIR [--tol N] [--only a,b]  compare DIR/<name>.png with the expected composition
  canvas LAY                             "W H X0 Y0" of the shared canvas
  pngsize PNG                            "W H"
  pixel PNG X Y                          "R G B A"
"""
import math
import random
import struct
import sys
import zlib

CELL = 30
GRID = 32
BASE, SUB, DEP30, DEP40, OVERLAY, DEP60 = 0x00, 0x20, 0x30, 0x40, 0x50, 0x60
DEPS = (DEP30, DEP40, DEP60)

# ---- PNG --------------------------------------------------------------------

def png_write(path, w, h, rgba=None, rgb16=None):
    """rgba: bytes w*h*4 (8-bit RGBA); rgb16: list of (r,g,b) 16-bit values."""
    raw = bytearray()
    if rgba is not None:
        ctype, depth, bpp = 6, 8, 4
        for y in range(h):
            raw.append(0)
            raw += rgba[y * w * 4:(y + 1) * w * 4]
    else:
        ctype, depth, bpp = 2, 16, 6
        for y in range(h):
            raw.append(0)
            for x in range(w):
                raw += struct.pack(">HHH", *rgb16[y * w + x])

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    out = b"\x89PNG\r\n\x1a\n"
    out += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 0))
    out += chunk(b"IDAT", zlib.compress(bytes(raw), 6))
    out += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(out)


def png_read(path):
    """Decode a non-interlaced PNG (grey/RGB/RGBA, 8 or 16 bit) to
    (w, h, rgba bytes, bits); 16-bit samples keep 16 bits in a list."""
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    p = 8
    idat = bytearray()
    w = h = depth = ctype = None
    while p < len(d):
        n, t = struct.unpack(">I4s", d[p:p + 8])
        body = d[p + 8:p + 8 + n]
        if t == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
            assert inter == 0, "interlaced"
        elif t == b"IDAT":
            idat += body
        elif t == b"IEND":
            break
        p += 12 + n
    chans = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    bpp = chans * depth // 8
    stride = w * bpp
    raw = zlib.decompress(bytes(idat))
    out = bytearray(h * stride)
    prev = bytearray(stride)
    pos = 0
    for y in range(h):
        ft = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif ft == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                pa = abs(b - c)
                pb = abs(a - c)
                pc = abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    # to 8-bit RGBA (16-bit scaled with rounding, as libpng's scale_16)
    rgba = bytearray(w * h * 4)
    for i in range(w * h):
        px = []
        for c in range(chans):
            if depth == 16:
                v = out[i * bpp + 2 * c] << 8 | out[i * bpp + 2 * c + 1]
                v = (v * 255 + 32895) >> 16
            else:
                v = out[i * bpp + c]
            px.append(v)
        if chans == 1:
            px = [px[0]] * 3 + [255]
        elif chans == 2:
            px = [px[0]] * 3 + [px[1]]
        elif chans == 3:
            px = px + [255]
        rgba[i * 4:i * 4 + 4] = bytes(px)
    return w, h, rgba

# ---- layouts ------------------------------------------------------------------

def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def build(sprites, chunks, tail=b""):
    out = struct.pack("<II", len(sprites), len(chunks))
    for (typ, sid, dep, c, off, n) in sprites:
        out += struct.pack("<BBBBII", sid, dep, c, typ, off, n)
    for ch in chunks:
        out += struct.pack("<ffff", *ch)
    return out + tail


def parse(data):
    """Returns dict(compressed, sprites, chunks (float tuples), tail, raw)."""
    comp = False
    sc, cc = struct.unpack_from("<II", data)
    if 8 + sc * 12 + cc * 16 > len(data):
        data = zlib.decompress(data)
        comp = True
        sc, cc = struct.unpack_from("<II", data)
    sprites = []
    for i in range(sc):
        sid, dep, c, typ, off, n = struct.unpack_from("<BBBBII", data, 8 + 12 * i)
        sprites.append((typ, sid, dep, c, off, n))
    base = 8 + 12 * sc
    chunks = [struct.unpack_from("<ffff", data, base + 16 * i) for i in range(cc)]
    return dict(compressed=comp, sprites=sprites, chunks=chunks,
                tail=data[base + 16 * cc:], raw=data)


def load(path):
    return parse(open(path, "rb").read())


def chain_of(L, i):
    """Draw order (bottom first) for variant i, or None."""
    sp = L["sprites"]
    typ, sid, dep = sp[i][0], sp[i][1], sp[i][2]
    bases = [k for k, s in enumerate(sp) if s[0] == BASE]
    base = bases[0] if bases else None
    if typ == BASE or typ == OVERLAY:
        return [i]
    if typ == SUB:
        return ([base] if base is not None else []) + [i]
    if typ in DEPS:
        subs = [k for k, s in enumerate(sp) if s[0] == SUB and s[1] == dep]
        ch = [base] if base is not None else []
        if subs:
            ch.append(subs[-1])
        return ch + [i]
    return None


def name_of(s):
    typ, sid, dep = s[0], s[1], s[2]
    if typ == BASE:
        return "b%d" % sid
    if typ == SUB:
        return "s%d" % sid
    if typ == OVERLAY:
        return "o%d" % sid
    return "t%d_d%d_%d" % (typ, dep, sid)


def canvas_of(L):
    xs = [c[0] for c in L["chunks"] if c[0] == int(c[0]) and c[1] == int(c[1])]
    ys = [c[1] for c in L["chunks"] if c[0] == int(c[0]) and c[1] == int(c[1])]
    x0, y0 = int(min(xs)), int(min(ys))
    return int(max(xs)) - x0 + CELL, int(max(ys)) - y0 + CELL, x0, y0


def drawable(L, i, aw, ah):
    ch = chain_of(L, i)
    if ch is None:
        return False
    for k in ch:
        typ, sid, dep, c, off, n = L["sprites"][k]
        for (dx, dy, sx, sy) in L["chunks"][off:off + n]:
            for v in (dx, dy, sx, sy):
                if not math.isfinite(v) or v != int(v):
                    return False
            if sx < 0 or sy < 0 or sx + CELL > aw or sy + CELL > ah:
                return False
    return True


def compose(L, i, atlas):
    aw, ah, apx = atlas
    cw, chh, x0, y0 = canvas_of(L)
    cv = bytearray(cw * chh * 4)
    for k in chain_of(L, i):
        typ, sid, dep, c, off, n = L["sprites"][k]
        for (dx, dy, sx, sy) in L["chunks"][off:off + n]:
            dx, dy, sx, sy = int(dx) - x0, int(dy) - y0, int(sx), int(sy)
            for r in range(CELL):
                so = ((sy + r) * aw + sx) * 4
                do = ((dy + r) * cw + dx) * 4
                if typ != OVERLAY:
                    cv[do:do + CELL * 4] = apx[so:so + CELL * 4]
                    continue
                for x in range(CELL):
                    s = apx[so + 4 * x:so + 4 * x + 4]
                    d = cv[do + 4 * x:do + 4 * x + 4]
                    sa, da = s[3], d[3]
                    if sa == 255:
                        cv[do + 4 * x:do + 4 * x + 4] = s
                    elif sa:
                        inv = 255 - sa
                        oa = sa * 255 + da * inv
                        px = [(s[j] * sa * 255 + d[j] * da * inv + oa // 2) // oa for j in range(3)]
                        px.append((oa + 127) // 255)
                        cv[do + 4 * x:do + 4 * x + 4] = bytes(px)
    return cw, chh, cv

# ---- generated fixtures ---------------------------------------------------------

def gen_layout(seed=1, cols=4, rows=3):
    """A layout like the games': base, subs, dependents (lip sync) and an
    overlay.  Returns (sprites, chunks, atlas cells used)."""
    rnd = random.Random(seed)
    chunks, sprites = [], []
    cell = [0]

    def src():
        k = cell[0]
        cell[0] += 1
        return (float((k % 8) * GRID + 1), float((k // 8) * GRID + 1))

    def block(x0, y0, w, h):
        out = []
        for j in range(h):
            for i in range(w):
                sx, sy = src()
                out.append((float(x0 + i * CELL), float(y0 + j * CELL), sx, sy))
        return out

    def add(typ, sid, dep, c, cks):
        sprites.append((typ, sid, dep, c, len(chunks), len(cks)))
        chunks.extend(cks)
    ox, oy = -cols * CELL // 2 - 7, -rows * CELL + 3
    add(BASE, 1, 0, 0, block(ox, oy, cols, rows))
    add(SUB, 1, 0, 0, block(ox + CELL, oy, 2, 1))
    add(DEP40, 0, 1, 0, block(ox + CELL, oy + CELL, 1, 1))
    add(DEP40, 1, 1, 0, block(ox + CELL, oy + CELL, 2, 1))
    add(SUB, 2, 0, 0, block(ox + CELL, oy, 2, 1))
    add(DEP60, 0, 2, 0, block(ox + 2 * CELL, oy + CELL, 1, 1))
    add(DEP30, 3, 9, 0, block(ox, oy + 2 * CELL, 1, 1))      # sub 9 absent: on the base
    add(OVERLAY, 0, 0, 0x10, block(ox + cols * CELL, oy + rows * CELL, 1, 2))  # grows the canvas
    two = block(ox, oy, 1, 1) + block(ox, oy, 1, 1)   # same spot twice: blended over itself
    add(OVERLAY, 1, 0, 0x10, two)
    return sprites, chunks, cell[0]


def gen_atlas(path, ncells, seed=1):
    cols = 8
    w = cols * GRID
    h = ((ncells + cols - 1) // cols) * GRID
    rnd = random.Random(seed)
    px = bytearray(rnd.getrandbits(8) for _ in range(w * h * 4))
    # opaque everywhere but a band of partial alpha (the overlay's cells)
    for i in range(w * h):
        y = (i // w)
        a = px[i * 4 + 3]
        px[i * 4 + 3] = 255 if y < 2 * GRID else (0 if a < 40 else a)
    png_write(path, w, h, rgba=bytes(px))
    return w, h

# ---- bad inputs -------------------------------------------------------------------

def bad(kind):
    sp, ch, _ = gen_layout()
    if kind == "short":
        return b"\x01\x00\x00"
    if kind == "counts":
        d = build(sp, ch)
        return d[:-40]
    if kind == "range":
        sp[2] = sp[2][:4] + (len(ch) - 1, 5)
        return build(sp, ch)
    if kind == "nan":
        ch[3] = (float("nan"),) + ch[3][1:]
        return build(sp, ch)
    if kind == "inf":
        ch[5] = ch[5][:2] + (float("inf"), ch[5][3])
        return build(sp, ch)
    if kind == "frac":
        ch[0] = (ch[0][0] + 0.5,) + ch[0][1:]
        return build(sp, ch)
    if kind == "outside":
        k = sp[1][4]
        ch[k] = ch[k][:2] + (4000.0 + 1, ch[k][3])
        return build(sp, ch)
    if kind == "hugecanvas":
        k = sp[2][4]
        ch[k] = (1.0e7, -1.0e7) + ch[k][2:]
        return build(sp, ch)
    if kind == "badzlib":
        return b"\x78\x9c" + bytes(range(200))
    if kind == "zlibcounts":
        return zlib.compress(build(sp, ch)[:-20])
    if kind == "bigcounts":
        return struct.pack("<II", 0xffffffff, 0xffffffff) + b"\0" * 64
    if kind == "badtype":
        sp[1] = (0x99,) + sp[1][1:]
        return build(sp, ch)
    raise SystemExit("unknown bad kind " + kind)

# ---- main ---------------------------------------------------------------------------

def fmt(v):
    return "%.9g" % v


def main(a):
    cmd = a[0]
    if cmd == "gen":
        out = a[1]
        comp = "--compressed" in a
        tail = int(a[a.index("--tail") + 1]) if "--tail" in a else 0
        seed = int(a[a.index("--seed") + 1]) if "--seed" in a else 1
        sp, ch, ncells = gen_layout(seed)
        data = build(sp, ch, bytes((i * 7) & 255 for i in range(tail)))
        if comp:
            data = zlib.compress(data, 9)
        open(out, "wb").write(data)
        if "--atlas" in a:
            gen_atlas(a[a.index("--atlas") + 1], ncells, seed)
    elif cmd == "atlas":
        w, h = int(a[2]), int(a[3])
        seed = int(a[a.index("--seed") + 1]) if "--seed" in a else 7
        rnd = random.Random(seed)
        if "--rgb16" in a:
            png_write(a[1], w, h, rgb16=[(rnd.getrandbits(16), rnd.getrandbits(16), rnd.getrandbits(16))
                                         for _ in range(w * h)])
        else:
            px = bytearray(rnd.randbytes(w * h * 4))
            px[3::4] = b"\xff" * (w * h)
            png_write(a[1], w, h, rgba=bytes(px))
    elif cmd == "bad":
        open(a[2], "wb").write(bad(a[1]))
    elif cmd == "info":
        L = load(a[1])
        print("compressed=%d" % L["compressed"])
        print("sprites=%d" % len(L["sprites"]))
        print("chunks=%d" % len(L["chunks"]))
        print("tail=%d" % len(L["tail"]))
    elif cmd == "layout":
        sys.stdout.buffer.write(load(a[1])["raw"])
    elif cmd == "csv":
        L = load(a[1])
        if a[2] == "sprites":
            print("index,type,id,depends_on,c,chunk_offset,chunk_count")
            for i, (typ, sid, dep, c, off, n) in enumerate(L["sprites"]):
                print("%d,0x%02x,%d,%d,%d,%d,%d" % (i, typ, sid, dep, c, off, n))
        else:
            print("index,dst_x,dst_y,src_x,src_y")
            for i, c in enumerate(L["chunks"]):
                print("%d,%s" % (i, ",".join(fmt(v) for v in c)))
    elif cmd == "names":
        L = load(a[1])
        aw, ah = (int(a[2]), int(a[3])) if len(a) > 3 else (1 << 30, 1 << 30)
        for i, s in enumerate(L["sprites"]):
            if drawable(L, i, aw, ah):
                print(name_of(s) + ".png")
    elif cmd == "canvas":
        print("%d %d %d %d" % canvas_of(load(a[1])))
    elif cmd == "pngsize":
        d = open(a[1], "rb").read(24)
        print("%d %d" % struct.unpack(">II", d[16:24]))
    elif cmd == "pixel":
        w, h, px = png_read(a[1])
        x, y = int(a[2]), int(a[3])
        print("%d %d %d %d" % tuple(px[(y * w + x) * 4:(y * w + x) * 4 + 4]))
    elif cmd == "verify":
        L = load(a[1])
        atlas = png_read(a[2])
        d = a[3]
        tol = int(a[a.index("--tol") + 1]) if "--tol" in a else 0
        only = a[a.index("--only") + 1].split(",") if "--only" in a else None
        cw, chh, _, _ = canvas_of(L)
        bad_n = 0
        done = 0
        for i, s in enumerate(L["sprites"]):
            nm = name_of(s)
            if only and nm not in only:
                continue
            if not drawable(L, i, atlas[0], atlas[1]):
                continue
            w, h, got = png_read("%s/%s.png" % (d, nm))
            if (w, h) != (cw, chh):
                print("%s: size %dx%d, want %dx%d" % (nm, w, h, cw, chh))
                bad_n += 1
                continue
            _, _, want = compose(L, i, atlas)
            diff = max((abs(x - y) for x, y in zip(got, want)), default=0)
            if diff > tol:
                k = next(j for j in range(len(got)) if abs(got[j] - want[j]) > tol)
                print("%s: pixel %d,%d channel %d: got %d want %d" %
                      (nm, (k // 4) % w, (k // 4) // w, k % 4, got[k], want[k]))
                bad_n += 1
            done += 1
        print("verified %d variants, %d bad" % (done, bad_n))
        sys.exit(1 if bad_n or not done else 0)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
