#!/usr/bin/env python3
"""Graphics of a generated OHRRPGCE game, for tests/rpg/t1011-graphics.sh.

Written from ohrrpgce-lumps.md section 3, not from gamefs's C code:
  gfxgame.py mkgame OUT old|new     rpgtool's game plus PT0-PT8, PAL, DEFPAL4.BIN,
                                    MAS (old) or PALETTES.BIN with two palettes (new), FNT, STT
  gfxgame.py mkrgfx OUT              the new game with WALKABOUTS.RGFX (3 spritesets of 2
                                    20x20 frames, the third not 16-colour) instead of PT4
  gfxgame.py rgfx-doc OUT           that WALKABOUTS.RGFX document on its own (a standalone .rgfx)
  gfxgame.py png-index FILE.png     width height, then each row as hex indices, then PLTE hex
  gfxgame.py png-poke IN OUT X Y I  IN (palette PNG) with pixel X,Y set to index I, written
                                    as an 8-bit palette PNG with IN's PLTE
  gfxgame.py png-plte IN OUT I RRGGBB  IN (palette PNG) with PLTE entry I set to RRGGBB
  gfxgame.py png-rgb-copy IN OUT    IN rewritten as an RGB (truecolour) PNG
  gfxgame.py sprite-pixel GAME LUMP W H FRAMES SET X Y   the index at X,Y of the set's strip
"""
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import rpgtool  # noqa: E402

# lump: (w, h, frames, records)
PT = {0: (32, 40, 8, 2), 1: (34, 34, 1, 2), 2: (50, 50, 1, 1), 3: (80, 80, 1, 1), 4: (20, 20, 8, 3),
      5: (24, 24, 2, 1), 6: (50, 50, 3, 1), 7: (16, 16, 16, 1), 8: (50, 50, 1, 1)}


def sprite_pixels(kind, rec, w, h, frames):
    """the strip (frames side by side) as rows of indices 0-15"""
    return [bytes(((x * 3 + y * 5 + kind + rec) // 4) % 16 for x in range(w * frames)) for y in range(h)]


def pack_sprite(rows, w, h, frames):
    """frames column by column, a byte two pixels one above the other, high nibble the upper"""
    out = bytearray()
    for f in range(frames):
        for x in range(w):
            for y in range(0, h, 2):
                out.append(rows[y][f * w + x] << 4 | rows[y + 1][f * w + x])
    return bytes(out)


def unpack_sprite(rec, w, h, frames):
    rows = [bytearray(w * frames) for _ in range(h)]
    i = 0
    for f in range(frames):
        for x in range(w):
            for y in range(0, h, 2):
                rows[y][f * w + x], rows[y + 1][f * w + x] = rec[i] >> 4, rec[i] & 15
                i += 1
    return rows


def pal16(count):
    # palette 0 repeats colour 3 (so the view must still tell indices apart)
    pals = [bytes([0, 3, 3, 3] + list(range(10, 22)))]
    pals += [bytes((p * 16 + i * 5) % 256 for i in range(16)) for p in range(1, count)]
    return pals


def font_glyphs():
    return bytes([0, 0]) + bytes((g * 37 + c * 11) & 0xff for g in range(256) for c in range(8))[2:]


def stt():
    """40 slots of 11 bytes: garbage (0xee) after each length"""
    b = bytearray(b'\xee' * 440)
    for i in range(40):
        b[i * 11] = 0
    for i, text in ((0, b'HP'), (1, b'MP'), (2, b'Attack!!!!'), (25, b'\x9dHead'), (39, b'-REMOVE-')):
        b[i * 11] = len(text)
        b[i * 11 + 1:i * 11 + 1 + len(text)] = text
    return bytes(b)


def make(out, old):
    rpgtool.make_game(out, old)
    lumps = rpgtool.read_lumps(out)
    extra = []
    for k, (w, h, fr, n) in PT.items():
        body = b''.join(pack_sprite(sprite_pixels(k, r, w, h, fr), w, h, fr) for r in range(n))
        extra.append(('GAMEFS.PT%d' % k, body + (b'\x07\x08' if k == 4 else b'')))
    pals = pal16(5)
    if old:
        extra.append(('GAMEFS.PAL', b'\xfd' + struct.pack('<hhh', -24576, 0, 1600) +
                      b''.join(pals) + bytes(16 * (100 - len(pals)))))
        mas = b''.join(struct.pack('<h', (i * 5) % 64) for i in range(768))
        extra.append(('GAMEFS.MAS', b'\xfd' + struct.pack('<hhh', -24576, 0, 1536) + mas + b'junk'))
        lumps = [(n, b) for n, b in lumps if n != 'PALETTES.BIN']
    else:
        extra.append(('GAMEFS.PAL', struct.pack('<hh', 4444, len(pals) - 1) + bytes(12) + b''.join(pals)))
        second = bytes((255 - c) for c in rpgtool.master_palette())
        lumps = [(n, b + second if n == 'PALETTES.BIN' else b) for n, b in lumps]
        extra.append(('DEFPAL4.BIN', struct.pack('<3h', 2, -1, 9)))
    extra.append(('GAMEFS.STT', stt()))
    extra.append(('GAMEFS.FNT', b'\xfd' + struct.pack('<hhh', -24576, 0, 2048) + font_glyphs()))
    with open(out, 'wb') as f:
        for name, body in lumps + extra:
            f.write(rpgtool.lump_bytes(name, body))


def rgfx_pixels(k, f):
    """spriteset k, frame f: 20x20 row-major indices; spriteset 2 has an index a 16-colour sprite cannot hold"""
    px = bytearray(((x + 2 * y + 3 * f + k) // 3) % 16 for y in range(20) for x in range(20))
    if k == 2:
        px[5] = 200
    return px


def rgfx_doc(pixels=rgfx_pixels):
    table = ['rgfx', 'version', 'spritesets', 'spriteset', 'frameset', 'w', 'h', 'format', 'bits', 'frame',
             'id', 'image']
    sets = [('spriteset', 1, k, [('frameset', 0, None, [('w', 1, 20, []), ('h', 1, 20, []), ('format', 1, 0, []),
                                                         ('bits', 1, 8, [])] +
                                  [('frame', 0, None, [('id', 1, fid, []), ('image', 6, bytes(pixels(k, f)), [])])
                                   for f, fid in enumerate((0, 100))])])
            for k in range(3)]
    return rpgtool.reld_encode(('rgfx', 0, None, [('version', 1, 1, []), ('spritesets', 0, None, sets)]), table)


def make_rgfx(out):
    """a new game whose walkabouts are WALKABOUTS.RGFX (no PT4)"""
    make(out, False)
    lumps = [(n, b) for n, b in rpgtool.read_lumps(out) if n != 'GAMEFS.PT4'] + [('WALKABOUTS.RGFX', rgfx_doc())]
    with open(out, 'wb') as f:
        for name, body in lumps:
            f.write(rpgtool.lump_bytes(name, body))


def png_chunks(path):
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n'
    pos = 8
    while pos < len(d):
        n = struct.unpack('>I', d[pos:pos + 4])[0]
        yield d[pos + 4:pos + 8], d[pos + 8:pos + 8 + n]
        pos += 12 + n


def png_index(path):
    """a palette PNG (1, 2, 4 or 8 bits, any filter): w, h, rows of indices, PLTE"""
    idat, plte = b'', b''
    for kind, body in png_chunks(path):
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, lace = struct.unpack('>IIBBBBB', body)
        elif kind == b'PLTE':
            plte = body
        elif kind == b'IDAT':
            idat += body
    assert ctype == 3 and lace == 0, (ctype, lace)
    stride = (w * depth + 7) // 8
    raw, prev, rows = zlib.decompress(idat), bytearray(stride), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a, b, c = line[i - 1] if i else 0, prev[i], prev[i - 1] if i else 0
            p = a + b - c
            pr = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c
            line[i] = (line[i] + [0, a, b, (a + b) // 2, pr][f]) & 0xff
        prev = line
        per = 8 // depth
        rows.append(bytes((line[x // per] >> (8 - depth * (x % per + 1))) & ((1 << depth) - 1) for x in range(w)))
    return w, h, rows, plte


def main(argv):
    cmd = argv[1]
    if cmd == 'mkgame':
        make(argv[2], argv[3] == 'old')
    elif cmd == 'mkrgfx':
        make_rgfx(argv[2])
    elif cmd == 'rgfx-doc':
        with open(argv[2], 'wb') as f:
            f.write(rgfx_doc())
    elif cmd == 'png-plte':
        w, h, rows, plte = png_index(argv[2])
        i = int(argv[4])
        plte = plte[:3 * i] + bytes.fromhex(argv[5]) + plte[3 * i + 3:]
        rpgtool.png_write(argv[3], w, h, rows, plte)
    elif cmd == 'png-index':
        w, h, rows, plte = png_index(argv[2])
        print(w, h)
        for r in rows:
            print(r.hex())
        print(plte.hex())
    elif cmd == 'png-poke':
        w, h, rows, plte = png_index(argv[2])
        x, y, i = int(argv[4]), int(argv[5]), int(argv[6])
        rows[y] = rows[y][:x] + bytes([i]) + rows[y][x + 1:]
        rpgtool.png_write(argv[3], w, h, rows, plte)
    elif cmd == 'png-rgb-copy':
        w, h, rows, plte = png_index(argv[2])
        rpgtool.png_write(argv[3], w, h, [b''.join(plte[3 * v:3 * v + 3] for v in r) for r in rows])
    elif cmd == 'sprite-pixel':
        lumps = dict(rpgtool.read_lumps(argv[2]))
        w, h, fr, s, x, y = (int(a) for a in argv[4:10])
        size = w * h // 2 * fr
        print(unpack_sprite(lumps[argv[3]][s * size:(s + 1) * size], w, h, fr)[y][x])
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
