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
#include "gfs_record.h"

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
#undef ZZT_U8
#undef ZZT_S16

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

/* ---- stats.csv ------------------------------------------------------------------ */

enum zzt_sc { ZZT_C_U8, ZZT_C_S16, ZZT_C_S32 };

static const struct {
	const char *name;
	enum zzt_sc type;
	unsigned off;
} zzt_stat_cols[] = {
	{ "x", ZZT_C_U8, ZZT_S_X },
	{ "y", ZZT_C_U8, ZZT_S_Y },
	{ "step_x", ZZT_C_S16, ZZT_S_STEPX },
	{ "step_y", ZZT_C_S16, ZZT_S_STEPY },
	{ "cycle", ZZT_C_S16, ZZT_S_CYCLE },
	{ "p1", ZZT_C_U8, ZZT_S_P1 },
	{ "p2", ZZT_C_U8, ZZT_S_P2 },
	{ "p3", ZZT_C_U8, ZZT_S_P3 },
	{ "follower", ZZT_C_S16, ZZT_S_FOLLOWER },
	{ "leader", ZZT_C_S16, ZZT_S_LEADER },
	{ "under_element", ZZT_C_U8, ZZT_S_UNDER_ID },
	{ "under_color", ZZT_C_U8, ZZT_S_UNDER_COLOR },
	{ "pointer", ZZT_C_S32, ZZT_S_POINTER },
	{ "instruction", ZZT_C_S16, ZZT_S_INSTR },
};
#define ZZT_NSTATCOLS (sizeof(zzt_stat_cols) / sizeof(zzt_stat_cols[0]))
#define ZZT_STATS_NCOLS (ZZT_NSTATCOLS + 3)	/* stat, ..., bind, padding */
#define ZZT_STATS_MAX 2000			/* more cannot fit 65535 bytes */

static int32_t zzt_s32(const uint8_t *p)
{
	struct gfs_rd r;
	int32_t v = 0;

	gfs_rd_init(&r, p, 4, 0);
	(void)gfs_rd_s32le(&r, &v);
	return v;
}

static int zzt_stats_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	size_t i, c;
	int r;

	if (!b)
		return -EIO;
	r = gfs_buf_adds(out, "stat");
	for (c = 0; c < ZZT_NSTATCOLS; c++)
		r |= gfs_buf_printf(out, ",%s", zzt_stat_cols[c].name);
	r |= gfs_buf_adds(out, ",bind,padding\n");
	for (i = 0; i < b->nstats && !r; i++) {
		const struct zzt_stat *s = &b->stats[i];

		r |= gfs_buf_printf(out, "%zu", i);
		for (c = 0; c < ZZT_NSTATCOLS; c++) {
			const uint8_t *p = s->rec + zzt_stat_cols[c].off;

			switch (zzt_stat_cols[c].type) {
			case ZZT_C_U8:
				r |= gfs_buf_printf(out, ",%u", p[0]);
				break;
			case ZZT_C_S16:
				r |= gfs_buf_printf(out, ",%d", (int16_t)gfs_le16(p));
				break;
			case ZZT_C_S32:
				r |= gfs_buf_printf(out, ",0x%08x", (unsigned)zzt_s32(p));
				break;
			}
		}
		if (s->bind >= 0)
			r |= gfs_buf_printf(out, ",%d,", s->bind);
		else
			r |= gfs_buf_adds(out, ",,");
		r |= gfs_hexz_render(out, s->rec + ZZT_S_PAD, ZZT_S_PAD_LEN);
		r |= gfs_buf_addc(out, '\n');
	}
	return r ? -ENOMEM : 0;
}

static int zzt_stats_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			   size_t len)
{
	struct zzt_board *b = zzt_ref_board(ar, n), tmp;
	struct zzt_stat *ns = NULL;
	struct gfs_grid l;
	size_t rows, i, c;
	int r, changed = 0;

	if (!b)
		return -EIO;
	r = gfs_grid_parse(ar, "stats.csv", data, len, 0, NULL, &l);
	if (r)
		return r;
	rows = l.nrows;
	if (rows == 0 && b->nstats) {
		r = gfs_err(ar, -EINVAL, "stats.csv: no stats; the first row is the player's");
		goto out;
	}
	if (rows > ZZT_STATS_MAX) {
		r = gfs_err(ar, -EINVAL, "stats.csv: %zu stats, at most %d fit a board", rows,
			    ZZT_STATS_MAX);
		goto out;
	}
	ns = calloc(rows ? rows : 1, sizeof(*ns));
	if (!ns) {
		r = -ENOMEM;
		goto out;
	}
	for (i = 0; i < rows; i++) {
		const struct gfs_grid_row *row = &l.rows[i];
		/* the padding column may be left out */
		const char *bind = row->ncells >= ZZT_STATS_NCOLS - 1 ? row->cell[ZZT_NSTATCOLS + 1] : "";
		const char *pad = row->ncells == ZZT_STATS_NCOLS ? row->cell[ZZT_NSTATCOLS + 2] : "";
		unsigned line = row->line;
		struct zzt_stat *s = &ns[i];
		int64_t v;

		if (row->ncells != ZZT_STATS_NCOLS && row->ncells != ZZT_STATS_NCOLS - 1) {
			r = gfs_err(ar, -EINVAL, "stats.csv: line %u: %zu values, want %zu", line,
				    row->ncells, (size_t)ZZT_STATS_NCOLS);
			goto out;
		}
		if (gfs_parse_int(row->cell[0], 0, ZZT_STATS_MAX, &v) || (size_t)v != i) {
			r = gfs_err(ar, -EINVAL, "stats.csv: line %u: stat is \"%s\", want %zu "
				    "(rows stay in order; add or remove them at the end)", line,
				    row->cell[0], i);
			goto out;
		}
		if (i < b->nstats)
			memcpy(s->rec, b->stats[i].rec, ZZT_S_SIZE);
		s->bind = -1;
		s->final_cr = 1;
		for (c = 0; c < ZZT_NSTATCOLS; c++) {
			uint8_t *p = s->rec + zzt_stat_cols[c].off;
			int64_t lo = 0, hi = 255;

			if (zzt_stat_cols[c].type == ZZT_C_S16) {
				lo = -32768;
				hi = 32767;
			} else if (zzt_stat_cols[c].type == ZZT_C_S32) {
				lo = INT32_MIN;
				hi = UINT32_MAX;
			}
			if (gfs_parse_int(row->cell[c + 1], lo, hi, &v)) {
				r = gfs_err(ar, -EINVAL, "stats.csv: line %u: %s: \"%s\" is not %lld..%lld",
					    line, zzt_stat_cols[c].name, row->cell[c + 1], (long long)lo,
					    (long long)hi);
				goto out;
			}
			if (zzt_stat_cols[c].type == ZZT_C_U8)
				p[0] = (uint8_t)v;
			else if (zzt_stat_cols[c].type == ZZT_C_S16)
				gfs_put_u16le(p, (uint16_t)(int)v);
			else
				gfs_put_u32le(p, (uint32_t)v);
		}
		/* ZZT reads and writes past its tile array for a stat outside it */
		if ((s->rec[ZZT_S_X] > ZZT_STAT_X_MAX || s->rec[ZZT_S_Y] > ZZT_STAT_Y_MAX) &&
		    (i >= b->nstats || s->rec[ZZT_S_X] != b->stats[i].rec[ZZT_S_X] ||
		     s->rec[ZZT_S_Y] != b->stats[i].rec[ZZT_S_Y])) {
			r = gfs_err(ar, -EINVAL, "stats.csv: line %u: x %u, y %u is outside ZZT's board "
				    "(x 0-%d, y 0-%d)", line, s->rec[ZZT_S_X], s->rec[ZZT_S_Y],
				    ZZT_STAT_X_MAX, ZZT_STAT_Y_MAX);
			goto out;
		}
		if (bind[0]) {
			if (gfs_parse_int(bind, 1, (int64_t)rows - 1, &v)) {
				r = gfs_err(ar, -EINVAL, "stats.csv: line %u: bind: \"%s\" is not a stat "
					    "1..%zu", line, bind, rows ? rows - 1 : 0);
				goto out;
			}
			s->bind = (int)v;
		}
		if (gfs_hexz_parse(pad, s->rec + ZZT_S_PAD, ZZT_S_PAD_LEN)) {
			r = gfs_err(ar, -EINVAL, "stats.csv: line %u: padding: want at most %d bytes as "
				    "hex digit pairs", line, ZZT_S_PAD_LEN);
			goto out;
		}
		if (i < b->nstats) {
			const struct zzt_stat *o = &b->stats[i];

			if (memcmp(s->rec, o->rec, ZZT_S_SIZE) || s->bind != o->bind)
				changed = 1;
		} else {
			changed = 1;
		}
	}
	if (rows != b->nstats)
		changed = 1;
	if (!changed)
		goto out;
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
	gfs_grid_release(&l);
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
