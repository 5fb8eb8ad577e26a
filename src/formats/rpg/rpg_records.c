/*
 * Per-record views of the record lumps a modder edits: one INI file a
 * record (<dir>/NNN.ini), every int16 word of the record a key, on the
 * core record codec (gfs_record.h): writing one back patches only the
 * words whose text changed; record counts never change.
 *
 *   tile-animations/NNN.ini  <arch>.TAP, a tileset's 2 animation patterns
 *   vehicles/NNN.ini         <arch>.VEH (name: a length byte and 15 bytes, \xHH
 *                            outside printable ASCII as every OHRRPGCE text)
 *   formations/NNN.ini       <arch>.FOR
 *   formation-sets/NNNN.ini  <arch>.EFS (formation set N+1)
 *   shops/NNN.ini            <arch>.SHO beyond the name
 *   shop-stock/NNNN.ini      <arch>.STF, record = shop x 50 + slot
 *   heroes/NNN.ini           <arch>.DT0 beyond the name (old games)
 *   enemies/NNN.ini          <arch>.DT1 beyond the name
 *   items/NNN.ini            <arch>.ITM beyond the name and description
 *   attacks/NNN.ini          ATTACK.BIN (attack data from word 40 on)
 *   menus/NNN.ini            MENUS.BIN (name: int16 length, 20 bytes)
 *   menu-items/NNNN.ini      MENUITEM.BIN (caption: int16 length, 38 bytes)
 *   default-walls/NNN.ini    DEFPASS.BIN, a tileset's default walls
 *   ui-colors/NN.ini         UICOLORS.BIN, one record a master palette
 *
 * Words the engine's loaders name have that name (loading.rbas, menus.bas;
 * "+1" in a note: 0 is none, N is N-1); the others show as wNN, NN the
 * word's index in the engine's buffer.  Record sizes come from BINSIZE.BIN
 * where the engine takes them from there; a lump without a record size
 * (BINSIZE.BIN too short, legacy size 0) gets no view.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpg_draw.h"
#include "gfs_layout.h"

/* A kind of record: the lump it is in, its files, its record size, its layout. */
struct rk_kind {
	const char *lump;	/* ".VEH": archinym + this; else the whole name */
	const char *dir;
	int binsize_idx;	/* -1: fixed size */
	unsigned recsize;	/* fixed size, or the legacy one (0: none) */
	unsigned digits;
	struct gfs_layout layout;	/* every int16 word; the others as wNN */
};

#define NN(a) (sizeof(a) / sizeof(a[0]))
/* int16 word w; n of them s words apart (the key's %u from b); n words kept with no key (what they are: the note) */
#define INT(k, w) { .key = k, .kind = GFS_FK_SINT, .off = 2 * (w), .width = 2 }
#define INTN(k, w, nt) { .key = k, .kind = GFS_FK_SINT, .off = 2 * (w), .width = 2, .note = nt }
#define INTS(k, w, n, s, nt) { .key = k, .kind = GFS_FK_SINT, .off = 2 * (w), .width = 2, .repeat = n, \
			       .stride = 2 * (s), .note = nt }
#define INTSB(k, w, n, b, nt) { .key = k, .kind = GFS_FK_SINT, .off = 2 * (w), .width = 2, .repeat = n, \
				.stride = 2, .repeat_base = b, .note = nt }
/* a reference (RF_*): the number, then "; the name" of what it leads to (rk_ref_fmt) */
#define RK_WANT "a number (what follows a ';' is ignored)"
#define REF(k, w, rf) { .key = k, .kind = GFS_FK_REF, .off = 2 * (w), .width = 2, .ref = rf, .want = RK_WANT }
#define REFN(k, w, rf, nt) { .key = k, .kind = GFS_FK_REF, .off = 2 * (w), .width = 2, .ref = rf, .want = RK_WANT, \
			     .note = nt }
#define REFS(k, w, n, s, b, rf, nt) { .key = k, .kind = GFS_FK_REF, .off = 2 * (w), .width = 2, .ref = rf, \
				      .want = RK_WANT, .repeat = n, .stride = 2 * (s), .repeat_base = b, .note = nt }
/* n IEEE singles (two words each) from word w, the key's %u from b */
#define F32S(k, w, n, b, nt) F32R(k, w, n, 2, b, nt)
#define F32R(k, w, n, s, b, nt) { .key = k, .kind = GFS_FK_F32, .off = 2 * (w), .width = 4, .repeat = n, \
				  .stride = 2 * (s), .repeat_base = b, .note = nt }
/* NUL-padded text of n bytes from word w (its int16 length word is the word before: rk_fix_lengths) */
#define TEXT(k, w, n) { .key = k, .kind = GFS_FK_STR, .off = 2 * (w), .width = n }
/* a layout of int16 words: the named ones, the others wNN (NN: the word's index + base) */
#define WORDS(sec, named, base, cm) { .section = sec, .comment = cm, .fields = named, .nfields = NN(named), \
	.filler_prefix = "w", .filler_digits = 2, .filler_width = 2, .filler_kind = GFS_FK_SINT, .filler_base = base }
#define HIDE(w, n, what) { .kind = GFS_FK_BYTES, .off = 2 * (w), .width = 2 * (n), .flags = GFS_FF_HIDDEN, \
			   .note = what }

static const struct gfs_field rk_tap[] = {
	INTS("pattern%u_start_tile", 0, 2, 20, NULL),
	REFS("pattern%u_disable_tag", 1, 2, 20, 0, RF_TAG, NULL),
	INTS("pattern0_op%u", 2, 9, 1, NULL),
	INTS("pattern0_arg%u", 11, 9, 1, NULL),
	INTS("pattern1_op%u", 22, 9, 1, NULL),
	INTS("pattern1_arg%u", 31, 9, 1, NULL),
};

static const struct gfs_field rk_veh[] = {
	{ .key = "name", .kind = GFS_FK_PSTR, .off = 2 * (0), .width = 15, .flags = GFS_FF_ASCII },
	INT("speed", 8), INTN("bits", 9, "bits: 0 pass walls, 1 pass NPCs, 2 NPC activation, 3 door use, "
				 "4 leader shown, 5 party shown, 6 dismount ahead, 7 pass walls dismounting, "
				 "8 no flying shadow, 9 ignore harm tiles"),
	INT("random_battles", 11), INT("use_button", 12), INT("menu_button", 13), REF("riding_tag", 14, RF_TAG),
	INT("on_mount", 15), INT("on_dismount", 16), INT("override_walls", 17), INT("blocked_by", 18),
	INT("mount_from", 19), INT("dismount_to", 20), INT("elevation", 21),
};

static const struct gfs_field rk_for[] = {
	REFS("slot%u_enemy", 0, 8, 4, 0, RF_ENEMY1, "slotN_enemy: enemy +1 (0: empty)"),
	INTS("slot%u_x", 1, 8, 4, NULL),
	INTS("slot%u_y", 2, 8, 4, NULL),
	INT("background", 32), REFN("music", 33, RF_SONG1, "music: song +1 (0: none)"),
	INTN("background_frames", 34, "background_frames: frames -1"), INT("background_ticks", 35),
	REF("victory_tag", 36, RF_TAG), INT("death_action", 37), INT("hero_formation", 38),
};

static const struct gfs_field rk_efs[] = {
	INT("frequency", 0),
	REFS("formation%u", 1, 20, 1, 0, RF_FORMATION1, "formationN: formation +1 (0: none)"),
	REF("tag", 21, RF_TAG),
};

static const struct gfs_field rk_sho[] = {
	HIDE(0, 16, "name"),
	INTN("last_stock_slot", 16, "last_stock_slot: its stock is shop-stock/ N x 50 to N x 50 + this"),
	INTN("menu_bits", 17, "menu_bits: 1 buy, 2 sell, 4 hire, 8 inn, 16 equip, 32 save, 64 map, 128 team"),
	INT("inn_price", 18), REF("inn_script", 19, RF_SCRIPT),
};

static const struct gfs_field rk_stf[] = {
	HIDE(0, 17, "name"),
	INTN("type", 17, "type: 0 item, 1 hero"), INT("id", 18), INTN("stock", 19, "stock: -1 infinite"),
	REF("buy_require_tag", 20, RF_TAG), REF("sell_require_tag", 21, RF_TAG), REF("buy_set_tag", 22, RF_TAG),
	REF("sell_set_tag", 23, RF_TAG),
	INT("price", 24), REFN("trade1_item", 25, RF_ITEM1, "tradeN_item: item +1 (0: none), tradeN_count: count -1"),
	INTN("sell_type", 26, "sell_type: 0 normal, 1 acquire, 2 increment, 3 refuse (a hero: its level)"),
	REF("sell_trade_item", 28, RF_ITEM1), INT("sell_trade_count", 29), INT("trade1_count", 30),
	REF("trade2_item", 31, RF_ITEM1), INT("trade2_count", 32), REF("trade3_item", 33, RF_ITEM1), INT("trade3_count", 34),
	REF("trade4_item", 35, RF_ITEM1), INT("trade4_count", 36), INTN("stock_index", 37, "stock_index: +1 (0: the slot)"),
};

/* the 12 stats, as the engine numbers them */
#define STATS(pre, post, w) INT(pre "hp" post, (w)), INT(pre "mp" post, (w) + 1), INT(pre "strength" post, (w) + 2), \
	INT(pre "accuracy" post, (w) + 3), INT(pre "defense" post, (w) + 4), INT(pre "dodge" post, (w) + 5), \
	INT(pre "magic" post, (w) + 6), INT(pre "will" post, (w) + 7), INT(pre "speed" post, (w) + 8), \
	INT(pre "counter" post, (w) + 9), INT(pre "focus" post, (w) + 10), INT(pre "extra_hits" post, (w) + 11)

/* ITM, as loaditemdata and the item editor read it */
static const struct gfs_field rk_itm[] = {
	HIDE(0, 9, "name"), HIDE(9, 37, "description"),
	INT("value", 46), REFN("battle_attack", 47, RF_ATTACK1, "battle_attack, weapon_attack, teach_spell: attack +1 (0: none)"),
	REF("weapon_attack", 48, RF_ATTACK1),
	INT("old_equip_slot", 49), REF("teach_spell", 50, RF_ATTACK1),
	INTN("out_of_battle_use", 51, "out_of_battle_use: attack +1, -N text box N (0: none)"),
	INT("weapon_picture", 52), INT("weapon_palette", 53),
	STATS("", "_bonus", 54),
	INTSB("equippable_by_bits%u", 66, 4, 0, "equippable_by_bitsN: heroes 16 x N to 16 x N + 15, bit 0 first"),
	INTS("old_elemental_bits%u", 70, 3, 1, NULL),
	INTN("consumability", 73, "consumability: 0 unlimited use, 1 consumed by use, 2 cannot be sold or dropped"),
	REF("have_tag", 74, RF_TAG), REF("in_inventory_tag", 75, RF_TAG), REF("is_equipped_tag", 76, RF_TAG),
	REF("is_actively_equipped_tag", 77, RF_TAG), INT("handle1_x", 78), INT("handle1_y", 79),
	INT("handle0_x", 80), INT("handle0_y", 81),
	F32S("elemental%u", 82, 64, 0, "elementalN: damage taken from element N when equipped (1: normal)"),
	INT("stack_size", 210),
	INTSB("equippable_by_bits%u", 211, 28, 4, NULL),
	INTN("equip_bits", 239, "equip_bits: bits 0-4 equippable in slot 0-4"),
};

static const struct gfs_field rk_menus[] = {
	HIDE(0, 11, "name"),
	INT("box_style", 11), INT("text_color", 12), INT("max_rows", 13), INT("bits", 14),
	INT("offset_x", 15), INT("offset_y", 16), INTN("anchor_horiz", 17, "anchor_*, text_align: -1, 0, 1"),
	INT("anchor_vert", 18), INT("text_align", 19), INT("min_chars", 20), INT("max_chars", 21),
	INT("border_size", 22), REF("on_close", 23, RF_SCRIPT), INT("esc_menu", 24), INT("item_spacing", 26),
	INT("disabled_text_color", 27),
};

static const struct gfs_field rk_menuitem[] = {
	INTN("menu", 0, "menu: the menu +1 (0: unused)"), HIDE(1, 20, "caption"),
	INT("position", 21), INT("type", 22), INT("subtype", 23), REF("tag1", 24, RF_TAG), REF("tag2", 25, RF_TAG),
	REF("set_tag", 26, RF_TAG), REF("toggle_tag", 27, RF_TAG), INT("bits", 28), INT("extra0", 29), INT("extra1", 30),
	INT("extra2", 31), INT("color", 32), INT("disabled_color", 33),
};

/* DT0, as load_hero_from_old_dt0 reads it; a stat: its level 0 and max level words */
#define STAT(s, w) INT(s "_level0", w), INT(s "_level_max", (w) + 1)
static const struct gfs_field rk_dt0[] = {
	HIDE(0, 17, "name"),
	INT("battle_sprite", 17), INT("battle_palette", 18), INT("walkabout", 19), INT("walkabout_palette", 20),
	INT("default_level", 21), REF("default_weapon", 22, RF_ITEM),
	STAT("hp", 23), STAT("mp", 25), STAT("strength", 27), STAT("accuracy", 29),
	STAT("defense", 31), STAT("dodge", 33), STAT("magic", 35), STAT("will", 37),
	STAT("speed", 39), STAT("counter", 41), STAT("focus", 43), STAT("extra_hits", 45),
	REFS("spell%u_attack", 47, 96, 2, 0, RF_ATTACK1, "spellN: spell list N/24, slot N%24; attack +1 (0: none)"),
	INTS("spell%u_learned", 48, 96, 2, NULL),
	INT("portrait", 239), INTS("bits%u", 240, 3, 1, NULL),
	HIDE(243, 44, "spell list names"),
	INT("portrait_palette", 287),
	INTS("spell_list%u_type", 288, 4, 1, NULL),
	REF("have_tag", 292, RF_TAG), REF("alive_tag", 293, RF_TAG), REF("leader_tag", 294, RF_TAG),
	REF("active_tag", 295, RF_TAG), INT("max_name_length", 296),
	INTS("hand%u_x", 297, 2, 2, NULL), INTS("hand%u_y", 298, 2, 2, NULL),
	F32S("elemental%u", 301, 64, 0, "elementalN: damage taken from element N (1: normal)"),
};

/* DT1, as convertenemydata reads it (words 27-52 the engine does not read) */
static const struct gfs_field rk_dt1[] = {
	HIDE(0, 17, "name"),
	INT("steal_chance", 17), REF("steal_item", 18, RF_ITEM),
	INT("steal_item_rate", 19), REF("steal_rare_item", 20, RF_ITEM), INT("steal_rare_item_rate", 21),
	INT("dissolve", 22), INT("dissolve_length", 23), REFN("death_sound", 24, RF_SFX1, "death_sound: sound effect +1 (0: default, -1: none)"),
	INT("cursor_x", 25), INT("cursor_y", 26),
	INT("picture", 53), INT("palette", 54), INT("picture_size", 55),
	INT("gold", 56), INT("experience", 57), REF("reward_item", 58, RF_ITEM), INT("reward_item_rate", 59),
	REF("reward_rare_item", 60, RF_ITEM), INT("reward_rare_item_rate", 61),
	STATS("", "", 62),
	INTS("bits%u", 74, 5, 1, NULL),
	REFN("spawn_on_death", 79, RF_ENEMY1, "spawn_*, transmog: enemy +1; *attack*, counter_*: attack +1 (0: none)"),
	REF("spawn_non_elemental_death", 80, RF_ENEMY1), REF("spawn_when_alone", 81, RF_ENEMY1),
	REF("spawn_non_elemental_hit", 82, RF_ENEMY1),
	REFS("spawn_element%u_hit", 83, 8, 1, 0, RF_ENEMY1, NULL),
	INT("spawn_how_many", 91),
	REFS("regular_attack%u", 92, 5, 1, 0, RF_ATTACK1, NULL),
	REFS("desperation_attack%u", 97, 5, 1, 0, RF_ATTACK1, NULL),
	REFS("alone_attack%u", 102, 5, 1, 0, RF_ATTACK1, NULL),
	REFS("counter_element%u", 107, 8, 1, 0, RF_ATTACK1, NULL),
	REFS("counter_stat%u", 115, 12, 1, 0, RF_ATTACK1, NULL),
	REFS("counter_element%u", 127, 56, 1, 8, RF_ATTACK1, NULL),
	REFS("spawn_element%u_hit", 183, 56, 1, 8, RF_ENEMY1, NULL),
	F32S("elemental%u", 239, 64, 0, "elementalN: damage taken from element N (1: normal)"),
	REF("bequest_attack", 367, RF_ATTACK1), REF("non_elemental_counter", 368, RF_ATTACK1),
	INT("dissolve_in", 369), INT("dissolve_in_length", 370), INT("spawn_all_elements_on_hit", 371),
};

static const struct gfs_field rk_uicolors[] = {
	INTN("background", 0, "colours: master palette indices"), INT("menu_item", 1), INT("disabled_item", 2),
	INT("selected_item", 3), INT("selected_item2", 4), INT("selected_disabled", 5),
	INT("selected_disabled2", 6), INT("highlight", 7), INT("highlight2", 8), INT("time_bar", 9),
	INT("time_bar_full", 10), INT("health_bar", 11), INT("health_bar_flash", 12), INT("text", 13),
	INT("outline", 14), INT("description", 15), INT("gold", 16), INT("shadow", 17),
	INTS("box%u_background", 18, 15, 2, NULL),
	INTS("box%u_edge", 19, 15, 2, NULL),
	INTS("box%u_border", 48, 15, 1, NULL),
};

/*
 * ATTACK.BIN word w is word w + 40 of the engine's attack buffer
 * (loading.rbas convertattackdata); A(n) is engine word n.
 */
#define A(n) ((n) - 40)
static const struct gfs_field rk_attack[] = {
	HIDE(A(40), 17, "the end of the caption"),
	INT("caption_delay", A(57)), INT("base_defense_stat", A(58)),
	REFS("tag%u", A(59), 2, 3, 0, RF_TAG, NULL),
	INTS("tag%u_condition", A(60), 2, 3, NULL),
	REFS("tag%u_check", A(61), 2, 3, 0, RF_TAG, NULL),
	INTSB("bits%u", A(65), 8, 4, "bitsN: attack bits 16 x N to 16 x N + 15 (bits0-3: lumps/*.DT6)"),
	INTN("description_length", A(73), "description_length: bytes of description the engine shows "
	     "(set when description changes)"),
	TEXT("description", A(74), 38),
	REFS("item%u_id", A(93), 3, 2, 0, RF_ITEM1, "itemN_id: item +1 (0: none)"),
	INTS("item%u_count", A(94), 3, 2, NULL),
	REFN("sound_effect", A(99), RF_SFX1, "sound_effect, learn_sound_effect: sound effect +1 (0: none)"),
	INT("prefer_target_stat", A(100)),
	INT("chain_mode", A(101)), INT("chain_value1", A(102)), INT("chain_value2", A(103)), INT("chain_bits", A(104)),
	REFN("else_chain", A(105), RF_ATTACK1, "*_chain: attack +1 (0: none)"), INT("else_chain_mode", A(106)),
	INT("else_chain_rate", A(107)),
	INT("else_chain_value1", A(108)), INT("else_chain_value2", A(109)), INT("else_chain_bits", A(110)),
	REF("instead_chain", A(111), RF_ATTACK1), INT("instead_chain_mode", A(112)), INT("instead_chain_rate", A(113)),
	INT("instead_chain_value1", A(114)), INT("instead_chain_value2", A(115)), INT("instead_chain_bits", A(116)),
	REF("learn_sound_effect", A(117), RF_SFX1),
	REFN("transmog_enemy", A(118), RF_ENEMY1, "transmog_enemy, spawn_enemy, weapon_picture: +1 (0: none)"),
	INT("transmog_hp_rule", A(119)), INT("transmog_stats_rule", A(120)),
	INTS("element%u_fail_test", A(121), 64, 3, "elementN_fail_test, _value: the attack fails when the "
	     "target's damage from element N compares so with value"),
	F32R("element%u_fail_value", A(122), 64, 3, 0, NULL),
	INT("weapon_picture", A(313)), INT("weapon_palette", A(314)),
	INTS("handle%u_x", A(315), 2, 2, NULL),
	INTS("handle%u_y", A(316), 2, 2, NULL),
	INT("turn_delay", A(319)), INT("dramatic_pause", A(320)), INT("base_accuracy_stat", A(323)),
	INT("base_dodge_stat", A(324)),
	F32S("accuracy_multiplier", A(325), 1, 0, NULL), F32S("dodge_multiplier", A(327), 1, 0, NULL),
	F32S("attack_multiplier", A(329), 1, 0, NULL), F32S("defense_multiplier", A(331), 1, 0, NULL),
	F32S("aim_extra", A(333), 1, 0, NULL), F32S("absorb_rate", A(335), 1, 0, NULL),
	INT("randomization", A(337)), INT("damage_color", A(338)),
	INT("transmog_rewards_rule", A(339)), INT("counterattack_provoke", A(340)),
	INT("target_offset_x", A(344)), INT("target_offset_y", A(345)), INT("target_halign", A(346)),
	INT("target_valign", A(347)), INT("change_control", A(348)), INT("change_turncoat", A(349)),
	INT("change_defector", A(350)), INT("change_flipped", A(351)), REF("spawn_enemy", A(352), RF_ENEMY1),
	INTS("extra%u", A(353), 3, 1, NULL),
};

static const struct gfs_field rk_defpass[] = {
	INTS("tile%u", 0, 160, 1, "tileN: wall bits 1 north, 2 east, 4 south, 8 west, 16 vehicle A, "
	     "32 vehicle B, 64 harm, 128 overhead"),
	INTN("magic", 160, "magic: 4444 (0: an unused record)"),
};

/* lump, dir, BINSIZE.BIN index, size, digits; section, named words, first word, comment ("; " ... "\n") */
#define RK(lp, d, bi, rs, dg, sec, named, base, cm) { lp, d, bi, rs, dg, WORDS(sec, named, base, "; " cm "\n") }
static const struct rk_kind rk_kinds[] = {
	RK(".TAP", "tile-animations", -1, 80, 3, "tile-animation", rk_tap, 0, "the animation patterns of a tileset "
	   "(lumps/*.TAP); opN: 0 end, 1 up, 2 down, 3 right, 4 left, 5 wait, 6 if tag"),
	RK(".VEH", "vehicles", -1, 80, 3, "vehicle", rk_veh, 0, "a vehicle (lumps/*.VEH)"),
	RK(".FOR", "formations", -1, 80, 3, "formation", rk_for, 0, "a battle formation (lumps/*.FOR)"),
	RK(".EFS", "formation-sets", -1, 50, 4, "formation-set", rk_efs, 0, "a formation set (lumps/*.EFS): file N is formation set N+1"),
	RK(".SHO", "shops", -1, 40, 3, "shop", rk_sho, 0, "a shop (lumps/*.SHO); the name: names/shops.txt"),
	RK(".STF", "shop-stock", 1, 64, 4, "stock", rk_stf, 0, "a shop's stock slot (lumps/*.STF): "
	   "file N is shop N/50, slot N%50; the name (words 0-16) is kept"),
	RK(".DT0", "heroes", 10, 636, 3, "hero", rk_dt0, 0, "a hero of lumps/*.DT0, read-only where lumps/HEROES.RELD, "
	   "which the engine reads, holds it (edit reload/heroes.txt); the name: names/heroes.txt"),
	RK(".DT1", "enemies", 11, 320, 3, "enemy", rk_dt1, 0, "an enemy (lumps/*.DT1); the name: names/enemies.txt"),
	RK(".ITM", "items", 12, 200, 3, "item", rk_itm, 0, "an item (lumps/*.ITM); name and description: names/items.txt and the raw lump"),
	RK("ATTACK.BIN", "attacks", 0, 0, 3, "attack", rk_attack, 40, "attack data from word 40 on "
	   "(ATTACK.BIN; wNN: word NN of the attack); the first 40 words and the name: lumps/*.DT6"),
	RK("MENUS.BIN", "menus", 5, 0, 3, "menu", rk_menus, 0, "a menu (MENUS.BIN); the name (words 0-10) is kept"),
	RK("MENUITEM.BIN", "menu-items", 6, 0, 4, "menu-item", rk_menuitem, 0, "a menu item (MENUITEM.BIN); the caption (words 1-20) is kept"),
	RK("DEFPASS.BIN", "default-walls", -1, 322, 3, "default-walls", rk_defpass, 0, "the default walls of a tileset's 160 tiles (DEFPASS.BIN)"),
	RK("UICOLORS.BIN", "ui-colors", 7, 0, 2, "ui-colors", rk_uicolors, 0, "the interface colours of a master palette (UICOLORS.BIN)"),
};

static unsigned rk_recsize(struct gfs_archive *ar, const struct rk_kind *k)
{
	return k->binsize_idx >= 0 ? rpg_binsize(ar, (unsigned)k->binsize_idx, k->recsize) : k->recsize;
}

/* What each RF_* leads to: the names/ list (rpg_record_name) of lump, the number less off. */
static const struct rk_ref {
	const char *lump;	/* NULL: formations/NNN.ini */
	int off;
} rk_refs[] = {
	[RF_ITEM] = { ".ITM", 0 }, [RF_ITEM1] = { ".ITM", 1 }, [RF_ATTACK1] = { ".DT6", 1 },
	[RF_ENEMY1] = { ".DT1", 1 }, [RF_FORMATION1] = { NULL, 1 }, [RF_SONG1] = { "SONGDATA.BIN", 1 },
	[RF_SFX1] = { "SFXDATA.BIN", 1 }, [RF_TAG] = { ".TMN", 0 }, [RF_HERO] = { ".DT0", 0 },
	[RF_SCRIPT] = { "", 0 },
};

/*
 * The name of script id (a trigger from 16384: record id - 16384 of
 * LOOKUP1.BIN; else the PLOTSCR.LST record with that id), each record an
 * id word and an int16 length and 36 bytes: 0, or -ENOENT.
 */
static int rk_script_name(struct gfs_archive *ar, long id, struct gfs_buf *out)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *l = rpg_kind_lump(m, id >= 16384 ? "LOOKUP1.BIN" : "PLOTSCR.LST");
	uint8_t rec[40];
	int r = 0;

	if (!l || id <= 0)
		return -ENOENT;
	for (uint64_t i = id >= 16384 ? (uint64_t)id - 16384 : 0;; i++) {
		unsigned n;

		if (rpg_lump_range(ar, l, i * sizeof(rec), sizeof(rec), rec))
			return -ENOENT;
		if (id < 16384 && (int16_t)gfs_le16(rec) != id)
			continue;
		n = gfs_le16(rec + 2) > 36 ? 36 : gfs_le16(rec + 2);
		for (unsigned k = 0; k < n && !r; k++)
			r = rec[4 + k] >= 0x20 && rec[4 + k] < 0x7f && rec[4 + k] != '\\' ? gfs_buf_addc(out, (char)rec[4 + k])
											 : gfs_buf_printf(out, "\\x%02x", rec[4 + k]);
		return r;
	}
}

/*
 * A reference shows as its number, then " ; " and the name of what it leads
 * to when that has one ("default_weapon = 3 ; Sword"; a tag below 0 is the
 * tag off: "; not NAME"); the formation of a formation set as its file.
 */
int rpg_ref_fmt(void *ctx, int ref, uint64_t v, struct gfs_buf *out)
{
	struct gfs_archive *ar = ctx;
	int16_t sv = (int16_t)(uint16_t)v;
	const struct rk_ref *k = ref >= 0 && (size_t)ref < NN(rk_refs) ? &rk_refs[ref] : NULL;
	long id = ref == RF_TAG && sv < 0 ? -(long)sv : (long)sv - (k ? k->off : 0);
	struct gfs_buf nm = GFS_BUF_INIT;
	int r = gfs_buf_printf(out, "%d", sv);

	if (r || !k || id < 0)
		return r;
	if (!k->lump) {
		uint8_t w[2];
		struct rpg_lump *l = rpg_kind_lump(ar->priv, ".FOR");

		if (l && !rpg_lump_range(ar, l, (uint64_t)id * 80, sizeof(w), w))
			r = gfs_buf_printf(out, " ; formations/%03ld.ini", id);
		return r;
	}
	if (!(ref == RF_SCRIPT ? rk_script_name(ar, id, &nm) : rpg_record_name(ar, k->lump, id, &nm)) && nm.len)
		r = gfs_buf_printf(out, " ; %s%.*s", ref == RF_TAG && sv < 0 ? "not " : "", (int)nm.len,
				   (const char *)nm.data);
	gfs_buf_release(&nm);
	return r;
}

/* The number before any ';' (the name after it is only shown). */
static int rk_ref_parse(void *ctx, int ref, const char *text, uint64_t *v)
{
	char buf[32];
	size_t n = strcspn(text, ";");
	int64_t x;

	(void)ctx;
	(void)ref;
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
		n--;
	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, n);
	buf[n] = '\0';
	if (gfs_parse_int(buf, INT16_MIN, INT16_MAX, &x))
		return -EINVAL;
	*v = (uint16_t)(int16_t)x;
	return 0;
}

static int rk_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	const struct rk_kind *k = v->desc;
	struct gfs_layout_table t;
	struct gfs_rec_refs refs = { rpg_ref_fmt, rk_ref_parse, RK_WANT, ar };
	int r;

	if (v->fresh && gfs_node_is_open(n))
		return 0;	/* created: empty until written (or closed unwritten) */
	v->fresh = 0;
	r = gfs_layout_table(&k->layout, rk_recsize(ar, k), &t);
	if (!r)
		r = rpg_record_render_refs(ar, v->l, v->rec, &t.rec, &refs, out);
	gfs_layout_table_release(&t);
	return r;
}

/*
 * Words that name a sprite set: a changed value must be one the game has
 * (an untouched one is kept, whatever it is).
 */
static const struct rk_sprite_ref {
	const char *lump;	/* as rk_kind's */
	unsigned word;
	const char *key;
	char kind;		/* rpg_sprite_sets()'s */
	const char *sets;	/* the sets' view, for messages */
} rk_sprite_refs[] = {
	{ ".DT0", 17, "battle_sprite", '0', "sprites/heroes" },
	{ ".DT0", 19, "walkabout", '4', "sprites/walkabouts" },
};

/* The line of text whose key is key, or 0. */
static unsigned rk_line_of(const uint8_t *data, size_t len, const char *key)
{
	size_t kl = strlen(key);
	unsigned line = 1;

	for (size_t i = 0; i < len; i++) {
		if ((i == 0 || data[i - 1] == '\n') && len - i > kl && !memcmp(data + i, key, kl) &&
		    (data[i + kl] == ' ' || data[i + kl] == '='))
			return line;
		line += data[i] == '\n';
	}
	return 0;
}

/* What rk_check_refs() needs to know of a store. */
struct rk_store_ctx {
	struct gfs_archive *ar;
	const struct rk_kind *k;
	const char *view;
	const uint8_t *data;	/* the view's text, for line numbers */
	size_t len, rs;
};

static int rk_check_refs(void *ctx, const uint8_t *old, uint8_t *rec)
{
	const struct rk_store_ctx *c = ctx;

	for (size_t i = 0; i < NN(rk_sprite_refs); i++) {
		const struct rk_sprite_ref *f = &rk_sprite_refs[i];
		int16_t v;
		long sets;

		if (strcmp(f->lump, c->k->lump) || 2 * f->word + 2 > c->rs ||
		    !memcmp(old + 2 * f->word, rec + 2 * f->word, 2))
			continue;
		v = (int16_t)gfs_le16(rec + 2 * f->word);
		if ((sets = rpg_sprite_sets(c->ar, f->kind)) >= 0 && (v < 0 || v >= sets))
			return gfs_err(c->ar, -EINVAL, "%s: line %u: %s = %d: the game has %ld sets of %s (0 to %ld)",
				       c->view, rk_line_of(c->data, c->len, f->key), f->key, v, sets, f->sets, sets - 1);
	}
	return 0;
}

static int rk_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	const struct rk_kind *k = v->desc;
	struct gfs_layout_table t;
	char view[96];
	struct rk_store_ctx c = { ar, k, view, data, len, rk_recsize(ar, k) };
	struct gfs_rec_refs refs = { rpg_ref_fmt, rk_ref_parse, RK_WANT, ar };
	int r = gfs_layout_table(&k->layout, c.rs, &t);

	v->fresh = 0;
	snprintf(view, sizeof(view), "%s/%s", k->dir, n->name);
	if (!r)
		r = rpg_record_store_refs(ar, v->l, v->rec, view, &t.rec, &refs, data, len, rk_check_refs, &c);
	gfs_layout_table_release(&t);
	return r;
}

RPG_VIEW_OPS(rk);

static const struct rk_kind *rk_kind_of(struct rpg_model *m, const struct rpg_lump *l)
{
	for (size_t i = 0; i < NN(rk_kinds); i++)
		if (rpg_lump_is(m, l, rk_kinds[i].lump))
			return &rk_kinds[i];
	return NULL;
}

int rpg_records_kind(struct gfs_archive *ar, struct rpg_lump *l)
{
	const struct rk_kind *k = rk_kind_of(ar->priv, l);
	unsigned rs = k ? rk_recsize(ar, k) : 0;

	return rs >= 2 && l->len >= rs;
}

int rpg_records_add(struct gfs_archive *ar, struct rpg_lump *l, size_t rec)
{
	const struct rk_kind *k = rk_kind_of(ar->priv, l);
	struct gfs_node *dir;
	char nm[32];

	if (!k)
		return 0;
	if (!(dir = rpg_subdir(ar, k->dir)))
		return -ENOMEM;
	snprintf(nm, sizeof(nm), "%0*zu.ini", (int)k->digits, rec);
	return rpg_add_view(ar, l, dir, nm, &rk_ops, rec, k);
}

int rpg_records_build(struct gfs_archive *ar)
{
	struct rpg_model *m = ar->priv;
	int r = 0;

	for (size_t i = 0; i < m->n && !r; i++) {
		struct rpg_lump *l = m->lumps[i];
		unsigned rs = rpg_records_kind(ar, l) ? rk_recsize(ar, rk_kind_of(m, l)) : 0;

		for (size_t rec = 0; rs && !r && (rec + 1) * rs <= l->len; rec++)
			r = rpg_records_add(ar, l, rec);
	}
	return r;
}

/* Add "dir/NNN key" to who (the first RK_WHO_MAX of them; the count says the rest). */
#define RK_WHO_MAX 6
static int rk_who(struct gfs_buf *who, size_t *n, const char *what)
{
	int r = 0;

	if (*n < RK_WHO_MAX)
		r = gfs_buf_printf(who, "%s%s", *n ? ", " : "", what);
	(*n)++;
	return r;
}

/* Stock slot rec of STF: one its shop stocks (slot up to the shop's last_stock_slot)? */
static int rk_slot_used(struct gfs_archive *ar, size_t rec)
{
	struct rpg_lump *sho = rpg_kind_lump(ar->priv, ".SHO");
	uint8_t w[2];

	if (!sho || rpg_lump_range(ar, sho, (uint64_t)(rec / 50) * 40 + 32, sizeof(w), w))
		return 0;
	return (long)(rec % 50) <= (int16_t)gfs_le16(w);
}

/* The special references: a stock slot's item or hero (type, id), an item's text box (-N). */
static int rk_refs_special(struct gfs_archive *ar, const struct rk_kind *k, const char *target, long id,
			   size_t rec, const uint8_t *p, unsigned rs, struct gfs_buf *who, size_t *n)
{
	char what[96];

	if (!strcmp(k->lump, ".STF") && rs >= 38 && (!strcmp(target, ".ITM") || !strcmp(target, ".DT0")) &&
	    gfs_le16(p + 34) == (strcmp(target, ".ITM") ? 1 : 0) && (int16_t)gfs_le16(p + 36) == id &&
	    rk_slot_used(ar, rec)) {
		snprintf(what, sizeof(what), "%s/%04zu.ini (shop %zu stock %zu) id", k->dir, rec, rec / 50, rec % 50);
		return rk_who(who, n, what);
	}
	if (!strcmp(k->lump, ".ITM") && !strcmp(target, ".SAY") && rs >= 104 && id > 0 &&
	    (int16_t)gfs_le16(p + 102) == -id) {
		snprintf(what, sizeof(what), "%s/%03zu out_of_battle_use", k->dir, rec);
		return rk_who(who, n, what);
	}
	return 0;
}

size_t rpg_records_refs(struct gfs_archive *ar, const char *target, long id, struct gfs_buf *who)
{
	struct rpg_model *m = ar->priv;
	size_t n = 0;

	for (size_t i = 0; i < m->n; i++) {
		struct rpg_lump *l = m->lumps[i];
		const struct rk_kind *k = rk_kind_of(m, l);
		unsigned rs = k ? rk_recsize(ar, k) : 0;
		struct gfs_layout lo = k ? k->layout : (struct gfs_layout){ 0 };
		struct gfs_layout_table t;	/* every field where it is, its key's %u filled in */
		struct gfs_buf b = GFS_BUF_INIT;

		lo.flags |= GFS_LAYOUT_INORDER;
		if (!k || rs < 2 || gfs_layout_table(&lo, rs, &t))
			continue;
		if (rpg_lump_read(ar, l, &b))
			b.len = 0;
		for (size_t rec = 0; (rec + 1) * rs <= b.len; rec++) {
			const uint8_t *p = b.data + rec * rs;

			if ((!strcmp(k->lump, target) || (!strcmp(target, ".DT6") && !strcmp(k->dir, "attacks"))) &&
			    (long)rec == id)
				continue;	/* the record itself */
			rk_refs_special(ar, k, target, id, rec, p, rs, who, &n);
			for (size_t f = 0; f < t.rec.nfields; f++) {
				const struct gfs_field *fd = &t.rec.fields[f];
				const struct rk_ref *to = fd->kind == GFS_FK_REF ? &rk_refs[fd->ref] : NULL;
				char what[128];

				if (!to || fd->ref == RF_TAG || fd->ref == RF_SCRIPT ||
				    strcmp(to->lump ? to->lump : ".FOR", target) ||
				    (long)(int16_t)gfs_le16(p + fd->off) - to->off != id)
					continue;
				snprintf(what, sizeof(what), "%s/%0*zu %s", k->dir, (int)k->digits, rec, fd->key);
				rk_who(who, &n, what);
			}
		}
		gfs_layout_table_release(&t);
		gfs_buf_release(&b);
	}
	return n;
}
