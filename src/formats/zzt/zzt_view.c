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

/* ---- world.ini ------------------------------------------------------------- */

static int zzt_world_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_world *w = ar->priv;

	(void)n;
	if (gfs_buf_printf(out, "; %s %s header.  %d boards (the boards/ directory; not editable "
			   "here).\n; Strings are code page 437 shown as UTF-8; unused bytes as hex, "
			   "trailing zero bytes left out.\n\n",
			   w->eng->name, w->hdr[w->eng->h_saved] ? "saved game" : "world",
			   (int)gfs_record_count(w->eng->boards, w->hdr)))
		return -ENOMEM;
	return gfs_record_render(w->eng->world_rec, w->hdr, w->eng->hdr_size, NULL, out);
}

static int zzt_world_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			   size_t len)
{
	struct zzt_world *w = ar->priv;
	struct gfs_buf h = GFS_BUF_INIT;
	int r;

	(void)n;
	r = gfs_record_parse(ar, "world.ini", w->eng->world_rec, w->hdr, w->eng->hdr_size, data, len,
			     NULL, &h);
	if (!r && memcmp(h.data, w->hdr, w->eng->hdr_size)) {
		memcpy(w->hdr, h.data, w->eng->hdr_size);
		w->hdr_dirty = 1;
	}
	gfs_buf_release(&h);
	return r;
}

/* ---- board.ini ------------------------------------------------------------- */

/* The board's name and properties end to end, as the engine's board_rec reads them. */
#define ZZT_BOARD_BYTES (ZZT_B_NAME_LEN_MAX + ZZT_P_SIZE_MAX)
static size_t zzt_board_bytes(const struct zzt_board *b, uint8_t *p)
{
	memcpy(p, b->name, b->eng->name_len);
	memcpy(p + b->eng->name_len, b->props, b->eng->p_size);
	return b->eng->name_len + b->eng->p_size;
}

static int zzt_board_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	uint8_t p[ZZT_BOARD_BYTES];

	if (!b)
		return -EIO;
	return gfs_record_render(b->eng->board_rec, p, zzt_board_bytes(b, p), NULL, out);
}

static int zzt_board_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			   size_t len)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	uint8_t p[ZZT_BOARD_BYTES];
	struct gfs_buf h = GFS_BUF_INIT;
	size_t sz;
	int r;

	if (!b)
		return -EIO;
	sz = zzt_board_bytes(b, p);
	r = gfs_record_parse(ar, "board.ini", b->eng->board_rec, p, sz, data, len, NULL, &h);
	if (!r && memcmp(h.data, p, sz)) {
		memcpy(b->name, h.data, b->eng->name_len);
		memcpy(b->props, h.data + b->eng->name_len, b->eng->p_size);
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
	r = gfs_grid_xheader_from(out, b->eng->w, 1);
	return r ? r : gfs_grid_render_u8(out, g, b->eng->tiles, b->eng->w);
}

static int zzt_grid_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			  size_t len)
{
	struct zzt_board *b = zzt_ref_board(ar, n);
	const struct zzt_ref *ref = n->priv;
	const char *view = ref->kind == ZZT_V_ELEMENTS ? "elements.csv" : "colors.csv";
	uint8_t grid[ZZT_TILES_MAX], old[ZZT_TILES_MAX], *g;
	const struct zzt_engine *e;
	struct gfs_grid l;
	size_t i;
	int r;

	if (!b)
		return -EIO;
	e = b->eng;
	g = ref->kind == ZZT_V_ELEMENTS ? b->elem : b->color;
	r = gfs_grid_parse(ar, view, data, len, e->w, NULL, &l);
	if (r)
		return r;
	r = gfs_grid_u8(ar, &l, e->w, e->h, grid);
	/* the engine reads garbage for ids past its table: none new (old ones stay) */
	for (i = 0; i < e->tiles && !r && ref->kind == ZZT_V_ELEMENTS; i++)
		if (grid[i] >= e->nelems && grid[i] != g[i]) {
			char what[80];

			snprintf(what, sizeof(what), "element %u is not one of %s's (0-%u)", grid[i],
				 e->name, e->nelems - 1);
			r = gfs_grid_err(ar, &l, i / e->w, i % e->w, what);
		}
	if (r)
		goto out;
	if (!memcmp(grid, g, e->tiles))
		goto out;
	memcpy(old, g, e->tiles);
	memcpy(g, grid, e->tiles);
	r = b->tiles_changed;
	b->tiles_changed = 1;
	if (zzt_board_check_size(ar, b)) {
		memcpy(g, old, e->tiles);
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

/* ---- stats.csv: the stat records as a table (gfs_layout.h, zzt_engine.c) ------ */

/* The stat records of b one after another, each with its bind in its length field. */
static uint8_t *zzt_stat_bytes(const struct zzt_board *b)
{
	size_t sz = b->eng->s_size;
	uint8_t *p = malloc(b->nstats ? b->nstats * sz : 1);

	for (size_t i = 0; p && i < b->nstats; i++) {
		memcpy(p + i * sz, b->stats[i].rec, sz);
		if (b->stats[i].bind >= 0)
			zzt_bind_set(p + i * sz, (uint64_t)b->stats[i].bind);
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
	r = p ? gfs_table_render(b->eng->stats, p, b->nstats, NULL, out) : -ENOMEM;
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
	r = gfs_table_parse(ar, "stats.csv", b->eng->stats, old, b->nstats, data, len, NULL,
			    (void *)b->eng, &nb, &rows);
	if (r)
		goto out;
	if (rows == 0 && b->nstats) {
		r = gfs_err(ar, -EINVAL, "stats.csv: no stats; the first row is the player's");
		goto out;
	}
	if (rows == b->nstats && (!rows || !memcmp(nb.data, old, rows * b->eng->s_size)))
		goto out;
	ns = calloc(rows ? rows : 1, sizeof(*ns));
	if (!ns) {
		r = -ENOMEM;
		goto out;
	}
	for (i = 0; i < rows; i++) {
		memcpy(ns[i].rec, nb.data + i * b->eng->s_size, b->eng->s_size);
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
