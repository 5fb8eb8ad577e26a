#!/usr/bin/env python3
"""TirNanoG saved game reader and writer for the gamefs tests.

Written from ../shared/specs/tng-saved-game-format.txt, independently of
the C driver.  Subcommands:

  mk OUT [--kind player|server] [--no-preview] [--wrap zlib|raw]
         [--crc inflated|compressed] [--bad KIND] [--seed N] [--flat]
      write a save; --bad makes a broken one: truncated, smallchunk,
      pastend, overrun, preview, badcrc, rle, trailing
  dump FILE
      print every field, one "path: value" per line (the tests grep it)
  pixel FILE X Y
      print the raw 15-bit preview pixel at (X, Y) in hex
  png OUT [--size W H] [--seed N] [--set X Y R G B]
      write an RGB PNG: the fixture preview pattern, one pixel changed
  pngpix FILE X Y
      print the R G B A of a pixel of a PNG (8-bit RGB or RGBA)
"""
import argparse
import array
import ipaddress
import random
import struct
import sys
import zlib

MAGIC = b"TNG Saved Game\n\0"


def deflate(data, wrap):
    if wrap == "zlib":
        return zlib.compress(data, 6)
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def inflate(data):
    """Returns (bytes, wrap, used)."""
    if len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0:
        d = zlib.decompressobj()
        wrap = "zlib"
    else:
        d = zlib.decompressobj(-15)
        wrap = "raw"
    out = d.decompress(data)
    if not d.eof:
        raise ValueError("deflate stream not complete")
    return out, wrap, len(data) - len(d.unused_data)


# ---- RLE of u16 values: header n, bit 7 = repeat (n&127)+1 of next u16,
#      else n+1 literal u16 values
def rle_encode(vals):
    out = bytearray()
    i = 0
    while i < len(vals):
        run = 1
        while i + run < len(vals) and run < 128 and vals[i + run] == vals[i]:
            run += 1
        if run > 1:
            out += bytes([0x80 | (run - 1)]) + struct.pack("<H", vals[i])
            i += run
        else:
            lit = [vals[i]]
            i += 1
            while i < len(vals) and len(lit) < 128 and not (i + 1 < len(vals) and vals[i] == vals[i + 1]):
                lit.append(vals[i])
                i += 1
            out += bytes([len(lit) - 1]) + b"".join(struct.pack("<H", v) for v in lit)
    return bytes(out)


def rle_decode(b):
    vals = []
    i = 0
    while i < len(b):
        n = b[i]
        if n & 0x80:
            if i + 3 > len(b):
                raise ValueError("rle")
            vals += [struct.unpack_from("<H", b, i + 1)[0]] * ((n & 127) + 1)
            i += 3
        else:
            k = n + 1
            if i + 1 + 2 * k > len(b):
                raise ValueError("rle")
            vals += list(struct.unpack_from("<%dH" % k, b, i + 1))
            i += 1 + 2 * k
    return vals


# ---- entity block
def entity(map_, dir_, x, y, behav, trans, alt, attrs, inv, skills, quests):
    b = struct.pack("<I", map_)[:3] + bytes([dir_]) + struct.pack("<iiBBBBHHH", x, y, behav, trans, alt,
                                                                  len(attrs), len(inv), len(skills), len(quests))
    b += b"".join(struct.pack("<i", a) for a in attrs)
    b += b"".join(struct.pack("<II", q, o) for q, o in inv)
    b += b"".join(struct.pack("<II", q, o) for q, o in skills)
    b += b"".join(struct.pack("<I", q) for q in quests)
    return b


def parse_entity(b, o):
    m = b[o] | b[o + 1] << 8 | b[o + 2] << 16
    d = b[o + 3]
    x, y, behav, trans, alt, na, ni, ns, nq = struct.unpack_from("<iiBBBBHHH", b, o + 4)
    o += 22
    if o + na * 4 + ni * 8 + ns * 8 + nq * 4 > len(b):
        raise ValueError("entity counts overrun")
    attrs = list(struct.unpack_from("<%di" % na, b, o)); o += 4 * na
    inv = [struct.unpack_from("<II", b, o + 8 * k) for k in range(ni)]; o += 8 * ni
    sk = [struct.unpack_from("<II", b, o + 8 * k) for k in range(ns)]; o += 8 * ns
    qs = list(struct.unpack_from("<%dI" % nq, b, o)); o += 4 * nq
    return dict(map=m, direction=d, x=x, y=y, behaviour=behav, transport=trans, altitude=alt,
                attributes=attrs, inventory=inv, skills=sk, quests=qs), o


def user_body(name, rnd, numchar=2, banned=0):
    h = bytes(rnd.randrange(256) for _ in range(32))
    b = h + struct.pack("<qqqq", 1700000000, 1700001000, 1700002000, 1700003000)
    b += b"en" + bytes([banned, numchar]) + name.encode() + b"\0"
    b += b"".join(struct.pack("<i", k) for k in range(numchar))
    b += b"".join(struct.pack("<H", (k * 7) % 50) for k in range(32))
    b += b"".join(struct.pack("<H", 0xFFFF if k % 3 else k) for k in range(32))
    b += entity(1, 2, 100 + len(name), 200, 0, 0, 0, [10, -5, 30, 7, 0],
                [(3, 17), (1, 4)], [(2, 9)], [5, 0x80000006])
    return b


def npc_body(i):
    return struct.pack("<II", i, i + 10) + entity(1 + i, i % 4, 50 * i, 60 * i, 1, 0, 2,
                                                  [i, -i, 5], [(i + 1, 33)] if i else [], [], [0x80000001])


def chunk(magic, body):
    return magic + struct.pack("<I", len(body) + 8) + body


def preview_pixels(seed):
    a = array.array("H", ((x >> 3) << 10 | (y >> 3) << 5 | ((x + y + seed) >> 4 & 31)
                          for y in range(256) for x in range(256)))
    if sys.byteorder == "big":
        a.byteswap()
    return a.tobytes()


def make(a):
    rnd = random.Random(a.seed)
    chunks = []
    chunks.append(chunk(b"GLBL", struct.pack("<6i", 3, 31, -2, 46, 0, -1)))
    chunks.append(chunk(b"QSTS", struct.pack("<3i", 0, -1, 1)))
    names = ["alice"] if a.kind == "player" else ["alice", "bob", "carol"]
    for n in names:
        ub = user_body(n, rnd, banned=1 if n == "bob" else 0)
        if a.bad == "overrun" and n == names[0]:
            # claim 200 attributes in the entity block
            ent = len(ub) - len(entity(1, 2, 100 + len(n), 200, 0, 0, 0, [10, -5, 30, 7, 0],
                                       [(3, 17), (1, 4)], [(2, 9)], [5, 0x80000006]))
            ub = ub[:ent + 15] + bytes([200]) + ub[ent + 16:]
        chunks.append(chunk(b"USER", ub))
    for i in range(3):
        chunks.append(chunk(b"NPC\0", npc_body(i)))
    layer = [0xFFFF] * 1000 + [3] * 20 + [7, 8, 9, 10]
    rle = rle_encode(layer)
    if a.bad == "rle":
        rle = rle + b"\x05\x01"
    chunks.append(chunk(b"MAP\0", struct.pack("<I", 1) + rle))
    chunks.append(chunk(b"MAP\0", struct.pack("<I", 4) + rle_encode([1, 2, 3, 0xFFFF, 5, 5, 5])))
    chunks.append(chunk(b"XTRA", b"unknown chunk body\x00\x01\x02"))
    if a.kind == "server":
        deny = b"\x02" + bytes([192, 168, 1, 7]) + bytes(12)
        deny += b"\x0a" + ipaddress.IPv6Address("2001:db8::42").packed
        deny += b"\x02" + bytes([10, 0, 0, 1]) + bytes(12)
        chunks.append(chunk(b"DENY", deny))
    if a.bad == "smallchunk":
        chunks.append(b"BAD!" + struct.pack("<I", 4))
    if a.bad == "pastend":
        chunks.append(b"BAD!" + struct.pack("<I", 400) + b"xx")
    payload = b"".join(chunks)
    comp = deflate(payload, a.wrap)
    crc = zlib.crc32(payload if a.crc == "inflated" else comp) & 0xFFFFFFFF
    if a.bad == "badcrc":
        crc ^= 0x1234
    head = MAGIC + a.game.encode().ljust(16, b"\0")
    out = head
    if a.preview:
        img = preview_pixels(a.seed) if not a.flat else struct.pack("<H", 0x1234) * 65536
        if a.bad == "preview":
            img = img[:1000]
        pc = deflate(img, a.wrap)
        out += b"PRVW" + struct.pack("<I", 32 + len(pc)) + struct.pack("<I", 3723) + bytes(18) + \
            struct.pack("<H", 256) + pc
    out += comp + struct.pack("<I", crc)
    if a.bad == "truncated":
        out = out[:len(out) - len(comp) // 2]
    if a.bad == "trailing":
        out += b"junk"
    with open(a.out, "wb") as f:
        f.write(out)


def parse(data):
    if data[:16] != MAGIC:
        raise ValueError("magic")
    r = dict(game=data[16:32].rstrip(b"\0").decode("utf-8", "replace"))
    p = 32
    if data[32:36] == b"PRVW":
        size = struct.unpack_from("<I", data, 36)[0]
        played, = struct.unpack_from("<I", data, 40)
        dim, = struct.unpack_from("<H", data, 62)
        img, pw, _ = inflate(data[64:32 + size])
        r["preview"] = dict(played=played, dim=dim, wrap=pw, img=img)
        p = 32 + size
    pay, wrap, used = inflate(data[p:])
    r["wrap"] = wrap
    crc, = struct.unpack_from("<I", data, p + used)
    if crc == zlib.crc32(pay) & 0xFFFFFFFF:
        r["crc"] = "inflated"
    elif crc == zlib.crc32(data[p:p + used]) & 0xFFFFFFFF:
        r["crc"] = "compressed"
    else:
        r["crc"] = "BAD"
    r["tail"] = data[p + used + 4:]
    r["chunks"] = []
    o = 0
    while o < len(pay):
        m = pay[o:o + 4]
        s, = struct.unpack_from("<I", pay, o + 4)
        r["chunks"].append((m, pay[o + 8:o + s]))
        o += s
    return r


def dump(fn):
    d = parse(open(fn, "rb").read())
    out = ["game: " + d["game"], "wrap: " + d["wrap"], "crc: " + d["crc"]]
    if "preview" in d:
        pv = d["preview"]
        out += ["preview.played: %d" % pv["played"], "preview.wrap: %s" % pv["wrap"],
                "preview.size: %d" % len(pv["img"])]
    if d["tail"]:
        out.append("tail: " + d["tail"].hex())
    nnpc = 0
    for i, (m, b) in enumerate(d["chunks"]):
        tag = m.rstrip(b"\0").decode("latin-1")
        out.append("chunk %d: %s %d" % (i, tag, len(b)))
        if m in (b"GLBL", b"QSTS"):
            out.append("%s: %s" % (tag, " ".join(str(v) for v in struct.unpack("<%di" % (len(b) // 4), b))))
        elif m == b"DENY":
            for k in range(0, len(b), 17):
                f = b[k]
                a = ipaddress.IPv4Address(b[k + 1:k + 5]) if f == 2 else ipaddress.IPv6Address(b[k + 1:k + 17])
                out.append("DENY: %d %s" % (f, a))
        elif m == b"USER":
            dates = struct.unpack_from("<qqqq", b, 32)
            flags, numchar = b[66], b[67]
            e = b.index(b"\0", 68)
            name = b[68:e].decode()
            o = e + 1
            opts = struct.unpack_from("<%di" % numchar, b, o); o += 4 * numchar
            equip = struct.unpack_from("<32H", b, o); o += 64
            belt = struct.unpack_from("<32H", b, o); o += 64
            ent, o = parse_entity(b, o)
            pre = "user.%s." % name
            out += [pre + "hash: " + b[:32].hex(), pre + "dates: %d %d %d %d" % dates,
                    pre + "lang: " + b[64:66].decode("latin-1"), pre + "flags: %d" % flags,
                    pre + "options: " + " ".join(map(str, opts)),
                    pre + "equipped: " + " ".join(map(str, equip)), pre + "belt: " + " ".join(map(str, belt))]
            out += [pre + "%s: %s" % (k, v) for k, v in ent.items()]
            if o != len(b):
                out.append(pre + "LEFTOVER %d" % (len(b) - o))
        elif m == b"NPC\0":
            t, sp = struct.unpack_from("<II", b, 0)
            ent, o = parse_entity(b, 8)
            pre = "npc.%04d." % nnpc
            nnpc += 1
            out += [pre + "type: %d" % t, pre + "spawner: %d" % sp]
            out += [pre + "%s: %s" % (k, v) for k, v in ent.items()]
        elif m == b"MAP\0":
            mid, = struct.unpack_from("<I", b, 0)
            vals = rle_decode(b[4:])
            out.append("map.%d: %d values: %s" % (mid, len(vals), " ".join(
                "-1" if v == 0xFFFF else str(v) for v in vals)))
        else:
            out.append("raw.%s: %s" % (tag, b.hex()))
    print("\n".join(out))


def png_write(fn, w, h, rgb):
    raw = b"".join(b"\0" + rgb[y * w * 3:(y + 1) * w * 3] for y in range(h))

    def ck(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    with open(fn, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + ck(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                ck(b"IDAT", zlib.compress(raw)) + ck(b"IEND", b""))


def png_read(fn):
    d = open(fn, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n"
    o, idat = 8, b""
    while o < len(d):
        n, = struct.unpack_from(">I", d, o)
        t = d[o + 4:o + 8]
        if t == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack_from(">IIBBBBB", d, o + 8)
        elif t == b"IDAT":
            idat += d[o + 8:o + 8 + n]
        o += 12 + n
    assert depth == 8 and ctype in (2, 6) and inter == 0, (depth, ctype, inter)
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    out = bytearray()
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        out += line
        prev = line
    return w, h, bpp, bytes(out)


def c5to8(c):
    return c << 3 | c >> 2


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("mk")
    m.add_argument("out")
    m.add_argument("--kind", default="player", choices=["player", "server"])
    m.add_argument("--no-preview", dest="preview", action="store_false")
    m.add_argument("--wrap", default="zlib", choices=["zlib", "raw"])
    m.add_argument("--crc", default="inflated", choices=["inflated", "compressed"])
    m.add_argument("--bad", default=None)
    m.add_argument("--game", default="testgame")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--flat", action="store_true", help="one-colour preview (small files)")
    d = sub.add_parser("dump")
    d.add_argument("file")
    px = sub.add_parser("pixel")
    px.add_argument("file")
    px.add_argument("x", type=int)
    px.add_argument("y", type=int)
    pg = sub.add_parser("png")
    pg.add_argument("out")
    pg.add_argument("--size", type=int, nargs=2, default=[256, 256])
    pg.add_argument("--seed", type=int, default=1)
    pg.add_argument("--set", type=int, nargs=5, default=None)
    pp = sub.add_parser("pngpix")
    pp.add_argument("file")
    pp.add_argument("x", type=int)
    pp.add_argument("y", type=int)
    a = ap.parse_args()
    if a.cmd == "mk":
        make(a)
    elif a.cmd == "dump":
        dump(a.file)
    elif a.cmd == "png":
        w, h = a.size
        px = preview_pixels(a.seed)
        rgb = bytearray()
        for y in range(h):
            for x in range(w):
                v, = struct.unpack_from("<H", px, 2 * ((y % 256) * 256 + x % 256))
                rgb += bytes([c5to8(v >> 10 & 31), c5to8(v >> 5 & 31), c5to8(v & 31)])
        if a.set:
            x, y, r, g, b = a.set
            rgb[3 * (y * w + x):3 * (y * w + x) + 3] = bytes([r, g, b])
        png_write(a.out, w, h, bytes(rgb))
    elif a.cmd == "pngpix":
        w, h, bpp, px = png_read(a.file)
        o = (a.y * w + a.x) * bpp
        print(" ".join(str(v) for v in px[o:o + bpp]) + ("" if bpp == 4 else " 255"))
    else:
        img = parse(open(a.file, "rb").read())["preview"]["img"]
        print("%04x" % struct.unpack_from("<H", img, 2 * (a.y * 256 + a.x))[0])


if __name__ == "__main__":
    sys.exit(main())
