/*
 * zzt_png.c - board.png: a board drawn as its engine draws it, one cell of
 * the 8x14 code page 437 font a tile in the 16 CGA colours (ZZT's 60x25:
 * 480x350; Super ZZT's 96x80, all of it, not the part its view scrolls to:
 * 768x1120).
 *
 * BoardDrawTile, the same in both engines, with each engine's element
 * table (zzt_engine.c): an empty tile is a blank in colour 0x0f; an element
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

#define ZZT_E_BOARD_EDGE	1
#define ZZT_GLYPH_W	8
#define ZZT_GLYPH_H	14
#define ZZT_NO_STAT_AT	0xffff

/* Line walls: indexed by the joined neighbours, north 1, south 2, west 4, east 8. */
static const uint8_t zzt_line_chars[16] = {
	0xf9, 0xd0, 0xd2, 0xba, 0xb5, 0xbc, 0xbb, 0xb9,
	0xc6, 0xc8, 0xc9, 0xcc, 0xcd, 0xca, 0xcb, 0xce,
};

/* Super ZZT's webs, the same way (SUPERZ.EXE's table, as Roton ships it). */
static const uint8_t zzt_web_chars[16] = {
	0xfa, 0xb3, 0xb3, 0xb3, 0xc4, 0xd9, 0xbf, 0xb4,
	0xc4, 0xc0, 0xda, 0xc3, 0xc4, 0xc1, 0xc2, 0xc5,
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
static void zzt_draw_cell(uint8_t *img, size_t pw, const uint64_t *spread, int cx, int cy,
			  uint8_t ch, uint8_t col)
{
	uint64_t fg = (uint64_t)(col & 0x0f) * 0x0101010101010101ull;
	uint64_t bg = (uint64_t)((col >> 4) & 0x07) * 0x0101010101010101ull;

	for (int y = 0; y < ZZT_GLYPH_H; y++) {
		uint64_t px = bg ^ ((fg ^ bg) & spread[zzt_font[ch][y]]);

		memcpy(img + ((size_t)cy * ZZT_GLYPH_H + (size_t)y) * pw +
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

/*
 * The neighbours that join: element id and the board edge (off the board
 * too); in Super ZZT also what the stat of an element with a cycle there
 * stands on (statat: the first stat of each tile; none there: no join).
 */
static unsigned zzt_joins(const struct zzt_board *b, const uint16_t *statat, uint8_t id, int x, int y)
{
	static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };
	const struct zzt_engine *en = b->eng;
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		int nx = x + dx[i], ny = y + dy[i];
		size_t t = (size_t)ny * en->w + (size_t)nx;
		uint8_t e = nx < 0 || ny < 0 || nx >= (int)en->w || ny >= (int)en->h ? ZZT_E_BOARD_EDGE
										     : b->elem[t];

		if (e != id && e != ZZT_E_BOARD_EDGE && en->joins_under && e < en->nelems &&
		    en->joins_under[e] && statat[t] != ZZT_NO_STAT_AT)
			e = b->stats[statat[t]].rec[ZZT_S_UNDER_ID];
		if (e == id || e == ZZT_E_BOARD_EDGE)
			v |= 1u << i;
	}
	return v;
}

/*
 * The character an element with a draw procedure shows, from its stat
 * (rec: the first stat on the tile, NULL if none), at tick 0.  The engine
 * reads memory before its stat list for a tile without a stat: the default
 * character is drawn then.
 */
static uint8_t zzt_special_char(const struct zzt_board *b, const uint16_t *statat, uint8_t e,
				const uint8_t *rec, int x, int y)
{
	const uint8_t *dflt = b->eng->elem_char;
	int step;

	switch (b->eng->draw[e]) {
	case ZZT_D_LINE:
		return zzt_line_chars[zzt_joins(b, statat, e, x, y)];
	case ZZT_D_WEB:
		return zzt_web_chars[zzt_joins(b, statat, e, x, y)];
	case ZZT_D_STAR:			/* frames: vertical, /, horizontal, \ */
	case ZZT_D_CW:
		return 0xb3;
	case ZZT_D_CCW:				/* the reverse order, from \ */
		return '\\';
	case ZZT_D_GUN:				/* up for ticks 0-1, then right, down, left */
		return 0x18;
	case ZZT_D_BLINK:
		return 0xce;
	case ZZT_D_DRAGON:			/* ticks 0 and 2; then 0xa2, 0x95 */
		return 0x94;
	}
	if (!rec)
		return dflt[e];
	switch (b->eng->draw[e]) {
	case ZZT_D_OBJECT:
		return rec[ZZT_S_P1];
	case ZZT_D_BOMB:
		return rec[ZZT_S_P1] <= 1 ? 0x0b : (uint8_t)('0' + rec[ZZT_S_P1]);
	case ZZT_D_DUP: {
		static const uint8_t rate[6] = { 0xfa, 0xfa, 0xf9, 0xf8, 'o', 'O' };

		return rec[ZZT_S_P1] <= 5 ? rate[rec[ZZT_S_P1]] : 0xfa;
	}
	case ZZT_D_PUSHER:
		if ((int16_t)gfs_le16(rec + ZZT_S_STEPX) == 1)
			return 0x10;
		if ((int16_t)gfs_le16(rec + ZZT_S_STEPX) == -1)
			return 0x11;
		return (int16_t)gfs_le16(rec + ZZT_S_STEPY) == -1 ? 0x1e : 0x1f;
	case ZZT_D_TRANSPORTER:
		step = (int16_t)gfs_le16(rec + ZZT_S_STEPX);
		if (step == 0) {
			step = (int16_t)gfs_le16(rec + ZZT_S_STEPY) * 2 + 2;
			return step >= 0 && step < 8 ? zzt_transporter_ns[step] : dflt[e];
		}
		step = step * 2 + 2;
		return step >= 0 && step < 8 ? zzt_transporter_we[step] : dflt[e];
	}
	return dflt[e];
}

int zzt_render_png(struct zzt_board *b, struct gfs_buf *out)
{
	const struct zzt_engine *en = b->eng;
	size_t pw = (size_t)en->w * ZZT_GLYPH_W, ph = (size_t)en->h * ZZT_GLYPH_H;
	uint16_t *statat;
	uint8_t *img;
	uint64_t spread[256];
	int x, y, r;
	size_t i;

	img = malloc(pw * ph + en->tiles * sizeof(*statat));
	if (!img)
		return -ENOMEM;
	statat = (uint16_t *)(void *)(img + pw * ph);	/* pw * ph is even */
	zzt_spread_init(spread);
	/* the engine's GetStatIdAt: the first stat on a tile */
	memset(statat, 0xff, en->tiles * sizeof(*statat));
	for (i = b->nstats; i-- > 0;) {
		const uint8_t *rec = b->stats[i].rec;
		unsigned sx = rec[ZZT_S_X], sy = rec[ZZT_S_Y];

		if (sx >= 1 && sx <= en->w && sy >= 1 && sy <= en->h && i < ZZT_NO_STAT_AT)
			statat[(sy - 1) * en->w + (sx - 1)] = (uint16_t)i;
	}
	for (y = 0; y < (int)en->h; y++) {
		for (x = 0; x < (int)en->w; x++) {
			size_t t = (size_t)y * en->w + (size_t)x;
			uint8_t e = b->elem[t], col = b->color[t], ch;

			if (e >= en->nelems) {
				ch = '?';	/* not in the engine's table: its default draw procedure's */
			} else if (en->draw[e] == ZZT_D_EMPTY) {
				ch = ' ';
				col = 0x0f;
			} else if (en->draw[e] == ZZT_D_TEXT) {
				ch = col;
				col = e == en->text_white ? 0x0f
							  : (uint8_t)(((e - en->text_min + 1) << 4) | 0x0f);
			} else {
				ch = zzt_special_char(b, statat, e, statat[t] == ZZT_NO_STAT_AT ? NULL
						      : b->stats[statat[t]].rec, x, y);
			}
			zzt_draw_cell(img, pw, spread, x, y, ch, col);
		}
	}
	r = gfs_png_encode_indexed(img, (unsigned)pw, (unsigned)ph, &zzt_palette[0][0], 16, out);
	free(img);
	return r;
}
