/* The one CSV dialect of grid and table views; see gfs_grid.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "gamefs.h"
#include "gfs_grid.h"


void gfs_grid_release(struct gfs_grid *g)
{
	free(g->text);
	free(g->cells);
	free(g->rows);
	g->text = NULL;
	g->cells = NULL;
	g->rows = NULL;
	g->nrows = 0;
	g->header.ncells = 0;
}

static int gfs_grid_blank(int c)
{
	return c == ' ' || c == '\t';
}

/*
 * Split one line (NUL-terminated, in place) into cells appended to cells[];
 * *n counts them.  Returns 0, or the 1-based column of a bad quote.
 */
static size_t gfs_grid_split(char *s, char **cells, size_t *n)
{
	for (;;) {
		char *start, *w;

		while (gfs_grid_blank(*s))
			s++;
		start = w = s;
		if (*s == '"') {
			for (s++;; s++) {
				if (!*s)
					return *n + 1;
				if (*s == '"') {
					if (s[1] != '"')
						break;
					s++;
				}
				*w++ = *s;
			}
			s++;
			while (gfs_grid_blank(*s))
				s++;
			if (*s && *s != ',')
				return *n + 1;
		} else {
			char *end;

			while (*s && *s != ',')
				s++;
			end = s;
			while (end > start && gfs_grid_blank(end[-1]))
				end--;
			w = end;
		}
		cells[(*n)++] = start;
		if (!*s) {
			*w = 0;
			return 0;
		}
		*w = 0;
		s++;
	}
}

static int gfs_grid_numeric(const char *s)
{
	return (*s >= '0' && *s <= '9') || *s == '+' || *s == '-' || *s == '.';
}

static int gfs_grid_name_is(const char *s, const char *want)
{
	for (;;) {
		while (gfs_grid_blank(*s))
			s++;
		while (gfs_grid_blank(*want))
			want++;
		if (!*s || !*want)
			return !*s && !*want;
		if ((*s | 0x20) != (*want | 0x20))
			return 0;
		s++;
		want++;
	}
}

int gfs_grid_parse(struct gfs_archive *ar, const char *view, const uint8_t *data, size_t len,
		   size_t ncols, const char *const *names, struct gfs_grid *g)
{
	size_t ncell = 1, nline = 1, used = 0, nrows = 0;
	unsigned line = 0;
	char *p;
	int r = 0;

	memset(g, 0, sizeof(*g));
	g->view = view;
	g->names = names;
	gfs_skip_bom(&data, &len);
	if ((len && memchr(data, 0, len)) || !gfs_utf8_valid(data, len))
		return gfs_err(ar, -EINVAL, "%s: not UTF-8 text", view);
	for (size_t i = 0; i < len; i++) {
		ncell += data[i] == ',';
		nline += data[i] == '\n';
	}
	g->text = malloc(len + 1);
	g->cells = calloc(ncell + nline, sizeof(*g->cells));
	g->rows = calloc(nline, sizeof(*g->rows));
	if (!g->text || !g->cells || !g->rows) {
		r = -ENOMEM;
		goto fail;
	}
	if (len)
		memcpy(g->text, data, len);
	g->text[len] = 0;
	for (p = g->text; p; ) {
		char *nl = strchr(p, '\n'), *s = p;
		struct gfs_grid_row row;
		size_t bad, k;

		if (nl)
			*nl = 0;
		p = nl ? nl + 1 : NULL;
		line++;
		k = strlen(s);
		if (k && s[k - 1] == '\r')
			s[--k] = 0;
		while (gfs_grid_blank(*s))
			s++;
		if (!*s)
			continue;
		row.line = line;
		row.cell = g->cells + used;
		row.ncells = 0;
		bad = gfs_grid_split(s, row.cell, &row.ncells);
		used += row.ncells;
		if (bad) {
			r = gfs_err(ar, -EINVAL, "%s: line %u, column %zu: a quoted cell must end with a "
				    "quote before the next comma", view, line, bad);
			goto fail;
		}
		if (ncols && row.ncells != ncols) {
			r = gfs_err(ar, -EINVAL, "%s: line %u: %zu values, want %zu", view, line,
				    row.ncells, ncols);
			goto fail;
		}
		if (!nrows && !g->header.ncells && !gfs_grid_numeric(row.cell[0])) {
			for (size_t c = 0; names && c < row.ncells; c++)
				if (!names[c] || !gfs_grid_name_is(row.cell[c], names[c])) {
					r = gfs_err(ar, -EINVAL, "%s: line %u, column %zu: header '%s', "
						    "want %s%s%s", view, line, c + 1, row.cell[c],
						    names[c] ? "'" : "no more columns", names[c] ? names[c] : "",
						    names[c] ? "'" : "");
					goto fail;
				}
			g->header = row;
			continue;
		}
		g->rows[nrows++] = row;
	}
	g->nrows = nrows;
	return 0;
fail:
	gfs_grid_release(g);
	return r;
}

int gfs_grid_err(struct gfs_archive *ar, const struct gfs_grid *g, size_t row, size_t col,
		 const char *what)
{
	const char *name = g->names ? g->names[col] :
			   col < g->header.ncells ? g->header.cell[col] : NULL;

	if (name)
		return gfs_err(ar, -EINVAL, "%s: line %u, column %zu (%s): %s", g->view,
			       g->rows[row].line, col + 1, name, what);
	return gfs_err(ar, -EINVAL, "%s: line %u, column %zu: %s", g->view, g->rows[row].line,
		       col + 1, what);
}

int gfs_grid_int(struct gfs_archive *ar, const struct gfs_grid *g, size_t row, size_t col,
		 int64_t min, int64_t max, int64_t *v)
{
	const char *s = col < g->rows[row].ncells ? g->rows[row].cell[col] : "";
	char what[160];

	if (!gfs_parse_int(s, min, max, v))
		return 0;
	snprintf(what, sizeof(what), "'%.60s' is not a number in %lld..%lld", s, (long long)min,
		 (long long)max);
	return gfs_grid_err(ar, g, row, col, what);
}

/* h data rows of w cells each, else -EINVAL after gfs_err(). */
static int gfs_grid_shape(struct gfs_archive *ar, const struct gfs_grid *g, size_t w, size_t h)
{
	if (g->nrows != h)
		return gfs_err(ar, -EINVAL, "%s: %zu rows, want %zu", g->view, g->nrows, h);
	for (size_t y = 0; y < h; y++)
		if (g->rows[y].ncells != w)
			return gfs_err(ar, -EINVAL, "%s: line %u: %zu values, want %zu", g->view,
				       g->rows[y].line, g->rows[y].ncells, w);
	return 0;
}

int gfs_grid_u16(struct gfs_archive *ar, const struct gfs_grid *g, size_t w, size_t h,
		 int64_t max, uint16_t *out)
{
	int r = gfs_grid_shape(ar, g, w, h);

	for (size_t y = 0; y < h && !r; y++)
		for (size_t x = 0; x < w && !r; x++) {
			int64_t v = 0;

			r = gfs_grid_int(ar, g, y, x, -1, max, &v);
			out[y * w + x] = v < 0 ? 0xffff : (uint16_t)v;
		}
	return r;
}

int gfs_grid_u8(struct gfs_archive *ar, const struct gfs_grid *g, size_t w, size_t h,
		uint8_t *out)
{
	int r = gfs_grid_shape(ar, g, w, h);

	for (size_t y = 0; y < h && !r; y++)
		for (size_t x = 0; x < w && !r; x++) {
			int64_t v = 0;

			r = gfs_grid_int(ar, g, y, x, 0, 255, &v);
			out[y * w + x] = (uint8_t)v;
		}
	return r;
}

int gfs_grid_xheader_from(struct gfs_buf *out, size_t w, size_t first)
{
	int r = 0;

	for (size_t x = 0; x < w && !r; x++) {
		r = x ? gfs_buf_addc(out, ',') : 0;
		if (!r)
			r = gfs_buf_addc(out, 'x');
		if (!r)
			r = gfs_buf_add_dec(out, first + x);
	}
	return r ? r : gfs_buf_addc(out, '\n');
}

int gfs_grid_xheader(struct gfs_buf *out, size_t w)
{
	return gfs_grid_xheader_from(out, w, 0);
}

int gfs_grid_render_u16(struct gfs_buf *out, const uint16_t *v, size_t n, size_t w)
{
	int r = 0;

	for (size_t i = 0; i < n && !r; i++) {
		r = v[i] == 0xffff ? gfs_buf_adds(out, "-1") : gfs_buf_add_dec(out, v[i]);
		if (!r)
			r = gfs_buf_addc(out, (i + 1) % w ? ',' : '\n');
	}
	return r;
}

int gfs_grid_render_u8(struct gfs_buf *out, const uint8_t *v, size_t n, size_t w)
{
	int r = 0;

	for (size_t i = 0; i < n && !r; i++) {
		r = gfs_buf_add_dec(out, v[i]);
		if (!r)
			r = gfs_buf_addc(out, (i + 1) % w ? ',' : '\n');
	}
	return r;
}

/* A whole grid view into 16-bit cells (o16, up to max) or bytes (o8). */
static int gfs_grid_read(struct gfs_archive *ar, const char *view, const uint8_t *data, size_t len,
			 size_t w, size_t h, int64_t max, uint16_t *o16, uint8_t *o8)
{
	struct gfs_grid g;
	int r = gfs_grid_parse(ar, view, data, len, w, NULL, &g);

	if (r)
		return r;
	r = o16 ? gfs_grid_u16(ar, &g, w, h, max, o16) : gfs_grid_u8(ar, &g, w, h, o8);
	gfs_grid_release(&g);
	return r;
}

int gfs_grid_read_u16(struct gfs_archive *ar, const char *view, const uint8_t *data, size_t len,
		      size_t w, size_t h, int64_t max, uint16_t *out)
{
	return gfs_grid_read(ar, view, data, len, w, h, max, out, NULL);
}

int gfs_grid_read_u8(struct gfs_archive *ar, const char *view, const uint8_t *data, size_t len,
		     size_t w, size_t h, uint8_t *out)
{
	return gfs_grid_read(ar, view, data, len, w, h, 255, NULL, out);
}

int gfs_grid_write_u16(struct gfs_buf *out, const uint16_t *v, size_t w, size_t h)
{
	int r = gfs_grid_xheader(out, w);

	return r ? r : gfs_grid_render_u16(out, v, w * h, w);
}

int gfs_grid_write_u8(struct gfs_buf *out, const uint8_t *v, size_t w, size_t h)
{
	int r = gfs_grid_xheader(out, w);

	return r ? r : gfs_grid_render_u8(out, v, w * h, w);
}
