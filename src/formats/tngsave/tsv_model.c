/*
 * tsv_model.c - the model of a TirNanoG save: chunk bodies, the USER and
 * NPC records decoded and encoded, the map layers' RLE, and which view
 * each chunk gets.  The views (tsv_views.c) and the loader (tngsave.c)
 * call down into this file; it calls nothing of theirs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_codec.h"
#include "tngsave.h"

/* ---- growable u32 arrays ----------------------------------------------- */


int tsv_vec_push(struct tsv_vec *a, uint32_t x)
{
	if (a->n == a->cap) {
		size_t nc = a->cap ? a->cap * 2 : 16;
		uint32_t *nv;

		if (nc > (TSV_PAYLOAD_MAX / sizeof(uint32_t)))
			return -EFBIG;
		nv = realloc(a->v, nc * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		a->v = nv;
		a->cap = nc;
	}
	a->v[a->n++] = x;
	return 0;
}

void tsv_vec_free(struct tsv_vec *a)
{
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

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


void tsv_rec_free(struct tsv_rec *e)
{
	free(e->name);
	e->name = NULL;
	tsv_vec_free(&e->opts);
	tsv_vec_free(&e->attrs);
	tsv_vec_free(&e->inv);
	tsv_vec_free(&e->skills);
	tsv_vec_free(&e->quests);
}

static int tsv_rd_vec(struct gfs_rd *rd, struct tsv_vec *v, size_t n)
{
	int r = 0;

	for (size_t i = 0; !r && i < n; i++) {
		uint32_t x;

		r = gfs_rd_u32le(rd, &x);
		if (!r)
			r = tsv_vec_push(v, x);
	}
	return r;
}

/* Parse the entity block; *why says what did not fit. */
static int tsv_parse_entity(struct gfs_rd *rd, struct tsv_rec *e, const char **why)
{
	uint8_t na;
	uint16_t ni, ns, nq;
	int r;

	if ((r = gfs_rd_u24le(rd, &e->map)) || (r = gfs_rd_u8(rd, &e->dir)) ||
	    (r = gfs_rd_u32le(rd, &e->x)) || (r = gfs_rd_u32le(rd, &e->y)) ||
	    (r = gfs_rd_u8(rd, &e->behav)) || (r = gfs_rd_u8(rd, &e->trans)) ||
	    (r = gfs_rd_u8(rd, &e->alt)) || (r = gfs_rd_u8(rd, &na)) ||
	    (r = gfs_rd_u16le(rd, &ni)) || (r = gfs_rd_u16le(rd, &ns)) || (r = gfs_rd_u16le(rd, &nq))) {
		*why = "entity block truncated";
		return r;
	}
	if ((uint64_t)na * 4 + (uint64_t)ni * 8 + (uint64_t)ns * 8 + (uint64_t)nq * 4 > gfs_rd_left(rd)) {
		*why = "entity counts overrun the chunk";
		return -EBADMSG;
	}
	r = tsv_rd_vec(rd, &e->attrs, na);
	if (!r)
		r = tsv_rd_vec(rd, &e->inv, (size_t)ni * 2);
	if (!r)
		r = tsv_rd_vec(rd, &e->skills, (size_t)ns * 2);
	if (!r)
		r = tsv_rd_vec(rd, &e->quests, nq);
	if (r)
		*why = "entity block truncated";
	return r;
}

int tsv_name_ok(const char *s, size_t n)
{
	if (!gfs_utf8_valid((const uint8_t *)s, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((uint8_t)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return !n || (s[0] != ' ' && s[n - 1] != ' ');
}

int tsv_parse_rec(const struct tsv_chunk *c, struct tsv_rec *e, const char **why)
{
	struct gfs_rd rd;
	int r;

	memset(e, 0, sizeof(*e));
	gfs_rd_init(&rd, c->body.data, c->body.len, 0);
	*why = "record truncated";
	if (!memcmp(c->magic, "USER", 4)) {
		const char *name;
		size_t nlen;
		uint8_t nc;

		e->is_user = 1;
		if ((r = gfs_rd_bytes(&rd, e->hash, TSV_USER_HASHLEN)))
			return r;
		for (int i = 0; i < 4; i++)
			if ((r = gfs_rd_u64le(&rd, &e->date[i])))
				return r;
		if ((r = gfs_rd_bytes(&rd, e->lang, 2)) || (r = gfs_rd_u8(&rd, &e->flags)) ||
		    (r = gfs_rd_u8(&rd, &nc)))
			return r;
		if (gfs_rd_cstr(&rd, &name, &nlen, gfs_rd_left(&rd))) {
			*why = "user name not terminated";
			return -EBADMSG;
		}
		if (!tsv_name_ok(name, nlen)) {
			*why = "user name is not printable UTF-8";
			return -EBADMSG;
		}
		e->name = strndup(name, nlen);
		if (!e->name)
			return -ENOMEM;
		if ((size_t)nc * 4 > gfs_rd_left(&rd)) {
			*why = "character options overrun the chunk";
			return -EBADMSG;
		}
		if ((r = tsv_rd_vec(&rd, &e->opts, nc)))
			return r;
		for (int i = 0; i < TSV_USER_SLOTS; i++)
			if ((r = gfs_rd_u16le(&rd, &e->equip[i])))
				return r;
		for (int i = 0; i < TSV_USER_SLOTS; i++)
			if ((r = gfs_rd_u16le(&rd, &e->belt[i])))
				return r;
	} else {
		if ((r = gfs_rd_u32le(&rd, &e->type)) || (r = gfs_rd_u32le(&rd, &e->spawner)))
			return r;
	}
	r = tsv_parse_entity(&rd, e, why);
	if (r)
		return r;
	if (gfs_rd_left(&rd)) {
		*why = "bytes left over after the entity block";
		return -EBADMSG;
	}
	return 0;
}

int tsv_encode_rec(const struct tsv_rec *e, struct gfs_buf *b)
{
	int r = 0;

	if (e->is_user) {
		r = gfs_buf_add(b, e->hash, TSV_USER_HASHLEN);
		for (int i = 0; !r && i < 4; i++)
			r = gfs_buf_add_u64le(b, e->date[i]);
		if (!r)
			r = gfs_buf_add(b, e->lang, 2);
		if (!r)
			r = gfs_buf_addc(b, e->flags);
		if (!r)
			r = gfs_buf_addc(b, (uint8_t)e->opts.n);
		if (!r)
			r = gfs_buf_add(b, e->name, strlen(e->name) + 1);
		for (size_t i = 0; !r && i < e->opts.n; i++)
			r = gfs_buf_add_u32le(b, e->opts.v[i]);
		for (int i = 0; !r && i < TSV_USER_SLOTS; i++)
			r = gfs_buf_add_u16le(b, e->equip[i]);
		for (int i = 0; !r && i < TSV_USER_SLOTS; i++)
			r = gfs_buf_add_u16le(b, e->belt[i]);
	} else {
		r = gfs_buf_add_u32le(b, e->type);
		if (!r)
			r = gfs_buf_add_u32le(b, e->spawner);
	}
	if (!r)
		r = gfs_buf_add_u24le(b, e->map);
	if (!r)
		r = gfs_buf_addc(b, e->dir);
	if (!r)
		r = gfs_buf_add_u32le(b, e->x);
	if (!r)
		r = gfs_buf_add_u32le(b, e->y);
	if (!r) {
		uint8_t m[4] = { e->behav, e->trans, e->alt, (uint8_t)e->attrs.n };

		r = gfs_buf_add(b, m, 4);
	}
	if (!r)
		r = gfs_buf_add_u16le(b, (uint16_t)(e->inv.n / 2));
	if (!r)
		r = gfs_buf_add_u16le(b, (uint16_t)(e->skills.n / 2));
	if (!r)
		r = gfs_buf_add_u16le(b, (uint16_t)e->quests.n);
	for (size_t i = 0; !r && i < e->attrs.n; i++)
		r = gfs_buf_add_u32le(b, e->attrs.v[i]);
	for (size_t i = 0; !r && i < e->inv.n; i++)
		r = gfs_buf_add_u32le(b, e->inv.v[i]);
	for (size_t i = 0; !r && i < e->skills.n; i++)
		r = gfs_buf_add_u32le(b, e->skills.v[i]);
	for (size_t i = 0; !r && i < e->quests.n; i++)
		r = gfs_buf_add_u32le(b, e->quests.v[i]);
	return r;
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
		struct tsv_rec e;

		r = tsv_parse_rec(c, &e, &why);
		tsv_rec_free(&e);
		if (!r) {
			c->kind = c->magic[0] == 'U' ? TSV_USER : TSV_NPC;
			why = NULL;
		} else if (r != -ENOMEM) {
			r = 0;
		}
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
