#!/usr/bin/env python3
"""village.py OUT.tng: the demo game, a small RPG village, drawn by our own code.

  village.py OUT.tng [--no-audio]

A TirNanoG game (written with tngpy.py's Writer, from the format document)
that looks like a game: 32x32 tiles drawn as grass, flowers, a sand path,
water (two frames), a stone wall, trees, a house (roof, wall, window, door)
and a bridge; a hero with walk frames in four directions (east is west
flipped by the sprite's own operation); an elder with a portrait, a dialog
and an on-click script, a wanderer with a timer script; one 16x16 map,
"village", that reads at a glance in maps/village.png and in Tiled; texts
in English and German.

Music and a sound are real Ogg Vorbis when oggenc (vorbis-tools) is
installed: a tune and a chime synthesised here as WAV and encoded by it.
Without oggenc, or with --no-audio, the game has no audio.  No font is
included: no packaged tool makes an SSFN (.sfn) font.
"""
import io
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import wave
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tngpy  # noqa: E402
from tngpy import Writer, deflate, rle, u24  # noqa: E402

T = 32                  # tile size
MS = 16                 # map side (2^4)
LAYERS = 11


# ---- pixels ------------------------------------------------------------------------------

class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray(w * h * 4)

    def put(self, x, y, c, a=255):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = (y * self.w + x) * 4
            if a == 255 or len(c) == 4:
                self.px[i:i + 4] = bytes(c[:3]) + bytes([c[3] if len(c) == 4 else a])
            else:       # blend over what is there
                for k in range(3):
                    self.px[i + k] = (self.px[i + k] * (255 - a) + c[k] * a) // 255
                self.px[i + 3] = max(self.px[i + 3], a)

    def get(self, x, y):
        i = (y * self.w + x) * 4
        return tuple(self.px[i:i + 4])

    def rect(self, x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.put(xx, yy, c)

    def disc(self, cx, cy, r, c):
        for yy in range(int(cy - r) - 1, int(cy + r) + 2):
            for xx in range(int(cx - r) - 1, int(cx + r) + 2):
                if (xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2 <= r * r:
                    self.put(xx, yy, c)

    def png(self):
        rows = b"".join(b"\0" + bytes(self.px[y * self.w * 4:(y + 1) * self.w * 4]) for y in range(self.h))

        def chunk(t, d):
            return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 6, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def shade(c, k):
    return tuple(max(0, min(255, int(v * k))) for v in c[:3])


GRASS, GRASS_D, GRASS_L = (88, 160, 62), (66, 130, 48), (120, 190, 80)
SAND, SAND_D, SAND_L = (206, 176, 120), (172, 140, 92), (228, 204, 156)
WATER, WATER_D, WATER_L = (50, 112, 204), (36, 86, 170), (140, 190, 240)
STONE, MORTAR = (140, 140, 150), (88, 88, 98)
LEAF, LEAF_D, LEAF_L, BARK = (46, 124, 46), (28, 88, 34), (86, 170, 70), (112, 72, 38)
ROOF, ROOF_D = (176, 64, 52), (120, 40, 34)
WOOD, WOOD_D, WOOD_L = (166, 116, 64), (116, 76, 40), (196, 148, 92)
OUTLINE = (30, 30, 34)


def grass(c, ox, oy, seed, flowers=False):
    r = random.Random(seed)
    c.rect(ox, oy, T, T, GRASS)
    for _ in range(70):
        x, y = r.randrange(T), r.randrange(T - 2)
        col = GRASS_D if r.random() < 0.6 else GRASS_L
        c.put(ox + x, oy + y, col)
        c.put(ox + x, oy + y + 1, col)
    if flowers:
        for fx, fy, col in ((6, 7, (250, 250, 250)), (22, 5, (250, 220, 60)), (13, 19, (230, 70, 90)),
                            (25, 24, (250, 250, 250)), (5, 26, (250, 220, 60))):
            for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
                c.put(ox + fx + dx, oy + fy + dy, col)
            c.put(ox + fx, oy + fy, (240, 180, 40))


def sand(c, ox, oy, seed):
    r = random.Random(seed)
    c.rect(ox, oy, T, T, SAND)
    for _ in range(26):
        x, y = r.randrange(1, T - 2), r.randrange(1, T - 2)
        c.rect(ox + x, oy + y, 2, 1, SAND_D)
        c.put(ox + x, oy + y - 1, SAND_L)


def water(c, ox, oy, phase):
    c.rect(ox, oy, T, T, WATER)
    for y in range(T):
        for x in range(T):
            if (x * 3 + y * 7) % 23 == 0:
                c.put(ox + x, oy + y, WATER_D)
    for wy, wx in ((5, 3), (12, 17), (20, 6), (27, 20)):
        x0 = (wx + phase * 4) % T
        for k in range(7):
            yy = wy + (1 if k in (0, 6) else 0)
            c.put(ox + (x0 + k) % T, oy + yy, WATER_L)


def wall(c, ox, oy):
    c.rect(ox, oy, T, T, MORTAR)
    for row in range(4):
        off = 0 if row % 2 == 0 else 8
        for b in range(-1, 3):
            x = b * 16 + off
            x0, x1 = max(0, x + 1), min(T, x + 15)
            if x1 <= x0:
                continue
            y = row * 8
            c.rect(ox + x0, oy + y + 1, x1 - x0, 6, STONE)
            c.rect(ox + x0, oy + y + 1, x1 - x0, 1, shade(STONE, 1.25))
            c.rect(ox + x0, oy + y + 6, x1 - x0, 1, shade(STONE, 0.8))


def tree(c, ox, oy):
    c.rect(ox + 13, oy + 20, 6, 11, BARK)
    c.rect(ox + 13, oy + 20, 2, 11, shade(BARK, 1.3))
    c.rect(ox + 11, oy + 30, 10, 2, shade(BARK, 0.7))
    c.disc(ox + 16, oy + 13, 13.5, OUTLINE)
    c.disc(ox + 16, oy + 13, 12.5, LEAF_D)
    c.disc(ox + 14.5, oy + 11.5, 10.5, LEAF)
    c.disc(ox + 12, oy + 9, 5, LEAF_L)
    r = random.Random(7)
    for _ in range(30):
        x, y = r.randrange(5, 27), r.randrange(3, 24)
        if c.get(ox + x, oy + y)[:3] in (LEAF, LEAF_L):
            c.put(ox + x, oy + y, LEAF_D)


def roof(c, ox, oy, edge):
    c.rect(ox, oy, T, T, ROOF)
    for y in range(0, T, 6):
        c.rect(ox, oy + y, T, 1, ROOF_D)
        for x in range((y // 6 % 2) * 4, T, 8):
            c.rect(ox + x, oy + y + 1, 1, 5, ROOF_D)
    if edge:            # the eaves: a dark line and a shadow at the bottom
        c.rect(ox, oy + T - 3, T, 3, shade(ROOF_D, 0.7))


def house_wall(c, ox, oy, kind):
    c.rect(ox, oy, T, T, WOOD)
    for x in range(0, T, 8):
        c.rect(ox + x, oy, 1, T, WOOD_D)
        c.rect(ox + x + 1, oy, 1, T, WOOD_L)
    c.rect(ox, oy + T - 3, T, 3, shade(STONE, 0.9))
    if kind == "door":
        c.rect(ox + 8, oy + 6, 16, 26, OUTLINE)
        c.rect(ox + 9, oy + 7, 14, 25, (96, 58, 28))
        c.rect(ox + 15, oy + 7, 2, 25, (80, 46, 20))
        c.rect(ox + 19, oy + 19, 2, 2, (230, 200, 80))
    elif kind == "window":
        c.rect(ox + 7, oy + 7, 18, 15, OUTLINE)
        c.rect(ox + 8, oy + 8, 16, 13, (150, 200, 240))
        c.rect(ox + 8, oy + 8, 6, 4, (210, 235, 250))
        c.rect(ox + 15, oy + 8, 2, 13, WOOD_D)
        c.rect(ox + 8, oy + 14, 16, 1, WOOD_D)
        c.rect(ox + 6, oy + 22, 20, 2, WOOD_D)


def bridge(c, ox, oy):
    water(c, ox, oy, 0)
    for x in range(0, T, 6):
        c.rect(ox + x, oy + 3, 5, 26, WOOD)
        c.rect(ox + x, oy + 3, 5, 1, WOOD_L)
        c.rect(ox + x + 5, oy + 3, 1, 26, WOOD_D)
    c.rect(ox, oy + 2, T, 2, shade(WOOD_D, 0.8))
    c.rect(ox, oy + 28, T, 2, shade(WOOD_D, 0.8))


def person(c, ox, oy, facing, step, kind):
    """A 32x32 character: facing south, north or west; step -1, 0 or 1 moves the legs."""
    skin, hair = (240, 200, 160), (110, 64, 30)
    body, legs = (52, 96, 190), (64, 52, 44)
    if kind == "elder":
        hair, body, legs = (220, 220, 226), (112, 62, 144), (90, 50, 120)
    cx = ox + 16
    # shadow
    for x in range(-7, 8):
        c.put(cx + x, oy + 30, (0, 0, 0), 70)
    # legs
    for side in (-1, 1):
        lx = cx + (3 if side > 0 else -5)
        dy = 0 if step == 0 else (-2 if side == step else 0)
        if facing == "west":
            lx = cx - 2 + side * step * 3
        c.rect(lx, oy + 23 + dy, 3, 7, OUTLINE)
        c.rect(lx, oy + 23 + dy, 3, 6, legs)
    # body
    c.rect(cx - 7, oy + 13, 14, 11, OUTLINE)
    c.rect(cx - 6, oy + 14, 12, 9, body)
    c.rect(cx - 6, oy + 14, 3, 9, shade(body, 1.25))
    if kind == "elder":             # a long robe
        c.rect(cx - 7, oy + 22, 14, 6, body)
        c.rect(cx - 7, oy + 27, 14, 1, OUTLINE)
    else:
        c.rect(cx - 6, oy + 21, 12, 2, (70, 50, 30))      # belt
    # arms
    swing = step * 2 if facing != "north" else -step * 2
    if facing == "west":
        c.rect(cx - 2, oy + 15 + abs(step), 4, 8, shade(body, 0.8))
    else:
        c.rect(cx - 9, oy + 15 + swing, 3, 8, shade(body, 0.8))
        c.rect(cx + 6, oy + 15 - swing, 3, 8, shade(body, 0.8))
    # head
    c.disc(cx, oy + 8, 7.5, OUTLINE)
    c.disc(cx, oy + 8, 6.5, skin)
    if facing == "north":
        c.disc(cx, oy + 8, 6.5, hair)
    else:
        c.rect(cx - 6, oy + 1, 13, 4, hair)
        if facing == "south":
            c.rect(cx - 3, oy + 8, 2, 2, OUTLINE)
            c.rect(cx + 2, oy + 8, 2, 2, OUTLINE)
            if kind == "elder":             # a beard
                c.rect(cx - 4, oy + 11, 9, 5, hair)
        else:
            c.rect(cx + 1, oy + 1, 6, 7, hair)
            c.rect(cx - 4, oy + 8, 2, 2, OUTLINE)
            c.put(cx - 7, oy + 10, skin)
    if kind == "elder":                     # the staff
        c.rect(cx + 10, oy + 4, 2, 26, BARK)
        c.disc(cx + 11, oy + 4, 2, (240, 210, 80))


def portrait(atlas, ax, ay):
    """The elder's face, 64x64, for the dialog (drawn apart: the robe is cut at its edge)."""
    c = Canvas(64, 64)
    ox = oy = 0
    c.rect(ox, oy, 64, 64, (60, 52, 80))
    c.disc(ox + 32, oy + 70, 30, (112, 62, 144))
    c.disc(ox + 32, oy + 30, 19, OUTLINE)
    c.disc(ox + 32, oy + 30, 18, (240, 200, 160))
    c.rect(ox + 14, oy + 10, 36, 8, (220, 220, 226))
    c.rect(ox + 22, oy + 27, 5, 4, OUTLINE)
    c.rect(ox + 37, oy + 27, 5, 4, OUTLINE)
    c.rect(ox + 20, oy + 24, 9, 2, (200, 200, 206))
    c.rect(ox + 35, oy + 24, 9, 2, (200, 200, 206))
    c.disc(ox + 32, oy + 45, 12, (220, 220, 226))
    c.rect(ox + 27, oy + 38, 10, 2, (160, 80, 70))
    for y in range(64):
        i = (ay + y) * atlas.w * 4 + ax * 4
        atlas.px[i:i + 64 * 4] = c.px[y * 64 * 4:(y + 1) * 64 * 4]


# ---- the atlases and sprites ---------------------------------------------------------------

# tile sprites (section 8), in order: name, atlas cells (x, y) of its frames
TILES = ["grass", "flowers", "sand", "water", "wall", "tree", "roof", "eaves", "house", "window",
         "door", "bridge"]
G, F, S, W, WL, TR, RF, EV, HS, WN, DR, BR = range(len(TILES))


def tile_atlas():
    c = Canvas(256, 256)
    cells = {}
    draw = [(G, lambda x, y: grass(c, x, y, 1)), (F, lambda x, y: grass(c, x, y, 1, True)),
            (S, lambda x, y: sand(c, x, y, 2)), (W, lambda x, y: water(c, x, y, 0)),
            (WL, lambda x, y: wall(c, x, y)), (TR, lambda x, y: tree(c, x, y)),
            (RF, lambda x, y: roof(c, x, y, False)), (EV, lambda x, y: roof(c, x, y, True)),
            (HS, lambda x, y: house_wall(c, x, y, "plain")), (WN, lambda x, y: house_wall(c, x, y, "window")),
            (DR, lambda x, y: house_wall(c, x, y, "door")), (BR, lambda x, y: bridge(c, x, y))]
    for k, fn in draw:
        x, y = (k % 8) * T, (k // 8) * T
        fn(x, y)
        cells[k] = [(x, y)]
    x, y = 4 * T, 2 * T         # water's second frame
    water(c, x, y, 1)
    cells[W].append((x, y))
    return c.png(), cells


def char_atlas():
    """Atlas 1: the hero (rows south, west, north; columns stand, step, other step), the elder, a portrait."""
    c = Canvas(256, 256)
    for row, facing in enumerate(("south", "west", "north")):
        for col, step in enumerate((0, -1, 1)):
            person(c, col * T, row * T, facing, step, "hero")
    person(c, 4 * T, 0, "south", 0, "elder")
    person(c, 5 * T, 0, "south", 0, "elder")
    # the elder's second frame: the staff's light glows
    c.disc(5 * T + 27, 4, 3, (255, 240, 150))
    portrait(c, 0, 4 * T)
    return c.png()


def sprite_rec(dirs):
    """dirs: [(dir, loop, w, h, [(atlas, op, x, y, w, h, left, top)])]"""
    out = b""
    for d, loop, w, h, frames in dirs:
        out += struct.pack("<HHBB", w, h, d | loop << 6, len(frames))
        for atlas, op, x, y, fw, fh, left, top in frames:
            out += struct.pack("<7H", atlas | op << 12, x, y, fw, fh, left, top)
    return out


# ---- audio ---------------------------------------------------------------------------------

def wav(samples, rate, channels):
    b = io.BytesIO()
    with wave.open(b, "wb") as wv:
        wv.setnchannels(channels)
        wv.setsampwidth(2)
        wv.setframerate(rate)
        wv.writeframes(b"".join(struct.pack("<h", max(-32767, min(32767, int(s * 32767)))) for s in samples))
    return b.getvalue()


def tune(rate=44100):
    """A village tune: a pentatonic melody over a drone, 8 s, stereo."""
    notes = [67, 69, 72, 74, 76, 74, 72, 69, 67, 72, 74, 76, 79, 76, 74, 72]
    beat = 0.5
    out = []
    for i in range(int(len(notes) * beat * rate)):
        t = i / rate
        n = notes[int(t / beat)]
        tb = t % beat
        f = 440 * 2 ** ((n - 69) / 12)
        env = min(1, tb * 40) * math.exp(-tb * 3)
        mel = env * (2 * abs(2 * ((t * f) % 1) - 1) - 1) * 0.3
        drone = 0.12 * math.sin(2 * math.pi * 110 * t) * (0.6 + 0.4 * math.sin(2 * math.pi * 0.25 * t))
        out += [mel + drone, mel * 0.8 + drone]
    return wav(out, rate, 2)


def chime(rate=44100):
    out = []
    for i in range(int(0.6 * rate)):
        t = i / rate
        out.append(0.4 * math.exp(-t * 6) * (math.sin(2 * math.pi * 880 * t) + 0.5 * math.sin(2 * math.pi * 1320 * t)))
    return wav(out, rate, 1)


def vorbis(wavbytes):
    """Ogg Vorbis of a WAV by oggenc, or None without it."""
    exe = shutil.which("oggenc")
    if not exe:
        return None
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.wav"), os.path.join(d, "out.ogg")
        with open(src, "wb") as f:
            f.write(wavbytes)
        subprocess.run([exe, "-Q", "-q", "3", "--serial", "31", "-o", dst, src], check=True)
        with open(dst, "rb") as f:
            return f.read()


# ---- the game ------------------------------------------------------------------------------

TEXTS = {
    "en": ["Meadowbrook", "English", "Elder Rowan",
           "Welcome to Meadowbrook, traveller! The bridge to the east leads to the old forest.",
           "Thank you, I will be careful.", "Tell me about the forest.", "Wanderer", "The Village"],
    "de": ["Wiesenbach", "Deutsch", "Ältester Rowan",
           "Willkommen in Wiesenbach, Reisender! Die Brücke im Osten führt zum alten Wald.",
           "Danke, ich passe auf.", "Erzähl mir vom Wald.", "Wanderer", "Das Dorf"],
}


def village_map():
    """Layer 0 the ground, 1 what stands on it, 5 the NPCs; -1 (0xffff) empty."""
    ground = [[G] * MS for _ in range(MS)]
    things = [[0xFFFF] * MS for _ in range(MS)]
    npcs = [[0xFFFF] * MS for _ in range(MS)]
    r = random.Random(5)
    for y in range(MS):
        for x in range(MS):
            if r.random() < 0.12:
                ground[y][x] = F
    river = {y: 11 + (1 if 5 <= y <= 10 else 0) + (1 if y >= 13 else 0) for y in range(MS)}
    for y, x in river.items():
        ground[y][x] = ground[y][x + 1] = W
    for x in range(MS):                 # the road, west to east over the bridge
        ground[8][x] = BR if ground[8][x] == W else S
    for y in range(5, 8):               # to the house's door
        ground[y][5] = S
    for x in range(2, 10):              # the square before the house
        ground[9][x] = S if x in (4, 5, 6) else ground[9][x]
    # the house: a roof over eaves over its front wall
    for x in range(3, 8):
        things[2][x] = RF
        things[3][x] = EV
        things[4][x] = HS
    things[4][4], things[4][5], things[4][6] = WN, DR, WN
    ground[4][5] = S
    # a garden wall
    for x in range(1, 9):
        things[12][x] = WL
    things[12][5] = 0xFFFF
    ground[12][5] = S
    for y in range(10, 12):
        ground[y][5] = S
    # trees: the north edge, the forest across the river, a few in the village
    for x in range(MS):
        if x not in river.values() and x - 1 not in (river[0],) and x % 2 == 0:
            things[0][x] = TR
    for y in range(MS):
        for x in range(river[y] + 2, MS):
            if y not in (7, 8, 9) and (x + y) % 2 == 0 and (x * 5 + y * 3) % 7:
                things[y][x] = TR
    for x, y in ((1, 3), (9, 2), (1, 10), (9, 10), (8, 14), (2, 14)):
        things[y][x] = TR
    npcs[7][7] = 0      # the elder, beside the path to his house
    npcs[8][2] = 1      # the wanderer on the road
    cells = []
    for k in range(LAYERS):
        grid = ground if k == 0 else things if k == 1 else npcs if k == 5 else None
        for y in range(MS):
            for x in range(MS):
                cells.append(grid[y][x] if grid else 0xFFFF)
    return cells


def game(audio=True):
    w = Writer(raw=False, crc_comp=False)
    z = lambda b: deflate(b, False)
    for code, tx in TEXTS.items():
        d = bytearray(code.encode()) + struct.pack("<QII", 0, 0, 1)
        w.section(tngpy.S_LANG, d, [(2, w.asset(z(b"".join(t.encode() + b"\0" for t in tx))))])

    def media(type_, items):
        d = bytearray()
        descs = []
        for name, blob in items:
            descs.append((len(d), w.asset(blob)))
            d += struct.pack("<QII", 0, 0, w.s(name) if name else 0)
        w.section(type_, d, descs)
    theme = vorbis(tune()) if audio else None
    bell = vorbis(chime()) if audio else None
    if theme:
        media(tngpy.S_MUSIC, [("village_theme", theme)])
    if bell:
        media(tngpy.S_SOUNDS, [("chime", bell)])
    tiles_png, cells = tile_atlas()
    media(tngpy.S_ATLASES, [(None, tiles_png), (None, char_atlas())])

    def sprites(type_, recs):
        d = bytearray()
        descs = []
        for dirs, blob in recs:
            descs.append((len(d), w.asset(z(blob))))
            d += struct.pack("<QI3xB", 0, 0, dirs)
        w.section(type_, d, descs)
    tile_recs = []
    for k in range(len(TILES)):
        frames = [(0, 0, x, y, T, T, 0, 0) for x, y in cells[k]]
        tile_recs.append((1, sprite_rec([(0, 2, T, T, frames)])))
    sprites(tngpy.S_TILES, tile_recs)
    # the hero: south, west, north from the atlas, east = west flipped; stand, step, stand, other step
    hero = []
    for d, row, op in ((0, 0, 0), (2, 1, 0), (4, 2, 0), (6, 1, 2)):
        frames = [(1, op, col * T, row * T, T, T, 0, 0) for col in (0, 1, 0, 2)]
        hero.append((d, 2, T, T, frames))
    elder = [(0, 1, T, T, [(1, 0, 4 * T, 0, T, T, 0, 0), (1, 0, 5 * T, 0, T, T, 0, 0)])]
    sprites(tngpy.S_CHARS, [(4, sprite_rec(hero)), (1, sprite_rec(elder))])
    sprites(tngpy.S_PORTRAITS, [(1, sprite_rec([(0, 0, 64, 64, [(1, 0, 0, 4 * T, 64, 64, 0, 0)])]))])
    # the elder talks when clicked; the wanderer turns south every second
    say = bytes([48]) + u24(w.s("welcome")) + bytes([38, 0, 0, 6, 12, 0])   # PUSHDLG; PUSH16 0; FNC2 dialog; END
    elder_npc = (u24(2) + bytes([0]) + struct.pack("<HH", 100, 0) + bytes([0, 0, 0, 2, 1]) +
                 bytes([2]) + struct.pack("<H", 1) + bytes([3]) + struct.pack("<H", 0) +
                 bytes([0]) + u24(0) + u24(len(say)) + say)
    turn = bytes([37, 1, 5, 21, 0])                                          # PUSH8 1; FNC1 south; END
    wanderer = (u24(6) + bytes([1]) + struct.pack("<HH", 100, 200) + bytes([0, 0, 0, 1, 1]) +
                bytes([2]) + struct.pack("<H", 0) + bytes([16]) + u24(1) + u24(len(turn)) + turn)
    answer = lambda text: u24(0) + bytes([0]) + struct.pack("<i", 0) + u24(0) + struct.pack("<i", 0) + u24(0) + u24(text)
    dialog = u24(2) + u24(3) + u24(0xFFFFFF) + bytes([3]) + struct.pack("<H", 0) + bytes([1, 2]) + answer(4) + answer(5)
    for type_, recs in ((tngpy.S_NPCS, [("elder", elder_npc), ("wanderer", wanderer)]),
                        (tngpy.S_DIALOGS, [("welcome", dialog)])):
        d = bytearray()
        descs = []
        for name, blob in recs:
            descs.append((len(d), w.asset(z(blob))))
            d += struct.pack("<QII", 0, 0, w.s(name))
        w.section(type_, d, descs)
    # the map: title text 7, no neighbours, 10 minutes of daylight, the theme
    hdr = bytearray(34)
    hdr[0:3] = u24(7)
    struct.pack_into("<H", hdr, 21, 10)
    hdr[23:26] = bytes([0xFF, 0xFF, 0xFF])
    hdr[26:29] = u24(w.s("village_theme") if theme else 0)
    r = rle(village_map())
    hdr[31:34] = len(r).to_bytes(3, "little")
    w.section(tngpy.S_MAPS, struct.pack("<QII", 0, 0, w.s("village")),
              [(0, w.asset(z(bytes(hdr) + r), True))])
    # top-down, 32x32 tiles, 16x16 maps, 256x256 atlases
    parts = w.build(hdr_extra={33: 0, 34: T, 35: T, 36: 4, 37: 8})
    out = bytearray(b"".join(parts))
    out[16:32] = b"meadowbrook".ljust(16, b"\0")
    struct.pack_into("<I", out, 56, 0)
    struct.pack_into("<I", out, 56, zlib.crc32(out))
    return bytes(out), bool(theme)


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__)
        return 2
    data, audio = game(audio="--no-audio" not in argv[2:])
    with open(argv[1], "wb") as f:
        f.write(data)
    if not audio:
        print("village.py: no oggenc (vorbis-tools): the demo has no music or sound", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
