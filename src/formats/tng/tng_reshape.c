/*
 * tng_reshape.c - TirNanoG's attributes (section 25), the one record kind
 * the layout language (gfs_record.h) cannot describe as it is: an
 * attribute is 7, 9 or 14 bytes and a script by its kind, and its script
 * is a file of its own (NAME.on_change.tngs, NAME.expression.tngs).  Its
 * bytes are turned into "view bytes" (each attribute as kind, name, title,
 * default) that attrs_rec (tng_records.c) describes, and back: the scripts
 * stay in the section, found by the attribute's place (or, when attributes
 * were added or removed, its name).  And the attributes' scripts.  Calls
 * nothing of the format.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tng.h"
#include "tng_rec.h"

/* ---- attributes ------------------------------------------------------------------ */

/* Section 25: where attribute records start and end; -EBADMSG for an unknown kind. */
static size_t attr_size(const uint8_t *p, size_t left)
{
	uint64_t n;

	if (left < 7)
		return 0;
	switch (p[0]) {
	case AK_PRIMARY:
		n = 7;
		break;
	case AK_VAR: case AK_GVAR:
		n = left < 14 ? left + 1 : 14 + (uint64_t)gfs_le24(p + 11);
		break;
	case AK_CALC: case AK_GCALC:
		n = left < 9 ? left + 1 : 9 + (uint64_t)gfs_le16(p + 7);
		break;
	default:
		return 0;
	}
	return n <= left ? (size_t)n : 0;
}

/* The offset of each attribute record (n + 1 of them, the last the end); NULL if they do not fit. */
static size_t *attr_offsets(const uint8_t *p, size_t len, size_t *nout)
{
	size_t n, at = ATTR_HDR, *off, k;

	if (len < ATTR_HDR)
		return NULL;
	n = gfs_le16(p + ATTR_N);
	if (n > (len - ATTR_HDR) / 7 || !(off = malloc((n + 1) * sizeof(*off))))
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

/* Attribute record r's script: its kind (1 on change, 2 expression, 0 none) and bytes. */
static int attr_code(const uint8_t *r, const uint8_t **code, size_t *n)
{
	switch (r[0]) {
	case AK_VAR: case AK_GVAR:
		*code = r + 14;
		*n = gfs_le24(r + 11);
		return 1;
	case AK_CALC: case AK_GCALC:
		*code = r + 9;
		*n = gfs_le16(r + 7);
		return 2;
	default:
		*code = r;
		*n = 0;
		return 0;
	}
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

		r = gfs_buf_add(v, a, 7);
		r = r ? r : gfs_buf_add_u32le(v, a[0] == AK_VAR || a[0] == AK_GVAR ? gfs_le32(a + 7) : 0);
	}
	free(off);
	return r;
}

/* An attribute record: kind, name, title, default (variables), script. */
static int attr_put(struct gfs_buf *out, const uint8_t *av, const uint8_t *code, size_t n)
{
	int r = gfs_buf_add(out, av, 7);

	switch (av[0]) {
	case AK_VAR: case AK_GVAR:
		r = r ? r : gfs_buf_add(out, av + 7, 4);
		r = r ? r : gfs_buf_add_u24le(out, (uint32_t)n);
		break;
	case AK_CALC: case AK_GCALC:
		r = r ? r : gfs_buf_add_u16le(out, (uint16_t)n);
		break;
	default:
		return r;
	}
	return r ? r : gfs_buf_add(out, code, n);
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
			if (!attr_code(old + off[from], &code, &n))
				code = NULL;
		}
		if (!code && av[0] != AK_PRIMARY) {	/* a new script: END, as a new handler */
			code = &end;
			n = 1;
		}
		r = -EINVAL;
		if (av[0] >= AK_N)
			snprintf(why, wl, "[attribute %zu]: kind %u is not one the document has", k, av[0]);
		else if (av[0] != AK_VAR && av[0] != AK_GVAR && gfs_le32(av + 7))
			snprintf(why, wl, "[attribute %zu]: only variables have a default", k);
		else if (av[0] == AK_PRIMARY && n)
			snprintf(why, wl, "[attribute %zu]: a primary attribute has no script (empty its "
				 ".tngs file first)", k);
		else if ((av[0] == AK_CALC || av[0] == AK_GCALC) && n > 0xffff)
			snprintf(why, wl, "[attribute %zu]: an expression is at most 65535 bytes", k);
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

		if (len - at < 7)
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
	r = attr_code(p + off[k], code, n);
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
	if ((p[off[k]] == AK_CALC || p[off[k]] == AK_GCALC) ? n > 0xffff : n > NONE24) {
		free(off);
		return -E2BIG;
	}
	memcpy(av, p + off[k], 7);
	gfs_put_u32le(av + 7, p[off[k]] == AK_VAR || p[off[k]] == AK_GVAR ? gfs_le32(p + off[k] + 7) : 0);
	r = gfs_buf_add(out, p, off[k]);
	r = r ? r : attr_put(out, av, code, n);
	r = r ? r : gfs_buf_add(out, p + off[k + 1], len - off[k + 1]);
	free(off);
	return r;
}
