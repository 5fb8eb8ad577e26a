/* The record codec: tables of fields to INI and back; see gfs_record.h. */
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "gamefs.h"
#include "gfs_layout.h"


int gfs_text_escape(struct gfs_buf *out, const uint8_t *p, size_t n, int esc_all)
{
	size_t run = 0;		/* start of the bytes that go out as they are */
	int r = 0;

	for (size_t i = 0; i < n && !r; i++) {
		int plain = p[i] != '\n' && p[i] != '\\' &&
			    !(esc_all ? (p[i] < 0x20 || p[i] >= 0x7f) : (p[i] < 0x20 && p[i] != '\t'));

		if (plain)
			continue;
		r = gfs_buf_add(out, p + run, i - run);
		run = i + 1;
		if (r)
			break;
		if (p[i] == '\n')
			r = gfs_buf_adds(out, "\\n");
		else if (p[i] == '\\')
			r = gfs_buf_adds(out, "\\\\");
		else
			r = gfs_buf_printf(out, "\\x%02x", p[i]);
	}
	return r || run >= n ? r : gfs_buf_add(out, p + run, n - run);
}

int gfs_text_unescape(const char *s, size_t n, struct gfs_buf *out)
{
	for (size_t i = 0; i < n; i++) {
		int r;

		if (s[i] != '\\') {
			r = gfs_buf_addc(out, (uint8_t)s[i]);
		} else if (i + 1 < n && s[i + 1] == 'n') {
			r = gfs_buf_addc(out, '\n');
			i++;
		} else if (i + 1 < n && s[i + 1] == '\\') {
			r = gfs_buf_addc(out, '\\');
			i++;
		} else if (i + 3 < n && s[i + 1] == 'x' && gfs_hex_digit(s[i + 2]) >= 0 &&
			   gfs_hex_digit(s[i + 3]) >= 0) {
			r = gfs_buf_addc(out, (uint8_t)(gfs_hex_digit(s[i + 2]) << 4 | gfs_hex_digit(s[i + 3])));
			i += 3;
		} else {
			return -EINVAL;
		}
		if (r)
			return r;
	}
	return 0;
}

/* ---- numbers in place ------------------------------------------------------ */

static unsigned gfs_field_bits(const struct gfs_field *f)
{
	return f->bits ? f->bits : f->width * 8;
}

static uint64_t gfs_field_mask(const struct gfs_field *f)
{
	unsigned b = gfs_field_bits(f);

	return b >= 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1;
}

static void gfs_le_put(uint8_t *p, unsigned width, uint64_t v)
{
	for (unsigned i = 0; i < width; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

uint64_t gfs_field_get(const struct gfs_field *f, const uint8_t *base)
{
	if (f->get)
		return f->get(base);
	return gfs_le(base + f->off, f->width) >> f->shift & gfs_field_mask(f);
}

void gfs_field_set(const struct gfs_field *f, uint8_t *base, uint64_t v)
{
	uint64_t m = gfs_field_mask(f) << f->shift, w;

	if (f->set) {
		f->set(base, v);
		return;
	}
	w = gfs_le(base + f->off, f->width);
	gfs_le_put(base + f->off, f->width, (w & ~m) | (v << f->shift & m));
}

/* The value as a signed number (SINT sign-extended). */
static int64_t gfs_field_num(const struct gfs_field *f, uint64_t v)
{
	unsigned b = gfs_field_bits(f);

	if (f->kind == GFS_FK_SINT && b < 64 && (v >> (b - 1) & 1))
		return (int64_t)(v | ~gfs_field_mask(f));
	return (int64_t)v;
}

static void gfs_field_range(const struct gfs_field *f, int64_t *min, int64_t *max)
{
	unsigned b = gfs_field_bits(f);

	if (f->min || f->max) {
		*min = f->min;
		*max = f->max;
	} else if (f->kind == GFS_FK_SINT) {
		*min = b >= 64 ? INT64_MIN : -((int64_t)1 << (b - 1));
		*max = b >= 64 ? INT64_MAX : ((int64_t)1 << (b - 1)) - 1;
	} else {
		*min = 0;
		*max = b >= 63 ? INT64_MAX : ((int64_t)1 << b) - 1;
	}
}

int64_t gfs_record_count(const struct gfs_field *f, const uint8_t *base)
{
	uint64_t v, m;
	int64_t n;

	if (!f->count_width)
		return f->count_off;
	v = gfs_le(base + f->count_off, f->count_width);
	if (!f->count_bias && !(f->flags & GFS_FF_POSITIVE))
		return v > INT64_MAX ? -1 : (int64_t)v;
	m = f->count_width >= 8 ? 0 : (uint64_t)1 << (8 * f->count_width - 1);
	n = (int64_t)((v ^ m) - m);	/* sign-extended */
	if (f->flags & GFS_FF_POSITIVE && n < 0)
		n = 0;
	return n + (int64_t)f->count_bias;
}

void gfs_record_count_set(const struct gfs_field *f, uint8_t *base, size_t n)
{
	if (f->count_width)
		gfs_le_put(base + f->count_off, f->count_width, (uint64_t)n - f->count_bias);
}

/* The count of a GROUP or LIST field, its count field at base; SIZE_MAX when negative. */
static size_t gfs_group_count(const struct gfs_field *f, const uint8_t *base)
{
	int64_t n = gfs_record_count(f, base);

	return n < 0 || (uint64_t)n > SIZE_MAX ? SIZE_MAX : (size_t)n;
}

/* The items of the LIST field l of the element base, elen bytes (GFS_FF_TOEND: those that fill it). */
static size_t gfs_list_count(const struct gfs_field *l, const uint8_t *base, size_t elen)
{
	if (l->flags & GFS_FF_TOEND)
		return elen > l->off ? (elen - l->off) / l->group->size : 0;
	return gfs_group_count(l, base);
}

/*
 * The elements of GROUP f, its count fields at base: its count, or with
 * mul_width that count times the mul field (width x height); SIZE_MAX when
 * the product does not fit a size_t.
 */
static size_t gfs_group_elems(const struct gfs_field *f, const uint8_t *base)
{
	size_t n = gfs_group_count(f, base), m;

	if (!f->mul_width || n == SIZE_MAX)
		return n;
	m = (size_t)gfs_le(base + f->mul_off, f->mul_width);
	return m && n > SIZE_MAX / m ? SIZE_MAX : n * m;
}

/*
 * The bytes of each element of GROUP f sized by a field (size_width), its
 * fixed part at fixed: that field, or with size_mul_width that field times
 * the other (width x height); SIZE_MAX when the product does not fit.
 */
static size_t gfs_sized(const struct gfs_field *f, const uint8_t *fixed)
{
	size_t n = (size_t)gfs_le(fixed + f->size_off, f->size_width), m;

	if (!f->size_mul_width)
		return n;
	m = (size_t)gfs_le(fixed + f->size_mul_off, f->size_mul_width);
	return m && n > SIZE_MAX / m ? SIZE_MAX : n * m;
}

/* Does the view say how many elements GROUP f has (else the count is fixed)? */
static int gfs_group_var(const struct gfs_field *f)
{
	return f->count_width || f->mul_width || (f->flags & GFS_FF_TOEND);
}

/* The most a count field of width bytes holds (width 0: n, the fixed count). */
static uint64_t gfs_count_max(unsigned width, uint64_t n)
{
	if (!width)
		return n;
	return width >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * width)) - 1;
}

/* The most a count field of f holds as a count (width 0: n, the fixed count). */
static uint64_t gfs_count_cap(const struct gfs_field *f, uint64_t n)
{
	uint64_t m = gfs_count_max(f->count_width, n);

	if (f->count_width && (f->count_bias || f->flags & GFS_FF_POSITIVE))
		m = m / 2 + f->count_bias;
	return m;
}

/* The most elements GROUP f can have. */
static uint64_t gfs_group_max(const struct gfs_field *f)
{
	if (f->flags & GFS_FF_TOEND || f->mul_width)
		return UINT32_MAX;
	return gfs_count_cap(f, f->count_off);
}

/* ---- Pascal strings ------------------------------------------------------------ */

static size_t gfs_pstr_len(const struct gfs_field *f, const uint8_t *p)
{
	return p[0] > f->width ? f->width : p[0];
}

static int gfs_pstr_render(const struct gfs_field *f, const uint8_t *p, struct gfs_buf *out)
{
	size_t n = gfs_pstr_len(f, p);
	int r = gfs_buf_addc(out, '"');

	for (size_t i = 1; i <= n && !r; i++) {
		uint32_t cp = f->charset ? f->charset[p[i]] : p[i];

		/* a control byte (or, ASCII only, any byte past it): escaped, the line stays one line */
		if (cp < 0x20 || cp == 0x7f || ((f->flags & GFS_FF_ASCII) && p[i] > 0x7e)) {
			r = gfs_buf_printf(out, "\\x%02x", p[i]);
			continue;
		}
		if (p[i] == '"' || p[i] == '\\')
			r = gfs_buf_addc(out, '\\');
		if (!r)
			r = gfs_utf8_put(out, cp);
	}
	return r ? r : gfs_buf_addc(out, '"');
}

int gfs_charset_byte(const uint16_t *charset, uint32_t cp)
{
	if (!charset)
		return cp < 256 ? (int)cp : -1;
	if (cp >= 0x20 && cp < 0x7f && charset[cp] == cp)
		return (int)cp;
	for (int i = 0; i < 256; i++)
		if (charset[i] == cp)
			return i;
	return -1;
}

/* Parse quoted or bare text v into the string at p; *why says what is wrong. */
static int gfs_pstr_parse(const struct gfs_field *f, uint8_t *p, const char *v, char *why,
			  size_t wl)
{
	size_t len = strlen(v), i = 0, n = 0;
	uint8_t buf[256];
	int quoted = len >= 2 && v[0] == '"' && v[len - 1] == '"';

	if (quoted) {
		i = 1;
		len--;
	}
	while (i < len) {
		uint32_t cp;
		size_t k;
		int c;

		if ((quoted || (f->flags & GFS_FF_ASCII)) && v[i] == '\\' && i + 3 < len && v[i + 1] == 'x' &&
		    gfs_hex_digit(v[i + 2]) >= 0 && gfs_hex_digit(v[i + 3]) >= 0) {
			if (n >= f->width || n >= sizeof(buf))
				return snprintf(why, wl, "longer than %u characters", f->width), -EINVAL;
			buf[n++] = (uint8_t)(gfs_hex_digit(v[i + 2]) << 4 | gfs_hex_digit(v[i + 3]));
			i += 4;
			continue;
		}
		if (quoted && v[i] == '\\' && i + 1 < len && (v[i + 1] == '"' || v[i + 1] == '\\'))
			i++;
		else if (quoted && v[i] == '"')
			return snprintf(why, wl, "unescaped quote inside the string"), -EINVAL;
		k = gfs_utf8_decode((const uint8_t *)v + i, len - i, &cp);
		if (!k)
			return snprintf(why, wl, "not UTF-8"), -EINVAL;
		if ((f->flags & GFS_FF_ASCII) && (cp < 0x20 || cp > 0x7e))
			return snprintf(why, wl, "U+%04X is not printable ASCII: write a byte as \\xHH",
					(unsigned)cp), -EINVAL;
		c = gfs_charset_byte(f->charset, cp);
		if (c < 0)
			return snprintf(why, wl, "U+%04X has no byte in this string's code page",
					(unsigned)cp), -EINVAL;
		if (n >= f->width || n >= sizeof(buf))
			return snprintf(why, wl, "longer than %u characters", f->width), -EINVAL;
		buf[n++] = (uint8_t)c;
		i += k;
	}
	if (n != gfs_pstr_len(f, p) || memcmp(buf, p + 1, n)) {
		p[0] = (uint8_t)n;
		memcpy(p + 1, buf, n);
	}
	return 0;
}

int gfs_hexz_render(struct gfs_buf *out, const uint8_t *p, size_t width)
{
	int r = 0;

	while (width && !p[width - 1])
		width--;
	for (size_t i = 0; i < width && !r; i++)
		r = gfs_buf_printf(out, "%02x", p[i]);
	return r;
}

int gfs_hexz_parse(const char *v, uint8_t *p, size_t width)
{
	size_t n;

	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		v += 2;
	n = strlen(v);
	if (n % 2 || n / 2 > width)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (gfs_hex_digit(v[i]) < 0)
			return -EINVAL;
	memset(p, 0, width);
	for (size_t i = 0; i < n / 2; i++)
		p[i] = (uint8_t)(gfs_hex_digit(v[2 * i]) << 4 | gfs_hex_digit(v[2 * i + 1]));
	return 0;
}

/* ---- render ------------------------------------------------------------------ */

/*
 * Bytes as one value of a view: escaped (gfs_text_escape()), and a blank at
 * either end as \x20, since both faces trim the blanks around a value.
 */
static int gfs_field_text(struct gfs_buf *out, const uint8_t *p, size_t n)
{
	size_t a = 0, b = n;
	int r = 0;

	while (a < n && p[a] == ' ')
		a++;
	while (b > a && p[b - 1] == ' ')
		b--;
	for (size_t i = 0; i < a && !r; i++)
		r = gfs_buf_adds(out, "\\x20");
	if (!r)
		r = gfs_text_escape(out, p + a, b - a, 1);
	for (size_t i = b; i < n && !r; i++)
		r = gfs_buf_adds(out, "\\x20");
	return r;
}

/* Bytes as hex digit pairs after prefix. */
static int gfs_hex_add(struct gfs_buf *out, const char *prefix, const uint8_t *p, size_t n)
{
	int r = gfs_buf_adds(out, prefix);

	for (size_t i = 0; i < n && !r; i++)
		r = gfs_buf_printf(out, "%02x", p[i]);
	return r;
}

/* Does the GFS_FF_CODE field p[0..n) show as its characters? */
static int gfs_code_text(const uint8_t *p, size_t n)
{
	if (!n || (n >= 2 && p[0] == '0' && (p[1] | 0x20) == 'x'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (p[i] <= 0x20 || p[i] >= 0x7f)
			return 0;
	return 1;
}

/* Can s[0..n) be a GFS_FK_CSTR's value: printable UTF-8, no blank at either end? */
static int gfs_cstr_ok(const char *s, size_t n)
{
	if (!gfs_utf8_valid((const uint8_t *)s, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((uint8_t)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return !n || (s[0] != ' ' && s[n - 1] != ' ');
}

/* The "; key YYYY-MM-DDTHH:MM:SSZ" line of a GFS_FF_TIME field (nothing outside 1970-9999). */
static int gfs_time_note(struct gfs_buf *out, const char *key, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char iso[64];

	if (t < 0 || t >= INT64_C(253402300800) || !gmtime_r(&tt, &tm) ||
	    !strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return 0;
	return gfs_buf_printf(out, "; %s %s\n", key, iso);
}

int gfs_field_render(const struct gfs_field *f, const uint8_t *base,
		     const struct gfs_rec_refs *refs, struct gfs_buf *out)
{
	const uint8_t *p = base + f->off;
	uint64_t v;

	if (f->fmt)
		return f->fmt(f, base, out);
	switch (f->kind) {
	case GFS_FK_STR: {
		size_t len = strnlen((const char *)p, f->width), k = len;

		/* bytes after the NUL that are not all NULs: show them all */
		while (k < f->width && !p[k])
			k++;
		return gfs_field_text(out, p, k < f->width ? f->width : len);
	}
	case GFS_FK_BYTES:
		if ((f->flags & GFS_FF_CODE) && gfs_code_text(p, f->width))
			return gfs_buf_add(out, p, f->width);
		if (f->flags & (GFS_FF_CODE | GFS_FF_HEXDIGITS))
			return gfs_hex_add(out, f->flags & GFS_FF_CODE ? "0x" : "", p, f->width);
		return gfs_field_text(out, p, f->width);
	case GFS_FK_CSTR:	/* (its part's bytes: off 0) */
		return gfs_buf_adds(out, (const char *)p);
	case GFS_FK_PSTR:
		return gfs_pstr_render(f, p, out);
	case GFS_FK_HEXZ:
		return gfs_hexz_render(out, p, f->width);
	case GFS_FK_F32: {
		uint32_t bits = (uint32_t)gfs_le(p, 4);
		float x;

		memcpy(&x, &bits, sizeof(x));
		if (x != x || x - x != 0)	/* NaN, infinity: their bits, which read back the same */
			return gfs_buf_printf(out, "0x%08" PRIx32, bits);
		return gfs_buf_printf(out, "%.9g", (double)x);
	}
	case GFS_FK_LIST:	/* gfs_list_render(): where its items are depends on the element */
	case GFS_FK_GROUP:
		return 0;
	default:
		break;
	}
	v = gfs_field_get(f, base);
	if ((f->flags & GFS_FF_BLANK0) && !v)
		return 0;
	switch (f->kind) {
	case GFS_FK_HEX:
		return gfs_buf_printf(out, "0x%0*llx", (int)(f->bits ? (f->bits + 3) / 4 : f->width * 2),
				      (unsigned long long)v);
	case GFS_FK_SINT:
		return gfs_buf_printf(out, "%lld", (long long)gfs_field_num(f, v));
	case GFS_FK_ENUM:
		for (uint64_t i = 0; f->names && f->names[i]; i++)
			if (i == v)
				return gfs_buf_adds(out, f->names[i]);
		break;
	case GFS_FK_REF:
		if (refs && refs->fmt)
			return refs->fmt(refs->ctx, f->ref, v, out);
		break;
	default:
		break;
	}
	return gfs_buf_printf(out, "%llu", (unsigned long long)v);
}

/*
 * Where the items of the LIST field f of the element base (of rec, elen
 * bytes) start: the first list at its off (the element's size), each other
 * one where the list before it ends.
 */
static size_t gfs_list_at(const struct gfs_record *rec, const struct gfs_field *f, const uint8_t *base,
			  size_t elen)
{
	size_t at = SIZE_MAX;

	for (size_t i = 0; i < rec->nfields; i++) {
		const struct gfs_field *l = &rec->fields[i];

		if (l->kind != GFS_FK_LIST)
			continue;
		if (at == SIZE_MAX)
			at = l->off;
		if (l == f)
			break;
		at += gfs_list_count(l, base, elen) * l->group->size;
	}
	return at;
}

/* n items of it at items, apart by isep, the fields of an item by fsep. */
static int gfs_items_render(const struct gfs_record *it, const uint8_t *items, size_t n, char isep,
			    char fsep, const struct gfs_rec_refs *refs, struct gfs_buf *out)
{
	int r = 0;

	for (size_t k = 0; k < n && !r; k++)
		for (size_t j = 0; j < it->nfields && !r; j++) {
			if (k || j)
				r = gfs_buf_addc(out, (uint8_t)(j ? fsep : isep));
			if (!r)
				r = gfs_field_render(&it->fields[j], items + k * it->size, refs, out);
		}
	return r;
}

/* The items of the LIST field f of the element base on one line. */
static int gfs_list_render(const struct gfs_record *rec, const struct gfs_field *f, const uint8_t *base,
			   size_t elen, const struct gfs_rec_refs *refs, struct gfs_buf *out)
{
	return gfs_items_render(f->group, base + gfs_list_at(rec, f, base, elen), gfs_list_count(f, base, elen),
				' ', ',', refs, out);
}

/* Does GROUP f show on its key's line(s) instead of in sections of its own? */
static int gfs_group_inline(const struct gfs_field *f)
{
	return f->kind == GFS_FK_GROUP && (f->flags & (GFS_FF_LINE | GFS_FF_LINES));
}

/*
 * The fields a record shows in its own sections, in table order: those of
 * its fixed part, those of its PARTs, its CSTRs and its GROUPs shown on
 * their key's line(s) (other GROUPs are skipped).  part is the ordinal of
 * the PART (CSTR, GROUP) a field is in among the parts after the fixed
 * part (gfs_tail), or SIZE_MAX for the fixed part (or an element).
 */
struct gfs_flat {
	const struct gfs_record *rec;
	size_t i, j, ord, part;
	const char *section;	/* the section the field opens (a PART's own for its first), or NULL */
};

static const struct gfs_field *gfs_flat_next(struct gfs_flat *it)
{
	while (it->i < it->rec->nfields) {
		const struct gfs_field *f = &it->rec->fields[it->i];

		if (f->kind == GFS_FK_PART && it->j < f->group->nfields) {
			const struct gfs_field *pf = &f->group->fields[it->j];

			it->section = !it->j && f->section ? f->section : pf->section;
			it->part = it->ord;
			it->j++;
			return pf;
		}
		it->i++;
		it->j = 0;
		it->section = f->section;
		it->part = SIZE_MAX;
		if (f->kind == GFS_FK_GROUP || f->kind == GFS_FK_PART || f->kind == GFS_FK_CSTR) {
			it->part = it->ord++;
			if (f->kind == GFS_FK_PART || (f->kind == GFS_FK_GROUP && !gfs_group_inline(f)))
				continue;
		}
		return f;
	}
	return NULL;
}

/*
 * The parts after the fixed part, laid out from the table: one entry a
 * GROUP or PART field in table (byte) order, where it starts and how many
 * elements it has (a PART: 1), and where the last one ends (the span).
 */
#define GFS_REC_MAXPARTS 16
#define GFS_ITEM_MAXFIELDS 8	/* fields of an element on a line (more: no line parses) */
struct gfs_tail {
	size_t n;
	const struct gfs_field *bad;	/* the part that does not fit (NULL: the fixed part) */
	const struct gfs_field *f[GFS_REC_MAXPARTS];
	size_t at[GFS_REC_MAXPARTS], cnt[GFS_REC_MAXPARTS];
	size_t end;
};

/* Does rec (an element) end in lists? */
static int gfs_record_list(const struct gfs_record *rec)
{
	for (size_t i = 0; i < rec->nfields; i++)
		if (rec->fields[i].kind == GFS_FK_LIST)
			return 1;
	return 0;
}

/*
 * Bytes of one element of the GROUP (PART, CSTR) g at p[0..avail), the
 * record's fixed part at fixed: its size field's value, or its fixed part
 * and its lists; SIZE_MAX if it does not fit.
 */
/* The table of the element p[0..avail) of GROUP g: its group's, or a tagged one's variant (NULL: none). */
static const struct gfs_record *gfs_elem_rec(const struct gfs_field *g, const uint8_t *p, size_t avail)
{
	const struct gfs_field *tag;
	uint64_t v;

	if (!g->variants)
		return g->group;
	tag = &g->group->fields[0];
	if (avail < tag->off + tag->width)
		return NULL;
	v = gfs_field_get(tag, p);
	return v < g->nvariants ? g->variants[v] : NULL;
}

static size_t gfs_elem_size(const struct gfs_field *g, const uint8_t *fixed, const uint8_t *p, size_t avail)
{
	const struct gfs_record *rec = g->kind == GFS_FK_GROUP ? gfs_elem_rec(g, p, avail) : g->group;
	size_t at;
	int first = 1;

	if (g->kind == GFS_FK_PART)
		return g->width <= avail ? g->width : SIZE_MAX;
	if (g->kind == GFS_FK_CSTR) {
		const uint8_t *z = memchr(p, 0, avail);

		return z && gfs_cstr_ok((const char *)p, (size_t)(z - p)) ? (size_t)(z - p) + 1 : SIZE_MAX;
	}
	if (g->size_width) {
		at = gfs_sized(g, fixed);
		return at <= avail ? at : SIZE_MAX;
	}
	if (!rec || avail < rec->size)
		return SIZE_MAX;
	at = rec->size;
	for (size_t i = 0; i < rec->nfields; i++) {
		const struct gfs_field *l = &rec->fields[i];
		size_t n;

		if (l->kind != GFS_FK_LIST)
			continue;
		if (first)
			at = l->off;
		first = 0;
		n = gfs_group_count(l, p);
		if (at > avail || n > (avail - at) / l->group->size)
			return SIZE_MAX;
		at += n * l->group->size;
	}
	return at;
}

/* The bytes that hold GROUP f's count: the fixed part, or the PART its count_in names. */
static const uint8_t *gfs_count_base(const struct gfs_field *f, const uint8_t *p, const struct gfs_tail *t)
{
	return f->count_in ? p + t->at[f->count_in - 1] : p;
}

/* Lay out the parts of p[0..len) after its fixed part; -EBADMSG when they do not fit. */
static int gfs_tail(const struct gfs_record *rec, const uint8_t *p, size_t len, struct gfs_tail *t)
{
	size_t pos = rec->size;

	t->n = 0;
	t->end = 0;
	t->bad = NULL;
	if (len < rec->size)
		return -EBADMSG;
	for (size_t i = 0; i < rec->nfields; i++) {
		const struct gfs_field *f = &rec->fields[i];
		size_t j = t->n, n = 1, k, es, least;
		int toend = (f->flags & GFS_FF_TOEND) != 0;

		if (f->kind != GFS_FK_GROUP && f->kind != GFS_FK_PART && f->kind != GFS_FK_CSTR)
			continue;
		t->bad = f;
		if (j == GFS_REC_MAXPARTS || f->count_in > j)
			return -EBADMSG;	/* (a table the codec does not take) */
		t->f[j] = f;
		t->at[j] = pos;
		t->n++;
		if (f->kind == GFS_FK_GROUP && !toend)
			n = gfs_group_elems(f, gfs_count_base(f, p, t));
		if (n == SIZE_MAX)
			return -EBADMSG;
		if (f->kind == GFS_FK_GROUP && !toend && !f->size_width && !f->variants && !gfs_record_list(f->group) &&
		    f->group->size && n > (len - pos) / f->group->size)
			return -EBADMSG;	/* (fixed-size elements: checked at once) */
		least = !toend ? 0 : f->size_width ? gfs_sized(f, p) : f->group->size;	/* an element's least bytes */
		for (k = 0; toend || k < n; k++, pos += es) {
			if (toend && (!least || least == SIZE_MAX || len - pos < least))
				break;
			if ((es = gfs_elem_size(f, p, p + pos, len - pos)) == SIZE_MAX)
				return -EBADMSG;
		}
		t->cnt[j] = k;
	}
	t->bad = NULL;
	t->end = pos;
	return 0;
}

/* Does p[0..len) hold a record of rec (an empty one too: no fixed part, no element)?  t filled. */
static int gfs_record_fits(const struct gfs_record *rec, const uint8_t *p, size_t len, struct gfs_tail *t)
{
	return !gfs_tail(rec, p, len, t) && (t->end || !len);
}

size_t gfs_record_span(const struct gfs_record *rec, const uint8_t *p, size_t len)
{
	return gfs_record_span_why(rec, p, len, NULL);
}

size_t gfs_record_span_why(const struct gfs_record *rec, const uint8_t *p, size_t len, const char **why)
{
	struct gfs_tail t;

	if (!gfs_tail(rec, p, len, &t) && t.end)
		return t.end;
	if (why)
		*why = t.bad && t.bad->why ? t.bad->why : "record truncated";
	return 0;
}

const struct gfs_field *gfs_record_part(const struct gfs_record *rec, const uint8_t *p, size_t len,
				       const char *key, size_t *at, size_t *n)
{
	struct gfs_tail t;

	if (gfs_tail(rec, p, len, &t))
		return NULL;
	for (size_t j = 0; j < t.n; j++)
		if (!strcmp(t.f[j]->key, key)) {
			*at = t.at[j];
			*n = t.cnt[j];
			return t.f[j];
		}
	return NULL;
}

const struct gfs_field *gfs_record_field(const struct gfs_record *rec, const char *key)
{
	for (size_t i = 0; i < rec->nfields; i++)
		if (!strcmp(rec->fields[i].key, key))
			return &rec->fields[i];
	return NULL;
}

const struct gfs_record *gfs_record_elem(const struct gfs_record *rec, const uint8_t *p, size_t len,
					 const char *key, size_t k, size_t *at, size_t *n)
{
	const struct gfs_field *g = gfs_record_part(rec, p, len, key, at, n);
	size_t cnt = *n;

	if (!g || g->kind != GFS_FK_GROUP || k >= cnt)
		return NULL;
	for (size_t i = 0; i <= k; i++) {
		*n = gfs_elem_size(g, p, p + *at, len - *at);
		if (i < k)
			*at += *n;
	}
	return gfs_elem_rec(g, p + *at, *n);
}

const struct gfs_field *gfs_record_items(const struct gfs_record *el, const uint8_t *e, size_t elen,
				       const char *key, size_t *at, size_t *n)
{
	const struct gfs_field *l = gfs_record_field(el, key);

	if (!l || l->kind != GFS_FK_LIST || elen < el->size)
		return NULL;
	*at = gfs_list_at(el, l, e, elen);
	*n = gfs_list_count(l, e, elen);
	return *at <= elen && *n <= (elen - *at) / l->group->size ? l : NULL;
}

size_t gfs_record_elem_span(const struct gfs_field *g, const uint8_t *fixed, const uint8_t *e, size_t avail)
{
	size_t n = gfs_elem_size(g, fixed, e, avail);

	return n == SIZE_MAX ? 0 : n;
}

/* ---- tagged elements ---------------------------------------------------------- */

static int gfs_field_number(const struct gfs_field *f)
{
	return f->kind == GFS_FK_UINT || f->kind == GFS_FK_SINT || f->kind == GFS_FK_HEX ||
	       f->kind == GFS_FK_ENUM || f->kind == GFS_FK_REF;
}

/* The field of el that takes the value of f (of key f->key, not a list), or NULL. */
static const struct gfs_field *gfs_field_twin(const struct gfs_record *el, const struct gfs_field *f)
{
	const struct gfs_field *t = gfs_record_field(el, f->key);

	return t && t->kind != GFS_FK_LIST && t->kind != GFS_FK_GROUP ? t : NULL;
}

/* The value of field from at a into field to at b: a number by value, else its bytes. */
static void gfs_value_copy(const struct gfs_field *to, uint8_t *b, const struct gfs_field *from,
			   const uint8_t *a)
{
	if (gfs_field_number(to) && gfs_field_number(from))
		gfs_field_set(to, b, gfs_field_get(from, a) & gfs_field_mask(to));
	else
		memcpy(b + to->off, a + from->off, to->width < from->width ? to->width : from->width);
}

/* The view (g->group->size bytes at v) of the element e of the tagged GROUP g, of table vr. */
static void gfs_tag_view(const struct gfs_field *g, const struct gfs_record *vr, const uint8_t *e, uint8_t *v)
{
	const struct gfs_record *gr = g->group;

	memset(v, 0, gr->size);
	for (size_t i = 0; i < gr->nfields; i++) {
		const struct gfs_field *sf = gfs_field_twin(vr, &gr->fields[i]);

		if (sf)
			gfs_value_copy(&gr->fields[i], v, sf, e);
	}
}

/* Is the value of f at base all zeros? */
static int gfs_field_zero(const struct gfs_field *f, const uint8_t *base)
{
	if (gfs_field_number(f))
		return !gfs_field_get(f, base);
	for (unsigned i = 0; i < f->width; i++)
		if (base[f->off + i])
			return 0;
	return 1;
}

/*
 * Append element k of the tagged GROUP g (view bytes v) as its variant's
 * bytes, its lists from the old element o[0..olen) (NULL: none); why set
 * on -EINVAL.
 */
static int gfs_tag_store(const struct gfs_field *g, size_t k, const uint8_t *v, const uint8_t *o, size_t olen,
			 struct gfs_buf *out, char *why, size_t wl)
{
	const struct gfs_record *gr = g->group, *vr, *ovr = o ? gfs_elem_rec(g, o, olen) : NULL;
	uint64_t tag = gfs_field_get(&gr->fields[0], v);
	size_t base = out->len;
	int r;

	if (tag >= g->nvariants || !(vr = g->variants[tag]))
		return snprintf(why, wl, "[%s %zu]: %s %llu is not one the format has", gr->section, k,
				gr->fields[0].key, (unsigned long long)tag), -EINVAL;
	r = ovr == vr ? gfs_buf_add(out, o, vr->size) : gfs_buf_set_len(out, base + vr->size);
	for (size_t i = 0; i < gr->nfields && !r; i++) {
		const struct gfs_field *vf = &gr->fields[i], *sf = gfs_field_twin(vr, vf);

		if (sf)
			gfs_value_copy(sf, out->data + base, vf, v);
		else if (!gfs_field_zero(vf, v))
			return snprintf(why, wl, "[%s %zu]: %s", gr->section, k, vf->why ? vf->why :
					"a value its kind does not have"), -EINVAL;
	}
	for (size_t i = 0; ovr && i < ovr->nfields && !r; i++) {	/* lists the new layout drops */
		const struct gfs_field *ol = &ovr->fields[i], *nl = gfs_record_field(vr, ol->key);

		if (ol->kind == GFS_FK_LIST && (!nl || nl->kind != GFS_FK_LIST) && gfs_list_count(ol, o, olen))
			return snprintf(why, wl, "[%s %zu]: %s", gr->section, k, ol->why ? ol->why :
					"a list its kind does not have"), -EINVAL;
	}
	for (size_t i = 0; i < vr->nfields && !r; i++) {
		const struct gfs_field *l = &vr->fields[i], *ol = ovr ? gfs_record_field(ovr, l->key) : NULL;
		size_t n = l->min > 0 ? (size_t)l->min : 0, at = 0;

		if (l->kind != GFS_FK_LIST)
			continue;
		if (ol && ol->kind == GFS_FK_LIST) {
			n = gfs_list_count(ol, o, olen);
			at = gfs_list_at(ovr, ol, o, olen);
		}
		if (n > gfs_count_cap(l, 0))
			return snprintf(why, wl, "[%s %zu]: %s: at most %llu %ss", gr->section, k, l->key,
					(unsigned long long)gfs_count_cap(l, 0), l->group->section),
			       -EINVAL;
		gfs_record_count_set(l, out->data + base, n);
		r = ol && ol->kind == GFS_FK_LIST ? gfs_buf_add(out, o + at, n * l->group->size) :
		    gfs_buf_set_len(out, out->len + n * l->group->size);
	}
	return r;
}

/*
 * The fields of rec shown in its own sections (its fixed part at base,
 * elen bytes, and the parts t laid out of p) as "key = value" lines.
 */
static int gfs_fields_render(const struct gfs_record *rec, const uint8_t *base, size_t elen,
			     const struct gfs_tail *t, const uint8_t *p, const struct gfs_rec_refs *refs,
			     struct gfs_buf *out)
{
	struct gfs_flat it = { rec, 0, 0, 0, 0, NULL };
	const char *section = rec->section;
	const struct gfs_field *f;
	int r = 0;

	while (!r && (f = gfs_flat_next(&it))) {
		const uint8_t *b = it.part == SIZE_MAX ? base : p + t->at[it.part];
		size_t at, n = it.part == SIZE_MAX ? 0 : t->cnt[it.part];

		if (it.section && strcmp(it.section, section)) {
			section = it.section;
			r = gfs_buf_printf(out, "\n[%s]\n", section);
		}
		if (!r && f->note)
			r = gfs_buf_printf(out, "; %s\n", f->note);
		if (!r && (f->flags & GFS_FF_TIME))
			r = gfs_time_note(out, f->key, gfs_field_num(f, gfs_field_get(f, b)));
		/* GFS_FF_LINES: "key = f1 f2" an element */
		for (size_t k = 0; f->flags & GFS_FF_LINES && k < n && !r; k++) {
			r = gfs_buf_printf(out, "%s = ", f->key);
			if (!r)
				r = gfs_items_render(f->group, b + k * f->group->size, 1, ' ', ' ', refs, out);
			if (!r)
				r = gfs_buf_addc(out, '\n');
		}
		if (r || (f->flags & GFS_FF_LINES))
			continue;
		r = gfs_buf_printf(out, "%s = ", f->key);
		at = out->len;
		if (!r)
			r = f->kind == GFS_FK_LIST ? gfs_list_render(rec, f, b, elen, refs, out) :
			    f->kind == GFS_FK_GROUP ? gfs_items_render(f->group, b, n, ' ', ',', refs, out) :
			    gfs_field_render(f, b, refs, out);
		if (!r && out->len == at && (f->kind == GFS_FK_HEXZ || f->kind == GFS_FK_LIST ||
					     f->kind == GFS_FK_GROUP))
			out->len--;	/* "key =": nothing after the = */
		if (!r)
			r = gfs_buf_addc(out, '\n');
	}
	return r;
}

/* The entries of t in view order: by view rank, in table order among equals. */
static void gfs_view_order(const struct gfs_tail *t, size_t *ord)
{
	size_t n = 0;

	for (unsigned rank = 0; n < t->n; rank++)
		for (size_t j = 0; j < t->n; j++)
			if (t->f[j]->view == rank)
				ord[n++] = j;
}

int gfs_record_resize(const struct gfs_record *rec, const struct gfs_field *g, const uint8_t *old,
		      size_t oldlen, size_t n, struct gfs_buf *out)
{
	size_t base = out->len, newat[GFS_REC_MAXPARTS];
	struct gfs_tail t;
	int r;

	if (!gfs_record_fits(rec, old, oldlen, &t))
		return -EBADMSG;
	if (g->kind != GFS_FK_GROUP || !gfs_group_var(g) || g->mul_width || n > gfs_group_max(g))
		return -EINVAL;
	r = gfs_buf_add(out, old, rec->size);
	for (size_t j = 0; j < t.n && !r; j++) {
		const struct gfs_field *f = t.f[j];
		size_t pos = t.at[j], k;

		newat[j] = out->len - base;
		for (k = 0; k < t.cnt[j] && !r; k++) {
			size_t es = gfs_elem_size(f, old, old + pos, oldlen - pos);

			if (f != g || k < n)
				r = gfs_buf_add(out, old + pos, es);
			pos += es;
		}
		for (; f == g && k < n && !r; k++)	/* new elements: zeros */
			r = gfs_buf_set_len(out, out->len + (f->size_width ? gfs_sized(f, old) :
				f->variants ? f->variants[0]->size : f->group->size));
	}
	if (!r)
		r = gfs_buf_add(out, old + t.end, oldlen - t.end);
	if (r)
		gfs_buf_set_len(out, base);
	else
		gfs_record_count_set(g, out->data + base + (g->count_in ? newat[g->count_in - 1] : 0), n);
	return r;
}

int gfs_record_render(const struct gfs_record *rec, const uint8_t *p, size_t len,
		      const struct gfs_rec_refs *refs, struct gfs_buf *out)
{
	size_t ord[GFS_REC_MAXPARTS];
	struct gfs_buf v = GFS_BUF_INIT;
	struct gfs_tail t;
	int r = 0;

	if (!gfs_record_fits(rec, p, len, &t))
		return -EBADMSG;
	if (rec->comment)
		r = gfs_buf_adds(out, rec->comment);
	if (!r)
		r = gfs_buf_printf(out, "[%s]\n", rec->section);
	if (!r)
		r = gfs_fields_render(rec, p, rec->size, &t, p, refs, out);
	gfs_view_order(&t, ord);
	for (size_t o = 0; o < t.n && !r; o++) {
		const struct gfs_field *f = t.f[ord[o]];
		size_t pos = t.at[ord[o]];

		if (f->kind != GFS_FK_GROUP || gfs_group_inline(f))
			continue;
		for (size_t k = 0; k < t.cnt[ord[o]] && !r; k++) {
			size_t es = gfs_elem_size(f, p, p + pos, len - pos);
			const uint8_t *e = p + pos;

			r = gfs_buf_printf(out, "\n[%s %zu]\n", f->group->section, k);
			if (!r && f->variants && !(r = gfs_buf_set_len(&v, f->group->size))) {
				gfs_tag_view(f, gfs_elem_rec(f, e, es), e, v.data);
				e = v.data;
				es = f->group->size;
			}
			if (!r)
				r = gfs_fields_render(f->group, e, es, NULL, NULL, refs, out);
			pos += f->variants ? gfs_elem_size(f, p, p + pos, len - pos) : es;
		}
	}
	gfs_buf_release(&v);
	return r;
}

/* ---- parse ------------------------------------------------------------------- */

struct gfs_rec_ctx {
	struct gfs_archive *ar;
	const char *view;
	const struct gfs_record *rec;
	const struct gfs_rec_refs *refs;
	uint8_t *fixed;				/* copy of the fixed part */
	struct gfs_tail t;			/* the old record's parts */
	struct gfs_buf *elems[GFS_REC_MAXPARTS];	/* one buffer an element (a PART: one), old ones first */
	size_t new_n[GFS_REC_MAXPARTS], cap[GFS_REC_MAXPARTS];
	struct gfs_buf tmp;
	struct gfs_buf seen;			/* keys of rec's own sections given (gfs_seen) */
	struct gfs_buf eseen;			/* those of the element of a group given last */
	size_t eg, ek;				/* that element: group eg, element ek */
};

/* A key given: field f of the part (GROUP) g, its element k (SIZE_MAX: not of a group). */
struct gfs_seen {
	const struct gfs_field *f;
	size_t g, k;
};

/*
 * Was f of part g, element k given?  With add, it is now.  The keys of an
 * element are kept while its lines last (another element: afresh).
 */
static int gfs_rec_seen(struct gfs_rec_ctx *c, const struct gfs_field *f, size_t g, size_t k, int add)
{
	struct gfs_buf *b = k == SIZE_MAX ? &c->seen : &c->eseen;
	struct gfs_seen x = { f, g, k }, y;

	if (k != SIZE_MAX && (g != c->eg || k != c->ek)) {
		gfs_buf_set_len(b, 0);
		c->eg = g;
		c->ek = k;
	}
	for (size_t i = 0; i < b->len / sizeof(y); i++) {
		memcpy(&y, b->data + i * sizeof(y), sizeof(y));
		if (y.f == f && y.g == g && y.k == k)
			return 1;
	}
	return add && gfs_buf_add(b, &x, sizeof(x)) ? -ENOMEM : 0;
}

static int gfs_unsigned_parse(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	return errno || end == s || *end ? -EINVAL : 0;
}

/* A GFS_FF_CODE or GFS_FF_HEXDIGITS value into p (width bytes). */
static int gfs_code_parse(const struct gfs_field *f, uint8_t *p, const char *v, char *why, size_t whysz)
{
	size_t len = strlen(v), w = f->width;
	int hex = (f->flags & GFS_FF_HEXDIGITS) != 0;

	if (!hex && len == 2 + 2 * w && v[0] == '0' && (v[1] | 0x20) == 'x') {
		v += 2;
		len -= 2;
		hex = 1;
	}
	for (size_t i = 0; hex && i < len; i++)
		if (gfs_hex_digit(v[i]) < 0)
			len = 0;
	if (hex && len == 2 * w) {
		for (size_t i = 0; i < w; i++)
			p[i] = (uint8_t)(gfs_hex_digit(v[2 * i]) << 4 | gfs_hex_digit(v[2 * i + 1]));
		return 0;
	}
	if (!hex && len == w && gfs_code_text((const uint8_t *)v, w)) {
		memcpy(p, v, w);
		return 0;
	}
	if (f->flags & GFS_FF_HEXDIGITS)
		snprintf(why, whysz, "want %u hex digits", 2 * f->width);
	else
		snprintf(why, whysz, "want %u characters or 0x and %u hex digits", f->width, 2 * f->width);
	return -EINVAL;
}

int gfs_field_scan(const struct gfs_field *f, uint8_t *base, const char *value,
		   const struct gfs_rec_refs *refs, struct gfs_buf *b, char *why, size_t whysz)
{
	int64_t min, max, sv = 0;
	uint64_t v = 0;
	int r;

	if (f->flags & GFS_FF_IGNORE)
		return 0;
	gfs_buf_set_len(b, 0);
	r = gfs_field_render(f, base, refs, b);
	if (r)
		return r;
	if (!strcmp((const char *)b->data ? (const char *)b->data : "", value))
		return 0;
	if (f->flags & GFS_FF_RO) {
		snprintf(why, whysz, "read-only (it is %s)", b->data ? (const char *)b->data : "");
		return -EINVAL;
	}
	if (f->scan)
		return f->scan(f, base, value, why, whysz);
	if (f->kind == GFS_FK_BYTES && (f->flags & (GFS_FF_CODE | GFS_FF_HEXDIGITS)))
		return gfs_code_parse(f, base + f->off, value, why, whysz);
	switch (f->kind) {
	case GFS_FK_STR:
	case GFS_FK_BYTES:
		gfs_buf_set_len(b, 0);
		if (gfs_text_unescape(value, strlen(value), b) || b->len > f->width ||
		    (f->kind == GFS_FK_BYTES && b->len != f->width)) {
			snprintf(why, whysz, "want %s%u bytes (\\xNN escapes)",
				 f->kind == GFS_FK_STR ? "at most " : "", f->width);
			return -EINVAL;
		}
		memset(base + f->off, 0, f->width);
		if (b->len)
			memcpy(base + f->off, b->data, b->len);
		return 0;
	case GFS_FK_PSTR:
		return gfs_pstr_parse(f, base + f->off, value, why, whysz) ? -EINVAL : 0;
	case GFS_FK_HEXZ:
		if (gfs_hexz_parse(value, base + f->off, f->width)) {
			snprintf(why, whysz, "want at most %u bytes as hex digit pairs", f->width);
			return -EINVAL;
		}
		return 0;
	case GFS_FK_F32: {
		uint32_t bits;
		char *end;
		float x;

		errno = 0;
		if (value[0] == '0' && (value[1] == 'x' || value[1] == 'X') && strlen(value) == 10 &&
		    strspn(value + 2, "0123456789abcdefABCDEF") == 8) {
			bits = (uint32_t)strtoul(value + 2, NULL, 16);	/* the bits as shown for NaN and infinity */
			gfs_le_put(base + f->off, 4, bits);
			return 0;
		}
		x = *value ? strtof(value, &end) : 0;
		if (!*value || end == value || *end || x != x || x - x != 0) {
			snprintf(why, whysz, "%s is not a finite number (nor 0x and 8 hex digits: the bits)", value);
			return -EINVAL;
		}
		memcpy(&bits, &x, sizeof(bits));
		gfs_le_put(base + f->off, 4, bits);
		return 0;
	}
	case GFS_FK_REF:
		if (!refs || !refs->parse || refs->parse(refs->ctx, f->ref, value, &v)) {
			snprintf(why, whysz, "'%s' is not %s", value, f->want ? f->want :
				 refs && refs->what ? refs->what : "a reference");
			return -EINVAL;
		}
		sv = (int64_t)v;
		break;
	case GFS_FK_ENUM:
		for (uint64_t i = 0; f->names && f->names[i]; i++)
			if (!strcasecmp(f->names[i], value)) {
				gfs_field_set(f, base, i);
				return 0;
			}
		goto number;	/* not a name: a number */
	default:
number:
		if ((f->flags & GFS_FF_BLANK0) && !*value) {
			gfs_field_set(f, base, 0);
			return 0;
		}
		gfs_field_range(f, &min, &max);
		if (f->kind != GFS_FK_SINT && max == INT64_MAX) {
			if (gfs_unsigned_parse(value, &v) || v > gfs_field_mask(f)) {
				snprintf(why, whysz, "'%s' is not a %u-bit number", value, gfs_field_bits(f));
				return -EINVAL;
			}
			gfs_field_set(f, base, v);
			return 0;
		}
		if (gfs_parse_int(value, min, max, &sv)) {
			snprintf(why, whysz, "'%s' is not in %lld..%lld", value, (long long)min,
				 (long long)max);
			return -EINVAL;
		}
		break;
	}
	if (f->kind == GFS_FK_REF) {
		gfs_field_range(f, &min, &max);
		if ((uint64_t)sv > gfs_field_mask(f) || sv < min || sv > max) {
			snprintf(why, whysz, "'%s' is out of range", value);
			return -EINVAL;
		}
	}
	gfs_field_set(f, base, (uint64_t)sv & gfs_field_mask(f));
	return 0;
}

/* Parse value into the field of base (gfs_field_scan()); a refusal names the view, line and key. */
static int gfs_field_parse(struct gfs_rec_ctx *c, const struct gfs_field *f, uint8_t *base,
			   const char *value, unsigned line)
{
	char why[GFS_WHY_MAX];
	int r = gfs_field_scan(f, base, value, c->refs, &c->tmp, why, sizeof(why));

	if (r == -EINVAL)
		return gfs_err(c->ar, -EINVAL, "%s: line %u: %s: %s", c->view, line, f->key, why);
	return r;
}

/* Parse a LIST value into the element buffer e of rec (that list's items replaced, its count set). */
static int gfs_list_parse(struct gfs_rec_ctx *c, const struct gfs_record *rec, const struct gfs_field *f,
			  struct gfs_buf *e, const char *value, unsigned line)
{
	const struct gfs_record *it = f->group;
	uint64_t cmax = f->flags & GFS_FF_TOEND ? UINT32_MAX : gfs_count_cap(f, 0);
	size_t at = gfs_list_at(rec, f, e->data, e->len);
	size_t end = at + gfs_list_count(f, e->data, e->len) * it->size;
	struct gfs_buf ne = GFS_BUF_INIT;
	char *copy = strdup(value), *rest = copy, *tok;
	uint64_t n = 0;
	int r;

	if (!copy)
		return -ENOMEM;
	r = gfs_buf_grow(&ne, 1);
	r = r ? r : gfs_buf_add(&ne, e->data, at);
	while (!r && (tok = gfs_next_word(&rest, " \t"))) {
		char *part = tok;
		size_t pos = ne.len, commas = 0;

		for (char *q = tok; *q; q++)
			commas += *q == ',';
		if (commas + 1 != it->nfields) {
			r = gfs_err(c->ar, -EINVAL, "%s: line %u: %s: '%s' is not %s", c->view, line,
				    f->key, tok, f->want ? f->want : "an item");
			break;
		}

		if (++n > cmax) {
			r = gfs_err(c->ar, -EINVAL, "%s: line %u: %s: more than %llu items", c->view,
				    line, f->key, (unsigned long long)cmax);
			break;
		}
		r = gfs_buf_set_len(&ne, pos + it->size);
		if (r)
			break;
		memset(ne.data + pos, 0, it->size);
		for (size_t k = 0; k < it->nfields && !r; k++) {
			char *comma = strchr(part, ',');

			if (comma)
				*comma = 0;
			r = gfs_field_parse(c, &it->fields[k], ne.data + pos, part, line);
			part = comma ? comma + 1 : part;
		}
	}
	free(copy);
	if (!r)	/* the lists after this one */
		r = gfs_buf_add(&ne, e->data + end, e->len - end);
	if (!r) {
		gfs_record_count_set(f, ne.data, n);
		gfs_buf_release(e);
		*e = ne;
	} else {
		gfs_buf_release(&ne);
	}
	return r;
}

/*
 * The field key of rec in section (the one it renders in), or NULL, and the
 * PART it is in (gfs_flat); *known: is section rec's?
 */
static const struct gfs_field *gfs_field_find(const struct gfs_record *rec, const char *section,
					      const char *key, int *known, size_t *part)
{
	struct gfs_flat it = { rec, 0, 0, 0, 0, NULL };
	const char *in = rec->section;
	const struct gfs_field *found = NULL, *f;

	*known = !strcmp(in, section);
	while ((f = gfs_flat_next(&it))) {
		if (it.section) {
			in = it.section;
			*known |= !strcmp(in, section);
		}
		if (!found && !strcmp(in, section) && !strcmp(f->key, key)) {
			found = f;
			*part = it.part;
		}
	}
	return found;
}

/* Element k of part g, from the old element at its place (a new one: zeros); NULL: no memory. */
static struct gfs_buf *gfs_rec_elem(struct gfs_rec_ctx *c, size_t g, size_t k)
{
	if (k < c->t.cnt[g])
		return &c->elems[g][k];
	if (k >= c->cap[g]) {
		size_t cap = c->cap[g] ? 2 * c->cap[g] : 8;
		struct gfs_buf *e = realloc(c->elems[g], cap * sizeof(*e));

		if (!e)
			return NULL;
		memset(e + c->cap[g], 0, (cap - c->cap[g]) * sizeof(*e));
		c->elems[g] = e;
		c->cap[g] = cap;
	}
	gfs_buf_set_len(&c->elems[g][k], 0);
	if (gfs_buf_grow(&c->elems[g][k], 1) || gfs_buf_set_len(&c->elems[g][k], c->t.f[g]->group->size))
		return NULL;
	return &c->elems[g][k];
}

/*
 * Element k of the GROUP f (part g) shown on a line: its fields from text
 * cut at seps; fields flagged GFS_FF_OPTIONAL left out are 0.
 */
static int gfs_item_parse(struct gfs_rec_ctx *c, size_t g, const struct gfs_field *f, size_t k, char *text,
			  const char *seps, unsigned line)
{
	const struct gfs_record *it = f->group;
	char *w[GFS_ITEM_MAXFIELDS + 1], *rest = text, *tok;
	struct gfs_buf *e = gfs_rec_elem(c, g, k);
	size_t n = 0, need = 0;
	int r = 0;

	if (!e)
		return -ENOMEM;
	while (n <= GFS_ITEM_MAXFIELDS && (tok = gfs_next_word(&rest, seps)))
		w[n++] = tok;
	while (need < it->nfields && !(it->fields[need].flags & GFS_FF_OPTIONAL))
		need++;
	if (n > it->nfields || n < need)
		return gfs_err(c->ar, -EINVAL, "%s: line %u: %s: want %s", c->view, line, f->key,
			       f->want ? f->want : "an item");
	for (size_t j = 0; j < it->nfields && !r; j++) {
		if (j < n)
			r = gfs_field_parse(c, &it->fields[j], e->data, w[j], line);
		else
			gfs_field_set(&it->fields[j], e->data, 0);
	}
	return r;
}

/* A line of the GROUP f (part g) shown among the fields: all its elements, or (LINES) one more. */
static int gfs_items_parse(struct gfs_rec_ctx *c, size_t g, const struct gfs_field *f, const char *value,
			   unsigned line)
{
	uint64_t cmax = gfs_group_max(f);
	int lines = (f->flags & GFS_FF_LINES) != 0;
	size_t n = lines ? c->new_n[g] : 0;
	char *copy = strdup(value), *rest = copy, *tok;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	if (lines && n >= cmax)
		r = gfs_err(c->ar, -EINVAL, "%s: line %u: %s: more than %llu of them", c->view, line, f->key,
			    (unsigned long long)cmax);
	else if (lines)
		r = gfs_item_parse(c, g, f, n++, copy, " \t,", line);
	while (!lines && !r && (tok = gfs_next_word(&rest, f->group->nfields == 1 ? " \t," : " \t"))) {
		if (n >= cmax)
			r = gfs_err(c->ar, -EINVAL, "%s: line %u: %s: more than %llu values", c->view, line,
				    f->key, (unsigned long long)cmax);
		else
			r = gfs_item_parse(c, g, f, n++, tok, ",", line);
	}
	if (!r && !lines && !f->count_width && !f->mul_width && n != f->count_off)
		r = gfs_err(c->ar, -EINVAL, "%s: line %u: %s: want %u values", c->view, line, f->key,
			    f->count_off);
	free(copy);
	if (!r)
		c->new_n[g] = n;
	return r;
}

/* A CSTR's text into its part's buffer e. */
static int gfs_cstr_parse(struct gfs_rec_ctx *c, const struct gfs_field *f, struct gfs_buf *e,
			  const char *value, unsigned line)
{
	size_t len = strlen(value);

	if (len + 1 == e->len && !memcmp(e->data, value, len))
		return 0;
	if (!len || (f->max && len > (uint64_t)f->max) || !gfs_cstr_ok(value, len))
		return gfs_err(c->ar, -EINVAL, "%s: line %u: %s: want %s", c->view, line, f->key,
			       f->want ? f->want : "other text");
	gfs_buf_set_len(e, 0);
	return gfs_buf_add(e, value, len + 1);
}

static int gfs_rec_kv(void *vctx, const char *section, const char *key, const char *value,
		      unsigned line)
{
	struct gfs_rec_ctx *c = vctx;
	const struct gfs_field *f;
	uint8_t *base = NULL;
	const struct gfs_record *rec = NULL;
	struct gfs_buf *elem = NULL;
	size_t part = SIZE_MAX, gi = SIZE_MAX, idx = SIZE_MAX;
	int known = 0, r;

	f = gfs_field_find(c->rec, section, key, &known, &part);
	if (known) {
		rec = c->rec;
		gi = part;
		base = part == SIZE_MAX ? c->fixed : c->elems[part][0].data;
	}
	for (size_t g = 0; !rec && g < c->t.n; g++) {
		const struct gfs_record *gr = c->t.f[g]->group;
		size_t sl;
		int64_t v;

		if (c->t.f[g]->kind != GFS_FK_GROUP || gfs_group_inline(c->t.f[g]))
			continue;
		sl = strlen(gr->section);
		if (strncmp(section, gr->section, sl) || section[sl] != ' ' ||
		    gfs_parse_int(section + sl + 1, 0, INT32_MAX, &v))
			continue;
		idx = (size_t)v;
		if (idx + 1 != c->new_n[g] && idx != c->new_n[g])
			return gfs_err(c->ar, -EINVAL, "%s: line %u: [%s] out of order (want [%s %zu])",
				       c->view, line, section, gr->section, c->new_n[g]);
		if (idx == c->new_n[g]) {
			uint64_t cmax = gfs_group_max(c->t.f[g]);

			if (idx >= cmax)
				return gfs_err(c->ar, -EINVAL, "%s: line %u: [%s]: at most %llu of them",
					       c->view, line, section, (unsigned long long)cmax);
			if (!gfs_rec_elem(c, g, idx))
				return -ENOMEM;
			c->new_n[g] = idx + 1;
		}
		rec = gr;
		gi = g;
		elem = &c->elems[g][idx];
		base = elem->data;
	}
	if (!rec)
		return gfs_err(c->ar, -EINVAL, "%s: line %u: unknown section [%s]", c->view, line, section);
	if (rec != c->rec)
		f = gfs_field_find(rec, rec->section, key, &known, &part);
	if (!f)
		return gfs_err(c->ar, -EINVAL, "%s: line %u: unknown key %s in [%s]", c->view, line, key,
			       section);
	r = f->flags & GFS_FF_LINES ? 0 : gfs_rec_seen(c, f, gi, idx, 1);
	if (r)
		return r < 0 ? r : gfs_err(c->ar, -EINVAL, "%s: line %u: %s given twice", c->view, line, key);
	if (f->kind == GFS_FK_CSTR)
		return gfs_cstr_parse(c, f, &c->elems[part][0], value, line);
	if (f->kind == GFS_FK_GROUP)
		return gfs_items_parse(c, part, f, value, line);
	if (f->kind == GFS_FK_LIST) {
		gfs_buf_set_len(&c->tmp, 0);
		if (!elem || gfs_list_render(rec, f, base, elem->len, c->refs, &c->tmp))
			return -EINVAL;
		if (!strcmp(c->tmp.data ? (const char *)c->tmp.data : "", value))
			return 0;
		return gfs_list_parse(c, rec, f, elem, value, line);
	}
	return gfs_field_parse(c, f, base, value, line);
}

/* Is every key of rec's own sections flagged GFS_FF_NEED in the view? */
static int gfs_rec_need_all(struct gfs_rec_ctx *c)
{
	struct gfs_flat it = { c->rec, 0, 0, 0, 0, NULL };
	const char *in = c->rec->section;
	const struct gfs_field *f;

	while ((f = gfs_flat_next(&it))) {
		in = it.section ? it.section : in;
		if ((f->flags & GFS_FF_NEED) && !gfs_rec_seen(c, f, it.part, SIZE_MAX, 0))
			return gfs_err(c->ar, -EINVAL, "%s: [%s] %s missing", c->view, in, f->key);
	}
	return 0;
}

/*
 * A GROUP counted by a product (width x height): the view gives as many
 * elements as the factors it leaves (or sets) say; it sets no count.
 */
static int gfs_rec_product(struct gfs_rec_ctx *c, const struct gfs_field *f, size_t n)
{
	const uint8_t *base = f->count_in ? c->elems[f->count_in - 1][0].data : c->fixed;
	size_t want = gfs_group_elems(f, base);

	if (n == want)
		return 0;
	return gfs_err(c->ar, -EINVAL, "%s: %zu %ss, want %zu x %llu = %zu", c->view, n, f->group->section,
		       gfs_group_count(f, base), (unsigned long long)gfs_le(base + f->mul_off, f->mul_width),
		       want);
}

/*
 * After the view: every group as long as its table allows (a record that
 * had fewer elements may keep them), the elements of a group sized by a
 * field all as long, that field and each count field set.
 */
static int gfs_rec_settle(struct gfs_rec_ctx *c)
{
	for (size_t g = 0; g < c->t.n; g++) {
		const struct gfs_field *f = c->t.f[g];
		const struct gfs_record *gr = f->group;
		size_t n = c->new_n[g];

		if (f->kind != GFS_FK_GROUP)
			continue;
		if (f->min > 0 && n < (uint64_t)f->min && n != c->t.cnt[g])
			return gfs_err(c->ar, -EINVAL, "%s: %zu %ss, want at least %lld", c->view, n,
				       gr->section, (long long)f->min);
		if (f->size_width && n) {
			const struct gfs_field *l = &gr->fields[0];
			size_t w = c->elems[g][0].len, it = l->kind == GFS_FK_LIST ? l->group->size : 1;
			const char *what = l->kind == GFS_FK_LIST ? l->group->section : "byte";

			for (size_t k = 1; k < n; k++)
				if (c->elems[g][k].len != w)
					return gfs_err(c->ar, -EINVAL, "%s: [%s %zu] has %zu %ss, [%s 0] %zu: "
						       "every [%s N] is as long", c->view, gr->section, k,
						       c->elems[g][k].len / it, what, gr->section, w / it,
						       gr->section);
			if (f->size_mul_width && w != gfs_sized(f, c->fixed))
				return gfs_err(c->ar, -EINVAL, "%s: [%s 0] has %zu %ss, want %llu x %llu", c->view,
					       gr->section, w / it, what,
					       (unsigned long long)gfs_le(c->fixed + f->size_off, f->size_width),
					       (unsigned long long)gfs_le(c->fixed + f->size_mul_off,
									  f->size_mul_width));
			if (!f->size_mul_width && w > gfs_count_max(f->size_width, 0))
				return gfs_err(c->ar, -EINVAL, "%s: [%s 0] has %zu %ss, at most %llu",
					       c->view, gr->section, w / it, what,
					       (unsigned long long)gfs_count_max(f->size_width, 0) / it);
			if (!f->size_mul_width)		/* (a product's factors are the view's) */
				gfs_le_put(c->fixed + f->size_off, f->size_width, w);
		}
		if (f->mul_width) {
			int r = gfs_rec_product(c, f, n);

			if (r)
				return r;
		} else {
			gfs_record_count_set(f, f->count_in ? c->elems[f->count_in - 1][0].data : c->fixed, n);
		}
	}
	return 0;
}

/*
 * Append the elements of the tagged GROUP of part g as their variants'
 * bytes, each with its old element (at its place, or, when elements came or
 * went, the first unused one of its match field's value).
 */
static int gfs_tag_group(struct gfs_rec_ctx *c, size_t g, const uint8_t *old, size_t oldlen,
			 struct gfs_buf *out)
{
	const struct gfs_field *f = c->t.f[g], *mf = f->match ? gfs_record_field(f->group, f->match) : NULL;
	size_t on = c->t.cnt[g], nn = c->new_n[g], *at = malloc((on + 1) * sizeof(*at));
	uint8_t *used = calloc(on + 1, 1);
	char why[GFS_WHY_MAX];
	int r = at && used ? 0 : -ENOMEM;

	for (size_t k = 0, pos = c->t.at[g]; k <= on && !r; k++) {
		at[k] = pos;
		if (k < on)
			pos += gfs_elem_size(f, old, old + pos, oldlen - pos);
	}
	for (size_t k = 0; k < nn && !r; k++) {
		const uint8_t *v = c->elems[g][k].data;
		size_t from = nn == on ? k : on;

		for (size_t j = 0; j < on && from == on && mf; j++) {
			const struct gfs_record *ovr = gfs_elem_rec(f, old + at[j], at[j + 1] - at[j]);
			const struct gfs_field *om = gfs_field_twin(ovr, mf);

			if (!used[j] && om && gfs_field_get(om, old + at[j]) == gfs_field_get(mf, v))
				from = j;
		}
		if (from < on)
			used[from] = 1;
		r = gfs_tag_store(f, k, v, from < on ? old + at[from] : NULL, from < on ? at[from + 1] - at[from] : 0,
				  out, why, sizeof(why));
		if (r == -EINVAL)
			r = gfs_err(c->ar, -EINVAL, "%s: %s", c->view, why);
	}
	free(at);
	free(used);
	return r;
}

int gfs_record_parse(struct gfs_archive *ar, const char *view, const struct gfs_record *rec,
		     const uint8_t *old, size_t oldlen, const uint8_t *data, size_t len,
		     const struct gfs_rec_refs *refs, struct gfs_buf *out)
{
	struct gfs_rec_ctx c;
	int r = 0;

	memset(&c, 0, sizeof(c));
	if (!gfs_record_fits(rec, old, oldlen, &c.t))
		return gfs_err(ar, -EINVAL, "%s: the record does not decode", view);
	if (!gfs_utf8_valid(data, len))
		return gfs_err(ar, -EINVAL, "%s: not UTF-8 text", view);
	c.ar = ar;
	c.view = view;
	c.rec = rec;
	c.refs = refs;
	c.fixed = malloc(rec->size ? rec->size : 1);
	if (!c.fixed)
		return -ENOMEM;
	if (rec->size)
		memcpy(c.fixed, old, rec->size);
	for (size_t g = 0; g < c.t.n && !r; g++) {
		const struct gfs_field *f = c.t.f[g];
		size_t n = c.t.cnt[g], pos = c.t.at[g];

		/*
		 * a fixed group (a PART, a CSTR, a GROUP on one line) keeps its elements until the view
		 * says otherwise; a variable one (and one a line an element) has those the view names
		 */
		c.new_n[g] = f->kind == GFS_FK_GROUP && ((f->flags & GFS_FF_LINES) ||
			     (gfs_group_var(f) && !(f->flags & GFS_FF_LINE))) ? 0 : n;
		c.cap[g] = n;
		c.elems[g] = calloc(n ? n : 1, sizeof(struct gfs_buf));
		if (!c.elems[g]) {
			r = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < n && !r; k++) {
			size_t es = gfs_elem_size(f, old, old + pos, oldlen - pos);

			r = gfs_buf_grow(&c.elems[g][k], 1);
			if (!r && f->kind == GFS_FK_GROUP && f->variants &&
			    !(r = gfs_buf_set_len(&c.elems[g][k], f->group->size)))
				gfs_tag_view(f, gfs_elem_rec(f, old + pos, es), old + pos, c.elems[g][k].data);
			else if (!r)
				r = gfs_buf_add(&c.elems[g][k], old + pos, es);
			pos += es;
		}
	}
	r = r ? r : gfs_ini_parse(ar, view, data, len, gfs_rec_kv, &c);
	r = r ? r : gfs_rec_need_all(&c);
	r = r ? r : gfs_rec_settle(&c);
	r = r ? r : gfs_buf_add(out, c.fixed, rec->size);
	for (size_t g = 0; g < c.t.n && !r; g++) {
		for (size_t k = 0; k < c.new_n[g] && !r && !c.t.f[g]->variants; k++)
			r = gfs_buf_add(out, c.elems[g][k].data, c.elems[g][k].len);
		if (!r && c.t.f[g]->kind == GFS_FK_GROUP && c.t.f[g]->variants)
			r = gfs_tag_group(&c, g, old, oldlen, out);
	}
	if (!r)
		r = gfs_buf_add(out, old + c.t.end, oldlen - c.t.end);
	for (size_t g = 0; g < c.t.n; g++) {
		for (size_t k = 0; k < c.cap[g]; k++)
			gfs_buf_release(&c.elems[g][k]);
		free(c.elems[g]);
	}
	gfs_buf_release(&c.tmp);
	gfs_buf_release(&c.seen);
	gfs_buf_release(&c.eseen);
	free(c.fixed);
	return r;
}

/* ---- visiting the values ------------------------------------------------------ */

static int gfs_fields_each(const struct gfs_record *rec, const uint8_t *base, size_t elen,
			   const struct gfs_tail *t, const uint8_t *p,
			   int (*fn)(void *ctx, const struct gfs_field *f, uint64_t v), void *ctx)
{
	struct gfs_flat it = { rec, 0, 0, 0, 0, NULL };
	const struct gfs_field *f;
	int r = 0;

	while (!r && (f = gfs_flat_next(&it))) {
		const uint8_t *b = it.part == SIZE_MAX ? base : p + t->at[it.part];

		switch (f->kind) {
		case GFS_FK_UINT: case GFS_FK_SINT: case GFS_FK_HEX: case GFS_FK_ENUM: case GFS_FK_REF:
			r = fn(ctx, f, gfs_field_get(f, b));
			break;
		case GFS_FK_LIST:
			for (size_t k = 0, n = gfs_list_count(f, b, elen); k < n && !r; k++)
				r = gfs_fields_each(f->group, b + gfs_list_at(rec, f, b, elen) +
						    k * f->group->size, f->group->size, NULL, NULL, fn, ctx);
			break;
		default:
			break;
		}
	}
	return r;
}

int gfs_record_each(const struct gfs_record *rec, const uint8_t *p, size_t len,
		    int (*fn)(void *ctx, const struct gfs_field *f, uint64_t v), void *ctx)
{
	struct gfs_tail t;
	int r;

	if (!gfs_record_fits(rec, p, len, &t))
		return -EBADMSG;
	r = gfs_fields_each(rec, p, rec->size, &t, p, fn, ctx);
	for (size_t j = 0; j < t.n && !r; j++) {
		size_t pos = t.at[j];

		if (t.f[j]->kind != GFS_FK_GROUP)
			continue;
		for (size_t k = 0; k < t.cnt[j] && !r; k++) {
			size_t es = gfs_elem_size(t.f[j], p, p + pos, len - pos);

			r = gfs_fields_each(gfs_elem_rec(t.f[j], p + pos, es), p + pos, es, NULL, NULL, fn, ctx);
			pos += es;
		}
	}
	return r;
}
