/*
 * rpg_maps.c - the record views of a game's maps and of its game-wide
 * records (specs/ohrrpgce-lumps.md 2.2, 2.4, 5):
 *
 *   maps/NN-name/npcs.csv        .L##: one row per used NPC slot
 *   maps/NN-name/npc-types.csv   .N##: one row per NPC definition
 *   maps/NN-name/doors.csv       the map's DOX record: its 100 doors
 *   maps/NN-name/door-links.csv  .D##: the 200 door links
 *   maps/NN-name/map.ini         the map's MAP record (a gfs_record table)
 *   game/global-npc-types.csv    GLOBALNPCS1.N, as npc-types.csv
 *   game/gen.ini, game/binsize.ini, game/fixbits.ini   read-only
 *
 * The CSV views are int16 tables: a lump of int16 arrays (one a column) or
 * of int16 records (one a row).  Writing one back patches only the int16s
 * whose value changed; headers, the words of unused slots, trailing words
 * and bytes stay.  Counts are fixed, but npcs.csv lists the used slots only
 * (NPC id+1 not 0): a row with a new slot number (or none) fills a free
 * slot, a slot whose row is gone is zeroed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpg.h"
#include "gfs_grid.h"
#include "gfs_rd.h"
#include "gfs_layout.h"

/* ---- int16 tables on the CSV face (gfs_layout.h) ----------------------------- */

enum { T_NPCS, T_NTYPES, T_DOORS, T_LINKS };

/*
 * A table's columns: its int16 words as the CSV face's fields, each shown
 * as stored - bias.  A row is gathered into an element of int32s (column c
 * at 4c), so a field's range is the int16 range moved by the bias, which
 * the field declares: bias = -32768 - min.
 */
#define COL(c, k, bias) { .key = k, .kind = GFS_FK_SINT, .off = 4 * (c), .width = 4, \
			  .min = -32768 - (bias), .max = 32767 - (bias) }
#define COL_BIAS(f) (-32768 - (f)->min)
#define COL0(c, k) COL(c, k, 0)

static const struct gfs_field npc_cols[] = {
	COL(0, "x", 0), COL(1, "y", 1), COL(2, "npc", 1), COL0(3, "direction"), COL0(4, "frame"), COL0(5, "pool"),
};
static const struct gfs_field ntype_cols[] = {
	COL0(0, "picture"), COL0(1, "palette"), COL0(2, "movetype"), COL0(3, "speed"), COL0(4, "textbox"),
	COL0(5, "facetype"), COL0(6, "item"), COL0(7, "pushtype"), COL0(8, "activation"), COL0(9, "tag1"),
	COL0(10, "tag2"), COL0(11, "usetag"), COL0(12, "script"), COL0(13, "scriptarg"), COL0(14, "vehicle"),
	COL0(15, "defaultzone"), COL0(16, "defaultwallzone"), COL0(17, "ignore_passmap"), COL0(18, "pathfinding"),
};
static const struct gfs_field door_cols[] = { COL(0, "x", 0), COL(1, "y", 1), COL0(2, "exists") };
static const struct gfs_field link_cols[] = {
	COL0(0, "source"), COL0(1, "dest"), COL0(2, "map"), COL0(3, "tag1"), COL0(4, "tag2"),
};

struct i16tab {
	const char *view;		/* file name */
	const char *index;		/* the first column */
	const struct gfs_field *cols;	/* the data columns (a table shows the first i16geo.cols) */
	int sparse;			/* npcs.csv: rows only for used slots, the index names the slot */
};

static const struct i16tab i16tabs[] = {
	[T_NPCS] = { "npcs.csv", "slot", npc_cols, 1 },
	[T_NTYPES] = { "npc-types.csv", "id", ntype_cols, 0 },
	[T_DOORS] = { "doors.csv", "door", door_cols, 0 },
	[T_LINKS] = { "door-links.csv", "link", link_cols, 0 },
};

#define GLOBAL_NPCS "GLOBALNPCS1.N"	/* the global NPC pool: .N's format */
#define L_SLOTS 300
#define N_NAMED 19
#define DOX_REC 600
#define D_LINKS 200
#define HDR7 7
#define NPC_X 0		/* data columns of npcs.csv */
#define NPC_Y 1
#define NPC_ID 2	/* a slot is used when its npc word is not 0 */
#define NPC_POOL 5

/* Where the table's int16s are: word (r, c) at base + r * rstep + c * cstep. */
struct i16geo {
	size_t base, rows, cols, rstep, cstep;
};

static unsigned rpg_n_recsize(struct gfs_archive *ar)
{
	unsigned rs = rpg_binsize(ar, 9, 30);

	return rs ? rs : 30;
}

/* The geometry of table t over a lump of len bytes (rec: the map, for DOX); 0 when it does not fit. */
static int i16_geo(struct gfs_archive *ar, int t, size_t rec, size_t len, struct i16geo *g)
{
	switch (t) {
	case T_NPCS:
		*g = (struct i16geo){ HDR7, L_SLOTS, len >= HDR7 + 6 * 2 * L_SLOTS ? 6 : 5, 2, 2 * L_SLOTS };
		return len >= HDR7 + 5 * 2 * L_SLOTS;
	case T_NTYPES: {
		unsigned rs = rpg_n_recsize(ar);

		*g = (struct i16geo){ HDR7, len >= HDR7 ? (len - HDR7) / rs : 0, rs / 2 < N_NAMED ? rs / 2 : N_NAMED, rs, 2 };
		return len >= HDR7 + rs && g->cols > 0;
	}
	case T_DOORS:
		*g = (struct i16geo){ rec * DOX_REC, 100, 3, 2, 200 };
		return (rec + 1) * DOX_REC <= len;
	default:
		*g = (struct i16geo){ HDR7, D_LINKS, 5, 2, 2 * D_LINKS };
		return len >= HDR7 + 5 * 2 * D_LINKS;
	}
}

static int16_t i16_get(const uint8_t *p, const struct i16geo *g, size_t r, size_t c)
{
	return (int16_t)gfs_le16(p + g->base + r * g->rstep + c * g->cstep);
}

/*
 * A view's table: the lump's bytes, its geometry, the element record of
 * its columns and every row gathered into elem (rows x rec.size bytes).
 */
struct i16view {
	const struct i16tab *tab;
	struct gfs_buf b, elem;
	struct i16geo g;
	struct gfs_record rec;
	struct gfs_table t;
};

static void i16_release(struct i16view *w)
{
	gfs_buf_release(&w->b);
	gfs_buf_release(&w->elem);
}

static int i16_open(struct gfs_archive *ar, struct gfs_node *n, struct i16view *w)
{
	struct rpg_vpriv *v = n->priv;
	int r = v->l ? rpg_lump_read(ar, v->l, &w->b) : -ENOENT;

	w->tab = v->desc;
	if (!r && !i16_geo(ar, (int)(w->tab - i16tabs), v->rec, w->b.len, &w->g))
		r = gfs_err(ar, -EIO, "lump %s: too short for %s now", v->l->name, w->tab->view);
	w->rec = (struct gfs_record){ .size = 4 * w->g.cols, .fields = w->tab->cols, .nfields = w->g.cols };
	w->t = (struct gfs_table){ .index = w->tab->index, .rec = &w->rec, .max = w->g.rows };
	if (!r)
		r = gfs_buf_set_len(&w->elem, w->g.rows * w->rec.size);
	for (size_t i = 0; !r && i < w->g.rows; i++)
		for (size_t c = 0; c < w->g.cols; c++)
			gfs_put_u32le(w->elem.data + i * w->rec.size + 4 * c,
				      (uint32_t)(i16_get(w->b.data, &w->g, i, c) - COL_BIAS(&w->tab->cols[c])));
	if (r)
		i16_release(w);
	return r;
}

/* Element e as row i of the lump: the words whose value changed. */
static void i16_put_row(struct i16view *w, size_t i, const uint8_t *e)
{
	for (size_t c = 0; c < w->g.cols; c++) {
		int16_t v = (int16_t)((int32_t)gfs_le32(e + 4 * c) + COL_BIAS(&w->tab->cols[c]));

		if (i16_get(w->b.data, &w->g, i, c) != v)
			gfs_put_u16le(w->b.data + w->g.base + i * w->g.rstep + c * w->g.cstep, (uint16_t)v);
	}
}

static int npc_used(const struct i16view *w, size_t s)
{
	return i16_get(w->b.data, &w->g, s, NPC_ID) != 0;
}

static int i16_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct i16view w = { .b = GFS_BUF_INIT, .elem = GFS_BUF_INIT };
	struct gfs_buf all = GFS_BUF_INIT;
	int r = i16_open(ar, n, &w);

	if (r || !w.tab->sparse) {
		r = r ? r : gfs_table_render(&w.t, w.elem.data, w.g.rows, NULL, out);
		goto out;
	}
	/* the rows of the used slots: row s + 1 of the whole table is slot s */
	r = gfs_table_render(&w.t, w.elem.data, w.g.rows, NULL, &all);
	for (size_t at = 0, row = 0; !r && at < all.len; row++) {
		const uint8_t *nl = memchr(all.data + at, '\n', all.len - at);
		size_t end = nl ? (size_t)(nl - all.data) + 1 : all.len;

		if (!row || npc_used(&w, row - 1))
			r = gfs_buf_add(out, all.data + at, end - at);
		at = end;
	}
out:
	gfs_buf_release(&all);
	i16_release(&w);
	return r;
}

/*
 * What npcs.csv's values refer to, where the game says (-1: not known): x
 * and y lie on the map, npc is a type of the map's .N (or of the global
 * pool when its pool column is set).
 */
struct i16lim {
	long w, h;		/* the map's size, from its .T lump */
	long ntypes, nglobal;	/* NPC types of the map and of the global pool */
	char tname[RPG_NAME_MAX + 1], gname[RPG_NAME_MAX + 1];
};

static int maptab_of(struct gfs_archive *ar, struct rpg_lump *l, long *map);

static void i16_limits(struct gfs_archive *ar, struct rpg_lump *l, struct i16lim *lim)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *o, *gl = rpg_lump_named(m, GLOBAL_NPCS);
	uint8_t hdr[RPG_MAP_HDR];
	unsigned w, h, layers;
	struct i16geo gn;
	long map;

	*lim = (struct i16lim){ -1, -1, -1, -1, "", "" };
	if (maptab_of(ar, l, &map) != T_NPCS)
		return;
	if ((o = rpg_map_lump(m, map, 'T', RPG_K_MAP)) && !rpg_lump_range(ar, o, 0, sizeof(hdr), hdr) &&
	    rpg_map_dims(hdr, o->len, &w, &h, &layers)) {
		lim->w = w;
		lim->h = h;
	}
	if ((o = rpg_map_lump(m, map, 'N', RPG_K_REC)) && i16_geo(ar, T_NTYPES, 0, o->len, &gn)) {
		lim->ntypes = (long)gn.rows;
		snprintf(lim->tname, sizeof(lim->tname), "%s", o->name);
	}
	if (gl && gl->kind == RPG_K_REC && i16_geo(ar, T_NTYPES, 0, gl->len, &gn)) {
		lim->nglobal = (long)gn.rows;
		snprintf(lim->gname, sizeof(lim->gname), "%s", gl->name);
	}
}

/* A changed value of column c against what it refers to: 0, or -EINVAL naming the limit. */
static int i16_refers(struct gfs_archive *ar, const struct gfs_grid *gr, size_t i, size_t c, int64_t val,
		      int global, const struct i16lim *lim)
{
	char what[200];

	if (c == NPC_X && lim->w >= 0 && (val < 0 || val >= lim->w))
		snprintf(what, sizeof(what), "%lld is off the %ldx%ld map (x from 0 to %ld)", (long long)val,
			 lim->w, lim->h, lim->w - 1);
	else if (c == NPC_Y && lim->h >= 0 && (val < 0 || val >= lim->h))
		snprintf(what, sizeof(what), "%lld is off the %ldx%ld map (y from 0 to %ld)", (long long)val,
			 lim->w, lim->h, lim->h - 1);
	else if (c == NPC_ID && !global && lim->ntypes >= 0 && (val < 0 || val >= lim->ntypes))
		snprintf(what, sizeof(what), "no NPC %lld: %s has %ld (0 to %ld)", (long long)val, lim->tname,
			 lim->ntypes, lim->ntypes - 1);
	else if (c == NPC_ID && global && lim->nglobal >= 0 && (val < 0 || val >= lim->nglobal))
		snprintf(what, sizeof(what), "no NPC %lld: %s has %ld (0 to %ld)", (long long)val, lim->gname,
			 lim->nglobal, lim->nglobal - 1);
	else
		return 0;
	return gfs_grid_err(ar, gr, i, c + 1, what);
}

/*
 * Row i of npcs.csv into slot s: each cell through the field's own parser
 * (only a changed value is written); a changed value is checked against
 * what it refers to, so that an untouched row of a game that breaks a
 * limit is kept.
 */
static int npc_row(struct gfs_archive *ar, const struct gfs_grid *gr, size_t i, struct i16view *w, size_t s,
		   const struct i16lim *lim, struct gfs_buf *tmp)
{
	uint8_t *e = w->elem.data + s * w->rec.size;
	const uint8_t *o = w->elem.data + w->g.rows * w->rec.size + s * w->rec.size;
	char why[GFS_WHY_MAX];
	int global, r;

	for (size_t c = 0; c < w->g.cols; c++)
		if ((r = gfs_field_scan(&w->tab->cols[c], e, gr->rows[i].cell[c + 1], NULL, tmp, why, sizeof(why))))
			return r == -EINVAL ? gfs_grid_err(ar, gr, i, c + 1, why) : r;
	if ((int32_t)gfs_le32(e + 4 * NPC_ID) + COL_BIAS(&w->tab->cols[NPC_ID]) == 0)
		return gfs_grid_err(ar, gr, i, NPC_ID + 1, "-1 would empty the slot (delete the row instead)");
	global = w->g.cols > NPC_POOL && gfs_le32(e + 4 * NPC_POOL);
	for (size_t c = 0; c < w->g.cols; c++)
		if (gfs_le32(e + 4 * c) != gfs_le32(o + 4 * c) &&
		    (r = i16_refers(ar, gr, i, c, (int32_t)gfs_le32(e + 4 * c), global, lim)))
			return r;
	return 0;
}

/*
 * npcs.csv: the rows naming their slot first, then the rows that leave it
 * empty fill free slots; a used slot without a row is zeroed.  elem holds
 * the new elements, then a copy of the old ones.
 */
static int npc_parse(struct gfs_archive *ar, struct gfs_node *n, const char *path, struct i16view *w,
		     const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_buf tmp = GFS_BUF_INIT;
	const char *names[1 + N_NAMED];
	size_t size = w->elem.len;
	uint8_t *seen = calloc(w->g.rows, 1);
	struct i16lim lim;
	struct gfs_grid gr;
	int r = seen ? gfs_buf_set_len(&w->elem, 2 * size) : -ENOMEM;

	if (!r)	/* the old elements after the new ones */
		memcpy(w->elem.data + size, w->elem.data, size);
	names[0] = w->t.index;
	for (size_t c = 0; c < w->g.cols; c++)
		names[c + 1] = w->tab->cols[c].key;
	i16_limits(ar, v->l, &lim);
	if (r || (r = gfs_grid_parse(ar, path, data, len, w->g.cols + 1, names, &gr))) {
		free(seen);
		return r;
	}
	if (gr.nrows > w->g.rows)
		r = gfs_err(ar, -EINVAL, "%s: %zu rows, at most %zu", path, gr.nrows, w->g.rows);
	for (int pass = 0; pass < 2 && !r; pass++)
		for (size_t i = 0, fr = 0; !r && i < gr.nrows; i++) {
			int64_t id;

			if (!gr.rows[i].cell[0][0]) {
				if (!pass)
					continue;
				while (fr < w->g.rows && (npc_used(w, fr) || seen[fr]))
					fr++;
				if (fr == w->g.rows) {
					r = gfs_grid_err(ar, &gr, i, 0, "no free slot left");
					break;
				}
				id = (int64_t)fr;
			} else if (pass) {
				continue;
			} else if ((r = gfs_grid_int(ar, &gr, i, 0, 0, (int64_t)w->g.rows - 1, &id)) != 0) {
				break;
			} else if (seen[id]) {
				r = gfs_grid_err(ar, &gr, i, 0, "this slot has a row already");
				break;
			}
			seen[id] = 1;
			r = npc_row(ar, &gr, i, w, (size_t)id, &lim, &tmp);
		}
	for (size_t s = 0; !r && s < w->g.rows; s++)
		if (npc_used(w, s) && !seen[s])
			for (size_t c = 0; c < w->g.cols; c++)
				gfs_put_u32le(w->elem.data + s * w->rec.size + 4 * c,
					      (uint32_t)-COL_BIAS(&w->tab->cols[c]));
	free(seen);
	gfs_grid_release(&gr);
	gfs_buf_release(&tmp);
	return r;
}

static int i16_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct i16view w = { .b = GFS_BUF_INIT, .elem = GFS_BUF_INIT };
	struct gfs_buf out = GFS_BUF_INIT;
	const uint8_t *e = NULL;
	char path[160];
	size_t rows;
	int r = i16_open(ar, n, &w);

	gfs_node_pathname(n, path, sizeof(path));
	if (!r && w.tab->sparse) {
		r = npc_parse(ar, n, path, &w, data, len);
		e = w.elem.data;
	} else if (!r && !(r = gfs_table_parse(ar, path, &w.t, w.elem.data, w.g.rows, data, len, NULL, NULL,
					       &out, &rows))) {
		if (rows != w.g.rows)	/* the lump's records are neither added nor removed */
			r = gfs_err(ar, -EINVAL, "%s: %zu rows, want %zu", path, rows, w.g.rows);
		e = out.data;
	}
	for (size_t i = 0; !r && i < w.g.rows; i++)
		i16_put_row(&w, i, e + i * w.rec.size);
	gfs_buf_release(&out);
	gfs_buf_release(&w.elem);
	return rpg_lump_done(ar, v->l, &w.b, r);
}

RPG_VIEW_OPS(i16);

/* ---- MAP records ------------------------------------------------------------ */

#define W(k, w) { .key = k, .kind = GFS_FK_SINT, .off = 2 * (w), .width = 2 }
#define LAYER(i, w, sect) { .key = "layer" #i "_tileset", .kind = GFS_FK_SINT, .off = 2 * (w), .width = 2, \
			    .section = sect, .note = (i) == 0 ? "0: the map's tileset, n: tileset n-1" : NULL }, \
			  { .key = "layer" #i "_name", .kind = GFS_FK_STR, .off = 2 * (34 + 21 * (i)) + 2, .width = 40 }

static const struct gfs_field map_fields[] = {
	W("tileset", 0), W("music", 1), W("minimap", 2), W("save_anywhere", 3), W("name_display_ticks", 4),
	W("edge_mode", 5), W("edge_tile", 6), W("autorun_script", 7), W("autorun_arg", 8),
	W("harm_damage", 9), W("harm_flash", 10), W("foot_offset", 11), W("after_battle_script", 12),
	W("instead_of_battle_script", 13), W("each_step_script", 14), W("on_keypress_script", 15),
	W("draw_order", 16), W("npc_state_mode", 17), W("tile_state_mode", 18),
	{ .key = "layer_enable", .kind = GFS_FK_HEX, .off = 38, .width = 2, .note = "bit n: layer n+1 shown (layer 0 always is)" },
	W("save_offset_x", 20), W("save_offset_y", 21), W("npc_count", 25), W("walkabout_layer", 31),
	W("npc_move_zone", 32), W("npc_avoid_zone", 33), W("npc_obstruction", 378), W("menu_disabled", 379),
	W("hero_move_zone", 380), W("hero_avoid_zone", 381),
	LAYER(0, 22, "layers"), LAYER(1, 23, NULL), LAYER(2, 24, NULL), LAYER(3, 26, NULL),
	LAYER(4, 27, NULL), LAYER(5, 28, NULL), LAYER(6, 29, NULL), LAYER(7, 30, NULL),
	LAYER(8, 370, NULL), LAYER(9, 371, NULL), LAYER(10, 372, NULL), LAYER(11, 373, NULL),
	LAYER(12, 374, NULL), LAYER(13, 375, NULL), LAYER(14, 376, NULL), LAYER(15, 377, NULL),
};
#define MAP_NFIELDS (sizeof(map_fields) / sizeof(map_fields[0]))

static unsigned rpg_map_recsize(struct gfs_archive *ar)
{
	unsigned rs = rpg_binsize(ar, 4, 40);

	return rs ? rs : 40;
}

/* The table of a record of rs bytes: the fields that fit in it (a dropped field's section moves on). */
static void map_table(unsigned rs, struct gfs_field *f, struct gfs_record *rec)
{
	const char *sect = NULL;
	size_t k = 0;

	for (size_t i = 0; i < MAP_NFIELDS; i++) {
		if (map_fields[i].section)
			sect = map_fields[i].section;
		if (map_fields[i].off + map_fields[i].width > rs)
			continue;
		f[k] = map_fields[i];
		f[k].section = sect;
		sect = NULL;
		k++;
	}
	*rec = (struct gfs_record){ "map", "; the map's MAP record (specs/ohrrpgce-lumps.md 2.4)\n", rs, f, k };
}

static int map_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_field f[MAP_NFIELDS];
	struct gfs_record rec;

	map_table(rpg_map_recsize(ar), f, &rec);
	return rpg_record_render(ar, v->l, v->rec, &rec, out);
}

/* A layer name that changed gets its length word (the engine's int16 length + 40 bytes). */
static int map_names(void *ctx, const uint8_t *old, uint8_t *p)
{
	const struct gfs_record *rec = ctx;

	for (size_t i = 0; i < rec->nfields; i++) {
		const struct gfs_field *f = &rec->fields[i];

		if (f->kind == GFS_FK_STR && memcmp(old + f->off, p + f->off, f->width))
			gfs_put_u16le(p + f->off - 2, (uint16_t)strnlen((const char *)p + f->off, f->width));
	}
	return 0;
}

static int map_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_field f[MAP_NFIELDS];
	struct gfs_record rec;
	char path[160];

	map_table(rpg_map_recsize(ar), f, &rec);
	return rpg_record_store(ar, v->l, v->rec, gfs_node_pathname(n, path, sizeof(path)), &rec, data, len, map_names, &rec);
}

RPG_VIEW_OPS(map);

/* ---- game-wide records (read-only) ---------------------------------------- */

/* Word idx is key (n > 0: words idx.. idx + n - 1 are key with %u their index from 0); ref: RF_* or -1. */
struct named { unsigned idx; const char *key; unsigned n; int ref; };

/* the engine's gen* constants (const.bi); words 237-499 it leaves unused */
static const struct named gen_names[] = {
	{ 0, "last_map", 0, -1 }, { 1, "title", 0, -1 }, { 2, "title_music", 0, RF_SONG1 },
	{ 3, "victory_music", 0, RF_SONG1 }, { 4, "battle_music", 0, RF_SONG1 }, { 5, "pass_version", 0, -1 },
	{ 6, "pw3_rot", 0, -1 }, { 7, "passcode%u", 19, -1 }, { 26, "last_pt0", 0, -1 }, { 27, "last_pt1", 0, -1 },
	{ 28, "last_pt2", 0, -1 }, { 29, "last_pt3", 0, -1 }, { 30, "last_pt4", 0, -1 }, { 31, "last_pt5", 0, -1 },
	{ 32, "last_pt6", 0, -1 }, { 33, "last_tileset", 0, -1 }, { 34, "last_attack", 0, -1 },
	{ 35, "last_hero", 0, -1 }, { 36, "last_enemy", 0, -1 }, { 37, "last_formation", 0, -1 },
	{ 38, "last_palette", 0, -1 }, { 39, "last_textbox", 0, -1 }, { 40, "scripts", 0, -1 },
	{ 41, "new_game_script", 0, RF_SCRIPT }, { 42, "gameover_script", 0, RF_SCRIPT }, { 43, "max_regular_script", 0, -1 },
	{ 44, "suspend_bits", 0, -1 }, { 45, "camera_mode", 0, -1 }, { 46, "camera_arg1", 0, -1 },
	{ 47, "camera_arg2", 0, -1 }, { 48, "camera_arg3", 0, -1 }, { 49, "camera_arg4", 0, -1 },
	{ 50, "scr_backdrop", 0, -1 }, { 51, "days", 0, -1 }, { 52, "hours", 0, -1 }, { 53, "minutes", 0, -1 },
	{ 54, "seconds", 0, -1 }, { 55, "last_vehicle", 0, -1 }, { 56, "last_tag_name", 0, -1 },
	{ 57, "load_game_script", 0, RF_SCRIPT }, { 58, "textbox_backdrop", 0, -1 }, { 59, "enemy_dissolve", 0, -1 },
	{ 60, "joy", 0, -1 }, { 61, "poison_char", 0, -1 }, { 62, "stun_char", 0, -1 }, { 63, "damage_cap", 0, -1 },
	{ 64, "mute_char", 0, -1 }, { 65, "stat%u_cap", 12, -1 }, { 77, "last_sfx", 0, -1 },
	{ 78, "master_palette", 0, -1 }, { 79, "last_master_palette", 0, -1 }, { 80, "last_menu", 0, -1 },
	{ 81, "last_menu_item", 0, -1 }, { 82, "last_item", 0, -1 }, { 83, "last_box_border", 0, -1 },
	{ 84, "last_portrait", 0, -1 }, { 85, "max_inventory", 0, -1 }, { 86, "error_level", 0, -1 },
	{ 87, "level_cap", 0, -1 }, { 88, "equip_merge_formula", 0, -1 }, { 89, "num_elements", 0, -1 },
	{ 90, "unlocked_reserve_xp", 0, -1 }, { 91, "locked_reserve_xp", 0, -1 }, { 92, "pw4_hash", 0, -1 },
	{ 93, "pw2_offset", 0, -1 }, { 94, "pw2_length", 0, -1 }, { 95, "format_version", 0, -1 },
	{ 96, "start_money", 0, -1 }, { 97, "last_shop", 0, -1 }, { 98, "pw1_offset", 0, -1 },
	{ 99, "pw1_length", 0, -1 }, { 100, "backdrops", 0, -1 }, { 101, "bits", 0, -1 }, { 102, "start_x", 0, -1 },
	{ 103, "start_y", 0, -1 }, { 104, "start_map", 0, -1 }, { 105, "one_time_npc", 0, -1 },
	{ 106, "one_time_npc_bits%u", 65, -1 }, { 171, "default_death_sfx", 0, RF_SFX1 },
	{ 172, "last_song", 0, -1 }, { 173, "accept_sfx", 0, RF_SFX1 }, { 174, "cancel_sfx", 0, RF_SFX1 },
	{ 175, "cursor_sfx", 0, RF_SFX1 }, { 176, "textbox_line", 0, RF_SFX1 }, { 177, "bits2_%u", 2, -1 },
	{ 179, "item_learn_sfx", 0, RF_SFX1 }, { 180, "cant_learn_sfx", 0, RF_SFX1 },
	{ 181, "buy_sfx", 0, RF_SFX1 }, { 182, "hire_sfx", 0, RF_SFX1 }, { 183, "sell_sfx", 0, RF_SFX1 },
	{ 184, "cant_buy_sfx", 0, RF_SFX1 }, { 185, "cant_sell_sfx", 0, RF_SFX1 },
	{ 186, "damage_display_ticks", 0, -1 }, { 187, "damage_display_rise", 0, -1 },
	{ 188, "hero_weak_hp", 0, -1 }, { 189, "enemy_weak_hp", 0, -1 }, { 190, "autosort_scheme", 0, -1 },
	{ 191, "max_level", 0, -1 }, { 192, "battle_mode", 0, -1 }, { 193, "item_stack_size", 0, -1 },
	{ 194, "resolution_x", 0, -1 }, { 195, "resolution_y", 0, -1 }, { 196, "esc_menu_script", 0, RF_SCRIPT },
	{ 197, "save_slot_count", 0, -1 }, { 198, "millisec_per_frame", 0, -1 },
	{ 199, "steal_success_sfx", 0, RF_SFX1 }, { 200, "steal_fail_sfx", 0, RF_SFX1 },
	{ 201, "steal_no_item_sfx", 0, RF_SFX1 }, { 202, "regen_char", 0, -1 }, { 203, "default_scale", 0, -1 },
	{ 204, "debug_mode", 0, -1 }, { 205, "current_debug_mode", 0, -1 }, { 206, "start_hero", 0, RF_HERO },
	{ 207, "start_textbox", 0, -1 }, { 208, "window_size", 0, -1 }, { 209, "live_preview_window_size", 0, -1 },
	{ 210, "fullscreen", 0, -1 }, { 211, "music_volume", 0, -1 }, { 212, "sfx_volume", 0, -1 },
	{ 213, "rungame_fullscreen_independent", 0, -1 }, { 214, "skip_battle_rewards_ticks", 0, -1 },
	{ 215, "def_onkeypress_script", 0, RF_SCRIPT }, { 216, "def_each_step_script", 0, RF_SCRIPT },
	{ 217, "def_after_battle_script", 0, RF_SCRIPT }, { 218, "def_instead_of_battle_script", 0, RF_SCRIPT },
	{ 219, "def_map_autorun_script", 0, RF_SCRIPT }, { 220, "last_enemy_spriteset", 0, -1 },
	{ 221, "minimap_algorithm", 0, -1 }, { 222, "bits3_%u", 4, -1 }, { 226, "def_counter_provoke", 0, -1 },
	{ 227, "invent_slotx1_display", 0, -1 }, { 228, "camera_on_walkabout_focus", 0, -1 },
	{ 229, "ticks_per_walk_frame", 0, -1 }, { 230, "add_hero_script", 0, RF_SCRIPT },
	{ 231, "remove_hero_script", 0, RF_SCRIPT }, { 232, "move_hero_script", 0, RF_SCRIPT }, { 233, "blend_algo_8bit", 0, -1 },
	{ 234, "preview_backdrop", 0, -1 }, { 235, "colour_32bit", 0, -1 }, { 236, "default_battle_menu", 0, -1 },
	{ 0, NULL, 0, -1 },
};
static const struct named binsize_names[] = {
	{ 0, "attack", 0, -1 }, { 1, "stf", 0, -1 }, { 2, "songdata", 0, -1 }, { 3, "sfxdata", 0, -1 },
	{ 4, "map", 0, -1 }, { 5, "menus", 0, -1 }, { 6, "menuitem", 0, -1 }, { 7, "uicolors", 0, -1 },
	{ 8, "say", 0, -1 }, { 9, "npc", 0, -1 }, { 10, "dt0", 0, -1 }, { 11, "dt1", 0, -1 },
	{ 12, "itm", 0, -1 }, { 0, NULL, 0, -1 },
};
/* the engine's fix* constants (const.bi) */
static const struct named fixbits_names[] = {
	{ 0, "attack_items", 0, -1 }, { 1, "weap_points", 0, -1 }, { 2, "stun_cancel_targ", 0, -1 },
	{ 3, "default_dissolve", 0, -1 }, { 4, "default_dissolve_enemy", 0, -1 },
	{ 5, "push_npc_bug_compat", 0, -1 }, { 6, "default_max_item", 0, -1 }, { 7, "blank_door_links", 0, -1 },
	{ 8, "shop_sounds", 0, -1 }, { 9, "extended_npcs", 0, -1 }, { 10, "hero_portrait", 0, -1 },
	{ 11, "text_box_portrait", 0, -1 }, { 12, "npc_location_format", 0, -1 },
	{ 13, "init_damage_display", 0, -1 }, { 14, "default_level_cap", 0, -1 }, { 15, "hero_elementals", 0, -1 },
	{ 16, "old_elemental_fail_bit", 0, -1 }, { 17, "attack_element_fails", 0, -1 },
	{ 18, "enemy_elementals", 0, -1 }, { 19, "item_elementals", 0, -1 }, { 20, "num_elements", 0, -1 },
	{ 21, "remove_damage_mp", 0, -1 }, { 22, "default_max_level", 0, -1 }, { 23, "unused23", 0, -1 },
	{ 24, "wipe_gen", 0, -1 }, { 25, "set_old_attack_pos_bit", 0, -1 }, { 26, "wrap_cropped_maps_bit", 0, -1 },
	{ 27, "init_non_elemental_spawning", 0, -1 }, { 28, "init_default_volumes", 0, -1 },
	{ 29, "attack_multipliers", 0, -1 }, { 30, "check_for_broken_tb_chains", 0, -1 },
	{ 31, "check_trying_to_move_direction", 0, -1 }, { 0, NULL, 0, -1 },
};

/* A game-wide lump: int16 words after hdr bytes (bits 0: words; else each bit of the bytes). */
struct gamerec {
	const char *lump, *view, *section, *prefix, *comment;
	unsigned hdr, bits;
	const struct named *names;
};

static const struct gamerec gamerecs[] = {
	{ ".GEN", "gen.ini", "gen", "gen", "; GEN: the game's general data, int16 fields (read-only here)", 7, 0, gen_names },
	{ "BINSIZE.BIN", "binsize.ini", "binsize", "binsize", "; BINSIZE.BIN: record sizes in bytes (read-only)", 0, 0,
	  binsize_names },
	{ "FIXBITS.BIN", "fixbits.ini", "fixbits", "fixbit", "; FIXBITS.BIN: data fixes applied (read-only)", 0, 1,
	  fixbits_names },
};

static int game_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	const struct gamerec *d = v->desc;
	struct gfs_buf b = GFS_BUF_INIT;
	int r = v->l ? rpg_lump_read(ar, v->l, &b) : -ENOENT;
	size_t cnt = !r && b.len >= d->hdr ? (d->bits ? (b.len - d->hdr) * 8 : (b.len - d->hdr) / 2) : 0;

	if (!r)
		r = gfs_buf_printf(out, "%s\n[%s]\n", d->comment, d->section);
	for (size_t i = 0; !r && i < cnt; i++) {
		const struct named *key = NULL;
		long val = d->bits ? (b.data[d->hdr + i / 8] >> (i % 8)) & 1 : (int16_t)gfs_le16(b.data + d->hdr + 2 * i);

		for (const struct named *k = d->names; k->key; k++)
			if (k->n ? i >= k->idx && i < k->idx + k->n : k->idx == i)
				key = k;
		if (!key)
			r = gfs_buf_printf(out, "%s.%03zu = %ld\n", d->prefix, i, val);
		else if (key->n)	/* its %u is the index in the range */
			r = gfs_buf_printf(out, "%.*s%u%s", (int)(strstr(key->key, "%u") - key->key), key->key,
					   (unsigned)(i - key->idx), strstr(key->key, "%u") + 2);
		else
			r = gfs_buf_adds(out, key->key);
		if (key && !r)
			r = gfs_buf_adds(out, " = ");
		if (key && !r)
			r = key->ref >= 0 ? rpg_ref_fmt(ar, key->ref, (uint64_t)val & 0xffff, out) : gfs_buf_printf(out, "%ld", val);
		if (key && !r)
			r = gfs_buf_addc(out, '\n');
	}
	if (!r && b.len > d->hdr + (d->bits ? cnt / 8 : cnt * 2))
		r = gfs_buf_printf(out, "; and %zu byte(s) after the last field\n", b.len - d->hdr - (d->bits ? cnt / 8 : cnt * 2));
	gfs_buf_release(&b);
	return r;
}

static const struct gfs_node_ops game_ops = {
	.render = game_render,
	.free = free,
};

/* ---- which lumps, and the tree ---------------------------------------------- */

static const struct gamerec *gamerec_of(struct rpg_model *m, const struct rpg_lump *l)
{
	for (size_t i = 0; i < sizeof(gamerecs) / sizeof(gamerecs[0]); i++)
		if (rpg_lump_is(m, l, gamerecs[i].lump))
			return &gamerecs[i];
	return NULL;
}


/* The table of .L/.N/.D lump l (map number in *map; -1 for the global NPCs), or -1. */
static int maptab_of(struct gfs_archive *ar, struct rpg_lump *l, long *map)
{
	char letter;
	struct i16geo g;
	int t;

	if ((*map = rpg_map_of(ar->priv, l->name, &letter)) < 0)
		return rpg_lump_is(ar->priv, l, GLOBAL_NPCS) && i16_geo(ar, T_NTYPES, 0, l->len, &g) ? T_NTYPES : -1;
	t = letter == 'L' ? T_NPCS : letter == 'N' ? T_NTYPES : letter == 'D' ? T_LINKS : -1;
	return t >= 0 && i16_geo(ar, t, 0, l->len, &g) ? t : -1;
}

int rpg_maps_kind(struct gfs_archive *ar, struct rpg_lump *l)
{
	struct rpg_model *m = ar->priv;
	long map;

	if (gamerec_of(m, l) || maptab_of(ar, l, &map) >= 0 ||
	    (rpg_lump_is(m, l, ".DOX") && l->len >= DOX_REC) ||
	    (rpg_lump_is(m, l, ".MAP") && l->len >= rpg_map_recsize(ar)))
		return RPG_K_REC;
	return RPG_K_NONE;
}

/* A lump of the game named <archinym><suffix>, if it has these views. */
static struct rpg_lump *rec_lump(struct rpg_model *m, const char *suffix)
{
	char nm[RPG_NAME_MAX + 8];
	struct rpg_lump *l;

	snprintf(nm, sizeof(nm), "%s%s", m->archinym, suffix);
	l = rpg_lump_named(m, nm);
	return l && l->kind == RPG_K_REC ? l : NULL;
}

int rpg_maps_build(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_node *dir, long map)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *dox = rec_lump(m, ".DOX"), *mp = rec_lump(m, ".MAP");
	long lm;
	int t, r = 0;

	if (l->kind == RPG_K_REC) {
		t = maptab_of(ar, l, &lm);
		return t >= 0 ? rpg_add_view(ar, l, dir, i16tabs[t].view, &i16_ops, 0, &i16tabs[t]) : 0;
	}
	/* the map's tile lump: its records of the game-wide DOX and MAP */
	if (dox && (uint64_t)(map + 1) * DOX_REC <= dox->len)
		r = rpg_add_view(ar, dox, dir, i16tabs[T_DOORS].view, &i16_ops, (size_t)map, &i16tabs[T_DOORS]);
	if (!r && mp && (uint64_t)(map + 1) * rpg_map_recsize(ar) <= mp->len)
		r = rpg_add_view(ar, mp, dir, "map.ini", &map_ops, (size_t)map, NULL);
	return r;
}

int rpg_maps_build_game(struct gfs_archive *ar)
{
	struct rpg_model *m = ar->priv;
	int r = 0;

	for (size_t i = 0; i < m->n && !r; i++) {
		struct rpg_lump *l = m->lumps[i];
		const struct gamerec *d = l->kind == RPG_K_REC ? gamerec_of(m, l) : NULL;
		int npcs = l->kind == RPG_K_REC && rpg_lump_is(m, l, GLOBAL_NPCS);
		struct gfs_node *dir;

		if (!d && !npcs)
			continue;
		if (!(dir = rpg_subdir(ar, "game")))
			return -ENOMEM;
		if (npcs)
			r = rpg_add_view(ar, l, dir, "global-npc-types.csv", &i16_ops, 0, &i16tabs[T_NTYPES]);
		else if (!(r = rpg_add_view(ar, l, dir, d->view, &game_ops, 0, d)))
			l->views[l->nviews - 1]->mode = S_IFREG | 0444;
	}
	return r;
}

/* ---- check -------------------------------------------------------------------- */

/* a map's lump of a kind (rpg.h): for check, and for rpg_tiled.c's TMX */
struct rpg_lump *rpg_map_lump(struct rpg_model *m, long map, char letter, int kind)
{
	char nm[RPG_NAME_MAX + 48];
	struct rpg_lump *l;

	if (map < 100)
		snprintf(nm, sizeof(nm), "%s.%c%02ld", m->archinym, letter, map);
	else
		snprintf(nm, sizeof(nm), "%ld.%c", map, letter);
	l = rpg_lump_named(m, nm);
	return l && l->kind == kind ? l : NULL;
}

/* Does door d of map exist (a DOX record, bit 0 of its flags)? */
static int door_exists(struct gfs_archive *ar, struct rpg_lump *dox, long map, long d)
{
	uint8_t w[2];

	return dox && map >= 0 && d >= 0 && d < 100 &&
	       !rpg_lump_range(ar, dox, (uint64_t)map * DOX_REC + 400 + 2 * (uint64_t)d, 2, w) && (w[0] & 1);
}

size_t rpg_maps_check(struct gfs_archive *ar, FILE *out)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *dox = rec_lump(m, ".DOX");
	size_t warn = 0;

	for (size_t i = 0; i < m->n; i++) {
		struct rpg_lump *l = m->lumps[i], *o;
		struct gfs_buf b = GFS_BUF_INIT;
		struct i16geo g, gn;
		long map;
		int t = l->kind == RPG_K_REC ? maptab_of(ar, l, &map) : -1;

		if ((t != T_NPCS && t != T_LINKS) || rpg_lump_read(ar, l, &b) || !i16_geo(ar, t, 0, b.len, &g)) {
			gfs_buf_release(&b);
			continue;
		}
		if (t == T_NPCS) {
			uint8_t hdr[11];
			unsigned w = 0, h = 0, layers;
			struct rpg_lump *gl = rpg_lump_named(m, GLOBAL_NPCS), *nl = rpg_map_lump(m, map, 'N', RPG_K_REC);
			size_t ntypes = 0, nglobal = 0;
			int dims = 0, types = 0, globals = 0;

			if ((o = rpg_map_lump(m, map, 'T', RPG_K_MAP)) && !rpg_lump_range(ar, o, 0, sizeof(hdr), hdr))
				dims = rpg_map_dims(hdr, o->len, &w, &h, &layers);
			if (nl && i16_geo(ar, T_NTYPES, 0, nl->len, &gn)) {
				ntypes = gn.rows;
				types = 1;
			}
			if (gl && gl->kind == RPG_K_REC && i16_geo(ar, T_NTYPES, 0, gl->len, &gn)) {
				nglobal = gn.rows;
				globals = 1;
			}
			for (size_t s = 0; s < g.rows; s++) {
				long x = i16_get(b.data, &g, s, 0), y = i16_get(b.data, &g, s, 1) - 1;
				long id = i16_get(b.data, &g, s, 2) - 1;
				int global = g.cols > 5 && i16_get(b.data, &g, s, 5) != 0;

				if (id == -1)
					continue;
				if (global ? globals && (id < 0 || (size_t)id >= nglobal) :
					     types && (id < 0 || (size_t)id >= ntypes)) {
					fprintf(out, "warning: map %ld: %s slot %zu is NPC %ld, %s has %zu\n", map,
						l->name, s, id, global ? gl->name : nl->name, global ? nglobal : ntypes);
					warn++;
				}
				if (dims && (x < 0 || y < 0 || x >= (long)w || y >= (long)h)) {
					fprintf(out, "warning: map %ld: %s slot %zu at %ld,%ld is outside the %ux%u map\n",
						map, l->name, s, x, y, w, h);
					warn++;
				}
			}
		} else {
			for (size_t k = 0; k < g.rows; k++) {
				long src = i16_get(b.data, &g, k, 0), dst = i16_get(b.data, &g, k, 1);
				long dmap = i16_get(b.data, &g, k, 2);
				int zero = 1;

				for (size_t c = 0; c < g.cols; c++)
					zero &= i16_get(b.data, &g, k, c) == 0;
				if (src < 0 || zero)
					continue;
				if (!door_exists(ar, dox, map, src)) {
					fprintf(out, "warning: map %ld: %s link %zu: door %ld does not exist\n", map, l->name, k, src);
					warn++;
				} else if (!rpg_map_lump(m, dmap, 'T', RPG_K_MAP)) {
					fprintf(out, "warning: map %ld: %s link %zu: map %ld does not exist\n", map, l->name, k, dmap);
					warn++;
				} else if (!door_exists(ar, dox, dmap, dst)) {
					fprintf(out, "warning: map %ld: %s link %zu: door %ld of map %ld does not exist\n", map,
						l->name, k, dst, dmap);
					warn++;
				}
			}
		}
		gfs_buf_release(&b);
	}
	return warn;
}

/* ---- map layers: tiles-K.csv, walls.csv, foes.csv ----------------------------- */

/* The lump of layer view v in b, and where its w x h tiles are (NULL: -EIO, or *r). */
static uint8_t *rpg_layer_read(struct gfs_archive *ar, struct rpg_vpriv *v, struct gfs_buf *b, unsigned *w,
			       unsigned *h, int *r)
{
	unsigned layers;

	*r = v->l ? rpg_lump_read(ar, v->l, b) : -ENOENT;
	if (!*r && (!rpg_map_dims(b->data, b->len, w, h, &layers) || v->rec >= layers))
		*r = gfs_err(ar, -EIO, "lump %s: layer %zu is not in the lump any more", v->l->name, v->rec);
	return *r ? NULL : b->data + RPG_MAP_HDR + v->rec * (size_t)*w * *h;
}

static int rpg_layer_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct gfs_buf b = GFS_BUF_INIT;
	unsigned w, h;
	int r;
	uint8_t *p = rpg_layer_read(ar, n->priv, &b, &w, &h, &r);

	if (p)
		r = gfs_grid_write_u8(out, p, w, h);
	gfs_buf_release(&b);
	return r;
}

static int rpg_layer_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	unsigned w, h;
	int r;
	uint8_t *p = rpg_layer_read(ar, v, &b, &w, &h, &r);

	if (p)	/* a map is not resized here */
		r = gfs_grid_read_u8(ar, n->name, data, len, w, h, p);
	return rpg_lump_done(ar, v->l, &b, r);
}

const struct gfs_node_ops rpg_layer_ops = { .render = rpg_layer_render, .store = rpg_layer_store, .free = free };

/* tiles-K.csv of a map's tile lump l, in the map's folder dir (a layer the map has now) */
int rpg_maps_layer_view(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_node *dir, unsigned k)
{
	char nm[32];

	snprintf(nm, sizeof(nm), "tiles-%u.csv", k);
	if (gfs_node_child(ar, dir, nm))
		return 0;
	gfs_tree_invalidate(ar);
	return rpg_add_view(ar, l, dir, nm, &rpg_layer_ops, k, NULL);
}
