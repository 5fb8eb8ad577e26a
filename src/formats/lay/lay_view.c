/*
 * lay_view.c - the text views of a .lay: layout.ini, sprites.csv,
 * chunks.csv and tail.bin, rendered from the model and parsed back.
 *
 * Coordinates are printed with %.9g, which reads back (strtof) to the same
 * float bits; untouched rows therefore write back byte for byte.  A store
 * either replaces the whole table or leaves the model as it was.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gfs_grid.h"
#include "formats/lay/lay.h"

#define LAY_SPRITES_HEADER	"index,type,id,depends_on,c,chunk_offset,chunk_count"
#define LAY_CHUNKS_HEADER	"index,dst_x,dst_y,src_x,src_y"

float lay_f(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

uint32_t lay_bits(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b;
}

/* A whole number small enough to be a pixel position. */
int lay_is_int(float f)
{
	return f == f && f >= -LAY_MAX_COORD && f <= LAY_MAX_COORD && (float)(int64_t)f == f;
}

/* The shared canvas: bounding box of every chunk with a usable dst. */
void lay_canvas(struct lay *L)
{
	int64_t x0 = INT64_MAX, y0 = INT64_MAX, x1 = INT64_MIN, y1 = INT64_MIN;
	uint64_t w, h;

	L->have_canvas = 0;
	L->cnote[0] = 0;
	for (size_t i = 0; i < L->nch; i++) {
		float dx = lay_f(L->ch[i].v[0]), dy = lay_f(L->ch[i].v[1]);

		if (!lay_is_int(dx) || !lay_is_int(dy))
			continue;
		if ((int64_t)dx < x0)
			x0 = (int64_t)dx;
		if ((int64_t)dy < y0)
			y0 = (int64_t)dy;
		if ((int64_t)dx > x1)
			x1 = (int64_t)dx;
		if ((int64_t)dy > y1)
			y1 = (int64_t)dy;
	}
	if (x0 > x1) {
		snprintf(L->cnote, sizeof(L->cnote), "no chunk to draw");
		return;
	}
	w = (uint64_t)(x1 - x0) + LAY_CELL;
	h = (uint64_t)(y1 - y0) + LAY_CELL;
	if (w > LAY_MAX_DIM || h > LAY_MAX_DIM || w * h > LAY_MAX_PIXELS) {
		snprintf(L->cnote, sizeof(L->cnote),
			 "canvas %llux%llu exceeds the limits (%u per side, %u pixels)",
			 (unsigned long long)w, (unsigned long long)h, LAY_MAX_DIM, LAY_MAX_PIXELS);
		return;
	}
	L->cx0 = (int32_t)x0;
	L->cy0 = (int32_t)y0;
	L->cw = (uint32_t)w;
	L->chh = (uint32_t)h;
	L->have_canvas = 1;
}

/* ---- layout.ini ---------------------------------------------------------- */

#define LAY_INI_MAX 20

struct lay_kv {
	const char *sec, *key;
	char val[320];
};

static void lay_kv_set(struct lay_kv *kv, size_t *n, const char *sec, const char *key,
		       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void lay_kv_set(struct lay_kv *kv, size_t *n, const char *sec, const char *key,
		       const char *fmt, ...)
{
	va_list ap;

	if (*n >= LAY_INI_MAX)
		return;
	kv[*n].sec = sec;
	kv[*n].key = key;
	va_start(ap, fmt);
	vsnprintf(kv[*n].val, sizeof(kv[*n].val), fmt, ap);
	va_end(ap);
	for (char *p = kv[*n].val; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	(*n)++;
}

static size_t lay_ini_list(const struct lay *L, struct lay_kv *kv)
{
	size_t n = 0;

	lay_kv_set(kv, &n, "layout", "sprites", "%zu", L->nsp);
	lay_kv_set(kv, &n, "layout", "chunks", "%zu", L->nch);
	lay_kv_set(kv, &n, "layout", "compressed", "%s", L->compressed ? "yes" : "no");
	lay_kv_set(kv, &n, "layout", "tail_bytes", "%zu", L->tail.len);
	if (L->ztail.len)
		lay_kv_set(kv, &n, "layout", "bytes_after_zlib_stream", "%zu", L->ztail.len);
	if (L->atlas_path) {
		lay_kv_set(kv, &n, "atlas", "file", "%s", L->atlas_name);
		if (L->aw) {
			lay_kv_set(kv, &n, "atlas", "width", "%u", L->aw);
			lay_kv_set(kv, &n, "atlas", "height", "%u", L->ah);
		}
	} else {
		lay_kv_set(kv, &n, "atlas", "file", "%s", "");
	}
	if (L->note[0])
		lay_kv_set(kv, &n, "atlas", "note", "%s", L->note);
	if (L->have_canvas) {
		lay_kv_set(kv, &n, "canvas", "width", "%u", L->cw);
		lay_kv_set(kv, &n, "canvas", "height", "%u", L->chh);
		lay_kv_set(kv, &n, "canvas", "origin_x", "%d", (int)L->cx0);
		lay_kv_set(kv, &n, "canvas", "origin_y", "%d", (int)L->cy0);
		if (L->vdir) {
			lay_kv_set(kv, &n, "canvas", "variants", "%zu", L->nvariants);
			lay_kv_set(kv, &n, "canvas", "skipped", "%zu", L->nskipped);
		}
	} else {
		lay_kv_set(kv, &n, "canvas", "note", "%s", L->cnote);
	}
	return n;
}

static int lay_ini_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct lay *L = ar->priv;
	struct lay_kv kv[LAY_INI_MAX];
	size_t nkv = lay_ini_list(L, kv);
	const char *sec = NULL;
	int rc;

	rc = gfs_buf_adds(out, "; MAGES sprite layout.  Only \"compressed\" (yes/no) can be changed here:\n"
			  "; the counts follow sprites.csv and chunks.csv, the rest is information.\n");
	for (size_t i = 0; !rc && i < nkv; i++) {
		if (!sec || strcmp(sec, kv[i].sec))
			rc = gfs_buf_printf(out, "%s[%s]\n", sec ? "\n" : "", kv[i].sec);
		sec = kv[i].sec;
		if (!rc)
			rc = gfs_buf_printf(out, "%s = %s\n", kv[i].key, kv[i].val);
	}
	return rc;
}

struct lay_ini_ctx {
	struct gfs_archive *ar;
	struct lay_kv kv[LAY_INI_MAX];
	size_t nkv;
	int compressed;
};

static int lay_ini_key(void *vctx, const char *section, const char *key, const char *value,
		       unsigned line)
{
	struct lay_ini_ctx *c = vctx;

	for (size_t i = 0; i < c->nkv; i++) {
		if (strcasecmp(section, c->kv[i].sec) || strcasecmp(key, c->kv[i].key))
			continue;
		if (!strcmp(c->kv[i].key, "compressed")) {
			if (!strcasecmp(value, "yes") || !strcasecmp(value, "true") || !strcmp(value, "1"))
				c->compressed = 1;
			else if (!strcasecmp(value, "no") || !strcasecmp(value, "false") || !strcmp(value, "0"))
				c->compressed = 0;
			else
				return gfs_err(c->ar, -EINVAL, "layout.ini: line %u: compressed must be yes or no",
					       line);
			return 0;
		}
		if (strcmp(value, c->kv[i].val))
			return gfs_err(c->ar, -EINVAL, "layout.ini: line %u: %s is read-only (it is %s)",
				       line, key, c->kv[i].val);
		return 0;
	}
	return gfs_err(c->ar, -EINVAL, "layout.ini: line %u: no key %s in [%s]", line, key, section);
}

static int lay_ini_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct lay *L = ar->priv;
	struct lay_ini_ctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return -ENOMEM;
	c->ar = ar;
	c->nkv = lay_ini_list(L, c->kv);
	c->compressed = L->compressed;
	rc = gfs_ini_parse(ar, "layout.ini", data, len, lay_ini_key, c);
	if (!rc && !c->compressed && L->compressed && L->ztail.len)
		rc = gfs_err(ar, -EINVAL, "layout.ini: cannot uncompress: %zu bytes follow the zlib "
			     "stream (after-stream.bin); empty that first", L->ztail.len);
	if (!rc && c->compressed != L->compressed) {
		L->compressed = c->compressed;
		L->edited = 1;
	}
	free(c);
	return rc;
}

const struct gfs_node_ops lay_ini_ops = {
	.render = lay_ini_render,
	.store = lay_ini_store,
};

/* ---- CSV helpers ---------------------------------------------------------- */

static const char *const lay_sprites_cols[] = {
	"index", "type", "id", "depends_on", "c", "chunk_offset", "chunk_count"
};
static const char *const lay_chunks_cols[] = { "index", "dst_x", "dst_y", "src_x", "src_y" };

/*
 * Call row() for each data row of a CSV view (gfs_grid.h) with its nf
 * cells; row() gets the 0-based row number, which the index column must
 * repeat.
 */
static int lay_csv_parse(struct gfs_archive *ar, const char *view, const uint8_t *data, size_t len,
			 const char *const *cols, size_t nf,
			 int (*row)(void *ctx, char **f, unsigned line, size_t idx), void *ctx)
{
	struct gfs_grid g;
	int rc = gfs_grid_parse(ar, view, data, len, nf, cols, &g);

	for (size_t i = 0; !rc && i < g.nrows; i++) {
		int64_t v;

		if (gfs_parse_int(g.rows[i].cell[0], 0, INT64_MAX, &v) || (uint64_t)v != i) {
			char what[64];

			snprintf(what, sizeof(what), "want %zu (rows stay in order)", i);
			rc = gfs_grid_err(ar, &g, i, 0, what);
			break;
		}
		rc = row(ctx, g.rows[i].cell, g.rows[i].line, i);
	}
	gfs_grid_release(&g);
	return rc;
}

/* ---- sprites.csv ---------------------------------------------------------- */

static int lay_sprites_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct lay *L = ar->priv;
	int rc = gfs_buf_adds(out, LAY_SPRITES_HEADER "\n");

	for (size_t i = 0; !rc && i < L->nsp; i++) {
		const struct lay_sprite *s = &L->sp[i];

		rc = gfs_buf_printf(out, "%zu,0x%02x,%u,%u,%u,%u,%u\n", i, s->type, s->id, s->dep,
				    s->c, s->off, s->count);
	}
	return rc;
}

struct lay_sp_ctx {
	struct gfs_archive *ar;
	struct lay *L;
	struct lay_sprite *sp;
	size_t n, cap;
};

static int lay_sprites_row(void *vctx, char **f, unsigned line, size_t idx)
{
	static const char *const name[] = { "type", "id", "depends_on", "c" };
	struct lay_sp_ctx *c = vctx;
	struct lay_sprite s;
	int64_t v[6];

	for (int k = 0; k < 6; k++) {
		int64_t max = k < 4 ? 255 : UINT32_MAX;

		if (gfs_parse_int(f[k + 1], 0, max, &v[k]))
			return gfs_err(c->ar, -EINVAL, "sprites.csv: line %u: %s %s is not a number in 0..%lld",
				       line, k < 4 ? name[k] : k == 4 ? "chunk_offset" : "chunk_count",
				       f[k + 1], (long long)max);
	}
	s.type = (uint8_t)v[0];
	s.id = (uint8_t)v[1];
	s.dep = (uint8_t)v[2];
	s.c = (uint8_t)v[3];
	s.off = (uint32_t)v[4];
	s.count = (uint32_t)v[5];
	if (s.type != LAY_T_BASE && s.type != LAY_T_SUB && s.type != LAY_T_DEP30 &&
	    s.type != LAY_T_DEP40 && s.type != LAY_T_OVERLAY && s.type != LAY_T_DEP60 &&
	    !(idx < c->L->nsp && c->L->sp[idx].type == s.type))
		return gfs_err(c->ar, -EINVAL, "sprites.csv: line %u: type 0x%02x is not one of "
			       "0x00 0x20 0x30 0x40 0x50 0x60", line, s.type);
	if ((uint64_t)s.off + s.count > c->L->nch)
		return gfs_err(c->ar, -EINVAL, "sprites.csv: line %u: chunks %u..%llu run past the "
			       "%zu rows of chunks.csv", line, s.off,
			       (unsigned long long)s.off + s.count, c->L->nch);
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct lay_sprite *p;

		if (c->n >= LAY_MAX_SPRITES)
			return gfs_err(c->ar, -EINVAL, "sprites.csv: line %u: more than %u sprites",
				       line, LAY_MAX_SPRITES);
		p = realloc(c->sp, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		c->sp = p;
		c->cap = cap;
	}
	c->sp[c->n++] = s;
	return 0;
}

static int lay_sprites_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			     size_t len)
{
	struct lay *L = ar->priv;
	struct lay_sp_ctx c = { .ar = ar, .L = L };
	int rc = lay_csv_parse(ar, "sprites.csv", data, len, lay_sprites_cols, 7,
			       lay_sprites_row, &c);

	if (rc) {
		free(c.sp);
		return rc;
	}
	free(L->sp);
	L->sp = c.sp;
	L->nsp = c.n;
	L->edited = 1;
	L->idx_valid = 0;
	return 0;
}

const struct gfs_node_ops lay_sprites_ops = {
	.render = lay_sprites_render,
	.store = lay_sprites_store,
};

/* ---- chunks.csv ----------------------------------------------------------- */

static int lay_chunks_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct lay *L = ar->priv;
	int rc = gfs_buf_grow(out, 40 + L->nch * 32);

	if (!rc)
		rc = gfs_buf_adds(out, LAY_CHUNKS_HEADER "\n");
	for (size_t i = 0; !rc && i < L->nch; i++) {
		const uint32_t *v = L->ch[i].v;

		rc = gfs_buf_printf(out, "%zu,%.9g,%.9g,%.9g,%.9g\n", i, (double)lay_f(v[0]),
				    (double)lay_f(v[1]), (double)lay_f(v[2]), (double)lay_f(v[3]));
	}
	return rc;
}

struct lay_ch_ctx {
	struct gfs_archive *ar;
	struct lay *L;
	struct lay_chunk *ch;
	size_t n, cap;
};

static int lay_parse_float(const char *s, float *out)
{
	char *end;
	float f;

	if (!*s)
		return -EINVAL;
	errno = 0;
	f = strtof(s, &end);
	if (end == s || *end || f != f || f - f != 0)
		return -EINVAL;
	*out = f;
	return 0;
}

static int lay_chunks_row(void *vctx, char **f, unsigned line, size_t idx)
{
	static const char *const name[4] = { "dst_x", "dst_y", "src_x", "src_y" };
	struct lay_ch_ctx *c = vctx;
	const struct lay *L = c->L;
	struct lay_chunk ck;
	float v[4];

	for (int k = 0; k < 4; k++) {
		if (lay_parse_float(f[k + 1], &v[k]))
			return gfs_err(c->ar, -EINVAL, "chunks.csv: line %u: %s %s is not a finite number",
				       line, name[k], f[k + 1]);
		ck.v[k] = lay_bits(v[k]);
	}
	if (idx >= L->nch || memcmp(&ck, &L->ch[idx], sizeof(ck))) {
		/* a new or changed row must make sense; old rows stay as they were */
		for (int k = 0; k < 4; k++)
			if (v[k] < -LAY_MAX_COORD || v[k] > LAY_MAX_COORD)
				return gfs_err(c->ar, -EINVAL, "chunks.csv: line %u: %s %s is beyond +-%.0f",
					       line, name[k], f[k + 1], (double)LAY_MAX_COORD);
		if (L->aw && (v[2] < 0 || v[3] < 0 || v[2] + LAY_CELL > (float)L->aw ||
			      v[3] + LAY_CELL > (float)L->ah))
			return gfs_err(c->ar, -EINVAL, "chunks.csv: line %u: src %s,%s: the %dx%d "
				       "chunk is not inside the %ux%u atlas", line, f[3], f[4],
				       LAY_CELL, LAY_CELL, L->aw, L->ah);
	}
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct lay_chunk *p;

		if (c->n >= LAY_MAX_CHUNKS)
			return gfs_err(c->ar, -EINVAL, "chunks.csv: line %u: more than %u chunks",
				       line, LAY_MAX_CHUNKS);
		p = realloc(c->ch, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		c->ch = p;
		c->cap = cap;
	}
	c->ch[c->n++] = ck;
	return 0;
}

static int lay_chunks_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			    size_t len)
{
	struct lay *L = ar->priv;
	struct lay_ch_ctx c = { .ar = ar, .L = L };
	int rc = lay_csv_parse(ar, "chunks.csv", data, len, lay_chunks_cols, 5,
			       lay_chunks_row, &c);

	for (size_t i = 0; !rc && i < L->nsp; i++)
		if ((uint64_t)L->sp[i].off + L->sp[i].count > c.n)
			rc = gfs_err(ar, -EINVAL, "chunks.csv: %zu rows, but sprite %zu uses chunks up to %llu",
				     c.n, i, (unsigned long long)L->sp[i].off + L->sp[i].count);
	if (rc) {
		free(c.ch);
		return rc;
	}
	free(L->ch);
	L->ch = c.ch;
	L->nch = c.n;
	L->edited = 1;
	L->idx_valid = 0;
	lay_canvas(L);
	return 0;
}

const struct gfs_node_ops lay_chunks_ops = {
	.render = lay_chunks_render,
	.store = lay_chunks_store,
};

/* ---- tail.bin --------------------------------------------------------------- */

static int lay_tail_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct lay *L = ar->priv;

	return gfs_buf_add(out, L->tail.data, L->tail.len);
}

static int lay_tail_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	struct lay *L = ar->priv;

	*size = L->tail.len;
	return 0;
}

static int lay_tail_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct lay *L = ar->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	int rc;

	if (len > LAY_MAX_FILE)
		return gfs_err(ar, -EINVAL, "tail.bin: %zu bytes, over the %u-byte limit", len,
			       LAY_MAX_FILE);
	rc = gfs_buf_add(&b, data, len);
	if (rc)
		return rc;
	gfs_buf_release(&L->tail);
	L->tail = b;
	L->edited = 1;
	return 0;
}

const struct gfs_node_ops lay_tail_ops = {
	.render = lay_tail_render,
	.size = lay_tail_size,
	.store = lay_tail_store,
};

/* ---- after-stream.bin: bytes after the zlib stream of a compressed layout ---- */

static int lay_ztail_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct lay *L = ar->priv;

	return gfs_buf_add(out, L->ztail.data, L->ztail.len);
}

static int lay_ztail_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	struct lay *L = ar->priv;

	*size = L->ztail.len;
	return 0;
}

static int lay_ztail_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct lay *L = ar->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	int rc;

	if (len > LAY_MAX_FILE)
		return gfs_err(ar, -EINVAL, "after-stream.bin: %zu bytes, over the %u-byte limit", len,
			       LAY_MAX_FILE);
	if (len && !L->compressed)
		return gfs_err(ar, -EINVAL, "after-stream.bin: the layout is no longer compressed; "
			       "put trailing bytes in tail.bin");
	rc = gfs_buf_add(&b, data, len);
	if (rc)
		return rc;
	gfs_buf_release(&L->ztail);
	L->ztail = b;
	L->edited = 1;
	return 0;
}

const struct gfs_node_ops lay_ztail_ops = {
	.render = lay_ztail_render,
	.size = lay_ztail_size,
	.store = lay_ztail_store,
};
