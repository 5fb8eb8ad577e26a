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
#include "rpg_tmap.h"
#include "gfs_grid.h"
#include "gfs_rd.h"
#include "gfs_layout.h"

/* ---- int16 tables on the CSV face (gfs_layout.h) ----------------------------- */

#define GLOBAL_NPCS "GLOBALNPCS1.N"	/* the global NPC pool: .N's format */
#define L_COL (2 * L_SLOTS)	/* .L: a column is an int16 array of the slots */
#define N_NAMED 19
#define DOX_COL (2 * DOORS)	/* DOX: a column is an int16 array of the 100 doors */
#define DOX_REC (3 * DOX_COL)
#define D_LINKS 200
#define D_COL (2 * D_LINKS)	/* .D: a column is an int16 array of the links */
#define HDR7 7

/*
 * A column is an int16 at byte o of an element; P1 one stored as the value
 * +1 (OHRRPGCE's 0 is none), read and written by fn_get and fn_set.
 */
#define W(k, w) I16(k, 2 * (w))
#define I16(k, o) { .key = k, .kind = GFS_FK_SINT, .off = (o), .width = 2 }
#define P1(k, o, fn) { .key = k, .kind = GFS_FK_SINT, .off = (o), .width = 2, .min = -32769, .max = 32766, \
		       .get = fn##_get, .set = fn##_set }
#define P1_FNS(fn, o) \
	static uint64_t fn##_get(const uint8_t *e) { return (uint64_t)((int64_t)(int16_t)gfs_le16(e + (o)) - 1); } \
	static void fn##_set(uint8_t *e, uint64_t v) { gfs_put_u16le(e + (o), (uint16_t)(v + 1)); }

P1_FNS(npc_y, L_COL)
P1_FNS(npc_id, 2 * L_COL)
P1_FNS(door_y, DOX_COL)

static const struct gfs_field npc_cols[] = {
	I16("x", 0), P1("y", L_COL, npc_y), P1("npc", 2 * L_COL, npc_id), I16("direction", 3 * L_COL),
	I16("frame", 4 * L_COL), I16("pool", 5 * L_COL),
};
static const struct gfs_field ntype_cols[] = {
	W("picture", 0), W("palette", 1), W("movetype", 2), W("speed", 3), W("textbox", 4),
	W("facetype", 5), W("item", 6), W("pushtype", 7), W("activation", 8), W("tag1", 9),
	W("tag2", 10), W("usetag", 11), W("script", 12), W("scriptarg", 13), W("vehicle", 14),
	W("defaultzone", 15), W("defaultwallzone", 16), W("ignore_passmap", 17), W("pathfinding", 18),
};
static const struct gfs_field door_cols[] = { I16("x", 0), P1("y", DOX_COL, door_y), I16("exists", 2 * DOX_COL) };
static const struct gfs_field link_cols[] = {
	I16("source", 0), I16("dest", D_COL), I16("map", 2 * D_COL), I16("tag1", 3 * D_COL), I16("tag2", 4 * D_COL),
};

static int npc_used(const uint8_t *e)
{
	return gfs_le16(e + npc_cols[NPC_ID].off) != 0;
}

static int npc_check(void *ctx, size_t c, const uint8_t *e, const uint8_t *o, char *why, size_t whysz);

/* A table: its view, the columns it may have, and (npcs.csv) a slot array (gfs_table_patch()). */
struct i16tab {
	const char *view;		/* file name */
	const char *index;		/* the first column */
	const struct gfs_field *cols;	/* the columns (a table shows the first i16geo.cols) */
	int (*used)(const uint8_t *e);
	int (*check_cell)(void *ctx, size_t c, const uint8_t *e, const uint8_t *o, char *why, size_t whysz);
};

static const struct i16tab i16tabs[] = {
	[RPG_T_NPCS] = { "npcs.csv", "slot", npc_cols, npc_used, npc_check },
	[RPG_T_NTYPES] = { "npc-types.csv", "id", ntype_cols, NULL, NULL },
	[RPG_T_DOORS] = { "doors.csv", "door", door_cols, NULL, NULL },
	[RPG_T_LINKS] = { "door-links.csv", "link", link_cols, NULL, NULL },
};

/* Where a table's elements are in its lump: rows of them from base, stride bytes apart; its columns. */
struct i16geo {
	size_t base, rows, cols, stride;
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
	case RPG_T_NPCS:
		*g = (struct i16geo){ HDR7, L_SLOTS, len >= HDR7 + 6 * L_COL ? 6 : 5, 2 };
		return len >= HDR7 + 5 * L_COL;
	case RPG_T_NTYPES: {
		unsigned rs = rpg_n_recsize(ar);

		*g = (struct i16geo){ HDR7, len >= HDR7 ? (len - HDR7) / rs : 0, rs / 2 < N_NAMED ? rs / 2 : N_NAMED, rs };
		return len >= HDR7 + rs && g->cols > 0;
	}
	case RPG_T_DOORS:
		*g = (struct i16geo){ rec * DOX_REC, DOX_COL / 2, 3, 2 };
		return (rec + 1) * DOX_REC <= len;
	default:
		*g = (struct i16geo){ HDR7, D_LINKS, 5, 2 };
		return len >= HDR7 + 5 * D_COL;
	}
}

int rpg_tab_at(struct gfs_archive *ar, int t, size_t rec, uint64_t len, size_t i, unsigned c, size_t *at)
{
	struct i16geo g;

	if (len > SIZE_MAX || !i16_geo(ar, t, rec, (size_t)len, &g) || i >= g.rows || c >= g.cols)
		return 0;
	*at = g.base + i * g.stride + i16tabs[t].cols[c].off;
	return 1;
}

/* Word c of NPC (door: door) slot i of the map Tiled shows, through npcs.csv's (doors.csv's) table. */
uint8_t *rpg_obj_word(const struct rpg_tmap *tm, int door, unsigned c, unsigned i)
{
	const struct gfs_buf *b = door ? &tm->doxb : &tm->npcb;
	size_t at = 0;

	rpg_tab_at(NULL, door ? RPG_T_DOORS : RPG_T_NPCS, door ? (size_t)tm->map : 0, b->len, i, c, &at);
	return b->data + at;
}

int rpg_obj_used(const struct rpg_tmap *tm, int door, unsigned i)
{
	if (door)
		return tm->doxl && (gfs_le16(rpg_obj_word(tm, 1, DOOR_FLAGS, i)) & 1);
	return tm->npcl && gfs_le16(rpg_obj_word(tm, 0, NPC_ID, i)) != 0;
}

int rpg_tab_get(struct gfs_archive *ar, struct rpg_lump *l, int t, size_t rec, size_t i, unsigned c, int16_t *v)
{
	uint8_t w[2];
	size_t at;

	if (!l || !rpg_tab_at(ar, t, rec, l->data ? l->data->len : l->len, i, c, &at) || rpg_lump_range(ar, l, at, 2, w))
		return 0;
	*v = (int16_t)gfs_le16(w);
	return 1;
}

/* The stored word of column c of element r of table t in lump p. */
static int16_t i16_get(const uint8_t *p, const struct i16geo *g, int t, size_t r, size_t c)
{
	return (int16_t)gfs_le16(p + g->base + r * g->stride + i16tabs[t].cols[c].off);
}

/* A view's table: the lump's bytes, where its elements are, and the table of its columns. */
struct i16view {
	const struct i16tab *tab;
	struct gfs_buf b;
	struct i16geo g;
	struct gfs_record rec;
	struct gfs_table t;
};

static int i16_open(struct gfs_archive *ar, struct gfs_node *n, struct i16view *w)
{
	struct rpg_vpriv *v = n->priv;
	int r = v->l ? rpg_lump_read(ar, v->l, &w->b) : -ENOENT;

	w->tab = v->desc;
	if (!r && !i16_geo(ar, (int)(w->tab - i16tabs), v->rec, w->b.len, &w->g))
		r = gfs_err(ar, -EIO, "lump %s: too short for %s now", v->l->name, w->tab->view);
	if (r)
		return r;
	w->rec = (struct gfs_record){ .size = w->tab->cols[w->g.cols - 1].off + 2, .fields = w->tab->cols,
				      .nfields = w->g.cols };
	w->t = (struct gfs_table){ .index = w->tab->index, .rec = &w->rec, .max = w->g.rows, .stride = w->g.stride,
				   .used = w->tab->used, .check_cell = w->tab->check_cell };
	return 0;
}

static int i16_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct i16view w = { .b = GFS_BUF_INIT };
	int r = i16_open(ar, n, &w);

	if (!r)
		r = gfs_table_render(&w.t, w.b.data + w.g.base, w.g.rows, NULL, out);
	gfs_buf_release(&w.b);
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
	size_t cols;		/* of the .L */
};

static int maptab_of(struct gfs_archive *ar, struct rpg_lump *l, long *map);

static void i16_limits(struct gfs_archive *ar, struct rpg_lump *l, size_t cols, struct i16lim *lim)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *o, *gl = rpg_lump_named(m, GLOBAL_NPCS);
	unsigned w, h;
	struct i16geo gn;
	long map;

	*lim = (struct i16lim){ -1, -1, -1, -1, "", "", cols };
	if (maptab_of(ar, l, &map) != RPG_T_NPCS)
		return;
	if ((o = rpg_map_lump(m, map, 'T', RPG_K_MAP)) && rpg_map_lump_dims(ar, o, o->len, &w, &h, NULL)) {
		lim->w = w;
		lim->h = h;
	}
	if ((o = rpg_map_lump(m, map, 'N', RPG_K_REC)) && i16_geo(ar, RPG_T_NTYPES, 0, o->len, &gn)) {
		lim->ntypes = (long)gn.rows;
		snprintf(lim->tname, sizeof(lim->tname), "%s", o->name);
	}
	if (gl && gl->kind == RPG_K_REC && i16_geo(ar, RPG_T_NTYPES, 0, gl->len, &gn)) {
		lim->nglobal = (long)gn.rows;
		snprintf(lim->gname, sizeof(lim->gname), "%s", gl->name);
	}
}

/*
 * Column c of a row of npcs.csv: a row must keep its slot used, and a
 * changed value must lie in what it refers to (an untouched row of a game
 * that breaks a limit is kept).
 */
static int npc_check(void *ctx, size_t c, const uint8_t *e, const uint8_t *o, char *why, size_t whysz)
{
	const struct i16lim *lim = ctx;
	const struct gfs_field *f = &npc_cols[c];
	long val = (int16_t)gfs_le16(e + f->off) - (f->get ? 1 : 0);
	int global = lim->cols > NPC_POOL && gfs_le16(e + npc_cols[NPC_POOL].off);

	if (c == NPC_ID && !npc_used(e))
		snprintf(why, whysz, "-1 would empty the slot (delete the row instead)");
	else if (!memcmp(e + f->off, o + f->off, 2))
		return 0;
	else if (c == NPC_X && lim->w >= 0 && (val < 0 || val >= lim->w))
		snprintf(why, whysz, "%ld is off the %ldx%ld map (x from 0 to %ld)", val, lim->w, lim->h, lim->w - 1);
	else if (c == NPC_Y && lim->h >= 0 && (val < 0 || val >= lim->h))
		snprintf(why, whysz, "%ld is off the %ldx%ld map (y from 0 to %ld)", val, lim->w, lim->h, lim->h - 1);
	else if (c == NPC_ID && !global && lim->ntypes >= 0 && (val < 0 || val >= lim->ntypes))
		snprintf(why, whysz, "no NPC %ld: %s has %ld (0 to %ld)", val, lim->tname, lim->ntypes, lim->ntypes - 1);
	else if (c == NPC_ID && global && lim->nglobal >= 0 && (val < 0 || val >= lim->nglobal))
		snprintf(why, whysz, "no NPC %ld: %s has %ld (0 to %ld)", val, lim->gname, lim->nglobal,
			 lim->nglobal - 1);
	else
		return 0;
	return -EINVAL;
}

static int i16_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct i16view w = { .b = GFS_BUF_INIT };
	struct i16lim lim;
	char path[160];
	int r = i16_open(ar, n, &w);

	gfs_node_pathname(n, path, sizeof(path));
	if (!r && w.tab->check_cell)
		i16_limits(ar, v->l, w.g.cols, &lim);
	if (!r)
		r = gfs_table_patch(ar, path, &w.t, w.b.data + w.g.base, w.g.rows, data, len, NULL, &lim);
	return rpg_lump_done(ar, v->l, &w.b, r);
}

RPG_VIEW_OPS(i16);

/* ---- MAP records ------------------------------------------------------------ */

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
static const struct gfs_layout map_layout = {
	.section = "map", .comment = "; the map's MAP record (specs/ohrrpgce-lumps.md 2.4)\n", .fields = map_fields,
	.nfields = sizeof(map_fields) / sizeof(map_fields[0]), .flags = GFS_LAYOUT_INORDER,
};

static unsigned rpg_map_recsize(struct gfs_archive *ar)
{
	unsigned rs = rpg_binsize(ar, 4, 40);

	return rs ? rs : 40;
}

static int map_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_layout_table t;
	int r = gfs_layout_table(&map_layout, rpg_map_recsize(ar), &t);

	if (!r)
		r = rpg_record_render(ar, v->l, v->rec, &t.rec, out);
	gfs_layout_table_release(&t);
	return r;
}

static int map_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_layout_table t;
	char path[160];
	int r = gfs_layout_table(&map_layout, rpg_map_recsize(ar), &t);

	if (!r)
		r = rpg_record_store(ar, v->l, v->rec, gfs_node_pathname(n, path, sizeof(path)), &t.rec, data, len,
				     NULL, NULL);
	gfs_layout_table_release(&t);
	return r;
}

RPG_VIEW_OPS(map);

/* ---- game-wide records (read-only) ---------------------------------------- */

/* int16 word w is a reference (RF_*); n words from w, the key's %u their index; bit i of the bytes */
#define WR(k, w, rf) { .key = k, .kind = GFS_FK_REF, .off = 2 * (w), .width = 2, .ref = rf }
#define WN(k, w, n) { .key = k, .kind = GFS_FK_SINT, .off = 2 * (w), .width = 2, .repeat = n, .stride = 2 }
#define B(k, i) { .key = k, .kind = GFS_FK_UINT, .off = (i) / 8, .width = 1, .shift = (i) % 8, .bits = 1 }

/* the engine's gen* constants (const.bi); words 237-499 it leaves unused */
static const struct gfs_field gen_names[] = {
	W("last_map", 0), W("title", 1), WR("title_music", 2, RF_SONG1), WR("victory_music", 3, RF_SONG1),
	WR("battle_music", 4, RF_SONG1), W("pass_version", 5), W("pw3_rot", 6), WN("passcode%u", 7, 19),
	WN("last_pt%u", 26, 7), W("last_tileset", 33), W("last_attack", 34), W("last_hero", 35),
	W("last_enemy", 36), W("last_formation", 37), W("last_palette", 38), W("last_textbox", 39),
	W("scripts", 40), WR("new_game_script", 41, RF_SCRIPT), WR("gameover_script", 42, RF_SCRIPT),
	W("max_regular_script", 43), W("suspend_bits", 44), W("camera_mode", 45), W("camera_arg1", 46),
	W("camera_arg2", 47), W("camera_arg3", 48), W("camera_arg4", 49), W("scr_backdrop", 50), W("days", 51),
	W("hours", 52), W("minutes", 53), W("seconds", 54), W("last_vehicle", 55), W("last_tag_name", 56),
	WR("load_game_script", 57, RF_SCRIPT), W("textbox_backdrop", 58), W("enemy_dissolve", 59),
	W("joy", 60), W("poison_char", 61), W("stun_char", 62), W("damage_cap", 63), W("mute_char", 64),
	WN("stat%u_cap", 65, 12), W("last_sfx", 77), W("master_palette", 78), W("last_master_palette", 79),
	W("last_menu", 80), W("last_menu_item", 81), W("last_item", 82), W("last_box_border", 83),
	W("last_portrait", 84), W("max_inventory", 85), W("error_level", 86), W("level_cap", 87),
	W("equip_merge_formula", 88), W("num_elements", 89), W("unlocked_reserve_xp", 90),
	W("locked_reserve_xp", 91), W("pw4_hash", 92), W("pw2_offset", 93), W("pw2_length", 94),
	W("format_version", 95), W("start_money", 96), W("last_shop", 97), W("pw1_offset", 98),
	W("pw1_length", 99), W("backdrops", 100), W("bits", 101), W("start_x", 102), W("start_y", 103),
	W("start_map", 104), W("one_time_npc", 105), WN("one_time_npc_bits%u", 106, 65),
	WR("default_death_sfx", 171, RF_SFX1), W("last_song", 172), WR("accept_sfx", 173, RF_SFX1),
	WR("cancel_sfx", 174, RF_SFX1), WR("cursor_sfx", 175, RF_SFX1), WR("textbox_line", 176, RF_SFX1),
	WN("bits2_%u", 177, 2), WR("item_learn_sfx", 179, RF_SFX1), WR("cant_learn_sfx", 180, RF_SFX1),
	WR("buy_sfx", 181, RF_SFX1), WR("hire_sfx", 182, RF_SFX1), WR("sell_sfx", 183, RF_SFX1),
	WR("cant_buy_sfx", 184, RF_SFX1), WR("cant_sell_sfx", 185, RF_SFX1), W("damage_display_ticks", 186),
	W("damage_display_rise", 187), W("hero_weak_hp", 188), W("enemy_weak_hp", 189),
	W("autosort_scheme", 190), W("max_level", 191), W("battle_mode", 192), W("item_stack_size", 193),
	W("resolution_x", 194), W("resolution_y", 195), WR("esc_menu_script", 196, RF_SCRIPT),
	W("save_slot_count", 197), W("millisec_per_frame", 198), WR("steal_success_sfx", 199, RF_SFX1),
	WR("steal_fail_sfx", 200, RF_SFX1), WR("steal_no_item_sfx", 201, RF_SFX1), W("regen_char", 202),
	W("default_scale", 203), W("debug_mode", 204), W("current_debug_mode", 205),
	WR("start_hero", 206, RF_HERO), W("start_textbox", 207), W("window_size", 208),
	W("live_preview_window_size", 209), W("fullscreen", 210), W("music_volume", 211), W("sfx_volume", 212),
	W("rungame_fullscreen_independent", 213), W("skip_battle_rewards_ticks", 214),
	WR("def_onkeypress_script", 215, RF_SCRIPT), WR("def_each_step_script", 216, RF_SCRIPT),
	WR("def_after_battle_script", 217, RF_SCRIPT), WR("def_instead_of_battle_script", 218, RF_SCRIPT),
	WR("def_map_autorun_script", 219, RF_SCRIPT), W("last_enemy_spriteset", 220),
	W("minimap_algorithm", 221), WN("bits3_%u", 222, 4), W("def_counter_provoke", 226),
	W("invent_slotx1_display", 227), W("camera_on_walkabout_focus", 228), W("ticks_per_walk_frame", 229),
	WR("add_hero_script", 230, RF_SCRIPT), WR("remove_hero_script", 231, RF_SCRIPT),
	WR("move_hero_script", 232, RF_SCRIPT), W("blend_algo_8bit", 233), W("preview_backdrop", 234),
	W("colour_32bit", 235), W("default_battle_menu", 236),
};
static const struct gfs_field binsize_names[] = {
	W("attack", 0), W("stf", 1), W("songdata", 2), W("sfxdata", 3), W("map", 4), W("menus", 5),
	W("menuitem", 6), W("uicolors", 7), W("say", 8), W("npc", 9), W("dt0", 10), W("dt1", 11), W("itm", 12),
};
/* the engine's fix* constants (const.bi) */
static const struct gfs_field fixbits_names[] = {
	B("attack_items", 0), B("weap_points", 1), B("stun_cancel_targ", 2), B("default_dissolve", 3),
	B("default_dissolve_enemy", 4), B("push_npc_bug_compat", 5), B("default_max_item", 6),
	B("blank_door_links", 7), B("shop_sounds", 8), B("extended_npcs", 9), B("hero_portrait", 10),
	B("text_box_portrait", 11), B("npc_location_format", 12), B("init_damage_display", 13),
	B("default_level_cap", 14), B("hero_elementals", 15), B("old_elemental_fail_bit", 16),
	B("attack_element_fails", 17), B("enemy_elementals", 18), B("item_elementals", 19),
	B("num_elements", 20), B("remove_damage_mp", 21), B("default_max_level", 22), B("unused23", 23),
	B("wipe_gen", 24), B("set_old_attack_pos_bit", 25), B("wrap_cropped_maps_bit", 26),
	B("init_non_elemental_spawning", 27), B("init_default_volumes", 28), B("attack_multipliers", 29),
	B("check_for_broken_tb_chains", 30), B("check_trying_to_move_direction", 31),
};

#define GAME(sec, pre, cm, f, kind, bits) { .section = sec, .comment = cm "\n", .fields = f, \
	.nfields = sizeof(f) / sizeof(f[0]), .filler_prefix = pre ".", .filler_digits = 3, .filler_width = 2, \
	.filler_kind = kind, .flags = bits }

/* A game-wide lump: its fields after hdr bytes (int16 words, or with GFS_LAYOUT_BITS each bit of the bytes). */
struct gamerec {
	const char *lump, *view;
	unsigned hdr;
	struct gfs_layout layout;
};

static const struct gamerec gamerecs[] = {
	{ ".GEN", "gen.ini", 7, GAME("gen", "gen", "; GEN: the game's general data, int16 fields (read-only here)",
				     gen_names, GFS_FK_SINT, 0) },
	{ "BINSIZE.BIN", "binsize.ini", 0, GAME("binsize", "binsize", "; BINSIZE.BIN: record sizes in bytes "
						"(read-only)", binsize_names, GFS_FK_SINT, 0) },
	{ "FIXBITS.BIN", "fixbits.ini", 0, GAME("fixbits", "fixbit", "; FIXBITS.BIN: data fixes applied (read-only)",
						fixbits_names, GFS_FK_UINT, GFS_LAYOUT_BITS) },
};

static int game_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	const struct gamerec *d = v->desc;
	const struct gfs_rec_refs refs = { .fmt = rpg_ref_fmt, .ctx = ar };
	struct gfs_buf b = GFS_BUF_INIT;
	struct gfs_layout_table t = { .f = NULL };
	int r = v->l ? rpg_lump_read(ar, v->l, &b) : -ENOENT;
	size_t size = !r && b.len > d->hdr ? b.len - d->hdr : 0;

	size -= d->layout.flags & GFS_LAYOUT_BITS ? 0 : size % 2;
	if (!r)
		r = gfs_layout_table(&d->layout, size, &t);
	if (!r)
		r = gfs_record_render(&t.rec, b.data + (b.len > d->hdr ? d->hdr : b.len), size, &refs, out);
	if (!r && b.len > d->hdr + size)
		r = gfs_buf_printf(out, "; and %zu byte(s) after the last field\n", b.len - d->hdr - size);
	gfs_layout_table_release(&t);
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
		return rpg_lump_is(ar->priv, l, GLOBAL_NPCS) && i16_geo(ar, RPG_T_NTYPES, 0, l->len, &g) ? RPG_T_NTYPES : -1;
	t = letter == 'L' ? RPG_T_NPCS : letter == 'N' ? RPG_T_NTYPES : letter == 'D' ? RPG_T_LINKS : -1;
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
		r = rpg_add_view(ar, dox, dir, i16tabs[RPG_T_DOORS].view, &i16_ops, (size_t)map, &i16tabs[RPG_T_DOORS]);
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
			r = rpg_add_view(ar, l, dir, "global-npc-types.csv", &i16_ops, 0, &i16tabs[RPG_T_NTYPES]);
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
	int16_t f;

	return map >= 0 && d >= 0 && rpg_tab_get(ar, dox, RPG_T_DOORS, (size_t)map, (size_t)d, DOOR_FLAGS, &f) && (f & 1);
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

		if ((t != RPG_T_NPCS && t != RPG_T_LINKS) || rpg_lump_read(ar, l, &b) || !i16_geo(ar, t, 0, b.len, &g)) {
			gfs_buf_release(&b);
			continue;
		}
		if (t == RPG_T_NPCS) {
			unsigned w = 0, h = 0;
			struct rpg_lump *gl = rpg_lump_named(m, GLOBAL_NPCS), *nl = rpg_map_lump(m, map, 'N', RPG_K_REC);
			size_t ntypes = 0, nglobal = 0;
			int dims = 0, types = 0, globals = 0;

			if ((o = rpg_map_lump(m, map, 'T', RPG_K_MAP)))
				dims = rpg_map_lump_dims(ar, o, o->len, &w, &h, NULL);
			if (nl && i16_geo(ar, RPG_T_NTYPES, 0, nl->len, &gn)) {
				ntypes = gn.rows;
				types = 1;
			}
			if (gl && gl->kind == RPG_K_REC && i16_geo(ar, RPG_T_NTYPES, 0, gl->len, &gn)) {
				nglobal = gn.rows;
				globals = 1;
			}
			for (size_t s = 0; s < g.rows; s++) {
				long x = i16_get(b.data, &g, t, s, 0), y = i16_get(b.data, &g, t, s, 1) - 1;
				long id = i16_get(b.data, &g, t, s, 2) - 1;
				int global = g.cols > 5 && i16_get(b.data, &g, t, s, 5) != 0;

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
				long src = i16_get(b.data, &g, t, k, 0), dst = i16_get(b.data, &g, t, k, 1);
				long dmap = i16_get(b.data, &g, t, k, 2);
				int zero = 1;

				for (size_t c = 0; c < g.cols; c++)
					zero &= i16_get(b.data, &g, t, k, c) == 0;
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
	return *r ? NULL : b->data + rpg_map_at(*w, *h, (unsigned)v->rec, 0, 0);
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
