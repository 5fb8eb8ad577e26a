/*
 * zzt_view.c - the text views of a ZZT world and their parsers.
 *
 * world.ini and board.ini are tables for the core's record codec
 * (gfs_record.h), which patches only the fields whose value changed: bytes
 * the views do not show (stale characters after a Pascal string's length,
 * odd lengths) stay.
 * elements.csv / colors.csv replace the tile grid (the RLE is re-encoded at
 * save only if a tile changed), stats.csv the stat records; the CSVs are
 * read in the core's one dialect (gfs_grid.h), code/NAME.oop a
 * stat's ZZT-OOP.  Every store checks the board still fits its 16-bit size
 * field before it changes the model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/zzt/zzt.h"
#include "gfs_grid.h"
#include "gfs_layout.h"

/* ---- model access ---------------------------------------------------------- */

static struct zzt_board *zzt_ref_board(struct gfs_archive *ar, struct gfs_node *n)
{
	struct zzt_world *w = ar->priv;
	struct zzt_ref *ref = n->priv;

	if (!w || !ref || ref->board >= w->nboards || w->boards[ref->board].damaged)
		return NULL;
	return &w->boards[ref->board];
}

/* ---- world.ini and board.ini: record tables --------------------------------- */

/* A signed 16-bit or byte field, or a string of n characters (length byte first). */
#define ZZT_S16(k, o) { .key = k, .kind = GFS_FK_SINT, .off = o, .width = 2 }
#define ZZT_U8(k, o) { .key = k, .kind = GFS_FK_UINT, .off = o, .width = 1 }
#define ZZT_STR(k, o, n) { .key = k, .kind = GFS_FK_PSTR, .off = o, .width = n, .charset = zzt_cp437 }
#define ZZT_FLAG(i) ZZT_STR("flag" #i, ZZT_H_FLAGS + i * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX)

static const struct gfs_field zzt_world_fields[] = {
	ZZT_STR("name", ZZT_H_NAME, ZZT_NAME_MAX),
	{ .key = "saved", .kind = GFS_FK_UINT, .off = ZZT_H_SAVED, .width = 1,
	  .note = "non-zero: a saved game (ZZT's editor also refuses such a world)" },
	{ .key = "board", .kind = GFS_FK_SINT, .off = ZZT_H_BOARD, .width = 2,
	  .note = "the start board of a world, the current board of a saved game" },
	{ .key = "time_passed", .kind = GFS_FK_SINT, .off = ZZT_H_TIME, .width = 2,
	  .note = "seconds spent on a board with a time limit" },
	ZZT_S16("time_ticks", ZZT_H_TICKS),
	{ .key = "health", .kind = GFS_FK_SINT, .off = ZZT_H_HEALTH, .width = 2, .section = "player" },
	ZZT_S16("ammo", ZZT_H_AMMO),
	ZZT_S16("gems", ZZT_H_GEMS),
	ZZT_S16("torches", ZZT_H_TORCHES),
	ZZT_S16("torch_cycles", ZZT_H_TORCH_CYCLES),
	ZZT_S16("energizer_cycles", ZZT_H_ENERGY_CYCLES),
	ZZT_S16("score", ZZT_H_SCORE),
	{ .key = "blue", .kind = GFS_FK_UINT, .off = ZZT_H_KEYS + 0, .width = 1, .section = "keys",
	  .note = "non-zero: the player holds that key" },
	ZZT_U8("green", ZZT_H_KEYS + 1),
	ZZT_U8("cyan", ZZT_H_KEYS + 2),
	ZZT_U8("red", ZZT_H_KEYS + 3),
	ZZT_U8("purple", ZZT_H_KEYS + 4),
	ZZT_U8("yellow", ZZT_H_KEYS + 5),
	ZZT_U8("white", ZZT_H_KEYS + 6),
	{ .key = "flag0", .kind = GFS_FK_PSTR, .off = ZZT_H_FLAGS, .width = ZZT_NAME_MAX,
	  .charset = zzt_cp437, .section = "flags" },
	ZZT_FLAG(1), ZZT_FLAG(2), ZZT_FLAG(3), ZZT_FLAG(4), ZZT_FLAG(5),
	ZZT_FLAG(6), ZZT_FLAG(7), ZZT_FLAG(8), ZZT_FLAG(9),
	{ .key = "word_0x019", .kind = GFS_FK_SINT, .off = ZZT_H_UNUSED19, .width = 2, .section = "unused" },
	{ .key = "bytes_0x109", .kind = GFS_FK_HEXZ, .off = ZZT_H_PAD, .width = ZZT_HDR_SIZE - ZZT_H_PAD },
};

static const struct gfs_record zzt_world_rec = {
	.section = "world", .size = ZZT_HDR_SIZE, .fields = zzt_world_fields,
	.nfields = sizeof(zzt_world_fields) / sizeof(zzt_world_fields[0]),
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

/* nothing here may depend on other boards (offsets, sizes): views diff cleanly */
static const struct gfs_record zzt_board_rec = {
	.section = "board",
	.comment = "; ZZT board settings (tiles: elements.csv and colors.csv, stats: stats.csv)\n\n",
	.size = ZZT_B_NAME_LEN + ZZT_P_SIZE, .fields = zzt_board_fields,
	.nfields = sizeof(zzt_board_fields) / sizeof(zzt_board_fields[0]),
};
#undef ZZT_BP
#undef ZZT_FLAG
#undef ZZT_STR

/* ---- world.ini ------------------------------------------------------------- */

static int zzt_world_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_world *w = ar->priv;

	(void)n;
	if (gfs_buf_printf(out, "; ZZT %s header.  %d boards (the boards/ directory; not editable "
			   "here).\n; Strings are code page 437 shown as UTF-8; unused bytes as hex, "
			   "trailing zero bytes left out.\n\n",
			   w->hdr[ZZT_H_SAVED] ? "saved game" : "world",
			   (int16_t)gfs_le16(w->hdr + ZZT_H_NUMBOARDS) + 1))
		return -ENOMEM;
	return gfs_record_render(&zzt_world_rec, w->hdr, ZZT_HDR_SIZE, NULL, out);
}

static int zzt_world_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			   size_t len)
{
	struct zzt_world *w = ar->priv;
	struct gfs_buf h = GFS_BUF_INIT;
	int r;

	(void)n;
	r = gfs_record_parse(ar, "world.ini", &zzt_world_rec, w->hdr, ZZT_HDR_SIZE, data, len, NULL, &h);
	if (!r && memcmp(h.data, w->hdr, ZZT_HDR_SIZE)) {
		memcpy(w->hdr, h.data, ZZT_HDR_SIZE);
		w->hdr_dirty = 1;
	}
	gfs_buf_release(&h);
	return r;
}

/* ---- board.ini ------------------------------------------------------------- */

/* The board's name and properties end to end, as zzt_board_rec reads them. */
static void zzt_board_bytes(const struct zzt_board *b, uint8_t *p)
{
	memcpy(p, b->name, ZZT_B_NAME_LEN);
	memcpy(p + ZZT_B_NAME_LEN, b->props, ZZT_P_SIZE);
}

static int zzt_board_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	uint8_t p[ZZT_B_NAME_LEN + ZZT_P_SIZE];

	if (!b)
		return -EIO;
	zzt_board_bytes(b, p);
	return gfs_record_render(&zzt_board_rec, p, sizeof(p), NULL, out);
}

static int zzt_board_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			   size_t len)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	uint8_t p[ZZT_B_NAME_LEN + ZZT_P_SIZE];
	struct gfs_buf h = GFS_BUF_INIT;
	int r;

	if (!b)
		return -EIO;
	zzt_board_bytes(b, p);
	r = gfs_record_parse(ar, "board.ini", &zzt_board_rec, p, sizeof(p), data, len, NULL, &h);
	if (!r && memcmp(h.data, p, sizeof(p))) {
		memcpy(b->name, h.data, ZZT_B_NAME_LEN);
		memcpy(b->props, h.data + ZZT_B_NAME_LEN, ZZT_P_SIZE);
		b->dirty = 1;
	}
	gfs_buf_release(&h);
	return r;
}

/* ---- elements.csv / colors.csv ----------------------------------------------- */

static int zzt_grid_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	const struct zzt_ref *ref = n->priv;
	const uint8_t *g;
	int r;

	if (!b)
		return -EIO;
	g = ref->kind == ZZT_V_ELEMENTS ? b->elem : b->color;
	r = gfs_grid_xheader_from(out, ZZT_W, 1);
	return r ? r : gfs_grid_render_u8(out, g, ZZT_TILES, ZZT_W);
}

static int zzt_grid_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			  size_t len)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	const struct zzt_ref *ref = n->priv;
	const char *view = ref->kind == ZZT_V_ELEMENTS ? "elements.csv" : "colors.csv";
	uint8_t grid[ZZT_TILES], old[ZZT_TILES], *g;
	struct gfs_grid l;
	size_t i;
	int r;

	if (!b)
		return -EIO;
	g = ref->kind == ZZT_V_ELEMENTS ? b->elem : b->color;
	r = gfs_grid_parse(ar, view, data, len, ZZT_W, NULL, &l);
	if (r)
		return r;
	r = gfs_grid_u8(ar, &l, ZZT_W, ZZT_H, grid);
	/* ZZT reads garbage for ids past its table: none new (old ones stay) */
	for (i = 0; i < ZZT_TILES && !r && ref->kind == ZZT_V_ELEMENTS; i++)
		if (grid[i] >= ZZT_NELEMS && grid[i] != g[i]) {
			char what[80];

			snprintf(what, sizeof(what), "element %u is not one of ZZT's (0-%d)", grid[i],
				 ZZT_NELEMS - 1);
			r = gfs_grid_err(ar, &l, i / ZZT_W, i % ZZT_W, what);
		}
	if (r)
		goto out;
	if (!memcmp(grid, g, ZZT_TILES))
		goto out;
	memcpy(old, g, ZZT_TILES);
	memcpy(g, grid, ZZT_TILES);
	r = b->tiles_changed;
	b->tiles_changed = 1;
	if (zzt_board_check_size(ar, b)) {
		memcpy(g, old, ZZT_TILES);
		b->tiles_changed = r;
		r = -EINVAL;
		goto out;
	}
	r = 0;
	b->dirty = 1;
out:
	gfs_grid_release(&l);
	return r;
}

/* ---- stats.csv: the stat record as a table (gfs_layout.h) ----------------------- */

#define ZZT_STATS_MAX 2000	/* more cannot fit 65535 bytes */

/* bind: the stat whose code this one runs, -length when the length is negative, else blank */
static uint64_t zzt_bind_get(const uint8_t *rec)
{
	int16_t len = (int16_t)gfs_le16(rec + ZZT_S_LENGTH);

	return len < 0 ? (uint64_t)-len : 0;
}

static void zzt_bind_set(uint8_t *rec, uint64_t v)
{
	gfs_put_u16le(rec + ZZT_S_LENGTH, (uint16_t)-(int)v);
}

static const struct gfs_field zzt_stat_fields[] = {
	ZZT_U8("x", ZZT_S_X),
	ZZT_U8("y", ZZT_S_Y),
	ZZT_S16("step_x", ZZT_S_STEPX),
	ZZT_S16("step_y", ZZT_S_STEPY),
	ZZT_S16("cycle", ZZT_S_CYCLE),
	ZZT_U8("p1", ZZT_S_P1),
	ZZT_U8("p2", ZZT_S_P2),
	ZZT_U8("p3", ZZT_S_P3),
	ZZT_S16("follower", ZZT_S_FOLLOWER),
	ZZT_S16("leader", ZZT_S_LEADER),
	ZZT_U8("under_element", ZZT_S_UNDER_ID),
	ZZT_U8("under_color", ZZT_S_UNDER_COLOR),
	{ .key = "pointer", .kind = GFS_FK_HEX, .off = ZZT_S_POINTER, .width = 4,
	  .min = INT32_MIN, .max = UINT32_MAX },
	ZZT_S16("instruction", ZZT_S_INSTR),
	{ .key = "bind", .kind = GFS_FK_UINT, .off = ZZT_S_LENGTH, .width = 2, .min = 1,
	  .max = ZZT_STATS_MAX, .flags = GFS_FF_BLANK0, .get = zzt_bind_get, .set = zzt_bind_set },
	{ .key = "padding", .kind = GFS_FK_HEXZ, .off = ZZT_S_PAD, .width = ZZT_S_PAD_LEN },
};
static const struct gfs_record zzt_stat_rec = {
	.section = "stat", .size = ZZT_S_SIZE, .fields = zzt_stat_fields,
	.nfields = sizeof(zzt_stat_fields) / sizeof(zzt_stat_fields[0]),
};

/* What ZZT cannot take: a stat moved outside the board, a bind to no stat. */
static int zzt_stat_check(void *ctx, size_t i, size_t n, uint8_t *rec, const uint8_t *old,
			  char *why, size_t whysz)
{
	uint64_t bind = zzt_bind_get(rec);

	(void)ctx;
	(void)i;
	/* ZZT reads and writes past its tile array for a stat outside it */
	if ((rec[ZZT_S_X] > ZZT_STAT_X_MAX || rec[ZZT_S_Y] > ZZT_STAT_Y_MAX) &&
	    (!old || rec[ZZT_S_X] != old[ZZT_S_X] || rec[ZZT_S_Y] != old[ZZT_S_Y]))
		return snprintf(why, whysz, "x %u, y %u is outside ZZT's board (x 0-%d, y 0-%d)",
				rec[ZZT_S_X], rec[ZZT_S_Y], ZZT_STAT_X_MAX, ZZT_STAT_Y_MAX), -EINVAL;
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
#undef ZZT_U8
#undef ZZT_S16

/* The stat records of b one after another, each with its bind in its length field. */
static uint8_t *zzt_stat_bytes(const struct zzt_board *b)
{
	uint8_t *p = malloc(b->nstats ? b->nstats * ZZT_S_SIZE : 1);

	for (size_t i = 0; p && i < b->nstats; i++) {
		memcpy(p + i * ZZT_S_SIZE, b->stats[i].rec, ZZT_S_SIZE);
		if (b->stats[i].bind >= 0)
			zzt_bind_set(p + i * ZZT_S_SIZE, (uint64_t)b->stats[i].bind);
	}
	return p;
}

static int zzt_stats_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	uint8_t *p;
	int r;

	if (!b)
		return -EIO;
	p = zzt_stat_bytes(b);
	r = p ? gfs_table_render(&zzt_stats_table, p, b->nstats, NULL, out) : -ENOMEM;
	free(p);
	return r;
}

static int zzt_stats_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			   size_t len)
{
	struct zzt_board *b = zzt_ref_board(ar, n), tmp;
	struct zzt_stat *ns = NULL;
	struct gfs_buf nb = GFS_BUF_INIT;
	uint8_t *old;
	size_t rows = 0, i;
	int r;

	if (!b)
		return -EIO;
	old = zzt_stat_bytes(b);
	if (!old)
		return -ENOMEM;
	r = gfs_table_parse(ar, "stats.csv", &zzt_stats_table, old, b->nstats, data, len, NULL, NULL,
			    &nb, &rows);
	if (r)
		goto out;
	if (rows == 0 && b->nstats) {
		r = gfs_err(ar, -EINVAL, "stats.csv: no stats; the first row is the player's");
		goto out;
	}
	if (rows == b->nstats && (!rows || !memcmp(nb.data, old, rows * ZZT_S_SIZE)))
		goto out;
	ns = calloc(rows ? rows : 1, sizeof(*ns));
	if (!ns) {
		r = -ENOMEM;
		goto out;
	}
	for (i = 0; i < rows; i++) {
		memcpy(ns[i].rec, nb.data + i * ZZT_S_SIZE, ZZT_S_SIZE);
		ns[i].bind = zzt_bind_get(ns[i].rec) ? (int)zzt_bind_get(ns[i].rec) : -1;
		ns[i].final_cr = 1;
	}
	/* a stat keeps its code (borrowed until commit) unless it binds now or did */
	for (i = 0; i < rows && i < b->nstats; i++) {
		ns[i].final_cr = b->stats[i].final_cr;
		if (ns[i].bind < 0 && b->stats[i].bind < 0) {
			ns[i].code = b->stats[i].code;
			ns[i].code_node = b->stats[i].code_node;
		}
	}
	tmp = *b;
	tmp.stats = ns;
	tmp.nstats = rows;
	r = zzt_board_check_size(ar, &tmp);
	if (r)
		goto out;
	/* commit: the code (and code view) of every stat that lost it goes */
	for (i = 0; i < b->nstats; i++) {
		struct zzt_stat *o = &b->stats[i];

		if (i < rows && ns[i].bind < 0 && o->bind < 0)
			continue;
		gfs_buf_release(&o->code);
		if (o->code_node) {
			((struct zzt_ref *)o->code_node->priv)->stat = ZZT_NO_STAT;
			gfs_node_remove(ar, o->code_node);
		}
		o->code_node = NULL;
	}
	free(b->stats);
	b->stats = ns;
	b->nstats = b->capstats = rows;
	ns = NULL;
	b->dirty = 1;
	gfs_tree_invalidate(ar);
out:
	free(ns);
	free(old);
	gfs_buf_release(&nb);
	return r;
}

/* ---- code/NAME.oop ---------------------------------------------------------------- */

static struct zzt_stat *zzt_ref_stat(struct gfs_archive *ar, struct gfs_node *n,
				     struct zzt_board **bp)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	const struct zzt_ref *ref = n->priv;

	if (!b || ref->stat >= b->nstats)
		return NULL;
	*bp = b;
	return &b->stats[ref->stat];
}

static int zzt_code_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_board *b;
	struct zzt_stat *s = zzt_ref_stat(ar, n, &b);
	size_t i;
	int r = 0;

	if (!s)
		return -EIO;
	for (i = 0; i < s->code.len && !r; i++)
		r = s->code.data[i] == '\r' ? gfs_buf_addc(out, '\n')
					    : zzt_cp437_put(out, s->code.data[i]);
	if (!r && s->code.len && !s->final_cr)
		r = gfs_buf_addc(out, '\n');
	return r;
}

static int zzt_code_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			  size_t len)
{
	struct zzt_board *b;
	struct zzt_stat *s = zzt_ref_stat(ar, n, &b);
	struct gfs_buf code = GFS_BUF_INIT, old;
	size_t i = 0;
	unsigned line = 1;
	int r = 0;

	if (!s)
		return -EIO;
	while (i < len && !r) {
		uint32_t cp;
		size_t k;
		int c;

		if (data[i] == '\r' && i + 1 < len && data[i + 1] == '\n') {
			i++;
			continue;
		}
		k = gfs_utf8_decode(data + i, len - i, &cp);
		if (!k) {
			r = gfs_err(ar, -EINVAL, "%s: line %u: not UTF-8", n->name, line);
			break;
		}
		if (cp == '\n' || cp == '\r') {
			c = '\r';
			line++;
		} else if (cp == '\t') {
			c = '\t';
		} else {
			c = zzt_cp437_from(cp);
		}
		if (c < 0) {
			r = gfs_err(ar, -EINVAL, "%s: line %u: U+%04X has no code page 437 form",
				    n->name, line, (unsigned)cp);
			break;
		}
		r = gfs_buf_addc(&code, (uint8_t)c);
		i += k;
	}
	if (r)
		goto out;
	if (!s->final_cr && code.len && code.data[code.len - 1] == '\r')
		code.len--;
	if (code.len > ZZT_CODE_MAX) {
		r = gfs_err(ar, -EINVAL, "%s: %zu bytes of code, at most %d", n->name, code.len,
			    ZZT_CODE_MAX);
		goto out;
	}
	if (code.len == s->code.len && (!code.len || !memcmp(code.data, s->code.data, code.len)))
		goto out;
	old = s->code;
	s->code = code;
	if (zzt_board_check_size(ar, b)) {
		s->code = old;
		r = -EINVAL;
		goto out;
	}
	code = old;
	b->dirty = 1;
out:
	gfs_buf_release(&code);
	return r;
}

/* ---- extra.bin (bytes after the last stat), board.png ------------------------ */

static int zzt_extra_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_board *b = zzt_ref_board(ar, n);

	if (!b)
		return -EIO;
	return b->tail_len ? gfs_buf_add(out, b->tail, b->tail_len) : 0;
}

static int zzt_extra_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			   size_t len)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	uint8_t *p, *old;
	size_t oldlen;

	if (!b)
		return -EIO;
	if (len == b->tail_len && (!len || !memcmp(data, b->tail, len)))
		return 0;
	if (len > ZZT_BOARD_MAX)
		return gfs_err(ar, -EINVAL, "extra.bin: %zu bytes, more than a board holds", len);
	p = malloc(len ? len : 1);
	if (!p)
		return -ENOMEM;
	memcpy(p, data, len);
	old = b->tail;
	oldlen = b->tail_len;
	b->tail = p;
	b->tail_len = len;
	if (zzt_board_check_size(ar, b)) {
		b->tail = old;
		b->tail_len = oldlen;
		free(p);
		return -EINVAL;
	}
	free(old);
	b->dirty = 1;
	return 0;
}

static int zzt_png_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_board *b = zzt_ref_board(ar, n);

	if (!b)
		return -EIO;
	return zzt_render_png(b, out);
}

const struct gfs_node_ops zzt_ops_world = { .render = zzt_world_render, .store = zzt_world_store, .free = free };
const struct gfs_node_ops zzt_ops_board = { .render = zzt_board_render, .store = zzt_board_store, .free = free };
const struct gfs_node_ops zzt_ops_grid = { .render = zzt_grid_render, .store = zzt_grid_store, .free = free };
const struct gfs_node_ops zzt_ops_stats = { .render = zzt_stats_render, .store = zzt_stats_store, .free = free };
const struct gfs_node_ops zzt_ops_code = { .render = zzt_code_render, .store = zzt_code_store, .free = free };
const struct gfs_node_ops zzt_ops_png = { .render = zzt_png_render, .free = free };
const struct gfs_node_ops zzt_ops_extra = { .render = zzt_extra_render, .store = zzt_extra_store, .free = free };
const struct gfs_node_ops zzt_ops_raw = { .free = free };
