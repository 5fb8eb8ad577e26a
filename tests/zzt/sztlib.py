#!/usr/bin/env python3
"""sztlib.py - a Super ZZT world reader and writer for the tests, written
from the public Super ZZT format documentation (ModdingWiki "ZZT Format",
the Museum of ZZT element list, the element table and draw procedures of
SUPERZ.EXE as Roton documents them), independently of the C driver.

    sztlib.py mk OUT [every|small]  write a fixture world (see make_world)
    sztlib.py compare WORLD TREE    exit 1 unless TREE (extracted or mounted)
                                    shows exactly what WORLD holds
    sztlib.py render WORLD TREE     exit 1 unless every board.png in TREE
                                    draws its board as Super ZZT does
    sztlib.py get WORLD BOARD X Y   print element,colour of a tile (1-based)
    sztlib.py code WORLD BOARD STAT print a stat's code (CR as LF)
    sztlib.py seeds DIR             write small fuzz seeds into DIR
Boards are 96x80; the header is 1024 bytes; stats are 25 bytes.
"""
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zztlib as z      # noqa: E402  the PNG, font and ini helpers only

W, H = 96, 80
TILES = W * H
HDR = 1024
NAME_LEN = 60           # board name characters
INFO = 30               # board info bytes
STAT = 25               # stat record bytes

# Super ZZT's element table: default character of ids 0-79
CHARS = [0x20, 0x20, 0x20, 0x02, 0x02, 0x84, 0x20, 0x04, 0x0C, 0x0A, 0xE8, 0xF0, 0xFA, 0x0B,
         0x7F, 0x20, 0x2F, 0x5C, 0x20, 0x6F, 0xB0, 0xDB, 0xB2, 0xB1, 0xFE, 0x12, 0x1D, 0xB2,
         0x20, 0xCE, 0xC5, 0xCE, 0x2A, 0x20, 0xEB, 0x05, 0x02, 0x2A, 0x20, 0x18, 0x10, 0xEA,
         0xE3, 0x20, 0xE9, 0x4F, 0x20, 0xB0, 0x1E, 0x1F, 0x11, 0x10, 0x20, 0x20, 0x20, 0x20,
         0x20, 0x20, 0x20, 0x94, 0xED, 0xE5, 0x0F, 0xC5, 0x5A, 0x20, 0x20, 0x20, 0x20, 0xF8,
         0xCD, 0xBA, 0x53, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20]
E = dict(empty=0, edge=1, player=4, scroll=10, passage=11, duplicator=12, bomb=13, cw=16,
         ccw=17, lava=19, normal=22, blinkwall=29, transporter=30, line=31, object=36, gun=39,
         pusher=40, floor=47, water_n=48, water_e=51, roton=59, dragon=60, pairer=61,
         spider=62, web=63, stone=64, bullet=69, star=72, text_blue=73, text_white=79)
LINE_CHARS = [0xF9, 0xD0, 0xD2, 0xBA, 0xB5, 0xBC, 0xBB, 0xB9, 0xC6, 0xC8, 0xC9, 0xCC, 0xCD,
              0xCA, 0xCB, 0xCE]
WEB_CHARS = [0xFA, 0xB3, 0xB3, 0xB3, 0xC4, 0xD9, 0xBF, 0xB4, 0xC4, 0xC0, 0xDA, 0xC3, 0xC4,
             0xC1, 0xC2, 0xC5]
# elements whose table entry has a cycle (they have stats): a line or web
# next to one looks at what its stat stands on
CYCLED = {3, 4, 10, 11, 12, 13, 16, 17, 29, 30, 34, 35, 36, 37, 39, 40, 41, 42, 44, 45, 59, 60,
          61, 62, 64, 69, 72}
STAT_KEYS = ('x', 'y', 'step_x', 'step_y', 'cycle', 'p1', 'p2', 'p3', 'follower', 'leader',
             'under_element', 'under_color', 'pointer', 'instruction', 'length')
STAT_FMT = '<BBhhhBBBhhBBiHh'   # 25 bytes; instruction read unsigned then signed below


def s16(d, o):
    return struct.unpack_from('<h', d, o)[0]


# ---- reading ----------------------------------------------------------------

class Board:
    pass


def parse_board(d, off):
    b = Board()
    b.off, b.size = off, struct.unpack_from('<H', d, off)[0]
    b.raw = d[off:off + 2 + b.size]
    p = off + 2
    b.name = d[p + 1:p + 1 + min(d[p], NAME_LEN)]
    p += 1 + NAME_LEN
    b.elem, b.color = bytearray(), bytearray()
    while len(b.elem) < TILES:
        n = d[p] or 256
        b.elem += bytes([d[p + 1]]) * n
        b.color += bytes([d[p + 2]]) * n
        p += 3
    assert len(b.elem) == TILES, 'RLE overruns the board'
    b.info = d[p:p + INFO]
    p += INFO
    count = s16(b.info, 28) + 1
    b.stats = []
    for _ in range(count):
        v = struct.unpack_from(STAT_FMT, d, p)
        st = dict(zip(STAT_KEYS, v))
        st['instruction'] = struct.unpack_from('<h', d, p + 21)[0]
        p += STAT
        st['bind'] = -st['length'] if st['length'] < 0 else None
        st['code'] = d[p:p + st['length']] if st['length'] > 0 else b''
        p += max(st['length'], 0)
        b.stats.append(st)
    b.tail = d[p:off + 2 + b.size]
    return b


def read_world(path):
    d = open(path, 'rb').read() if isinstance(path, str) else path
    assert s16(d, 0) == -2, 'not a Super ZZT world'
    off, boards = HDR, []
    for _ in range(s16(d, 2) + 1):
        b = parse_board(d, off)
        boards.append(b)
        off += 2 + b.size
    return {'header': d[:HDR], 'boards': boards, 'trailing': d[off:]}


# ---- writing ----------------------------------------------------------------

def pstr(s, n):
    return bytes([len(s)]) + s.ljust(n, b'\0')


def rle(elem, color):
    out, i = bytearray(), 0
    while i < TILES:
        n = 1
        while i + n < TILES and n < 255 and elem[i + n] == elem[i] and color[i + n] == color[i]:
            n += 1
        out += bytes([n, elem[i], color[i]])
        i += n
    return bytes(out)


def stat(x, y, **kw):
    st = dict(step_x=0, step_y=0, cycle=1, p1=0, p2=0, p3=0, follower=-1, leader=-1,
              under_element=0, under_color=0, pointer=0, instruction=0, code=b'', bind=None)
    st.update(kw)
    st['x'], st['y'] = x, y
    return st


def board_bytes(name, elem, color, stats, shots=255, exits=(0, 0, 0, 0), restart=0, enter=(0, 0),
                camera=(0, 0), time=0):
    body = pstr(name, NAME_LEN) + rle(elem, color)
    body += struct.pack('<B4BBBBhhh14xh', shots, *exits, restart, enter[0], enter[1],
                        camera[0], camera[1], time, len(stats) - 1)
    for st in stats:
        length = -st['bind'] if st['bind'] is not None else len(st['code'])
        body += struct.pack('<BBhhhBBBhhBBiHh', st['x'], st['y'], st['step_x'], st['step_y'],
                            st['cycle'], st['p1'], st['p2'], st['p3'], st['follower'],
                            st['leader'], st['under_element'], st['under_color'], st['pointer'],
                            st['instruction'] & 0xffff, length)
        body += st['code'] if st['bind'] is None else b''
    return struct.pack('<H', len(body)) + body


def header_bytes(nboards, name=b'SZTFIX', saved=0, stones=-1, flags=()):
    h = struct.pack('<hhhh7bhhhhhh', -2, nboards - 1, 12, 34, 1, 0, 1, 0, 0, 0, 1, 100, 1,
                    0, 77, 0, 5)
    # 0x13 unused, 0x15 energizer cycles 77, 0x17 unused, 0x19 score 5
    h += pstr(name, 20)
    for k in range(16):
        h += pstr(flags[k] if k < len(flags) else b'', 20)
    h += struct.pack('<hhBh', 3, 4, saved, stones)
    assert len(h) == 0x187, hex(len(h))
    return h.ljust(HDR, b'\0')


def grid(fill=0, col=0x0f):
    return bytearray([fill]) * TILES, bytearray([col]) * TILES


def put(elem, color, x, y, e, c):
    elem[(y - 1) * W + x - 1] = e
    color[(y - 1) * W + x - 1] = c


def make_world(variant='every'):
    """every: board 0 every element id 0-79 (and 80, past the table) in a row
    with the stats the special-drawn ones read; board 1 line walls and webs
    joined to each other, the edge and what a stat stands on; board 2
    objects with code, a bound stat, transporters, pushers, bombs,
    duplicators, text.  small: one board with a player and an object."""
    boards = []
    e, c = grid()
    put(e, c, 48, 40, E['player'], 0x1f)
    stats = [stat(48, 40, under_element=E['floor'], under_color=0x0e)]
    if variant == 'small':
        put(e, c, 10, 10, E['object'], 0x0c)
        stats.append(stat(10, 10, p1=1, code=b'@small\r#end\r'))
        return header_bytes(1) + board_bytes(b'Small', e, c, stats)
    for i in range(81):
        x, y = 2 + (i % 40) * 2, 2 + (i // 40) * 3
        put(e, c, x, y, i, 0x1a + i % 5)
        if i in (E['object'], E['bomb'], E['duplicator'], E['pusher'], E['transporter']):
            stats.append(stat(x, y, p1=3 if i != E['object'] else 0xe9, step_x=1))
    boards.append(board_bytes(b'Every element', e, c, stats, camera=(10, 20)))
    # lines and webs
    e, c = grid()
    stats = [stat(30, 30)]
    put(e, c, 30, 30, E['player'], 0x1f)
    for x in range(1, W + 1):                       # a line along the top edge row
        put(e, c, x, 1, E['line'], 0x0e)
    for y in range(5, 12):                          # a cross of lines
        put(e, c, 10, y, E['line'], 0x0b)
    for x in range(6, 15):
        put(e, c, x, 8, E['line'], 0x0b)
    put(e, c, 20, 20, E['line'], 0x0b)             # a lone line: 0xf9
    for y in range(5, 12):                          # webs: a cross, a lone one, an edge one
        put(e, c, 40, y, E['web'], 0x07)
    for x in range(36, 45):
        put(e, c, x, 8, E['web'], 0x07)
    put(e, c, 60, 20, E['web'], 0x07)
    put(e, c, 96, 40, E['web'], 0x07)               # joins the board edge east
    put(e, c, 50, 50, E['web'], 0x07)               # joins the spider standing on a web
    put(e, c, 51, 50, E['spider'], 0x0c)
    stats.append(stat(51, 50, under_element=E['web'], under_color=0x07))
    put(e, c, 52, 50, E['web'], 0x07)
    put(e, c, 70, 60, E['line'], 0x0b)              # a line next to an object on a line
    put(e, c, 71, 60, E['object'], 0x0f)
    stats.append(stat(71, 60, p1=1, under_element=E['line'], under_color=0x0b))
    put(e, c, 72, 60, E['web'], 0x07)               # webs do not join lines
    put(e, c, 1, 80, E['web'], 0x07)                # the corner: edges south and west
    put(e, c, 50, 55, E['web'], 0x07)               # a wall's stat does not count:
    put(e, c, 51, 55, E['normal'], 0x0e)            # walls have no cycle
    stats.append(stat(51, 55, under_element=E['web'], under_color=0x07))
    boards.append(board_bytes(b'Lines and webs', e, c, stats, exits=(0, 2, 0, 0)))
    # stats, code, text
    e, c = grid(E['floor'], 0x08)
    stats = [stat(2, 2)]
    put(e, c, 2, 2, E['player'], 0x1f)
    for k, (sx, sy) in enumerate(((0, -1), (0, 1), (-1, 0), (1, 0))):
        put(e, c, 4 + 2 * k, 4, E['transporter'], 0x0a)
        stats.append(stat(4 + 2 * k, 4, step_x=sx, step_y=sy))
        put(e, c, 4 + 2 * k, 6, E['pusher'], 0x0d)
        stats.append(stat(4 + 2 * k, 6, step_x=sx, step_y=sy))
    for p1 in range(10):
        put(e, c, 4 + 2 * p1, 8, E['bomb'], 0x0e)
        stats.append(stat(4 + 2 * p1, 8, p1=p1))
    for p1 in range(7):
        put(e, c, 4 + 2 * p1, 10, E['duplicator'], 0x0f)
        stats.append(stat(4 + 2 * p1, 10, p1=p1, step_x=1))
    put(e, c, 30, 12, E['object'], 0x0c)
    stats.append(stat(30, 12, p1=0x02, code=b'@guard\r#end\r:touch\r"Hello \x82t\xe9!\r'))
    put(e, c, 32, 12, E['object'], 0x09)
    stats.append(stat(32, 12, p1=0x01, bind=len(stats) - 1))
    put(e, c, 34, 12, E['scroll'], 0x0f)
    stats.append(stat(34, 12, code=b'Just a scroll.\r'))
    put(e, c, 36, 12, E['passage'], 0x1f)
    stats.append(stat(36, 12, p3=1))
    for k, ch in enumerate(b'SUPER ZZT'):
        put(e, c, 4 + k, 14, E['text_blue'] + k % 7, ch)
    boards.append(board_bytes(b'Stats, code and text', e, c, stats, enter=(2, 2), time=90))
    return header_bytes(len(boards), flags=(b'ZSTONES', b'SECRET')) + b''.join(boards)


# ---- what the tree must show ------------------------------------------------------

def text(code):
    """ZZT-OOP as the tree shows it: CR as LF, code page 437 as UTF-8"""
    return ''.join('\n' if ch == 13 else z.cp437(bytes([ch])) for ch in code)


def slug(s):
    out, dash = '', False
    for ch in s.decode('latin1').lower():
        if ch.isascii() and ch.isalnum():
            if dash and out:
                out += '-'
            out, dash = out + ch, False
        else:
            dash = True
    return out


def compare(world, tree):
    w = read_world(world)
    bad = []
    dirs = sorted(os.listdir(os.path.join(tree, 'boards')))
    if len(dirs) != len(w['boards']):
        bad.append('%d board dirs, want %d' % (len(dirs), len(w['boards'])))
    for i, (b, dn) in enumerate(zip(w['boards'], dirs)):
        bd = os.path.join(tree, 'boards', dn)
        want_dn = '%02d' % i + ('-' + slug(b.name) if slug(b.name) else '')
        if dn != want_dn[:len(dn)] or not dn.startswith('%02d' % i):
            bad.append('board %d: dir %s, want %s' % (i, dn, want_dn))
        for view, g in (('elements.csv', b.elem), ('colors.csv', b.color)):
            rows = open(os.path.join(bd, view)).read().split('\n')
            want = [','.join(str(v) for v in g[y * W:(y + 1) * W]) for y in range(H)]
            if rows[0].split(',')[-1] != 'x96' or rows[1:H + 1] != want or rows[H + 1:] != ['']:
                bad.append('board %d: %s differs' % (i, view))
        rows = open(os.path.join(bd, 'stats.csv')).read().rstrip('\n').split('\n')
        if rows[0].split(',')[-1] != 'bind' or len(rows[0].split(',')) != 16:
            bad.append('board %d: stats.csv header %s' % (i, rows[0]))
        rows = rows[1:]
        if len(rows) != len(b.stats):
            bad.append('board %d: %d stat rows, want %d' % (i, len(rows), len(b.stats)))
        for k, (row, st) in enumerate(zip(rows, b.stats)):
            f = row.split(',')
            want = [str(k)] + [str(st[n]) for n in STAT_KEYS[:12]]
            if f[:13] != want or int(f[13], 0) != st['pointer'] & 0xffffffff or \
                    f[14] != str(st['instruction']) or \
                    f[15] != ('' if st['bind'] is None else str(st['bind'])):
                bad.append('board %d stat %d: %s, want %s' % (i, k, row, want))
        codes = {}
        for k, st in enumerate(b.stats):
            if st['bind'] is None and st['code']:
                codes[k] = st['code']
        got = sorted(os.listdir(os.path.join(bd, 'code')))
        if len(got) != len(codes):
            bad.append('board %d: code files %s for %d programs' % (i, got, len(codes)))
        texts = sorted(open(os.path.join(bd, 'code', n), encoding='utf-8', newline='').read()
                       for n in got)
        want_t = sorted(text(c) + ('' if c.endswith(b'\r') else '\n') for c in codes.values())
        if texts != want_t:
            bad.append('board %d: code differs' % i)
        bi = z.ini(os.path.join(bd, 'board.ini'))
        info = b.info
        want = dict(max_shots=info[0], exit_north=info[1], exit_south=info[2], exit_west=info[3],
                    exit_east=info[4], restart_on_zap=info[5], enter_x=info[6], enter_y=info[7],
                    camera_x=s16(info, 8), camera_y=s16(info, 10), time_limit=s16(info, 12))
        for key, val in want.items():
            if bi.get('board.' + key) != str(val):
                bad.append('board %d: %s = %s, want %s' % (i, key, bi.get('board.' + key), val))
        for key in ('board.dark', 'board.message'):
            if key in bi:
                bad.append('board %d: %s shown, Super ZZT boards have none' % (i, key))
        if z.unquote(bi['board.name']) != z.cp437(b.name):
            bad.append('board %d: name %r' % (i, bi['board.name']))
        png = open(os.path.join(bd, 'board.png'), 'rb').read(24)
        if png[16:24] != struct.pack('>II', W * 8, H * 14):
            bad.append('board %d: board.png is not 768x1120' % i)
    h = w['header']
    wi = z.ini(os.path.join(tree, 'world.ini'))
    want = {'world.saved': h[0x184], 'world.board': s16(h, 0x11), 'world.time_passed': s16(h, 0x180),
            'world.time_ticks': s16(h, 0x182), 'player.health': s16(h, 0x0f),
            'player.ammo': s16(h, 4), 'player.gems': s16(h, 6),
            'player.energizer_cycles': s16(h, 0x15), 'player.score': s16(h, 0x19),
            'player.stones': s16(h, 0x185), 'keys.blue': h[8], 'keys.cyan': h[10],
            'keys.white': h[14]}
    for key, val in want.items():
        if wi.get(key) != str(val):
            bad.append('world.ini %s = %s, want %s' % (key, wi.get(key), val))
    for key in ('player.torches', 'player.torch_cycles', 'flags.flag16'):
        if key in wi:
            bad.append('world.ini shows %s' % key)
    if z.unquote(wi['world.name']) != z.cp437(h[0x1c:0x1c + min(h[0x1b], 20)]):
        bad.append('world.ini name')
    for k in range(16):
        o = 0x30 + 21 * k
        if z.unquote(wi.get('flags.flag%d' % k, '?')) != z.cp437(h[o + 1:o + 1 + min(h[o], 20)]):
            bad.append('world.ini flag%d' % k)
    for m in bad:
        print('%s: %s' % (world, m))
    return 1 if bad else 0


# ---- board.png -------------------------------------------------------------------

def stat_at(b):
    out = {}
    for k, st in enumerate(b.stats):
        if 1 <= st['x'] <= W and 1 <= st['y'] <= H:
            out.setdefault((st['x'] - 1, st['y'] - 1), k)
    return out


def joins(b, x, y, want, statat):
    v = 0
    for bit, (dx, dy) in enumerate(((0, -1), (0, 1), (-1, 0), (1, 0))):
        nx, ny = x + dx, y + dy
        if not (0 <= nx < W and 0 <= ny < H):
            v |= 1 << bit
            continue
        ne = b.elem[ny * W + nx]
        if ne not in (want, E['edge']) and ne in CYCLED and (nx, ny) in statat:
            ne = b.stats[statat[(nx, ny)]]['under_element']
        if ne in (want, E['edge']):
            v |= 1 << bit
    return v


def expect_cell(b, x, y, statat):
    """(character, colour) Super ZZT draws at 0-based x, y at tick 0."""
    e, col = b.elem[y * W + x], b.color[y * W + x]
    st = b.stats[statat[(x, y)]] if (x, y) in statat else None
    if e >= len(CHARS):
        return ord('?'), col
    if e == E['empty']:
        return 0x20, 0x0f
    if E['text_blue'] <= e <= E['text_white']:
        return col, 0x0f if e == E['text_white'] else ((e - E['text_blue'] + 1) * 16 + 15) & 0xff
    if e == E['line']:
        return LINE_CHARS[joins(b, x, y, E['line'], statat)], col
    if e == E['web']:
        return WEB_CHARS[joins(b, x, y, E['web'], statat)], col
    tick0 = {E['star']: 0xb3, E['cw']: 0xb3, E['ccw']: ord('\\'), E['gun']: 0x18,
             E['blinkwall']: 0xce, E['dragon']: 0x94}
    if e in tick0:
        return tick0[e], col
    if st is None:
        return CHARS[e], col
    if e == E['object']:
        return st['p1'], col
    if e == E['bomb']:
        return (11 if st['p1'] <= 1 else 48 + st['p1']), col
    if e == E['duplicator']:
        return {2: 0xf9, 3: 0xf8, 4: ord('o'), 5: ord('O')}.get(st['p1'], 0xfa), col
    if e == E['pusher']:
        if st['step_x'] in (1, -1):
            return (0x10 if st['step_x'] == 1 else 0x11), col
        return (0x1e if st['step_y'] == -1 else 0x1f), col
    if e == E['transporter']:
        if st['step_x'] == 0:
            i, chars = st['step_y'] * 2 + 2, '^~^-v_v-'
        else:
            i, chars = st['step_x'] * 2 + 2, '(<(\xb3)>)\xb3'
        return (ord(chars[i]) if 0 <= i < 8 else CHARS[e]), col
    return CHARS[e], col


def render(world, tree):
    font = z.vga_font()
    if font is None:
        print('console-data fonts missing')
        return 77
    w = read_world(world)
    dirs = sorted(os.listdir(os.path.join(tree, 'boards')))
    bad = []
    for i, (b, dn) in enumerate(zip(w['boards'], dirs)):
        wd, ht, rows = z.png_indices(os.path.join(tree, 'boards', dn, 'board.png'))
        if (wd, ht) != (W * 8, H * 14):
            bad.append('board %d: %dx%d' % (i, wd, ht))
            continue
        statat = stat_at(b)
        for y in range(H):
            for x in range(W):
                ch, col = expect_cell(b, x, y, statat)
                if z.cell_pixels(rows, x, y) != z.glyph_pixels(font[ch], col):
                    bad.append('board %d x %d y %d element %d: want 0x%02x colour 0x%02x'
                               % (i, x + 1, y + 1, b.elem[y * W + x], ch, col))
    for m in bad[:30]:
        print('%s: %s' % (world, m))
    return 1 if bad else 0


def seeds(d):
    """Small Super ZZT worlds for the fuzzer's seed corpus, named by SHA-1."""
    os.makedirs(d, exist_ok=True)
    outs = [make_world('small')]
    e, c = grid()
    put(e, c, 48, 40, E['player'], 0x1f)
    for x in range(1, 20):
        put(e, c, x, 5, E['web'], 0x07)
        put(e, c, x, 6, E['line'], 0x0e)
    st = [stat(48, 40), stat(3, 3, p1=2, code=b'@a\r#end\r'), stat(4, 3, bind=1)]
    put(e, c, 3, 3, E['object'], 0x0c)
    put(e, c, 4, 3, E['object'], 0x0c)
    outs.append(header_bytes(2, saved=1) + board_bytes(b'A', e, c, st) +
                board_bytes(b'B', *grid(E['water_n'], 0x19), [stat(1, 1)]))
    outs.append(header_bytes(1) + board_bytes(b'Trail', *grid(E['lava'], 0x4e), [stat(2, 2)]) + b'xyz')
    for o in outs:
        open(os.path.join(d, hashlib.sha1(o).hexdigest()), 'wb').write(o)


if __name__ == '__main__':
    a = sys.argv[1:]
    if a[0] == 'mk':
        open(a[1], 'wb').write(make_world(a[2] if len(a) > 2 else 'every'))
    elif a[0] == 'compare':
        sys.exit(compare(a[1], a[2]))
    elif a[0] == 'render':
        sys.exit(render(a[1], a[2]))
    elif a[0] == 'get':
        b = read_world(a[1])['boards'][int(a[2])]
        t = (int(a[4]) - 1) * W + int(a[3]) - 1
        print('%d,%d' % (b.elem[t], b.color[t]))
    elif a[0] == 'code':
        sys.stdout.write(text(read_world(a[1])['boards'][int(a[2])].stats[int(a[3])]['code']))
    elif a[0] == 'seeds':
        seeds(a[1])
    else:
        sys.exit(__doc__)
