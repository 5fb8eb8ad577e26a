/*
 * tsv_views.c - the views of a TirNanoG save: header.ini, preview.png and
 * preview.ini (outside the payload), and the text views of its chunks:
 *
 *   GLBL, QSTS  globals.txt, quests.txt: one signed 32-bit value per line
 *   DENY        deny.txt: one IPv4 or IPv6 address per line; a record that
 *               is not a plain address is shown as "raw FAMILY HEX32"
 *   USER, NPC   user.ini, NNNN.ini: every field and the entity block
 *   MAP         maps/<id>.csv: the decoded RLE layer, -1 for 0xffff
 *   other       chunks/<NN>-<MAGIC>.bin: the body, verbatim
 *
 * Every view renders from the chunk's current body and store() parses the
 * view into a new body, so a chunk nobody edited keeps its exact bytes.
 * A known chunk that does not decode exactly (counts overrunning the body,
 * bytes left over, a broken RLE packet) is shown raw instead.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include "gfs_codec.h"
#include "gfs_grid.h"
#include "tngsave.h"

/* ---- line splitting over a NUL-terminated copy of a view ----------------- */

static char *tsv_dup_text(const uint8_t *data, size_t len)
{
	char *s = malloc(len + 1);

	if (s) {
		if (len)
			memcpy(s, data, len);
		s[len] = 0;
	}
	return s;
}

/* Next line of *cur (NUL-free text), trimmed; NULL at the end. */
static char *tsv_next_line(char **cur, char *end)
{
	char *s = *cur, *e, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	e = nl ? nl : end;
	*cur = nl ? nl + 1 : end;
	while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*e = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* ---- globals.txt, quests.txt ---------------------------------------------- */

static int tsv_list_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_chunk *c = n->priv;
	int r = 0;

	if (!c)
		return -EIO;
	(void)ar;
	for (size_t i = 0; !r && i + 4 <= c->body.len; i += 4) {
		r = gfs_buf_printf(out, "%" PRId32 "\n", (int32_t)gfs_le32(c->body.data + i));
	}
	return r;
}

/*
 * One value per line, '#' comments and blank lines skipped: encode(line)
 * appends the record to nb or fails; the body is replaced only when every
 * line encodes.
 */
static int tsv_lines_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len,
			   int (*encode)(struct gfs_archive *ar, const char *view, unsigned lineno,
					 char *line, struct gfs_buf *nb))
{
	struct tsv_chunk *c = n->priv;
	struct gfs_buf nb = GFS_BUF_INIT;
	char view[256], *text, *cur, *line;
	unsigned lineno = 0;
	int r = 0;

	if (!c)
		return -EIO;
	gfs_skip_bom(&data, &len);
	tsv_view_name(n, view, sizeof(view));
	text = tsv_dup_text(data, len);
	if (!text)
		return -ENOMEM;
	cur = text;
	while (!r && (line = tsv_next_line(&cur, text + len))) {
		lineno++;
		if (!*line || *line == '#')
			continue;
		if (nb.len >= TSV_PAYLOAD_MAX / 2)
			r = gfs_err(ar, -EINVAL, "%s: line %u: too many values", view, lineno);
		else
			r = encode(ar, view, lineno, line, &nb);
	}
	if (!r)
		r = tsv_chunk_set_body(c, nb.data, nb.len);
	gfs_buf_release(&nb);
	free(text);
	return r;
}

static int tsv_list_encode(struct gfs_archive *ar, const char *view, unsigned lineno,
			   char *line, struct gfs_buf *nb)
{
	int64_t v;

	if (gfs_parse_int(line, INT32_MIN, UINT32_MAX, &v))
		return gfs_err(ar, -EINVAL, "%s: line %u: '%s' is not a 32-bit integer", view, lineno, line);
	return gfs_buf_add_u32le(nb, (uint32_t)v);
}

static int tsv_list_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	return tsv_lines_store(ar, n, data, len, tsv_list_encode);
}

const struct gfs_node_ops tsv_list_ops = {
	.render = tsv_list_render,
	.store = tsv_list_store,
};

/* ---- deny.txt ------------------------------------------------------------- */

static int tsv_deny_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_chunk *c = n->priv;
	char txt[INET6_ADDRSTRLEN];
	int r = 0;

	if (!c)
		return -EIO;
	(void)ar;
	for (size_t i = 0; !r && i + TSV_DENY_REC <= c->body.len; i += TSV_DENY_REC) {
		const uint8_t *p = c->body.data + i;
		int pad = 0;

		for (size_t k = 5; k < TSV_DENY_REC; k++)
			pad |= p[k];
		if (p[0] == TSV_AF_INET && !pad && inet_ntop(AF_INET, p + 1, txt, sizeof(txt)))
			r = gfs_buf_printf(out, "%s\n", txt);
		else if (p[0] == TSV_AF_INET6 && inet_ntop(AF_INET6, p + 1, txt, sizeof(txt)))
			r = gfs_buf_printf(out, "%s\n", txt);
		else {
			r = gfs_buf_printf(out, "raw %u ", p[0]);
			for (size_t k = 1; !r && k < TSV_DENY_REC; k++)
				r = gfs_buf_printf(out, "%02x", p[k]);
			if (!r)
				r = gfs_buf_addc(out, '\n');
		}
	}
	return r;
}

/* Exactly n bytes of hex digits (no separators) into out; 0 or -1. */
static int tsv_parse_hex(const char *s, uint8_t *out, size_t n)
{
	if (strlen(s) != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int hi = gfs_hex_digit(s[2 * i]), lo = gfs_hex_digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

static int tsv_deny_line(char *line, uint8_t rec[TSV_DENY_REC])
{
	memset(rec, 0, TSV_DENY_REC);
	if (!strncmp(line, "raw", 3) && (line[3] == ' ' || line[3] == '\t')) {
		char *p = line + 3, *fam = gfs_next_word(&p, " \t,"), *hex = gfs_next_word(&p, " \t,");
		int64_t f;

		if (!fam || !hex || gfs_next_word(&p, " \t,") || gfs_parse_int(fam, 0, 255, &f) ||
		    tsv_parse_hex(hex, rec + 1, TSV_DENY_REC - 1))
			return -1;
		rec[0] = (uint8_t)f;
		return 0;
	}
	if (strchr(line, ':')) {
		rec[0] = TSV_AF_INET6;
		return inet_pton(AF_INET6, line, rec + 1) == 1 ? 0 : -1;
	}
	rec[0] = TSV_AF_INET;
	return inet_pton(AF_INET, line, rec + 1) == 1 ? 0 : -1;
}

static int tsv_deny_encode(struct gfs_archive *ar, const char *view, unsigned lineno,
			   char *line, struct gfs_buf *nb)
{
	uint8_t rec[TSV_DENY_REC];

	if (tsv_deny_line(line, rec))
		return gfs_err(ar, -EINVAL, "%s: line %u: '%s' is not an IPv4 or IPv6 address "
			       "(nor 'raw FAMILY 32-HEX-DIGITS')", view, lineno, line);
	return gfs_buf_add(nb, rec, sizeof(rec));
}

static int tsv_deny_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	return tsv_lines_store(ar, n, data, len, tsv_deny_encode);
}

const struct gfs_node_ops tsv_deny_ops = {
	.render = tsv_deny_render,
	.store = tsv_deny_store,
};

/* ---- USER and NPC records --------------------------------------------------- */

static int tsv_ini_list(struct gfs_buf *out, const char *key, const uint32_t *v, size_t n, int sign)
{
	int r = gfs_buf_printf(out, "%s =", key);

	for (size_t i = 0; !r && i < n; i++)
		r = sign ? gfs_buf_printf(out, " %" PRId32, (int32_t)v[i]) : gfs_buf_printf(out, " %" PRIu32, v[i]);
	return r ? r : gfs_buf_addc(out, '\n');
}

static int tsv_ini_slots(struct gfs_buf *out, const char *key, const uint16_t *v)
{
	int r = gfs_buf_printf(out, "%s =", key);

	for (int i = 0; !r && i < TSV_USER_SLOTS; i++)
		r = gfs_buf_printf(out, " %u", v[i]);
	return r ? r : gfs_buf_addc(out, '\n');
}

static const char *const tsv_date_keys[4] = { "created", "last_login", "last_logout", "last_seen" };

static int tsv_rec_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_chunk *c = n->priv;
	struct tsv_rec e;
	const char *why;
	int r;

	if (!c)
		return -EIO;
	(void)ar;
	r = tsv_parse_rec(c, &e, &why);
	if (r) {
		/* the body was edited raw into something that no longer parses */
		tsv_rec_free(&e);
		return r == -ENOMEM ? r : -EIO;
	}
	if (e.is_user) {
		r = gfs_buf_printf(out, "[user]\nname = %s\npassword_hash = ", e.name);
		for (int i = 0; !r && i < TSV_USER_HASHLEN; i++)
			r = gfs_buf_printf(out, "%02x", e.hash[i]);
		if (!r)
			r = gfs_buf_adds(out, "\n; dates: seconds since 1970-01-01 UTC\n");
		for (int i = 0; !r && i < 4; i++) {
			time_t t = (time_t)(int64_t)e.date[i];
			struct tm tm;
			char iso[64];

			if ((int64_t)e.date[i] >= 0 && (int64_t)e.date[i] < INT64_C(253402300800) &&
			    gmtime_r(&t, &tm) && strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm))
				r = gfs_buf_printf(out, "; %s %s\n", tsv_date_keys[i], iso);
			if (!r)
				r = gfs_buf_printf(out, "%s = %" PRId64 "\n", tsv_date_keys[i], (int64_t)e.date[i]);
		}
		if (!r) {
			if (e.lang[0] > 0x20 && e.lang[0] < 0x7f && e.lang[1] > 0x20 && e.lang[1] < 0x7f &&
			    !(e.lang[0] == '0' && (e.lang[1] == 'x' || e.lang[1] == 'X')))
				r = gfs_buf_printf(out, "language = %c%c\n", e.lang[0], e.lang[1]);
			else
				r = gfs_buf_printf(out, "language = 0x%02x%02x\n", e.lang[0], e.lang[1]);
		}
		if (!r)
			r = gfs_buf_printf(out, "; flags bit 0: banned\nflags = 0x%02x\n", e.flags);
		if (!r)
			r = gfs_buf_adds(out, "; character options, 32-bit values (world.numchar of them)\n");
		if (!r)
			r = tsv_ini_list(out, "options", e.opts.v, e.opts.n, 1);
		if (!r)
			r = gfs_buf_adds(out, "; 32 object slots each\n");
		if (!r)
			r = tsv_ini_slots(out, "equipped", e.equip);
		if (!r)
			r = tsv_ini_slots(out, "belt", e.belt);
	} else {
		r = gfs_buf_printf(out, "[npc]\ntype = %" PRIu32 "\nspawner = %" PRIu32 "\n", e.type, e.spawner);
	}
	if (!r)
		r = gfs_buf_printf(out, "\n[entity]\nmap = %" PRIu32 "\ndirection = %u\nx = %" PRId32
				   "\ny = %" PRId32 "\nbehaviour = %u\ntransport = %u\naltitude = %u\n",
				   e.map, e.dir, (int32_t)e.x, (int32_t)e.y, e.behav, e.trans, e.alt);
	if (!r)
		r = tsv_ini_list(out, "attributes", e.attrs.v, e.attrs.n, 1);
	if (!r)
		r = gfs_buf_adds(out, "\n[inventory]\n; item = quantity object\n");
	for (size_t i = 0; !r && i + 1 < e.inv.n; i += 2)
		r = gfs_buf_printf(out, "item = %" PRId32 " %" PRId32 "\n", (int32_t)e.inv.v[i], (int32_t)e.inv.v[i + 1]);
	if (!r)
		r = gfs_buf_adds(out, "\n[skills]\n; skill = level object\n");
	for (size_t i = 0; !r && i + 1 < e.skills.n; i += 2)
		r = gfs_buf_printf(out, "skill = %" PRId32 " %" PRId32 "\n", (int32_t)e.skills.v[i],
				   (int32_t)e.skills.v[i + 1]);
	if (!r)
		r = gfs_buf_adds(out, "\n[quests]\n; quest = id completed|open\n");
	for (size_t i = 0; !r && i < e.quests.n; i++)
		r = gfs_buf_printf(out, "quest = %" PRIu32 " %s\n", e.quests.v[i] & 0x7fffffffu,
				   e.quests.v[i] & 0x80000000u ? "completed" : "open");
	tsv_rec_free(&e);
	return r;
}

/* INI keys of a record view: section, key, kind, index into the seen map */
enum tsv_kk { K_NAME, K_HASH, K_DATE, K_LANG, K_U8, K_U32, K_MAP, K_S32, K_OPTS, K_SLOTS,
	      K_ATTRS, K_ITEM, K_SKILL, K_QUEST };

struct tsv_key {
	const char *section, *key;
	enum tsv_kk kind;
	int user;		/* 1 USER only, 0 NPC only, -1 both */
	size_t off;		/* offsetof the field in struct tsv_rec */
};

#define RO(f) offsetof(struct tsv_rec, f)
static const struct tsv_key tsv_keys[] = {
	{ "user", "name", K_NAME, 1, 0 },
	{ "user", "password_hash", K_HASH, 1, 0 },
	{ "user", "created", K_DATE, 1, RO(date[0]) },
	{ "user", "last_login", K_DATE, 1, RO(date[1]) },
	{ "user", "last_logout", K_DATE, 1, RO(date[2]) },
	{ "user", "last_seen", K_DATE, 1, RO(date[3]) },
	{ "user", "language", K_LANG, 1, 0 },
	{ "user", "flags", K_U8, 1, RO(flags) },
	{ "user", "options", K_OPTS, 1, 0 },
	{ "user", "equipped", K_SLOTS, 1, RO(equip) },
	{ "user", "belt", K_SLOTS, 1, RO(belt) },
	{ "npc", "type", K_U32, 0, RO(type) },
	{ "npc", "spawner", K_U32, 0, RO(spawner) },
	{ "entity", "map", K_MAP, -1, RO(map) },
	{ "entity", "direction", K_U8, -1, RO(dir) },
	{ "entity", "x", K_S32, -1, RO(x) },
	{ "entity", "y", K_S32, -1, RO(y) },
	{ "entity", "behaviour", K_U8, -1, RO(behav) },
	{ "entity", "transport", K_U8, -1, RO(trans) },
	{ "entity", "altitude", K_U8, -1, RO(alt) },
	{ "entity", "attributes", K_ATTRS, -1, 0 },
	{ "inventory", "item", K_ITEM, -1, 0 },
	{ "skills", "skill", K_SKILL, -1, 0 },
	{ "quests", "quest", K_QUEST, -1, 0 },
};
#undef RO
#define TSV_NKEYS (sizeof(tsv_keys) / sizeof(tsv_keys[0]))

struct tsv_rec_ctx {
	struct gfs_archive *ar;
	const char *view;
	struct tsv_rec *e;
	unsigned seen[TSV_NKEYS];
};

/* Parse a list of count..max numbers in [min, max] into out. */
static int tsv_num_list(const char *value, int64_t min, int64_t max, size_t maxn,
			struct tsv_vec *out, const char **bad)
{
	char *copy = strdup(value), *p = copy, *tok;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	while (!r && (tok = gfs_next_word(&p, " \t,"))) {
		int64_t v;

		if (gfs_parse_int(tok, min, max, &v)) {
			*bad = "value out of range or not a number";
			r = -EINVAL;
		} else if (out->n >= maxn) {
			*bad = "too many values";
			r = -EINVAL;
		} else {
			r = tsv_vec_push(out, (uint32_t)v);
		}
	}
	free(copy);
	return r;
}

static int tsv_rec_kv(void *ctx, const char *section, const char *key, const char *value, unsigned line)
{
	struct tsv_rec_ctx *x = ctx;
	struct tsv_rec *e = x->e;
	const struct tsv_key *k = NULL;
	const char *bad = NULL;
	struct tsv_vec tmp = { 0 };
	uint8_t *field;
	int64_t v;
	size_t i;
	int r = 0;

	for (i = 0; i < TSV_NKEYS; i++)
		if (!strcmp(tsv_keys[i].section, section) && !strcmp(tsv_keys[i].key, key) &&
		    (tsv_keys[i].user < 0 || tsv_keys[i].user == e->is_user)) {
			k = &tsv_keys[i];
			break;
		}
	if (!k)
		return gfs_err(x->ar, -EINVAL, "%s: line %u: unknown key '%s' in [%s]", x->view, line, key, section);
	if (k->kind < K_ITEM && x->seen[i])
		return gfs_err(x->ar, -EINVAL, "%s: line %u: '%s' given twice", x->view, line, key);
	x->seen[i]++;
	field = (uint8_t *)e + k->off;
	switch (k->kind) {
	case K_NAME:
		if (!*value || strlen(value) > TSV_USER_NAME_MAX || !tsv_name_ok(value, strlen(value)))
			bad = "want 1 to 255 bytes of printable UTF-8";
		else if (!(e->name = strdup(value)))
			return -ENOMEM;
		break;
	case K_HASH:
		if (tsv_parse_hex(value, e->hash, TSV_USER_HASHLEN))
			bad = "want 64 hex digits";
		break;
	case K_DATE:
		if (gfs_parse_int(value, INT64_MIN, INT64_MAX, &v))
			bad = "want a signed 64-bit number of seconds";
		else
			*(uint64_t *)(void *)field = (uint64_t)v;
		break;
	case K_LANG:
		if (strlen(value) == 2 && (uint8_t)value[0] > 0x20 && (uint8_t)value[0] < 0x7f &&
		    (uint8_t)value[1] > 0x20 && (uint8_t)value[1] < 0x7f) {
			e->lang[0] = (uint8_t)value[0];
			e->lang[1] = (uint8_t)value[1];
		} else if (strlen(value) == 6 && value[0] == '0' && (value[1] == 'x' || value[1] == 'X') &&
			   !tsv_parse_hex(value + 2, e->lang, 2)) {
			;
		} else {
			bad = "want a two-letter code or 0xHHHH";
		}
		break;
	case K_U8:
		if (gfs_parse_int(value, 0, 255, &v))
			bad = "want 0 to 255";
		else
			*field = (uint8_t)v;
		break;
	case K_U32:
		if (gfs_parse_int(value, INT32_MIN, UINT32_MAX, &v))
			bad = "want a 32-bit number";
		else
			*(uint32_t *)(void *)field = (uint32_t)v;
		break;
	case K_S32:
		if (gfs_parse_int(value, INT32_MIN, UINT32_MAX, &v))
			bad = "want a 32-bit number";
		else
			*(uint32_t *)(void *)field = (uint32_t)v;
		break;
	case K_MAP:
		if (gfs_parse_int(value, 0, TSV_ENT_MAP_MAX, &v))
			bad = "want 0 to 16777215";
		else
			e->map = (uint32_t)v;
		break;
	case K_OPTS:
		r = tsv_num_list(value, INT32_MIN, UINT32_MAX, 255, &e->opts, &bad);
		break;
	case K_ATTRS:
		r = tsv_num_list(value, INT32_MIN, UINT32_MAX, 255, &e->attrs, &bad);
		break;
	case K_SLOTS:
		r = tsv_num_list(value, -1, 65535, TSV_USER_SLOTS, &tmp, &bad);
		if (!r && !bad && tmp.n != TSV_USER_SLOTS)
			bad = "want 32 values";
		for (size_t j = 0; !r && !bad && j < TSV_USER_SLOTS; j++)
			((uint16_t *)(void *)field)[j] = (uint16_t)tmp.v[j];
		break;
	case K_ITEM:
	case K_SKILL:
		r = tsv_num_list(value, INT32_MIN, UINT32_MAX, 2, &tmp, &bad);
		if (!r && !bad && tmp.n != 2)
			bad = k->kind == K_ITEM ? "want: quantity object" : "want: level object";
		if (!r && !bad) {
			struct tsv_vec *dst = k->kind == K_ITEM ? &e->inv : &e->skills;

			if (dst->n >= 2 * 65535)
				bad = "more than 65535 entries";
			else if (!(r = tsv_vec_push(dst, tmp.v[0])))
				r = tsv_vec_push(dst, tmp.v[1]);
		}
		break;
	case K_QUEST: {
		char *copy = strdup(value), *p = copy, *id, *state, *extra;

		if (!copy)
			return -ENOMEM;
		id = gfs_next_word(&p, " \t,");
		state = id ? gfs_next_word(&p, " \t,") : NULL;
		extra = state ? gfs_next_word(&p, " \t,") : NULL;
		if (!id || extra || gfs_parse_int(id, 0, 0x7fffffff, &v))
			bad = "want: id completed|open";
		else if (state && strcmp(state, "completed") && strcmp(state, "open") &&
			 strcmp(state, "1") && strcmp(state, "0"))
			bad = "state is 'completed' or 'open'";
		else if (e->quests.n >= 65535)
			bad = "more than 65535 quests";
		else
			r = tsv_vec_push(&e->quests, (uint32_t)v |
					 (state && (!strcmp(state, "completed") || !strcmp(state, "1")) ? 0x80000000u : 0));
		free(copy);
		break;
	}
	}
	tsv_vec_free(&tmp);
	if (r == -EINVAL || (!r && bad))
		return gfs_err(x->ar, -EINVAL, "%s: line %u: %s: %s", x->view, line, key, bad ? bad : "bad value");
	return r;
}

static int tsv_rec_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_chunk *c = n->priv;
	struct tsv_rec e;
	struct tsv_rec_ctx x;
	struct gfs_buf nb = GFS_BUF_INIT;
	char view[256];
	int r;

	if (!c)
		return -EIO;
	memset(&e, 0, sizeof(e));
	memset(&x, 0, sizeof(x));
	e.is_user = !memcmp(c->magic, "USER", 4);
	x.ar = ar;
	x.e = &e;
	x.view = tsv_view_name(n, view, sizeof(view));
	r = gfs_ini_parse(ar, x.view, data, len, tsv_rec_kv, &x);
	for (size_t i = 0; !r && i < TSV_NKEYS; i++)
		if (tsv_keys[i].kind < K_ITEM && !x.seen[i] &&
		    (tsv_keys[i].user < 0 || tsv_keys[i].user == e.is_user))
			r = gfs_err(ar, -EINVAL, "%s: [%s] %s missing", x.view, tsv_keys[i].section, tsv_keys[i].key);
	if (!r)
		r = tsv_encode_rec(&e, &nb);
	if (!r && e.is_user) {
		char *old = tsv_user_name(c);

		if (!old)
			r = -ENOMEM;
		else if (strcmp(old, e.name))
			c->renamed = 1;
		free(old);
	}
	if (!r)
		r = tsv_chunk_set_body(c, nb.data, nb.len);
	gfs_buf_release(&nb);
	tsv_rec_free(&e);
	return r;
}

const struct gfs_node_ops tsv_user_ops = {
	.render = tsv_rec_render,
	.store = tsv_rec_store,
};

const struct gfs_node_ops tsv_npc_ops = {
	.render = tsv_rec_render,
	.store = tsv_rec_store,
};

/* ---- maps/<id>.csv ---------------------------------------------------------- */

static size_t tsv_isqrt(size_t n)
{
	size_t s = 0;

	while ((s + 1) * (s + 1) <= n)
		s++;
	return s;
}

static int tsv_map_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_chunk *c = n->priv;
	uint16_t *v;
	size_t count, side, cols;
	int r;

	if (!c)
		return -EIO;
	(void)ar;
	if (c->body.len < TSV_MAP_RLE)
		return -EIO;
	r = tsv_rle_decode(c->body.data + TSV_MAP_RLE, c->body.len - TSV_MAP_RLE, &v, &count);
	if (r)
		return r == -ENOMEM ? r : -EIO;
	side = tsv_isqrt(count);
	cols = count && side * side == count ? side : 1;
	r = cols == 1 ? gfs_buf_adds(out, "value\n") : gfs_grid_xheader(out, cols);
	if (!r)
		r = gfs_grid_render_u16(out, v, count, cols);
	free(v);
	return r;
}

static int tsv_map_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_chunk *c = n->priv;
	struct gfs_buf nb = GFS_BUF_INIT;
	struct gfs_grid g;
	uint16_t *old = NULL, *nv = NULL;
	size_t count = 0, side, cols;
	char view[256];
	int r;

	if (!c)
		return -EIO;
	tsv_view_name(n, view, sizeof(view));
	if (c->body.len < TSV_MAP_RLE)
		return -EIO;
	r = tsv_rle_decode(c->body.data + TSV_MAP_RLE, c->body.len - TSV_MAP_RLE, &old, &count);
	if (r)
		return r == -ENOMEM ? r : -EIO;
	side = tsv_isqrt(count);
	cols = count && side * side == count ? side : 1;
	nv = malloc((count ? count : 1) * sizeof(*nv));
	if (!nv) {
		free(old);
		return -ENOMEM;
	}
	r = gfs_grid_parse(ar, view, data, len, cols, NULL, &g);
	if (!r)
		r = gfs_grid_u16(ar, &g, cols, count / cols, 65535, nv);
	gfs_grid_release(&g);
	if (r || !count || !memcmp(nv, old, count * sizeof(*nv)))
		goto out;
	r = gfs_buf_add(&nb, c->body.data, TSV_MAP_RLE);
	if (!r)
		r = gfs_rle16_encode(nv, count, &nb);
	if (!r)
		r = tsv_chunk_set_body(c, nb.data, nb.len);
out:
	gfs_buf_release(&nb);
	free(nv);
	free(old);
	return r;
}

const struct gfs_node_ops tsv_map_ops = {
	.render = tsv_map_render,
	.store = tsv_map_store,
};

/* ---- raw chunks ------------------------------------------------------------- */

static int tsv_raw_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_chunk *c = n->priv;

	if (!c)
		return -EIO;
	(void)ar;
	return gfs_buf_add(out, c->body.data, c->body.len);
}

static int tsv_raw_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_chunk *c = n->priv;
	char view[256];

	if (!c)
		return -EIO;
	if (len > TSV_PAYLOAD_MAX - TSV_CHUNK_HDR)
		return gfs_err(ar, -EINVAL, "%s: %zu bytes, over the %u MiB payload limit",
			       tsv_view_name(n, view, sizeof(view)), len, TSV_PAYLOAD_MAX >> 20);
	return tsv_chunk_set_body(c, data, len);
}

const struct gfs_node_ops tsv_raw_ops = {
	.render = tsv_raw_render,
	.store = tsv_raw_store,
};


/* ---- header.ini, preview.png, preview.ini (outside the payload) ----------- */

/* Parse an INI view; view[] gets its path for messages. */
static int tsv_ini_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len,
			 int (*kv)(void *ctx, const char *section, const char *key, const char *value,
				   unsigned line),
			 void *ctx, char *view, size_t vlen)
{
	tsv_view_name(n, view, vlen);
	return gfs_ini_parse(ar, view, data, len, kv, ctx);
}

const char *tsv_view_name(struct gfs_node *n, char *buf, size_t len)
{
	struct gfs_buf b = GFS_BUF_INIT;

	if (gfs_node_path(n, &b) == 0 && b.len)
		snprintf(buf, len, "%s", (const char *)b.data);
	else
		snprintf(buf, len, "%s", n->name ? n->name : "?");
	gfs_buf_release(&b);
	return buf;
}

/* ---- header.ini ---------------------------------------------------------- */

/* The game id reads as text when it is printable UTF-8 up to its first NUL. */
static int tsv_gameid_is_text(const uint8_t *id)
{
	size_t n = strnlen((const char *)id, TSV_GAMEID_LEN);

	for (size_t i = 0; i < n; i++)
		if (id[i] < 0x20 || id[i] == 0x7f)
			return 0;
	if (n && (id[0] == ' ' || id[n - 1] == ' '))
		return 0;
	if (n >= 2 && id[0] == '0' && (id[1] == 'x' || id[1] == 'X'))
		return 0;
	return gfs_utf8_valid(id, n);
}

static int tsv_header_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_save *sv = ar->priv;
	int r;

	(void)n;
	r = gfs_buf_adds(out, "; TirNanoG saved game\n[header]\n");
	if (!r && tsv_gameid_is_text(sv->gameid))
		r = gfs_buf_printf(out, "game_id = %.*s\n", (int)strnlen((const char *)sv->gameid,
			TSV_GAMEID_LEN), (const char *)sv->gameid);
	else if (!r) {
		r = gfs_buf_adds(out, "game_id = 0x");
		for (size_t i = 0; !r && i < TSV_GAMEID_LEN; i++)
			r = gfs_buf_printf(out, "%02x", sv->gameid[i]);
		if (!r)
			r = gfs_buf_addc(out, '\n');
	}
	if (!r && tsv_gameid_is_text(sv->gameid)) {
		size_t idlen = strnlen((const char *)sv->gameid, TSV_GAMEID_LEN), nz = 0;

		for (size_t i = idlen; i < TSV_GAMEID_LEN; i++)
			nz |= sv->gameid[i];
		if (nz) {
			r = gfs_buf_adds(out, "; bytes after the id (kept unless the id changes):");
			for (size_t i = idlen; !r && i < TSV_GAMEID_LEN; i++)
				r = gfs_buf_printf(out, " %02x", sv->gameid[i]);
			if (!r)
				r = gfs_buf_addc(out, '\n');
		}
	}
	if (!r)
		r = gfs_buf_printf(out, "; payload: %s deflate, CRC-32 over the %s payload\n",
				   sv->wrap == GFS_ZLIB ? "zlib" : "raw",
				   sv->crc_compressed ? "compressed" : "inflated");
	return r;
}

struct tsv_hdr_ctx {
	struct gfs_archive *ar;
	const char *view;
	uint8_t id[TSV_GAMEID_LEN];
	int seen;
};

static int tsv_header_kv(void *ctx, const char *section, const char *key,
			 const char *value, unsigned line)
{
	struct tsv_hdr_ctx *h = ctx;
	size_t len = strlen(value);

	if (strcmp(section, "header") || strcmp(key, "game_id"))
		return gfs_err(h->ar, -EINVAL, "%s: line %u: unknown key '%s' in [%s]",
			       h->view, line, key, section);
	if (h->seen++)
		return gfs_err(h->ar, -EINVAL, "%s: line %u: game_id given twice", h->view, line);
	memset(h->id, 0, sizeof(h->id));
	if (len == 2 + 2 * TSV_GAMEID_LEN && value[0] == '0' && (value[1] == 'x' || value[1] == 'X')) {
		for (size_t i = 0; i < TSV_GAMEID_LEN; i++) {
			int hi = gfs_hex_digit(value[2 + 2 * i]), lo = gfs_hex_digit(value[3 + 2 * i]);

			if (hi < 0 || lo < 0)
				return gfs_err(h->ar, -EINVAL, "%s: line %u: game_id: bad hex digit",
					       h->view, line);
			h->id[i] = (uint8_t)(hi << 4 | lo);
		}
		return 0;
	}
	if (len > TSV_GAMEID_LEN)
		return gfs_err(h->ar, -EINVAL, "%s: line %u: game_id is %zu bytes, at most %d",
			       h->view, line, len, TSV_GAMEID_LEN);
	for (size_t i = 0; i < len; i++)
		if ((uint8_t)value[i] < 0x20 || value[i] == 0x7f)
			return gfs_err(h->ar, -EINVAL, "%s: line %u: game_id has a control character",
				       h->view, line);
	memcpy(h->id, value, len);
	return 0;
}

static int tsv_header_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_save *sv = ar->priv;
	char view[256];
	struct tsv_hdr_ctx h = { .ar = ar, .view = view };
	int r = tsv_ini_store(ar, n, data, len, tsv_header_kv, &h, view, sizeof(view));

	if (r)
		return r;
	if (!h.seen)
		return gfs_err(ar, -EINVAL, "%s: game_id missing", h.view);
	/* an unchanged text id keeps whatever padding the file had */
	if (tsv_gameid_is_text(sv->gameid) &&
	    strnlen((const char *)sv->gameid, TSV_GAMEID_LEN) == strnlen((const char *)h.id, TSV_GAMEID_LEN) &&
	    !memcmp(sv->gameid, h.id, strnlen((const char *)h.id, TSV_GAMEID_LEN)))
		return 0;
	if (memcmp(sv->gameid, h.id, TSV_GAMEID_LEN)) {
		memcpy(sv->gameid, h.id, TSV_GAMEID_LEN);
		sv->gameid_changed = 1;
	}
	return 0;
}

const struct gfs_node_ops tsv_header_ops = {
	.render = tsv_header_render,
	.store = tsv_header_store,
};

/* ---- preview.png and preview.ini ----------------------------------------- */

static uint8_t tsv_c5to8(unsigned c)
{
	return (uint8_t)(c << 3 | c >> 2);
}

static int tsv_png_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_save *sv = ar->priv;
	uint8_t *rgba;
	int r;

	(void)n;
	if (!sv->pix)
		return -EIO;
	rgba = malloc((size_t)TSV_PREVIEW_PIXELS * 4);
	if (!rgba)
		return -ENOMEM;
	for (size_t i = 0; i < TSV_PREVIEW_PIXELS; i++) {
		unsigned p = sv->pix[i];

		rgba[4 * i] = tsv_c5to8(p >> 10 & 31);
		rgba[4 * i + 1] = tsv_c5to8(p >> 5 & 31);
		rgba[4 * i + 2] = tsv_c5to8(p & 31);
		rgba[4 * i + 3] = 255;
	}
	r = gfs_png_encode(rgba, TSV_PREVIEW_DIM, TSV_PREVIEW_DIM, out);
	free(rgba);
	return r;
}

static int tsv_png_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_save *sv = ar->priv;
	uint8_t *rgba = NULL;
	uint16_t *pix;
	uint32_t w = 0, h = 0;
	char view[256];
	int r;

	tsv_view_name(n, view, sizeof(view));
	r = gfs_png_decode(data, len, TSV_PREVIEW_DIM, TSV_PREVIEW_DIM, &rgba, &w, &h);
	if (r) {
		if (r == -EINVAL || r == -EBADMSG)
			return gfs_err(ar, -EINVAL, "%s: not a PNG of at most %dx%d pixels", view,
				       TSV_PREVIEW_DIM, TSV_PREVIEW_DIM);
		return r;
	}
	if (w != TSV_PREVIEW_DIM || h != TSV_PREVIEW_DIM) {
		free(rgba);
		return gfs_err(ar, -EINVAL, "%s: image is %ux%u, the preview must be %dx%d", view,
			       w, h, TSV_PREVIEW_DIM, TSV_PREVIEW_DIM);
	}
	pix = malloc(TSV_PREVIEW_BYTES);
	if (!pix) {
		free(rgba);
		return -ENOMEM;
	}
	for (size_t i = 0; i < TSV_PREVIEW_PIXELS; i++)
		pix[i] = (uint16_t)((sv->pix[i] & 0x8000u) | (unsigned)(rgba[4 * i] >> 3) << 10 |
				    (unsigned)(rgba[4 * i + 1] >> 3) << 5 | (unsigned)(rgba[4 * i + 2] >> 3));
	free(rgba);
	if (!memcmp(pix, sv->pix, TSV_PREVIEW_BYTES)) {
		free(pix);
		return 0;
	}
	free(sv->pix);
	sv->pix = pix;
	sv->prvw_pix_changed = 1;
	return 0;
}

const struct gfs_node_ops tsv_png_ops = {
	.render = tsv_png_render,
	.store = tsv_png_store,
};

static int tsv_pini_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_save *sv = ar->priv;
	int nz = 0, r;

	(void)n;
	for (size_t i = 0; i < TSV_PRVW_RESLEN; i++)
		nz |= sv->reserved[i];
	r = gfs_buf_printf(out, "[preview]\n; time spent playing, in seconds (%" PRIu32 ":%02" PRIu32
			   ":%02" PRIu32 ")\ntime_played = %" PRIu32 "\n; image %ux%u, 15-bit RGB555\n",
			   sv->played / 3600, sv->played / 60 % 60, sv->played % 60, sv->played,
			   sv->dim, sv->dim);
	if (!r && nz) {
		r = gfs_buf_adds(out, "; reserved bytes (kept):");
		for (size_t i = 0; !r && i < TSV_PRVW_RESLEN; i++)
			r = gfs_buf_printf(out, " %02x", sv->reserved[i]);
		if (!r)
			r = gfs_buf_addc(out, '\n');
	}
	return r;
}

struct tsv_pini_ctx {
	struct gfs_archive *ar;
	const char *view;
	int64_t played;
	int seen;
};

static int tsv_pini_kv(void *ctx, const char *section, const char *key, const char *value, unsigned line)
{
	struct tsv_pini_ctx *p = ctx;

	if (strcmp(section, "preview") || strcmp(key, "time_played"))
		return gfs_err(p->ar, -EINVAL, "%s: line %u: unknown key '%s' in [%s]",
			       p->view, line, key, section);
	if (p->seen++)
		return gfs_err(p->ar, -EINVAL, "%s: line %u: time_played given twice", p->view, line);
	if (gfs_parse_int(value, 0, UINT32_MAX, &p->played))
		return gfs_err(p->ar, -EINVAL, "%s: line %u: time_played: want 0 to 4294967295, got '%s'",
			       p->view, line, value);
	return 0;
}

static int tsv_pini_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_save *sv = ar->priv;
	char view[256];
	struct tsv_pini_ctx p = { .ar = ar, .view = view };
	int r = tsv_ini_store(ar, n, data, len, tsv_pini_kv, &p, view, sizeof(view));

	if (r)
		return r;
	if (!p.seen)
		return gfs_err(ar, -EINVAL, "%s: time_played missing", p.view);
	if ((uint32_t)p.played != sv->played) {
		sv->played = (uint32_t)p.played;
		sv->prvw_hdr_changed = 1;
	}
	return 0;
}

const struct gfs_node_ops tsv_pini_ops = {
	.render = tsv_pini_render,
	.store = tsv_pini_store,
};

/* A preview that does not decode: its body after the 8-byte header, raw. */
static int tsv_praw_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_save *sv = ar->priv;

	(void)n;
	return gfs_buf_add(out, sv->prvw_raw.data, sv->prvw_raw.len);
}

static int tsv_praw_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_save *sv = ar->priv;
	struct gfs_buf nb = GFS_BUF_INIT;
	char view[256];
	int r;

	if (len > TSV_PRVW_MAX - TSV_CHUNK_HDR)
		return gfs_err(ar, -EINVAL, "%s: %zu bytes, a preview chunk holds at most %u",
			       tsv_view_name(n, view, sizeof(view)), len, TSV_PRVW_MAX - TSV_CHUNK_HDR);
	if (len == sv->prvw_raw.len && (!len || !memcmp(data, sv->prvw_raw.data, len)))
		return 0;
	r = gfs_buf_add(&nb, data, len);
	if (r)
		return r;
	gfs_buf_release(&sv->prvw_raw);
	sv->prvw_raw = nb;
	sv->prvw_hdr_changed = 1;
	return 0;
}

const struct gfs_node_ops tsv_praw_ops = {
	.render = tsv_praw_render,
	.store = tsv_praw_store,
};
