/*
 * tng_reshape.c - TirNanoG's attributes (section 25), the one record kind
 * whose view the layout language (gfs_record.h) cannot give as it is: an
 * attribute's layout follows its kind (a table a kind, below: 7, 9 or 14
 * bytes and a script), and its script is a file of its own
 * (NAME.on_change.tngs, NAME.expression.tngs).  Its bytes are turned into
 * "view bytes" (each attribute as kind, name, title, default) that
 * attrs_rec (tng_records.c) describes, and back: the scripts stay in the
 * section, found by the attribute's place (or, when attributes were added
 * or removed, its name).  And the attributes' scripts.  Calls nothing of
 * the format.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_record.h"
#include "tng.h"
#include "tng_rec.h"

/* ---- attributes ------------------------------------------------------------------ */

/*
 * An attribute as stored, one table a kind: kind, name and title (the
 * bytes its view bytes begin with), then a variable's default and its
 * on-change script (a u24 length), or a calculated one's expression (a u16
 * length); a primary one ends there.  Its size, its script and the most a
 * script may hold come from these tables.
 */
#define A_COMMON	7	/* kind, name, title: stored as the view bytes have them */
#define AV_DEFAULT	7	/* the default in the view bytes */

static const struct gfs_record code_rec = { "code", NULL, 1, NULL, 0 };
static const struct gfs_field avar_fields[] = {
	{ .key = "default", .kind = GFS_FK_SINT, .off = 7, .width = 4 },
	{ .key = "script", .kind = GFS_FK_GROUP, .group = &code_rec, .count_off = 11, .count_width = 3 },
};
static const struct gfs_field acalc_fields[] = {
	{ .key = "script", .kind = GFS_FK_GROUP, .group = &code_rec, .count_off = 7, .count_width = 2 },
};
static const struct gfs_record aprim_rec = { "attribute", NULL, A_COMMON, NULL, 0 };
static const struct gfs_record avar_rec = { "attribute", NULL, 14, avar_fields, 2 };
static const struct gfs_record acalc_rec = { "attribute", NULL, 9, acalc_fields, 1 };
static const struct gfs_record *const astore[AK_N] = {
	[AK_PRIMARY] = &aprim_rec, [AK_VAR] = &avar_rec, [AK_CALC] = &acalc_rec,
	[AK_GVAR] = &avar_rec, [AK_GCALC] = &acalc_rec,
};

/* Section 25: the bytes of the attribute record at p (left bytes); 0 for an unknown kind or one that does not fit. */
static size_t attr_size(const uint8_t *p, size_t left)
{
	return left && p[0] < AK_N ? gfs_record_span(astore[p[0]], p, left) : 0;
}

/* The offset of each attribute record (n + 1 of them, the last the end); NULL if they do not fit. */
static size_t *attr_offsets(const uint8_t *p, size_t len, size_t *nout)
{
	size_t n, at = ATTR_HDR, *off, k;

	if (len < ATTR_HDR)
		return NULL;
	n = gfs_le16(p + ATTR_N);
	if (n > (len - ATTR_HDR) / A_COMMON || !(off = malloc((n + 1) * sizeof(*off))))
		return NULL;
	for (k = 0; k < n; k++) {
		size_t s = attr_size(p + at, len - at);

		if (!s)
			break;
		off[k] = at;
		at += s;
	}
	if (k < n || at != len) {
		free(off);
		return NULL;
	}
	off[n] = at;
	*nout = n;
	return off;
}

/*
 * The attribute record r[0..len) (one that fits): its script's kind (1 on
 * change, 2 expression, 0 none) and bytes.
 */
static int attr_code(const uint8_t *r, size_t len, const uint8_t **code, size_t *n)
{
	const struct gfs_record *rec = astore[r[0]];
	size_t at;

	*code = r;
	*n = 0;
	if (!gfs_record_part(rec, r, len, "script", &at, n))
		return 0;
	*code = r + at;
	return rec == &avar_rec ? 1 : 2;
}

/* The most bytes a script of kind k holds (its length field's): 0 for none. */
static size_t attr_code_max(unsigned k)
{
	const struct gfs_field *f = gfs_record_field(astore[k], "script");

	return f ? ((size_t)1 << 8 * f->count_width) - 1 : 0;
}

/* The default of the attribute record r (its kind's table has one), else 0. */
static uint32_t attr_default(const uint8_t *r)
{
	const struct gfs_field *f = gfs_record_field(astore[r[0]], "default");

	return f ? gfs_le32(r + f->off) : 0;
}

int tng_attr_to_view(const uint8_t *p, size_t len, struct gfs_buf *v)
{
	size_t n, *off = attr_offsets(p, len, &n);
	int r;

	if (!off)
		return -EBADMSG;
	r = gfs_buf_add(v, p, ATTR_HDR);
	for (size_t k = 0; k < n && !r; k++) {
		const uint8_t *a = p + off[k];

		r = gfs_buf_add(v, a, A_COMMON);
		r = r ? r : gfs_buf_add_u32le(v, attr_default(a));
	}
	free(off);
	return r;
}

/* An attribute record of its kind's table: kind, name, title, default (variables) of av, then code. */
static int attr_put(struct gfs_buf *out, const uint8_t *av, const uint8_t *code, size_t n)
{
	const struct gfs_record *rec = astore[av[0]];
	const struct gfs_field *def = gfs_record_field(rec, "default"), *sc = gfs_record_field(rec, "script");
	uint8_t fixed[16] = { 0 };
	int r;

	memcpy(fixed, av, A_COMMON);
	if (def)
		memcpy(fixed + def->off, av + AV_DEFAULT, def->width);
	for (unsigned i = 0; sc && i < sc->count_width; i++)
		fixed[sc->count_off + i] = (uint8_t)(n >> 8 * i);
	r = gfs_buf_add(out, fixed, rec->size);
	return r || !sc || !n ? r : gfs_buf_add(out, code, n);
}

int tng_attr_from_view(const uint8_t *old, size_t oldlen, const uint8_t *v, size_t vlen,
			  struct gfs_buf *out, char *why, size_t wl)
{
	static const uint8_t end = 0;
	size_t on, *off = attr_offsets(old, oldlen, &on), nn = gfs_le16(v + ATTR_N);
	uint8_t *used = NULL;
	int r = 0;

	if (!off)
		return -EINVAL;
	if (vlen != ATTR_HDR + nn * AV_SIZE || !(used = calloc(on + 1, 1))) {
		free(off);
		return vlen != ATTR_HDR + nn * AV_SIZE ? -EINVAL : -ENOMEM;
	}
	r = gfs_buf_add(out, v, ATTR_HDR);
	for (size_t k = 0; k < nn && !r; k++) {
		const uint8_t *av = v + ATTR_HDR + k * AV_SIZE, *code = NULL;
		size_t n = 0, from = on;

		/* its script: the one at its place; when attributes came or went, the one of its name */
		if (nn == on)
			from = k;
		for (size_t j = 0; j < on && from == on; j++)
			if (!used[j] && gfs_le24(old + off[j] + 1) == gfs_le24(av + 1))
				from = j;
		if (from < on) {
			used[from] = 1;
			if (!attr_code(old + off[from], off[from + 1] - off[from], &code, &n))
				code = NULL;
		}
		if (!code && av[0] != AK_PRIMARY) {	/* a new script: END, as a new handler */
			code = &end;
			n = 1;
		}
		r = -EINVAL;
		if (av[0] >= AK_N)
			snprintf(why, wl, "[attribute %zu]: kind %u is not one the document has", k, av[0]);
		else if (!gfs_record_field(astore[av[0]], "default") && gfs_le32(av + AV_DEFAULT))
			snprintf(why, wl, "[attribute %zu]: only variables have a default", k);
		else if (!attr_code_max(av[0]) && n)
			snprintf(why, wl, "[attribute %zu]: a primary attribute has no script (empty its "
				 ".tngs file first)", k);
		else if (n > attr_code_max(av[0]))
			snprintf(why, wl, "[attribute %zu]: an expression is at most %zu bytes", k,
				 attr_code_max(av[0]));
		else
			r = attr_put(out, av, code ? code : av, code ? n : 0);
	}
	free(used);
	free(off);
	return r;
}

/* ---- attribute scripts ----------------------------------------------------------- */

int tng_attr_each(const uint8_t *p, size_t len, int (*fn)(uint32_t nameoff, void *ctx), void *ctx)
{
	size_t at = ATTR_HDR, n;

	if (len < ATTR_HDR)
		return 0;
	n = gfs_le16(p + ATTR_N);
	for (size_t k = 0; k < n; k++) {
		size_t sz = attr_size(p + at, len - at);
		int r;

		if (len - at < A_COMMON)
			break;
		if ((r = fn(gfs_le24(p + at + 1), ctx)))
			return r;
		if (!sz)
			break;	/* an unknown kind or a script past the end: the rest cannot be found */
		at += sz;
	}
	return 0;
}

int tng_attr_count(const uint8_t *p, size_t len, size_t *n)
{
	size_t *off = attr_offsets(p, len, n);
	int r = off ? 0 : -EBADMSG;

	free(off);
	return r;
}

int tng_attr_script(const uint8_t *p, size_t len, size_t k, uint32_t *nameoff,
		    const uint8_t **code, size_t *n)
{
	size_t cnt, *off = attr_offsets(p, len, &cnt);
	int r;

	if (!off)
		return -EBADMSG;
	if (k >= cnt) {
		free(off);
		return -ENOENT;
	}
	*nameoff = gfs_le24(p + off[k] + 1);
	r = attr_code(p + off[k], off[k + 1] - off[k], code, n);
	free(off);
	return r;
}

int tng_attr_set_script(const uint8_t *p, size_t len, size_t k, const uint8_t *code, size_t n,
			struct gfs_buf *out)
{
	size_t cnt, *off = attr_offsets(p, len, &cnt);
	uint8_t av[AV_SIZE];
	int r;

	if (!off)
		return -EBADMSG;
	if (k >= cnt || !p[off[k]]) {
		free(off);
		return -ENOENT;
	}
	if (n > attr_code_max(p[off[k]])) {
		free(off);
		return -E2BIG;
	}
	memcpy(av, p + off[k], A_COMMON);
	gfs_put_u32le(av + AV_DEFAULT, attr_default(p + off[k]));
	r = gfs_buf_add(out, p, off[k]);
	r = r ? r : attr_put(out, av, code, n);
	r = r ? r : gfs_buf_add(out, p + off[k + 1], len - off[k + 1]);
	free(off);
	return r;
}
