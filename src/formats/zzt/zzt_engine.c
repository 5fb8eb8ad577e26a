/*
 * zzt_engine.c - the two engines one driver reads: ZZT and Super ZZT.
 *
 * Each description says what a world of that engine holds where: its
 * header (as the record world.ini shows), its board's grid, name and info
 * (board.ini), its stat record (stats.csv), its element table (default
 * characters and how board.png draws each element) and its limits.
 *
 * ZZT: the spec in shared/specs/zzt-world-format.txt.
 * Super ZZT (gamefs-formats(5) names every source): the ModdingWiki "ZZT
 * Format" page (header size 1024, 96x80 boards, 60-character board
 * names, board info without dark and message but with a camera
 * position, 25-byte stats, 33 boards, 16 flags), the header and board
 * readers of zima (asiekierka) and Roton (SaxxonPike), whose memory map of
 * SUPERZ.EXE places energizer cycles at 0x15 and the score at 0x19 (WiL's
 * older text has them the other way round), and SUPERZ.EXE's element
 * table as Roton ships it (characters, draw procedures).
 */
#include <errno.h>
#include <stdio.h>

#include "formats/zzt/zzt.h"
#include "gfs_layout.h"

/* ---- fields common to both -------------------------------------------------- */

#define ZZT_S16(k, o) { .key = k, .kind = GFS_FK_SINT, .off = o, .width = 2 }
#define ZZT_U8(k, o) { .key = k, .kind = GFS_FK_UINT, .off = o, .width = 1 }
#define ZZT_STR(k, o, n) { .key = k, .kind = GFS_FK_PSTR, .off = o, .width = n, .charset = zzt_cp437 }
#define ZZT_KEYS(o) \
	{ .key = "blue", .kind = GFS_FK_UINT, .off = (o) + 0, .width = 1, .section = "keys", \
	  .note = "non-zero: the player holds that key" }, \
	ZZT_U8("green", (o) + 1), ZZT_U8("cyan", (o) + 2), ZZT_U8("red", (o) + 3), \
	ZZT_U8("purple", (o) + 4), ZZT_U8("yellow", (o) + 5), ZZT_U8("white", (o) + 6)
#define ZZT_FLAG(base, i) ZZT_STR("flag" #i, (base) + (i) * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX)
#define ZZT_FLAG0(base) { .key = "flag0", .kind = GFS_FK_PSTR, .off = base, .width = ZZT_NAME_MAX, \
			  .charset = zzt_cp437, .section = "flags" }
#define ZZT_SAVED(o, n) { .key = "saved", .kind = GFS_FK_UINT, .off = o, .width = 1, .note = n }
#define ZZT_BOARD(o) { .key = "board", .kind = GFS_FK_SINT, .off = o, .width = 2, \
		       .note = "the start board of a world, the current board of a saved game" }
#define ZZT_TIME(o) { .key = "time_passed", .kind = GFS_FK_SINT, .off = o, .width = 2, \
		      .note = "seconds spent on a board with a time limit" }, ZZT_S16("time_ticks", (o) + 2)

/* ---- ZZT ---------------------------------------------------------------------- */

static const struct gfs_field zzt_world_fields[] = {
	ZZT_STR("name", ZZT_H_NAME, ZZT_NAME_MAX),
	ZZT_SAVED(ZZT_H_SAVED, "non-zero: a saved game (ZZT's editor also refuses such a world)"),
	ZZT_BOARD(ZZT_H_BOARD),
	ZZT_TIME(ZZT_H_TIME),
	{ .key = "health", .kind = GFS_FK_SINT, .off = ZZT_H_HEALTH, .width = 2, .section = "player" },
	ZZT_S16("ammo", ZZT_H_AMMO),
	ZZT_S16("gems", ZZT_H_GEMS),
	ZZT_S16("torches", ZZT_H_TORCHES),
	ZZT_S16("torch_cycles", ZZT_H_TORCH_CYCLES),
	ZZT_S16("energizer_cycles", ZZT_H_ENERGY_CYCLES),
	ZZT_S16("score", ZZT_H_SCORE),
	ZZT_KEYS(ZZT_H_KEYS),
	ZZT_FLAG0(ZZT_H_FLAGS),
	ZZT_FLAG(ZZT_H_FLAGS, 1), ZZT_FLAG(ZZT_H_FLAGS, 2), ZZT_FLAG(ZZT_H_FLAGS, 3),
	ZZT_FLAG(ZZT_H_FLAGS, 4), ZZT_FLAG(ZZT_H_FLAGS, 5), ZZT_FLAG(ZZT_H_FLAGS, 6),
	ZZT_FLAG(ZZT_H_FLAGS, 7), ZZT_FLAG(ZZT_H_FLAGS, 8), ZZT_FLAG(ZZT_H_FLAGS, 9),
	{ .key = "word_0x019", .kind = GFS_FK_SINT, .off = ZZT_H_UNUSED19, .width = 2, .section = "unused" },
	{ .key = "bytes_0x109", .kind = GFS_FK_HEXZ, .off = ZZT_H_PAD, .width = ZZT_HDR_SIZE - ZZT_H_PAD },
};

static const struct gfs_record zzt_world_rec = {
	.section = "world", .size = ZZT_HDR_SIZE, GFS_FIELDS(zzt_world_fields),
};

/* board.ini edits the board's name and properties, laid end to end. */
#define ZZT_BP(o) (ZZT_B_NAME_LEN + (o))
static const struct gfs_field zzt_board_fields[] = {
	ZZT_STR("name", 0, ZZT_B_NAME_MAX),
	ZZT_U8("max_shots", ZZT_BP(ZZT_P_SHOTS)),
	ZZT_U8("dark", ZZT_BP(ZZT_P_DARK)),
	{ .key = "exit_north", .kind = GFS_FK_UINT, .off = ZZT_BP(ZZT_P_EXITS + 0), .width = 1,
	  .note = "exits: the board entered off each edge, 0 for none" },
	ZZT_U8("exit_south", ZZT_BP(ZZT_P_EXITS + 1)),
	ZZT_U8("exit_west", ZZT_BP(ZZT_P_EXITS + 2)),
	ZZT_U8("exit_east", ZZT_BP(ZZT_P_EXITS + 3)),
	ZZT_U8("restart_on_zap", ZZT_BP(ZZT_P_RESTART)),
	ZZT_STR("message", ZZT_BP(ZZT_P_MSG), ZZT_P_MSG_MAX),
	{ .key = "enter_x", .kind = GFS_FK_UINT, .off = ZZT_BP(ZZT_P_ENTER_X), .width = 1,
	  .note = "where the player entered the board, 1-based" },
	ZZT_U8("enter_y", ZZT_BP(ZZT_P_ENTER_Y)),
	{ .key = "time_limit", .kind = GFS_FK_SINT, .off = ZZT_BP(ZZT_P_TIME), .width = 2,
	  .note = "seconds, 0 for none" },
	{ .key = "bytes_70", .kind = GFS_FK_HEXZ, .off = ZZT_BP(ZZT_P_UNUSED), .width = ZZT_P_UNUSED_LEN,
	  .section = "unused" },
};
#undef ZZT_BP

/* nothing here may depend on other boards (offsets, sizes): views diff cleanly */
static const struct gfs_record zzt_board_rec = {
	.section = "board",
	.comment = "; ZZT board settings (tiles: elements.csv and colors.csv, stats: stats.csv)\n\n",
	.size = ZZT_B_NAME_LEN + ZZT_P_SIZE, GFS_FIELDS(zzt_board_fields),
};

/* ---- stats.csv: the stat record as a table (gfs_layout.h) ----------------------- */

#define ZZT_STATS_MAX 2000	/* more cannot fit 65535 bytes */

uint64_t zzt_bind_get(const uint8_t *rec)
{
	int16_t len = (int16_t)gfs_le16(rec + ZZT_S_LENGTH);

	return len < 0 ? (uint64_t)-len : 0;
}

void zzt_bind_set(uint8_t *rec, uint64_t v)
{
	gfs_put_u16le(rec + ZZT_S_LENGTH, (uint16_t)-(int)v);
}

/* the 25 bytes both engines' stats have; ZZT's 8 bytes of padding follow */
#define ZZT_STAT_FIELDS \
	ZZT_U8("x", ZZT_S_X), \
	ZZT_U8("y", ZZT_S_Y), \
	ZZT_S16("step_x", ZZT_S_STEPX), \
	ZZT_S16("step_y", ZZT_S_STEPY), \
	ZZT_S16("cycle", ZZT_S_CYCLE), \
	ZZT_U8("p1", ZZT_S_P1), \
	ZZT_U8("p2", ZZT_S_P2), \
	ZZT_U8("p3", ZZT_S_P3), \
	ZZT_S16("follower", ZZT_S_FOLLOWER), \
	ZZT_S16("leader", ZZT_S_LEADER), \
	ZZT_U8("under_element", ZZT_S_UNDER_ID), \
	ZZT_U8("under_color", ZZT_S_UNDER_COLOR), \
	{ .key = "pointer", .kind = GFS_FK_HEX, .off = ZZT_S_POINTER, .width = 4, \
	  .min = INT32_MIN, .max = UINT32_MAX }, \
	ZZT_S16("instruction", ZZT_S_INSTR), \
	{ .key = "bind", .kind = GFS_FK_UINT, .off = ZZT_S_LENGTH, .width = 2, .min = 1, \
	  .max = ZZT_STATS_MAX, .flags = GFS_FF_BLANK0, .get = zzt_bind_get, .set = zzt_bind_set }

static const struct gfs_field zzt_stat_fields[] = {
	ZZT_STAT_FIELDS,
	{ .key = "padding", .kind = GFS_FK_HEXZ, .off = ZZT_S_PAD, .width = ZZT_S_PAD_LEN },
};
static const struct gfs_record zzt_stat_rec = {
	.section = "stat", .size = ZZT_S_SIZE, GFS_FIELDS(zzt_stat_fields),
};

/* What the engine (ctx) cannot take: a stat moved outside its board, a bind to no stat. */
static int zzt_stat_check(void *ctx, size_t i, size_t n, uint8_t *rec, const uint8_t *old,
			  char *why, size_t whysz)
{
	const struct zzt_engine *e = ctx;
	uint64_t bind = zzt_bind_get(rec);
	unsigned xm = e->w + 1, ym = e->h + 1;

	(void)i;
	/* the engine reads and writes past its tile array for a stat outside it */
	if ((rec[ZZT_S_X] > xm || rec[ZZT_S_Y] > ym) &&
	    (!old || rec[ZZT_S_X] != old[ZZT_S_X] || rec[ZZT_S_Y] != old[ZZT_S_Y]))
		return snprintf(why, whysz, "x %u, y %u is outside %s's board (x 0-%u, y 0-%u)",
				rec[ZZT_S_X], rec[ZZT_S_Y], e->name, xm, ym), -EINVAL;
	if (bind >= n)
		return snprintf(why, whysz, "bind: %llu is not a stat 1..%zu", (unsigned long long)bind,
				n - 1), -EINVAL;
	return 0;
}

static const struct gfs_table zzt_stats_table = {
	.index = "stat", .rec = &zzt_stat_rec, .max = ZZT_STATS_MAX,
	.min_cols = sizeof(zzt_stat_fields) / sizeof(zzt_stat_fields[0]) - 1,	/* padding may go */
	.check = zzt_stat_check,
};

/*
 * The spans the codec walks (gfs_record.h), for an engine's sizes: the
 * file's boards after its header (their count stored minus one), each
 * behind its 16-bit size; after a board's tiles its info, then its stats
 * (their count, the info's word at nst, stored minus one), each its record
 * and its code when its length is > 0 (< 0 binds it to another stat's).
 */
#define ZZT_ONE(s, n, f) { .section = s, .size = n, .fields = f, .nfields = 1 }
static const struct gfs_field zzt_byte_field = ZZT_U8("byte", 0);
static const struct gfs_record zzt_byte = ZZT_ONE("byte", 1, &zzt_byte_field);
static const struct gfs_field zzt_sized = { .key = "bytes", .kind = GFS_FK_LIST, .off = 2, .group = &zzt_byte,
	.count_width = 2 };
static const struct gfs_record zzt_board_span = ZZT_ONE("board", 2, &zzt_sized);
static const struct gfs_field zzt_boards = { .key = "boards", .kind = GFS_FK_GROUP, .group = &zzt_board_span,
	.count_off = ZZT_H_NUMBOARDS, .count_width = 2, .count_bias = 1 };
#define ZZT_SPANS(x, hdr, p_size, nst, s_size) \
	static const struct gfs_field x##_code = { .key = "code", .kind = GFS_FK_LIST, .off = s_size, \
		.group = &zzt_byte, .count_off = ZZT_S_LENGTH, .count_width = 2, .flags = GFS_FF_POSITIVE }; \
	static const struct gfs_record x##_stat_span = ZZT_ONE("stat", s_size, &x##_code); \
	static const struct gfs_field x##_nstats = { .key = "stats", .kind = GFS_FK_GROUP, \
		.group = &x##_stat_span, .count_off = nst, .count_width = 2, .count_bias = 1 }; \
	static const struct gfs_record x##_body_rec = ZZT_ONE("info", p_size, &x##_nstats), \
		x##_file_rec = ZZT_ONE("file", hdr, &zzt_boards)
ZZT_SPANS(zzt, ZZT_HDR_SIZE, ZZT_P_SIZE, ZZT_P_NSTATS, ZZT_S_SIZE);

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

static const uint8_t zzt_elem_draw[ZZT_NELEMS] = {
	[0] = ZZT_D_EMPTY, [12] = ZZT_D_DUP, [13] = ZZT_D_BOMB, [15] = ZZT_D_STAR,
	[16] = ZZT_D_CW, [17] = ZZT_D_CCW, [29] = ZZT_D_BLINK, [30] = ZZT_D_TRANSPORTER,
	[31] = ZZT_D_LINE, [36] = ZZT_D_OBJECT, [39] = ZZT_D_GUN, [40] = ZZT_D_PUSHER,
	[47] = ZZT_D_TEXT, [48] = ZZT_D_TEXT, [49] = ZZT_D_TEXT, [50] = ZZT_D_TEXT,
	[51] = ZZT_D_TEXT, [52] = ZZT_D_TEXT, [53] = ZZT_D_TEXT,
};

const struct zzt_engine zzt_engine_zzt = {
	.name = "ZZT", .type = -1, .hdr_size = ZZT_HDR_SIZE, .h_name = ZZT_H_NAME,
	.h_saved = ZZT_H_SAVED, .w = ZZT_W, .h = ZZT_H, .tiles = ZZT_TILES,
	.name_len = ZZT_B_NAME_LEN, .name_max = ZZT_B_NAME_MAX,
	.p_size = ZZT_P_SIZE, .p_exits = ZZT_P_EXITS,
	.s_size = ZZT_S_SIZE, .nelems = ZZT_NELEMS, .text_min = 47, .text_white = 53,
	.boards_max = ZZT_BOARDS_MAX, .stats_max = 151, .board_engine_max = ZZT_BOARD_ZZT_MAX,
	.elem_char = zzt_elem_char, .draw = zzt_elem_draw,
	.world_rec = &zzt_world_rec, .board_rec = &zzt_board_rec, .stats = &zzt_stats_table,
	.file_rec = &zzt_file_rec, .body_rec = &zzt_body_rec, .boards = &zzt_boards, .nstats = &zzt_nstats,
	.code = &zzt_code,
};

/* ---- Super ZZT ------------------------------------------------------------------ */

/* World header (1024 bytes). */
#define SZT_HDR_SIZE		1024
#define SZT_H_UNUSED13		0x013
#define SZT_H_ENERGY_CYCLES	0x015
#define SZT_H_UNUSED17		0x017
#define SZT_H_SCORE		0x019
#define SZT_H_NAME		0x01b	/* length + 20 bytes */
#define SZT_H_FLAGS		0x030	/* 16 x (length + 20 bytes) */
#define SZT_H_TIME		0x180
#define SZT_H_SAVED		0x184
#define SZT_H_STONES		0x185	/* int16: stones of power, -1 none shown */
#define SZT_H_PAD		0x187

/* Board: name of 60, 96x80 tiles, 30 bytes of info. */
#define SZT_B_NAME_LEN		61
#define SZT_B_NAME_MAX		60
#define SZT_W			96
#define SZT_H			80
#define SZT_P_SIZE		30
#define SZT_P_SHOTS		0
#define SZT_P_EXITS		1	/* north, south, west, east */
#define SZT_P_RESTART		5
#define SZT_P_ENTER_X		6
#define SZT_P_ENTER_Y		7
#define SZT_P_CAMERA_X		8
#define SZT_P_CAMERA_Y		10
#define SZT_P_TIME		12
#define SZT_P_UNUSED		14	/* 14 bytes */
#define SZT_P_UNUSED_LEN	14
#define SZT_P_NSTATS		28
#define SZT_S_SIZE		25	/* no padding */
#define SZT_NELEMS		80
#define SZT_BOARDS_MAX		33
#define SZT_BOARD_ENGINE_MAX	32767

static const struct gfs_field szt_world_fields[] = {
	ZZT_STR("name", SZT_H_NAME, ZZT_NAME_MAX),
	ZZT_SAVED(SZT_H_SAVED, "non-zero: a saved game"),
	ZZT_BOARD(ZZT_H_BOARD),
	ZZT_TIME(SZT_H_TIME),
	{ .key = "health", .kind = GFS_FK_SINT, .off = ZZT_H_HEALTH, .width = 2, .section = "player" },
	ZZT_S16("ammo", ZZT_H_AMMO),
	ZZT_S16("gems", ZZT_H_GEMS),
	ZZT_S16("energizer_cycles", SZT_H_ENERGY_CYCLES),
	ZZT_S16("score", SZT_H_SCORE),
	{ .key = "stones", .kind = GFS_FK_SINT, .off = SZT_H_STONES, .width = 2,
	  .note = "stones of power (the Z counter), -1: not shown" },
	ZZT_KEYS(ZZT_H_KEYS),
	ZZT_FLAG0(SZT_H_FLAGS),
	ZZT_FLAG(SZT_H_FLAGS, 1), ZZT_FLAG(SZT_H_FLAGS, 2), ZZT_FLAG(SZT_H_FLAGS, 3),
	ZZT_FLAG(SZT_H_FLAGS, 4), ZZT_FLAG(SZT_H_FLAGS, 5), ZZT_FLAG(SZT_H_FLAGS, 6),
	ZZT_FLAG(SZT_H_FLAGS, 7), ZZT_FLAG(SZT_H_FLAGS, 8), ZZT_FLAG(SZT_H_FLAGS, 9),
	ZZT_FLAG(SZT_H_FLAGS, 10), ZZT_FLAG(SZT_H_FLAGS, 11), ZZT_FLAG(SZT_H_FLAGS, 12),
	ZZT_FLAG(SZT_H_FLAGS, 13), ZZT_FLAG(SZT_H_FLAGS, 14), ZZT_FLAG(SZT_H_FLAGS, 15),
	{ .key = "word_0x013", .kind = GFS_FK_SINT, .off = SZT_H_UNUSED13, .width = 2, .section = "unused" },
	ZZT_S16("word_0x017", SZT_H_UNUSED17),
	{ .key = "bytes_0x187", .kind = GFS_FK_HEXZ, .off = SZT_H_PAD, .width = SZT_HDR_SIZE - SZT_H_PAD },
};

static const struct gfs_record szt_world_rec = {
	.section = "world", .size = SZT_HDR_SIZE, GFS_FIELDS(szt_world_fields),
};

#define SZT_BP(o) (SZT_B_NAME_LEN + (o))
static const struct gfs_field szt_board_fields[] = {
	ZZT_STR("name", 0, SZT_B_NAME_MAX),
	ZZT_U8("max_shots", SZT_BP(SZT_P_SHOTS)),
	{ .key = "exit_north", .kind = GFS_FK_UINT, .off = SZT_BP(SZT_P_EXITS + 0), .width = 1,
	  .note = "exits: the board entered off each edge, 0 for none" },
	ZZT_U8("exit_south", SZT_BP(SZT_P_EXITS + 1)),
	ZZT_U8("exit_west", SZT_BP(SZT_P_EXITS + 2)),
	ZZT_U8("exit_east", SZT_BP(SZT_P_EXITS + 3)),
	ZZT_U8("restart_on_zap", SZT_BP(SZT_P_RESTART)),
	{ .key = "enter_x", .kind = GFS_FK_UINT, .off = SZT_BP(SZT_P_ENTER_X), .width = 1,
	  .note = "where the player entered the board, 1-based" },
	ZZT_U8("enter_y", SZT_BP(SZT_P_ENTER_Y)),
	{ .key = "camera_x", .kind = GFS_FK_SINT, .off = SZT_BP(SZT_P_CAMERA_X), .width = 2,
	  .note = "the top left tile of the view (Super ZZT scrolls its boards)" },
	ZZT_S16("camera_y", SZT_BP(SZT_P_CAMERA_Y)),
	{ .key = "time_limit", .kind = GFS_FK_SINT, .off = SZT_BP(SZT_P_TIME), .width = 2,
	  .note = "seconds, 0 for none" },
	{ .key = "bytes_14", .kind = GFS_FK_HEXZ, .off = SZT_BP(SZT_P_UNUSED), .width = SZT_P_UNUSED_LEN,
	  .section = "unused" },
};
#undef SZT_BP

static const struct gfs_record szt_board_rec = {
	.section = "board",
	.comment = "; Super ZZT board settings (tiles: elements.csv and colors.csv, stats: stats.csv)\n\n",
	.size = SZT_B_NAME_LEN + SZT_P_SIZE, GFS_FIELDS(szt_board_fields),
};

static const struct gfs_field szt_stat_fields[] = { ZZT_STAT_FIELDS };
static const struct gfs_record szt_stat_rec = {
	.section = "stat", .size = SZT_S_SIZE, GFS_FIELDS(szt_stat_fields),
};

static const struct gfs_table szt_stats_table = {
	.index = "stat", .rec = &szt_stat_rec, .max = ZZT_STATS_MAX, .check = zzt_stat_check,
};

ZZT_SPANS(szt, SZT_HDR_SIZE, SZT_P_SIZE, SZT_P_NSTATS, SZT_S_SIZE);

/* SUPERZ.EXE's element table: the default character of elements 0-79. */
static const uint8_t szt_elem_char[SZT_NELEMS] = {
	0x20, 0x20, 0x20, 0x02, 0x02, 0x84, 0x20, 0x04,	/* 0-7 */
	0x0c, 0x0a, 0xe8, 0xf0, 0xfa, 0x0b, 0x7f, 0x20,	/* 8-15 */
	0x2f, 0x5c, 0x20, 0x6f, 0xb0, 0xdb, 0xb2, 0xb1,	/* 16-23: 19 lava, 20 forest */
	0xfe, 0x12, 0x1d, 0xb2, 0x20, 0xce, 0xc5, 0xce,	/* 24-31 */
	0x2a, 0x20, 0xeb, 0x05, 0x02, 0x2a, 0x20, 0x18,	/* 32-39: 34 bear */
	0x10, 0xea, 0xe3, 0x20, 0xe9, 0x4f, 0x20, 0xb0,	/* 40-47: 47 floor */
	0x1e, 0x1f, 0x11, 0x10, 0x20, 0x20, 0x20, 0x20,	/* 48-55: water N, S, W, E */
	0x20, 0x20, 0x20, 0x94, 0xed, 0xe5, 0x0f, 0xc5,	/* 56-63: roton, dragon pup, pairer, spider, web */
	0x5a, 0x20, 0x20, 0x20, 0x20, 0xf8, 0xcd, 0xba,	/* 64-71: stone, bullet, blink rays */
	0x53, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,	/* 72-79: star, text */
};

/* its draw procedures: the stone's is a random letter, drawn here as its default Z */
static const uint8_t szt_elem_draw[SZT_NELEMS] = {
	[0] = ZZT_D_EMPTY, [12] = ZZT_D_DUP, [13] = ZZT_D_BOMB, [16] = ZZT_D_CW,
	[17] = ZZT_D_CCW, [29] = ZZT_D_BLINK, [30] = ZZT_D_TRANSPORTER, [31] = ZZT_D_LINE,
	[36] = ZZT_D_OBJECT, [39] = ZZT_D_GUN, [40] = ZZT_D_PUSHER, [60] = ZZT_D_DRAGON,
	[63] = ZZT_D_WEB, [72] = ZZT_D_STAR,
	[73] = ZZT_D_TEXT, [74] = ZZT_D_TEXT, [75] = ZZT_D_TEXT, [76] = ZZT_D_TEXT,
	[77] = ZZT_D_TEXT, [78] = ZZT_D_TEXT, [79] = ZZT_D_TEXT,
};

/* the elements whose table entry has a cycle (>= 0): a line or web looks under their stat */
static const uint8_t szt_elem_cycled[SZT_NELEMS] = {
	[3] = 1, [4] = 1, [10] = 1, [11] = 1, [12] = 1, [13] = 1, [16] = 1, [17] = 1,
	[29] = 1, [30] = 1, [34] = 1, [35] = 1, [36] = 1, [37] = 1, [39] = 1, [40] = 1,
	[41] = 1, [42] = 1, [44] = 1, [45] = 1, [59] = 1, [60] = 1, [61] = 1, [62] = 1,
	[64] = 1, [69] = 1, [72] = 1,
};

const struct zzt_engine zzt_engine_szt = {
	.name = "Super ZZT", .type = -2, .hdr_size = SZT_HDR_SIZE, .h_name = SZT_H_NAME,
	.h_saved = SZT_H_SAVED, .w = SZT_W, .h = SZT_H, .tiles = SZT_W * SZT_H,
	.name_len = SZT_B_NAME_LEN, .name_max = SZT_B_NAME_MAX,
	.p_size = SZT_P_SIZE, .p_exits = SZT_P_EXITS,
	.s_size = SZT_S_SIZE, .nelems = SZT_NELEMS, .text_min = 73, .text_white = 79,
	.boards_max = SZT_BOARDS_MAX, .stats_max = 129, .board_engine_max = SZT_BOARD_ENGINE_MAX,
	.joins_under = szt_elem_cycled,
	.elem_char = szt_elem_char, .draw = szt_elem_draw,
	.world_rec = &szt_world_rec, .board_rec = &szt_board_rec, .stats = &szt_stats_table,
	.file_rec = &szt_file_rec, .body_rec = &szt_body_rec, .boards = &zzt_boards, .nstats = &szt_nstats,
	.code = &szt_code,
};

const struct zzt_engine *zzt_engine_of(int type)
{
	return type == -1 ? &zzt_engine_zzt : type == -2 ? &zzt_engine_szt : NULL;
}

/* The i-th table of both engines (world, board, stat; the spans and their elements), for the fuzz target. */
const struct gfs_record *zzt_layout_nth(size_t i)
{
	const struct zzt_engine *e = i < 5 ? &zzt_engine_zzt : &zzt_engine_szt;
	const struct gfs_record *t[] = { e->world_rec, e->board_rec, e->stats->rec, e->file_rec, e->body_rec };

	return i >= 10 ? NULL : t[i % 5];
}
