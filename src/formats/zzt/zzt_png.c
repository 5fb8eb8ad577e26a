/*
 * zzt_png.c - board.png: a board drawn as the ZZT editor shows it, 60x25
 * cells of the 8x14 code page 437 font in the 16 CGA colours (480x350).
 *
 * Each tile is drawn with its element's default character and the tile's
 * colour, except: empty tiles are black; text elements draw the character
 * held in the colour byte, white on the text's colour; objects draw their
 * stat's P1 character.  Colour bit 7 (blink) is ignored: the background is
 * bits 4-6, as on a CGA/EGA screen with blinking on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats/zzt/zzt.h"

#define ZZT_E_EMPTY	0
#define ZZT_E_PLAYER	4
#define ZZT_E_OBJECT	36
#define ZZT_E_TEXT_BLUE	47
#define ZZT_E_TEXT_LAST	53
#define ZZT_NELEMS	54
#define ZZT_GLYPH_W	8
#define ZZT_GLYPH_H	14

/* Default character of each element (the spec's element table). */
static const uint8_t zzt_elem_char[ZZT_NELEMS] = {
	0x20, 0x20, 0x20, 0x20, 0x02, 0x84, 0x9d, 0x04,	/* 0-7 */
	0x0c, 0x0a, 0xe8, 0xf0, 0xfa, 0x0b, 0x7f, 0x53,	/* 8-15 */
	0x2f, 0x5c, 0xf8, 0xb0, 0xb0, 0xdb, 0xb2, 0xb1,	/* 16-23 */
	0xfe, 0x12, 0x1d, 0xb2, 0xb0, 0xce, 0xc5, 0xce,	/* 24-31 */
	0x2a, 0xcd, 0x99, 0x05, 0x02, 0x2a, 0x5e, 0x18,	/* 32-39 */
	0x10, 0xea, 0xe3, 0xba, 0xe9, 0x4f, 0x20, 0x20,	/* 40-47 */
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20,		/* 48-53 */
};

static const uint8_t zzt_palette[16][3] = {
	{ 0x00, 0x00, 0x00 }, { 0x00, 0x00, 0xaa }, { 0x00, 0xaa, 0x00 }, { 0x00, 0xaa, 0xaa },
	{ 0xaa, 0x00, 0x00 }, { 0xaa, 0x00, 0xaa }, { 0xaa, 0x55, 0x00 }, { 0xaa, 0xaa, 0xaa },
	{ 0x55, 0x55, 0x55 }, { 0x55, 0x55, 0xff }, { 0x55, 0xff, 0x55 }, { 0x55, 0xff, 0xff },
	{ 0xff, 0x55, 0x55 }, { 0xff, 0x55, 0xff }, { 0xff, 0xff, 0x55 }, { 0xff, 0xff, 0xff },
};

/*
 * One cell into the index image: a pixel is its palette index (0-15).  A
 * glyph row of 8 pixels is one 64-bit blend of the two colours through
 * spread[bits], the row's bits as 0x00/0xff bytes, leftmost pixel first.
 */
static void zzt_draw_cell(uint8_t *img, const uint64_t *spread, int cx, int cy, uint8_t ch,
			  uint8_t col)
{
	uint64_t fg = (uint64_t)(col & 0x0f) * 0x0101010101010101ull;
	uint64_t bg = (uint64_t)((col >> 4) & 0x07) * 0x0101010101010101ull;

	for (int y = 0; y < ZZT_GLYPH_H; y++) {
		uint64_t px = bg ^ ((fg ^ bg) & spread[zzt_font[ch][y]]);

		memcpy(img + ((size_t)cy * ZZT_GLYPH_H + (size_t)y) * ZZT_PNG_W +
			     (size_t)cx * ZZT_GLYPH_W, &px, 8);
	}
}

/* spread[b]: byte k (in memory order) is 0xff when bit 0x80 >> k of b is set */
static void zzt_spread_init(uint64_t *spread)
{
	for (unsigned b = 0; b < 256; b++) {
		uint8_t bytes[8];

		for (int k = 0; k < 8; k++)
			bytes[k] = b & (0x80u >> k) ? 0xff : 0;
		memcpy(&spread[b], bytes, 8);
	}
}

int zzt_render_png(struct zzt_board *b, struct gfs_buf *out)
{
	uint8_t *img, objchar[ZZT_TILES];
	uint64_t spread[256];
	int x, y, r;
	size_t i;

	img = malloc((size_t)ZZT_PNG_W * ZZT_PNG_H);
	if (!img)
		return -ENOMEM;
	zzt_spread_init(spread);
	memset(objchar, zzt_elem_char[ZZT_E_OBJECT], sizeof(objchar));
	for (i = 0; i < b->nstats; i++) {
		const uint8_t *rec = b->stats[i].rec;
		int sx = rec[ZZT_S_X], sy = rec[ZZT_S_Y];

		if (sx >= 1 && sx <= ZZT_W && sy >= 1 && sy <= ZZT_H)
			objchar[(sy - 1) * ZZT_W + (sx - 1)] = rec[ZZT_S_P1];
	}
	for (y = 0; y < ZZT_H; y++) {
		for (x = 0; x < ZZT_W; x++) {
			size_t t = (size_t)y * ZZT_W + (size_t)x;
			uint8_t e = b->elem[t], col = b->color[t], ch;

			if (e == ZZT_E_EMPTY) {
				ch = ' ';
				col = 0x0f;
			} else if (e >= ZZT_E_TEXT_BLUE && e <= ZZT_E_TEXT_LAST) {
				ch = col;
				col = e == ZZT_E_TEXT_LAST ? 0x0f
							   : (uint8_t)(((e - ZZT_E_TEXT_BLUE + 1) << 4) | 0x0f);
			} else if (e == ZZT_E_OBJECT) {
				ch = objchar[t];
			} else if (e < ZZT_NELEMS) {
				ch = zzt_elem_char[e];
			} else {
				ch = '?';
			}
			zzt_draw_cell(img, spread, x, y, ch, col);
		}
	}
	r = gfs_png_encode_indexed(img, ZZT_PNG_W, ZZT_PNG_H, &zzt_palette[0][0], 16, out);
	free(img);
	return r;
}
