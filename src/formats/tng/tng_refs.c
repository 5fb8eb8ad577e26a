/*
 * tng_refs.c - the value callbacks of the TirNanoG record tables
 * (tng_records.c): how a reference field shows and is read back.
 *
 * A text index shows as N with the text (first language) in a comment
 * after ';', a string offset by the name it has in its kind (a sound by its
 * name in sounds/...), a sprite as CATEGORY/INDEX.  What has no name that
 * leads back to it shows as #N (#CATEGORY/INDEX for sprites), accepted back
 * as it is; a name or number that does not exist is EINVAL.  Names come
 * through struct tngs_names: this file knows no archive.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tng.h"
#include "tng_rec.h"
#include "tng_script.h"

#define NONE16		0xffffu
#define PLAYER_PORTRAIT	0xfff0u		/* dialog portraits FFF0-FFFE: the player's, per expression */
#define PORTRAIT_CAT	3


/* ---- references ------------------------------------------------------------ */

/* Can s be a value by itself (and a name, not a number or -1)? */
static int bare(const char *s)
{
	if (!*s || *s == '#' || *s == '-' || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f || *s == ',' || *s == ';' || *s == '"' ||
		    *s == '\\' || *s == ':' || *s == '/')
			return 0;
	return 1;
}

static int num(const char *s, int64_t min, int64_t max, uint64_t *v)
{
	int64_t x;

	if (gfs_parse_int(s, min, max, &x))
		return -EINVAL;
	*v = (uint64_t)x;
	return 0;
}

static int name_fmt(const struct tngs_names *nm, enum tngs_ref k, uint32_t v, struct gfs_buf *out)
{
	const char *s;
	uint32_t back;

	if (v == 0)
		return 0;
	if (v == NONE24)
		return gfs_buf_adds(out, "-1");
	if (nm->name && nm->find && (s = nm->name(nm->ctx, k, v)) && bare(s) &&
	    gfs_utf8_valid((const uint8_t *)s, strlen(s)) && !nm->find(nm->ctx, k, s, &back) &&
	    back == v)
		return gfs_buf_adds(out, s);
	return gfs_buf_printf(out, "#%u", (unsigned)v);
}

static int name_parse(const struct tngs_names *nm, enum tngs_ref k, const char *s, uint64_t *v)
{
	uint32_t u;

	if (!*s) {
		*v = 0;
		return 0;
	}
	if (!strcmp(s, "-1")) {
		*v = NONE24;
		return 0;
	}
	if (*s == '#')
		return num(s + 1, 0, NONE24, v);
	if (!bare(s) || !nm->find || nm->find(nm->ctx, k, s, &u) || u > NONE24)
		return -EINVAL;
	*v = u;
	return 0;
}

static int exists(const struct tngs_names *nm, enum tngs_ref k, uint32_t v)
{
	return !nm->exists || nm->exists(nm->ctx, k, v);
}

/* "N ; the text" (one line, at most 60 bytes of it), -1, or #N for a text not in every language. */
static int text_fmt(const struct tngs_names *nm, uint32_t v, struct gfs_buf *out)
{
	const char *s = nm->name ? nm->name(nm->ctx, TNGS_TEXT, v) : NULL;
	size_t n;
	int r;

	if (v == NONE24)
		return gfs_buf_adds(out, "-1");
	if (!exists(nm, TNGS_TEXT, v))
		return gfs_buf_printf(out, "#%u", (unsigned)v);
	r = gfs_buf_add_dec(out, v);
	if (r || !s || !*s)
		return r;
	n = strlen(s);
	if (n > 60) {
		n = 60;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	r = gfs_buf_adds(out, " ; ");
	for (size_t i = 0, c; i < n && !r; i += c) {	/* control bytes and bad UTF-8 as blanks */
		c = gfs_utf8_char((const uint8_t *)s + i, n - i);
		if (!c || (unsigned char)s[i] < ' ' || s[i] == 0x7f)
			r = gfs_buf_addc(out, ' ');
		else
			r = gfs_buf_add(out, s + i, c);
		c = c ? c : 1;
	}
	if (!r && n < strlen(s))
		r = gfs_buf_adds(out, "...");
	return r;
}

static int text_parse(const struct tngs_names *nm, const char *s, uint64_t *v)
{
	char buf[32];
	size_t n = strcspn(s, ";");

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= sizeof buf)
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!strcmp(buf, "-1")) {
		*v = NONE24;
		return 0;
	}
	if (buf[0] == '#')
		return num(buf + 1, 0, NONE24, v);
	if (num(buf, 0, NONE24 - 1, v) || !exists(nm, TNGS_TEXT, (uint32_t)*v))
		return -EINVAL;
	return 0;
}

/* CATEGORY/INDEX, CATEGORY/-1 (index FFFF), #CATEGORY/INDEX for a sprite that is not there. */
static int spr_fmt(const struct tngs_names *nm, unsigned cat, unsigned idx, struct gfs_buf *out)
{
	const char *cn = tngs_sprcat_name(cat);
	char cbuf[8];

	if (!cn) {
		snprintf(cbuf, sizeof cbuf, "%u", cat);
		cn = cbuf;
	}
	if (idx == NONE16)
		return gfs_buf_printf(out, "%s/-1", cn);
	return gfs_buf_printf(out, "%s%s/%u", exists(nm, TNGS_SPRITE, cat << 16 | idx) ? "" : "#", cn,
			      idx);
}

static int spr_parse(const struct tngs_names *nm, const char *s, unsigned *cat, unsigned *idx)
{
	int raw = *s == '#', c;
	const char *slash;
	char cn[16];
	uint64_t v;

	s += raw;
	slash = strchr(s, '/');
	if (!slash || slash == s || (size_t)(slash - s) >= sizeof cn)
		return -EINVAL;
	memcpy(cn, s, (size_t)(slash - s));
	cn[slash - s] = '\0';
	if ((c = tngs_sprcat(cn)) < 0) {
		if (num(cn, 0, 255, &v))
			return -EINVAL;
		c = (int)v;
	}
	*cat = (unsigned)c;
	if (!strcmp(slash + 1, "-1")) {
		*idx = NONE16;
		return 0;
	}
	if (num(slash + 1, 0, NONE16, &v))
		return -EINVAL;
	*idx = (unsigned)v;
	return raw || exists(nm, TNGS_SPRITE, *cat << 16 | *idx) ? 0 : -EINVAL;
}

/* A u16 sprite index of a fixed category: -1 for FFFF. */
static int fixspr_fmt(const struct tngs_names *nm, unsigned cat, unsigned idx, struct gfs_buf *out)
{
	return idx == NONE16 ? gfs_buf_adds(out, "-1") : spr_fmt(nm, cat, idx, out);
}

static int fixspr_parse(const struct tngs_names *nm, unsigned cat, const char *s, uint64_t *v)
{
	unsigned c, idx;

	if (!strcmp(s, "-1")) {
		*v = NONE16;
		return 0;
	}
	if (spr_parse(nm, s, &c, &idx) || c != cat)
		return -EINVAL;
	*v = idx;
	return 0;
}

static unsigned fixcat(int ref)
{
	return ref == RR_UISPR ? 0 : ref == RR_TILESPR ? 1 : TNGS_OBJ_CAT;
}


static const char *const relname[] = { "eq", "ne", "ge", "gt", "le", "lt" };
#define REL_SET 0xffu

/* A chooser's attribute: type 0 and an attribute, or a local variable (type 2 = a ... 27 = z). */
static int cond_fmt(const struct tngs_names *nm, uint32_t v, struct gfs_buf *out)
{
	unsigned type = v & 0xff, a = v >> 8;

	if (type == 0)
		return name_fmt(nm, TNGS_ATTR, a, out);
	if (type >= 2 && type <= 27 && a == 0)
		return gfs_buf_printf(out, "local:%c", 'a' + type - 2);
	return gfs_buf_printf(out, "#%u:%u", type, a);
}

static int cond_parse(const struct tngs_names *nm, const char *s, uint64_t *v)
{
	const char *colon = strchr(s, ':');
	uint64_t t, a;
	char tb[8];

	if (!strncmp(s, "local:", 6)) {
		if (s[6] < 'a' || s[6] > 'z' || s[7])
			return -EINVAL;
		*v = (uint64_t)(s[6] - 'a' + 2);
		return 0;
	}
	if (*s == '#' && colon) {
		if ((size_t)(colon - s - 1) >= sizeof tb)
			return -EINVAL;
		memcpy(tb, s + 1, (size_t)(colon - s - 1));
		tb[colon - s - 1] = '\0';
		if (num(tb, 0, 255, &t) || num(colon + 1, 0, NONE24, &a))
			return -EINVAL;
		*v = t | a << 8;
		return 0;
	}
	if (name_parse(nm, TNGS_ATTR, s, &a))
		return -EINVAL;
	*v = a << 8;
	return 0;
}

/* The six bytes after a chooser option's position, bit 48 set when they are a rectangle. */
#define AREA_RECT ((uint64_t)1 << 48)
#define CHOOSER_RECT 13

uint64_t tng_area_get(const uint8_t *e)
{
	uint64_t v = gfs_le(e + 1, 6);

	return (e[0] & 0x7f) == CHOOSER_RECT && !(v >> 32) ? v | AREA_RECT : v;
}

void tng_area_set(uint8_t *e, uint64_t v)
{
	for (int i = 0; i < 6; i++, v >>= 8)
		e[1 + i] = (uint8_t)v;
}

static int area_fmt(const struct tngs_names *nm, uint64_t v, struct gfs_buf *out)
{
	int r = 0;

	if (v & AREA_RECT)
		return gfs_buf_printf(out, "rect %u %u %u %u", (unsigned)(v & 0xff),
				      (unsigned)(v >> 8 & 0xff), (unsigned)(v >> 16 & 0xff),
				      (unsigned)(v >> 24 & 0xff));
	for (int i = 0; i < 3 && !r; i++) {
		if (i)
			r = gfs_buf_addc(out, ' ');
		if (!r)
			r = fixspr_fmt(nm, 0, (unsigned)(v >> 16 * i & 0xffff), out);
	}
	return r;
}

static int area_parse(const struct tngs_names *nm, const char *s, uint64_t *v)
{
	char copy[128], *rest = copy, *w[5];
	int n = 0;
	uint64_t x;

	if (strlen(s) >= sizeof copy)
		return -EINVAL;
	strcpy(copy, s);
	while (n < 5 && (w[n] = gfs_next_word(&rest, " \t")))
		n++;
	if (gfs_next_word(&rest, " \t"))
		return -EINVAL;
	*v = 0;
	if (n == 5 && !strcmp(w[0], "rect")) {
		for (int i = 0; i < 4; i++) {
			if (num(w[i + 1], 0, 255, &x))
				return -EINVAL;
			*v |= x << 8 * i;
		}
		return 0;
	}
	if (n != 3)
		return -EINVAL;
	for (int i = 0; i < 3; i++) {
		if (fixspr_parse(nm, 0, w[i], &x))
			return -EINVAL;
		*v |= x << 16 * i;
	}
	return 0;
}

/* "QUANTITY SPRITE", or none (no ingredient: quantity 0, sprite FFFF). */
static int ingr_fmt(const struct tngs_names *nm, uint32_t v, struct gfs_buf *out)
{
	unsigned q = v & 0xffff, s = v >> 16;
	int r;

	if (s == NONE16 && q == 0)
		return gfs_buf_adds(out, "none");
	r = gfs_buf_printf(out, "%u ", q);
	return r ? r : fixspr_fmt(nm, TNGS_OBJ_CAT, s, out);
}

static int ingr_parse(const struct tngs_names *nm, const char *s, uint64_t *v)
{
	const char *sp = strpbrk(s, " \t");
	char qb[8];
	uint64_t q, spr;

	if (!strcmp(s, "none")) {
		*v = (uint64_t)NONE16 << 16;
		return 0;
	}
	if (!sp || (size_t)(sp - s) >= sizeof qb)
		return -EINVAL;
	memcpy(qb, s, (size_t)(sp - s));
	qb[sp - s] = '\0';
	while (*sp == ' ' || *sp == '\t')
		sp++;
	if (num(qb, 0, NONE16, &q) || fixspr_parse(nm, TNGS_OBJ_CAT, sp, &spr))
		return -EINVAL;
	*v = q | spr << 16;
	return 0;
}

int tng_ref_fmt(void *ctx, int ref, uint64_t v, struct gfs_buf *out)
{
	const struct tngs_names *nm = ctx;

	if (ref & RR_NAME)
		return name_fmt(nm, (enum tngs_ref)(ref & 0xff), (uint32_t)v, out);
	switch (ref) {
	case RR_TEXT:
		return text_fmt(nm, (uint32_t)v, out);
	case RR_PORTRAIT:
		if ((v & 0xff) == PORTRAIT_CAT && v >> 8 >= PLAYER_PORTRAIT && v >> 8 < NONE16)
			return gfs_buf_printf(out, "player/%u", (unsigned)(v >> 8) - PLAYER_PORTRAIT);
		/* fall through */
	case RR_SPR:
		return v == NONE24 ? gfs_buf_adds(out, "-1") :
		       spr_fmt(nm, (unsigned)(v & 0xff), (unsigned)(v >> 8), out);
	case RR_UISPR: case RR_TILESPR: case RR_OBJSPR:
		return fixspr_fmt(nm, fixcat(ref), (unsigned)v, out);
	case RR_REL:
		if (v < sizeof relname / sizeof relname[0])
			return gfs_buf_adds(out, relname[v]);
		return v == REL_SET ? gfs_buf_adds(out, "set") : gfs_buf_add_dec(out, v);
	case RR_COND:
		return cond_fmt(nm, (uint32_t)v, out);
	case RR_AREA:
		return area_fmt(nm, v, out);
	case RR_INGR:
		return ingr_fmt(nm, (uint32_t)v, out);
	case RR_CREDIT:
		return v && strchr(CREDIT_CATS, (int)v) ? gfs_buf_addc(out, (uint8_t)v) :
		       gfs_buf_printf(out, "#%u", (unsigned)v);
	case RR_AUTHOR:
		return v ? name_fmt(nm, TNGS_STRING, (uint32_t)v, out) : gfs_buf_adds(out, "#0");
	default:
		return gfs_buf_add_dec(out, v);
	}
}

int tng_ref_parse(void *ctx, int ref, const char *s, uint64_t *v)
{
	const struct tngs_names *nm = ctx;
	unsigned cat, idx;
	uint64_t x;

	if (ref & RR_NAME)
		return name_parse(nm, (enum tngs_ref)(ref & 0xff), s, v);
	switch (ref) {
	case RR_TEXT:
		return text_parse(nm, s, v);
	case RR_PORTRAIT:
		if (!strncmp(s, "player/", 7)) {
			if (num(s + 7, 0, NONE16 - 1 - PLAYER_PORTRAIT, &x))
				return -EINVAL;
			*v = PORTRAIT_CAT | (x + PLAYER_PORTRAIT) << 8;
			return 0;
		}
		/* fall through */
	case RR_SPR:
		if (!strcmp(s, "-1")) {
			*v = NONE24;
			return 0;
		}
		if (spr_parse(nm, s, &cat, &idx))
			return -EINVAL;
		*v = cat | (uint64_t)idx << 8;
		return 0;
	case RR_UISPR: case RR_TILESPR: case RR_OBJSPR:
		return fixspr_parse(nm, fixcat(ref), s, v);
	case RR_REL:
		for (unsigned i = 0; i < sizeof relname / sizeof relname[0]; i++)
			if (!strcmp(s, relname[i])) {
				*v = i;
				return 0;
			}
		if (!strcmp(s, "set")) {
			*v = REL_SET;
			return 0;
		}
		return num(s, 0, 255, v);
	case RR_COND:
		return cond_parse(nm, s, v);
	case RR_AREA:
		return area_parse(nm, s, v);
	case RR_INGR:
		return ingr_parse(nm, s, v);
	case RR_CREDIT:
		if (*s == '#')
			return num(s + 1, 0, 255, v);
		if (!s[0] || s[1] || !strchr(CREDIT_CATS, s[0]))
			return -EINVAL;
		*v = (uint8_t)s[0];
		return 0;
	case RR_AUTHOR:
		return name_parse(nm, TNGS_STRING, s, v);
	default:
		return -EINVAL;
	}
}
