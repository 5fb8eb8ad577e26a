#!/usr/bin/env python3
"""TirNanoG game (.tng) fixture writer and reader for the tng tests.

Written from ../shared/specs/tng-game-format.txt and DESIGN.md section 5
(section numbers, deflate wrapping, CRC conventions), independently of the
C driver.

  tngpy.py write OUT [--raw] [--crc-comp] [--encrypted] [--sounds N]
                     [--sound-size B] [--movie-size B] [--bad KIND] [--full]
                     [--short-menu]
            --full adds the game logic: attributes, choosers, cutscenes,
            crafting, spawners, default actions, NPCs and objects with event
            handlers (an object with a collision mask, sounds, required
            attributes, modifiers and a sprite modifier), UI elements as the
            document lays them out, a startup script with every opcode and
            every command; the main menu, HUD, alerts, credits and a
            character option group; --short-menu: the main menu disabled
            (section 17 only the intro cutscene, 3 bytes)
  tngpy.py dump GAME            one line per asset: key, size, sha1
  tngpy.py get GAME KEY         the bytes of one asset (inflated if compressed)
  tngpy.py verify GAME          both CRCs; prints the conventions used
"""
import hashlib
import struct
import sys
import zlib

MAGIC = b"#!/usr/bin/tngp\n"

# section types (DESIGN.md section 5)
S_STRINGS, S_LANG, S_FONTS, S_MUSIC, S_SOUNDS, S_MOVIES, S_ATLASES = 0, 1, 2, 3, 4, 5, 6
S_UI, S_TILES, S_CHARS, S_PORTRAITS, S_BACKS = 7, 8, 9, 10, 11
S_UIELEM, S_EQUIP, S_ATTRS, S_NPCS, S_DIALOGS, S_TILEMETA, S_MAPS, S_QUESTS = 16, 19, 25, 28, 30, 33, 34, 35
S_MAINMENU, S_HUD, S_ALERTS, S_CREDITS, S_CHAROPTS = 17, 18, 20, 21, 27
ASSET_TYPES = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 22, 23, 24, 26, 27, 28, 29, 30, 31, 32, 34, 35}
STORED = {2, 3, 4, 5, 6, 11}
KIND = {2: "fonts", 3: "music", 4: "sounds", 5: "movies", 6: "atlases", 7: "ui", 8: "tiles",
        9: "chars", 10: "portraits", 11: "backs", 22: "choosers", 23: "cutscenes", 24: "startup",
        26: "actions", 27: "charoptions", 28: "npcs", 29: "spawners", 30: "dialogs",
        31: "objects", 32: "crafts", 34: "maps", 35: "quests"}


def deflate(data, raw):
    if raw:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        return c.compress(data) + c.flush()
    return zlib.compress(data, 9)


def inflate(data):
    if len(data) >= 2 and (data[0] & 0x0F) == 8 and ((data[0] << 8) | data[1]) % 31 == 0:
        return zlib.decompress(data)
    return zlib.decompress(data, -15)


def png(w, h, seed):
    rows = b""
    for y in range(h):
        row = bytearray([0])
        for x in range(w):
            row += bytes([(x * 4 + seed) & 255, (y * 4) & 255, (x ^ y ^ seed) & 255,
                          255 if (x + y + seed) % 7 else 0])
        rows += row

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


_NOISE = bytes((i * 7 + (i >> 8) * 13 + (i >> 16)) & 255 for i in range(1 << 20))


def ogg(n, seed):
    start = (seed * 4099) % (1 << 19)
    body = _NOISE[start:start + n] if n <= (1 << 19) else (_NOISE * (n // len(_NOISE) + 1))[:n]
    return b"OggS" + body


def rle(cells):
    out = bytearray()
    i = 0
    while i < len(cells):
        run = 1
        while i + run < len(cells) and run < 128 and cells[i + run] == cells[i]:
            run += 1
        if run > 1:
            out += bytes([0x80 | (run - 1)]) + struct.pack("<H", cells[i])
            i += run
            continue
        lit = [cells[i]]
        i += 1
        while i < len(cells) and len(lit) < 128 and not (i + 1 < len(cells) and cells[i] == cells[i + 1]):
            lit.append(cells[i])
            i += 1
        out += bytes([len(lit) - 1]) + b"".join(struct.pack("<H", v) for v in lit)
    return bytes(out)


def unrle(data, ncells):
    out = []
    i = 0
    while i < len(data):
        h = data[i]
        i += 1
        n = (h & 0x7F) + 1
        if h & 0x80:
            out += [struct.unpack_from("<H", data, i)[0]] * n
            i += 2
        else:
            out += list(struct.unpack_from("<%dH" % n, data, i))
            i += 2 * n
    if len(out) != ncells:
        raise ValueError("rle gives %d cells, want %d" % (len(out), ncells))
    return out


class Writer:
    def __init__(self, raw=False, crc_comp=False):
        self.raw = raw
        self.crc_comp = crc_comp
        self.strings = bytearray(b"\0")
        self.stroff = {"": 0}
        self.sections = []      # (type, bytearray, [(pos, asset index)])
        self.assets = []        # bytes
        self.maps = []          # bytes, written last
        self.gaps = {}          # asset index -> bytes no descriptor covers, after it
        self.trailing = b""

    def s(self, name):
        if name not in self.stroff:
            self.stroff[name] = len(self.strings)
            self.strings += name.encode() + b"\0"
        return self.stroff[name]

    def asset(self, data, is_map=False):
        if is_map:
            self.maps.append(data)
            return ("m", len(self.maps) - 1)
        self.assets.append(data)
        return ("a", len(self.assets) - 1)

    def section(self, type_, data=b"", descs=()):
        self.sections.append((type_, bytearray(data), list(descs)))

    def build(self, hdr_extra=None, enc=0):
        """The file as a list of byte strings (big games never get joined)."""
        where = {}
        parts = []
        pos = 0
        for i, a in enumerate(self.assets):
            where[("a", i)] = (pos, len(a))
            parts.append(a)
            pos += len(a)
            if i in self.gaps:
                parts.append(self.gaps[i])
                pos += len(self.gaps[i])
        for i, a in enumerate(self.maps):
            where[("m", i)] = (pos, len(a))
            parts.append(a)
            pos += len(a)
        if self.trailing:
            parts.append(self.trailing)
        secs = [(S_STRINGS, bytearray(self.strings), [])] + self.sections
        table = bytearray()
        body = bytearray()
        base = 8 * len(secs)
        for type_, d, descs in secs:
            for p, ref in descs:
                off, ln = where[ref] if ref is not None else (0, 0)
                struct.pack_into("<QI", d, p, off, ln)
            table += struct.pack("<II", base + len(body), len(d) | type_ << 24)
            body += d
        block = bytes(table + body)
        comp = deflate(block, self.raw)
        crc = zlib.crc32(comp if self.crc_comp else block)
        hdr = bytearray(64)
        hdr[0:16] = MAGIC
        hdr[16:21] = b"fixtr"
        h = {33: 0x10, 34: 0x20, 35: 0x30, 36: 3, 37: 8, 38: 0, 39: 30, 40: 9, 41: 11, 42: 3,
             43: 43, 44: 0, 45: 20}
        h.update(hdr_extra or {})
        for k, v in h.items():
            hdr[k] = v
        struct.pack_into("<Q", hdr, 48, 0x1122334455667788)
        struct.pack_into("<I", hdr, 60, enc)
        head = bytearray(hdr) + struct.pack("<I", len(comp) + 4) + comp + struct.pack("<I", crc)
        c = zlib.crc32(head)
        for p in parts:
            c = zlib.crc32(p, c)
        struct.pack_into("<I", head, 56, c)
        return [bytes(head)] + parts


def sprite(dirs, seed):
    out = b""
    for d in range(dirs):
        nf = 1 + (d + seed) % 3
        out += struct.pack("<HHBB", 24, 20, d | (2 << 6), nf)
        for f in range(nf):
            atlas = (f + seed) % 2
            op = (f + d + seed) % 6
            out += struct.pack("<7H", atlas | op << 12, 2 + f * 3, 4 + d, 12, 10, 1 + f, 2)
    return out


def u24(v):
    return (v & 0xFFFFFF).to_bytes(3, "little")


# the command functions and the stack values each pops (a map counts two)
COMMANDS = {5: 0, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 12: 2, 13: 3, 14: 2, 15: 2, 16: 2, 17: 3,
            18: 1, 19: 1, 20: 0, 21: 1, 22: 1, 23: 1, 24: 1, 25: 1, 26: 1, 27: 1, 28: 1, 29: 0,
            30: 1, 31: 2, 32: 3, 33: 1, 34: 2, 35: 2, 36: 1, 37: 1, 38: 3, 39: 0, 40: 1, 41: 3,
            42: 1, 43: 1}


def compare(old_path, new_path):
    """For the edit tests: the items of two games, a string's offset in the first, same(key, want)."""
    o = Reader(open(old_path, "rb").read())
    old, new = dict(o.items()), dict(Reader(open(new_path, "rb").read()).items())

    def same(key, want):
        assert new[key] == bytes(want), (key, old[key].hex(), new[key].hex(), bytes(want).hex())
    return old, new, lambda name: o.strings.index(b"\0" + name.encode() + b"\0") + 1, same


def every_opcode(w):
    """A script with every opcode (0-51) and every command, references by real names."""
    a = lambda name: u24(w.s(name))
    body = (bytes([8, 9]) + struct.pack("<H", 0) + bytes([10]) + a("hp") + bytes([11, 12, 0, 0, 13]) + a("gold") +
            bytes([14]) + struct.pack("<I", 100) + bytes([15, 2, 16, 2]) + bytes(range(17, 31)) +
            bytes([31, 0, 32]) + a("gold") + bytes([33]) + a("hp") + bytes([34, 1, 35]) + a("hp") +
            bytes([36]) + a("gold") + bytes([37, 5, 38]) + struct.pack("<H", 300) + bytes([39]) +
            u24(70000) + bytes([40]) + struct.pack("<I", 100000) + bytes([41]) + a("meadow") +
            struct.pack("<HH", 3, 4) + bytes([42, 2, 0, 0, 43]) + a("theme") + bytes([44]) + a("door") +
            bytes([45]) + a("voice_hello") + bytes([46]) + a("class") + bytes([47]) + a("intro_scene") +
            bytes([48]) + a("greet") + bytes([49]) + a("forge") + bytes([50]) + a("rescue") +
            bytes([51]) + u24(2))
    for cmd, n in COMMANDS.items():
        body += bytes([4 + n, cmd])
    # 0: PUSH8 1; 2: SWITCH to A and B; 10: JZ B; 14: JMP A; A = 18: body; B: END
    A, B = 18, 18 + len(body)
    head = bytes([37, 1, 1, 2]) + u24(A) + u24(B) + bytes([3]) + u24(B) + bytes([2]) + u24(A)
    return head + body + bytes([0])


def main_menu(w):
    """Section 17 at its full length (141 bytes): three parallaxes, five buttons."""
    none = bytes([0xFF, 0xFF, 0xFF])
    par = (struct.pack("<hhH", -2, 0, 10) + bytes([1, 0, 0]) + struct.pack("<hhH", 1, 1, 20) + bytes([1, 1, 0]) +
           struct.pack("<hhH", 0, 0, 0) + none)
    buttons = b"".join(struct.pack("<I", 0xFF202020 + i) + bytes([0, 0, 0]) + (none if i % 2 else bytes([0, 0, 0])) +
                       none for i in range(5))
    m = (u24(w.s("intro_scene")) + u24(w.s("theme")) + u24(0) + bytes([4, 0, 0, 3]) + par +
         bytes([0, 0, 0, 1]) + struct.pack("<II", 0xFF00FFFF, 0x80000000) + bytes([1, 16]) + u24(w.s("main")) +
         u24(w.s("example.org")) + struct.pack("<H", 4) + bytes([0, 12]) + u24(w.s("main")) + bytes([5]) +
         buttons + struct.pack("<II", 0xFF00C000, 0x40000000))
    assert len(m) == 141
    return m


def hud(w):
    """Section 18: 51 bytes and two progress bars."""
    h = (bytes([0, 0, 0]) * 4 + bytes([8, 32, 32, 4, 4, 2, 6, 1]) + bytes([0xFF] * 6) + bytes([0, 0, 0]) * 2 +
         bytes([40, 40, 10, 10, 0, 10]) + u24(w.s("main")) + bytes([0, 0, 0]) * 3 + bytes([2]) +
         bytes([0]) + struct.pack("<HH", 10, 20) + u24(w.s("hp")) + u24(w.s("power")) + bytes([0, 0, 0]) + bytes([0xFF] * 3) +
         bytes([1]) + struct.pack("<HH", 10, 30) + u24(w.s("gold")) + u24(0) + bytes([0, 0, 0]) * 2)
    assert len(h) == 51 + 2 * 17
    return h


def char_options(w):
    """A character option group (27): two options, the first with two attributes, an item, two sprites."""
    return (u24(2) + bytes([2, 0, 0, 2]) +
            u24(3) + u24(4) + bytes([2, 1, 2]) + bytes([0]) + u24(w.s("hp")) + struct.pack("<i", 5) +
            bytes([0xFF]) + u24(w.s("gold")) + struct.pack("<i", -1) + bytes([3, 2, 0, 0]) +
            bytes([2, 0, 0, 3, 0, 0]) +
            u24(5) + u24(0xFFFFFF) + bytes([0, 0, 1]) + bytes([2, 0, 0]))


def full_logic(w, z):
    """The game logic sections of --full; returns the NPC, dialog and quest records."""
    say = bytes([48]) + u24(w.s("greet")) + bytes([38, 0, 0, 6, 12, 0])   # PUSHDLG greet; PUSH16 0; FNC2 dialog; END
    # attributes (25): a primary, a variable with an on-change handler, a calculated one
    onchg = bytes([35]) + u24(w.s("gold")) + bytes([37, 100, 24, 3]) + u24(17) + bytes([44]) + u24(w.s("door")) + bytes([5, 8, 0])
    expr = bytes([35]) + u24(w.s("hp")) + bytes([37, 2, 19, 0])
    attrs = (struct.pack("<HHB", 10, 5, 4) + u24(0) * 3 + u24(w.s("gold")) + struct.pack("<H", 3) +
             bytes([0]) + u24(w.s("hp")) + u24(2) +
             bytes([1]) + u24(w.s("gold")) + u24(3) + struct.pack("<i", 10) + u24(len(onchg)) + onchg +
             bytes([2]) + u24(w.s("power")) + u24(3) + struct.pack("<H", len(expr)) + expr)
    w.section(S_ATTRS, attrs)
    # a chooser (22): two options, three UI sprites and a rectangle at position 13
    chooser = (struct.pack("<5H", 10, 20, 4, 2, 2) +
               bytes([1]) + struct.pack("<3H", 0, 0xFFFF, 0xFFFF) + bytes([0]) + u24(w.s("hp")) +
               struct.pack("<i", 5) + bytes(8) + bytes([3, 0, 0, 0]) + struct.pack("<i", 1) +
               bytes([13 | 0x80, 10, 20, 90, 80, 0, 0]) + bytes(24))
    # a cutscene with a script (23), a crafting dialog (32)
    cut = (u24(0) + u24(w.s("theme")) + u24(0) + u24(0) + struct.pack("<HHH", 1, 0, 0) + u24(len(say)) +
           u24(0) + u24(10) + u24(10) + u24(300) + struct.pack("<I", 0xFF000000) + bytes([4, 0, 0]) + say)
    craft = u24(2) + u24(3) + u24(w.s("door")) + bytes([0xFF, 0xFF, 0xFF, 0, 1]) + struct.pack("<HH", 1, 0) + struct.pack("<32H", *([0, 0xFFFF] * 16))
    # a spawner (29): up to 5 NPCs every 30 s, one kind of NPC
    spawner = (bytes([5]) + u24(3000) + struct.pack("<H", 1) + u24(w.s("hp")) + bytes([2]) +
               struct.pack("<i", 3) + u24(0) + struct.pack("<i", 0) + bytes([2, 0, 0, 2, 0, 0]))
    for type_, name, blob in ((22, "class", chooser), (23, "intro_scene", cut), (32, "forge", craft),
                              (29, None, spawner), (S_CHAROPTS, "face", char_options(w))):
        w.section(type_, bytearray(struct.pack("<QII", 0, 0, w.s(name) if name else 0)), [(0, w.asset(z(blob)))])
    # default actions (26): nine scripts, the name field is the range attribute
    d = bytearray()
    descs = []
    for i in range(9):
        descs.append((len(d), w.asset(z(bytes([37, i, 5, 21 + i % 8, 0])))))
        d += struct.pack("<QII", 0, 0, w.s("hp") if i == 0 else 0)
    w.section(26, d, descs)
    # an NPC that talks when clicked and walks south every second
    npc = (u24(2) + bytes([1]) + struct.pack("<HH", 100, 50) + bytes([0, 1, 1, 1, 2]) +
           bytes([0]) + u24(w.s("hp")) + struct.pack("<i", 10) +
           bytes([50]) + u24(1) + u24(5) + bytes([1, 0, 0]) + bytes([2, 0, 0]) +
           bytes([0]) + u24(0) + u24(len(say)) + say +
           bytes([16]) + u24(1) + u24(5) + bytes([37, 1, 5, 21, 0]))
    dlg = u24(2) + u24(3) + u24(0xFFFFFF) + bytes([2, 0, 0, 0, 1]) + u24(0) + bytes([0]) + struct.pack("<i", 0) + u24(0) + struct.pack("<i", 0) + u24(0) + u24(5)
    done = bytes([44]) + u24(w.s("door")) + bytes([5, 8, 0])
    q = bytes([0]) + u24(2) + u24(3) + u24(len(done)) + done
    return npc, dlg, q


def game(raw=False, crc_comp=False, enc=0, nsounds=3, sound_size=300, movie_size=900, bad=None,
         dedup=False, unknown=False, gaps=False, full=False, short_menu=False):
    w = Writer(raw, crc_comp)
    z = lambda b: deflate(b, raw)
    texts = {"en": ["Fixture Game", "English", "Hello there", "Line with \\ backslash",
                    "Two\nlines", "Bye"],
             "de": ["Testspiel", "Deutsch", "Hallo", "Grüße", "Zwei\nZeilen", "Tschüss"]}
    for code, tx in texts.items():
        d = bytearray(code.encode())
        d += struct.pack("<QII", 0, 0, 1)
        descs = [(2, w.asset(z(b"".join(t.encode() + b"\0" for t in tx))))]
        for i, name in enumerate(["hello", "bye"]):
            p = len(d)
            d += struct.pack("<QII", 0, 0, w.s("voice_" + name))
            descs.append((p, w.asset(ogg(100 + i * 10, ord(code[0]) + i)) if i == 0 or code == "en" else None))
        w.section(S_LANG, d, descs)

    def media(type_, items):
        d = bytearray()
        descs = []
        for name, blob in items:
            if dedup and name == "step":
                descs.append((len(d), descs[-1][1]))   # same bytes as the one before
            else:
                descs.append((len(d), w.asset(blob)))
            d += struct.pack("<QII", 0, 0, w.s(name) if name else 0)
        w.section(type_, d, descs)
    media(S_FONTS, [("main", b"SFN2" + bytes(60))])
    media(S_MUSIC, [("theme", ogg(2000, 1))])
    media(S_SOUNDS, [("snd%05d" % i if nsounds > 3 else ["click", "door", "step"][i],
                      ogg(sound_size + i % 17, i)) for i in range(nsounds)])
    media(S_MOVIES, [("intro", b"OggS" + bytes((i * 31) & 255 for i in range(movie_size)))
                     if movie_size < (1 << 20) else ("intro", big_blob(movie_size))])
    media(S_ATLASES, [(None, png(8, 8, 0) if bad == "smallatlas" else png(64, 32, 0)), (None, png(48, 48, 5))])

    def sprites(type_, specs):
        d = bytearray()
        descs = []
        for dirs, seed in specs:
            descs.append((len(d), w.asset(z(sprite(dirs, seed)))))
            d += struct.pack("<QI3xB", 0, 0, dirs)
        w.section(type_, d, descs)
    sprites(S_UI, [(1, 0)])
    sprites(S_TILES, [(1, 1), (1, 2)])
    sprites(S_CHARS, [(2, 3)])
    sprites(S_PORTRAITS, [(1, 4)])
    media(S_BACKS, [(None, png(40, 30, 9))])
    if full:
        # UI elements (16) as the document lays them out: 10 colours, 6 fonts, 3 sounds, sprites
        ui = (bytes([10]) + b"".join(struct.pack("<I", 0xFF000000 | i * 0x111111) for i in range(10)) +
              bytes([6]) + b"".join(bytes([i, 12 + i]) + u24(w.s("main")) + bytes(2) for i in range(6)) +
              bytes([3]) + u24(w.s("door")) + u24(0) + u24(w.s("door")) +
              bytes([0, 0, 0, 2, 0, 0, 0xFF, 0xFF, 0xFF]))
        w.section(S_UIELEM, ui)
        w.section(S_MAINMENU, u24(w.s("intro_scene")) if short_menu else main_menu(w))
        w.section(S_HUD, hud(w))
    else:
        w.section(S_UIELEM, bytes(range(95)))
    w.section(S_EQUIP, struct.pack("<8H", 1, 2, 3, 4, 5, 6, 7, 8))
    if full:
        # alerts (20): a font, times, four alerts; credits (21): 24 bytes, three categories
        w.section(S_ALERTS, bytes([0, 14]) + u24(w.s("main")) + struct.pack("<3H", 300, 50, 250) + bytes([4]) +
                  b"".join(struct.pack("<I", 0xFF0000FF + i) + u24(w.s("door") if i % 2 else 0) + u24(i)
                           for i in range(4)))
        w.section(S_CREDITS, u24(w.s("theme")) + bytes([4, 0, 0]) + struct.pack("<I", 0xFFFFFFFF) +
                  bytes([1, 20]) + u24(w.s("main")) + struct.pack("<I", 0xFFC0C0C0) + bytes([0, 12]) +
                  u24(w.s("main")) +
                  b"g" + struct.pack("<H", 2) + u24(w.s("alice")) + u24(w.s("bob")) +
                  b"c" + struct.pack("<H", 1) + u24(w.s("carol")) + b"m" + struct.pack("<H", 0))
    if full:
        # tiles meta (33): per tile, speed and sound of walking, swimming and flying on it
        w.section(S_TILEMETA, struct.pack("<H", 0) + struct.pack("<H", 100) + u24(w.s("door")) +
                  struct.pack("<H", 50) + u24(0) + struct.pack("<H", 300) + u24(0) +
                  struct.pack("<H", 1) + struct.pack("<H", 80) + u24(w.s("door")) + bytes(10))
    else:
        w.section(S_TILEMETA, bytes(range(34)))
    if unknown:
        w.section(12, b"reserved bytes")
        w.section(77, b"a section type nobody knows")
    npc = struct.pack("<3sBHHBBBBB", (2).to_bytes(3, "little"), 1, 100, 50, 0, 0, 0, 0, 0)
    dlg = bytes([2, 0, 0, 3, 0, 0, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0])
    q = bytes([0, 2, 0, 0, 3, 0, 0, 1, 0, 0, 0])
    names = {}
    first = bytes([37, 1, 4, 8, 0])
    obj = bytes(39) + bytes(96) + bytes(96)
    if full:
        npc, dlg, q = full_logic(w, z)
        names = {S_NPCS: w.s("guard"), S_DIALOGS: w.s("greet"), S_QUESTS: w.s("rescue")}
        first = every_opcode(w)
        # an object with a 3x2 collision mask, a sound, a required attribute, a modifier and a
        # sprite modifier; on click: give the player one of these (PUSH16 3; PUSH8 1; FNC2 give)
        hdr = bytearray(39)
        hdr[0:3] = u24(4)
        struct.pack_into("<HH", hdr, 3, 3, 2)
        hdr[7] = 0xFF
        hdr[8:11] = bytes([2, 0, 0])
        hdr[11:14] = u24(w.s("door"))
        hdr[14:17] = u24(25)
        struct.pack_into("<H", hdr, 17, 0xFFFF)
        hdr[20:23] = bytes([0xFF, 0xFF, 0xFF])
        hdr[26:29] = bytes([0xFF, 0xFF, 0xFF])
        struct.pack_into("<I", hdr, 30, 0x10)
        hdr[34:39] = bytes([1, 1, 1, 1, 1])
        obj = (bytes(hdr) + bytes([0, 1, 0, 1, 1, 1]) + bytes([0xFF]) * 96 + u24(w.s("door")) +
               bytes([0xFF]) * 96 + bytes([2]) + u24(w.s("hp")) + struct.pack("<i", 3) +
               bytes([1]) + u24(w.s("gold")) + struct.pack("<i", -2) +
               u24(0xFFFFFF) + bytes([2, 0, 0]) + bytes([0xFF]) * 117 +
               bytes([0]) + u24(0) + u24(7) + bytes([38, 3, 0, 37, 1, 6, 34]))
    for type_, blob in ((S_NPCS, npc), (S_DIALOGS, dlg), (S_QUESTS, q)):
        d = bytearray(struct.pack("<QII", 0, 0, names.get(type_, 0)))
        w.section(type_, d, [(0, w.asset(z(blob)))])
    # startup scripts (24): the name field is the re-run interval
    d = bytearray(struct.pack("<QII", 0, 0, 0) + struct.pack("<QII", 0, 0, 500))
    w.section(24, d, [(0, w.asset(z(first))), (16, w.asset(z(bytes([0]))))])
    # objects (31): the name field is the object sprite index
    d = bytearray(struct.pack("<QIHH", 0, 0, 3, 0))
    w.section(31, d, [(0, w.asset(z(obj)))])
    # maps: 8x8, 11 layers
    ms, layers = 8, 11
    d = bytearray()
    descs = []
    for mi, name in enumerate(["meadow", "dungeon"]):
        cells = []
        for l in range(layers):
            for y in range(ms):
                for x in range(ms):
                    cells.append(0xFFFF if l in (5, 6) or (l > 1 and (x + y + l) % 3) else (x * y + l + mi) % 5)
        r = rle(cells)
        if bad == "rle" and mi == 0:
            r += bytes([0x85, 1, 0])
        hdr = bytearray(34)
        hdr[0:3] = (2 + mi).to_bytes(3, "little")
        hdr[3:6] = w.s(["dungeon", "meadow"][mi]).to_bytes(3, "little")
        struct.pack_into("<H", hdr, 21, 600)
        hdr[23:26] = bytes([1, 0, 0])
        hdr[26:29] = w.s("theme").to_bytes(3, "little")
        hdr[29] = 1
        hdr[30] = 1
        hdr[31:34] = len(r).to_bytes(3, "little")
        par = bytes([1, 0xF6, 10, 5, 0]) + struct.pack("<H", 100) + bytes([0, 0, 0])
        path = bytes([3]) + struct.pack("<H", 2) + struct.pack("<4H", 1, 1, 6, 6)
        descs.append((len(d), w.asset(z(bytes(hdr) + par + path + r), True)))
        d += struct.pack("<QII", 0, 0, w.s(name))
    w.section(S_MAPS, d, descs)
    if bad == "frames":
        # a sprite with 0 frames
        d = bytearray()
        d += struct.pack("<QI3xB", 0, 0, 1)
        w.section(S_UI, d, [(0, w.asset(z(struct.pack("<HHBB", 8, 8, 0, 0))))])
    if bad == "mapbomb":
        # a map whose asset inflates to 1 GiB (a few MiB on disk)
        c = zlib.compressobj(9)
        blob = c.compress(bytes(34)) + b"".join(c.compress(bytes(64 << 20)) for _ in range(16)) + c.flush()
        d = bytearray(struct.pack("<QII", 0, 0, w.s("abyss")))
        w.section(S_MAPS, d, [(0, w.asset(blob, True))])
    if bad == "bomb":
        d = bytearray(struct.pack("<QII", 0, 0, 0))
        w.section(S_QUESTS, d, [(0, w.asset(zlib.compress(bytes(200 << 20), 9)))])
    if gaps:
        w.gaps[3] = b"<gap after asset 3>"
        w.trailing = b"<trailing bytes>"
    return w.build(enc=enc)


def big_blob(n):
    reps = n // len(_NOISE) + 1
    return b"OggS" + (_NOISE * reps)[: n - 4]


def corrupt(out, bad):
    """Damage a good game in one of the ways the issue lists."""
    out = bytearray(out)
    n = struct.unpack_from("<I", out, 64)[0]
    comp = bytes(out[68:68 + n - 4])
    block = bytearray(inflate(comp))
    raw = not ((comp[0] & 0x0F) == 8 and ((comp[0] << 8) | comp[1]) % 31 == 0)

    def rebuild(block):
        c = deflate(bytes(block), raw)
        new = out[:64] + struct.pack("<I", len(c) + 4) + c + struct.pack("<I", zlib.crc32(bytes(block))) + out[68 + n:]
        new = bytearray(new)
        struct.pack_into("<I", new, 56, 0)
        struct.pack_into("<I", new, 56, zlib.crc32(new))
        return new
    first = struct.unpack_from("<I", block, 0)[0]
    if bad == "table":
        struct.pack_into("<I", block, 8, len(block) + 100)
        return rebuild(block)
    if bad == "assetoff":
        for i in range(first // 8):
            off, lt = struct.unpack_from("<II", block, 8 * i)
            if lt >> 24 == S_SOUNDS:
                struct.pack_into("<Q", block, off, 1 << 40)
        return rebuild(block)
    if bad == "seclen":
        for i in range(first // 8):
            off, lt = struct.unpack_from("<II", block, 8 * i)
            if lt >> 24 == S_SOUNDS:
                struct.pack_into("<I", block, 8 * i + 4, ((lt & 0xFFFFFF) - 3) | S_SOUNDS << 24)
        return rebuild(block)
    if bad == "hdrcrc":
        out[60 - 4] ^= 0x55
        return out
    if bad == "seccrc":
        out[68 + n - 1] ^= 0x55
        struct.pack_into("<I", out, 56, 0)
        struct.pack_into("<I", out, 56, zlib.crc32(out))
        return out
    if bad == "blocklen":
        struct.pack_into("<I", out, 64, len(out))
        return out
    if bad == "deflate":
        out[70:80] = b"\xff" * 10
        return out
    raise SystemExit("unknown damage " + bad)


class Reader:
    def __init__(self, data):
        self.d = data
        if data[:16] != MAGIC:
            raise ValueError("no magic")
        self.enc = struct.unpack_from("<I", data, 60)[0]
        hc = bytearray(data)
        struct.pack_into("<I", hc, 56, 0)
        self.hdr_crc_ok = zlib.crc32(hc) == struct.unpack_from("<I", data, 56)[0]
        if self.enc:
            return
        n = struct.unpack_from("<I", data, 64)[0]
        comp = data[68:68 + n - 4]
        self.raw = not ((comp[0] & 0x0F) == 8 and ((comp[0] << 8) | comp[1]) % 31 == 0)
        self.block = inflate(comp)
        crc = struct.unpack_from("<I", data, 68 + n - 4)[0]
        self.sec_crc = ("inflated" if zlib.crc32(self.block) == crc else
                        "compressed" if zlib.crc32(comp) == crc else "bad")
        self.base = 68 + n
        first = struct.unpack_from("<I", self.block, 0)[0]
        self.secs = []
        for i in range(first // 8):
            off, lt = struct.unpack_from("<II", self.block, 8 * i)
            self.secs.append((lt >> 24, self.block[off:off + (lt & 0xFFFFFF)]))
        self.strings = self.secs[0][1]

    def string(self, off):
        return self.strings[off:self.strings.index(b"\0", off)].decode()

    def items(self):
        """(key, bytes) of everything: assets by name, sections raw."""
        out = []
        counters = {}
        for si, (t, d) in enumerate(self.secs):
            if t == S_LANG:
                code = d[:2].decode()
                off, ln = struct.unpack_from("<QI", d, 2)
                out.append(("lang/%s/texts" % code, inflate(self.d[self.base + off:self.base + off + ln]) if ln else b""))
                out.append(("lang/%s/name" % code, d[14:18]))
                for p in range(18, len(d), 16):
                    off, ln, nm = struct.unpack_from("<QII", d, p)
                    out.append(("lang/%s/speech/%s" % (code, self.string(nm)), self.d[self.base + off:self.base + off + ln]))
            elif t in ASSET_TYPES:
                for p in range(0, len(d), 16):
                    off, ln, nm = struct.unpack_from("<QII", d, p)
                    k = counters.get(t, 0)
                    counters[t] = k + 1
                    blob = self.d[self.base + off:self.base + off + ln]
                    name = self.string(nm) if t in (2, 3, 4, 5, 34) else "%04d" % k
                    if t not in STORED:
                        blob = inflate(blob)
                    out.append(("%s/%s" % (KIND[t], name), blob))
                    if t in (24, 26, 31):
                        out.append(("%s/%s.field" % (KIND[t], name), d[p + 12:p + 16]))
            else:
                out.append(("sections/%02d" % t, bytes(d)))
        return out

    def map_order_ok(self):
        spans = []
        for t, d in self.secs:
            if t in ASSET_TYPES:
                for p in range(0, len(d), 16):
                    off, ln = struct.unpack_from("<QI", d, p)
                    if ln:
                        spans.append((off, t))
            elif t == S_LANG:
                for p in [2] + list(range(18, len(d), 16)):
                    off, ln = struct.unpack_from("<QI", d, p)
                    if ln:
                        spans.append((off, t))
        spans.sort()
        seen_map = False
        for off, t in spans:
            if t == S_MAPS:
                seen_map = True
            elif seen_map:
                return False
        return True


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    cmd, path = argv[1], argv[2]
    if cmd == "write":
        opts = {"raw": False, "crc_comp": False, "enc": 0, "nsounds": 3, "sound_size": 300,
                "movie_size": 900, "bad": None}
        a = argv[3:]
        i = 0
        damage = None
        while i < len(a):
            o = a[i]
            if o == "--raw":
                opts["raw"] = True
            elif o == "--crc-comp":
                opts["crc_comp"] = True
            elif o == "--dedup":
                opts["dedup"] = True
            elif o == "--unknown":
                opts["unknown"] = True
            elif o == "--gaps":
                opts["gaps"] = True
            elif o == "--full":
                opts["full"] = True
            elif o == "--short-menu":
                opts["short_menu"] = True
            elif o == "--encrypted":
                opts["enc"] = 0xDEADBEEF
            elif o in ("--sounds", "--sound-size", "--movie-size"):
                opts[{"--sounds": "nsounds", "--sound-size": "sound_size",
                      "--movie-size": "movie_size"}[o]] = int(a[i + 1])
                i += 1
            elif o == "--bad":
                if a[i + 1] in ("rle", "frames", "bomb", "mapbomb", "smallatlas"):
                    opts["bad"] = a[i + 1]
                else:
                    damage = a[i + 1]
                i += 1
            else:
                raise SystemExit("unknown option " + o)
            i += 1
        parts = game(**opts)
        if damage:
            parts = [corrupt(b"".join(parts), damage)]
        with open(path, "wb") as f:
            for p in parts:
                f.write(p)
        return 0
    data = open(path, "rb").read()
    r = Reader(data)
    if cmd == "verify":
        print("header-crc", "ok" if r.hdr_crc_ok else "bad")
        if not r.enc:
            print("section-crc", r.sec_crc)
            print("wrap", "raw" if r.raw else "zlib")
            print("maps-last", "ok" if r.map_order_ok() else "bad")
        return 0 if r.hdr_crc_ok and (r.enc or r.sec_crc != "bad") else 1
    if cmd == "dump":
        for k, v in r.items():
            print(k, len(v), hashlib.sha1(v).hexdigest())
        return 0
    if cmd == "get":
        for k, v in r.items():
            if k == argv[3]:
                sys.stdout.buffer.write(v)
                return 0
        return 1
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
