#!/usr/bin/env python3
"""Independent OHRRPGCE lumped-file reader/writer for the tests.

Written from the format document (ohrrpgce-rpg-format.txt), not from
gamefs's C code:
  rpgtool.py list FILE              name<TAB>size<TAB>sha1 per lump, in order
  rpgtool.py get FILE NAME          one lump's bytes to stdout
  rpgtool.py make OUT NAME=TEXT|NAME=@PATH ...
  rpgtool.py gen OUT COUNT SIZE     COUNT lumps LUMPnnnnn.BIN of SIZE pseudo-random bytes
  rpgtool.py extract FILE DIR       every lump as DIR/NAME
  rpgtool.py game FILE              exit 0 if FILE is a game (a *.GEN lump with a BSAVE header)
  rpgtool.py reld-make OUT          a RELOAD document using every node type, unused
                                    names, a table not in first-use order, duplicates
  rpgtool.py reld-dump FILE [LUMP]  a RELOAD document (a file, or a lump of FILE) as
                                    "depth name type value" lines
  rpgtool.py png-rgb FILE.png       width height, then each row as hex RGB
  rpgtool.py png-set IN OUT X Y RRGGBB   IN as an RGB PNG with one pixel changed
  rpgtool.py mkgame OUT [old|new] [MAPS]
                                    a small game: BSAVE GEN, GENERAL.RELD, a zone map, a
                                    slice tree; "old" gives the BSAVE-stamped old layout;
                                    MAPS (2 or more): that many maps, each with NPC
                                    instances (.L: 5 arrays old, 6 new), NPC types (.N),
                                    door links (.D), and the DOX, MAP (FIXBITS, GLOBALNPCS1.N
                                    new) lumps

RELOAD facts (ohrrpgce-lumps.md section 1): "RELD", version 1, int32 header
size 13, int32 string table offset; nodes in pre-order: int32 content size,
VLI name index, type (0 null, 1-4 int8-int64, 5 double, 6 VLI length +
bytes), VLI child count; the table: VLI count, (VLI length, bytes) each.
"""
import hashlib
import os
import struct
import sys


def read_lumps(path):
    data = open(path, 'rb').read()
    pos, out = 0, []
    while pos < len(data):
        end = data.index(b'\0', pos)
        name = data[pos:end].decode('ascii')
        hi, lo = struct.unpack('<2H', data[end + 1:end + 5])
        size = lo | hi << 16
        body = data[end + 5:end + 5 + size]
        if len(body) != size:
            raise SystemExit('%s: lump %s truncated' % (path, name))
        out.append((name, body))
        pos = end + 5 + size
    return out


def lump_bytes(name, body):
    size = len(body)
    return name.encode('ascii') + b'\0' + struct.pack('<2H', size >> 16, size & 0xffff) + body


def rewrite(path, edit):
    """The lumped file at path with each lump's body replaced by edit(name, body)"""
    lumps = [(name, edit(name, body)) for name, body in read_lumps(path)]
    with open(path, 'wb') as f:
        for name, body in lumps:
            f.write(lump_bytes(name, body))


def vli(v):
    neg = v < 0
    m = ~v if neg else v
    out = bytearray([(m & 0x3f) | (0x40 if neg else 0)])
    m >>= 6
    while m:
        out[-1] |= 0x80
        out.append(m & 0x7f)
        m >>= 7
    return bytes(out)


def read_vli(d, pos):
    c = d[pos]
    pos += 1
    neg, m, shift = c & 0x40, c & 0x3f, 6
    while c & 0x80:
        c = d[pos]
        pos += 1
        m |= (c & 0x7f) << shift
        shift += 7
    return (~m if neg else m), pos


def reld_encode(root, table):
    """root: (name, type, value, [children]); table: list of names (index 1..)."""
    def node(n):
        name, typ, val, kids = n
        body = vli(table.index(name) + 1 if name else 0) + bytes([typ])
        if typ in (1, 2, 3, 4):
            body += struct.pack({1: '<b', 2: '<h', 3: '<i', 4: '<q'}[typ], val)
        elif typ == 5:
            body += struct.pack('<d', val)
        elif typ == 6:
            body += vli(len(val)) + val
        body += vli(len(kids)) + b''.join(node(k) for k in kids)
        return struct.pack('<I', len(body)) + body
    tree = node(root)
    tab = vli(len(table)) + b''.join(vli(len(t)) + t.encode('latin-1') for t in table)
    return b'RELD' + bytes([1]) + struct.pack('<II', 13, 13 + len(tree)) + tree + tab


def reld_dump(d):
    assert d[:4] == b'RELD' and d[4] == 1
    tab_off = struct.unpack('<I', d[9:13])[0]
    count, pos = read_vli(d, tab_off)
    names = ['']
    for _ in range(count):
        n, pos = read_vli(d, pos)
        names.append(d[pos:pos + n].decode('latin-1'))
        pos += n
    out = []

    def node(pos, depth):
        size = struct.unpack('<I', d[pos:pos + 4])[0]
        end = pos + 4 + size
        idx, pos = read_vli(d, pos + 4)
        typ = d[pos]
        pos += 1
        val = ''
        if typ in (1, 2, 3, 4):
            w = {1: 1, 2: 2, 3: 4, 4: 8}[typ]
            val = str(int.from_bytes(d[pos:pos + w], 'little', signed=True))
            pos += w
        elif typ == 5:
            val = repr(struct.unpack('<d', d[pos:pos + 8])[0])
            pos += 8
        elif typ == 6:
            n, pos = read_vli(d, pos)
            val = d[pos:pos + n].hex()
            pos += n
        out.append('%d %s %d %s' % (depth, names[idx], typ, val))
        kids, pos = read_vli(d, pos)
        for _ in range(kids):
            pos = node(pos, depth + 1)
        assert pos == end, 'node size'
        return pos
    node(13, 0)
    return '\n'.join(out)


def sample_reld():
    # table not in first-use order, with an unused name ("player") and one
    # that needs quoting; duplicates of "code"; every type
    table = ['buttonnames', 'general_data', 'code', 'player', 'title', 'ratio', 'big',
             'blob', 'odd name', 'neg', 'deep', 'wide']
    deep = ('deep', 0, None, [])
    for _ in range(5):
        deep = ('deep', 0, None, [deep])
    root = ('general_data', 0, None, [
        ('buttonnames', 0, None, [('code', 1, 0, []), ('code', 2, 1000, []), ('code', 3, 70000, [])]),
        ('title', 6, b'Baby Bob \x01 "quoted"\\', []),
        ('ratio', 5, 0.1, []),
        ('big', 4, 1 << 40, []),
        ('neg', 1, -1, []),
        ('wide', 3, 5, []),
        ('blob', 6, bytes(range(256)), []),
        ('odd name', 6, b'', []),
        ('', 2, -300, []),
        deep,
    ])
    return reld_encode(root, table)


def gen_lump(old):
    gen = [0] * 500
    gen[95] = 21
    body = b''.join(struct.pack('<h', v) for v in gen)
    hdr = b'\xfd' + struct.pack('<hhh', -24576, 0, 1000)
    return hdr + body


def zone_reld():
    table = ['zonemap', 'w', 'h', 'zones', 'zone', 'rows', 'y', 'span']
    rows = [('y', 1, y, [('span', 6, bytes([y, 3]), [])]) for y in range(3)]
    root = ('zonemap', 0, None, [('w', 1, 20, []), ('h', 1, 10, []), ('zones', 0, None, []),
                                 ('rows', 0, None, rows)])
    return reld_encode(root, table)


def bad_binstring(text, maxc, garbage):
    """int16 length, then one int16 per character (low byte); garbage fills the rest"""
    words = [c for c in text] + [garbage] * (maxc - len(text))
    return struct.pack('<h', len(text)) + b''.join(struct.pack('<H', w) for w in words)


def binstring(text, maxc, garbage):
    """int16 length, then the bytes packed"""
    return struct.pack('<h', len(text)) + text + bytes([garbage]) * (maxc - len(text))


def item_rec(name, size, garbage):
    rec = bad_binstring(name, 8, garbage)
    return rec + bytes((i * 7) & 0xff for i in range(size - len(rec)))


def say_rec(lines, choices, size):
    rec = bytearray(size)
    for i, l in enumerate(lines):
        rec[i * 38:i * 38 + len(l)] = l
    rec[305] = 0x55                 # a conditional, unaligned: must survive
    for off, c in zip((349, 367), choices):
        rec[off:off + len(c)] = c
    for i in range(384, size):
        rec[i] = i & 0xff
    return bytes(rec)


def map_lump(w, h, layers, old, seed, remainder=b''):
    """.T/.P/.E: 7 ignored bytes (a BSAVE stamp in old games, zeros in new), int16 w, h, layers"""
    hdr = (b'\xfd\x00\x90\x00\x00' + struct.pack('<h', 4 + w * h * layers)) if old else bytes(7)
    body = bytes((seed + i * 13 + i // w) % 160 for i in range(w * h * layers))
    return hdr + struct.pack('<hh', w, h) + body + remainder


def modex(pixels):
    """320x200 indices (row-major) to a Mode-X page: plane x%4, then y*80 + x//4"""
    page = bytearray(64000)
    for y in range(200):
        for x in range(320):
            page[(x % 4) * 16000 + y * 80 + x // 4] = pixels[y * 320 + x]
    return bytes(page)


def master_palette():
    return bytes(c for i in range(256) for c in (i, 255 - i, (i * 7) & 0xff))


def png_chunk(kind, data):
    import zlib
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))


def png_write(path, w, h, rows, palette=None):
    """rows: bytes per row (indices with palette, else RGB triples)"""
    import zlib
    ihdr = struct.pack('>IIBBBBB', w, h, 8, 3 if palette else 2, 0, 0, 0)
    raw = b''.join(b'\0' + r for r in rows)
    out = b'\x89PNG\r\n\x1a\n' + png_chunk(b'IHDR', ihdr)
    if palette:
        out += png_chunk(b'PLTE', palette)
    out += png_chunk(b'IDAT', zlib.compress(raw)) + png_chunk(b'IEND', b'')
    open(path, 'wb').write(out)


def png_read_rgb(path):
    """8-bit palette or RGB(A) PNG, not interlaced, any filter: (w, h, list of RGB rows)"""
    import zlib
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat, plte = 8, b'', None
    while pos < len(d):
        n = struct.unpack('>I', d[pos:pos + 4])[0]
        kind, body = d[pos + 4:pos + 8], d[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif kind == b'PLTE':
            plte = body
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 3, 6), (depth, ctype)
    bpp = {2: 3, 3: 1, 6: 4}[ctype]
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pr = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c
            line[i] = (line[i] + [0, a, b, (a + b) // 2, pr][f]) & 0xff
        prev = line
        if ctype == 3:
            rows.append(b''.join(plte[3 * v:3 * v + 3] for v in line))
        else:
            rows.append(b''.join(bytes(line[i:i + 3]) for i in range(0, stride, bpp)))
    return w, h, rows


def tileset_pixels():
    return bytes((x // 20 + (y // 20) * 16 + (x + y) % 3) & 0xff for y in range(200) for x in range(320))


ITEM_SIZE = {True: 200, False: 480}
SAY_SIZE = {True: 400, False: 422}


def i16s(vals):
    return b''.join(struct.pack('<h', v) for v in vals)


def npc_lump(m, old):
    """.L: 7 ignored bytes, arrays of 300 int16: x, y+1, id+1, direction, frame (, pool)"""
    cols = [[0] * 300 for _ in range(5 if old else 6)]
    for s, (x, y, npc, d) in {0: (1, 2, 0, 2), 1: (3, 4, 1, 0), 5: (m % 16, 9, 2, 3)}.items():
        cols[0][s], cols[1][s], cols[2][s], cols[3][s] = x, y + 1, npc + 1, d
    cols[0][7], cols[1][7] = 5, 6                  # an unused slot with stale x, y: kept
    if not old:
        cols[5][5] = 1                             # global pool
    hdr = b'\xfd\x99\x99\x00\x00\xb8\x0b' if old else bytes(7)
    return hdr + b''.join(i16s(c) for c in cols)


def npc_types(m, rs, count):
    """.N: 7 ignored bytes, records of rs bytes (int16 fields, the rest kept)"""
    recs = b''
    for i in range(count):
        words = [(i * 3 + k + m) % 50 for k in range(rs // 2)]
        words[3] = 3 if i == 0 else 1
        recs += i16s(words) + bytes(rs % 2)
    return bytes(7) + recs


def door_links(m, nmaps):
    """.D: 7 ignored bytes, 5 arrays of 200 int16: source, dest, dest map, tag1, tag2"""
    cols = [[-1] * 200] + [[0] * 200 for _ in range(4)]
    cols[0][0], cols[1][0], cols[2][0], cols[3][0] = 0, 1, (m + 1) % nmaps, 7
    cols[0][1], cols[1][1], cols[2][1], cols[4][1] = 1, 0, (m + nmaps - 1) % nmaps, -3
    return b'\xfd\x99\x99\x00\x00\xd0\x07' + b''.join(i16s(c) for c in cols)


def dox_lump(nmaps):
    """one 600-byte record per map: 100 x, 100 y+1, 100 flags (bit 0 exists)"""
    out = b''
    for m in range(max(nmaps, 20)):
        x, y, f = [0] * 100, [0] * 100, [0] * 100
        if m < nmaps:
            for d in range(2):
                x[d], y[d], f[d] = d + 2, (m % 8) + 1, 1
        out += i16s(x + y + f)
    return out


def map_rec(m, rs, old):
    """MAP: int16 fields; layer names (new) as int16 length + 40 bytes at word 34 + 21 n"""
    rec = bytearray(i16s([(m + k) % 7 for k in range(rs // 2)]) + bytes(rs % 2))
    if not old:
        for n in range(16):
            rec[2 * (34 + 21 * n):2 * (34 + 21 * n) + 42] = bytes(42)
        for n, name in enumerate([b'Ground', b'Roofs']):
            off = 2 * (34 + 21 * n)
            rec[off:off + 42] = struct.pack('<h', len(name)) + name + bytes(40 - len(name))
    return bytes(rec)


def make_game(out, old, nmaps=0):
    isz, ssz = ITEM_SIZE[old], SAY_SIZE[old]
    nsz, msz = (30, 40) if old or not nmaps else (38, 764)
    binsize = struct.pack('<13h', 0, 64, 32, 34, msz, 0, 0, 0, ssz, nsz, 636, 320, isz)
    items = [item_rec(b'Sword', isz, 0x4141 if old else 0), item_rec(b'\x9dCure', isz, 0),
             item_rec(b'', isz, 0)]
    maps = [bytes([4]) + b'Town' + (b'\xee' * 75 if old else bytes(75)),
            bytes([4]) + b'Cave' + bytes(75)]
    says = [say_rec([b'Hello, traveller.', b'The ${V2} bridge is out.', b'', b'Back\\slash'], [b'Yes', b'No'], ssz),
            say_rec([b'I will take your special item!', b'', b'', b'', b'', b'', b'', b'Last line ' + b'x' * 28],
                    [b'', b''], ssz)]
    lumps = [('ARCHINYM.LMP', b'gamefs\r\ntestgame\r\n' if old else b'gamefs\ntestgame\n'),
             ('BROWSE.TXT', binstring(b'Test Game', 38, 0xaa) + binstring(b'About Baby', 38, 0xbb if old else 0)),
             ('GAMEFS.GEN', gen_lump(old)),
             ('GENERAL.RELD', sample_reld()),
             ('GAMEFS.Z00', zone_reld()),
             ('NOTRELD.BIN', b'RELD but not really a document'),
             ('BROKEN.RELD', sample_reld()[:40]),
             ('GAMEFS.ITM', b''.join(items) + b'odd'),
             ('GAMEFS.MN', b''.join(maps)),
             ('GAMEFS.SAY', b''.join(says)),
             ('GAMEFS.T00', map_lump(20, 12, 2, old, 1, b'\x01\x02\x03' if old else b'')),
             ('GAMEFS.P00', map_lump(20, 10, 1, old, 2)),
             ('GAMEFS.E00', map_lump(20, 10, 1, old, 3)),
             ('GAMEFS.T01', map_lump(16, 10, 1, old, 4)),
             ('GAMEFS.Z01', zone_reld()),
             ('PALETTES.BIN', struct.pack('<hh', 4, 768) + master_palette()),
             ('GAMEFS.TIL', modex(tileset_pixels()))]
    if nmaps:
        gen = bytearray(lumps[2][1])
        gen[7:9] = struct.pack('<h', nmaps - 1)
        lumps[2] = ('GAMEFS.GEN', bytes(gen))
        lumps[8] = ('GAMEFS.MN', b''.join(maps) + b''.join(
            bytes([len(b'Map %d' % m)]) + b'Map %d' % m + bytes(79 - len(b'Map %d' % m)) for m in range(2, nmaps)))
        for m in range(nmaps):
            nm = lambda c: 'GAMEFS.%c%02d' % (c, m) if m < 100 else '%d.%c' % (m, c)
            if m >= 2:
                lumps += [(nm('T'), map_lump(20, 10, 1, old, m)), (nm('P'), map_lump(20, 10, 1, old, m + 1)),
                          (nm('E'), map_lump(20, 10, 1, old, m + 2))]
            lumps += [(nm('L'), npc_lump(m, old)), (nm('N'), npc_types(m, nsz, 4 if m == 0 else 3)),
                      (nm('D'), door_links(m, nmaps))]
        lumps += [('GAMEFS.DOX', dox_lump(nmaps)),
                  ('GAMEFS.MAP', b''.join(map_rec(m, msz, old) for m in range(nmaps)))]
        if not old:
            lumps += [('FIXBITS.BIN', b'\x03\x00\x10\x01'), ('GLOBALNPCS1.N', npc_types(7, nsz, 3))]
    if not old:
        lumps.append(('BINSIZE.BIN', binsize))
    with open(out, 'wb') as f:
        for name, body in lumps:
            f.write(lump_bytes(name, body))


def words(n, seed):
    """n int16 words of a record: a pattern with negatives, so every key shows"""
    return b''.join(struct.pack('<h', ((i * 37 + seed * 11) % 601) - 300) for i in range(n))


def script_list(names, first_id):
    """PLOTSCR.LST / LOOKUP1.BIN: int16 id, int16 length, up to 36 bytes; garbage after the first"""
    out = b''
    for i, (sid, nm) in enumerate(zip(first_id, names)):
        rest = (b'\r\n7\r\n' * 8) if i == 0 else b''
        out += struct.pack('<hh', sid, len(nm)) + (nm + rest)[:36].ljust(36, b'\0')
    return out


def records_game(out):
    """A game with scripts (HSP, SOURCE.LUMPED, PLOTSCR.LST, LOOKUP1.BIN) and the record lumps"""
    src = (lump_bytes('PLOTSCR.HSD', b'define function (1, wait, 1, 1)\n') +
           lump_bytes('MY GAME.HSS', b'include, plotscr.hsd\r\nplotscript, hello, begin\r\n  wait(1)\r\nend\r\n'))
    hsp = (lump_bytes('HS', b'HamsterSpeak\n3Ug\n1\n3\n3\n600\n') +
           lump_bytes('SCRIPTS.TXT', b'hello\r\n1\r\n0\r\n') +
           lump_bytes('1.HSZ', struct.pack('<8h', 16, 0, 0, 3, 0, 0, 0, 0) + bytes(range(8))) +
           lump_bytes('SOURCE.LUMPED', src))
    binsize = struct.pack('<13h', 64, 84, 32, 34, 40, 56, 68, 126, 400, 30, 636, 320, 200)
    lumps = [('ARCHINYM.LMP', b'gamefs\ntestgame\n'),
             ('GAMEFS.GEN', gen_lump(False)),
             ('BINSIZE.BIN', binsize),
             ('GAMEFS.HSP', hsp),
             ('PLOTSCR.LST', script_list([b'hello', b'goodbye'], [1, 32767])),
             ('LOOKUP1.BIN', script_list([b'hello'], [1])),
             ('GAMEFS.TAP', words(40, 1) + words(40, 2)),
             ('GAMEFS.VEH', bytes([4]) + b'Boat' + b'\xee' * 11 + words(32, 3)),
             ('GAMEFS.FOR', words(40, 4) + b'xy'),
             ('GAMEFS.EFS', words(25, 5) + words(25, 6)),
             ('GAMEFS.STF', bad_binstring(b'Potion', 16, 0) + words(25, 7)),
             ('GAMEFS.ITM', item_rec(b'Sword', 200, 0)),
             ('ATTACK.BIN', words(32, 8) + words(32, 9)),
             ('MENUS.BIN', binstring(b'Main', 20, 0) + words(17, 10)),
             ('MENUITEM.BIN', struct.pack('<h', 1) + binstring(b'Items', 38, 0) + words(13, 11)),
             ('UICOLORS.BIN', words(63, 12)),
             ('DEFPASS.BIN', words(160, 13) + struct.pack('<h', 4444)),
             ('GAMEFS.DT1', bad_binstring(b'Slime', 16, 0) + words(143, 14)),
             ('GAMEFS.SHO', bad_binstring(b'Inn', 15, 0) + words(4, 15)),
             ('GAMEFS.DT0', bad_binstring(b'Bob', 16, 0) + words(301, 16))]
    with open(out, 'wb') as f:
        for name, body in lumps:
            f.write(lump_bytes(name, body))


def main(argv):
    cmd = argv[1]
    if cmd == 'list':
        for name, body in read_lumps(argv[2]):
            print('%s\t%d\t%s' % (name, len(body), hashlib.sha1(body).hexdigest()))
    elif cmd == 'get':
        for name, body in read_lumps(argv[2]):
            if name == argv[3]:
                sys.stdout.buffer.write(body)
                return 0
        return 1
    elif cmd == 'make':
        with open(argv[2], 'wb') as f:
            for spec in argv[3:]:
                name, _, val = spec.partition('=')
                body = open(val[1:], 'rb').read() if val.startswith('@') else val.encode()
                f.write(lump_bytes(name, body))
    elif cmd == 'gen':
        count, size = int(argv[3]), int(argv[4])
        with open(argv[2], 'wb') as f:
            for i in range(count):
                seed = hashlib.sha256(b'%d' % i).digest()
                body = (seed * (size // len(seed) + 1))[:size]
                f.write(lump_bytes('LUMP%05d.BIN' % i, body))
    elif cmd == 'extract':
        os.makedirs(argv[3], exist_ok=True)
        for name, body in read_lumps(argv[2]):
            with open(os.path.join(argv[3], name), 'wb') as f:
                f.write(body)
    elif cmd == 'game':
        for name, body in read_lumps(argv[2]):
            if name.upper().endswith('.GEN') and len(body) >= 7 and body[0] == 0xfd:
                return 0
        return 1
    elif cmd == 'reld-make':
        open(argv[2], 'wb').write(sample_reld())
    elif cmd == 'reld-dump':
        if len(argv) > 3:
            d = dict(read_lumps(argv[2]))[argv[3]]
        else:
            d = open(argv[2], 'rb').read()
        print(reld_dump(d))
    elif cmd == 'png-rgb':      # png-rgb FILE.png: w h, then one line of hex RGB per row
        w, h, rows = png_read_rgb(argv[2])
        print(w, h)
        for r in rows:
            print(r.hex())
    elif cmd == 'png-set':      # png-set IN.png OUT.png X Y RRGGBB: an RGB PNG with one pixel changed
        w, h, rows = png_read_rgb(argv[2])
        x, y = int(argv[4]), int(argv[5])
        row = bytearray(rows[y])
        row[3 * x:3 * x + 3] = bytes.fromhex(argv[6])
        rows[y] = bytes(row)
        png_write(argv[3], w, h, rows)
    elif cmd == 'mkrecords':
        records_game(argv[2])
    elif cmd == 'mkgame':
        make_game(argv[2], len(argv) > 3 and argv[3] == 'old', int(argv[4]) if len(argv) > 4 else 0)
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
