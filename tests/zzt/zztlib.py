#!/usr/bin/env python3
"""zztlib.py - a ZZT world reader and writer for the tests, written from
../shared/specs/zzt-world-format.txt, independently of the C driver.

    zztlib.py mk OUT [variant]      write a fixture world (see make_world)
    zztlib.py views WORLD DIR       write what the tree should show for WORLD
                                    (grids, stats, code, header values) into
                                    DIR as expect-*.txt, for comparison
Import it for read_world() / write_world().
"""
import struct
import sys
import os

W, H = 60, 25
TILES = W * H

LOW = [0x2400, 0x263A, 0x263B, 0x2665, 0x2666, 0x2663, 0x2660, 0x2022,
       0x25D8, 0x25CB, 0x25D9, 0x2642, 0x2640, 0x266A, 0x266B, 0x263C,
       0x25BA, 0x25C4, 0x2195, 0x203C, 0x00B6, 0x00A7, 0x25AC, 0x21A8,
       0x2191, 0x2193, 0x2192, 0x2190, 0x221F, 0x2194, 0x25B2, 0x25BC]


def cp437(b):
    """bytes -> str, the control range as PC glyphs"""
    out = []
    for c in b:
        if c < 32:
            out.append(chr(LOW[c]))
        elif c == 127:
            out.append('\u2302')
        else:
            out.append(bytes([c]).decode('cp437'))
    return ''.join(out)


def s16(d, o):
    return struct.unpack_from('<h', d, o)[0]


def u16(d, o):
    return struct.unpack_from('<H', d, o)[0]


class Board:
    pass


def parse_board(d, off):
    """Board at offset off (its size field).  Returns a Board."""
    b = Board()
    b.off = off
    b.size = u16(d, off)
    b.raw = d[off:off + 2 + b.size]
    p = off + 2
    b.name_len = d[p]
    b.name_raw = d[p + 1:p + 51]
    b.name = d[p + 1:p + 1 + min(b.name_len, 50)]
    p += 51
    elem, color = [], []
    while len(elem) < TILES:
        cnt, e, c = d[p], d[p + 1], d[p + 2]
        p += 3
        cnt = cnt or 256
        elem += [e] * cnt
        color += [c] * cnt
    assert len(elem) == TILES, "RLE overrun"
    b.elem, b.color = elem, color
    b.props = d[p:p + 88]
    p += 88
    nstats = s16(b.props, 86) + 1
    b.stats = []
    for i in range(nstats):
        r = d[p:p + 33]
        p += 33
        st = dict(x=r[0], y=r[1], step_x=s16(r, 2), step_y=s16(r, 4), cycle=s16(r, 6),
                  p1=r[8], p2=r[9], p3=r[10], follower=s16(r, 11), leader=s16(r, 13),
                  under_element=r[15], under_color=r[16],
                  pointer=struct.unpack_from('<i', r, 17)[0], instruction=s16(r, 21),
                  length=s16(r, 23), padding=r[25:33], code=b'', bind=None)
        if st['length'] > 0:
            st['code'] = d[p:p + st['length']]
            p += st['length']
        elif st['length'] < 0:
            st['bind'] = -st['length']
        b.stats.append(st)
    b.tail = d[p:off + 2 + b.size]
    return b


def read_world(path_or_bytes):
    d = path_or_bytes if isinstance(path_or_bytes, bytes) else open(path_or_bytes, 'rb').read()
    w = {'raw': d, 'type': s16(d, 0), 'numboards': s16(d, 2) + 1}
    w['header'] = d[:512]
    off = 512
    w['boards'] = []
    for i in range(w['numboards']):
        b = parse_board(d, off)
        w['boards'].append(b)
        off += 2 + b.size
    w['end'] = off
    w['trailing'] = d[off:]
    return w


def pstr(s, n):
    s = s[:n]
    return bytes([len(s)]) + s + b'\0' * (n - len(s))


def rle(elem, color, zero_runs=False):
    out = bytearray()
    i = 0
    while i < TILES:
        j = i
        cap = 256 if zero_runs else 255
        while j < TILES and j - i < cap and elem[j] == elem[i] and color[j] == color[i]:
            j += 1
        n = j - i
        out += bytes([n & 0xff, elem[i], color[i]])
        i = j
    return bytes(out)


def board_bytes(name, elem, color, stats, props=None, zero_runs=False, tail=b''):
    """stats: list of dicts with x, y, p1.., code (bytes) or bind (int)."""
    body = bytearray(pstr(name, 50))
    body += rle(elem, color, zero_runs)
    if props is None:
        props = bytearray(88)
        props[0] = 255          # max shots
        props[66], props[67] = 30, 12
    props = bytearray(props)
    struct.pack_into('<h', props, 86, len(stats) - 1)
    body += props
    for st in stats:
        r = bytearray(33)
        r[0], r[1] = st.get('x', 1), st.get('y', 1)
        struct.pack_into('<hhh', r, 2, st.get('step_x', 0), st.get('step_y', 0), st.get('cycle', 1))
        r[8], r[9], r[10] = st.get('p1', 0), st.get('p2', 0), st.get('p3', 0)
        struct.pack_into('<hh', r, 11, st.get('follower', -1), st.get('leader', -1))
        r[15], r[16] = st.get('under_element', 0), st.get('under_color', 0)
        struct.pack_into('<ih', r, 17, 0, st.get('instruction', 0))
        code = st.get('code', b'')
        if st.get('bind') is not None:
            struct.pack_into('<h', r, 23, -st['bind'])
            code = b''
        else:
            struct.pack_into('<h', r, 23, len(code))
        r[25:33] = st.get('padding', b'\0' * 8)
        body += r + code
    body += tail
    return struct.pack('<H', len(body)) + bytes(body)


def header_bytes(numboards, name=b'FIXTURE', saved=0, pad_extra=b''):
    h = bytearray(512)
    struct.pack_into('<hhhh', h, 0, -1, numboards - 1, 5, 7)
    h[8:15] = bytes([0, 1, 0, 0, 0, 0, 1])
    struct.pack_into('<hhhhhhh', h, 15, 100, 1, 3, 0, 0, 0, 250)
    h[29:50] = pstr(name, 20)
    h[50:71] = pstr(b'ALPHA', 20)
    # stale bytes after flag 1's length, as ZZT leaves them
    h[71:92] = bytes([2]) + b'ONSTALE' + bytes(13)
    struct.pack_into('<hh', h, 260, 0, 0)
    h[264] = saved
    h[0x109:0x109 + len(pad_extra)] = pad_extra
    return bytes(h)


def grid(seed, w=W, h=H):
    """A deterministic tile grid with runs of various lengths."""
    elem, color = [], []
    x = seed * 7919 + 13
    while len(elem) < TILES:
        x = (x * 1103515245 + 12345) & 0x7fffffff
        n = 1 + (x >> 8) % 300
        e = [0, 21, 22, 23, 19, 20, 5, 7][(x >> 4) % 8]
        c = (x >> 12) & 0xff
        elem += [e] * n
        color += [c] * n
    return elem[:TILES], color[:TILES]


def make_world(variant='basic'):
    """Fixture worlds.  basic: 3 boards, objects with code, a bind, stale
    name bytes, a 256-tile run (count 0), a stat's padding, board tail."""
    boards = []
    e, c = grid(1)
    e[0:3] = [4, 36, 36]
    c[0:3] = [0x1f, 0x0e, 0x0c]
    e[3] = 47                 # blue text showing 'A'
    c[3] = 0x41
    stats = [dict(x=1, y=1, cycle=1, under_element=0),
             dict(x=2, y=1, p1=0x01, cycle=3, code=b'@Bob\r#end\r:touch\r\'Hello there\r'),
             dict(x=3, y=1, p1=0x02, cycle=3, bind=1),
             dict(x=10, y=10, p1=5, code=b'#cycle 1\r/n/n', padding=b'\1\2\0\0\0\0\0\0')]
    boards.append(board_bytes(b'Title screen', e, c, stats))
    e, c = [0] * TILES, [0x0f] * TILES
    e[600:900] = [21] * 300
    c[600:900] = [0x4e] * 300
    boards.append(board_bytes(b'Wide runs', e, c, [dict(x=30, y=12)], zero_runs=True))
    e, c = grid(3)
    nb = bytearray(pstr(b'Third', 50))
    boards.append(board_bytes(b'Third', e, c, [dict(x=5, y=5), dict(x=6, y=6, p1=2, code=b'#end\r')],
                              tail=b'TAILBYTES'))
    trailing = b''
    if variant == 'trailing':
        trailing = b'EXTRA AFTER BOARDS\0\1\2'
    hdr = header_bytes(len(boards), saved=1 if variant == 'save' else 0,
                       pad_extra=b'\0\1' if variant == 'trailing' else b'')
    return hdr + b''.join(boards) + trailing



def draw_world():
    """One board per special-draw element (and one of all 256 glyphs), for
    the render tests.  Every board has its player at x 60, y 25."""
    import random
    rnd = random.Random(17)
    boards = []

    def board(name, cells, stats, fill=0, fillcol=0x0f):
        elem, color = [fill] * TILES, [fillcol] * TILES
        for (x, y), (e, c) in cells.items():
            elem[(y - 1) * W + x - 1], color[(y - 1) * W + x - 1] = e, c
        elem[TILES - 1], color[TILES - 1] = E['player'], 0x1f
        boards.append(board_bytes(name, elem, color, [dict(x=60, y=25)] + stats))

    # line walls: random walls (every neighbour combination), the board edge
    # joined too, other walls not
    cells = {}
    for y in range(1, H + 1):
        for x in range(1, W + 1):
            r = rnd.random()
            if r < 0.45:
                cells[(x, y)] = (E['line'], rnd.choice([0x0f, 0x1e, 0x4a, 0xc7]))
            elif r < 0.55:
                cells[(x, y)] = (21, 0x0e)        # solid: does not join
    board(b'Line walls', cells, [])
    # transporters: each direction, odd steps, one without a stat
    steps = [(0, -1), (0, 1), (-1, 0), (1, 0), (0, 0), (0, 2), (0, -2), (2, 0), (-2, 0), (0, 3), (5, 5)]
    cells, stats = {}, []
    for i, (sx, sy) in enumerate(steps):
        cells[(2 + 2 * i, 3)] = (E['transporter'], 0x0b)
        stats.append(dict(x=2 + 2 * i, y=3, step_x=sx, step_y=sy, cycle=2))
    cells[(40, 3)] = (E['transporter'], 0x0b)
    board(b'Transporters', cells, stats)
    # pushers
    cells, stats = {}, []
    for i, (sx, sy) in enumerate([(1, 0), (-1, 0), (0, -1), (0, 1), (0, 0), (1, 1), (-1, -1)]):
        cells[(2 + 2 * i, 5)] = (E['pusher'], 0x0e)
        stats.append(dict(x=2 + 2 * i, y=5, step_x=sx, step_y=sy, cycle=4))
    cells[(40, 5)] = (E['pusher'], 0x0e)
    board(b'Pushers', cells, stats)
    # bombs: counting down from 9, lit or not, p1 wrapping past 255
    cells, stats = {}, []
    for i, p1 in enumerate([0, 1, 2, 5, 9, 10, 200, 255]):
        cells[(2 + 2 * i, 7)] = (E['bomb'], 0x0c)
        stats.append(dict(x=2 + 2 * i, y=7, p1=p1, cycle=6))
    cells[(40, 7)] = (E['bomb'], 0x0c)
    board(b'Bombs', cells, stats)
    # duplicators: their rate
    cells, stats = {}, []
    for i, p1 in enumerate(range(8)):
        cells[(2 + 2 * i, 9)] = (E['duplicator'], 0x0f)
        stats.append(dict(x=2 + 2 * i, y=9, p1=p1, cycle=2))
    cells[(40, 9)] = (E['duplicator'], 0x0f)
    board(b'Duplicators', cells, stats)
    # objects: their P1; two stats on one tile (the first counts); no stat
    cells, stats = {}, []
    for i, p1 in enumerate([1, 2, 0, 0x41, 0xdb, 0xff, 0x10]):
        cells[(2 + 2 * i, 11)] = (E['object'], 0x0d)
        stats.append(dict(x=2 + 2 * i, y=11, p1=p1, cycle=3))
    stats.append(dict(x=2, y=11, p1=0x42, cycle=3))
    cells[(40, 11)] = (E['object'], 0x0d)
    board(b'Objects', cells, stats)
    # animated: conveyors, stars, spinning guns, blink walls, with and without stats
    cells, stats = {}, []
    for i, e in enumerate([E['cw'], E['ccw'], E['star'], E['gun'], E['blinkwall']]):
        cells[(2 + 4 * i, 13)] = (e, 0x0a)
        cells[(4 + 4 * i, 13)] = (e, 0x9c)
        stats.append(dict(x=2 + 4 * i, y=13, p1=3, cycle=3))
    board(b'Animated', cells, stats)
    # the rest: text of every colour, every element's default character,
    # ids past the table, empty tiles of any colour
    cells = {}
    for e in range(256):
        cells[(1 + e % W, 1 + e // W)] = (e, 0x71 if e else 0x4e)
    for i in range(7):
        cells[(1 + i, 10)] = (E['text_blue'] + i, 0x41 + i)
    board(b'Every element', cells, [])
    # all 256 glyphs as white text (the character is the colour byte)
    board(b'Glyphs', {(1 + c % W, 1 + c // W): (E['text_white'], c) for c in range(256)}, [])
    return header_bytes(len(boards)) + b''.join(boards)


def bad_world(kind):
    """Damaged variants of the basic fixture (3 boards)."""
    d = bytearray(make_world())
    w = read_world(bytes(d))
    b1 = w['boards'][1].off
    b2 = w['boards'][2].off
    if kind == 'size-past-end':         # board 2's size runs past the file
        struct.pack_into('<H', d, b2, len(d) - b2)
    elif kind == 'missing-board':       # 5 boards declared, 3 stored
        struct.pack_into('<h', d, 2, 4)
    elif kind == 'rle-overrun':         # board 1: a run past 1500 tiles
        d[b1 + 2 + 51 + 3 * 5] = 255
    elif kind == 'stat-overrun':        # board 1: 500 stats in a small board
        p = b1 + 2 + 51 + len(rle(w['boards'][1].elem, w['boards'][1].color, True))
        struct.pack_into('<h', d, p + 86, 499)
    elif kind == 'code-past-board':     # board 2, stat 1: code longer than the board
        p = len(d) - 9 - 5 - 33
        struct.pack_into('<h', d, p + 23, 3000)
    elif kind == 'bad-bind':            # board 2, stat 1 binds to stat 9
        p = len(d) - 9 - 5 - 33
        struct.pack_into('<h', d, p + 23, -9)
        del d[p + 33:p + 38]
        struct.pack_into('<H', d, b2, w['boards'][2].size - 5)
    elif kind == 'not-zzt':
        struct.pack_into('<h', d, 0, 0)
    elif kind == 'super-zzt':
        struct.pack_into('<h', d, 0, -2)
    elif kind == 'short-header':
        d = d[:100]
    elif kind == 'negative-count':
        struct.pack_into('<h', d, 2, -3)
    else:
        raise SystemExit('unknown bad world ' + kind)
    return bytes(d)


def expect_views(path, outdir):
    """What the tree must show for path: one file per board and view."""
    w = read_world(path)
    os.makedirs(outdir, exist_ok=True)
    for i, b in enumerate(w['boards']):
        with open(os.path.join(outdir, 'b%02d-elements.txt' % i), 'w') as f:
            for y in range(H):
                f.write(','.join(str(v) for v in b.elem[y * W:(y + 1) * W]) + '\n')
        with open(os.path.join(outdir, 'b%02d-colors.txt' % i), 'w') as f:
            for y in range(H):
                f.write(','.join(str(v) for v in b.color[y * W:(y + 1) * W]) + '\n')
        with open(os.path.join(outdir, 'b%02d-stats.txt' % i), 'w') as f:
            for k, st in enumerate(b.stats):
                f.write('%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%s\n' % (
                    k, st['x'], st['y'], st['step_x'], st['step_y'], st['cycle'], st['p1'],
                    st['p2'], st['p3'], st['follower'], st['leader'], st['under_element'],
                    st['under_color'], st['instruction'],
                    '' if st['bind'] is None else st['bind']))
        with open(os.path.join(outdir, 'b%02d-name.txt' % i), 'w') as f:
            f.write(cp437(b.name) + '\n')
        for k, st in enumerate(b.stats):
            if st['bind'] is None and st['code']:
                # CR shows as LF; every other byte as its glyph
                txt = ''.join('\n' if ch == 13 else cp437(bytes([ch])) for ch in st['code'])
                if not st['code'].endswith(b'\r'):
                    txt += '\n'
                with open(os.path.join(outdir, 'b%02d-code-%02d.oop' % (i, k)), 'w',
                          encoding='utf-8', newline='') as f:
                    f.write(txt)
    h = w['header']
    with open(os.path.join(outdir, 'world.txt'), 'w') as f:
        f.write('name=%s\n' % cp437(h[30:30 + min(h[29], 20)]))
        f.write('ammo=%d gems=%d health=%d board=%d torches=%d score=%d saved=%d\n' % (
            s16(h, 4), s16(h, 6), s16(h, 15), s16(h, 17), s16(h, 19), s16(h, 27), h[264]))
    return w


def slug(b):
    """lower-case ASCII letters and digits, other runs one '-' between them"""
    out, dash = '', False
    for ch in b.decode('latin-1').lower():
        if ch in 'abcdefghijklmnopqrstuvwxyz0123456789':
            if dash and out:
                out += '-'
            dash = False
            out += ch
        else:
            dash = True
    return out


def code_names(stats):
    """{stat: file name} of the code files of a board (the man page's rule):
    the @name's slug; '-SS' added when two stats share it or it is all
    digits; 'SS' without an @name or when the name still clashes."""
    own = [k for k, st in enumerate(stats) if st['bind'] is None and st['code']]
    slugs = {}
    for k in own:
        c = stats[k]['code']
        slugs[k] = slug(c[1:].split(b'\r')[0])[:39].rstrip('-') if c[:1] == b'@' else ''
    names = {}
    for k in own:
        sl = slugs[k]
        if not sl:
            n = '%02d.oop' % k
        elif sl.isdigit() or any(slugs[t] == sl for t in own if t != k):
            n = '%s-%02d.oop' % (sl[:32], k)
        else:
            n = sl + '.oop'
        if n in names.values():
            n = '%02d.oop' % k
        names[k] = n
    return names


def png_lines(path):
    """A PNG's header and its scan lines, unfiltered:
    (w, h, depth, colour type, palette, lines)."""
    import zlib
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n'
    p, idat, plte = 8, b'', b''
    while p < len(d):
        n = struct.unpack('>I', d[p:p + 4])[0]
        t, body = d[p + 4:p + 8], d[p + 8:p + 8 + n]
        if t == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif t == b'PLTE':
            plte = body
        elif t == b'IDAT':
            idat += body
        p += 12 + n
    fbpp = 4 if ctype == 6 else 3 if ctype == 2 else 1     # filter unit, bytes
    stride = w * fbpp if ctype != 3 else (w * depth + 7) // 8
    raw = zlib.decompress(idat)
    lines, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride if f else 0):
            a = line[i - fbpp] if i >= fbpp else 0
            b = prev[i]
            c = prev[i - fbpp] if i >= fbpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xff
            elif f == 2:
                line[i] = (line[i] + b) & 0xff
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xff
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 0xff
        prev = line
        lines.append(line)
    return w, h, depth, ctype, plte, lines


def png_pixels(path):
    """Decode an 8-bit RGBA or RGB PNG, or a palette one of 1-8 bits (as
    written by libpng) -> (w, h, bpp, rows); palette images come out RGB."""
    w, h, depth, ctype, plte, lines = png_lines(path)
    assert (depth == 8 and ctype in (2, 6)) or (ctype == 3 and depth in (1, 2, 4, 8) and plte)
    rows = []
    for line in lines:
        if ctype == 3:
            per = 8 // depth
            out = bytearray()
            for x in range(w):
                v = line[x // per] >> (8 - depth * (x % per + 1)) & ((1 << depth) - 1)
                out += plte[3 * v:3 * v + 3]
            rows.append(bytes(out))
        else:
            rows.append(bytes(line))
    return w, h, 4 if ctype == 6 else 3, rows



# ---- board.png: the font and ZZT's drawing, for the render tests ------------

FONTDIR = '/usr/share/consolefonts'


def psf1_glyphs(path):
    """The 256 glyphs of an 8x14 PSF1 font (14 bytes each)."""
    import gzip
    d = gzip.open(path).read()
    assert d[:2] == b'\x36\x04' and d[3] == 14, path
    return [d[4 + i * 14:4 + (i + 1) * 14] for i in range(256)]


def vga_font():
    """Code page 437 glyphs from console-data's IBM VGA 8x14 fonts, read here
    with Python's own code page tables: cp865 (437 but for three characters)
    and cp850 for those three.  None when the fonts are not installed."""
    try:
        f865 = psf1_glyphs(FONTDIR + '/cp865-8x14.psf.gz')
        f850 = psf1_glyphs(FONTDIR + '/cp850-8x14.psf.gz')
    except OSError:
        return None
    out = []
    for c in range(256):
        if c < 0x80:        # the lower half is the same in every IBM PC code page
            out.append(f865[c])
            continue
        u = bytes([c]).decode('cp437')
        try:
            out.append(f865[u.encode('cp865')[0]])
        except UnicodeEncodeError:
            out.append(f850[u.encode('cp850')[0]])
    return out


# default character of each element (the spec's element table)
ELEM_CHAR = [0x20, 0x20, 0x20, 0x20, 0x02, 0x84, 0x9D, 0x04, 0x0C, 0x0A, 0xE8, 0xF0, 0xFA,
             0x0B, 0x7F, 0x53, 0x2F, 0x5C, 0xF8, 0xB0, 0xB0, 0xDB, 0xB2, 0xB1, 0xFE, 0x12,
             0x1D, 0xB2, 0xB0, 0xCE, 0xC5, 0xCE, 0x2A, 0xCD, 0x99, 0x05, 0x02, 0x2A, 0x5E,
             0x18, 0x10, 0xEA, 0xE3, 0xBA, 0xE9, 0x4F, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
             0x20, 0x20]
E = dict(empty=0, edge=1, player=4, duplicator=12, bomb=13, star=15, cw=16, ccw=17,
         blinkwall=29, transporter=30, line=31, object=36, gun=39, pusher=40,
         text_blue=47, text_white=53)


def expect_cell(b, x, y, statat):
    """(character, colour) ZZT draws at 0-based x, y of board b at tick 0,
    written from the ZZT reconstruction's draw procedures."""
    e, col = b.elem[y * W + x], b.color[y * W + x]
    st = b.stats[statat[(x, y)]] if (x, y) in statat else None
    if e == E['empty']:
        return 0x20, 0x0f
    if E['text_blue'] <= e <= E['text_white']:
        return col, 0x0f if e == E['text_white'] else ((e - E['text_blue'] + 1) * 16 + 15) & 0xff
    if e >= len(ELEM_CHAR):
        return ord('?'), col
    if e == E['line']:
        v = 0
        for bit, (dx, dy) in enumerate(((0, -1), (0, 1), (-1, 0), (1, 0))):
            nx, ny = x + dx, y + dy
            ne = E['edge'] if not (0 <= nx < W and 0 <= ny < H) else b.elem[ny * W + nx]
            if ne in (E['line'], E['edge']):
                v |= 1 << bit
        return [249, 208, 210, 186, 181, 188, 187, 185, 198, 200, 201, 204, 205, 202, 203, 206][v], col
    tick0 = {E['star']: 0xb3, E['cw']: 0xb3, E['ccw']: ord('\\'), E['gun']: 24, E['blinkwall']: 206}
    if e in tick0:
        return tick0[e], col
    if st is None:
        return ELEM_CHAR[e], col
    if e == E['object']:
        return st['p1'], col
    if e == E['bomb']:
        return (11 if st['p1'] <= 1 else (48 + st['p1']) & 0xff), col
    if e == E['duplicator']:
        return {1: 250, 2: 249, 3: 248, 4: ord('o'), 5: ord('O')}.get(st['p1'], 250), col
    if e == E['pusher']:
        if st['step_x'] == 1:
            return 16, col
        if st['step_x'] == -1:
            return 17, col
        return (30 if st['step_y'] == -1 else 31), col
    if e == E['transporter']:
        if st['step_x'] == 0:
            i, chars = st['step_y'] * 2 + 2, '^~^-v_v-'
        else:
            i, chars = st['step_x'] * 2 + 2, '(<(\xb3)>)\xb3'
        return (ord(chars[i]) if 0 <= i < 8 else ELEM_CHAR[e]), col
    return ELEM_CHAR[e], col


def stat_at(b):
    """{(x, y) 0-based: the first stat on that tile}"""
    out = {}
    for k, st in enumerate(b.stats):
        if 1 <= st['x'] <= W and 1 <= st['y'] <= H:
            out.setdefault((st['x'] - 1, st['y'] - 1), k)
    return out


def png_indices(path):
    """A 4-bit palette PNG -> (w, h, rows of palette indices)."""
    w, h, depth, ctype, plte, lines = png_lines(path)
    assert depth == 4 and ctype == 3, (depth, ctype)
    hi = bytes(v >> 4 for v in range(256))
    lo = bytes(v & 15 for v in range(256))
    rows = []
    for line in lines:
        out = bytearray(2 * len(line))
        out[0::2] = bytes(line).translate(hi)
        out[1::2] = bytes(line).translate(lo)
        rows.append(bytes(out[:w]))
    return w, h, rows


def cell_pixels(rows, x, y):
    return [rows[y * 14 + r][x * 8:x * 8 + 8] for r in range(14)]


def glyph_pixels(glyph, colour):
    """A glyph drawn in colour: foreground bits 0-3, background 4-6 (blink ignored)."""
    fg, bg = colour & 15, (colour >> 4) & 7
    return [bytes(fg if g & (0x80 >> k) else bg for k in range(8)) for g in glyph]


def compare_render(b, png, font, what=''):
    """Every cell of board.png against expect_cell; returns the mismatches."""
    w, h, rows = png_indices(png)
    assert (w, h) == (W * 8, H * 14), (w, h)
    statat = stat_at(b)
    bad = []
    for y in range(H):
        for x in range(W):
            ch, col = expect_cell(b, x, y, statat)
            if cell_pixels(rows, x, y) != glyph_pixels(font[ch], col):
                got = [c for c in range(256) for cc in (col,)
                       if cell_pixels(rows, x, y) == glyph_pixels(font[c], cc)]
                bad.append('%s x %d y %d element %d: want char 0x%02x colour 0x%02x, got %s'
                           % (what, x + 1, y + 1, b.elem[y * W + x], ch, col,
                              ' '.join('0x%02x' % c for c in got) or 'no glyph in that colour'))
    return bad


def unquote(v):
    v = v.strip()
    if len(v) >= 2 and v[0] == '"' and v[-1] == '"':
        v = v[1:-1].replace('\\"', '"').replace('\\\\', '\\')
    return v


def ini(path):
    out, sec = {}, ''
    for line in open(path, encoding='utf-8'):
        line = line.strip()
        if not line or line[0] in ';#':
            continue
        if line[0] == '[':
            sec = line[1:-1]
            continue
        k, v = line.split('=', 1)
        out[sec + '.' + k.strip()] = v.strip()
    return out


def compare(world, tree):
    """Exit 1 unless the extracted tree shows exactly what world holds."""
    w = read_world(world)
    bad = []
    dirs = sorted(os.listdir(os.path.join(tree, 'boards')))
    if len(dirs) != len(w['boards']):
        bad.append('%d board dirs, want %d' % (len(dirs), len(w['boards'])))
    for i, (b, dn) in enumerate(zip(w['boards'], dirs)):
        bd = os.path.join(tree, 'boards', dn)
        if not dn.startswith('%02d' % i):
            bad.append('board %d: dir %s' % (i, dn))
        for view, g in (('elements.csv', b.elem), ('colors.csv', b.color)):
            rows = open(os.path.join(bd, view)).read().split('\n')
            want = [','.join(str(v) for v in g[y * W:(y + 1) * W]) for y in range(H)]
            if rows[1:26] != want or rows[26:] != ['']:
                bad.append('board %d: %s differs' % (i, view))
        rows = open(os.path.join(bd, 'stats.csv')).read().rstrip('\n').split('\n')[1:]
        if len(rows) != len(b.stats):
            bad.append('board %d: %d stat rows, want %d' % (i, len(rows), len(b.stats)))
        for k, (row, st) in enumerate(zip(rows, b.stats)):
            f = row.split(',')
            want = [str(k)] + [str(st[n]) for n in ('x', 'y', 'step_x', 'step_y', 'cycle', 'p1', 'p2', 'p3',
                                                 'follower', 'leader', 'under_element', 'under_color')]
            got = f[:13] + [f[14]]
            want.append(str(st['instruction']))
            if got != want or int(f[13], 0) & 0xffffffff != st['pointer'] & 0xffffffff:
                bad.append('board %d stat %d: %s, want %s' % (i, k, row, want))
            if f[15] != ('' if st['bind'] is None else str(st['bind'])):
                bad.append('board %d stat %d: bind %s' % (i, k, f[15]))
            if bytes.fromhex(f[16]).ljust(8, b'\0') != st['padding']:
                bad.append('board %d stat %d: padding %s' % (i, k, f[16]))
        code = sorted(os.listdir(os.path.join(bd, 'code')))
        names = code_names(b.stats)
        want_code = sorted(names.values())
        if code != want_code:
            bad.append('board %d: code files %s, want %s' % (i, code, want_code))
        for k, st in enumerate(b.stats):
            if k in names and names[k] in code:
                txt = ''.join('\n' if ch == 13 else cp437(bytes([ch])) for ch in st['code'])
                if not st['code'].endswith(b'\r'):
                    txt += '\n'
                got = open(os.path.join(bd, 'code', names[k]), encoding='utf-8', newline='').read()
                if got != txt:
                    bad.append('board %d: code of stat %d differs' % (i, k))
        bi = ini(os.path.join(bd, 'board.ini'))
        if unquote(bi['board.name']) != cp437(b.name):
            bad.append('board %d: name %r, want %r' % (i, bi['board.name'], cp437(b.name)))
        props = b.props
        for key, val in (('max_shots', props[0]), ('dark', props[1]), ('exit_north', props[2]),
                         ('exit_south', props[3]), ('exit_west', props[4]), ('exit_east', props[5]),
                         ('restart_on_zap', props[6]), ('enter_x', props[66]), ('enter_y', props[67]),
                         ('time_limit', s16(props, 68))):
            if bi['board.' + key] != str(val):
                bad.append('board %d: %s = %s, want %s' % (i, key, bi['board.' + key], val))
        if unquote(bi['board.message']) != cp437(props[8:8 + min(props[7], 58)]):
            bad.append('board %d: message' % i)
        png = os.path.join(bd, 'board.png')
        if open(png, 'rb').read(24)[16:24] != struct.pack('>II', 480, 350):
            bad.append('board %d: board.png is not 480x350' % i)
    h = w['header']
    wi = ini(os.path.join(tree, 'world.ini'))
    for key, val in (('world.saved', h[264]), ('world.board', s16(h, 17)), ('player.ammo', s16(h, 4)),
                     ('player.gems', s16(h, 6)), ('player.health', s16(h, 15)),
                     ('player.torches', s16(h, 19)), ('player.torch_cycles', s16(h, 21)),
                     ('player.energizer_cycles', s16(h, 23)), ('player.score', s16(h, 27)),
                     ('world.time_passed', s16(h, 260)), ('world.time_ticks', s16(h, 262)),
                     ('keys.blue', h[8]), ('keys.white', h[14])):
        if wi[key] != str(val):
            bad.append('world.ini %s = %s, want %s' % (key, wi[key], val))
    if unquote(wi['world.name']) != cp437(h[30:30 + min(h[29], 20)]):
        bad.append('world.ini name')
    for k in range(10):
        o = 50 + 21 * k
        if unquote(wi['flags.flag%d' % k]) != cp437(h[o + 1:o + 1 + min(h[o], 20)]):
            bad.append('world.ini flag%d' % k)
    t = os.path.join(tree, 'trailing.bin')
    if w['trailing'] and (not os.path.exists(t) or open(t, 'rb').read() != w['trailing']):
        bad.append('trailing.bin differs')
    if not w['trailing'] and os.path.exists(t):
        bad.append('trailing.bin should not exist')
    for m in bad:
        print('%s: %s' % (world, m))
    return 1 if bad else 0


if __name__ == '__main__':
    if sys.argv[1] == 'compare':
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    if sys.argv[1] == 'mk' and sys.argv[3:4] == ['draw']:
        open(sys.argv[2], 'wb').write(draw_world())
    elif sys.argv[1] == 'mk':
        open(sys.argv[2], 'wb').write(make_world(sys.argv[3] if len(sys.argv) > 3 else 'basic'))
    elif sys.argv[1] == 'bad':
        open(sys.argv[2], 'wb').write(bad_world(sys.argv[3]))
    elif sys.argv[1] == 'views':
        expect_views(sys.argv[2], sys.argv[3])
    else:
        sys.exit('usage: zztlib.py mk OUT [variant] | views WORLD DIR')
