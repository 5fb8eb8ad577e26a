/*
 * zzt_view.c - the text views of a ZZT world and their parsers.
 *
 * world.ini and board.ini patch fields of the raw header / board bytes in
 * place, and only fields whose value changed: bytes the views do not show
 * (stale characters after a Pascal string's length, odd lengths) stay.
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

/* ---- model access ---------------------------------------------------------- */

static struct zzt_board *zzt_ref_board(struct gfs_archive *ar, struct gfs_node *n)
{
	struct zzt_world *w = ar->priv;
	struct zzt_ref *ref = n->priv;

	if (!w || !ref || ref->board >= w->nboards || w->boards[ref->board].damaged)
		return NULL;
	return &w->boards[ref->board];
}

/* ---- strings --------------------------------------------------------------- */

/* Quoted CP437 string as UTF-8: "..." with \" and \\ escaped. */
static int zzt_put_str(struct gfs_buf *out, const uint8_t *p, size_t len)
{
	size_t i;
	int r = gfs_buf_addc(out, '"');

	for (i = 0; i < len && !r; i++) {
		if (p[i] == '"' || p[i] == '\\')
			r = gfs_buf_addc(out, '\\');
		if (!r)
			r = zzt_cp437_put(out, p[i]);
	}
	return r ? r : gfs_buf_addc(out, '"');
}

/* Parse a (possibly quoted) UTF-8 value into CP437 bytes, at most max. */
static int zzt_parse_str(const char *v, uint8_t *out, size_t max, size_t *outlen,
			 char *why, size_t wl)
{
	size_t len = strlen(v), i = 0, n = 0;
	int quoted = 0;

	if (len >= 2 && v[0] == '"' && v[len - 1] == '"') {
		quoted = 1;
		i = 1;
		len--;
	}
	while (i < len) {
		uint32_t cp;
		size_t k;
		int c;

		if (quoted && v[i] == '\\' && i + 1 < len && (v[i + 1] == '"' || v[i + 1] == '\\'))
			i++;
		else if (quoted && v[i] == '"') {
			snprintf(why, wl, "unescaped quote inside the string");
			return -EINVAL;
		}
		if (zzt_utf8_next((const uint8_t *)v + i, len - i, &cp, &k)) {
			snprintf(why, wl, "not UTF-8");
			return -EINVAL;
		}
		c = zzt_cp437_from(cp);
		if (c < 0) {
			snprintf(why, wl, "U+%04X has no code page 437 form", (unsigned)cp);
			return -EINVAL;
		}
		if (n >= max) {
			snprintf(why, wl, "longer than %zu characters", max);
			return -EINVAL;
		}
		out[n++] = (uint8_t)c;
		i += k;
	}
	*outlen = n;
	return 0;
}

/* ---- INI field tables --------------------------------------------------------- */

enum zzt_ft { ZZT_F_S16, ZZT_F_U8, ZZT_F_STR, ZZT_F_HEX };
enum zzt_area { ZZT_A_HDR, ZZT_A_NAME, ZZT_A_PROPS };

struct zzt_field {
	const char *section, *key;
	enum zzt_ft type;
	enum zzt_area area;
	unsigned off, max;	/* max: string characters or hex bytes */
};

static const struct zzt_field zzt_world_fields[] = {
	{ "world", "name", ZZT_F_STR, ZZT_A_HDR, ZZT_H_NAME, ZZT_NAME_MAX },
	{ "world", "saved", ZZT_F_U8, ZZT_A_HDR, ZZT_H_SAVED, 0 },
	{ "world", "board", ZZT_F_S16, ZZT_A_HDR, ZZT_H_BOARD, 0 },
	{ "world", "time_passed", ZZT_F_S16, ZZT_A_HDR, ZZT_H_TIME, 0 },
	{ "world", "time_ticks", ZZT_F_S16, ZZT_A_HDR, ZZT_H_TICKS, 0 },
	{ "player", "health", ZZT_F_S16, ZZT_A_HDR, ZZT_H_HEALTH, 0 },
	{ "player", "ammo", ZZT_F_S16, ZZT_A_HDR, ZZT_H_AMMO, 0 },
	{ "player", "gems", ZZT_F_S16, ZZT_A_HDR, ZZT_H_GEMS, 0 },
	{ "player", "torches", ZZT_F_S16, ZZT_A_HDR, ZZT_H_TORCHES, 0 },
	{ "player", "torch_cycles", ZZT_F_S16, ZZT_A_HDR, ZZT_H_TORCH_CYCLES, 0 },
	{ "player", "energizer_cycles", ZZT_F_S16, ZZT_A_HDR, ZZT_H_ENERGY_CYCLES, 0 },
	{ "player", "score", ZZT_F_S16, ZZT_A_HDR, ZZT_H_SCORE, 0 },
	{ "keys", "blue", ZZT_F_U8, ZZT_A_HDR, ZZT_H_KEYS + 0, 0 },
	{ "keys", "green", ZZT_F_U8, ZZT_A_HDR, ZZT_H_KEYS + 1, 0 },
	{ "keys", "cyan", ZZT_F_U8, ZZT_A_HDR, ZZT_H_KEYS + 2, 0 },
	{ "keys", "red", ZZT_F_U8, ZZT_A_HDR, ZZT_H_KEYS + 3, 0 },
	{ "keys", "purple", ZZT_F_U8, ZZT_A_HDR, ZZT_H_KEYS + 4, 0 },
	{ "keys", "yellow", ZZT_F_U8, ZZT_A_HDR, ZZT_H_KEYS + 5, 0 },
	{ "keys", "white", ZZT_F_U8, ZZT_A_HDR, ZZT_H_KEYS + 6, 0 },
	{ "flags", "flag0", ZZT_F_STR, ZZT_A_HDR, ZZT_H_FLAGS + 0 * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX },
	{ "flags", "flag1", ZZT_F_STR, ZZT_A_HDR, ZZT_H_FLAGS + 1 * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX },
	{ "flags", "flag2", ZZT_F_STR, ZZT_A_HDR, ZZT_H_FLAGS + 2 * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX },
	{ "flags", "flag3", ZZT_F_STR, ZZT_A_HDR, ZZT_H_FLAGS + 3 * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX },
	{ "flags", "flag4", ZZT_F_STR, ZZT_A_HDR, ZZT_H_FLAGS + 4 * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX },
	{ "flags", "flag5", ZZT_F_STR, ZZT_A_HDR, ZZT_H_FLAGS + 5 * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX },
	{ "flags", "flag6", ZZT_F_STR, ZZT_A_HDR, ZZT_H_FLAGS + 6 * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX },
	{ "flags", "flag7", ZZT_F_STR, ZZT_A_HDR, ZZT_H_FLAGS + 7 * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX },
	{ "flags", "flag8", ZZT_F_STR, ZZT_A_HDR, ZZT_H_FLAGS + 8 * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX },
	{ "flags", "flag9", ZZT_F_STR, ZZT_A_HDR, ZZT_H_FLAGS + 9 * ZZT_H_FLAG_STRIDE, ZZT_NAME_MAX },
	{ "unused", "word_0x019", ZZT_F_S16, ZZT_A_HDR, ZZT_H_UNUSED19, 0 },
	{ "unused", "bytes_0x109", ZZT_F_HEX, ZZT_A_HDR, ZZT_H_PAD, ZZT_HDR_SIZE - ZZT_H_PAD },
	{ NULL, NULL, ZZT_F_U8, ZZT_A_HDR, 0, 0 }
};

static const struct zzt_field zzt_board_fields[] = {
	{ "board", "name", ZZT_F_STR, ZZT_A_NAME, 0, ZZT_B_NAME_MAX },
	{ "board", "max_shots", ZZT_F_U8, ZZT_A_PROPS, ZZT_P_SHOTS, 0 },
	{ "board", "dark", ZZT_F_U8, ZZT_A_PROPS, ZZT_P_DARK, 0 },
	{ "board", "exit_north", ZZT_F_U8, ZZT_A_PROPS, ZZT_P_EXITS + 0, 0 },
	{ "board", "exit_south", ZZT_F_U8, ZZT_A_PROPS, ZZT_P_EXITS + 1, 0 },
	{ "board", "exit_west", ZZT_F_U8, ZZT_A_PROPS, ZZT_P_EXITS + 2, 0 },
	{ "board", "exit_east", ZZT_F_U8, ZZT_A_PROPS, ZZT_P_EXITS + 3, 0 },
	{ "board", "restart_on_zap", ZZT_F_U8, ZZT_A_PROPS, ZZT_P_RESTART, 0 },
	{ "board", "message", ZZT_F_STR, ZZT_A_PROPS, ZZT_P_MSG, ZZT_P_MSG_MAX },
	{ "board", "enter_x", ZZT_F_U8, ZZT_A_PROPS, ZZT_P_ENTER_X, 0 },
	{ "board", "enter_y", ZZT_F_U8, ZZT_A_PROPS, ZZT_P_ENTER_Y, 0 },
	{ "board", "time_limit", ZZT_F_S16, ZZT_A_PROPS, ZZT_P_TIME, 0 },
	{ "unused", "bytes_70", ZZT_F_HEX, ZZT_A_PROPS, ZZT_P_UNUSED, ZZT_P_UNUSED_LEN },
	{ NULL, NULL, ZZT_F_U8, ZZT_A_HDR, 0, 0 }
};

static size_t zzt_str_len(const uint8_t *p, unsigned max)
{
	return p[0] > max ? max : p[0];
}

static size_t zzt_hex_len(const uint8_t *p, unsigned n)
{
	while (n && !p[n - 1])
		n--;
	return n;
}

static int zzt_put_field(struct gfs_buf *out, const struct zzt_field *f, const uint8_t *p)
{
	size_t i, n;
	int r;

	r = gfs_buf_printf(out, "%s =", f->key);
	if (f->type != ZZT_F_HEX || zzt_hex_len(p, f->max))
		r |= gfs_buf_addc(out, ' ');
	switch (f->type) {
	case ZZT_F_S16:
		r |= gfs_buf_printf(out, "%d", (int16_t)gfs_le16(p));
		break;
	case ZZT_F_U8:
		r |= gfs_buf_printf(out, "%u", p[0]);
		break;
	case ZZT_F_STR:
		r |= zzt_put_str(out, p + 1, zzt_str_len(p, f->max));
		break;
	case ZZT_F_HEX:
		n = zzt_hex_len(p, f->max);
		for (i = 0; i < n; i++)
			r |= gfs_buf_printf(out, "%02x", p[i]);
		break;
	}
	return r ? -ENOMEM : gfs_buf_addc(out, '\n');
}

/* Set field f at p from text v when its value differs; *changed set then. */
static int zzt_set_field(const struct zzt_field *f, uint8_t *p, const char *v, int *changed,
			 char *why, size_t wl)
{
	uint8_t buf[ZZT_HDR_SIZE];
	size_t n, i;
	int64_t x;

	switch (f->type) {
	case ZZT_F_S16:
		if (gfs_parse_int(v, -32768, 32767, &x)) {
			snprintf(why, wl, "want an integer -32768..32767");
			return -EINVAL;
		}
		if (x != (int16_t)gfs_le16(p)) {
			gfs_put_u16le(p, (uint16_t)(int)x);
			*changed = 1;
		}
		return 0;
	case ZZT_F_U8:
		if (gfs_parse_int(v, 0, 255, &x)) {
			snprintf(why, wl, "want an integer 0..255");
			return -EINVAL;
		}
		if (x != p[0]) {
			p[0] = (uint8_t)x;
			*changed = 1;
		}
		return 0;
	case ZZT_F_STR:
		if (zzt_parse_str(v, buf, f->max, &n, why, wl))
			return -EINVAL;
		if (n != zzt_str_len(p, f->max) || memcmp(buf, p + 1, n)) {
			p[0] = (uint8_t)n;
			memcpy(p + 1, buf, n);
			*changed = 1;
		}
		return 0;
	case ZZT_F_HEX:
		if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
			v += 2;
		n = strlen(v);
		if (n % 2 || n / 2 > f->max) {
			snprintf(why, wl, "want at most %u bytes as hex digit pairs", f->max);
			return -EINVAL;
		}
		memset(buf, 0, f->max);
		for (i = 0; i < n / 2; i++) {
			int hi = gfs_hex_digit(v[2 * i]), lo = gfs_hex_digit(v[2 * i + 1]);

			if (hi < 0 || lo < 0) {
				snprintf(why, wl, "want hex digits");
				return -EINVAL;
			}
			buf[i] = (uint8_t)(hi << 4 | lo);
		}
		if (memcmp(buf, p, f->max)) {
			memcpy(p, buf, f->max);
			*changed = 1;
		}
		return 0;
	}
	return -EINVAL;
}

struct zzt_ini_ctx {
	struct gfs_archive *ar;
	const char *view;
	const struct zzt_field *fields;
	uint8_t *area[3];
	int changed;
};

static int zzt_ini_cb(void *vctx, const char *section, const char *key, const char *value,
		      unsigned line)
{
	struct zzt_ini_ctx *c = vctx;
	const struct zzt_field *f;
	char why[128];

	for (f = c->fields; f->key; f++) {
		if (strcmp(f->section, section) || strcmp(f->key, key))
			continue;
		if (zzt_set_field(f, c->area[f->area] + f->off, value, &c->changed, why, sizeof(why)))
			return gfs_err(c->ar, -EINVAL, "%s: line %u: %s: %s", c->view, line, key, why);
		return 0;
	}
	return gfs_err(c->ar, -EINVAL, "%s: line %u: unknown key [%s] %s", c->view, line,
		       section, key);
}

/* A comment line shown above some keys. */
static const char *zzt_field_note(const struct zzt_field *f)
{
	static const struct {
		const char *section, *key, *note;
	} notes[] = {
		{ "world", "saved", "non-zero: a saved game (ZZT's editor also refuses such a world)" },
		{ "world", "board", "the start board of a world, the current board of a saved game" },
		{ "world", "time_passed", "seconds spent on a board with a time limit" },
		{ "keys", "blue", "non-zero: the player holds that key" },
		{ "board", "exit_north", "exits: the board entered off each edge, 0 for none" },
		{ "board", "enter_x", "where the player entered the board, 1-based" },
		{ "board", "time_limit", "seconds, 0 for none" },
	};
	size_t i;

	for (i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (!strcmp(notes[i].section, f->section) && !strcmp(notes[i].key, f->key))
			return notes[i].note;
	return NULL;
}

static int zzt_put_fields(struct gfs_buf *out, const struct zzt_field *fields, uint8_t *const *area)
{
	const char *section = "";
	const struct zzt_field *f;
	int r = 0;

	for (f = fields; f->key && !r; f++) {
		if (strcmp(section, f->section)) {
			r = gfs_buf_printf(out, "\n[%s]\n", f->section);
			section = f->section;
		}
		if (!r && zzt_field_note(f))
			r = gfs_buf_printf(out, "; %s\n", zzt_field_note(f));
		if (!r)
			r = zzt_put_field(out, f, area[f->area] + f->off);
	}
	return r;
}

/* ---- world.ini ------------------------------------------------------------- */

static int zzt_world_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_world *w = ar->priv;
	uint8_t *area[3] = { w->hdr, NULL, NULL };

	(void)n;
	if (gfs_buf_printf(out, "; ZZT %s header.  %d boards (the boards/ directory; not editable "
			   "here).\n; Strings are code page 437 shown as UTF-8; unused bytes as hex, "
			   "trailing zero bytes left out.\n",
			   w->hdr[ZZT_H_SAVED] ? "saved game" : "world",
			   (int16_t)gfs_le16(w->hdr + ZZT_H_NUMBOARDS) + 1))
		return -ENOMEM;
	return zzt_put_fields(out, zzt_world_fields, area);
}

static int zzt_world_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			   size_t len)
{
	struct zzt_world *w = ar->priv;
	struct zzt_ini_ctx c;
	uint8_t hdr[ZZT_HDR_SIZE];
	int r;

	(void)n;
	memcpy(hdr, w->hdr, ZZT_HDR_SIZE);
	memset(&c, 0, sizeof(c));
	c.ar = ar;
	c.view = "world.ini";
	c.fields = zzt_world_fields;
	c.area[ZZT_A_HDR] = hdr;
	r = gfs_ini_parse(ar, c.view, data, len, zzt_ini_cb, &c);
	if (r)
		return r;
	if (c.changed) {
		memcpy(w->hdr, hdr, ZZT_HDR_SIZE);
		w->hdr_dirty = 1;
	}
	return 0;
}

/* ---- board.ini ------------------------------------------------------------- */

static int zzt_board_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	uint8_t *area[3];

	if (!b)
		return -EIO;
	area[ZZT_A_HDR] = NULL;
	area[ZZT_A_NAME] = b->name;
	area[ZZT_A_PROPS] = b->props;
	/* nothing here may depend on other boards (offsets, sizes): views diff cleanly */
	if (gfs_buf_adds(out, "; ZZT board settings (tiles: elements.csv and colors.csv, stats: stats.csv)\n"))
		return -ENOMEM;
	return zzt_put_fields(out, zzt_board_fields, area);
}

static int zzt_board_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			   size_t len)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	uint8_t name[ZZT_B_NAME_LEN], props[ZZT_P_SIZE];
	struct zzt_ini_ctx c;
	int r;

	if (!b)
		return -EIO;
	memcpy(name, b->name, sizeof(name));
	memcpy(props, b->props, sizeof(props));
	memset(&c, 0, sizeof(c));
	c.ar = ar;
	c.view = "board.ini";
	c.fields = zzt_board_fields;
	c.area[ZZT_A_NAME] = name;
	c.area[ZZT_A_PROPS] = props;
	r = gfs_ini_parse(ar, c.view, data, len, zzt_ini_cb, &c);
	if (r)
		return r;
	if (c.changed) {
		memcpy(b->name, name, sizeof(name));
		memcpy(b->props, props, sizeof(props));
		b->dirty = 1;
	}
	return 0;
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
	size_t i, c, k;
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
		k = zzt_hex_len(s->rec + ZZT_S_PAD, ZZT_S_PAD_LEN);
		for (c = 0; c < k; c++)
			r |= gfs_buf_printf(out, "%02x", s->rec[ZZT_S_PAD + c]);
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
	char why[128];
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
		{
			struct zzt_field pf = { "", "padding", ZZT_F_HEX, ZZT_A_HDR, 0, ZZT_S_PAD_LEN };
			int dummy = 0;

			if (zzt_set_field(&pf, s->rec + ZZT_S_PAD, pad, &dummy, why, sizeof(why))) {
				r = gfs_err(ar, -EINVAL, "stats.csv: line %u: padding: %s", line, why);
				goto out;
			}
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
		if (zzt_utf8_next(data + i, len - i, &cp, &k)) {
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
