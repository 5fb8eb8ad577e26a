/*
 * tng_records.c - TirNanoG records and sections as INI: one table a kind on
 * the core record codec (gfs_record.h), references by name.
 *
 * Compressed records (choosers 22, cutscenes 23, character options 27,
 * NPCs 28, spawners 29, dialogs 30, objects 31, crafting 32, quests 35)
 * and the sections UI elements 16, main menu 17, HUD 18, equipment slots
 * 19, alerts 20, credits 21, attributes 25 and tiles meta 33.  A
 * record with scripts is given without them (its bytes before the scripts,
 * tng_handlers.c): the scripts are files of their own, and the counts and
 * lengths that belong to them are not keys here.
 *
 * Every kind is a table over the record's bytes as they are (parts in
 * byte order, the view in its own order; an attribute's layout follows its
 * kind: a tagged group, one table a kind).  The tables' value callbacks
 * (references by name) are tng_refs.c.  The section registry
 * (tng.c) names each kind's table, and the bytes a record spans before its
 * scripts come from it (tng_rec_prefix(), tng_handlers.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_record.h"
#include "gfs_layout.h"
#include "tng.h"
#include "tng_script.h"
#include "tng_rec.h"

/* ---- the tables ------------------------------------------------------------- */

#define W_TEXT	"a text index (N, -1 for none, #N for one not in every language)"
#define W_SPR	"a sprite CATEGORY/INDEX (ui, tiles, chars, portraits, backs; CATEGORY/-1 or -1 " \
		"for none; #CATEGORY/INDEX for one that is not there)"
#define W_NAME(what)	"the name of " what " (empty or -1 for none, #N for a string offset)"

#define F_U(k, o, w)	{ .key = k, .kind = GFS_FK_UINT, .off = o, .width = w }
#define F_S(k, o, w)	{ .key = k, .kind = GFS_FK_SINT, .off = o, .width = w }
#define F_H(k, o, w)	{ .key = k, .kind = GFS_FK_HEX, .off = o, .width = w }
#define F_R(k, o, w, r, wt)	{ .key = k, .kind = GFS_FK_REF, .off = o, .width = w, .ref = r, .want = wt }
#define F_TEXT(k, o)	F_R(k, o, 3, RR_TEXT, W_TEXT)
#define F_SPR(k, o)	F_R(k, o, 3, RR_SPR, W_SPR)
#define F_ATTR(k, o)	F_R(k, o, 3, RR_NAME | TNGS_ATTR, W_NAME("an attribute"))
#define F_SOUND(k, o)	F_R(k, o, 3, RR_NAME | TNGS_SOUND, W_NAME("a sound of sounds/"))
#define F_MUSIC(k, o)	F_R(k, o, 3, RR_NAME | TNGS_MUSIC, W_NAME("a music of music/"))
#define F_MOVIE(k, o)	F_R(k, o, 3, RR_NAME | TNGS_MOVIE, W_NAME("a movie of movies/"))
#define F_SPEECH(k, o)	F_R(k, o, 3, RR_NAME | TNGS_SPEECH, W_NAME("a speech of lang/*/speech/"))
#define F_FONT(k, o)	F_R(k, o, 3, RR_NAME | TNGS_FONT, W_NAME("a font of fonts/"))
#define F_OBJ(k, o)	F_R(k, o, 2, RR_OBJSPR, "an object sprite chars/N (-1 for none)")
#define F_REL(k, o)	F_R(k, o, 1, RR_REL, "a relation: eq, ne, ge, gt, le, lt, set or a number")
#define F_GROUP(k, g, co, cw) \
	{ .key = k, .kind = GFS_FK_GROUP, .group = &g, .count_off = co, .count_width = cw }
#define F_TOEND(k, g)	{ .key = k, .kind = GFS_FK_GROUP, .group = &g, .flags = GFS_FF_TOEND }
/* w bytes right after the part before, its fields those of g, under [s] */
#define F_PART(s, g, w)	{ .key = s, .kind = GFS_FK_PART, .group = &g, .width = w, .section = s }
#define NF(a)		(sizeof(a) / sizeof((a)[0]))

#define COMMENT_REFS \
	"; texts are text indices (the first language's text follows ';'); names are those of\n" \
	"; the media, attributes...; sprites are CATEGORY/INDEX; #N: a value with no name\n"

/* dialogs (30): 14-byte header, answer options of 21 bytes */
static const char *const sides[] = { "right", "left", NULL };

static const struct gfs_field answer_fields[] = {
	F_ATTR("require_attribute", 0), F_REL("require_relation", 3), F_S("require_value", 4, 4),
	F_ATTR("provide_attribute", 8), F_S("provide_value", 11, 4), F_SPEECH("speech", 15),
	F_TEXT("text", 18),
};
static const struct gfs_record answer_rec = { "answer", NULL, 21, answer_fields, NF(answer_fields) };

static const struct gfs_field dialog_fields[] = {
	F_TEXT("title", 0), F_TEXT("text", 3), F_SPEECH("speech", 6),
	{ .key = "portrait", .kind = GFS_FK_REF, .off = 9, .width = 3, .ref = RR_PORTRAIT,
	  .want = W_SPR " or player/N (the player's portrait, expression N)" },
	{ .key = "portrait_side", .kind = GFS_FK_ENUM, .off = 12, .width = 1, .names = sides },
	F_GROUP("answer", answer_rec, 13, 1),
};
const struct gfs_record tng_dialog_rec = {
	"dialog", COMMENT_REFS "; [answer N]: one per answer option\n", 14, dialog_fields,
	NF(dialog_fields)
};

/* choosers (22): 10-byte header, options of 31 bytes */
static const struct gfs_field option_fields[] = {
	{ .key = "position", .kind = GFS_FK_UINT, .off = 0, .width = 1, .bits = 7, .max = 13 },
	{ .key = "keep_running", .kind = GFS_FK_UINT, .off = 0, .width = 1, .shift = 7, .bits = 1 },
	{ .key = "area", .kind = GFS_FK_REF, .off = 1, .width = 8, .ref = RR_AREA, .get = tng_area_get,
	  .set = tng_area_set, .want = "three UI sprites (ui/N or -1), or rect X1 Y1 X2 Y2 (percent)",
	  .note = "three UI sprites; at position 13 a rectangle: rect X1 Y1 X2 Y2 in percent" },
	F_R("require1", 7, 4, RR_COND, "an attribute name, local:a .. local:z, or empty"),
	F_S("require1_value", 11, 4),
	F_R("require2", 15, 4, RR_COND, "an attribute name, local:a .. local:z, or empty"),
	F_S("require2_value", 19, 4),
	F_R("provide", 23, 4, RR_COND, "an attribute name, local:a .. local:z, or empty"),
	F_S("provide_value", 27, 4),
};
static const struct gfs_record option_rec = { "option", NULL, 31, option_fields, NF(option_fields) };

static const struct gfs_field chooser_fields[] = {
	F_U("left", 0, 2), F_U("top", 2, 2), F_U("padding_x", 4, 2), F_U("padding_y", 6, 2),
	F_GROUP("option", option_rec, 8, 2),
};
const struct gfs_record tng_chooser_rec = {
	"chooser", COMMENT_REFS "; [option N]: one per option; position 0-13, keep_running 0 or 1\n",
	10, chooser_fields, NF(chooser_fields)
};

/* cutscenes (23): 21-byte header, slides, speech, subtitles; the script is its .tngs */
static const char *const aligns[] = { "left", "center", "right", NULL };

static const struct gfs_field slide_fields[] = {
	F_U("start", 0, 3), F_U("fade_in", 3, 3), F_U("fade_out", 6, 3), F_U("end", 9, 3),
	F_H("color", 12, 4), F_SPR("image", 16),
};
static const struct gfs_record slide_rec = { "slide", NULL, 19, slide_fields, NF(slide_fields) };

static const struct gfs_field cspeech_fields[] = { F_U("start", 0, 3), F_SPEECH("speech", 3) };
static const struct gfs_record cspeech_rec = { "speech", NULL, 6, cspeech_fields, NF(cspeech_fields) };

static const struct gfs_field subtitle_fields[] = {
	F_U("start", 0, 3), F_U("fade_in", 3, 3), F_U("fade_out", 6, 3), F_U("end", 9, 3),
	F_H("color", 12, 4), F_U("x", 16, 1), F_U("y", 17, 1),
	{ .key = "align", .kind = GFS_FK_ENUM, .off = 18, .width = 1, .names = aligns },
	F_U("font_style", 19, 1), F_U("font_size", 20, 1), F_FONT("font", 21), F_TEXT("text", 24),
};
static const struct gfs_record subtitle_rec = {
	"subtitle", NULL, 27, subtitle_fields, NF(subtitle_fields)
};

static const struct gfs_field cutscene_fields[] = {
	F_MOVIE("movie", 0), F_MUSIC("music", 3), F_MOVIE("loop_movie", 6), F_MUSIC("loop_music", 9),
	F_GROUP("slide", slide_rec, 12, 2), F_GROUP("speech", cspeech_rec, 14, 2),
	F_GROUP("subtitle", subtitle_rec, 16, 2),
};
const struct gfs_record tng_cutscene_rec = {
	"cutscene", COMMENT_REFS "; times in 1/100 s; colors 0xAABBGGRR; the script is its .script.tngs\n",
	21, cutscene_fields, NF(cutscene_fields)
};

/* quests (35): 10-byte header; the on-complete script is its .tngs */
static const struct gfs_field quest_fields[] = {
	{ .key = "global", .kind = GFS_FK_UINT, .off = 0, .width = 1, .max = 1,
	  .note = "0: every player can complete it, 1: only one player can" },
	F_TEXT("title", 1), F_TEXT("text", 4),
};
const struct gfs_record tng_quest_rec = {
	"quest", COMMENT_REFS "; the on-complete script is its .on_complete.tngs\n", 10, quest_fields,
	NF(quest_fields)
};

/* crafting (32): 14-byte header, recipes of 68 bytes */
static const char *const orders[] = { "matters", "irrelevant", NULL };
#define F_INGR(k, o)	F_R(k, o, 4, RR_INGR, "QUANTITY chars/N, or none")

static const struct gfs_field recipe_fields[] = {
	F_U("quantity", 0, 2), F_OBJ("product", 2),
	F_INGR("ingredient0", 4), F_INGR("ingredient1", 8), F_INGR("ingredient2", 12),
	F_INGR("ingredient3", 16), F_INGR("ingredient4", 20), F_INGR("ingredient5", 24),
	F_INGR("ingredient6", 28), F_INGR("ingredient7", 32), F_INGR("ingredient8", 36),
	F_INGR("ingredient9", 40), F_INGR("ingredient10", 44), F_INGR("ingredient11", 48),
	F_INGR("ingredient12", 52), F_INGR("ingredient13", 56), F_INGR("ingredient14", 60),
	F_INGR("ingredient15", 64),
};
static const struct gfs_record recipe_rec = { "recipe", NULL, 68, recipe_fields, NF(recipe_fields) };

static const struct gfs_field craft_fields[] = {
	F_TEXT("title", 0), F_TEXT("text", 3), F_SOUND("sound", 6), F_SPR("portrait", 9),
	{ .key = "order", .kind = GFS_FK_ENUM, .off = 12, .width = 1, .names = orders,
	  .note = "does the order of the ingredients matter: matters or irrelevant" },
	F_GROUP("recipe", recipe_rec, 13, 1),
};
const struct gfs_record tng_craft_rec = {
	"craft", COMMENT_REFS "; [recipe N]: one per recipe; ingredient = QUANTITY chars/N (object "
	"sprite), or none\n", 14, craft_fields, NF(craft_fields)
};

/* spawners (29): 6-byte header, NPC kinds of 21 bytes */
static const struct gfs_field spawn_fields[] = {
	F_ATTR("require_attribute", 0), F_REL("require_relation", 3), F_S("require_value", 4, 4),
	F_ATTR("provide_attribute", 8), F_S("provide_value", 11, 4), F_SPR("spawn_sprite", 15),
	F_SPR("sprite", 18),
};
static const struct gfs_record spawn_rec = { "npc", NULL, 21, spawn_fields, NF(spawn_fields) };

static const struct gfs_field spawner_fields[] = {
	F_U("max_npcs", 0, 1), F_U("respawn", 1, 3), F_GROUP("npc", spawn_rec, 4, 2),
};
const struct gfs_record tng_spawner_rec = {
	"spawner", COMMENT_REFS "; respawn in 1/100 s; [npc N]: one per kind of NPC spawned\n", 6,
	spawner_fields, NF(spawner_fields)
};

/* NPCs (28): 13-byte header, attributes, inventory, sprites; event handlers are .tngs files */
static const struct gfs_field nattr_fields[] = {
	F_REL("relation", 0), F_ATTR("attribute", 1), F_S("value", 4, 4),
};
static const struct gfs_record nattr_rec = { "attribute", NULL, 8, nattr_fields, NF(nattr_fields) };
static const struct gfs_record oreq_rec = { "require", NULL, 8, nattr_fields, NF(nattr_fields) };

static const struct gfs_field item_fields[] = {
	F_U("chance", 0, 1), F_U("quantity", 1, 3), F_U("resupply", 4, 3), F_SPR("object", 7),
};
static const struct gfs_record item_rec = { "item", NULL, 10, item_fields, NF(item_fields) };

static const struct gfs_field sprite_fields[] = { F_SPR("sprite", 0) };
static const struct gfs_record sprite_rec = { "sprite", NULL, 3, sprite_fields, NF(sprite_fields) };

static const struct gfs_field npc_fields[] = {
	F_TEXT("title", 0), F_U("behaviour", 3, 1), F_U("speed", 4, 2),
	F_U("direction_change", 6, 2), F_U("patrol_path", 8, 1),
	F_GROUP("attribute", nattr_rec, 9, 1), F_GROUP("item", item_rec, 10, 1),
	F_GROUP("sprite", sprite_rec, 11, 1),
};
const struct gfs_record tng_npc_rec = {
	"npc", COMMENT_REFS "; speed in percent, direction_change in 1/100 s; [item N]: chance in "
	"percent,\n; resupply in minutes; [sprite N]: the animation sprites, the last the portrait\n",
	13, npc_fields, NF(npc_fields)
};

#define SPR10(p, o) F_SPR(p "0", (o)), F_SPR(p "1", (o) + 3), F_SPR(p "2", (o) + 6), \
	F_SPR(p "3", (o) + 9), F_SPR(p "4", (o) + 12), F_SPR(p "5", (o) + 15), F_SPR(p "6", (o) + 18), \
	F_SPR(p "7", (o) + 21), F_SPR(p "8", (o) + 24), F_SPR(p "9", (o) + 27)
#define SPR20(p, o) SPR10(p, o), SPR10(p "1", (o) + 30)

static const struct gfs_field osnd_fields[] = { F_SOUND("sound", 0) };
static const struct gfs_record osnd_rec = { "sound", NULL, 3, osnd_fields, NF(osnd_fields) };

static const struct gfs_field omod_fields[] = {
	{ .key = "when_equipped", .kind = GFS_FK_UINT, .off = 0, .width = 1, .bits = 1 },
	{ .key = "percent", .kind = GFS_FK_UINT, .off = 0, .width = 1, .shift = 1, .bits = 1 },
	F_ATTR("attribute", 1), F_S("value", 4, 4),
};
static const struct gfs_record omod_rec = { "modifier", NULL, 8, omod_fields, NF(omod_fields) };

static const struct gfs_field smod_fields[] = {
	F_TEXT("option", 0), SPR20("behind", 3), SPR20("above", 63),
};
static const struct gfs_record smod_rec = { "sprite_modifier", NULL, OBJ_SMOD, smod_fields,
					    NF(smod_fields) };

static const struct gfs_field cell_fields[] = { F_U("cell", 0, 1) };
static const struct gfs_record cell_rec = { "cell", NULL, 1, cell_fields, NF(cell_fields) };

/* a row of the collision mask: as many cells as the object is wide */
static const struct gfs_field mrow_fields[] = {
	{ .key = "row", .kind = GFS_FK_LIST, .off = 0, .group = &cell_rec, .flags = GFS_FF_TOEND,
	  .want = "a number 0-255" },
};
static const struct gfs_record mrow_rec = { "mask", NULL, 0, mrow_fields, NF(mrow_fields) };

/* 32 sprites: an object's equipped sprites, and its slot sprites */
static const struct gfs_field spr32_fields[] = {
	SPR10("sprite", 0), SPR10("sprite1", 30), SPR10("sprite2", 60),
	F_SPR("sprite30", 90), F_SPR("sprite31", 93),
};
static const struct gfs_record spr32_rec = { "sprites", NULL, OBJ_SPRS, spr32_fields, NF(spr32_fields) };

/*
 * Objects (31), in byte order: 39 bytes, the collision mask (width x height
 * cells, a row each [mask N], shown last), 32 equipped sprites, sounds, 32
 * slot sprites, required attributes, modifiers, sprite modifiers.
 */
static const struct gfs_field object_fields[] = {
	F_TEXT("title", 0),
	F_U("default_action", 7, 1),
	F_SPR("inventory_sprite", 8), F_SOUND("placement_sound", 11), F_U("price", 14, 3),
	F_OBJ("price_unit", 17), F_U("category", 19, 1), F_SPR("projectile_sprite", 20),
	F_U("projectile_duration", 23, 3), F_SPR("ammo", 26), F_U("layer_order", 29, 1),
	F_H("equip_mask", 30, 4),
	{ .key = "mask", .kind = GFS_FK_GROUP, .group = &mrow_rec, .count_off = OBJ_H, .count_width = 2,
	  .size_off = OBJ_W, .size_width = 2, .view = 1 },
	F_PART("equipped", spr32_rec, OBJ_SPRS),
	F_GROUP("sound", osnd_rec, OBJ_NSND, 1),
	F_PART("slot_sprites", spr32_rec, OBJ_SPRS),
	F_GROUP("require", oreq_rec, OBJ_NREQ, 1),
	F_GROUP("modifier", omod_rec, OBJ_NMOD, 1), F_GROUP("sprite_modifier", smod_rec, OBJ_NSMOD, 1),
};
const struct gfs_record tng_object_rec = {
	"object", COMMENT_REFS
	"; default_action 255: none; equip_mask 0xffffffff: a skill; [equipped] and [slot_sprites]:\n"
	"; 32 sprites each; [require N]: required attributes; [modifier N]: attribute modifiers\n"
	"; (attribute empty: the transportation method); [sprite_modifier N]: option -1 is the\n"
	"; default, behind0-19 and above0-19 the sprites; [mask N]: the collision mask, one row\n"
	"; each (all rows as long; the width and height are theirs)\n",
	OBJ_HDR, object_fields, NF(object_fields)
};

/*
 * Section 16, UI elements, in byte order: a u8 count and the colors, a u8
 * count and the fonts, a u8 count and the sounds, the sprites to the end.
 */
static const struct gfs_field color_fields[] = { F_H("color", 0, 4) };
static const struct gfs_record color_rec = { "color", NULL, 4, color_fields, NF(color_fields) };
static const struct gfs_field font_fields[] = {
	F_U("style", 0, 1), F_U("size", 1, 1), F_FONT("font", 2),
};
static const struct gfs_record font_rec = { "font", NULL, 7, font_fields, NF(font_fields) };
static const struct gfs_record count8_rec = { "count", NULL, 1, NULL, 0 };

/* a u8 count between two groups: the count_in of the group after it (its place among the parts) */
#define F_COUNT8	{ .key = "count", .kind = GFS_FK_PART, .group = &count8_rec, .width = 1 }
#define UI_NFONTS_IN	2
#define UI_NSOUNDS_IN	4
static const struct gfs_field uielem_fields[] = {
	F_GROUP("color", color_rec, 0, 1),
	F_COUNT8,
	{ .key = "font", .kind = GFS_FK_GROUP, .group = &font_rec, .count_width = 1, .count_in = UI_NFONTS_IN },
	F_COUNT8,
	{ .key = "sound", .kind = GFS_FK_GROUP, .group = &osnd_rec, .count_width = 1,
	  .count_in = UI_NSOUNDS_IN },
	F_TOEND("sprite", sprite_rec),
};
const struct gfs_record tng_uielem_rec = {
	"uielements", COMMENT_REFS "; colors 0xAABBGGRR; [color N], [font N], [sound N], [sprite N]: "
	"one per record\n", 1, uielem_fields, NF(uielem_fields)
};

/* A font: style, size and the font, three keys. */
#define F_FONT3(k, o)	F_U(k "_style", o, 1), F_U(k "_size", (o) + 1, 1), F_FONT(k, (o) + 2)
#define F_STRING(k, o)	F_R(k, o, 3, RR_NAME | TNGS_STRING, W_NAME("a string of strings.txt"))
#define F_CUTSCENE(k, o) F_R(k, o, 3, RR_NAME | TNGS_CUTSCENE, W_NAME("a cutscene of cutscenes/"))

/*
 * Section 17, the main menu: 3 bytes (the intro cutscene alone) or 141.
 * Its three parallaxes and five buttons are fixed parts of it, one section
 * each; the counts before them (3 and 5) are kept.
 */
static const struct gfs_field intro_fields[] = { F_CUTSCENE("intro", 0) };
static const struct gfs_record intro_rec = {
	"mainmenu", "; the main menu is disabled: only the intro cutscene\n", 3, intro_fields,
	NF(intro_fields)
};

#define MM_PARALLAX(n, o) \
	{ .key = "dx", .kind = GFS_FK_SINT, .off = o, .width = 2, .section = "parallax " #n }, \
	F_S("dy", (o) + 2, 2), F_U("time", (o) + 4, 2), F_SPR("sprite", (o) + 6)
#define MM_BUTTON(n, o) \
	{ .key = "color", .kind = GFS_FK_HEX, .off = o, .width = 4, .section = "button " #n }, \
	F_SPR("left", (o) + 4), F_SPR("background", (o) + 7), F_SPR("right", (o) + 10)

static const struct gfs_field mainmenu_fields[] = {
	F_CUTSCENE("intro", 0), F_MUSIC("music", 3), F_MOVIE("movie", 6), F_SPR("background", 9),
	F_SPR("title_sprite", 40),
	{ .key = "show_title", .kind = GFS_FK_UINT, .off = 43, .width = 1, .bits = 1 },
	{ .key = "no_crop", .kind = GFS_FK_UINT, .off = 43, .width = 1, .shift = 1, .bits = 1,
	  .note = "1: the background image or movie is not cropped" },
	F_H("title_color", 44, 4), F_H("title_shadow", 48, 4), F_FONT3("title_font", 52),
	F_STRING("url", 57), F_U("button_padding", 60, 2), F_FONT3("button_font", 62),
	F_H("graph_color", 133, 4), F_H("graph_background", 137, 4),
	MM_PARALLAX(0, 13), MM_PARALLAX(1, 22), MM_PARALLAX(2, 31),
	MM_BUTTON(0, 68), MM_BUTTON(1, 81), MM_BUTTON(2, 94), MM_BUTTON(3, 107), MM_BUTTON(4, 120),
};
const struct gfs_record tng_mainmenu_rec = {
	"mainmenu", COMMENT_REFS "; colors 0xAABBGGRR; [parallax N]: dx, dy, time and sprite of each "
	"background layer;\n; [button N]: the buttons' colors and sprites\n", 141, mainmenu_fields,
	NF(mainmenu_fields)
};

/* Section 18, the HUD: 51 bytes, then progress bars of 17 bytes. */
static const struct gfs_field bar_fields[] = {
	F_U("type", 0, 1), F_U("left", 1, 2), F_U("top", 3, 2), F_ATTR("value", 5), F_ATTR("max", 8),
	F_SPR("sprite", 11), F_SPR("background", 14),
};
static const struct gfs_record bar_rec = { "progressbar", NULL, 17, bar_fields, NF(bar_fields) };

static const struct gfs_field hud_fields[] = {
	F_SPR("navigator", 0), F_SPR("action_buttons", 3), F_SPR("itembar_background", 6),
	F_SPR("itembar_foreground", 9), F_U("items", 12, 1), F_U("item_width", 13, 1),
	F_U("item_height", 14, 1), F_U("item_left", 15, 1), F_U("item_top", 16, 1),
	F_U("item_gap", 17, 1), F_U("item_handheld_gap", 18, 1),
	{ .key = "combined", .kind = GFS_FK_UINT, .off = 19, .width = 1,
	  .note = "0: the status bar is not combined with the item bar" },
	F_SPR("statusbar_background", 20), F_SPR("statusbar_foreground", 23),
	F_SPR("inventory_icon", 26), F_SPR("inventory_pressed", 29), F_U("slot_width", 32, 1),
	F_U("slot_height", 33, 1), F_U("slot_left", 34, 1), F_U("slot_top", 35, 1),
	F_FONT3("items_font", 36), F_SPR("slot_background", 41), F_SPR("slot_selected", 44),
	F_SPR("equipment_background", 47), F_GROUP("progressbar", bar_rec, 50, 1),
};
const struct gfs_record tng_hud_rec = {
	"hud", COMMENT_REFS "; [progressbar N]: one per bar; value and max are attributes\n", 51,
	hud_fields, NF(hud_fields)
};

/* Section 20, alerts: 12 bytes, then alerts of 10 bytes (at least 3). */
static const struct gfs_field alert_fields[] = { F_H("color", 0, 4), F_SOUND("sound", 4), F_TEXT("text", 7) };
static const struct gfs_record alert_rec = { "alert", NULL, 10, alert_fields, NF(alert_fields) };

static const struct gfs_field alerts_fields[] = {
	F_FONT3("font", 0), F_U("display_time", 5, 2), F_U("fade_in_end", 7, 2),
	F_U("fade_out_start", 9, 2),
	{ .key = "alert", .kind = GFS_FK_GROUP, .group = &alert_rec, .count_off = ALERTS_N, .count_width = 1,
	  .min = ALERTS_MIN },
};
const struct gfs_record tng_alerts_rec = {
	"alerts", COMMENT_REFS "; times in 1/100 s; colors 0xAABBGGRR; [alert N]: one per alert, "
	"at least 3\n", 12, alerts_fields, NF(alerts_fields)
};

/*
 * Section 21, credits: 24 bytes, then categories to the section's end (a
 * letter, a u16 count, the authors' u24 strings).
 */
static const struct gfs_field author_fields[] = {
	F_R("author", 0, 3, RR_AUTHOR, W_NAME("a string of strings.txt")),
};
static const struct gfs_record author_rec = { "author", NULL, 3, author_fields, NF(author_fields) };

static const struct gfs_field credcat_fields[] = {
	F_R("category", 0, 1, RR_CREDIT, "a category letter: " CREDIT_CATS " (#N for another byte)"),
	{ .key = "authors", .kind = GFS_FK_LIST, .off = 3, .group = &author_rec, .count_off = 1,
	  .count_width = 2, .want = W_NAME("a string of strings.txt") },
};
static const struct gfs_record credcat_rec = {
	"category", NULL, 3, credcat_fields, NF(credcat_fields)
};

static const struct gfs_field credits_fields[] = {
	F_MUSIC("music", 0), F_SPR("background", 3), F_H("header_color", 6, 4),
	F_FONT3("header_font", 10), F_H("names_color", 15, 4), F_FONT3("names_font", 19),
	F_TOEND("category", credcat_rec),
};
const struct gfs_record tng_credits_rec = {
	"credits", COMMENT_REFS "; colors 0xAABBGGRR; [category N]: a category (" CREDIT_CATS ") and "
	"its authors, names of strings.txt\n", CREDITS_HDR, credits_fields, NF(credits_fields)
};

/*
 * Character options (27): a 7-byte header, options of 9 bytes each
 * followed by three lists: attributes, inventory items, animation sprites.
 */
static const struct gfs_field citem_fields[] = { F_U("quantity", 0, 1), F_SPR("sprite", 1) };
static const struct gfs_record citem_rec = { "item", NULL, 4, citem_fields, NF(citem_fields) };

static const struct gfs_field copt_fields[] = {
	F_TEXT("name", 0), F_TEXT("description", 3),
	{ .key = "attributes", .kind = GFS_FK_LIST, .off = 9, .group = &nattr_rec, .count_off = 6,
	  .count_width = 1, .want = "RELATION,ATTRIBUTE,VALUE" },
	{ .key = "items", .kind = GFS_FK_LIST, .off = 9, .group = &citem_rec, .count_off = 7,
	  .count_width = 1, .want = "QUANTITY,CATEGORY/INDEX" },
	{ .key = "sprites", .kind = GFS_FK_LIST, .off = 9, .group = &sprite_rec, .count_off = 8,
	  .count_width = 1, .want = W_SPR },
};
static const struct gfs_record copt_rec = { "option", NULL, 9, copt_fields, NF(copt_fields) };

static const struct gfs_field charopt_fields[] = {
	F_TEXT("name", 0), F_SPR("palettes", 3), F_GROUP("option", copt_rec, 6, 1),
};
const struct gfs_record tng_charopt_rec = {
	"charoption", COMMENT_REFS "; [option N]: one per option; attributes = RELATION,ATTRIBUTE,VALUE "
	"...;\n; items = QUANTITY,SPRITE ...; sprites = SPRITE ... (the last the portrait)\n", 7,
	charopt_fields, NF(charopt_fields)
};

/* Sections 19 and 33, arrays of records: as many as the section holds. */
static const struct gfs_field slot_fields[] = { F_U("left", 0, 2), F_U("top", 2, 2) };
static const struct gfs_record slot_rec = { "slot", NULL, 4, slot_fields, NF(slot_fields) };
static const struct gfs_field equip_fields[] = { F_TOEND("slot", slot_rec) };
const struct gfs_record tng_equip_rec = {
	"equipslots", "; [slot N]: where equipment slot N is on the equipment slots sprite (HUD)\n",
	0, equip_fields, NF(equip_fields)
};

/*
 * Section 25, attributes: a 19-byte header, then attributes whose layout
 * follows their kind (kind, name and title, then a variable's default and
 * on-change script, a u24 length, or a calculated one's expression, a u16
 * length; a primary one ends there), shown as one table (kind, name,
 * title, default).  The scripts are files of their own (the lists "script",
 * shown nowhere): they follow an attribute's place, or, when attributes
 * came or went, its name; a new one is END.
 */
static const char *const akinds[] = {
	"primary", "variable", "calculated", "global_variable", "global_calculated", NULL
};
#define F_ACOMMON \
	{ .key = "kind", .kind = GFS_FK_ENUM, .off = 0, .width = 1, .names = akinds }, \
	F_R("name", 1, 3, RR_NAME | TNGS_STRING, W_NAME("a string of strings.txt")), F_TEXT("title", 4)
#define F_ASCRIPT(co, cw) \
	{ .key = "script", .kind = GFS_FK_LIST, .off = (co) + (cw), .group = &code_rec, .count_off = co, \
	  .count_width = cw, .min = 1, .why = "a primary attribute has no script (empty its .tngs file first)" }

static const struct gfs_record code_rec = { "byte", NULL, 1, NULL, 0 };
static const struct gfs_field aprim_fields[] = { F_ACOMMON };
static const struct gfs_field avar_fields[] = { F_ACOMMON, F_S("default", 7, 4), F_ASCRIPT(11, 3) };
static const struct gfs_field acalc_fields[] = { F_ACOMMON, F_ASCRIPT(7, 2) };
static const struct gfs_record aprim_rec = { "attribute", NULL, 7, aprim_fields, NF(aprim_fields) };
static const struct gfs_record avar_rec = { "attribute", NULL, 14, avar_fields, NF(avar_fields) };
static const struct gfs_record acalc_rec = { "attribute", NULL, 9, acalc_fields, NF(acalc_fields) };
static const struct gfs_record *const avariants[AK_N] = {
	[AK_PRIMARY] = &aprim_rec, [AK_VAR] = &avar_rec, [AK_CALC] = &acalc_rec,
	[AK_GVAR] = &avar_rec, [AK_GCALC] = &acalc_rec,
};

static const struct gfs_field attr_fields[] = {
	F_ACOMMON, { .key = "default", .kind = GFS_FK_SINT, .off = 7, .width = 4,
		     .why = "only variables have a default" },
};
static const struct gfs_record attr_rec = { "attribute", NULL, 11, attr_fields, NF(attr_fields) };

static const struct gfs_field attrs_fields[] = {
	F_U("freeform_points", 0, 2), F_U("freeform_max", 2, 2), F_U("engine_attributes", 4, 1),
	F_ATTR("light_radius", 5), F_ATTR("weight", 8), F_ATTR("speed", 11), F_ATTR("level_up", 14),
	{ .key = "attribute", .kind = GFS_FK_GROUP, .group = &attr_rec, .count_off = 17, .count_width = 2,
	  .variants = avariants, .nvariants = AK_N, .match = "name" },
};
const struct gfs_record tng_attrs_rec = {
	"attributes", COMMENT_REFS "; [attribute N]: kind primary, variable, calculated, global_variable "
	"or global_calculated;\n; default: variables only; the on-change handlers and expressions "
	"are NAME.on_change.tngs\n; and NAME.expression.tngs\n", 19, attrs_fields,
	NF(attrs_fields)
};

/* ---- attributes' scripts ------------------------------------------------------ */

int tng_attr_each(const uint8_t *p, size_t len, int (*fn)(uint32_t nameoff, void *ctx), void *ctx)
{
	const struct gfs_field *g = gfs_record_field(&tng_attrs_rec, "attribute");
	const struct gfs_field *name = gfs_record_field(&attr_rec, "name");
	size_t at = tng_attrs_rec.size, n;

	if (len < at)
		return 0;
	n = (size_t)gfs_le(p + g->count_off, g->count_width);
	for (size_t k = 0; k < n && len - at >= aprim_rec.size; k++) {
		size_t sz = gfs_record_elem_span(g, p, p + at, len - at);
		int r = fn((uint32_t)gfs_le(p + at + name->off, name->width), ctx);

		if (r)
			return r;
		if (!sz)
			break;	/* an unknown kind or a script past the end: the rest cannot be found */
		at += sz;
	}
	return 0;
}

int tng_attr_count(const uint8_t *p, size_t len, size_t *n)
{
	size_t at;

	return gfs_record_span(&tng_attrs_rec, p, len) == len &&
	       gfs_record_part(&tng_attrs_rec, p, len, "attribute", &at, n) ? 0 : -EBADMSG;
}

/* Attribute k of the section p[0..len): at *at, *n bytes, its table; its script at *sat, *sn bytes. */
static const struct gfs_record *attr_at(const uint8_t *p, size_t len, size_t k, size_t *at, size_t *n,
					const struct gfs_field **script, size_t *sat, size_t *sn)
{
	const struct gfs_record *el;
	size_t cnt;

	*script = NULL;
	*sat = *sn = 0;
	if (tng_attr_count(p, len, &cnt) || k >= cnt ||
	    !(el = gfs_record_elem(&tng_attrs_rec, p, len, "attribute", k, at, n)))
		return NULL;
	*script = gfs_record_items(el, p + *at, *n, "script", sat, sn);
	return el;
}

int tng_attr_script(const uint8_t *p, size_t len, size_t k, uint32_t *nameoff,
		    const uint8_t **code, size_t *n)
{
	const struct gfs_field *sc, *name = gfs_record_field(&attr_rec, "name");
	size_t at, es, sat, cnt;
	const struct gfs_record *el = attr_at(p, len, k, &at, &es, &sc, &sat, n);

	if (!el)
		return tng_attr_count(p, len, &cnt) ? -EBADMSG : -ENOENT;
	*nameoff = (uint32_t)gfs_le(p + at + name->off, name->width);
	*code = p + at + sat;
	return !sc ? 0 : el == &avar_rec ? 1 : 2;
}

int tng_attr_set_script(const uint8_t *p, size_t len, size_t k, const uint8_t *code, size_t n,
			struct gfs_buf *out)
{
	const struct gfs_field *sc;
	size_t at, es, sat, sn, base = out->len, cnt;
	int r;

	if (!attr_at(p, len, k, &at, &es, &sc, &sat, &sn))
		return tng_attr_count(p, len, &cnt) ? -EBADMSG : -ENOENT;
	if (!sc)
		return -ENOENT;
	if (n > ((size_t)1 << 8 * sc->count_width) - 1)
		return -E2BIG;
	r = gfs_buf_add(out, p, at + sat);
	for (unsigned i = 0; !r && i < sc->count_width; i++)	/* the script's new length */
		out->data[base + at + sc->count_off + i] = (uint8_t)(n >> 8 * i);
	r = r ? r : gfs_buf_add(out, code, n);
	return r ? r : gfs_buf_add(out, p + at + sat + sn, len - at - sat - sn);
}

/* ---- kinds ---------------------------------------------------------------- */

#define MAINMENU_SHORT	3
#define TMETA_MAXT	255

static const char *const tmnames[] = { "walk", "swim", "fly", "drive" };

/* Section 33's table for t transportation methods, made at run time (released with free()). */
struct tmeta_tab {
	struct gfs_record rec, el;
	struct gfs_field top, f[1 + 2 * TMETA_MAXT];
	char keys[2 * TMETA_MAXT][24];
};

static struct tmeta_tab *tmeta_tab(unsigned t)
{
	struct tmeta_tab *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->f[0] = (struct gfs_field)F_R("tile", 0, 2, RR_TILESPR, "a tile sprite tiles/N (-1 for none)");
	for (unsigned i = 0; i < t; i++) {
		char base[16];

		if (i < sizeof tmnames / sizeof tmnames[0])
			snprintf(base, sizeof base, "%s", tmnames[i]);
		else
			snprintf(base, sizeof base, "method%u", i);
		snprintf(m->keys[2 * i], sizeof m->keys[0], "%s_speed", base);
		snprintf(m->keys[2 * i + 1], sizeof m->keys[0], "%s_sound", base);
		m->f[1 + 2 * i] = (struct gfs_field)F_U(m->keys[2 * i], 2 + 5 * i, 2);
		m->f[2 + 2 * i] = (struct gfs_field)F_SOUND(m->keys[2 * i + 1], 4 + 5 * i);
	}
	m->el = (struct gfs_record){ "tile", NULL, 2 + 5 * (size_t)t, m->f, 1 + 2 * (size_t)t };
	m->top = (struct gfs_field)F_TOEND("tile", m->el);
	m->rec = (struct gfs_record){ "tilesmeta", COMMENT_REFS "; [tile N]: speed in percent and "
				      "sound of each transportation method on that tile\n", 0,
				      &m->top, 1 };
	return m;
}

/*
 * What a kind is made of: its table (the section registry's, tng.c); the
 * main menu's other table (a record of the intro alone); section 33's
 * table, made for its transports.
 */
struct tng_layout {
	const struct gfs_record *rec;
	const struct gfs_record *alt;	/* the table of a record alt_len bytes long (section 17) */
	size_t alt_len;
	struct tmeta_tab *tmp;		/* a table made for this use */
};

/* The registry's tables in section order (34 and 35 share the quests'), then the intro's, lang.ini's. */
const struct gfs_record *tng_layout_nth(size_t i)
{
	for (unsigned type = 0; type < TNG_S_N; type++)
		if (tng_kind_of(type)->rec && tng_kind_of(type)->rec != tng_kind_of(type - 1)->rec && !i--)
			return tng_kind_of(type)->rec;
	return i == 0 ? &intro_rec : i == 1 ? &tng_lang_rec : NULL;
}

static int kind_of(unsigned type, unsigned transports, struct tng_layout *k)
{
	memset(k, 0, sizeof(*k));
	if (type == TNG_S_TILESMETA) {
		if (!transports || transports > TMETA_MAXT)
			return -EBADMSG;
		if (!(k->tmp = tmeta_tab(transports)))
			return -ENOMEM;
		k->rec = &k->tmp->rec;
		return 0;
	}
	if (!(k->rec = tng_kind_of(type)->rec))
		return -ENOENT;
	if (type == TNG_S_MAINMENU) {
		k->alt = &intro_rec;
		k->alt_len = MAINMENU_SHORT;
	}
	return 0;
}

static void kind_release(struct tng_layout *k)
{
	free(k->tmp);
}

/* Does p[0..len) hold a record of k's table (k->rec: the one for its length)? */
static int layout_fits(struct tng_layout *k, const uint8_t *p, size_t len)
{
	size_t span;

	if (k->alt && len == k->alt_len)
		k->rec = k->alt;
	span = gfs_record_span(k->rec, p, len);	/* 0: it does not fit (or it is empty) */
	return (span || (!len && !k->rec->size)) && span == len ? 0 : -EBADMSG;
}

int tng_rec_known(unsigned type)
{
	struct tng_layout k;
	int r = kind_of(type, 1, &k);

	kind_release(&k);
	return r == 0;
}

/* The record p[0..len) with its kind's table, handed to fn (NULL: only decode it). */
static int with_view(unsigned type, unsigned transports, const uint8_t *p, size_t len,
		     int (*fn)(const struct tng_layout *k, const uint8_t *p, size_t len, void *ctx),
		     void *ctx)
{
	struct tng_layout k;
	int r = kind_of(type, transports, &k);

	if (!r)
		r = layout_fits(&k, p, len);
	if (!r && fn)
		r = fn(&k, p, len, ctx);
	kind_release(&k);
	return r;
}

int tng_rec_decodes(unsigned type, unsigned transports, const uint8_t *p, size_t len)
{
	return with_view(type, transports, p, len, NULL, NULL) == 0;
}

/* Longest run of zeros tried for a blank record: an object's fixed parts take 231 bytes. */
#define TNG_BLANK_MAX	4096

int tng_rec_blank(unsigned type, unsigned transports, struct gfs_buf *out)
{
	for (size_t n = 0; n <= TNG_BLANK_MAX; n++) {
		int r = gfs_buf_set_len(out, n);

		if (r)
			return r;
		if (tng_rec_decodes(type, transports, out->data, n))
			return 0;
	}
	return -EINVAL;
}

struct render_ctx {
	const struct tngs_names *nm;
	struct gfs_buf *out;
};

static int render_view(const struct tng_layout *k, const uint8_t *p, size_t len, void *ctx)
{
	struct render_ctx *c = ctx;
	struct gfs_rec_refs refs = { tng_ref_fmt, tng_ref_parse, NULL, (void *)c->nm };

	return gfs_record_render(k->rec, p, len, &refs, c->out);
}

int tng_rec_render(unsigned type, unsigned transports, const uint8_t *p, size_t len,
		   const struct tngs_names *nm, struct gfs_buf *out)
{
	struct render_ctx c = { nm, out };

	return with_view(type, transports, p, len, render_view, &c);
}

/* The sprites of the fields fields[0..nf) of the element at base[0..size): none (-1). */
static int none_sprites(const struct gfs_field *fields, size_t nf, uint8_t *base, size_t size,
			const struct gfs_rec_refs *refs, struct gfs_buf *tmp)
{
	char why[GFS_WHY_MAX];
	int r = 0;

	for (size_t i = 0; !r && i < nf; i++) {
		const struct gfs_field *f = &fields[i];

		if (f->kind == GFS_FK_REF && f->off + f->width <= size &&
		    (f->ref == RR_SPR || f->ref == RR_PORTRAIT || f->ref == RR_UISPR || f->ref == RR_TILESPR ||
		     f->ref == RR_OBJSPR))
			r = gfs_field_scan(f, base, "-1", refs, tmp, why, sizeof why) == -ENOMEM ? -ENOMEM : 0;
	}
	return r;
}

/*
 * A new record's sprites: none (-1) where its INI says nothing, as the
 * editor makes them, rather than sprite 0 of the category (the fixed part
 * and its fixed blocks: a new record's lists are empty).
 */
static int fresh_view(const struct gfs_record *rec, const struct gfs_rec_refs *refs, const uint8_t *p,
		      size_t len, struct gfs_buf *fv)
{
	struct gfs_buf tmp = GFS_BUF_INIT;
	int r = gfs_buf_add(fv, p, len);

	if (!r)
		r = none_sprites(rec->fields, rec->nfields, fv->data, rec->size < len ? rec->size : len, refs, &tmp);
	for (size_t i = 0; !r && i < rec->nfields; i++) {
		const struct gfs_field *f = &rec->fields[i];
		size_t at, n;

		if (f->kind == GFS_FK_PART && gfs_record_part(rec, fv->data, fv->len, f->key, &at, &n) &&
		    at + f->width <= fv->len)
			r = none_sprites(f->group->fields, f->group->nfields, fv->data + at, f->width, refs, &tmp);
	}
	gfs_buf_release(&tmp);
	return r;
}

static int rec_parse(struct gfs_archive *ar, const char *view, unsigned type, unsigned transports,
		     const uint8_t *old, size_t oldlen, const uint8_t *text, size_t len,
		     const struct tngs_names *nm, struct gfs_buf *out, int fresh)
{
	struct gfs_rec_refs refs = { tng_ref_fmt, tng_ref_parse, NULL, (void *)nm };
	struct gfs_buf fv = GFS_BUF_INIT, nv = GFS_BUF_INIT;
	struct tng_layout k;
	int r = kind_of(type, transports, &k);

	if (r)
		return r == -ENOENT ? -EINVAL : r;
	r = layout_fits(&k, old, oldlen);
	if (r == -EBADMSG)
		r = gfs_err(ar, -EIO, "%s: the record no longer decodes", view);
	if (!r && fresh && !(r = fresh_view(k.rec, &refs, old, oldlen, &fv)))
		old = fv.data;
	if (!r)
		r = gfs_record_parse(ar, view, k.rec, old, oldlen, text, len, &refs, &nv);
	if (!r)
		r = gfs_buf_add(out, nv.data, nv.len);
	gfs_buf_release(&nv);
	gfs_buf_release(&fv);
	kind_release(&k);
	return r;
}

int tng_rec_parse(struct gfs_archive *ar, const char *view, unsigned type, unsigned transports,
		  const uint8_t *old, size_t oldlen, const uint8_t *text, size_t len,
		  const struct tngs_names *nm, struct gfs_buf *out)
{
	return rec_parse(ar, view, type, transports, old, oldlen, text, len, nm, out, 0);
}

int tng_rec_parse_new(struct gfs_archive *ar, const char *view, unsigned type, unsigned transports,
		      const uint8_t *text, size_t len, const struct tngs_names *nm, struct gfs_buf *out)
{
	struct gfs_buf zero = GFS_BUF_INIT;
	int r = tng_rec_blank(type, transports, &zero);

	if (!r)
		r = rec_parse(ar, view, type, transports, zero.data, zero.len, text, len, nm, out, 1);
	gfs_buf_release(&zero);
	return r;
}

struct refers {
	int ref;
	uint32_t v;
};

static int refers_field(void *ctx, const struct gfs_field *f, uint64_t v)
{
	const struct refers *w = ctx;

	if (f->kind != GFS_FK_REF)
		return 0;
	if (w->ref == (RR_NAME | TNGS_SPRITE)) {	/* w->v: category << 16 | index */
		unsigned cat = w->v >> 16, idx = w->v & 0xffff;

		switch (f->ref) {
		case RR_SPR: case RR_PORTRAIT:
			return (v & 0xff) == cat && (v >> 8 & 0xffff) == idx;
		case RR_UISPR: case RR_TILESPR: case RR_OBJSPR:
			return cat == (f->ref == RR_UISPR ? 0u : f->ref == RR_TILESPR ? 1u : TNGS_OBJ_CAT) &&
			       v == idx;
		case RR_INGR:
			return cat == TNGS_OBJ_CAT && (v >> 16 & 0xffff) == idx;
		case RR_AREA:	/* three UI sprites, unless a rectangle (bit 48, tng_area_get) */
			return cat == 0 && !(v >> 48) &&
			       ((v & 0xffff) == idx || (v >> 16 & 0xffff) == idx || (v >> 32 & 0xffff) == idx);
		default:
			return 0;
		}
	}
	if (f->ref == w->ref)
		return v == w->v;
	/* a chooser's attribute: type 0 and the attribute */
	return f->ref == RR_COND && w->ref == (RR_NAME | TNGS_ATTR) && (v & 0xff) == 0 && v >> 8 == w->v;
}

static int refers_view(const struct tng_layout *k, const uint8_t *p, size_t len, void *ctx)
{
	return gfs_record_each(k->rec, p, len, refers_field, ctx);
}

int tng_rec_refers(unsigned type, unsigned transports, const uint8_t *p, size_t len, int k,
		   uint32_t v)
{
	struct refers w = { RR_NAME | k, v };

	return with_view(type, transports, p, len, refers_view, &w) > 0;
}
