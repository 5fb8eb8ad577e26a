/*
 * xml.c - the small, strict, bounded XML reader of gfs_xml.h.
 *
 * Linear in its input, time and memory (issue 28): the whole tree (elements,
 * names, attributes, texts) lives in chunks of one arena, freed at once, so
 * no byte of input costs a malloc of its own; the text inside each open
 * element collects in a buffer per depth and is copied once at its end tag;
 * a tag's attributes are checked for duplicates by a scan while few, then
 * through a hash map.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_buf.h"
#include "gfs_strmap.h"
#include "gfs_xml.h"

#define XML_CHUNK	((size_t)64 << 10)	/* arena chunk; bigger requests get their own */
#define XML_SCAN_ATTRS	16			/* attributes checked by a scan; more: by a map */

/* A chunk of the tree's arena (gfs_xml.mem): a list, newest first. */
struct gfs_xml_chunk {
	struct gfs_xml_chunk *next;
	size_t used, cap;
	uint64_t data[];	/* the tree holds pointers and sizes: 8-byte alignment is enough */
};

struct xp {
	const uint8_t *p;
	size_t len, pos;
	unsigned line;
	struct gfs_xml *x;
	char *why;
	size_t whylen;
	struct gfs_buf text[GFS_XML_MAX_DEPTH + 1];	/* text inside the open element of each depth */
	struct gfs_buf value;				/* an attribute value being read */
	struct gfs_xml_attr *attrs;			/* the attributes of the tag being read */
	size_t attrcap;
	struct gfs_strmap seen;				/* their names, past XML_SCAN_ATTRS */
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

/* n bytes of the tree's arena, aligned for any type when align; NULL on ENOMEM. */
static void *xml_alloc(struct gfs_xml *x, size_t n, int align)
{
	struct gfs_xml_chunk *c = x->mem;
	size_t at, a = sizeof(uint64_t);

	if (c) {
		at = align ? (c->used + a - 1) / a * a : c->used;
		if (at <= c->cap && n <= c->cap - at) {
			c->used = at + n;
			return (char *)c->data + at;
		}
	}
	if (n > XML_CHUNK / 4) {
		/* a big piece gets a chunk of its own, behind the one being filled */
		if (n > SIZE_MAX - sizeof(*c) || !(c = malloc(sizeof(*c) + n)))
			return NULL;
		c->used = c->cap = n;
		if (x->mem) {
			c->next = x->mem->next;
			x->mem->next = c;
		} else {
			c->next = NULL;
			x->mem = c;
		}
		return c->data;
	}
	if (!(c = malloc(sizeof(*c) + XML_CHUNK)))
		return NULL;
	c->next = x->mem;
	c->cap = XML_CHUNK;
	c->used = n;
	x->mem = c;
	return c->data;
}

/* A copy of p[0..n) with a NUL after it, in the arena. */
static char *xml_strdup(struct gfs_xml *x, const void *p, size_t n)
{
	char *d = xml_alloc(x, n + 1, 0);

	if (d) {
		if (n)
			memcpy(d, p, n);
		d[n] = '\0';
	}
	return d;
}

/* A name at the cursor: its length (its bytes start at *at); 0 (and why) when there is none. */
static size_t read_name(struct xp *s, const char *what, size_t *at)
{
	*at = s->pos;
	if (s->pos >= s->len || !name_char(s->p[s->pos], 1)) {
		xfail(s, "%s expected", what);
		return 0;
	}
	while (s->pos < s->len && name_char(s->p[s->pos], 0))
		s->pos++;
	return s->pos - *at;
}

/* The name at the cursor copied into the arena; NULL (and why) when there is none. */
static char *take_name(struct xp *s, const char *what)
{
	size_t at, n = read_name(s, what, &at);
	char *d;

	if (!n)
		return NULL;
	if (!(d = xml_strdup(s->x, s->p + at, n)))
		xfail(s, "out of memory");
	return d;
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

/* Is name among the attributes read so far (n of them in s->attrs)? -ENOMEM when the map cannot grow. */
static int attr_seen(struct xp *s, size_t n, const char *name)
{
	size_t *v;
	int r;

	if (n < XML_SCAN_ATTRS) {
		for (size_t i = 0; i < n; i++)
			if (!strcmp(s->attrs[i].name, name))
				return 1;
		return 0;
	}
	for (size_t i = s->seen.n; i < n; i++)	/* the map takes over from the scan */
		if ((r = gfs_strmap_put(&s->seen, s->attrs[i].name, strlen(s->attrs[i].name), &v)) < 0)
			return r;
	r = gfs_strmap_put(&s->seen, name, strlen(name), &v);
	return r < 0 ? r : !r;
}

/* The attributes of the start tag at the cursor, up to '>' or "/>" (not consumed). */
static int read_attrs(struct xp *s, struct gfs_xml_el *e)
{
	size_t n = 0;
	int r = 0;

	for (;;) {
		size_t before = s->pos;
		char *name;
		uint8_t q;

		skip_ws(s);
		if (s->pos >= s->len) {
			r = xfail(s, "<%s> not closed", e->name);
			break;
		}
		if (s->p[s->pos] == '>' || at(s, "/>")) {
			if (n && !(e->attrs = xml_alloc(s->x, n * sizeof(*e->attrs), 1))) {
				r = xfail(s, "out of memory");
				break;
			}
			if (n)
				memcpy(e->attrs, s->attrs, n * sizeof(*e->attrs));
			e->nattrs = n;
			break;
		}
		if (s->pos == before) {
			r = xfail(s, "blank expected before an attribute of <%s>", e->name);
			break;
		}
		if (!(name = take_name(s, "an attribute name"))) {
			r = -EINVAL;
			break;
		}
		if ((r = attr_seen(s, n, name))) {
			r = r < 0 ? xfail(s, "out of memory") : xfail(s, "attribute '%s' twice in <%s>", name, e->name);
			break;
		}
		if (n >= GFS_XML_MAX_ATTRS) {
			r = xfail(s, "more than %d attributes in <%s>", GFS_XML_MAX_ATTRS, e->name);
			break;
		}
		if (n == s->attrcap) {
			size_t cap = s->attrcap ? s->attrcap * 2 : 16;
			struct gfs_xml_attr *na = realloc(s->attrs, cap * sizeof(*na));

			if (!na) {
				r = xfail(s, "out of memory");
				break;
			}
			s->attrs = na;
			s->attrcap = cap;
		}
		skip_ws(s);
		if (s->pos >= s->len || s->p[s->pos] != '=') {
			r = xfail(s, "'=' expected after attribute '%s'", name);
			break;
		}
		adv(s, 1);
		skip_ws(s);
		if (s->pos >= s->len || (s->p[s->pos] != '"' && s->p[s->pos] != '\'')) {
			r = xfail(s, "a quoted value expected for attribute '%s'", name);
			break;
		}
		q = s->p[s->pos];
		adv(s, 1);
		gfs_buf_set_len(&s->value, 0);
		while (!r && s->pos < s->len && s->p[s->pos] != q) {
			uint8_t c = s->p[s->pos];

			if (c == '<')
				r = xfail(s, "'<' in the value of attribute '%s'", name);
			else if (c == '&')
				r = read_ref(s, &s->value);
			else {
				/* attribute-value normalisation: a blank character is a space */
				r = gfs_buf_addc(&s->value, is_ws(c) ? ' ' : c) ? xfail(s, "out of memory") : 0;
				adv(s, 1);
			}
		}
		if (!r && s->pos >= s->len)
			r = xfail(s, "the value of attribute '%s' is not closed", name);
		if (r)
			break;
		adv(s, 1);
		s->attrs[n].name = name;
		if (!(s->attrs[n].value = xml_strdup(s->x, s->value.data, s->value.len))) {
			r = xfail(s, "out of memory");
			break;
		}
		n++;
	}
	if (s->seen.n)
		gfs_strmap_release(&s->seen);
	return r;
}

/* End element e: the text collected inside it becomes its own, in the arena. */
static int end_text(struct xp *s, struct gfs_xml_el *e, struct gfs_buf *b)
{
	if (!(e->text = xml_strdup(s->x, b->data, b->len)))
		return xfail(s, "out of memory");
	e->textlen = b->len;
	gfs_buf_set_len(b, 0);
	return 0;
}

int gfs_xml_parse(const uint8_t *p, size_t len, struct gfs_xml *x, char *why, size_t whylen)
{
	struct xp s = { .p = p, .len = len, .line = 1, .x = x, .why = why, .whylen = whylen,
			.seen = GFS_STRMAP_INIT };
	struct gfs_xml_el *cur = NULL, *last = NULL;
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
			if (gfs_buf_add(&s.text[depth], s.p + s.pos, (size_t)(end - (s.p + s.pos)))) {
				r = xfail(&s, "out of memory");
				break;
			}
			adv(&s, (size_t)(end - (s.p + s.pos)) + 3);
		} else if (at(&s, "</")) {
			size_t nat, n;

			adv(&s, 2);
			if (!cur) {
				r = xfail(&s, "an end tag with no element open");
				break;
			}
			if (!(n = read_name(&s, "an element name", &nat))) {
				r = -EINVAL;
				break;
			}
			if (n != strlen(cur->name) || memcmp(s.p + nat, cur->name, n))
				r = xfail(&s, "</%.*s> closes <%s> of line %u", (int)n, (const char *)s.p + nat,
					  cur->name, cur->line);
			skip_ws(&s);
			if (!r && (s.pos >= s.len || s.p[s.pos] != '>'))
				r = xfail(&s, "'>' expected to end </%s>", cur->name);
			if (r)
				break;
			adv(&s, 1);
			if ((r = end_text(&s, cur, &s.text[depth])))
				break;
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
			if (!(e = xml_alloc(x, sizeof(*e), 1))) {
				r = xfail(&s, "out of memory");
				break;
			}
			memset(e, 0, sizeof(*e));
			e->line = s.line;
			e->parent = cur;
			/* linked first, so that the walk of a failed tree meets no loose end */
			if (!cur)
				x->root = e;
			else if (last && last->parent == cur)
				last->next = e;
			else
				cur->kid = e;
			x->nodes++;
			if (!(e->name = take_name(&s, "an element name"))) {
				r = -EINVAL;
				break;
			}
			if ((r = read_attrs(&s, e)))
				break;
			if (at(&s, "/>")) {
				adv(&s, 2);
				if ((r = end_text(&s, e, &s.text[depth + 1])))
					break;
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
			r = read_ref(&s, &s.text[depth]);
		} else {
			const uint8_t *lt = memchr(s.p + s.pos, '<', s.len - s.pos);
			const uint8_t *end = lt ? lt : s.p + s.len, *amp;
			size_t n;

			/* '&' looked for only up to the '<': a search to the end of the
			   input for each piece of text would make it quadratic */
			if ((amp = memchr(s.p + s.pos, '&', (size_t)(end - (s.p + s.pos)))))
				end = amp;
			n = (size_t)(end - (s.p + s.pos));
			if (find_cdata_end(s.p + s.pos, n)) {
				r = xfail(&s, "']]>' in text");
				break;
			}
			if (gfs_buf_add(&s.text[depth], s.p + s.pos, n)) {
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
	for (size_t i = 0; i <= GFS_XML_MAX_DEPTH; i++)
		gfs_buf_release(&s.text[i]);
	gfs_buf_release(&s.value);
	gfs_strmap_release(&s.seen);
	free(s.attrs);
	if (r)
		gfs_xml_free(x);
	return r;
}

void gfs_xml_free(struct gfs_xml *x)
{
	for (struct gfs_xml_chunk *c = x->mem, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(x, 0, sizeof(*x));
}

const char *gfs_xml_attr(const struct gfs_xml_el *e, const char *name)
{
	for (size_t i = 0; i < e->nattrs; i++)
		if (!strcmp(e->attrs[i].name, name))
			return e->attrs[i].value;
	return NULL;
}
