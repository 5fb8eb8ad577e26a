/*
 * tsv_model.c - the model of a TirNanoG save: chunk bodies, the layout of
 * the USER and NPC records as tables of the record codec (gfs_record.h
 * decodes, renders and patches them), the map layers' RLE, and which view
 * each chunk gets.  The views (tsv_views.c) and the loader (tngsave.c)
 * call down into this file; it calls nothing of theirs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_codec.h"
#include "tngsave.h"

int tsv_chunk_set_body(struct tsv_chunk *c, const uint8_t *data, size_t len)
{
	struct gfs_buf nb = GFS_BUF_INIT;
	int r;

	if (len == c->body.len && (!len || !memcmp(data, c->body.data, len)))
		return 0;
	if (len > TSV_PAYLOAD_MAX - TSV_CHUNK_HDR)
		return -EFBIG;
	r = gfs_buf_add(&nb, data, len);
	if (r)
		return r;
	gfs_buf_release(&c->body);
	c->body = nb;
	c->changed = 1;
	return 0;
}


/*
 * ---- USER and NPC records: tables of the record codec (gfs_record.h) ----
 *
 * USER: password hash, four dates, language, flags, the count of options,
 * the name (NUL-terminated), the options, 32 equipped objects, 32 on the
 * belt, then the entity block.  NPC: type and spawner, then the entity
 * block: map (24 bits), direction, x, y, behaviour, transport, altitude,
 * the counts of attributes (8 bits), inventory, skills and quests (16 bits
 * each), then those lists.  A 32-bit value shows signed and takes unsigned
 * too; an object slot takes -1 for 65535; a quest without its state is
 * open.  A view gives every key (GFS_FF_NEED) but the lines of the lists.
 */
#define TSV_S32 .min = INT32_MIN, .max = UINT32_MAX

static const struct gfs_field tsv_s32_f[] = {
	{ .key = "value", .kind = GFS_FK_SINT, .width = 4, TSV_S32 },
};
static const struct gfs_field tsv_slot_f[] = {
	{ .key = "slot", .kind = GFS_FK_UINT, .width = 2, .min = -1, .max = 65535 },
};
static const struct gfs_field tsv_item_f[] = {
	{ .key = "quantity", .kind = GFS_FK_SINT, .off = 0, .width = 4, TSV_S32 },
	{ .key = "object", .kind = GFS_FK_SINT, .off = 4, .width = 4, TSV_S32 },
};
static const struct gfs_field tsv_skill_f[] = {
	{ .key = "level", .kind = GFS_FK_SINT, .off = 0, .width = 4, TSV_S32 },
	{ .key = "object", .kind = GFS_FK_SINT, .off = 4, .width = 4, TSV_S32 },
};
static const char *const tsv_quest_states[] = { "open", "completed", NULL };
static const struct gfs_field tsv_quest_f[] = {
	{ .key = "id", .kind = GFS_FK_UINT, .width = 4, .bits = 31 },
	{ .key = "state", .kind = GFS_FK_ENUM, .width = 4, .shift = 31, .bits = 1, .names = tsv_quest_states,
	  .flags = GFS_FF_OPTIONAL },
};
static const struct gfs_field tsv_ent_f[] = {
	{ .key = "map", .kind = GFS_FK_UINT, .off = 0, .width = 3, .flags = GFS_FF_NEED },
	{ .key = "direction", .kind = GFS_FK_UINT, .off = 3, .width = 1, .flags = GFS_FF_NEED },
	{ .key = "x", .kind = GFS_FK_SINT, .off = 4, .width = 4, TSV_S32, .flags = GFS_FF_NEED },
	{ .key = "y", .kind = GFS_FK_SINT, .off = 8, .width = 4, TSV_S32, .flags = GFS_FF_NEED },
	{ .key = "behaviour", .kind = GFS_FK_UINT, .off = 12, .width = 1, .flags = GFS_FF_NEED },
	{ .key = "transport", .kind = GFS_FK_UINT, .off = 13, .width = 1, .flags = GFS_FF_NEED },
	{ .key = "altitude", .kind = GFS_FK_UINT, .off = 14, .width = 1, .flags = GFS_FF_NEED },
};

#define TSV_REC(name, sz, f) \
	static const struct gfs_record name = { .size = sz, GFS_FIELDS(f) }
TSV_REC(tsv_s32, 4, tsv_s32_f);
TSV_REC(tsv_slot, 2, tsv_slot_f);
TSV_REC(tsv_item, 8, tsv_item_f);
TSV_REC(tsv_skill, 8, tsv_skill_f);
TSV_REC(tsv_quest, 4, tsv_quest_f);
TSV_REC(tsv_ent_fixed, TSV_ENT_FIXED, tsv_ent_f);

/*
 * The entity block: its fixed part (a PART) and the lists it counts (the
 * attributes on one line, a line an item, skill and quest), its PART the
 * E-th part of the record.
 */
#define TSV_OVERRUN "entity counts overrun the chunk"
#define TSV_ENTITY(E) \
	{ .key = "entity", .kind = GFS_FK_PART, .width = TSV_ENT_FIXED, .group = &tsv_ent_fixed, \
	  .section = "entity", .why = "entity block truncated" }, \
	{ .key = "attributes", .kind = GFS_FK_GROUP, .group = &tsv_s32, .count_in = E, .count_off = 15, \
	  .count_width = 1, .flags = GFS_FF_NEED | GFS_FF_LINE, .why = TSV_OVERRUN }, \
	{ .key = "item", .kind = GFS_FK_GROUP, .group = &tsv_item, .count_in = E, .count_off = 16, \
	  .count_width = 2, .flags = GFS_FF_LINES, .want = "quantity object", .section = "inventory", \
	  .note = "item = quantity object", .why = TSV_OVERRUN }, \
	{ .key = "skill", .kind = GFS_FK_GROUP, .group = &tsv_skill, .count_in = E, .count_off = 18, \
	  .count_width = 2, .flags = GFS_FF_LINES, .want = "level object", .section = "skills", \
	  .note = "skill = level object", .why = TSV_OVERRUN }, \
	{ .key = "quest", .kind = GFS_FK_GROUP, .group = &tsv_quest, .count_in = E, .count_off = 20, \
	  .count_width = 2, .flags = GFS_FF_LINES, .want = "id completed|open", .section = "quests", \
	  .note = "quest = id completed|open", .why = TSV_OVERRUN }

/* USER: the name shows first, though its bytes follow the fixed part. */
static const struct gfs_field tsv_user_f[] = {
	{ .key = "name", .kind = GFS_FK_CSTR, .max = TSV_USER_NAME_MAX, .flags = GFS_FF_NEED,
	  .want = "1 to 255 bytes of printable UTF-8", .why = "user name not terminated or not printable UTF-8" },
	{ .key = "password_hash", .kind = GFS_FK_BYTES, .off = TSV_USER_HASH, .width = TSV_USER_HASHLEN,
	  .flags = GFS_FF_NEED | GFS_FF_HEXDIGITS },
	{ .key = "created", .kind = GFS_FK_SINT, .off = TSV_USER_DATES, .width = 8,
	  .flags = GFS_FF_NEED | GFS_FF_TIME, .note = "dates: seconds since 1970-01-01 UTC" },
	{ .key = "last_login", .kind = GFS_FK_SINT, .off = TSV_USER_DATES + 8, .width = 8,
	  .flags = GFS_FF_NEED | GFS_FF_TIME },
	{ .key = "last_logout", .kind = GFS_FK_SINT, .off = TSV_USER_DATES + 16, .width = 8,
	  .flags = GFS_FF_NEED | GFS_FF_TIME },
	{ .key = "last_seen", .kind = GFS_FK_SINT, .off = TSV_USER_DATES + 24, .width = 8,
	  .flags = GFS_FF_NEED | GFS_FF_TIME },
	{ .key = "language", .kind = GFS_FK_BYTES, .off = TSV_USER_LANG, .width = 2,
	  .flags = GFS_FF_NEED | GFS_FF_CODE },
	{ .key = "flags", .kind = GFS_FK_HEX, .off = TSV_USER_FLAGS, .width = 1, .flags = GFS_FF_NEED,
	  .note = "flags bit 0: banned" },
	{ .key = "options", .kind = GFS_FK_GROUP, .group = &tsv_s32, .count_off = TSV_USER_NUMCHAR,
	  .count_width = 1, .flags = GFS_FF_NEED | GFS_FF_LINE,
	  .note = "character options, 32-bit values (world.numchar of them)",
	  .why = "character options overrun the chunk" },
	{ .key = "equipped", .kind = GFS_FK_GROUP, .group = &tsv_slot, .count_off = TSV_USER_SLOTS,
	  .flags = GFS_FF_NEED | GFS_FF_LINE, .note = "32 object slots each" },
	{ .key = "belt", .kind = GFS_FK_GROUP, .group = &tsv_slot, .count_off = TSV_USER_SLOTS,
	  .flags = GFS_FF_NEED | GFS_FF_LINE },
	TSV_ENTITY(5),
};
static const struct gfs_field tsv_npc_f[] = {
	{ .key = "type", .kind = GFS_FK_UINT, .off = 0, .width = 4, TSV_S32, .flags = GFS_FF_NEED },
	{ .key = "spawner", .kind = GFS_FK_UINT, .off = 4, .width = 4, TSV_S32, .flags = GFS_FF_NEED },
	TSV_ENTITY(1),
};

const struct gfs_record tsv_user_rec = { .section = "user", .size = TSV_USER_NAME, GFS_FIELDS(tsv_user_f) };
const struct gfs_record tsv_npc_rec = { .section = "npc", .size = TSV_NPC_ENTITY, GFS_FIELDS(tsv_npc_f) };

const struct gfs_record *tsv_layout_nth(size_t i)
{
	return i == 0 ? &tsv_user_rec : i == 1 ? &tsv_npc_rec : i == 2 ? &tsv_addr_rec : NULL;
}

char *tsv_user_name(const struct tsv_chunk *c)
{
	size_t n;

	if (c->body.len <= TSV_USER_NAME)
		return strdup("");
	n = strnlen((const char *)c->body.data + TSV_USER_NAME, c->body.len - TSV_USER_NAME);
	return strndup((const char *)c->body.data + TSV_USER_NAME, n);
}

/* The layer's values (RLE, see gfs_codec.h); *vals is malloc'd (NULL if none). */
int tsv_rle_decode(const uint8_t *p, size_t len, uint16_t **vals, size_t *count)
{
	size_t n;
	int r = gfs_rle16_decode(p, len, NULL, TSV_MAP_MAX_VALUES, &n, NULL);

	*vals = NULL;
	*count = 0;
	if (r || !n)
		return r;
	*vals = malloc(n * sizeof(**vals));
	if (!*vals)
		return -ENOMEM;
	gfs_rle16_decode(p, len, *vals, n, count, NULL);
	return 0;
}

/* ---- classification ---------------------------------------------------------- */

int tsv_chunk_classify(struct tsv_chunk *c)
{
	const char *why = NULL;
	int r = 0;

	c->kind = TSV_RAW;
	c->why_raw = NULL;
	if (!memcmp(c->magic, "GLBL", 4) || !memcmp(c->magic, "QSTS", 4)) {
		if (c->body.len % 4)
			why = "size is not a multiple of 4";
		else
			c->kind = c->magic[0] == 'G' ? TSV_GLBL : TSV_QSTS;
	} else if (!memcmp(c->magic, "DENY", 4)) {
		if (c->body.len % TSV_DENY_REC)
			why = "size is not a multiple of 17";
		else
			c->kind = TSV_DENY;
	} else if (!memcmp(c->magic, "USER", 4) || !memcmp(c->magic, "NPC\0", 4)) {
		const struct gfs_record *rec = c->magic[0] == 'U' ? &tsv_user_rec : &tsv_npc_rec;
		size_t span = gfs_record_span_why(rec, c->body.data, c->body.len, &why);

		if (span && span < c->body.len)
			why = "bytes left over after the entity block";
		else if (span)
			c->kind = c->magic[0] == 'U' ? TSV_USER : TSV_NPC;
	} else if (!memcmp(c->magic, "MAP\0", 4)) {
		uint16_t *v = NULL;
		size_t n;

		if (c->body.len < TSV_MAP_RLE) {
			why = "no map id";
		} else {
			r = tsv_rle_decode(c->body.data + TSV_MAP_RLE, c->body.len - TSV_MAP_RLE, &v, &n);
			free(v);
			if (!r)
				c->kind = TSV_MAP;
			else if (r != -ENOMEM) {
				why = r == -EFBIG ? "layer decodes to more than 4 Mi values" : "RLE packet runs past the chunk";
				r = 0;
			}
		}
	}
	c->why_raw = why;
	return r;
}
