/*
 * lay_view.c - the text views of a .lay: layout.ini, sprites.csv,
 * chunks.csv and tail.bin, rendered from the model and parsed back.
 *
 * sprites.csv and chunks.csv are the stored records declared as tables
 * (gfs_layout.h): coordinates print with %.9g, which reads back (strtof) to
 * the same float bits, so untouched rows write back byte for byte.  A
 * store either replaces the whole table or leaves the model as it was.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gfs_layout.h"
#include "formats/lay/lay.h"


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

/* ---- sprites.csv and chunks.csv: the two tables on the CSV face (gfs_layout.h) ---- */

/* A sprite row: a known type (or the one it had), its chunks inside chunks.csv. */
static int lay_sprite_check(void *ctx, size_t i, size_t n, uint8_t *e, const uint8_t *old,
			    char *why, size_t whysz)
{
	const struct lay *L = ctx;
	struct lay_sprite s;

	(void)n;
	lay_sprite_of(e, 0, &s);
	if (s.type != LAY_T_BASE && s.type != LAY_T_SUB && s.type != LAY_T_DEP30 &&
	    s.type != LAY_T_DEP40 && s.type != LAY_T_OVERLAY && s.type != LAY_T_DEP60 &&
	    !(old && old[LAY_SP_TYPE] == s.type))
		return snprintf(why, whysz, "sprite %zu: type 0x%02x is not one of 0x00 0x20 0x30 0x40 "
				"0x50 0x60", i, s.type), -EINVAL;
	if ((uint64_t)s.off + s.count > L->nch)
		return snprintf(why, whysz, "sprite %zu: chunks %u..%llu run past the %zu rows of "
				"chunks.csv", i, s.off, (unsigned long long)s.off + s.count, L->nch), -EINVAL;
	return 0;
}

/* A new or changed chunk row must make sense; old rows stay as they were. */
static int lay_chunk_check(void *ctx, size_t i, size_t n, uint8_t *e, const uint8_t *old,
			   char *why, size_t whysz)
{
	const struct lay *L = ctx;
	struct lay_chunk ck;
	float v[4];

	(void)n;
	if (old && !memcmp(e, old, LAY_CHUNK_SIZE))
		return 0;
	lay_chunk_of(e, 0, &ck);
	for (int k = 0; k < 4; k++) {
		v[k] = lay_f(ck.v[k]);
		if (v[k] < -LAY_MAX_COORD || v[k] > LAY_MAX_COORD)
			return snprintf(why, whysz, "chunk %zu: %s %.9g is beyond +-%.0f", i,
					lay_chunk_rec.fields[k].key, (double)v[k], (double)LAY_MAX_COORD), -EINVAL;
	}
	if (L->aw && (v[2] < 0 || v[3] < 0 || v[2] + LAY_CELL > (float)L->aw ||
		      v[3] + LAY_CELL > (float)L->ah))
		return snprintf(why, whysz, "chunk %zu: src %.9g,%.9g: the %dx%d chunk is not inside the "
				"%ux%u atlas", i, (double)v[2], (double)v[3], LAY_CELL, LAY_CELL, L->aw,
				L->ah), -EINVAL;
	return 0;
}

static const struct gfs_table lay_sprites_table = {
	.index = "index", .rec = &lay_sprite_rec, .max = LAY_MAX_SPRITES, .check = lay_sprite_check,
};
static const struct gfs_table lay_chunks_table = {
	.index = "index", .rec = &lay_chunk_rec, .max = LAY_MAX_CHUNKS, .check = lay_chunk_check,
};

/* One of the two CSV views: its table, the model's rows as stored, and how new rows are taken. */
struct lay_csv {
	const char *view;
	const struct gfs_table *table;
	int (*raw)(const struct lay *L, struct gfs_buf *b, size_t *n);
	int (*adopt)(struct gfs_archive *ar, struct lay *L, const uint8_t *p, size_t n);
};

static int lay_sprites_bytes(const struct lay *L, struct gfs_buf *b, size_t *n)
{
	*n = L->nsp;
	return lay_sprites_raw(L->sp, L->nsp, b);
}

static int lay_chunks_bytes(const struct lay *L, struct gfs_buf *b, size_t *n)
{
	*n = L->nch;
	return lay_chunks_raw(L->ch, L->nch, b);
}

static int lay_sprites_adopt(struct gfs_archive *ar, struct lay *L, const uint8_t *p, size_t n)
{
	struct lay_sprite *sp = calloc(n ? n : 1, sizeof(*sp));

	(void)ar;
	if (!sp)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		lay_sprite_of(p, i, &sp[i]);
	free(L->sp);
	L->sp = sp;
	L->nsp = n;
	return 0;
}

/* New chunks: every sprite's range must stay inside them. */
static int lay_chunks_adopt(struct gfs_archive *ar, struct lay *L, const uint8_t *p, size_t n)
{
	struct lay_chunk *ch;

	for (size_t i = 0; i < L->nsp; i++)
		if ((uint64_t)L->sp[i].off + L->sp[i].count > n)
			return gfs_err(ar, -EINVAL, "chunks.csv: %zu rows, but sprite %zu uses chunks up to %llu",
				       n, i, (unsigned long long)L->sp[i].off + L->sp[i].count);
	if (!(ch = calloc(n ? n : 1, sizeof(*ch))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		lay_chunk_of(p, i, &ch[i]);
	free(L->ch);
	L->ch = ch;
	L->nch = n;
	lay_canvas(L);
	return 0;
}

static const struct lay_csv lay_sprites_csv = {
	"sprites.csv", &lay_sprites_table, lay_sprites_bytes, lay_sprites_adopt
};
static const struct lay_csv lay_chunks_csv = {
	"chunks.csv", &lay_chunks_table, lay_chunks_bytes, lay_chunks_adopt
};

static int lay_csv_render(struct gfs_archive *ar, const struct lay_csv *c, struct gfs_buf *out)
{
	struct gfs_buf raw = GFS_BUF_INIT;
	size_t n;
	int rc = c->raw(ar->priv, &raw, &n);

	if (!rc)
		rc = gfs_table_render(c->table, raw.data, n, NULL, out);
	gfs_buf_release(&raw);
	return rc;
}

/* The view parsed against the rows as stored; the model takes the new rows, or stays. */
static int lay_csv_store(struct gfs_archive *ar, const struct lay_csv *c, const uint8_t *data, size_t len)
{
	struct lay *L = ar->priv;
	struct gfs_buf old = GFS_BUF_INIT, nb = GFS_BUF_INIT;
	size_t oldn, rows = 0;
	int rc = c->raw(L, &old, &oldn);

	if (!rc)
		rc = gfs_table_parse(ar, c->view, c->table, old.data, oldn, data, len, NULL, L, &nb, &rows);
	if (!rc)
		rc = c->adopt(ar, L, nb.data, rows);
	if (!rc) {
		L->edited = 1;
		L->idx_valid = 0;
	}
	gfs_buf_release(&old);
	gfs_buf_release(&nb);
	return rc;
}

static int lay_sprites_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	return lay_csv_render(ar, &lay_sprites_csv, out);
}

static int lay_sprites_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	return lay_csv_store(ar, &lay_sprites_csv, data, len);
}

static int lay_chunks_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	return lay_csv_render(ar, &lay_chunks_csv, out);
}

static int lay_chunks_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	return lay_csv_store(ar, &lay_chunks_csv, data, len);
}

const struct gfs_node_ops lay_sprites_ops = {
	.render = lay_sprites_render,
	.store = lay_sprites_store,
};

const struct gfs_node_ops lay_chunks_ops = {
	.render = lay_chunks_render,
	.store = lay_chunks_store,
};

/* ---- tail.bin and after-stream.bin: bytes kept as they are ------------------- */

/* The bytes n shows: after the tables (tail.bin), or after the zlib stream (after-stream.bin). */
static struct gfs_buf *lay_bytes(struct gfs_archive *ar, struct gfs_node *n)
{
	struct lay *L = ar->priv;

	return strcmp(n->name, "after-stream.bin") ? &L->tail : &L->ztail;
}

static int lay_bytes_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	const struct gfs_buf *b = lay_bytes(ar, n);

	return gfs_buf_add(out, b->data, b->len);
}

static int lay_bytes_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	*size = lay_bytes(ar, n)->len;
	return 0;
}

static int lay_bytes_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct lay *L = ar->priv;
	struct gfs_buf *old = lay_bytes(ar, n), b = GFS_BUF_INIT;
	int rc;

	if (len > LAY_MAX_FILE)
		return gfs_err(ar, -EINVAL, "%s: %zu bytes, over the %u-byte limit", n->name, len,
			       LAY_MAX_FILE);
	if (len && old == &L->ztail && !L->compressed)
		return gfs_err(ar, -EINVAL, "after-stream.bin: the layout is no longer compressed; "
			       "put trailing bytes in tail.bin");
	rc = gfs_buf_add(&b, data, len);
	if (rc)
		return rc;
	gfs_buf_release(old);
	*old = b;
	L->edited = 1;
	return 0;
}

const struct gfs_node_ops lay_bytes_ops = {
	.render = lay_bytes_render,
	.size = lay_bytes_size,
	.store = lay_bytes_store,
};
