/*
 * lay_draw.c - the companion atlas of a .lay and the composed variants.
 *
 * Atlas: NAME_.lay and NAME.lay pair with NAME.png beside them, or the
 * file given with -o atlas=PATH.  Its size comes from the IHDR at mount;
 * the pixels are decoded on the first render and kept.  atlas.png is the
 * file itself; an edit must decode and still hold every chunk the old atlas
 * held.  The core's commit engine writes an edit back as the archive's
 * companion file (gfs_companion_add()), with the layout: both or neither.
 *
 * Variants: every sprite of a known type is drawn with its dependency chain
 * (base, then the sub whose id a dependent names, then the sprite itself;
 * an overlay alone, alpha-blended) on one canvas, the bounding box of all
 * chunks.  Each chunk copies the 30x30 atlas interior at src to dst.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <png.h>

#include "gfs_codec.h"
#include "formats/lay/lay.h"

/* Width and height from the IHDR, -EINVAL when data is not a PNG. */
int lay_png_dims(const uint8_t *data, size_t len, uint32_t *w, uint32_t *h)
{
	return gfs_png_size(data, len, w, h);
}

/*
 * Decode an atlas to RGBA8 with its sample values as stored: the engine
 * (and sg-sprite) ignore gamma, so gAMA, cHRM, sRGB and iCCP are dropped
 * before libpng sees the file, and 16-bit samples are taken as sRGB
 * (scaled, not re-encoded from "linear" as the simplified API otherwise
 * does for 16-bit images without gamma information).
 */
static int lay_png_decode(const uint8_t *png, size_t len, uint8_t **rgba, uint32_t *w, uint32_t *h)
{
	int rc = gfs_png_decode(png, len, LAY_MAX_DIM, LAY_MAX_DIM, rgba, w, h);

	if (!rc && (uint64_t)*w * *h > LAY_MAX_PIXELS) {
		free(*rgba);
		*rgba = NULL;
		rc = -EINVAL;
	}
	return rc;
}

static int lay_dims_ok(uint32_t w, uint32_t h)
{
	return w && h && w <= LAY_MAX_DIM && h <= LAY_MAX_DIM &&
	       (uint64_t)w * h <= LAY_MAX_PIXELS;
}

static int lay_read_file(const char *path, struct gfs_buf *b, size_t max)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		goto out;
	}
	if ((uint64_t)st.st_size > max) {
		rc = -EFBIG;
		goto out;
	}
	rc = gfs_buf_grow(b, (size_t)st.st_size);
	while (!rc) {
		ssize_t n;

		if ((rc = gfs_buf_grow(b, 65536)))
			break;
		n = read(fd, b->data + b->len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		if (!n)
			break;
		b->len += (size_t)n;
		b->data[b->len] = 0;
		if (b->len > max)
			rc = -EFBIG;
	}
out:
	close(fd);
	return rc;
}

/* NAME_.lay or NAME.lay -> DIR/NAME.png (or .PNG); NULL when absent. */
static char *lay_companion(const struct gfs_archive *ar, char *want, size_t wantlen)
{
	static const char *const ext[] = { ".png", ".PNG" };
	size_t n;
	char *stem;

	want[0] = 0;
	if (!ar->dir || !ar->dir[0] || !ar->base)
		return NULL;
	stem = strdup(ar->base);
	if (!stem)
		return NULL;
	n = strlen(stem);
	if (n >= 4 && !strcasecmp(stem + n - 4, ".lay"))
		stem[n -= 4] = 0;
	if (n >= 2 && stem[n - 1] == '_')
		stem[--n] = 0;
	snprintf(want, wantlen, "%s.png", stem);
	for (size_t i = 0; i < 2; i++) {
		size_t len = strlen(ar->dir) + n + 8;
		char *p = malloc(len);
		struct stat st;

		if (!p)
			break;
		snprintf(p, len, "%s/%s%s", ar->dir, stem, ext[i]);
		if (!stat(p, &st) && S_ISREG(st.st_mode)) {
			free(stem);
			return p;
		}
		free(p);
	}
	free(stem);
	return NULL;
}

int lay_atlas_probe(struct gfs_archive *ar, struct lay *L)
{
	char want[PATH_MAX];
	uint8_t head[GFS_PNG_HEAD_LEN];
	const char *slash;
	uint32_t w, h;
	int fd;
	ssize_t got;

	if (L->atlas_opt) {
		L->atlas_path = realpath(L->atlas_opt, NULL);
		if (!L->atlas_path)
			return gfs_err(ar, -errno, "atlas %s: %s", L->atlas_opt,
				       strerror(errno));
	} else {
		L->atlas_path = lay_companion(ar, want, sizeof(want));
		if (!L->atlas_path) {
			snprintf(L->note, sizeof(L->note),
				 "no companion image %.120s beside the layout: no variants (mount with -o atlas=PATH)",
				 want[0] ? want : "NAME.png");
			return 0;
		}
	}
	slash = strrchr(L->atlas_path, '/');
	L->atlas_name = strdup(slash ? slash + 1 : L->atlas_path);
	if (!L->atlas_name)
		return gfs_err(ar, -ENOMEM, "out of memory");
	L->atlas_id = gfs_companion_add(ar, L->atlas_path);
	if (L->atlas_id < 0)
		return L->atlas_id;

	fd = open(L->atlas_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gfs_err(ar, -errno, "atlas %s: %s", L->atlas_path,
			       strerror(errno));
	got = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (got != (ssize_t)sizeof(head) || lay_png_dims(head, sizeof(head), &w, &h)) {
		snprintf(L->note, sizeof(L->note), "%s is not a PNG: no variants", L->atlas_name);
		gfs_warn(ar, "atlas %s is not a PNG: no variants", L->atlas_path);
		return 0;
	}
	if (!lay_dims_ok(w, h)) {
		snprintf(L->note, sizeof(L->note),
			 "%s is %ux%u, over the limits (%u per side, %u pixels): no variants",
			 L->atlas_name, w, h, LAY_MAX_DIM, LAY_MAX_PIXELS);
		gfs_warn(ar, "atlas %s: %s", L->atlas_path, L->note);
		return 0;
	}
	L->aw = w;
	L->ah = h;
	return 0;
}

/* The decoded atlas, from the pending edit or the companion file. */
static int lay_atlas_pixels(struct gfs_archive *ar, struct lay *L)
{
	struct gfs_buf b = GFS_BUF_INIT;
	uint32_t w, h;
	int rc;

	if (L->rgba)
		return 0;
	if (!L->atlas_path || !L->aw || L->atlas_bad)
		return -EIO;
	if (L->atlas_new)
		rc = gfs_buf_add(&b, L->atlas_new->data, L->atlas_new->len);
	else
		rc = lay_read_file(L->atlas_path, &b, LAY_MAX_ATLAS_FILE);
	if (rc) {
		gfs_warn(ar, "atlas %s: %s", L->atlas_path, strerror(-rc));
		goto out;
	}
	if (lay_png_dims(b.data, b.len, &w, &h) || !lay_dims_ok(w, h) ||
	    lay_png_decode(b.data, b.len, &L->rgba, &w, &h)) {
		gfs_warn(ar, "atlas %s does not decode as a PNG within the limits: no variants",
			 L->atlas_path);
		L->atlas_bad = 1;
		rc = -EIO;
		goto out;
	}
	if (w != L->aw || h != L->ah) {
		gfs_warn(ar, "atlas %s changed on disk to %ux%u (was %ux%u)", L->atlas_path, w, h,
			 L->aw, L->ah);
		free(L->rgba);
		L->rgba = NULL;
		rc = -EIO;
	}
out:
	gfs_buf_release(&b);
	return rc;
}

/* ---- atlas.png ------------------------------------------------------------- */

static int lay_atlas_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct lay *L = ar->priv;
	int rc;

	if (L->atlas_new)
		return gfs_buf_add(out, L->atlas_new->data, L->atlas_new->len);
	rc = lay_read_file(L->atlas_path, out, LAY_MAX_ATLAS_FILE);
	if (rc)
		gfs_warn(ar, "atlas %s: %s", L->atlas_path, strerror(-rc));
	return rc == -EFBIG || rc == -ENOMEM ? rc : rc ? -EIO : 0;
}

static int lay_atlas_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	struct lay *L = ar->priv;
	struct stat st;

	if (L->atlas_new) {
		*size = L->atlas_new->len;
		return 0;
	}
	if (stat(L->atlas_path, &st) || !S_ISREG(st.st_mode))
		return -ENOSYS;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int lay_atlas_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct lay *L = ar->priv;
	uint32_t w, h, need_w = 0, need_h = 0;
	uint8_t *px = NULL;
	struct gfs_buf *copy;
	int rc;

	if (len > LAY_MAX_ATLAS_FILE)
		return gfs_err(ar, -EINVAL, "atlas.png: %zu bytes, over the %u-byte limit", len,
			       LAY_MAX_ATLAS_FILE);
	if (lay_png_dims(data, len, &w, &h))
		return gfs_err(ar, -EINVAL, "atlas.png: not a PNG image");
	if (!lay_dims_ok(w, h))
		return gfs_err(ar, -EINVAL, "atlas.png: %ux%u is over the limits (%u per side, %u pixels)",
			       w, h, LAY_MAX_DIM, LAY_MAX_PIXELS);
	rc = lay_png_decode(data, len, &px, &w, &h);
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		return gfs_err(ar, -EINVAL, "atlas.png: the PNG does not decode");
	for (size_t i = 0; i < L->nch; i++) {
		float sx = lay_f(L->ch[i].v[2]), sy = lay_f(L->ch[i].v[3]);

		if (!lay_is_int(sx) || !lay_is_int(sy) || sx < 0 || sy < 0)
			continue;
		if ((uint32_t)sx + LAY_CELL > need_w)
			need_w = (uint32_t)sx + LAY_CELL;
		if ((uint32_t)sy + LAY_CELL > need_h)
			need_h = (uint32_t)sy + LAY_CELL;
	}
	if ((w < need_w && w < L->aw) || (h < need_h && h < L->ah)) {
		free(px);
		return gfs_err(ar, -EINVAL, "atlas.png: %ux%u is too small: the chunks need %ux%u",
			       w, h, need_w, need_h);
	}
	copy = gfs_buf_new();
	if (!copy || gfs_buf_add(copy, data, len)) {
		gfs_buf_free(copy);
		free(px);
		return -ENOMEM;
	}
	gfs_buf_free(L->atlas_new);
	L->atlas_new = copy;
	free(L->rgba);
	L->rgba = px;
	L->aw = w;
	L->ah = h;
	L->note[0] = 0;
	L->atlas_bad = 0;
	L->idx_valid = 0;
	return 0;
}

const struct gfs_node_ops lay_atlas_ops = {
	.render = lay_atlas_render,
	.size = lay_atlas_size,
	.store = lay_atlas_store,
};

/* The atlas edit, if any, as the new content of the companion file. */
int lay_atlas_save(struct gfs_archive *ar, struct lay *L, struct gfs_writer *w)
{
	struct gfs_writer *cw;

	L->atlas_saved = 0;
	if (!L->atlas_new || !L->atlas_path)
		return 0;
	cw = gfs_writer_companion(w, L->atlas_id);
	if (!cw)
		return ar->err[0] ? -EIO : gfs_err(ar, -EIO, "cannot write the atlas %s", L->atlas_path);
	L->atlas_saved = 1;
	return gfs_writer_put(cw, L->atlas_new->data, L->atlas_new->len);
}

/* The saved edit is the companion file now: read it from there. */
void lay_atlas_commit(struct lay *L)
{
	if (!L->atlas_saved)
		return;
	L->atlas_saved = 0;
	gfs_buf_free(L->atlas_new);
	L->atlas_new = NULL;
}

/* ---- variants ---------------------------------------------------------------- */

static int lay_is_dep(uint8_t t)
{
	return t == LAY_T_DEP30 || t == LAY_T_DEP40 || t == LAY_T_DEP60;
}

/* Can chunk k be drawn from the current atlas? */
static int lay_chunk_ok(const struct lay *L, size_t k)
{
	const uint32_t *v = L->ch[k].v;
	float sx = lay_f(v[2]), sy = lay_f(v[3]);

	return lay_is_int(lay_f(v[0])) && lay_is_int(lay_f(v[1])) && lay_is_int(sx) &&
	       lay_is_int(sy) && sx >= 0 && sy >= 0 && sx + LAY_CELL <= (float)L->aw &&
	       sy + LAY_CELL <= (float)L->ah;
}

/*
 * The lookups the variants need, rebuilt after any change of the model:
 * the first base, the last sub of each id (as sg-sprite's map keeps it),
 * and for each chunk the next chunk that cannot be drawn, so checking a
 * sprite's range costs O(1) whatever the file says.
 */
static int lay_reindex(struct lay *L)
{
	uint32_t *nb;

	if (L->idx_valid)
		return 0;
	L->base_idx = SIZE_MAX;
	for (size_t k = 0; k < 256; k++)
		L->sub_of[k] = SIZE_MAX;
	for (size_t k = 0; k < L->nsp; k++) {
		if (L->sp[k].type == LAY_T_BASE && L->base_idx == SIZE_MAX)
			L->base_idx = k;
		if (L->sp[k].type == LAY_T_SUB)
			L->sub_of[L->sp[k].id] = k;
	}
	nb = realloc(L->next_bad, (L->nch + 1) * sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	L->next_bad = nb;
	nb[L->nch] = (uint32_t)L->nch;
	for (size_t k = L->nch; k-- > 0;)
		nb[k] = lay_chunk_ok(L, k) ? nb[k + 1] : (uint32_t)k;
	L->idx_valid = 1;
	return 0;
}

/* Sprites to draw for variant i, bottom first; 0 when i is no variant. */
size_t lay_chain(struct lay *L, size_t i, size_t chain[3])
{
	size_t n = 0;
	uint8_t t;

	if (i >= L->nsp || lay_reindex(L))
		return 0;
	t = L->sp[i].type;
	if (t != LAY_T_BASE && t != LAY_T_SUB && t != LAY_T_OVERLAY && !lay_is_dep(t))
		return 0;
	if (t != LAY_T_BASE && t != LAY_T_OVERLAY && L->base_idx != SIZE_MAX)
		chain[n++] = L->base_idx;
	if (lay_is_dep(t) && L->sub_of[L->sp[i].dep] != SIZE_MAX)
		chain[n++] = L->sub_of[L->sp[i].dep];
	chain[n++] = i;
	return n;
}

int lay_variant_name(const struct lay *L, size_t i, char *buf, size_t len)
{
	const struct lay_sprite *s = &L->sp[i];

	switch (s->type) {
	case LAY_T_BASE:
		return snprintf(buf, len, "b%u", s->id);
	case LAY_T_SUB:
		return snprintf(buf, len, "s%u", s->id);
	case LAY_T_OVERLAY:
		return snprintf(buf, len, "o%u", s->id);
	default:
		return snprintf(buf, len, "t%u_d%u_%u", s->type, s->dep, s->id);
	}
}

int lay_variant_ok(struct lay *L, size_t i, char *why, size_t whylen)
{
	size_t chain[3], n = lay_chain(L, i, chain);
	uint64_t total = 0;
	char name[32];

	if (!n) {
		snprintf(why, whylen, "sprite %zu: no variant (type 0x%02x)", i,
			 i < L->nsp ? L->sp[i].type : 0);
		return 0;
	}
	lay_variant_name(L, i, name, sizeof(name));
	if (!L->aw) {
		snprintf(why, whylen, "variant %s skipped: no usable atlas", name);
		return 0;
	}
	if (!L->have_canvas) {
		snprintf(why, whylen, "variant %s skipped: %s", name, L->cnote);
		return 0;
	}
	for (size_t c = 0; c < n; c++) {
		const struct lay_sprite *s = &L->sp[chain[c]];
		size_t k;
		const uint32_t *v;
		float sx, sy;

		if ((uint64_t)s->off + s->count > L->nch) {
			snprintf(why, whylen, "variant %s skipped: sprite %zu runs past the chunk list",
				 name, chain[c]);
			return 0;
		}
		total += s->count;
		k = L->next_bad[s->off];
		if (k >= (size_t)s->off + s->count)
			continue;
		v = L->ch[k].v;
		sx = lay_f(v[2]);
		sy = lay_f(v[3]);
		if (!lay_is_int(lay_f(v[0])) || !lay_is_int(lay_f(v[1])) || !lay_is_int(sx) ||
		    !lay_is_int(sy))
			snprintf(why, whylen, "variant %s skipped: chunk %zu has fractional or "
				 "out-of-range coordinates", name, k);
		else
			snprintf(why, whylen, "variant %s skipped: chunk %zu src %.0f,%.0f is "
				 "outside the %ux%u atlas", name, k, (double)sx, (double)sy,
				 L->aw, L->ah);
		return 0;
	}
	if (total > LAY_MAX_DRAW) {
		snprintf(why, whylen, "variant %s skipped: %llu chunks to draw, over the limit of %u",
			 name, (unsigned long long)total, LAY_MAX_DRAW);
		return 0;
	}
	return 1;
}

/* Straight-alpha "over", rounded; exact for opaque and empty pixels. */
static void lay_blend(uint8_t *d, const uint8_t *s)
{
	uint32_t sa = s[3], da = d[3], inv = 255 - sa, oa;

	if (sa == 255) {
		memcpy(d, s, 4);
		return;
	}
	if (!sa)
		return;
	oa = sa * 255 + da * inv;
	for (int c = 0; c < 3; c++)
		d[c] = (uint8_t)((s[c] * sa * 255 + d[c] * da * inv + oa / 2) / oa);
	d[3] = (uint8_t)((oa + 127) / 255);
}

static int lay_variant_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct lay *L = ar->priv;
	size_t i = *(const size_t *)n->priv, chain[3], nc;
	char why[256];
	uint8_t *cv;
	int rc;

	if (!lay_variant_ok(L, i, why, sizeof(why))) {
		gfs_warn(ar, "%s", why);
		return -EIO;
	}
	rc = lay_atlas_pixels(ar, L);
	if (rc)
		return rc == -ENOMEM ? rc : -EIO;
	cv = calloc((size_t)L->cw * L->chh, 4);
	if (!cv)
		return -ENOMEM;
	nc = lay_chain(L, i, chain);
	for (size_t c = 0; c < nc; c++) {
		const struct lay_sprite *s = &L->sp[chain[c]];
		int blend = s->type == LAY_T_OVERLAY;

		for (uint32_t k = s->off; k < s->off + s->count; k++) {
			const uint32_t *v = L->ch[k].v;
			size_t dx = (size_t)((int64_t)lay_f(v[0]) - L->cx0);
			size_t dy = (size_t)((int64_t)lay_f(v[1]) - L->cy0);
			size_t sx = (size_t)lay_f(v[2]), sy = (size_t)lay_f(v[3]);

			for (size_t row = 0; row < LAY_CELL; row++) {
				uint8_t *d = cv + ((dy + row) * L->cw + dx) * 4;
				const uint8_t *sp = L->rgba + ((sy + row) * L->aw + sx) * 4;

				if (!blend) {
					memcpy(d, sp, LAY_CELL * 4);
					continue;
				}
				for (size_t x = 0; x < LAY_CELL; x++)
					lay_blend(d + 4 * x, sp + 4 * x);
			}
		}
	}
	rc = gfs_png_encode(cv, L->cw, L->chh, out);
	free(cv);
	return rc;
}

const struct gfs_node_ops lay_variant_ops = {
	.render = lay_variant_render,
	.free = free,
};

/*
 * Make variants/ list exactly the drawable variants of the model; nodes
 * that already match are kept (same inode).  Reasons for skipped variants
 * go to the log at load and whenever the set changes, at most
 * LAY_MAX_WARN lines.
 */
int lay_build_variants(struct gfs_archive *ar, struct lay *L, int warn)
{
	size_t *want, nwant = 0, skipped = 0, said = 0, chain[3];
	char why[256], name[48];
	int same;

	if (!L->vdir)
		return 0;
	want = calloc(L->nsp ? L->nsp : 1, sizeof(*want));
	if (!want)
		return gfs_err(ar, -ENOMEM, "out of memory");
	for (size_t i = 0, seen = 0; i < L->nsp; i++) {
		if (!lay_chain(L, i, chain))
			continue;
		if (L->aw && L->have_canvas && seen++ < LAY_MAX_VARIANTS &&
		    lay_variant_ok(L, i, why, sizeof(why)))
			want[nwant++] = i;
		else
			skipped++;
	}
	L->nvariants = nwant;
	L->nskipped = skipped;

	same = L->vdir->nkids == nwant;
	for (size_t k = 0; same && k < nwant; k++) {
		struct gfs_node *kid = L->vdir->kids[k];

		lay_variant_name(L, want[k], name, sizeof(name));
		strcat(name, ".png");
		same = gfs_node_get_ops(kid) == &lay_variant_ops && kid->priv &&
		       *(size_t *)kid->priv == want[k] && !strcmp(kid->name, name);
	}
	if ((warn || !same) && skipped && L->aw) {
		if (!L->have_canvas)
			gfs_warn(ar, "no variants: %s", L->cnote);
		for (size_t i = 0, seen = 0; L->have_canvas && i < L->nsp; i++) {
			if (!lay_chain(L, i, chain))
				continue;
			if (seen++ >= LAY_MAX_VARIANTS) {
				lay_variant_name(L, i, name, sizeof(name));
				snprintf(why, sizeof(why), "variant %s skipped: more than %u variants",
					 name, LAY_MAX_VARIANTS);
			} else if (lay_variant_ok(L, i, why, sizeof(why))) {
				continue;
			}
			if (said++ < LAY_MAX_WARN)
				gfs_warn(ar, "%s", why);
		}
		if (said > LAY_MAX_WARN)
			gfs_warn(ar, "... %zu more variants skipped", said - LAY_MAX_WARN);
	}
	if (same) {
		free(want);
		return 0;
	}
	while (L->vdir->nkids)
		gfs_node_remove(ar, L->vdir->kids[L->vdir->nkids - 1]);
	for (size_t k = 0; k < nwant; k++) {
		size_t *idx = malloc(sizeof(*idx));
		char *uniq;

		lay_variant_name(L, want[k], name, sizeof(name));
		strcat(name, ".png");
		uniq = idx ? gfs_unique_name(L->vdir, name) : NULL;
		if (!uniq || !gfs_node_new_file(ar, L->vdir, uniq, S_IFREG | 0444,
						 &lay_variant_ops, idx)) {
			free(uniq);
			free(idx);
			free(want);
			return gfs_err(ar, -ENOMEM, "out of memory");
		}
		*idx = want[k];
		free(uniq);
	}
	free(want);
	return 0;
}
