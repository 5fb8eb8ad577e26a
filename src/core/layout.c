/* A record layout for a size the caller gives, and its CSV face (one element a row); see gfs_layout.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gamefs.h"
#include "gfs_grid.h"
#include "gfs_layout.h"

#define GFS_LINES_MAXFIELDS 16	/* values on a line of the lines face */

int gfs_table_render(const struct gfs_table *t, const uint8_t *p, size_t n,
		     const struct gfs_rec_refs *refs, struct gfs_buf *out)
{
	const struct gfs_record *rec = t->rec;
	int r = gfs_buf_adds(out, t->index);

	for (size_t c = 0; c < rec->nfields && !r; c++)
		r = gfs_buf_printf(out, ",%s", rec->fields[c].key);
	if (!r)
		r = gfs_buf_addc(out, '\n');
	for (size_t i = 0; i < n && !r; i++) {
		const uint8_t *e = p + i * (t->stride ? t->stride : rec->size);

		if (t->used && !t->used(e))
			continue;
		r = gfs_buf_add_dec(out, i);
		for (size_t c = 0; c < rec->nfields && !r; c++) {
			r = gfs_buf_addc(out, ',');
			if (!r)
				r = gfs_field_render(&rec->fields[c], e, refs, out);
		}
		if (!r)
			r = gfs_buf_addc(out, '\n');
	}
	return r;
}

/* The cells of row i of g into the element e (the old one o, or zeros; o NULL), then check_cell(). */
static int gfs_table_cells(struct gfs_archive *ar, const struct gfs_table *t, const struct gfs_grid *g,
			   size_t i, uint8_t *e, const uint8_t *o, const struct gfs_rec_refs *refs,
			   struct gfs_buf *tmp, void *ctx)
{
	const struct gfs_record *rec = t->rec;
	const struct gfs_grid_row *row = &g->rows[i];
	char why[GFS_WHY_MAX];
	int r;

	for (size_t c = 0; c < rec->nfields; c++) {
		const char *cell = c + 1 < row->ncells ? row->cell[c + 1] : "";

		r = gfs_field_scan(&rec->fields[c], e, cell, refs, tmp, why, sizeof(why));
		if (r == -EINVAL)
			return gfs_grid_err(ar, g, i, c + 1, why);
		if (r)
			return r;
	}
	for (size_t c = 0; t->check_cell && c < rec->nfields; c++)
		if (t->check_cell(ctx, c, e, o, why, sizeof(why)))
			return gfs_grid_err(ar, g, i, c + 1, why);
	return 0;
}

/* Row i of g into the element e (the old one o, or zeros): its shape, its index, then every column. */
static int gfs_table_row(struct gfs_archive *ar, const struct gfs_table *t, const struct gfs_grid *g,
			 size_t i, uint8_t *e, const uint8_t *o, const struct gfs_rec_refs *refs,
			 struct gfs_buf *tmp, void *ctx)
{
	const struct gfs_grid_row *row = &g->rows[i];
	size_t ncols = t->rec->nfields + 1;
	char why[GFS_WHY_MAX];
	int64_t v;

	if (row->ncells > ncols || row->ncells < (t->min_cols ? t->min_cols + 1 : ncols))
		return gfs_err(ar, -EINVAL, "%s: line %u: %zu values, want %zu", g->view, row->line,
			       row->ncells, ncols);
	if (!t->used && (gfs_parse_int(row->cell[0], 0, INT64_MAX, &v) || (uint64_t)v != i)) {
		snprintf(why, sizeof(why), "want %zu (rows stay in order; add or remove them at "
			 "the end)", i);
		return gfs_grid_err(ar, g, i, 0, why);
	}
	return gfs_table_cells(ar, t, g, i, e, o, refs, tmp, ctx);
}

/* The CSV header's names: the index column, then each field's key (NULL-terminated; free it). */
static const char **gfs_table_names(const struct gfs_table *t)
{
	const char **names = calloc(t->rec->nfields + 2, sizeof(*names));

	if (names) {
		names[0] = t->index;
		for (size_t c = 0; c < t->rec->nfields; c++)
			names[c + 1] = t->rec->fields[c].key;
	}
	return names;
}

int gfs_table_parse(struct gfs_archive *ar, const char *view, const struct gfs_table *t,
		    const uint8_t *old, size_t oldn, const uint8_t *data, size_t len,
		    const struct gfs_rec_refs *refs, void *ctx, struct gfs_buf *out, size_t *n)
{
	const struct gfs_record *rec = t->rec;
	const char **names = gfs_table_names(t);
	struct gfs_buf tmp = GFS_BUF_INIT;
	struct gfs_grid g;
	size_t base = out->len;
	int r;

	*n = 0;
	if (!names)
		return -ENOMEM;
	r = gfs_grid_parse(ar, view, data, len, t->min_cols ? 0 : rec->nfields + 1, names, &g);
	if (r)
		goto free_names;
	if (g.nrows > t->max) {
		r = gfs_err(ar, -EINVAL, "%s: %zu rows, at most %zu", view, g.nrows, t->max);
		goto release_grid;
	}
	r = gfs_buf_set_len(out, base + g.nrows * rec->size);
	for (size_t i = 0; i < g.nrows && !r; i++) {
		uint8_t *e = out->data + base + i * rec->size;
		const uint8_t *o = i < oldn ? old + i * rec->size : NULL;
		char why[GFS_WHY_MAX];

		if (o)
			memcpy(e, o, rec->size);
		else
			memset(e, 0, rec->size);
		r = gfs_table_row(ar, t, &g, i, e, o, refs, &tmp, ctx);
		if (!r && t->check && t->check(ctx, i, g.nrows, e, o, why, sizeof(why)))
			r = gfs_err(ar, -EINVAL, "%s: line %u: %s", view, g.rows[i].line, why);
	}
	if (r)
		gfs_buf_set_len(out, base);
	else
		*n = g.nrows;
release_grid:
	gfs_grid_release(&g);
free_names:
	gfs_buf_release(&tmp);
	free(names);
	return r;
}

/*
 * The slot of row i of a slot array (gfs_table_patch()): in pass 0 the
 * slot its index names, in pass 1 (an empty index) the first free one
 * from *fr on.  1: the row is read in the other pass.
 */
static int gfs_table_slot(struct gfs_archive *ar, const struct gfs_table *t, const struct gfs_grid *g,
			  size_t i, int pass, const uint8_t *old, size_t step, size_t n, uint8_t *seen,
			  size_t *fr, size_t *s)
{
	int64_t id;
	int r;

	if ((g->rows[i].cell[0][0] == 0) != pass)
		return 1;
	if (pass) {
		while (*fr < n && (t->used(old + *fr * step) || seen[*fr]))
			++*fr;
		if (*fr == n)
			return gfs_grid_err(ar, g, i, 0, "no free slot left");
		id = (int64_t)*fr;
	} else if ((r = gfs_grid_int(ar, g, i, 0, 0, (int64_t)n - 1, &id)) != 0) {
		return r;
	} else if (seen[id]) {
		return gfs_grid_err(ar, g, i, 0, "this slot has a row already");
	}
	seen[id] = 1;
	*s = (size_t)id;
	return 0;
}

int gfs_table_patch(struct gfs_archive *ar, const char *view, const struct gfs_table *t, uint8_t *p, size_t n,
		    const uint8_t *data, size_t len, const struct gfs_rec_refs *refs, void *ctx)
{
	const struct gfs_record *rec = t->rec;
	size_t step = t->stride ? t->stride : rec->size, span = n ? (n - 1) * step + rec->size : 0;
	const char **names = gfs_table_names(t);
	uint8_t *old = malloc(span + 1), *seen = calloc(n + 1, 1);
	struct gfs_buf tmp = GFS_BUF_INIT;
	struct gfs_grid g;
	int r = names && old && seen ? 0 : -ENOMEM;

	if (!r)
		r = gfs_grid_parse(ar, view, data, len, t->min_cols ? 0 : rec->nfields + 1, names, &g);
	if (r)
		goto free;
	memcpy(old, p, span);
	if (g.nrows > n)
		r = gfs_err(ar, -EINVAL, "%s: %zu rows, at most %zu", view, g.nrows, n);
	for (int pass = 0; pass < (t->used ? 2 : 1) && !r; pass++)
		for (size_t i = 0, fr = 0, s = i; i < g.nrows && !r; s = ++i) {
			char why[GFS_WHY_MAX];

			if (t->used && (r = gfs_table_slot(ar, t, &g, i, pass, old, step, n, seen, &fr, &s)) != 0) {
				r = r == 1 ? 0 : r;
				continue;
			}
			r = gfs_table_row(ar, t, &g, i, p + s * step, old + s * step, refs, &tmp, ctx);
			if (!r && t->check && t->check(ctx, i, g.nrows, p + s * step, old + s * step, why, sizeof(why)))
				r = gfs_err(ar, -EINVAL, "%s: line %u: %s", view, g.rows[i].line, why);
		}
	if (!r && !t->used && g.nrows != n)
		r = gfs_err(ar, -EINVAL, "%s: %zu rows, want %zu", view, g.nrows, n);
	for (size_t s = 0; !r && t->used && s < n; s++)
		for (size_t c = 0; t->used(old + s * step) && !seen[s] && c < rec->nfields; c++)
			memset(p + s * step + rec->fields[c].off, 0, rec->fields[c].width);
	gfs_grid_release(&g);
free:
	gfs_buf_release(&tmp);
	free(seen);
	free(old);
	free(names);
	return r;
}

void gfs_layout_table_release(struct gfs_layout_table *t)
{
	free(t->f);
	free(t->keys);
	t->f = NULL;
	t->keys = NULL;
}

/* The bytes field f takes at its place (a Pascal string: its length byte too). */
static size_t gfs_layout_bytes(const struct gfs_field *f)
{
	return f->kind == GFS_FK_PSTR ? 1 + (size_t)f->width : f->width;
}

/* The field of l (and which repeat) that starts at byte at and fits size, or NULL. */
static const struct gfs_field *gfs_layout_at(const struct gfs_layout *l, size_t at, size_t size,
					     unsigned *rep)
{
	for (size_t i = 0; i < l->nfields; i++) {
		const struct gfs_field *f = &l->fields[i];
		unsigned n = f->repeat ? f->repeat : 1;

		for (unsigned j = 0; j < n; j++)
			if (f->off + (size_t)j * f->stride == at) {
				*rep = j;
				return at + gfs_layout_bytes(f) <= size || (f->flags & GFS_FF_HIDDEN) ? f : NULL;
			}
	}
	return NULL;
}

/* key with its %u (if any) as rep */
static void gfs_layout_key(char *out, const char *key, unsigned rep)
{
	const char *pc = strstr(key, "%u");

	if (pc)
		snprintf(out, GFS_LAYOUT_KEY, "%.*s%u%s", (int)(pc - key), key, rep, pc + 2);
	else
		snprintf(out, GFS_LAYOUT_KEY, "%s", key);
}

/* gfs_layout_table() of a GFS_LAYOUT_INORDER layout (t zeroed). */
static int gfs_layout_inorder(const struct gfs_layout *l, size_t size, struct gfs_layout_table *t)
{
	const char *sect = NULL;
	size_t max = 1, n = 0;

	for (size_t i = 0; i < l->nfields; i++)
		max += l->fields[i].repeat ? l->fields[i].repeat : 1;
	t->f = calloc(max, sizeof(*t->f));
	t->keys = calloc(max, sizeof(*t->keys));
	if (!t->f || !t->keys) {
		gfs_layout_table_release(t);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l->nfields; i++) {
		const struct gfs_field *hit = &l->fields[i];

		sect = hit->section ? hit->section : sect;
		for (unsigned j = 0; j < (hit->repeat ? hit->repeat : 1); j++) {
			size_t at = hit->off + (size_t)j * hit->stride;
			struct gfs_field *f = &t->f[n];

			if ((hit->flags & GFS_FF_HIDDEN) || at + gfs_layout_bytes(hit) > size)
				continue;
			*f = *hit;
			gfs_layout_key(t->keys[n], hit->key, j + hit->repeat_base);
			f->key = t->keys[n++];
			f->off = (unsigned)at;
			f->note = j ? NULL : hit->note;
			f->section = sect;
			f->repeat = f->stride = f->repeat_base = 0;
			sect = NULL;
		}
	}
	t->rec = (struct gfs_record){ l->section, l->comment, size, t->f, n };
	return 0;
}

/* gfs_layout_table() of a GFS_LAYOUT_BITS layout (t zeroed). */
static int gfs_layout_bits(const struct gfs_layout *l, size_t size, struct gfs_layout_table *t)
{
	t->f = calloc(size * 8 + 1, sizeof(*t->f));
	t->keys = calloc(size * 8 + 1, sizeof(*t->keys));
	if (!t->f || !t->keys) {
		gfs_layout_table_release(t);
		return -ENOMEM;
	}
	for (size_t b = 0; b < size * 8; b++) {
		struct gfs_field *f = &t->f[b];

		*f = (struct gfs_field){ .kind = l->filler_kind, .off = (unsigned)(b / 8), .width = 1,
					 .shift = (unsigned)(b % 8), .bits = 1 };
		snprintf(t->keys[b], GFS_LAYOUT_KEY, "%s%0*u", l->filler_prefix, (int)l->filler_digits,
			 (unsigned)b + l->filler_base);
		for (size_t i = 0; i < l->nfields; i++)
			if (l->fields[i].off * 8 + l->fields[i].shift == b) {
				*f = l->fields[i];
				snprintf(t->keys[b], GFS_LAYOUT_KEY, "%s", l->fields[i].key);
			}
		f->key = t->keys[b];
	}
	t->rec = (struct gfs_record){ l->section, l->comment, size, t->f, size * 8 };
	return 0;
}

int gfs_layout_table(const struct gfs_layout *l, size_t size, struct gfs_layout_table *t)
{
	size_t unit = l->filler_width ? l->filler_width : 1, max = size / unit + 1, n = 0;

	memset(t, 0, sizeof(*t));
	if (l->flags & GFS_LAYOUT_INORDER)
		return gfs_layout_inorder(l, size, t);
	if (l->flags & GFS_LAYOUT_BITS)
		return gfs_layout_bits(l, size, t);
	t->f = calloc(max, sizeof(*t->f));
	t->keys = calloc(max, sizeof(*t->keys));
	if (!t->f || !t->keys) {
		gfs_layout_table_release(t);
		return -ENOMEM;
	}
	for (size_t at = 0; at + unit <= size;) {
		unsigned rep = 0;
		const struct gfs_field *hit = gfs_layout_at(l, at, size, &rep);
		struct gfs_field *f = &t->f[n];
		size_t took;

		if (hit && (hit->flags & GFS_FF_HIDDEN)) {
			at += (gfs_layout_bytes(hit) + unit - 1) / unit * unit;	/* kept: no key */
			continue;
		}
		if (!hit) {
			snprintf(t->keys[n], GFS_LAYOUT_KEY, "%s%0*u", l->filler_prefix, (int)l->filler_digits,
				 (unsigned)(at / unit) + l->filler_base);
			f->kind = l->filler_kind;
			f->off = (unsigned)at;
			f->width = (unsigned)unit;
			took = unit;
		} else {
			*f = *hit;
			gfs_layout_key(t->keys[n], hit->key, rep + hit->repeat_base);
			f->off = (unsigned)at;
			f->note = rep ? NULL : hit->note;
			f->repeat = f->stride = f->repeat_base = 0;
			took = (gfs_layout_bytes(hit) + unit - 1) / unit * unit;
		}
		f->key = t->keys[n++];
		at += took;
	}
	t->rec.section = l->section;
	t->rec.comment = l->comment;
	t->rec.size = size;
	t->rec.fields = t->f;
	t->rec.nfields = n;
	return 0;
}

/* ---- the lines face ---------------------------------------------------------- */

int gfs_lines_each(const uint8_t *data, size_t len, int (*line)(void *ctx, char *text, unsigned lineno),
		   void *ctx)
{
	char *text, *s, *end;
	unsigned lineno = 0;
	int r = 0;

	gfs_skip_bom(&data, &len);
	if (!(text = malloc(len + 1)))
		return -ENOMEM;
	if (len)
		memcpy(text, data, len);
	text[len] = 0;
	end = text + len;
	for (s = text; !r && s < end; lineno++) {
		char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end, *next = nl ? nl + 1 : end;

		while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
			e--;
		*e = 0;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s && *s != '#')
			r = line(ctx, s, lineno + 1);
		s = next;
	}
	free(text);
	return r;
}

int gfs_lines_render(const struct gfs_table *t, const uint8_t *p, size_t n,
		     const struct gfs_rec_refs *refs, struct gfs_buf *out)
{
	const struct gfs_record *rec = t->rec;
	int r = 0;

	for (size_t i = 0; i < n && !r; i++) {
		for (size_t c = 0; c < rec->nfields && !r; c++) {
			if (c)
				r = gfs_buf_addc(out, ',');
			if (!r)
				r = gfs_field_render(&rec->fields[c], p + i * rec->size, refs, out);
		}
		if (!r)
			r = gfs_buf_addc(out, '\n');
	}
	return r;
}

struct gfs_lines_ctx {
	struct gfs_archive *ar;
	const char *view;
	const struct gfs_table *t;
	const uint8_t *old;
	size_t oldn, n;
	const struct gfs_rec_refs *refs;
	struct gfs_buf *out, tmp;
	size_t base;
};

static int gfs_lines_one(void *vctx, char *text, unsigned lineno)
{
	struct gfs_lines_ctx *c = vctx;
	const struct gfs_record *rec = c->t->rec;
	char why[GFS_WHY_MAX], *rest = text, *w[GFS_LINES_MAXFIELDS];
	size_t nw = 0;
	uint8_t *e;
	int r;

	if (c->n >= c->t->max)
		return gfs_err(c->ar, -EINVAL, "%s: line %u: more than %zu values", c->view, lineno, c->t->max);
	for (char *tok; nw <= rec->nfields && nw < GFS_LINES_MAXFIELDS && (tok = gfs_next_word(&rest, ","));)
		w[nw++] = tok;
	if (nw != rec->nfields)
		return gfs_err(c->ar, -EINVAL, "%s: line %u: %zu values, want %zu", c->view, lineno, nw,
			       rec->nfields);
	if ((r = gfs_buf_set_len(c->out, c->base + (c->n + 1) * rec->size)))
		return r;
	e = c->out->data + c->base + c->n * rec->size;
	if (c->n < c->oldn)
		memcpy(e, c->old + c->n * rec->size, rec->size);
	for (size_t k = 0; k < nw; k++) {
		char *v = w[k];
		size_t l = strlen(v);

		while (*v == ' ' || *v == '\t')
			v++, l--;
		while (l && (v[l - 1] == ' ' || v[l - 1] == '\t'))
			v[--l] = 0;
		r = gfs_field_scan(&rec->fields[k], e, v, c->refs, &c->tmp, why, sizeof(why));
		if (r == -EINVAL)
			return gfs_err(c->ar, -EINVAL, "%s: line %u: %s: %s", c->view, lineno, rec->fields[k].key, why);
		if (r)
			return r;
	}
	c->n++;
	return 0;
}

int gfs_lines_parse(struct gfs_archive *ar, const char *view, const struct gfs_table *t,
		    const uint8_t *old, size_t oldn, const uint8_t *data, size_t len,
		    const struct gfs_rec_refs *refs, struct gfs_buf *out, size_t *n)
{
	struct gfs_lines_ctx c = { ar, view, t, old, oldn, 0, refs, out, GFS_BUF_INIT, out->len };
	int r = gfs_lines_each(data, len, gfs_lines_one, &c);

	if (r)
		gfs_buf_set_len(out, c.base);
	*n = r ? 0 : c.n;
	gfs_buf_release(&c.tmp);
	return r;
}
