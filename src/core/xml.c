/*
 * xml.c - the small, strict, bounded XML reader of gfs_xml.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_buf.h"
#include "gfs_xml.h"

struct xp {
	const uint8_t *p;
	size_t len, pos;
	unsigned line;
	struct gfs_xml *x;
	char *why;
	size_t whylen;
};

static int xfail(struct xp *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int xfail(struct xp *s, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(s->why, s->whylen, "line %u: ", s->line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < s->whylen)
		vsnprintf(s->why + n, s->whylen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int at(struct xp *s, const char *lit)
{
	size_t n = strlen(lit);

	return s->len - s->pos >= n && !memcmp(s->p + s->pos, lit, n);
}

static void adv(struct xp *s, size_t n)
{
	for (size_t i = 0; i < n && s->pos < s->len; i++)
		if (s->p[s->pos++] == '\n')
			s->line++;
}

/* The first "]]>" in p[0..n), or NULL. */
static const uint8_t *find_cdata_end(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if (p[i] == ']' && p[i + 1] == ']' && p[i + 2] == '>')
			return p + i;
	return NULL;
}

static int is_ws(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skip_ws(struct xp *s)
{
	while (s->pos < s->len && is_ws(s->p[s->pos]))
		adv(s, 1);
}

static int name_char(uint8_t c, int first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80)
		return 1;
	return !first && ((c >= '0' && c <= '9') || c == '-' || c == '.');
}

/* A name at the cursor, malloc'd; NULL (and why) when there is none. */
static char *read_name(struct xp *s, const char *what)
{
	size_t b = s->pos;
	char *n;

	if (s->pos >= s->len || !name_char(s->p[s->pos], 1)) {
		xfail(s, "%s expected", what);
		return NULL;
	}
	while (s->pos < s->len && name_char(s->p[s->pos], 0))
		s->pos++;
	n = malloc(s->pos - b + 1);
	if (n) {
		memcpy(n, s->p + b, s->pos - b);
		n[s->pos - b] = '\0';
	} else {
		xfail(s, "out of memory");
	}
	return n;
}

/* Skip "<!--...-->" or "<?...?>" at the cursor. */
static int skip_misc(struct xp *s, const char *open, const char *close)
{
	adv(s, strlen(open));
	while (s->pos < s->len && !at(s, close)) {
		if (!strcmp(open, "<!--") && at(s, "--"))
			return xfail(s, "'--' inside a comment");
		adv(s, 1);
	}
	if (s->pos >= s->len)
		return xfail(s, "'%s' not closed", open);
	adv(s, strlen(close));
	return 0;
}

static int put_utf8(struct gfs_buf *b, unsigned long c)
{
	uint8_t u[4];
	size_t n;

	if (c < 0x80) {
		u[0] = (uint8_t)c;
		n = 1;
	} else if (c < 0x800) {
		u[0] = (uint8_t)(0xc0 | c >> 6);
		u[1] = (uint8_t)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		u[0] = (uint8_t)(0xe0 | c >> 12);
		u[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (uint8_t)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		u[0] = (uint8_t)(0xf0 | c >> 18);
		u[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (uint8_t)(0x80 | (c & 0x3f));
		n = 4;
	}
	return gfs_buf_add(b, u, n);
}

/* A reference "&...;" at the cursor, decoded into b. */
static int read_ref(struct xp *s, struct gfs_buf *b)
{
	static const struct { const char *name; char c; } ents[] = {
		{ "lt", '<' }, { "gt", '>' }, { "amp", '&' }, { "quot", '"' }, { "apos", '\'' },
	};
	const uint8_t *semi;
	size_t n;

	adv(s, 1);
	semi = memchr(s->p + s->pos, ';', s->len - s->pos < 12 ? s->len - s->pos : 12);
	if (!semi)
		return xfail(s, "'&' that starts no reference");
	n = (size_t)(semi - (s->p + s->pos));
	if (n > 1 && s->p[s->pos] == '#') {
		int hex = s->p[s->pos + 1] == 'x';
		unsigned long c = 0;
		size_t i = 1 + (size_t)hex;

		if (i >= n)
			return xfail(s, "empty character reference");
		for (; i < n; i++) {
			uint8_t d = s->p[s->pos + i];
			unsigned v;

			if (d >= '0' && d <= '9')
				v = d - '0';
			else if (hex && d >= 'a' && d <= 'f')
				v = d - 'a' + 10;
			else if (hex && d >= 'A' && d <= 'F')
				v = d - 'A' + 10;
			else
				return xfail(s, "bad character reference");
			c = c * (hex ? 16 : 10) + v;
			if (c > 0x10ffff)
				return xfail(s, "character reference out of range");
		}
		if (c == 0 || (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff ||
		    (c < 0x20 && c != '\t' && c != '\n' && c != '\r'))
			return xfail(s, "character reference to a character XML does not allow");
		adv(s, n + 1);
		return put_utf8(b, c) ? xfail(s, "out of memory") : 0;
	}
	for (size_t k = 0; k < sizeof(ents) / sizeof(ents[0]); k++)
		if (strlen(ents[k].name) == n && !memcmp(s->p + s->pos, ents[k].name, n)) {
			adv(s, n + 1);
			return gfs_buf_addc(b, (uint8_t)ents[k].c) ? xfail(s, "out of memory") : 0;
		}
	return xfail(s, "unknown entity '&%.*s;'", (int)n, (const char *)s->p + s->pos);
}

static int add_text(struct gfs_xml_el *e, const struct gfs_buf *b)
{
	char *t;

	if (!b->len)
		return 0;
	t = realloc(e->text, e->textlen + b->len + 1);
	if (!t)
		return -ENOMEM;
	memcpy(t + e->textlen, b->data, b->len);
	e->textlen += b->len;
	t[e->textlen] = '\0';
	e->text = t;
	return 0;
}

static void el_free(struct gfs_xml_el *e)
{
	while (e) {
		struct gfs_xml_el *next = e->next;

		el_free(e->kid);
		for (size_t i = 0; i < e->nattrs; i++) {
			free(e->attrs[i].name);
			free(e->attrs[i].value);
		}
		free(e->attrs);
		free(e->name);
		free(e->text);
		free(e);
		e = next;
	}
}

/* The attributes of the start tag at the cursor, up to '>' or "/>" (not consumed). */
static int read_attrs(struct xp *s, struct gfs_xml_el *e)
{
	struct gfs_buf v = GFS_BUF_INIT;
	int r = 0;

	for (;;) {
		size_t before = s->pos;
		struct gfs_xml_attr *na;
		char *name;
		uint8_t q;

		skip_ws(s);
		if (s->pos >= s->len)
			return xfail(s, "<%s> not closed", e->name);
		if (s->p[s->pos] == '>' || at(s, "/>"))
			return 0;
		if (s->pos == before)
			return xfail(s, "blank expected before an attribute of <%s>", e->name);
		if (!(name = read_name(s, "an attribute name")))
			return -EINVAL;
		for (size_t i = 0; i < e->nattrs; i++)
			if (!strcmp(e->attrs[i].name, name)) {
				r = xfail(s, "attribute '%s' twice in <%s>", name, e->name);
				free(name);
				return r;
			}
		if (e->nattrs >= GFS_XML_MAX_ATTRS) {
			free(name);
			return xfail(s, "more than %d attributes in <%s>", GFS_XML_MAX_ATTRS, e->name);
		}
		na = realloc(e->attrs, (e->nattrs + 1) * sizeof(*na));
		if (!na) {
			free(name);
			return xfail(s, "out of memory");
		}
		e->attrs = na;
		e->attrs[e->nattrs].name = name;
		e->attrs[e->nattrs].value = NULL;
		e->nattrs++;
		skip_ws(s);
		if (s->pos >= s->len || s->p[s->pos] != '=')
			return xfail(s, "'=' expected after attribute '%s'", name);
		adv(s, 1);
		skip_ws(s);
		if (s->pos >= s->len || (s->p[s->pos] != '"' && s->p[s->pos] != '\''))
			return xfail(s, "a quoted value expected for attribute '%s'", name);
		q = s->p[s->pos];
		adv(s, 1);
		gfs_buf_release(&v);
		while (!r && s->pos < s->len && s->p[s->pos] != q) {
			uint8_t c = s->p[s->pos];

			if (c == '<')
				r = xfail(s, "'<' in the value of attribute '%s'", name);
			else if (c == '&')
				r = read_ref(s, &v);
			else {
				/* attribute-value normalisation: a blank character is a space */
				r = gfs_buf_addc(&v, is_ws(c) ? ' ' : c) ? xfail(s, "out of memory") : 0;
				adv(s, 1);
			}
		}
		if (!r && s->pos >= s->len)
			r = xfail(s, "the value of attribute '%s' is not closed", name);
		if (!r && gfs_buf_addc(&v, 0))
			r = xfail(s, "out of memory");
		if (r) {
			gfs_buf_release(&v);
			return r;
		}
		adv(s, 1);
		e->attrs[e->nattrs - 1].value = (char *)v.data;
		v = (struct gfs_buf)GFS_BUF_INIT;
	}
}

int gfs_xml_parse(const uint8_t *p, size_t len, struct gfs_xml *x, char *why, size_t whylen)
{
	struct xp s = { p, len, 0, 1, x, why, whylen };
	struct gfs_xml_el *cur = NULL, *last = NULL;
	struct gfs_buf text = GFS_BUF_INIT;
	unsigned depth = 0;
	int r = 0, done = 0;

	memset(x, 0, sizeof(*x));
	if (len > GFS_XML_MAX_SIZE)
		return xfail(&s, "over %zu bytes", GFS_XML_MAX_SIZE);
	if (at(&s, "\xef\xbb\xbf"))
		s.pos = 3;
	if (memchr(p, 0, len))
		return xfail(&s, "a NUL byte");
	while (!r && s.pos < s.len) {
		if (at(&s, "<?")) {
			r = skip_misc(&s, "<?", "?>");
		} else if (at(&s, "<!--")) {
			r = skip_misc(&s, "<!--", "-->");
		} else if (at(&s, "<!DOCTYPE") || at(&s, "<!ENTITY")) {
			r = xfail(&s, "a DOCTYPE or entity declaration is not accepted");
		} else if (at(&s, "<![CDATA[")) {
			const uint8_t *end;

			if (!cur) {
				r = xfail(&s, "CDATA outside the root element");
				break;
			}
			adv(&s, 9);
			end = find_cdata_end(s.p + s.pos, s.len - s.pos);
			if (!end) {
				r = xfail(&s, "CDATA section not closed");
				break;
			}
			if (gfs_buf_add(&text, s.p + s.pos, (size_t)(end - (s.p + s.pos)))) {
				r = xfail(&s, "out of memory");
				break;
			}
			adv(&s, (size_t)(end - (s.p + s.pos)) + 3);
		} else if (at(&s, "</")) {
			char *name;

			adv(&s, 2);
			if (!cur) {
				r = xfail(&s, "an end tag with no element open");
				break;
			}
			if (!(name = read_name(&s, "an element name"))) {
				r = -EINVAL;
				break;
			}
			if (strcmp(name, cur->name))
				r = xfail(&s, "</%s> closes <%s> of line %u", name, cur->name, cur->line);
			free(name);
			skip_ws(&s);
			if (!r && (s.pos >= s.len || s.p[s.pos] != '>'))
				r = xfail(&s, "'>' expected to end </%s>", cur->name);
			if (r)
				break;
			adv(&s, 1);
			if (add_text(cur, &text)) {
				r = xfail(&s, "out of memory");
				break;
			}
			gfs_buf_release(&text);
			last = cur;
			cur = cur->parent;
			depth--;
			if (!cur)
				done = 1;
		} else if (s.p[s.pos] == '<') {
			struct gfs_xml_el *e;

			adv(&s, 1);
			if (done) {
				r = xfail(&s, "a second root element");
				break;
			}
			if (depth >= GFS_XML_MAX_DEPTH || x->nodes >= GFS_XML_MAX_NODES) {
				r = xfail(&s, "more than %s", depth >= GFS_XML_MAX_DEPTH ?
					  "64 levels of elements" : "a million elements");
				break;
			}
			e = calloc(1, sizeof(*e));
			if (!e || !(e->text = calloc(1, 1))) {
				free(e);
				r = xfail(&s, "out of memory");
				break;
			}
			e->line = s.line;
			e->parent = cur;
			/* link it first, so that a failure frees it with the tree */
			if (!cur) {
				x->root = e;
			} else {
				struct gfs_xml_el **k = &cur->kid;

				if (last && last->parent == cur)
					k = &last->next;
				else
					while (*k)
						k = &(*k)->next;
				*k = e;
				if (add_text(cur, &text)) {
					r = xfail(&s, "out of memory");
					break;
				}
				gfs_buf_release(&text);
			}
			x->nodes++;
			if (!(e->name = read_name(&s, "an element name"))) {
				r = -EINVAL;
				break;
			}
			if ((r = read_attrs(&s, e)))
				break;
			if (at(&s, "/>")) {
				adv(&s, 2);
				last = e;
				if (!cur)
					done = 1;
			} else {
				adv(&s, 1);
				cur = e;
				last = NULL;
				depth++;
			}
		} else if (!cur) {
			if (!is_ws(s.p[s.pos])) {
				r = xfail(&s, "text outside the root element");
				break;
			}
			adv(&s, 1);
		} else if (s.p[s.pos] == '&') {
			r = read_ref(&s, &text);
		} else {
			const uint8_t *lt = memchr(s.p + s.pos, '<', s.len - s.pos);
			const uint8_t *amp = memchr(s.p + s.pos, '&', s.len - s.pos);
			const uint8_t *end = lt ? lt : s.p + s.len;
			size_t n;

			if (amp && amp < end)
				end = amp;
			n = (size_t)(end - (s.p + s.pos));
			if (find_cdata_end(s.p + s.pos, n)) {
				r = xfail(&s, "']]>' in text");
				break;
			}
			if (gfs_buf_add(&text, s.p + s.pos, n)) {
				r = xfail(&s, "out of memory");
				break;
			}
			adv(&s, n);
		}
	}
	if (!r && cur)
		r = xfail(&s, "<%s> of line %u is not closed", cur->name, cur->line);
	if (!r && !x->root)
		r = xfail(&s, "no root element");
	gfs_buf_release(&text);
	if (r)
		gfs_xml_free(x);
	return r;
}

void gfs_xml_free(struct gfs_xml *x)
{
	el_free(x->root);
	memset(x, 0, sizeof(*x));
}

const char *gfs_xml_attr(const struct gfs_xml_el *e, const char *name)
{
	for (size_t i = 0; i < e->nattrs; i++)
		if (!strcmp(e->attrs[i].name, name))
			return e->attrs[i].value;
	return NULL;
}
