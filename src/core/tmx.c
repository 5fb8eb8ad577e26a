/*
 * tmx.c - the format-independent pieces of TMX maps (gfs_tmx.h): what
 * every format's Tiled view writes and reads the same way.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_tmx.h"

int gfs_tmx_attr(struct gfs_buf *out, const char *s, size_t len)
{
	int r = 0;

	for (size_t i = 0; i < len && !r; i++) {
		uint8_t ch = (uint8_t)s[i];

		switch (ch) {
		case '&': r = gfs_buf_adds(out, "&amp;"); break;
		case '<': r = gfs_buf_adds(out, "&lt;"); break;
		case '>': r = gfs_buf_adds(out, "&gt;"); break;
		case '"': r = gfs_buf_adds(out, "&quot;"); break;
		case '\'': r = gfs_buf_adds(out, "&apos;"); break;
		default:
			r = ch < 0x20 || ch > 0x7e ? gfs_buf_printf(out, "\\x%02X", ch) :
			    gfs_buf_addc(out, ch);
		}
	}
	return r;
}

long gfs_tmx_num(const struct gfs_xml_el *e, const char *name)
{
	const char *v = gfs_xml_attr(e, name);
	char *end;
	long x;

	if (!v || !*v)
		return -1;
	x = strtol(v, &end, 10);
	return *end || x < 0 ? -1 : x;
}

int gfs_tmx_err(struct gfs_archive *ar, const char *view, const struct gfs_xml_el *e, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return gfs_err(ar, -EINVAL, "%s: line %u: %s", view, e->line, msg);
}

const char *gfs_tmx_tileset_name(const struct gfs_xml_el *e, char *buf, size_t size)
{
	const char *name = gfs_xml_attr(e, "name"), *src = gfs_xml_attr(e, "source");
	const char *slash, *b, *dot;
	size_t k;

	if (name || !src)
		return name;
	/* an external tileset: known by its file's name */
	slash = strrchr(src, '/');
	b = slash ? slash + 1 : src;
	dot = strrchr(b, '.');
	k = dot ? (size_t)(dot - b) : strlen(b);
	if (k >= size)
		return NULL;
	memcpy(buf, b, k);
	buf[k] = '\0';
	return buf;
}

/* A gid: decimal digits only, at most 2^32 - 1 (flip bits included); -1 otherwise. */
static int tmx_gid(const char *s, uint32_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
		if (x > UINT32_MAX)
			return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

static int tmx_tiles(struct gfs_archive *ar, const char *view, const struct gfs_xml_el *d, size_t cells,
		     uint32_t *gids, size_t *k)
{
	for (const struct gfs_xml_el *t = d->kid; t; t = t->next) {
		const char *g = gfs_xml_attr(t, "gid");

		if (strcmp(t->name, "tile"))
			return gfs_tmx_err(ar, view, t, "<%s> in a layer's data", t->name);
		if (*k == cells)
			return gfs_tmx_err(ar, view, t, "more than %zu tiles", cells);
		gids[*k] = 0;	/* <tile/>: an empty cell */
		if (g && tmx_gid(g, &gids[*k]))
			return gfs_tmx_err(ar, view, t, "gid '%.20s' is not a number from 0 to 4294967295", g);
		(*k)++;
	}
	return 0;
}

static int tmx_csv(struct gfs_archive *ar, const char *view, const struct gfs_xml_el *d, size_t cells,
		   uint32_t *gids, size_t *k)
{
	const char *s = d->text;

	while (*s) {
		char *end;
		unsigned long v;

		while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (*s < '0' || *s > '9')
			return gfs_tmx_err(ar, view, d, "'%.10s' in CSV data is not a gid", s);
		v = strtoul(s, &end, 10);
		if (v > 0xffffffffUL)
			return gfs_tmx_err(ar, view, d, "gid %lu out of range", v);
		if (*k == cells)
			return gfs_tmx_err(ar, view, d, "more than %zu gids", cells);
		gids[(*k)++] = (uint32_t)v;
		s = end;
		while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
			s++;
		if (*s == ',')
			s++;
		else if (*s)
			return gfs_tmx_err(ar, view, d, "'%.10s' in CSV data", s);
	}
	return 0;
}

static int tmx_base64(struct gfs_archive *ar, const char *view, const struct gfs_xml_el *d, size_t cells,
		      uint32_t *gids, size_t *k)
{
	const char *comp = gfs_xml_attr(d, "compression");
	struct gfs_buf raw = GFS_BUF_INIT, inf = GFS_BUF_INIT;
	const struct gfs_buf *bytes = &raw;
	int r = 0;

	if (comp && *comp && strcmp(comp, "zlib") && strcmp(comp, "gzip"))
		return gfs_tmx_err(ar, view, d, "compression '%s' is not zlib or gzip", comp);
	if (gfs_base64_decode(d->text, d->textlen, &raw))
		return gfs_tmx_err(ar, view, d, "the layer data is not base64");
	if (comp && *comp) {
		if (gfs_inflate_zgz(raw.data, raw.len, cells * 4, &inf)) {
			r = gfs_tmx_err(ar, view, d, "the layer data does not inflate as %s (or is over %zu bytes)",
					comp, cells * 4);
			goto out;
		}
		bytes = &inf;
	}
	if (bytes->len != cells * 4) {
		r = gfs_tmx_err(ar, view, d, "%zu bytes of layer data, not %zu", bytes->len, cells * 4);
		goto out;
	}
	for (*k = 0; *k < cells; (*k)++) {
		const uint8_t *p = bytes->data + *k * 4;

		gids[*k] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	}
out:
	gfs_buf_release(&inf);
	gfs_buf_release(&raw);
	return r;
}

int gfs_tmx_data(struct gfs_archive *ar, const char *view, const struct gfs_xml_el *d, size_t cells,
		 uint32_t *gids)
{
	const char *enc = gfs_xml_attr(d, "encoding");
	size_t k = 0;
	int r;

	if (!enc)
		r = tmx_tiles(ar, view, d, cells, gids, &k);
	else if (!strcmp(enc, "csv") && gfs_xml_attr(d, "compression"))
		return gfs_tmx_err(ar, view, d, "CSV data cannot be compressed");
	else if (!strcmp(enc, "csv"))
		r = tmx_csv(ar, view, d, cells, gids, &k);
	else if (!strcmp(enc, "base64"))
		r = tmx_base64(ar, view, d, cells, gids, &k);
	else
		return gfs_tmx_err(ar, view, d, "encoding '%s' is not csv or base64", enc);
	if (!r && k != cells)
		r = gfs_tmx_err(ar, view, d, "%zu gids, the map has %zu cells", k, cells);
	return r;
}

int gfs_tmx_layer(struct gfs_archive *ar, const char *view, const struct gfs_xml_el *e, const char *name,
		  unsigned w, unsigned h, uint32_t *gids)
{
	const struct gfs_xml_el *d;
	size_t cells = (size_t)w * h;
	int r;

	if (gfs_tmx_num(e, "width") != (long)w || gfs_tmx_num(e, "height") != (long)h)
		return gfs_tmx_err(ar, view, e, "layer '%s' is not %ux%u (the <map> element's width and height)", name, w, h);
	for (d = e->kid; d && strcmp(d->name, "data"); d = d->next)
		if (strcmp(d->name, "properties"))
			return gfs_tmx_err(ar, view, d, "<%s> in layer '%s'", d->name, name);
	if (!d)
		return gfs_tmx_err(ar, view, e, "layer '%s' has no <data>", name);
	if (d->kid && gfs_xml_attr(d, "encoding"))
		return gfs_tmx_err(ar, view, d->kid, "<%s> in layer '%s' (chunks: an infinite map?)", d->kid->name,
				   name);
	r = gfs_tmx_data(ar, view, d, cells, gids);
	for (size_t i = 0; i < cells && !r; i++)
		if (gids[i] & 0xf0000000u)
			r = gfs_tmx_err(ar, view, d, "layer '%s' cell %zu,%zu: a flipped or rotated tile", name,
					i % w, i / w);
	return r;
}
