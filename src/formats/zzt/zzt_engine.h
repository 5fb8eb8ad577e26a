/*
 * zzt_engine.h - what differs between ZZT and Super ZZT, for the one driver
 * that reads both (zzt_engine.c holds the two descriptions).
 *
 * Both engines share the file's shape (a header, then boards each behind a
 * 16-bit size: name, RLE tiles, board info ending in the stat count, stat
 * records each followed by its code) and the stat record's first 25 bytes.
 * They differ in the header's size and fields, the board's grid, name
 * length and info, the stat record's padding, the element table and the
 * limits; a board knows its engine (b->eng), the codec and the views ask it.
 */
#ifndef GFS_ZZT_ENGINE_H
#define GFS_ZZT_ENGINE_H

#include <stddef.h>
#include <stdint.h>

struct gfs_record;
struct gfs_field;
struct gfs_table;

/* The largest of each engine-sized piece: the fixed buffers of the model. */
#define ZZT_HDR_MAX		1024	/* Super ZZT's header */
#define ZZT_B_NAME_LEN_MAX	61	/* Super ZZT: length + 60 */
#define ZZT_P_SIZE_MAX		88	/* ZZT's board info */
#define ZZT_S_SIZE_MAX		33	/* ZZT's stat record (25 + 8 padding) */
#define ZZT_TILES_MAX		(96 * 80)

/* How board.png draws an element (a draw procedure of the engine, or none). */
enum zzt_draw {
	ZZT_D_CHAR = 0,		/* its default character in the tile's colour */
	ZZT_D_EMPTY,		/* a blank in colour 0x0f */
	ZZT_D_LINE,		/* joins lines and the board edge */
	ZZT_D_WEB,		/* Super ZZT: joins webs and the board edge */
	ZZT_D_STAR,		/* spins: | at tick 0 */
	ZZT_D_CW, ZZT_D_CCW,	/* conveyors at tick 0 */
	ZZT_D_GUN,		/* spinning gun: up at tick 0 */
	ZZT_D_BLINK,		/* blink wall */
	ZZT_D_OBJECT,		/* its stat's P1 */
	ZZT_D_BOMB,		/* its stat's countdown */
	ZZT_D_DUP,		/* duplicator: its rate */
	ZZT_D_PUSHER,		/* its direction */
	ZZT_D_TRANSPORTER,	/* its direction */
	ZZT_D_DRAGON,		/* Super ZZT dragon pup at tick 0 */
	ZZT_D_TEXT,		/* the colour byte is the character */
};

struct zzt_engine {
	const char *name;		/* "ZZT", "Super ZZT" */
	int type;			/* the header's first word: -1, -2 */
	size_t hdr_size;		/* 512, 1024 */
	size_t h_name, h_saved;		/* world name (length byte), saved-game flag */
	unsigned w, h, tiles;		/* the board grid */
	size_t name_len, name_max;	/* board name field (length byte + characters) */
	size_t p_size, p_exits;		/* board info: size, the exits */
	size_t s_size;			/* stat record */
	unsigned nelems;		/* element ids 0 .. nelems - 1 */
	unsigned text_min, text_white;	/* text elements */
	unsigned boards_max;		/* boards a world holds */
	unsigned stats_max;		/* stats a board holds, the player included */
	unsigned board_engine_max;	/* bytes of a board the game itself loads */
	const uint8_t *joins_under;	/* NULL, or per element: 1 when a line or web next to
					   it joins what its stat stands on (Super ZZT: the
					   elements with a cycle, which have stats) */
	const uint8_t *elem_char;	/* default character of each element */
	const uint8_t *draw;		/* enum zzt_draw of each element */
	const struct gfs_record *world_rec, *board_rec;	/* board_rec: name and info end to end */
	const struct gfs_table *stats;
	/* the spans: a file's boards after its header, a board's stats after its tiles (and info) */
	const struct gfs_record *file_rec, *body_rec;
	const struct gfs_field *boards, *nstats, *code;	/* their groups, a stat's code */
};

extern const struct zzt_engine zzt_engine_zzt, zzt_engine_szt;
/* The engine of a header's first word, NULL for neither. */
const struct zzt_engine *zzt_engine_of(int type);
const struct gfs_record *zzt_layout_nth(size_t i);

/* bind: the stat whose code a stat runs (its length field negated), else 0. */
uint64_t zzt_bind_get(const uint8_t *rec);
void zzt_bind_set(uint8_t *rec, uint64_t v);

#endif
