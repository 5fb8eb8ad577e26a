/*
 * zzt.h - private interface of the ZZT world / saved game driver.
 *
 * The model keeps every board both decoded (tiles, properties, stats, code)
 * and as the raw pieces that have no decoded form (the original RLE bytes,
 * the 8 padding bytes of each stat, the bytes after the last stat).  A board
 * nobody edited is streamed back from the old file; an edited board is
 * serialised from the model, re-encoding its RLE only when a tile changed.
 */
#ifndef GFS_ZZT_H
#define GFS_ZZT_H

#include <stddef.h>
#include <stdint.h>

#include "gfs_driver.h"
#include "formats/zzt/zzt_engine.h"

/* ZZT's world header (offsets from the start of the file; Super ZZT's in zzt_engine.c). */
#define ZZT_HDR_SIZE		512
#define ZZT_H_TYPE		0x000	/* int16: -1 ZZT, -2 Super ZZT */
#define ZZT_H_NUMBOARDS		0x002	/* int16: boards - 1 */
#define ZZT_H_AMMO		0x004
#define ZZT_H_GEMS		0x006
#define ZZT_H_KEYS		0x008	/* 7 bytes */
#define ZZT_H_HEALTH		0x00f
#define ZZT_H_BOARD		0x011
#define ZZT_H_TORCHES		0x013
#define ZZT_H_TORCH_CYCLES	0x015
#define ZZT_H_ENERGY_CYCLES	0x017
#define ZZT_H_UNUSED19		0x019
#define ZZT_H_SCORE		0x01b
#define ZZT_H_NAME		0x01d	/* length + 20 bytes */
#define ZZT_H_FLAGS		0x032	/* 10 x (length + 20 bytes) */
#define ZZT_H_FLAG_STRIDE	21
#define ZZT_H_TIME		0x104
#define ZZT_H_TICKS		0x106
#define ZZT_H_SAVED		0x108
#define ZZT_H_PAD		0x109	/* to the end of the header */
#define ZZT_NAME_MAX		20
#define ZZT_NFLAGS		10
#define ZZT_NKEYS		7

/* Board: name (length + 50 bytes), RLE tiles, properties, stats (zzt_engine.c's spans). */
#define ZZT_B_NAME_LEN		51
#define ZZT_B_NAME_MAX		50
#define ZZT_W			60
#define ZZT_H			25
#define ZZT_TILES		(ZZT_W * ZZT_H)
#define ZZT_NELEMS		54	/* element ids 0-53; ZZT reads past its table for others */
#define ZZT_RUN_MAX		255

/* Board properties, after the RLE. */
#define ZZT_P_SIZE		88
#define ZZT_P_SHOTS		0
#define ZZT_P_DARK		1
#define ZZT_P_EXITS		2	/* north, south, west, east */
#define ZZT_P_RESTART		6
#define ZZT_P_MSG		7	/* length + 58 bytes */
#define ZZT_P_MSG_MAX		58
#define ZZT_P_ENTER_X		66
#define ZZT_P_ENTER_Y		67
#define ZZT_P_TIME		68
#define ZZT_P_UNUSED		70	/* 16 bytes */
#define ZZT_P_UNUSED_LEN	16
#define ZZT_P_NSTATS		86	/* int16: stats - 1 */

/* A status element record, followed by its code when Length > 0. */
#define ZZT_S_SIZE		33
#define ZZT_S_X			0
#define ZZT_S_Y			1
#define ZZT_S_STEPX		2
#define ZZT_S_STEPY		4
#define ZZT_S_CYCLE		6
#define ZZT_S_P1		8
#define ZZT_S_P2		9
#define ZZT_S_P3		10
#define ZZT_S_FOLLOWER		11
#define ZZT_S_LEADER		13
#define ZZT_S_UNDER_ID		15
#define ZZT_S_UNDER_COLOR	16
#define ZZT_S_POINTER		17	/* int32 */
#define ZZT_S_INSTR		21
#define ZZT_S_LENGTH		23	/* >0 code bytes, <0 bind to stat -n */
#define ZZT_S_PAD		25	/* 8 bytes */
#define ZZT_S_PAD_LEN		8

#define ZZT_CODE_MAX		32767
#define ZZT_BOARD_MAX		65535	/* the size field */
#define ZZT_BOARD_ZZT_MAX	20000	/* what ZZT itself loads */
#define ZZT_WARN_MAX		10
#define ZZT_FILE_MAX		((size_t)64 << 20)
#define ZZT_BOARDS_MAX		101	/* ZZT's MAX_BOARD is 100: boards 0-100 */

/* Element ids the tree operations look at. */
#define ZZT_E_EMPTY_ID		0
#define ZZT_E_PLAYER_ID		4
#define ZZT_E_SCROLL_ID		10
#define ZZT_E_PASSAGE_ID	11	/* its stat's P3 is the board it leads to */
#define ZZT_E_NORMAL_ID		22
#define ZZT_E_OBJECT_ID		36


struct zzt_stat {
	uint8_t rec[ZZT_S_SIZE_MAX];	/* raw record; Length kept in sync on save */
	struct gfs_buf code;		/* own code (no bind) */
	int bind;			/* owner stat index, or -1 */
	int final_cr;			/* code ended with CR when it got its view */
	struct gfs_node *code_node;
	uint64_t code_ino;		/* inode its code file gets when code/ is filled */
};

struct zzt_board {
	const struct zzt_engine *eng;	/* ZZT or Super ZZT: the world's */
	unsigned idx;
	uint64_t off;			/* file offset of the size field */
	uint32_t size;			/* bytes after the size field */
	int damaged;			/* shown raw only; world read-only */
	uint8_t name[ZZT_B_NAME_LEN_MAX];
	uint8_t *rle;			/* the RLE as stored */
	size_t rle_len;
	uint8_t *elem, *color;		/* eng->tiles each, one allocation at elem */
	int tiles_changed;		/* RLE must be re-encoded */
	uint8_t props[ZZT_P_SIZE_MAX];
	struct zzt_stat *stats;
	size_t nstats, capstats;
	uint8_t *tail;			/* bytes after the last stat */
	size_t tail_len;
	int dirty;			/* serialise from the model */
	int rm_refused;			/* code removals still refused after a refused rm -r */
	uint64_t new_off;		/* where save() put it, adopted by committed() */
	uint32_t new_size;
	struct gfs_node *dir, *code_dir;
};

struct zzt_world {
	const struct zzt_engine *eng;
	uint8_t hdr[ZZT_HDR_MAX];
	int hdr_dirty;
	struct zzt_board *boards;
	size_t nboards;
	uint64_t boards_end;		/* end of the last loaded board */
	uint64_t file_size;
	int truncated;			/* a board ran past the file */
	char damage[256];		/* first damage seen, for check */
	unsigned ndamaged;
	unsigned nwarned;		/* damage lines seen (logged up to ZZT_WARN_MAX) */
	struct gfs_node *trailing;	/* bytes after the declared boards */
	struct gfs_node *boards_dir;
	uint64_t trailing_new_off;
};

/* What a view node points at (node->priv, freed with free()). */
enum zzt_view {
	ZZT_V_WORLD, ZZT_V_BOARD, ZZT_V_ELEMENTS, ZZT_V_COLORS, ZZT_V_STATS,
	ZZT_V_CODE, ZZT_V_PNG, ZZT_V_EXTRA, ZZT_V_RAW
};

#define ZZT_NO_STAT ((unsigned)-1)	/* a code view whose stat lost its code */

struct zzt_ref {
	enum zzt_view kind;
	unsigned board;
	unsigned stat;
};

/* zzt_text.c: code page 437 <-> UTF-8. */
extern const uint16_t zzt_cp437[256];
int zzt_cp437_put(struct gfs_buf *out, uint8_t c);
/* Code point to CP437 byte, -1 when there is none. */
int zzt_cp437_from(uint32_t cp);

/*
 * zzt_board.c: the board codec.  Parse one board's bytes (after its size
 * field, base its file offset); on damage -EBADMSG with the reason in why.
 * Encode writes the size field and the board; -EFBIG past 65535 bytes.
 */
int zzt_board_parse(struct zzt_board *b, const uint8_t *data, size_t size, uint64_t base,
		    char *why, size_t wl);
void zzt_board_release(struct zzt_board *b);
int zzt_board_encode(const struct zzt_board *b, struct gfs_buf *out);
/*
 * A blank board (of engine e) as ZZT's editor makes one (BoardCreate): empty tiles in a
 * border of yellow normal walls, the player (stat 0) in the middle, at most
 * 255 shots; named name (n bytes, at most e->name_max).  -ENOMEM, else 0.
 */
int zzt_board_blank(struct zzt_board *b, const struct zzt_engine *e, const uint8_t *name, size_t n);
int zzt_rle_encode(const uint8_t *elem, const uint8_t *color, size_t tiles, struct gfs_buf *out);
/* EINVAL (with the message) if b no longer fits the 16-bit size field. */
int zzt_board_check_size(struct gfs_archive *ar, struct zzt_board *b);

/* zzt_view.c: render and store of each view. */
extern const struct gfs_node_ops zzt_ops_world, zzt_ops_board, zzt_ops_grid,
	zzt_ops_stats, zzt_ops_code, zzt_ops_png, zzt_ops_extra, zzt_ops_raw;

/* zzt_png.c */
int zzt_render_png(struct zzt_board *b, struct gfs_buf *out);

/* the generated font table (zzt-font.c, built from a console font) */
extern const uint8_t zzt_font[256][14];
extern const int zzt_font_real;


/* ---- board names, and the numbers that lead to boards (zzt_refs.c) ---------- */

/* A name as a slug (lower-case letters and digits, '-' between runs), at most cap - 1. */
size_t zzt_slug(const uint8_t *s, size_t n, char *out, size_t cap);
/* "NN-slug" from the board name. */
void zzt_board_dirname(const struct zzt_board *b, char *out, size_t len);
/*
 * Every reference to a board number: the start board in the header, each
 * board's four exits, each passage's destination.  fn sees where the number
 * is, returns non-zero to stop (and that is returned).
 */
enum zzt_refkind { ZZT_REF_START, ZZT_REF_EXIT, ZZT_REF_PASSAGE };

struct zzt_refsite {
	enum zzt_refkind kind;
	unsigned board, n;		/* the board holding it; exit index or stat */
	unsigned value;
};

int zzt_each_ref(struct zzt_world *w, int (*fn)(struct zzt_world *, struct zzt_refsite *, void *),
		 void *arg);
/* EBUSY naming what still leads to board b (or that it is the title screen), else 0. */
int zzt_board_busy(struct gfs_archive *ar, struct zzt_board *b);
/* zzt_each_ref() callback: board *(unsigned *)arg went, every number past it moves down one. */
int zzt_ref_shift(struct zzt_world *w, struct zzt_refsite *rs, void *arg);
/* zzt_each_ref() callback: board arg[0] moved to number arg[1] (unsigned[2]), the ones between by one. */
int zzt_ref_move(struct zzt_world *w, struct zzt_refsite *rs, void *arg);

#endif
