/*
 * tng_reshape.c - the TirNanoG records whose bytes the record tables
 * (tng_records.c) cannot describe as they are: each is turned into "view
 * bytes" that a table describes, and back.
 *   objects      the collision mask (width x height bytes) as rows of
 *                cells, last; the two 32-sprite blocks in the fixed part
 *   16           its three counted lists with their counts up front
 *   20           as it is, refused with fewer than 3 alerts
 *   21           a count of the categories after the 24 bytes (they run
 *                to the section's end); each category ends in a list
 *   25           each attribute as kind, name, title, default; its script
 *                stays in the section, found by the attribute's place
 *                (or, when attributes were added or removed, its name)
 * And the attributes' scripts (section 25).  Calls nothing of the format.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tng.h"
#include "tng_rec.h"

/* ---- view bytes ----------------------------------------------------------------- */

static int add_rows(struct gfs_buf *v, const uint8_t *mask, unsigned w, unsigned h)
{
	int r = 0;

	for (unsigned y = 0; y < h && !r; y++) {
		r = gfs_buf_add_u16le(v, (uint16_t)w);
		if (!r)
			r = gfs_buf_add(v, mask + (size_t)y * w, w);
	}
	return r;
}

/* The parts of an object's bytes before its scripts: offsets of each, from its counts. */
struct objparts {
	size_t mask, equip, snd, slots, req, mod, smod, end;
};

/* The bytes of an object before its scripts (o filled), or 0 when they run past len. */
static size_t obj_span(const uint8_t *p, size_t len, struct objparts *o)
{
	uint64_t at = OBJ_HDR;

	if (len < OBJ_HDR)
		return 0;
	o->mask = (size_t)at;
	at += (uint64_t)gfs_le16(p + OBJ_W) * gfs_le16(p + OBJ_H);
	o->equip = (size_t)at;
	at += OBJ_SPRS;
	o->snd = (size_t)at;
	at += (uint64_t)p[OBJ_NSND] * 3;
	o->slots = (size_t)at;
	at += OBJ_SPRS;
	o->req = (size_t)at;
	at += (uint64_t)p[OBJ_NREQ] * 8;
	o->mod = (size_t)at;
	at += (uint64_t)p[OBJ_NMOD] * 8;
	o->smod = (size_t)at;
	at += (uint64_t)p[OBJ_NSMOD] * OBJ_SMOD;
	o->end = (size_t)at;
	return at <= len ? (size_t)at : 0;
}

static int obj_parts(const uint8_t *p, size_t len, struct objparts *o)
{
	return obj_span(p, len, o) == len && len ? 0 : -EBADMSG;
}

size_t tng_obj_span(const uint8_t *p, size_t len)
{
	struct objparts o;

	return obj_span(p, len, &o);
}

int tng_obj_to_view(const uint8_t *p, size_t len, struct gfs_buf *v)
{
	struct objparts o;
	unsigned w, h;
	int r = obj_parts(p, len, &o);

	if (r)
		return r;
	w = gfs_le16(p + OBJ_W);
	h = gfs_le16(p + OBJ_H);
	r = gfs_buf_add(v, p, OBJ_HDR);
	r = r ? r : gfs_buf_add(v, p + o.equip, OBJ_SPRS);
	r = r ? r : gfs_buf_add(v, p + o.slots, OBJ_SPRS);
	r = r ? r : gfs_buf_add_u16le(v, (uint16_t)h);
	r = r ? r : gfs_buf_add(v, p + o.snd, o.slots - o.snd);
	r = r ? r : gfs_buf_add(v, p + o.req, o.end - o.req);
	return r ? r : add_rows(v, p + o.mask, w, h);
}

int tng_obj_from_view(const uint8_t *old, size_t oldlen, const uint8_t *v, size_t vlen,
			 struct gfs_buf *out, char *why, size_t wl)
{
	size_t at = OV_SIZE, snd, req, rows = gfs_le16(v + OV_ROWS), start = out->len;
	unsigned w = 0;
	int r;

	(void)oldlen;
	if (vlen < OV_SIZE)
		return -EINVAL;
	snd = at;
	at += (size_t)v[OBJ_NSND] * 3;
	req = at;
	at += (size_t)v[OBJ_NREQ] * 8 + (size_t)v[OBJ_NMOD] * 8 + (size_t)v[OBJ_NSMOD] * OBJ_SMOD;
	if (at > vlen)
		return -EINVAL;
	/* the mask rows: every one as long as the first */
	for (size_t y = 0, pos = at; y < rows; y++) {
		unsigned n;

		if (pos + 2 > vlen || pos + 2 + (n = gfs_le16(v + pos)) > vlen)
			return -EINVAL;
		if (y == 0)
			w = n;
		else if (n != w)
			return snprintf(why, wl, "[mask %zu] has %u cells, [mask 0] %u: every row of the "
					"collision mask is as long", y, n, w), -EINVAL;
		pos += 2 + n;
	}
	if (!rows)
		w = gfs_le16(old + OBJ_W);	/* no rows: the width stays what it was */
	r = gfs_buf_add(out, v, OBJ_HDR);
	if (r)
		return r;
	gfs_put_u16le(out->data + start + OBJ_W, (uint16_t)w);
	gfs_put_u16le(out->data + start + OBJ_H, (uint16_t)rows);
	for (size_t y = 0, pos = at; y < rows && !r; y++, pos += 2 + (size_t)w)
		r = gfs_buf_add(out, v + pos + 2, w);
	r = r ? r : gfs_buf_add(out, v + OV_EQUIP, OBJ_SPRS);
	r = r ? r : gfs_buf_add(out, v + snd, req - snd);
	r = r ? r : gfs_buf_add(out, v + OV_SLOTS, OBJ_SPRS);
	return r ? r : gfs_buf_add(out, v + req, at - req);
}

/* Section 16: the offsets of its lists. */
struct uiparts {
	size_t nc, nf, ns, colors, fonts, sounds, sprites;
};

static int ui_parts(const uint8_t *p, size_t len, struct uiparts *u)
{
	size_t at = 0;

	if (len < 1)
		return -EBADMSG;
	u->nc = p[at++];
	u->colors = at;
	at += u->nc * 4;
	if (at >= len)
		return -EBADMSG;
	u->nf = p[at++];
	u->fonts = at;
	at += u->nf * 7;
	if (at >= len)
		return -EBADMSG;
	u->ns = p[at++];
	u->sounds = at;
	at += u->ns * 3;
	if (at > len || (len - at) % 3)
		return -EBADMSG;
	u->sprites = at;
	return 0;
}

int tng_ui_to_view(const uint8_t *p, size_t len, struct gfs_buf *v)
{
	struct uiparts u;
	int r = ui_parts(p, len, &u);

	r = r ? r : gfs_buf_addc(v, (uint8_t)u.nc);
	r = r ? r : gfs_buf_addc(v, (uint8_t)u.nf);
	r = r ? r : gfs_buf_addc(v, (uint8_t)u.ns);
	r = r ? r : gfs_buf_add_u32le(v, (uint32_t)((len - u.sprites) / 3));
	r = r ? r : gfs_buf_add(v, p + u.colors, u.nc * 4);
	r = r ? r : gfs_buf_add(v, p + u.fonts, u.nf * 7);
	r = r ? r : gfs_buf_add(v, p + u.sounds, u.ns * 3);
	return r ? r : gfs_buf_add(v, p + u.sprites, len - u.sprites);
}

int tng_ui_from_view(const uint8_t *old, size_t oldlen, const uint8_t *v, size_t vlen,
			struct gfs_buf *out, char *why, size_t wl)
{
	size_t nc = v[0], nf = v[1], ns = v[2], at = 7;
	int r;

	(void)old, (void)oldlen, (void)why, (void)wl;
	r = gfs_buf_addc(out, (uint8_t)nc);
	r = r ? r : gfs_buf_add(out, v + at, nc * 4);
	r = r ? r : gfs_buf_addc(out, (uint8_t)nf);
	r = r ? r : gfs_buf_add(out, v + at + nc * 4, nf * 7);
	r = r ? r : gfs_buf_addc(out, (uint8_t)ns);
	at += nc * 4 + nf * 7;
	return r ? r : gfs_buf_add(out, v + at, vlen - at);
}

/* Section 21: the 24 bytes, a u32 count of categories, the categories as they are. */
int tng_credits_to_view(const uint8_t *p, size_t len, struct gfs_buf *v)
{
	size_t at = CREDITS_HDR, n = 0;
	int r;

	if (len < CREDITS_HDR)
		return -EBADMSG;
	while (at < len) {
		if (len - at < 3 || gfs_le16(p + at + 1) > (len - at - 3) / 3)
			return -EBADMSG;
		at += 3 + 3 * (size_t)gfs_le16(p + at + 1);
		n++;
	}
	r = gfs_buf_add(v, p, CREDITS_HDR);
	r = r ? r : gfs_buf_add_u32le(v, (uint32_t)n);
	return r ? r : gfs_buf_add(v, p + CREDITS_HDR, len - CREDITS_HDR);
}

int tng_credits_from_view(const uint8_t *old, size_t oldlen, const uint8_t *v, size_t vlen,
			     struct gfs_buf *out, char *why, size_t wl)
{
	int r = gfs_buf_add(out, v, CREDITS_HDR);

	(void)old, (void)oldlen, (void)why, (void)wl;
	return r ? r : gfs_buf_add(out, v + CREDITS_HDR + 4, vlen - CREDITS_HDR - 4);
}

/* Section 20: as it is; the game wants at least 3 alerts, a view cannot take them below. */
int tng_alerts_to_view(const uint8_t *p, size_t len, struct gfs_buf *v)
{
	return gfs_buf_add(v, p, len);
}

int tng_alerts_from_view(const uint8_t *old, size_t oldlen, const uint8_t *v, size_t vlen,
			    struct gfs_buf *out, char *why, size_t wl)
{
	/* (a section that had fewer keeps them: a view written back unchanged changes nothing) */
	if (vlen <= ALERTS_N || (v[ALERTS_N] < ALERTS_MIN &&
				 (oldlen <= ALERTS_N || v[ALERTS_N] != old[ALERTS_N]))) {
		snprintf(why, wl, "%u alerts, want at least %u", vlen > ALERTS_N ? v[ALERTS_N] : 0,
			 ALERTS_MIN);
		return -EINVAL;
	}
	return gfs_buf_add(out, v, vlen);
}

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
