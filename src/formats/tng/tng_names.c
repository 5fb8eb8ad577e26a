/*
 * tng_names.c - references resolved by name against a loaded TirNanoG
 * game (struct tngs_names for the script assembler and the record
 * tables): media and records by their names in the strings section, texts
 * by index with the first language's text, attributes by name, sprites by
 * category and index.  Which section a kind of reference names comes from
 * the section registry (tng.c).  And the names of a record's own files:
 * its name where that names it alone, else its number.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tng.h"
#include "tng_script.h"

/* Does asset a belong to what kind k names? */
static int ref_asset_is(const struct tng *t, const struct tng_asset *a, enum tngs_ref k)
{
	unsigned type = t->secs[a->sec].type;

	if (a->gone)
		return 0;
	switch (k) {
	case TNGS_MAP:
		return a->kind == TNG_A_MAP;
	case TNGS_QUEST:	/* section 35, or 34 when the game numbers them the other way */
		return (type == TNG_S_MAPS || type == TNG_S_QUESTS) && a->kind == TNG_A_ZBIN;
	case TNGS_SPEECH:
		return type == TNG_S_LANG && a->kind == TNG_A_STORED;
	default:
		return type == tng_ref_section((int)k);
	}
}

struct attr_each {
	struct tng *t;
	int (*fn)(struct tng *t, uint32_t off, void *ctx);
	void *ctx;
};

static int attr_each_one(uint32_t off, void *vctx)
{
	struct attr_each *e = vctx;

	return e->fn(e->t, off, e->ctx);
}

/* Calls fn(t, nameoff, ctx) for each attribute's name in section 25; stops at non-zero. */
static int each_attr(struct tng *t, int (*fn)(struct tng *t, uint32_t off, void *ctx), void *ctx)
{
	struct attr_each e = { t, fn, ctx };

	for (size_t i = 0; i < t->nsecs; i++) {
		size_t len;
		const uint8_t *d;
		int rc;

		if (t->secs[i].type != TNG_S_ATTRS)
			continue;
		d = tng_sec_data(t, i, &len);
		if ((rc = tng_attr_each(d, len, attr_each_one, &e)))
			return rc;
	}
	return 0;
}

struct attr_find {
	uint32_t v;
	const char *s;
	uint32_t found;
};

static int attr_is(struct tng *t, uint32_t off, void *vctx)
{
	struct attr_find *f = vctx;
	size_t n;
	const char *s;

	if (f->s) {
		s = tng_string_at(t, off, &n);
		if (s && strlen(f->s) == n && !memcmp(s, f->s, n)) {
			f->found = off;
			return 1;
		}
		return 0;
	}
	return off == f->v;
}

/* What the names callbacks read: the model, and the texts of the languages once loaded. */
static void load_texts(struct tng_namectx *c)
{
	size_t first = (size_t)-1;

	c->texts_loaded = 1;
	for (size_t i = 0; i < c->t->nassets; i++) {
		struct tng_asset *a = &c->t->assets[i];
		struct gfs_buf b = GFS_BUF_INIT;
		size_t n = 0;

		if (a->kind != TNG_A_TEXT || tng_asset_content(c->ar, c->t, a, TNG_ZASSET_MAX, &b)) {
			gfs_buf_release(&b);
			continue;
		}
		for (size_t k = 0; k < b.len; k++)
			n += b.data[k] == 0;
		if (first == (size_t)-1) {
			first = i;
			c->texts = b;
			c->ntexts = n;
		} else {
			if (n < c->ntexts)
				c->ntexts = n;
			gfs_buf_release(&b);
		}
	}
	if (c->ntexts && (c->text = calloc(c->ntexts, sizeof(*c->text)))) {
		size_t k = 0;

		for (size_t i = 0; i < c->ntexts; i++) {
			c->text[i] = (const char *)c->texts.data + k;
			k += strlen(c->text[i]) + 1;
		}
	} else {
		c->ntexts = 0;
	}
}

static const char *names_name(void *ctx, enum tngs_ref k, uint32_t v)
{
	struct tng_namectx *c = ctx;
	struct tng *t = c->t;
	size_t n;

	if (k == TNGS_TEXT) {
		if (!c->texts_loaded)
			load_texts(c);
		return v < c->ntexts ? c->text[v] : NULL;
	}
	if (k == TNGS_SPRITE || v == 0)
		return NULL;
	if (k == TNGS_ATTR) {
		struct attr_find f = { v, NULL, 0 };

		if (!each_attr(t, attr_is, &f))
			return NULL;
		return tng_string_at(t, v, &n);
	}
	if (k == TNGS_STRING) {
		const char *s = tng_string_at(t, v, &n);

		return s && !s[-1] ? s : NULL;	/* a string's start */
	}
	for (size_t i = 0; i < t->nassets; i++)
		if (t->assets[i].nameoff == v && ref_asset_is(t, &t->assets[i], k))
			return tng_string_at(t, v, &n);
	return NULL;
}

static int names_find(void *ctx, enum tngs_ref k, const char *s, uint32_t *v)
{
	struct tng_namectx *c = ctx;
	struct tng *t = c->t;
	size_t slen = strlen(s), n;
	const char *name;

	if (k == TNGS_ATTR) {
		struct attr_find f = { 0, s, 0 };

		if (!each_attr(t, attr_is, &f))
			return -1;
		*v = f.found;
		return 0;
	}
	if (k == TNGS_STRING && t->strsec >= 0) {
		const uint8_t *p = tng_sec_data(t, (size_t)t->strsec, &n);

		for (size_t i = 0, e; i < n; i = e + 1) {
			const uint8_t *nul = memchr(p + i, 0, n - i);

			if (!nul)
				break;
			e = (size_t)(nul - p);
			if (e - i == slen && !memcmp(p + i, s, slen) && i <= 0xffffff) {
				*v = (uint32_t)i;
				return 0;
			}
		}
		return -1;
	}
	for (size_t i = 0; i < t->nassets; i++) {
		const struct tng_asset *a = &t->assets[i];

		if (a->nameoff && ref_asset_is(t, a, k) &&
		    (name = tng_string_at(t, a->nameoff, &n)) && n == slen && !memcmp(name, s, n)) {
			*v = a->nameoff;
			return 0;
		}
	}
	return -1;
}

static int names_exists(void *ctx, enum tngs_ref k, uint32_t v)
{
	struct tng_namectx *c = ctx;
	struct tng *t = c->t;
	unsigned type = (v >> 16) + TNG_S_UISPR, idx = v & 0xffff;

	if (k == TNGS_TEXT) {
		if (!c->texts_loaded)
			load_texts(c);
		return v < c->ntexts;
	}
	if (k != TNGS_SPRITE || type > TNG_S_BACKS)
		return 0;
	for (size_t i = 0; i < t->nsecs; i++) {
		size_t len;

		if (t->secs[i].type != type)
			continue;
		(void)tng_sec_data(t, i, &len);
		if (idx < len / TNG_DESC)
			return 1;
		idx -= (unsigned)(len / TNG_DESC);
	}
	return 0;
}

void tng_names(struct gfs_archive *ar, struct tng *t, struct tng_namectx *c,
		      struct tngs_names *nm)
{
	memset(c, 0, sizeof(*c));
	c->ar = ar;
	c->t = t;
	nm->name = names_name;
	nm->find = names_find;
	nm->exists = names_exists;
	nm->ctx = c;
}

void tng_names_release(struct tng_namectx *c)
{
	free(c->text);
	gfs_buf_release(&c->texts);
}

/* ---- record file names: the record's name, else its number ---- */

/* Can s[0..n) name a record's files: printable ASCII without blank, '.', '/', '\\', not all digits? */
int tng_stem_ok(const char *s, size_t n)
{
	int digits = 1;

	if (!n || n > TNG_STEM_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= ' ' || c >= 0x7f || c == '.' || c == '/' || c == '\\')
			return 0;
		digits &= c >= '0' && c <= '9';
	}
	return !digits;
}

struct stem_key {
	unsigned type;
	const char *s;
	size_t n, ai;
};

static int stem_cmp(const void *x, const void *y)
{
	const struct stem_key *a = x, *b = y;
	int c;

	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	c = memcmp(a->s, b->s, a->n < b->n ? a->n : b->n);
	return c ? c : (a->n > b->n) - (a->n < b->n);
}

int tng_stems_mark(struct tng *t)
{
	struct stem_key *k = malloc((t->nassets ? t->nassets : 1) * sizeof(*k));
	size_t n = 0;

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *a = &t->assets[i];
		unsigned type = t->secs[a->sec].type;
		const char *s;
		size_t len = 0;

		a->named = 0;
		if (a->kind == TNG_A_ZBIN && !tng_kind_of(type)->index_field && a->nameoff &&
		    (s = tng_string_at(t, a->nameoff, &len)) && tng_stem_ok(s, len))
			k[n++] = (struct stem_key){ type, s, len, i };
	}
	qsort(k, n, sizeof(*k), stem_cmp);
	for (size_t i = 0, j; i < n; i = j) {	/* a name two records of a kind share names neither */
		for (j = i + 1; j < n && !stem_cmp(&k[i], &k[j]); j++)
			;
		t->assets[k[i].ai].named = j == i + 1;
	}
	free(k);
	return 0;
}

void tng_rec_stem(struct tng *t, const struct tng_asset *a, char *out, size_t outlen)
{
	size_t n = 0;
	const char *s = a->named ? tng_string_at(t, a->nameoff, &n) : NULL;

	if (s)
		snprintf(out, outlen, "%.*s", (int)n, s);
	else
		snprintf(out, outlen, "%04u", a->num);
}

/* "STEM.on_click.tngs", "STEM.on_click-2.tngs" (second of its type), "STEM.on_complete.tngs". */
void tng_hscript_name(enum tng_rkind k, const char *stem, int sub, char *out, size_t outlen)
{
	char h[32];

	if (!tng_rkind_lists(k)) {
		snprintf(out, outlen, "%s.%s.tngs", stem, k == TNG_R_QUEST ? "on_complete" : "script");
		return;
	}
	tng_handler_name(HTYPE(sub), h, sizeof h);
	if (HOCC(sub))
		snprintf(out, outlen, "%s.%s-%u.tngs", stem, h, HOCC(sub) + 1);
	else
		snprintf(out, outlen, "%s.%s.tngs", stem, h);
}
