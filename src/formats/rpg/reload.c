/*
 * RELOAD documents <-> lossless text (see reload.h for the text form).
 *
 * Binary layout (specs/ohrrpgce-lumps.md section 1):
 *   "RELD", version byte 1, int32 header size 13, int32 string table offset
 *   root node at 13, in pre-order: int32 content size (bytes after this
 *   field to the end of the last descendant), VLI name index, type byte
 *   (0 null, 1..4 int8..int64, 5 double, 6 VLI length + bytes), VLI child
 *   count, children
 *   string table: VLI count, then (VLI length, bytes); index 0 = "" implicit
 * VLI: first byte bit 7 more, bit 6 negative, bits 0-5 low bits; further
 * bytes bit 7 more, 7 bits each; a negative v is stored as ~v.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_driver.h"
#include "gfs_strmap.h"
#include "reload.h"

#define RELD_HDR 13
#define RELD_MAX_NAMES 1000000

static int reld_fail(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int reld_fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

int reld_magic(const uint8_t *p, size_t len)
{
	return len >= RELD_HDR && !memcmp(p, RELD_MAGIC, 4);
}

/* ---- VLI -------------------------------------------------------------------- */

static size_t vli_len(int64_t v)
{
	uint64_t m = v < 0 ? ~(uint64_t)v : (uint64_t)v;
	size_t n = 1;

	for (m >>= 6; m; m >>= 7)
		n++;
	return n;
}

static int vli_put(struct gfs_buf *b, int64_t v)
{
	uint64_t m = v < 0 ? ~(uint64_t)v : (uint64_t)v;
	uint8_t c = (uint8_t)(m & 0x3f) | (v < 0 ? 0x40 : 0);
	int r;

	m >>= 6;
	for (;;) {
		if (m)
			c |= 0x80;
		if ((r = gfs_buf_addc(b, c)))
			return r;
		if (!m)
			return 0;
		c = (uint8_t)(m & 0x7f);
		m >>= 7;
	}
}

/* 0, or -1 when cut off / too long / not minimal */
static int vli_get(const uint8_t *p, size_t end, size_t *pos, int64_t *out)
{
	size_t start = *pos;
	uint8_t c;
	uint64_t m;
	unsigned shift = 6;
	int neg;

	if (*pos >= end)
		return -1;
	c = p[(*pos)++];
	neg = c & 0x40;
	m = c & 0x3f;
	while (c & 0x80) {
		if (*pos >= end || shift > 62)
			return -1;
		c = p[(*pos)++];
		if (shift == 62 && (c & 0x7e))
			return -1;
		m |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	}
	if (m > INT64_MAX)
		return -1;
	*out = neg ? (int64_t)~m : (int64_t)m;
	return vli_len(*out) == *pos - start ? 0 : -1;
}

/* ---- binary -> text ------------------------------------------------------- */

struct rname {
	const uint8_t *s;
	size_t len;
	int bare;	/* usable as a bare node name: identifier-like and unique */
};

struct rdec {
	const uint8_t *p;
	size_t len;
	struct rname *names;
	size_t nnames;		/* including the implicit 0 */
	struct gfs_buf *out;
	char *err;
	size_t errlen;
	int (*visit)(void *ctx, const struct reld_node *n);
	void *ctx;
};

static int ident_start(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '@' || c == '$';
}

static int ident_char(int c)
{
	return ident_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

static int is_ident(const uint8_t *s, size_t len)
{
	if (!len || !ident_start(s[0]))
		return 0;
	for (size_t i = 1; i < len; i++)
		if (!ident_char(s[i]))
			return 0;
	return 1;
}

static int put_quoted(struct gfs_buf *b, const uint8_t *s, size_t len)
{
	int r = gfs_buf_addc(b, '"');

	for (size_t i = 0; !r && i < len; i++) {
		uint8_t c = s[i];

		if (c == '\\' || c == '"')
			r = gfs_buf_addc(b, '\\') || gfs_buf_addc(b, c) ? -ENOMEM : 0;
		else if (c == '\n')
			r = gfs_buf_adds(b, "\\n");
		else if (c == '\t')
			r = gfs_buf_adds(b, "\\t");
		else if (c >= 0x20 && c < 0x7f)
			r = gfs_buf_addc(b, c);
		else
			r = gfs_buf_printf(b, "\\x%02x", c);
	}
	return r ? r : gfs_buf_addc(b, '"');
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int put_base64(struct gfs_buf *b, const uint8_t *s, size_t len)
{
	int r = gfs_buf_adds(b, "base64:");

	for (size_t i = 0; !r && i < len; i += 3) {
		uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < len ? (uint32_t)s[i + 1] << 8 : 0) |
			     (i + 2 < len ? s[i + 2] : 0);
		char q[4] = { b64[v >> 18], b64[v >> 12 & 63], i + 1 < len ? b64[v >> 6 & 63] : '=',
			      i + 2 < len ? b64[v & 63] : '=' };

		r = gfs_buf_add(b, q, 4);
	}
	return r;
}

static int binary_heavy(const uint8_t *s, size_t len)
{
	size_t odd = 0;

	if (len <= 64)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] >= 0x7f)
			odd++;
	return odd * 4 > len;
}

static int put_double(struct gfs_buf *b, uint64_t bits)
{
	double d;
	char s[64];

	memcpy(&d, &bits, sizeof(d));
	if (isfinite(d)) {
		for (int prec = 1; prec <= 17; prec++) {
			double back;

			snprintf(s, sizeof(s), "%.*g", prec, d);
			back = strtod(s, NULL);
			if (!memcmp(&back, &d, sizeof(d)))
				return gfs_buf_printf(b, "float:%s", s);
		}
	}
	return gfs_buf_printf(b, "float:0x%016llx", (unsigned long long)bits);
}

static int put_name(struct rdec *d, int64_t idx)
{
	if (idx > 0 && d->names[idx].bare)
		return gfs_buf_add(d->out, d->names[idx].s, d->names[idx].len);
	return gfs_buf_printf(d->out, "#%lld", (long long)idx);
}

static int dec_node(struct rdec *d, size_t *pos, size_t end, unsigned depth)
{
	size_t start = *pos, body;
	uint32_t size;
	int64_t name, nkids;
	uint8_t type;
	struct reld_node node = { 0 };
	int r = 0;

	if (depth >= RELD_MAX_DEPTH)
		return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: nodes nested deeper than %d", start,
				 RELD_MAX_DEPTH);
	if (end - *pos < 4)
		return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: node cut off", start);
	size = (uint32_t)gfs_le32(d->p + *pos);
	*pos += 4;
	body = *pos;
	if (size > end - body)
		return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: node size %u runs past its parent",
				 start, size);
	end = body + size;
	if (vli_get(d->p, end, pos, &name) || name < 0 || (uint64_t)name >= d->nnames)
		return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: bad node name index", body);
	if (*pos >= end)
		return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: node type cut off", *pos);
	type = d->p[(*pos)++];
	node.depth = depth;
	node.name = d->names[name].s;
	node.namelen = d->names[name].len;
	node.type = type;
	if (d->out) {
		for (unsigned i = 0; !r && i < depth; i++)
			r = gfs_buf_adds(d->out, "  ");
		if (!r)
			r = put_name(d, name);
		if (r)
			return r;
	}
	if (type >= 1 && type <= 4) {
		static const unsigned width[] = { 0, 1, 2, 4, 8 };
		unsigned w = width[type];
		int64_t v;
		unsigned want;

		if (end - *pos < w)
			return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: integer cut off", *pos);
		v = (int64_t)gfs_le(d->p + *pos, w);
		if (w < 8 && (v & ((int64_t)1 << (w * 8 - 1))))
			v -= (int64_t)1 << (w * 8);
		*pos += w;
		node.i = v;
		want = v >= INT8_MIN && v <= INT8_MAX ? 1 : v >= INT16_MIN && v <= INT16_MAX ? 2 :
		       v >= INT32_MIN && v <= INT32_MAX ? 4 : 8;
		if (d->out) {
			r = gfs_buf_printf(d->out, " = %lld", (long long)v);
			if (!r && want != w)
				r = gfs_buf_printf(d->out, ":i%u", w * 8);
		}
	} else if (type == 5) {
		if (end - *pos < 8)
			return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: double cut off", *pos);
		if (d->out && !(r = gfs_buf_adds(d->out, " = ")))
			r = put_double(d->out, gfs_le64(d->p + *pos));
		*pos += 8;
	} else if (type == 6) {
		int64_t n;

		if (vli_get(d->p, end, pos, &n) || n < 0 || (uint64_t)n > end - *pos)
			return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: bad string length", *pos);
		if (d->out && !(r = gfs_buf_adds(d->out, " = ")))
			r = binary_heavy(d->p + *pos, (size_t)n) ? put_base64(d->out, d->p + *pos, (size_t)n)
								  : put_quoted(d->out, d->p + *pos, (size_t)n);
		node.off = *pos;
		node.len = (size_t)n;
		*pos += (size_t)n;
	} else if (type != 0) {
		return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: unknown node type %u", *pos - 1, type);
	}
	if (r || (d->out && (r = gfs_buf_addc(d->out, '\n'))) || (d->visit && (r = d->visit(d->ctx, &node))))
		return r;
	if (vli_get(d->p, end, pos, &nkids) || nkids < 0 || (uint64_t)nkids > end - *pos)
		return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: bad child count", *pos);
	for (int64_t i = 0; i < nkids; i++)
		if ((r = dec_node(d, pos, end, depth + 1)))
			return r;
	if (*pos != end)
		return reld_fail(d->err, d->errlen, -EBADMSG, "at 0x%zx: node size %u, its content %zu",
				 start, size, *pos - body);
	return 0;
}

static int reld_decode(const uint8_t *bin, size_t len, struct gfs_buf *out, int (*visit)(void *, const struct reld_node *),
		       void *ctx, char *err, size_t errlen)
{
	struct rdec d = { bin, len, NULL, 0, out, err, errlen, visit, ctx };
	struct gfs_strmap seen_names = GFS_STRMAP_INIT;
	size_t pos, tab;
	int64_t count;
	int r;

	if (!reld_magic(bin, len))
		return reld_fail(err, errlen, -EBADMSG, "at 0x0: not a RELOAD document (no RELD header)");
	if (bin[4] != 1)
		return reld_fail(err, errlen, -EBADMSG, "at 0x4: RELOAD version %u, want 1", bin[4]);
	if (gfs_le32(bin + 5) != RELD_HDR)
		return reld_fail(err, errlen, -EBADMSG, "at 0x5: header size %u, want 13", gfs_le32(bin + 5));
	tab = gfs_le32(bin + 9);
	if (tab < RELD_HDR || tab > len)
		return reld_fail(err, errlen, -EBADMSG, "at 0x9: string table offset %zu outside the file", tab);
	pos = tab;
	if (vli_get(bin, len, &pos, &count) || count < 0 || (uint64_t)count > len - pos ||
	    count >= RELD_MAX_NAMES)
		return reld_fail(err, errlen, -EBADMSG, "at 0x%zx: bad string table count", tab);
	d.nnames = (size_t)count + 1;
	d.names = calloc(d.nnames, sizeof(*d.names));
	if (!d.names)
		return -ENOMEM;
	for (size_t i = 1; i < d.nnames; i++) {
		int64_t n;
		size_t at = pos;

		if (vli_get(bin, len, &pos, &n) || n < 0 || (uint64_t)n > len - pos) {
			r = reld_fail(err, errlen, -EBADMSG, "at 0x%zx: bad string table entry %zu", at, i);
			goto out;
		}
		d.names[i].s = bin + pos;
		d.names[i].len = (size_t)n;
		pos += (size_t)n;
	}
	if (pos != len) {
		r = reld_fail(err, errlen, -EBADMSG, "at 0x%zx: %zu bytes after the string table", pos, len - pos);
		goto out;
	}
	/* bare names: identifier-like and not repeated (a map counts each
	   name, so a table of N names costs O(N), not O(N^2)) */
	for (size_t i = 1; i < d.nnames; i++) {
		size_t *seen;

		if (!(d.names[i].bare = is_ident(d.names[i].s, d.names[i].len)))
			continue;
		if ((r = gfs_strmap_put(&seen_names, d.names[i].s, d.names[i].len, &seen)) < 0)
			goto out;
		++*seen;
	}
	for (size_t i = 1; i < d.nnames; i++) {
		size_t seen = 0;

		if (d.names[i].bare && gfs_strmap_get(&seen_names, d.names[i].s, d.names[i].len, &seen) &&
		    seen > 1)
			d.names[i].bare = 0;
	}
	r = 0;
	if (out) {
		r = gfs_buf_adds(out, "RELOAD 1\nnames\n");
		for (size_t i = 1; !r && i < d.nnames; i++) {
			r = gfs_buf_printf(out, "  %zu ", i);
			if (!r)
				r = is_ident(d.names[i].s, d.names[i].len) ?
				    gfs_buf_add(out, d.names[i].s, d.names[i].len) :
				    put_quoted(out, d.names[i].s, d.names[i].len);
			if (!r)
				r = gfs_buf_addc(out, '\n');
		}
		if (!r)
			r = gfs_buf_adds(out, "tree\n");
		if (r)
			goto out;
	}
	pos = RELD_HDR;
	if ((r = dec_node(&d, &pos, tab, 0)))
		goto out;
	if (pos != tab)
		r = reld_fail(err, errlen, -EBADMSG, "at 0x%zx: %zu bytes between the root node and the string table",
			      pos, tab - pos);
	else if (out)
		r = gfs_buf_adds(out, RELD_END "\n");
out:
	gfs_strmap_release(&seen_names);
	free(d.names);
	return r;
}

int reld_to_text(const uint8_t *bin, size_t len, struct gfs_buf *out, char *err, size_t errlen)
{
	return reld_decode(bin, len, out, NULL, NULL, err, errlen);
}

int reld_walk(const uint8_t *bin, size_t len, int (*visit)(void *ctx, const struct reld_node *n), void *ctx,
	      char *err, size_t errlen)
{
	return reld_decode(bin, len, NULL, visit, ctx, err, errlen);
}

/* ---- text -> binary ------------------------------------------------------- */

struct enode {
	unsigned depth;
	int64_t name;
	uint8_t type;		/* 0..6 */
	int64_t ival;
	uint64_t fbits;
	size_t soff, slen;	/* string bytes in the strings buffer */
};

struct renc {
	struct enode *nodes;
	size_t n, cap;
	struct gfs_buf strs;	/* string values, unescaped */
	struct gfs_buf tab;	/* table entries, unescaped, back to back */
	size_t *toff, *tlen;	/* per table index (1-based; [0] unused) */
	size_t ntab, tcap;
	struct gfs_strmap byname;	/* name -> its index, TAB_TWICE when listed twice */
	char *err;
	size_t errlen;
};

#define TAB_TWICE SIZE_MAX

static int tab_add(struct renc *e, const uint8_t *s, size_t len)
{
	size_t *idx;
	int r;

	if (e->ntab + 1 >= e->tcap) {
		size_t cap = e->tcap ? e->tcap * 2 : 64;
		size_t *a = realloc(e->toff, cap * sizeof(*a)), *b;

		if (!a)
			return -ENOMEM;
		e->toff = a;
		b = realloc(e->tlen, cap * sizeof(*b));
		if (!b)
			return -ENOMEM;
		e->tlen = b;
		e->tcap = cap;
	}
	if ((r = gfs_strmap_put(&e->byname, s, len, &idx)) < 0)
		return r;
	e->ntab++;
	*idx = r ? e->ntab : TAB_TWICE;
	e->toff[e->ntab] = e->tab.len;
	e->tlen[e->ntab] = len;
	return len ? gfs_buf_add(&e->tab, s, len) : 0;
}

/* index of a name in the table, 0 when absent, -1 when listed twice */
static int64_t tab_find(struct renc *e, const uint8_t *s, size_t len)
{
	size_t idx;

	if (!gfs_strmap_get(&e->byname, s, len, &idx))
		return 0;
	return idx == TAB_TWICE ? -1 : (int64_t)idx;
}

/* Unescape a quoted string at *p (pointing at the opening quote) into b. */
static int parse_quoted(const char **p, const char *end, struct gfs_buf *b)
{
	const char *s = *p + 1;

	while (s < end && *s != '"') {
		uint8_t c = (uint8_t)*s++;

		if (c == '\\') {
			if (s >= end)
				return -EINVAL;
			c = (uint8_t)*s++;
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c == 'x') {
				int h, l;

				if (end - s < 2 || (h = gfs_hex_digit(s[0])) < 0 || (l = gfs_hex_digit(s[1])) < 0)
					return -EINVAL;
				c = (uint8_t)(h << 4 | l);
				s += 2;
			} else if (c != '\\' && c != '"')
				return -EINVAL;
		} else if (c < 0x20 || c >= 0x7f) {
			return -EINVAL;	/* bytes outside printable ASCII are written \xHH */
		}
		if (gfs_buf_addc(b, c))
			return -ENOMEM;
	}
	if (s >= end)
		return -EINVAL;
	*p = s + 1;
	return 0;
}

static int b64_val(int c)
{
	const char *q = c ? strchr(b64, c) : NULL;

	return q ? (int)(q - b64) : -1;
}

static int parse_base64(const char *s, const char *end, struct gfs_buf *b)
{
	if ((end - s) % 4)
		return -EINVAL;
	for (; s < end; s += 4) {
		int v[4];
		int pad = 0;

		for (int i = 0; i < 4; i++) {
			if (s[i] == '=' && i >= 2 && (i == 3 || s[3] == '=') && s + 4 == end) {
				v[i] = 0;
				pad++;
			} else if ((v[i] = b64_val((unsigned char)s[i])) < 0) {
				return -EINVAL;
			}
		}
		uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
		uint8_t out[3] = { (uint8_t)(w >> 16), (uint8_t)(w >> 8), (uint8_t)w };

		if (gfs_buf_add(b, out, (size_t)(3 - pad)))
			return -ENOMEM;
	}
	return 0;
}

static int parse_value(struct renc *e, struct enode *n, const char *s, const char *end, unsigned line)
{
	if (*s == '"') {
		const char *p = s;
		size_t before = e->strs.len;
		int r = parse_quoted(&p, end, &e->strs);

		if (r == -ENOMEM)
			return r;
		if (r || p != end)
			return reld_fail(e->err, e->errlen, -EINVAL, "line %u: bad string (\"...\" with \\\\ \\\" \\n \\t \\xHH)", line);
		n->type = 6;
		n->soff = before;
		n->slen = e->strs.len - before;
		return 0;
	}
	if (!strncmp(s, "base64:", 7)) {
		size_t before = e->strs.len;
		int r = parse_base64(s + 7, end, &e->strs);

		if (r == -ENOMEM)
			return r;
		if (r)
			return reld_fail(e->err, e->errlen, -EINVAL, "line %u: bad base64 string", line);
		n->type = 6;
		n->soff = before;
		n->slen = e->strs.len - before;
		return 0;
	}
	char tok[80];
	size_t tl = (size_t)(end - s);

	if (tl == 0 || tl >= sizeof(tok))
		return reld_fail(e->err, e->errlen, -EINVAL, "line %u: bad value", line);
	memcpy(tok, s, tl);
	tok[tl] = 0;
	if (!strncmp(tok, "float:", 6)) {
		char *ep;
		double d;

		n->type = 5;
		if (!strncmp(tok + 6, "0x", 2) && tl == 6 + 2 + 16) {
			n->fbits = 0;
			for (int i = 0; i < 16; i++) {
				int h = gfs_hex_digit(tok[8 + i]);

				if (h < 0)
					return reld_fail(e->err, e->errlen, -EINVAL, "line %u: bad float bits", line);
				n->fbits = n->fbits << 4 | (uint64_t)h;
			}
			return 0;
		}
		errno = 0;
		d = strtod(tok + 6, &ep);
		if (ep == tok + 6 || *ep || (errno == ERANGE && isinf(d)))
			return reld_fail(e->err, e->errlen, -EINVAL, "line %u: bad float %s", line, tok + 6);
		memcpy(&n->fbits, &d, sizeof(d));
		return 0;
	}
	{
		char *ep;
		long long v;
		unsigned w = 0, minw;

		errno = 0;
		v = strtoll(tok, &ep, 10);
		if (ep == tok || errno || !((tok[0] >= '0' && tok[0] <= '9') || tok[0] == '-'))
			return reld_fail(e->err, e->errlen, -EINVAL, "line %u: bad value %s (want an integer, "
					 "float:X, \"string\" or base64:X)", line, tok);
		if (*ep == ':') {
			if (!strcmp(ep, ":i8"))
				w = 1;
			else if (!strcmp(ep, ":i16"))
				w = 2;
			else if (!strcmp(ep, ":i32"))
				w = 4;
			else if (!strcmp(ep, ":i64"))
				w = 8;
			else
				return reld_fail(e->err, e->errlen, -EINVAL, "line %u: bad integer width %s", line, ep);
		} else if (*ep) {
			return reld_fail(e->err, e->errlen, -EINVAL, "line %u: bad integer %s", line, tok);
		}
		minw = v >= INT8_MIN && v <= INT8_MAX ? 1 : v >= INT16_MIN && v <= INT16_MAX ? 2 :
		       v >= INT32_MIN && v <= INT32_MAX ? 4 : 8;
		if (!w)
			w = minw;
		else if (w < minw)
			return reld_fail(e->err, e->errlen, -EINVAL, "line %u: %lld does not fit %u bits", line, v, w * 8);
		n->type = w == 1 ? 1 : w == 2 ? 2 : w == 4 ? 3 : 4;
		n->ival = v;
		return 0;
	}
}

static int parse_node_line(struct renc *e, const char *s, const char *end, unsigned line)
{
	struct enode *n;
	unsigned sp = 0;
	const char *nm;
	int r;

	while (s < end && *s == ' ') {
		s++;
		sp++;
	}
	if (sp % 2)
		return reld_fail(e->err, e->errlen, -EINVAL, "line %u: indentation of %u spaces (two a level)", line, sp);
	if (e->n == 0 && sp)
		return reld_fail(e->err, e->errlen, -EINVAL, "line %u: the root node is not indented", line);
	if (e->n && sp / 2 > e->nodes[e->n - 1].depth + 1)
		return reld_fail(e->err, e->errlen, -EINVAL, "line %u: indented more than one level below the node above", line);
	if (e->n && sp == 0)
		return reld_fail(e->err, e->errlen, -EINVAL, "line %u: a second root node (one tree a document)", line);
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 256;
		struct enode *p = realloc(e->nodes, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		e->nodes = p;
		e->cap = cap;
	}
	n = &e->nodes[e->n];
	memset(n, 0, sizeof(*n));
	n->depth = sp / 2;
	if (n->depth >= RELD_MAX_DEPTH)
		return reld_fail(e->err, e->errlen, -EINVAL, "line %u: nested deeper than %d", line, RELD_MAX_DEPTH);
	nm = s;
	if (s < end && *s == '"') {
		struct gfs_buf b = GFS_BUF_INIT;

		r = parse_quoted(&s, end, &b);
		if (!r) {
			n->name = tab_find(e, b.data ? b.data : (const uint8_t *)"", b.len);
			if (n->name == 0)
				r = tab_add(e, b.data ? b.data : (const uint8_t *)"", b.len), n->name = (int64_t)e->ntab;
		}
		gfs_buf_release(&b);
		if (r == -ENOMEM)
			return r;
		if (r)
			return reld_fail(e->err, e->errlen, -EINVAL, "line %u: bad quoted node name", line);
		if (n->name < 0)
			return reld_fail(e->err, e->errlen, -EINVAL, "line %u: %.*s is listed twice in names (use #N)",
					 line, (int)(s - nm), nm);
	} else {
		while (s < end && *s != ' ')
			s++;
		if (s == nm)
			return reld_fail(e->err, e->errlen, -EINVAL, "line %u: no node name", line);
		if (*nm == '#') {
			char *ep;
			unsigned long long v;

			errno = 0;
			v = strtoull(nm + 1, &ep, 10);
			if (ep != s || ep == nm + 1 || errno || v > e->ntab)
				return reld_fail(e->err, e->errlen, -EINVAL, "line %u: %.*s: no such name index (%zu names)",
						 line, (int)(s - nm), nm, e->ntab);
			n->name = (int64_t)v;
		} else {
			if (!is_ident((const uint8_t *)nm, (size_t)(s - nm)))
				return reld_fail(e->err, e->errlen, -EINVAL, "line %u: node name %.*s is not an identifier "
						 "(quote it, or use #N)", line, (int)(s - nm), nm);
			n->name = tab_find(e, (const uint8_t *)nm, (size_t)(s - nm));
			if (n->name < 0)
				return reld_fail(e->err, e->errlen, -EINVAL, "line %u: %.*s is listed twice in names (use #N)",
						 line, (int)(s - nm), nm);
			if (n->name == 0) {
				if ((r = tab_add(e, (const uint8_t *)nm, (size_t)(s - nm))))
					return r;
				n->name = (int64_t)e->ntab;
			}
		}
	}
	e->n++;
	if (s == end)
		return 0;	/* null */
	if (end - s < 4 || memcmp(s, " = ", 3))
		return reld_fail(e->err, e->errlen, -EINVAL, "line %u: want NAME or NAME = VALUE", line);
	return parse_value(e, n, s + 3, end, line);
}

static int parse_table_line(struct renc *e, const char *s, const char *end, unsigned line)
{
	char *ep;
	unsigned long long idx;

	if (end - s < 4 || s[0] != ' ' || s[1] != ' ')
		return reld_fail(e->err, e->errlen, -EINVAL, "line %u: want \"  N NAME\" in names", line);
	s += 2;
	errno = 0;
	idx = strtoull(s, &ep, 10);
	if (ep == s || errno || idx != e->ntab + 1 || ep >= end || *ep != ' ')
		return reld_fail(e->err, e->errlen, -EINVAL, "line %u: names must be numbered 1, 2, ... in order (want %zu)",
				 line, e->ntab + 1);
	s = ep + 1;
	if (s < end && *s == '"') {
		struct gfs_buf b = GFS_BUF_INIT;
		int r = parse_quoted(&s, end, &b);

		if (!r)
			r = s == end ? tab_add(e, b.data ? b.data : (const uint8_t *)"", b.len) : -EINVAL;
		gfs_buf_release(&b);
		if (r == -EINVAL)
			return reld_fail(e->err, e->errlen, -EINVAL, "line %u: bad quoted name", line);
		return r;
	}
	if (!is_ident((const uint8_t *)s, (size_t)(end - s)))
		return reld_fail(e->err, e->errlen, -EINVAL, "line %u: name is not an identifier (quote it)", line);
	return tab_add(e, (const uint8_t *)s, (size_t)(end - s));
}

static int enc_node(struct renc *e, size_t *i, struct gfs_buf *out)
{
	struct enode *n = &e->nodes[*i];
	size_t szat = out->len, kids = 0;
	int r;

	if ((r = gfs_buf_add_u32le(out, 0)) || (r = vli_put(out, n->name)) || (r = gfs_buf_addc(out, n->type)))
		return r;
	switch (n->type) {
	case 1: r = gfs_buf_addc(out, (uint8_t)n->ival); break;
	case 2: r = gfs_buf_add_u16le(out, (uint16_t)n->ival); break;
	case 3: r = gfs_buf_add_u32le(out, (uint32_t)n->ival); break;
	case 4: r = gfs_buf_add_u64le(out, (uint64_t)n->ival); break;
	case 5: r = gfs_buf_add_u64le(out, n->fbits); break;
	case 6:
		r = vli_put(out, (int64_t)n->slen);
		if (!r && n->slen)
			r = gfs_buf_add(out, e->strs.data + n->soff, n->slen);
		break;
	}
	if (r)
		return r;
	for (size_t j = *i + 1; j < e->n && e->nodes[j].depth > n->depth; j++)
		if (e->nodes[j].depth == n->depth + 1)
			kids++;
	if ((r = vli_put(out, (int64_t)kids)))
		return r;
	for ((*i)++; *i < e->n && e->nodes[*i].depth > n->depth;)
		if ((r = enc_node(e, i, out)))
			return r;
	if (out->len - szat - 4 > UINT32_MAX)
		return reld_fail(e->err, e->errlen, -EINVAL, "document too large");
	gfs_put_u32le(out->data + szat, (uint32_t)(out->len - szat - 4));
	return 0;
}

/*
 * Has p..end an end line (the parser then says if text follows it)?
 * *lines gets the number of lines.
 */
static int reld_ended(const char *p, const char *end, unsigned *lines)
{
	size_t n = strlen(RELD_END);
	int found = 0;

	*lines = 0;
	for (const char *b = p, *e; b < end; b = e + 1) {
		if (!(e = memchr(b, '\n', (size_t)(end - b))))
			e = end;
		++*lines;
		if ((size_t)(e - b) >= n && !memcmp(b, RELD_END, n) && (e - b == (ptrdiff_t)n || b[n] == '\r'))
			found = 1;
	}
	return found;
}

int reld_from_text(const uint8_t *txt, size_t len, struct gfs_buf *out, char *err, size_t errlen)
{
	struct renc e = { .err = err, .errlen = errlen, .byname = GFS_STRMAP_INIT };
	const char *p = (const char *)txt, *end = p + len;
	unsigned line = 0;
	int state = 0;	/* 0 header, 3 "names", 1 names, 2 tree, 4 after the end line */
	size_t base = out->len, i = 0;
	int r = 0;

	gfs_buf_init(&e.strs);
	gfs_buf_init(&e.tab);
	if (memchr(txt, 0, len)) {
		r = reld_fail(err, errlen, -EINVAL, "a NUL byte in the text");
		goto out;
	}
	if (!reld_ended(p, end, &line)) {	/* said first: what a cut shows before it is only its symptom */
		r = reld_fail(err, errlen, -EINVAL, "line %u: no \"" RELD_END "\" line: the file looks cut short "
			      "(the text ends with a line \"" RELD_END "\")", line);
		goto out;
	}
	line = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;

		line++;
		if (le > p && le[-1] == '\r')
			le--;
		if (le == p) {
			/* blank lines are allowed anywhere */
		} else if (state == 0) {
			if (le - p != 8 || memcmp(p, "RELOAD 1", 8)) {
				r = reld_fail(err, errlen, -EINVAL, "line %u: want \"RELOAD 1\"", line);
				goto out;
			}
			state = 3;
		} else if (state == 3) {
			if (le - p != 5 || memcmp(p, "names", 5)) {
				r = reld_fail(err, errlen, -EINVAL, "line %u: want \"names\"", line);
				goto out;
			}
			state = 1;
		} else if (state == 1 && le - p == 4 && !memcmp(p, "tree", 4)) {
			state = 2;
		} else if (state == 1) {
			if ((r = parse_table_line(&e, p, le, line)))
				goto out;
		} else if (state == 4) {
			r = reld_fail(err, errlen, -EINVAL, "line %u: text after the \"" RELD_END "\" line", line);
			goto out;
		} else if (e.n && le - p == (ptrdiff_t)strlen(RELD_END) && !memcmp(p, RELD_END, strlen(RELD_END))) {
			state = 4;	/* (a root named "end" is the first node, not this) */
		} else if ((r = parse_node_line(&e, p, le, line))) {
			goto out;
		}
		p = nl ? nl + 1 : end;
	}
	if ((state != 2 && state != 4) || e.n == 0) {
		r = reld_fail(err, errlen, -EINVAL, "line %u: no tree (want RELOAD 1, names, tree, then the nodes)", line);
		goto out;
	}
	if (state != 4) {
		r = reld_fail(err, errlen, -EINVAL, "line %u: no \"" RELD_END "\" line: the file looks cut short "
			      "(the text ends with a line \"" RELD_END "\")", line);
		goto out;
	}
	if ((r = gfs_buf_add(out, RELD_MAGIC, 4)) || (r = gfs_buf_addc(out, 1)) ||
	    (r = gfs_buf_add_u32le(out, RELD_HDR)) || (r = gfs_buf_add_u32le(out, 0)))
		goto out;
	if ((r = enc_node(&e, &i, out)))
		goto out;
	if (out->len - base > UINT32_MAX) {
		r = reld_fail(err, errlen, -EINVAL, "document too large");
		goto out;
	}
	gfs_put_u32le(out->data + base + 9, (uint32_t)(out->len - base));
	if ((r = vli_put(out, (int64_t)e.ntab)))
		goto out;
	for (size_t t = 1; !r && t <= e.ntab; t++) {
		r = vli_put(out, (int64_t)e.tlen[t]);
		if (!r && e.tlen[t])
			r = gfs_buf_add(out, e.tab.data + e.toff[t], e.tlen[t]);
	}
out:
	if (r)
		gfs_buf_set_len(out, base);
	free(e.nodes);
	free(e.toff);
	free(e.tlen);
	gfs_buf_release(&e.strs);
	gfs_buf_release(&e.tab);
	gfs_strmap_release(&e.byname);
	return r;
}
