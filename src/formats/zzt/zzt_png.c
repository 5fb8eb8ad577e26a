/*
 * zzt_png.c - board.png: a board drawn as ZZT draws it, 60x25 cells of the
 * 8x14 code page 437 font in the 16 CGA colours (480x350).
 *
 * ZZT's BoardDrawTile: an empty tile is a blank in colour 0x0f; an element
 * with a draw procedure picks its character from its stat or its
 * neighbours (the table below); text elements draw the character held in
 * their colour byte, white on the text's colour; every other element draws
 * its default character in the tile's colour.  Animated elements are drawn
 * as at game tick 0.  Colour bit 7 (blink) is ignored: the background is
 * bits 4-6, as on a CGA/EGA screen with blinking on.  The board is drawn lit
 * (as the editor shows it), whatever its dark flag.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats/zzt/zzt.h"

enum {
	ZZT_E_EMPTY = 0, ZZT_E_BOARD_EDGE = 1, ZZT_E_DUPLICATOR = 12, ZZT_E_BOMB = 13,
	ZZT_E_STAR = 15, ZZT_E_CONVEYOR_CW = 16, ZZT_E_CONVEYOR_CCW = 17,
	ZZT_E_BLINK_WALL = 29, ZZT_E_TRANSPORTER = 30, ZZT_E_LINE = 31, ZZT_E_OBJECT = 36,
	ZZT_E_SPINNING_GUN = 39, ZZT_E_PUSHER = 40, ZZT_E_TEXT_BLUE = 47, ZZT_E_TEXT_WHITE = 53
};
#define ZZT_GLYPH_W	8
#define ZZT_GLYPH_H	14
#define ZZT_NO_STAT_AT	0xffff

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

/* Line walls: indexed by the joined neighbours, north 1, south 2, west 4, east 8. */
static const uint8_t zzt_line_chars[16] = {
	0xf9, 0xd0, 0xd2, 0xba, 0xb5, 0xbc, 0xbb, 0xb9,
	0xc6, 0xc8, 0xc9, 0xcc, 0xcd, 0xca, 0xcb, 0xce,
};

/* Transporter frames: StepY (StepX) * 2 + 3 + frame, 1-based; frame 0 here. */
static const uint8_t zzt_transporter_ns[8] = { '^', '~', '^', '-', 'v', '_', 'v', '-' };
static const uint8_t zzt_transporter_we[8] = { '(', '<', '(', 0xb3, ')', '>', ')', 0xb3 };

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

/* the joined neighbours of a line wall: other lines and the board edge */
static uint8_t zzt_line_char(const uint8_t *elem, int x, int y)
{
	static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		int nx = x + dx[i], ny = y + dy[i];
		uint8_t e = nx < 0 || ny < 0 || nx >= ZZT_W || ny >= ZZT_H ? ZZT_E_BOARD_EDGE
									  : elem[ny * ZZT_W + nx];

		if (e == ZZT_E_LINE || e == ZZT_E_BOARD_EDGE)
			v |= 1u << i;
	}
	return zzt_line_chars[v];
}

/*
 * The character an element with a draw procedure shows, from its stat
 * (rec: the first stat on the tile, NULL if none), at tick 0.  ZZT reads
 * memory before its stat list for a tile without a stat: the default
 * character is drawn then.
 */
static uint8_t zzt_special_char(uint8_t e, const uint8_t *rec, const uint8_t *elem, int x, int y)
{
	int step;

	switch (e) {
	case ZZT_E_LINE:
		return zzt_line_char(elem, x, y);
	case ZZT_E_STAR:			/* frames: vertical, /, horizontal, \ */
	case ZZT_E_CONVEYOR_CW:
		return 0xb3;
	case ZZT_E_CONVEYOR_CCW:		/* the reverse order, from \ */
		return '\\';
	case ZZT_E_SPINNING_GUN:		/* up for ticks 0-1, then right, down, left */
		return 0x18;
	case ZZT_E_BLINK_WALL:
		return 0xce;
	}
	if (!rec)
		return zzt_elem_char[e];
	switch (e) {
	case ZZT_E_OBJECT:
		return rec[ZZT_S_P1];
	case ZZT_E_BOMB:
		return rec[ZZT_S_P1] <= 1 ? 0x0b : (uint8_t)('0' + rec[ZZT_S_P1]);
	case ZZT_E_DUPLICATOR: {
		static const uint8_t rate[6] = { 0xfa, 0xfa, 0xf9, 0xf8, 'o', 'O' };

		return rec[ZZT_S_P1] <= 5 ? rate[rec[ZZT_S_P1]] : 0xfa;
	}
	case ZZT_E_PUSHER:
		if ((int16_t)gfs_le16(rec + ZZT_S_STEPX) == 1)
			return 0x10;
		if ((int16_t)gfs_le16(rec + ZZT_S_STEPX) == -1)
			return 0x11;
		return (int16_t)gfs_le16(rec + ZZT_S_STEPY) == -1 ? 0x1e : 0x1f;
	case ZZT_E_TRANSPORTER:
		step = (int16_t)gfs_le16(rec + ZZT_S_STEPX);
		if (step == 0) {
			step = (int16_t)gfs_le16(rec + ZZT_S_STEPY) * 2 + 2;
			return step >= 0 && step < 8 ? zzt_transporter_ns[step] : zzt_elem_char[e];
		}
		step = step * 2 + 2;
		return step >= 0 && step < 8 ? zzt_transporter_we[step] : zzt_elem_char[e];
	}
	return zzt_elem_char[e];
}

int zzt_render_png(struct zzt_board *b, struct gfs_buf *out)
{
	uint16_t statat[ZZT_TILES];
	uint8_t *img;
	uint64_t spread[256];
	int x, y, r;
	size_t i;

	img = malloc((size_t)ZZT_PNG_W * ZZT_PNG_H);
	if (!img)
		return -ENOMEM;
	zzt_spread_init(spread);
	/* ZZT's GetStatIdAt: the first stat on a tile */
	memset(statat, 0xff, sizeof(statat));
	for (i = b->nstats; i-- > 0;) {
		const uint8_t *rec = b->stats[i].rec;
		int sx = rec[ZZT_S_X], sy = rec[ZZT_S_Y];

		if (sx >= 1 && sx <= ZZT_W && sy >= 1 && sy <= ZZT_H && i < ZZT_NO_STAT_AT)
			statat[(sy - 1) * ZZT_W + (sx - 1)] = (uint16_t)i;
	}
	for (y = 0; y < ZZT_H; y++) {
		for (x = 0; x < ZZT_W; x++) {
			size_t t = (size_t)y * ZZT_W + (size_t)x;
			uint8_t e = b->elem[t], col = b->color[t], ch;

			if (e == ZZT_E_EMPTY) {
				ch = ' ';
				col = 0x0f;
			} else if (e < ZZT_E_TEXT_BLUE) {
				ch = zzt_special_char(e, statat[t] == ZZT_NO_STAT_AT ? NULL
						      : b->stats[statat[t]].rec, b->elem, x, y);
			} else if (e <= ZZT_E_TEXT_WHITE) {
				ch = col;
				col = e == ZZT_E_TEXT_WHITE ? 0x0f
							    : (uint8_t)(((e - ZZT_E_TEXT_BLUE + 1) << 4) | 0x0f);
			} else {
				ch = '?';	/* not in ZZT's table: its default draw procedure's */
			}
			zzt_draw_cell(img, spread, x, y, ch, col);
		}
	}
	r = gfs_png_encode_indexed(img, ZZT_PNG_W, ZZT_PNG_H, &zzt_palette[0][0], 16, out);
	free(img);
	return r;
}
