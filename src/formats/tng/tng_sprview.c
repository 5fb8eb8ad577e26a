/*
 * tng_sprview.c - the sprite views of a TirNanoG game: sprites/<cat>/NNNN.txt
 * (the sprite map, editable) and NNNN-<dir>.png (each direction's frames
 * drawn from the atlases, read-only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_codec.h"
#include "tng.h"

static int tng_sprite_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	struct gfs_rd rd;
	int r;
	unsigned d = 0;

	if (ref->asset == TNG_NEW_ASSET)
		return 0;	/* created, nothing stored yet */
	if ((r = tng_asset_content(ar, ref->t, tng_ref_asset(n), TNG_SPR_MAX, &b)))
		goto out;
	r = gfs_buf_adds(out, "; one [direction N] per record: dir 0-7 = south, southwest, west, "
			 "northwest, north, northeast, east, southeast\n"
			 "; loop: 0 once, 1 forth and back, 2 loop; op: 0 copy, 1 flip vertically, "
			 "2 flip horizontally, 3 rotate cw, 4 rotate 180, 5 rotate ccw\n"
			 "; frame = atlas op x y width height left top\n");
	gfs_rd_init(&rd, b.data, b.len, 0);
	while (!r && gfs_rd_left(&rd)) {
		uint16_t w = 0, h = 0, v[7];
		uint8_t type = 0, nf = 0;

		if (gfs_rd_u16le(&rd, &w) || gfs_rd_u16le(&rd, &h) || gfs_rd_u8(&rd, &type) ||
		    gfs_rd_u8(&rd, &nf)) {
			r = gfs_err(ar, -EIO, "%s: sprite record cut short", n->name);
			break;
		}
		r = gfs_buf_printf(out, "%s[direction %u]\ndir = %u\nloop = %u\nwidth = %u\nheight = %u\n",
				   d ? "\n" : "", d, type & 0x3f, type >> 6, w, h);
		for (unsigned f = 0; f < nf && !r; f++) {
			for (int k = 0; k < 7; k++)
				if (gfs_rd_u16le(&rd, &v[k]))
					r = gfs_err(ar, -EIO, "%s: sprite frame cut short", n->name);
			if (!r)
				r = gfs_buf_printf(out, "frame = %u %u %u %u %u %u %u %u\n", v[0] & 0xfff,
						   v[0] >> 12, v[1], v[2], v[3], v[4], v[5], v[6]);
		}
		d++;
	}
out:
	gfs_buf_release(&b);
	return r;
}

struct tng_sctx {
	struct gfs_archive *ar;
	struct gfs_buf *out;
	int cur;		/* direction being filled, -1 none */
	size_t hdrpos;		/* its header in out */
	unsigned have;		/* keys seen: 1 dir, 2 loop, 4 width, 8 height */
	unsigned nf;
};

static int tng_sprite_finish(struct tng_sctx *c, unsigned line)
{
	if (c->cur < 0)
		return 0;
	if (c->have != 15)
		return gfs_err(c->ar, -EINVAL, "sprite: direction %d (before line %u): needs dir, loop, "
			       "width and height", c->cur, line);
	if (c->nf == 0 || c->nf > TNG_SPR_MAXFRAMES)
		return gfs_err(c->ar, -EINVAL, "sprite: direction %d: %u frames (1 to 32 allowed)",
			       c->cur, c->nf);
	c->out->data[c->hdrpos + 5] = (uint8_t)c->nf;
	return 0;
}

static int tng_sprite_field(void *vctx, const char *section, const char *key, const char *value,
			    unsigned line)
{
	struct tng_sctx *c = vctx;
	unsigned dn;
	int64_t v;
	int r;

	if (sscanf(section, "direction %u", &dn) != 1)
		return gfs_err(c->ar, -EINVAL, "sprite: line %u: section [%s] is not [direction N]",
			       line, section);
	if ((int)dn != c->cur) {
		if ((int)dn != c->cur + 1)
			return gfs_err(c->ar, -EINVAL, "sprite: line %u: [direction %u] out of order",
				       line, dn);
		r = tng_sprite_finish(c, line);
		if (r)
			return r;
		if (dn >= TNG_SPR_MAXDIRS)
			return gfs_err(c->ar, -EINVAL, "sprite: line %u: more than 8 directions", line);
		c->cur = (int)dn;
		c->hdrpos = c->out->len;
		c->have = 0;
		c->nf = 0;
		r = gfs_buf_set_len(c->out, c->out->len + TNG_SPR_HDR);
		if (r)
			return r;
	}
	if (!strcmp(key, "frame")) {
		unsigned long f[8];
		char extra;
		static const unsigned long lim[8] = { 0xfff, 5, 0xffff, 0xffff, 0xffff, 0xffff,
						      0xffff, 0xffff };

		if (sscanf(value, "%lu %lu %lu %lu %lu %lu %lu %lu %c", &f[0], &f[1], &f[2], &f[3],
			   &f[4], &f[5], &f[6], &f[7], &extra) != 8)
			return gfs_err(c->ar, -EINVAL, "sprite: line %u: frame wants 8 numbers: atlas op "
				       "x y width height left top", line);
		for (int k = 0; k < 8; k++)
			if (f[k] > lim[k])
				return gfs_err(c->ar, -EINVAL, "sprite: line %u: frame value %d (%lu) over %lu",
					       line, k + 1, f[k], lim[k]);
		if (++c->nf > TNG_SPR_MAXFRAMES)
			return gfs_err(c->ar, -EINVAL, "sprite: line %u: more than 32 frames", line);
		r = gfs_buf_add_u16le(c->out, (uint16_t)(f[0] | f[1] << 12));
		for (int k = 2; k < 8 && !r; k++)
			r = gfs_buf_add_u16le(c->out, (uint16_t)f[k]);
		return r;
	}
	{
		static const char *const keys[4] = { "dir", "loop", "width", "height" };
		static const int64_t max[4] = { 63, 3, TNG_SPR_MAXDIM, TNG_SPR_MAXDIM };
		uint8_t *h = c->out->data + c->hdrpos;

		for (int k = 0; k < 4; k++) {
			if (strcmp(key, keys[k]))
				continue;
			if (gfs_parse_int(value, 0, max[k], &v))
				return gfs_err(c->ar, -EINVAL, "sprite: line %u: %s: '%s' is not in 0..%lld",
					       line, key, value, (long long)max[k]);
			if (k == 0)
				h[4] = (uint8_t)((h[4] & 0xc0) | v);
			else if (k == 1)
				h[4] = (uint8_t)((h[4] & 0x3f) | v << 6);
			else
				gfs_put_u16le(h + (k == 2 ? 0 : 2), (uint16_t)v);
			c->have |= 1u << k;
			return 0;
		}
	}
	return gfs_err(c->ar, -EINVAL, "sprite: line %u: unknown key %s", line, key);
}

/*
 * After an edit of sprite map n: one strip node per direction record again,
 * if the directions changed (unchanged strips keep their nodes).
 */
static int tng_sprite_restrip(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tng_ref *ref = n->priv;
	struct gfs_node *dir = n->parent, **old = NULL;
	struct gfs_buf b = GFS_BUF_INIT;
	char names[TNG_SPR_MAXDIRS][64];
	size_t nold = 0, nnew = 0;
	struct gfs_rd rd;
	int r, same;

	r = tng_asset_content(ar, ref->t, tng_ref_asset(n), TNG_SPR_MAX, &b);
	if (r)
		return r;
	gfs_rd_init(&rd, b.data, b.len, 0);
	while (gfs_rd_left(&rd) && nnew < TNG_SPR_MAXDIRS) {
		uint8_t type = 0, nf = 0;

		if (gfs_rd_skip(&rd, 4) || gfs_rd_u8(&rd, &type) || gfs_rd_u8(&rd, &nf) ||
		    gfs_rd_skip(&rd, (size_t)nf * TNG_SPR_FRAME))
			break;
		snprintf(names[nnew++], sizeof(names[0]), "%.4s-%s.png", n->name, tng_dir_name(type & 0x3f));
	}
	gfs_buf_release(&b);
	old = calloc(dir->nkids ? dir->nkids : 1, sizeof(*old));
	if (!old)
		return -ENOMEM;
	for (size_t i = 0; i < dir->nkids; i++) {
		struct gfs_node *k = dir->kids[i];

		if (gfs_node_get_ops(k) == &tng_strip_ops && ((struct tng_ref *)k->priv)->asset == ref->asset)
			old[nold++] = k;
	}
	same = nold == nnew;
	for (size_t i = 0; same && i < nold; i++)
		same = !strcmp(old[i]->name, names[i]);
	if (!same) {
		for (size_t i = 0; i < nold; i++)
			gfs_node_remove(ar, old[i]);
		for (size_t i = 0; i < nnew && !r; i++) {
			struct tng_ref *sr = tng_ref_new(ref->t, ref->asset, ref->sec, (int)i);
			char *u = sr ? gfs_unique_name(dir, names[i]) : NULL;

			if (!u || !gfs_node_new_file(ar, dir, u, 0444, &tng_strip_ops, sr)) {
				free(sr);
				r = -ENOMEM;
			}
			free(u);
		}
	}
	free(old);
	return r;
}

static int tng_sprite_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tng_ref *ref = n->priv;
	int created = ref->asset == TNG_NEW_ASSET;
	struct tng_asset *a;
	struct tng_sctx c;
	struct gfs_buf *nb;
	int r;

	if (created && !len)
		return 0;	/* created, not written yet: nothing in the game */
	if (!(nb = gfs_buf_new()))
		return -ENOMEM;
	memset(&c, 0, sizeof(c));
	c.ar = ar;
	c.out = nb;
	c.cur = -1;
	r = gfs_ini_parse(ar, n->name, data, len, tng_sprite_field, &c);
	if (!r)
		r = tng_sprite_finish(&c, 0);
	if (!r && c.cur < 0)
		r = gfs_err(ar, -EINVAL, "%s: no [direction 0]", n->name);
	if (!r && created)
		r = tng_numbered_adopt(ar, n);	/* the next number: a new sprite */
	if (r) {
		gfs_buf_free(nb);
		return r;
	}
	a = tng_ref_asset(n);
	tng_set_pending(ar, n, nb);
	a->ndirs = (uint8_t)(c.cur + 1);
	gfs_tree_invalidate(ar);
	return tng_sprite_restrip(ar, n);
}

const struct gfs_node_ops tng_sprite_ops = {
	.render = tng_sprite_render,
	.store = tng_sprite_store,
	.free = tng_ref_free,
};

struct tng_asset *tng_nth_of_type(struct tng *t, unsigned type, unsigned nth)
{
	for (size_t i = 0; i < t->nassets; i++)
		if (!t->assets[i].gone && t->secs[t->assets[i].sec].type == type && nth-- == 0)
			return &t->assets[i];
	return NULL;
}

/* Do the frames of every sprite that draws from atlas fit in its aw x ah pixels? */
int tng_atlas_fits(struct gfs_archive *ar, struct tng *t, const struct tng_asset *atlas,
		   uint32_t aw, uint32_t ah, char *why, size_t whylen)
{
	unsigned id = 0;
	size_t i;
	int r = 0;

	for (i = 0; i < t->nassets && &t->assets[i] != atlas; i++)
		if (!t->assets[i].gone && t->secs[t->assets[i].sec].type == TNG_S_ATLASES)
			id++;
	if (i == t->nassets || t->secs[atlas->sec].type != TNG_S_ATLASES)
		return 0;
	for (i = 0; i < t->nassets && !r; i++) {
		struct tng_asset *a = &t->assets[i];
		struct gfs_buf b = GFS_BUF_INIT;
		struct gfs_rd rd;
		unsigned d = 0;

		if (a->kind != TNG_A_SPRITE || a->gone || tng_asset_content(ar, t, a, TNG_SPR_MAX, &b)) {
			gfs_buf_release(&b);
			continue;	/* a sprite that does not decode draws nothing */
		}
		gfs_rd_init(&rd, b.data, b.len, 0);
		for (; !r && gfs_rd_left(&rd); d++) {
			uint16_t w, h, v[7];
			uint8_t type, nf;

			if (gfs_rd_u16le(&rd, &w) || gfs_rd_u16le(&rd, &h) || gfs_rd_u8(&rd, &type) ||
			    gfs_rd_u8(&rd, &nf))
				break;
			for (unsigned f = 0; f < nf && !r; f++) {
				for (int k = 0; k < 7; k++)
					if (gfs_rd_u16le(&rd, &v[k]))
						goto next;
				if ((v[0] & 0xfffu) == id && ((uint32_t)v[1] + v[3] > aw || (uint32_t)v[2] + v[4] > ah)) {
					snprintf(why, whylen, "sprite %u direction %u frame %u draws %ux%u at %u,%u, "
						 "past the %ux%u atlas %u", a->num, d, f, v[3], v[4], v[1], v[2],
						 aw, ah, id);
					r = -EINVAL;
				}
			}
		}
next:
		gfs_buf_release(&b);
	}
	return r;
}

static void tng_blit(const struct tng_atlas *at, unsigned op, unsigned sx, unsigned sy,
		     unsigned w, unsigned h, uint8_t *dst, unsigned dw, unsigned dh,
		     unsigned ox, unsigned oy, unsigned stride)
{
	unsigned ow = op == 3 || op == 5 ? h : w, oh = op == 3 || op == 5 ? w : h;

	/* only what lands on the frame: a huge atlas rectangle costs nothing */
	if (ox >= dw || oy >= dh)
		return;
	if (ow > dw - ox)
		ow = dw - ox;
	if (oh > dh - oy)
		oh = dh - oy;
	for (unsigned Y = 0; Y < oh; Y++)
		for (unsigned X = 0; X < ow; X++) {
			unsigned x, y;

			switch (op) {
			case 1: x = X; y = h - 1 - Y; break;
			case 2: x = w - 1 - X; y = Y; break;
			case 3: x = Y; y = h - 1 - X; break;
			case 4: x = w - 1 - X; y = h - 1 - Y; break;
			case 5: x = w - 1 - Y; y = X; break;
			default: x = X; y = Y; break;
			}
			if (sx + x >= at->w || sy + y >= at->h || X + ox >= dw || Y + oy >= dh)
				continue;
			memcpy(dst + ((size_t)(Y + oy) * stride + ox + X) * 4,
			       at->rgba + ((size_t)(sy + y) * at->w + sx + x) * 4, 4);
		}
}

/* Atlas id decoded (cached in c), or NULL when it is missing or does not decode. */
struct tng_atlas *tng_atlas_get(struct gfs_archive *ar, struct tng *t, struct tng_atlases *c,
				unsigned id)
{
	struct tng_asset *aa;
	struct gfs_buf png = GFS_BUF_INIT;
	struct tng_atlas *a;

	for (size_t k = 0; k < c->n; k++)
		if (c->a[k].id == id)
			return c->a[k].rgba ? &c->a[k] : NULL;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		struct tng_atlas *na = realloc(c->a, cap * sizeof(*na));

		if (!na)
			return NULL;
		c->a = na;
		c->cap = cap;
	}
	a = &c->a[c->n++];
	memset(a, 0, sizeof(*a));
	a->id = id;
	aa = tng_nth_of_type(t, TNG_S_ATLASES, id);
	if (!aa || tng_asset_content(ar, t, aa, (size_t)64 << 20, &png) ||
	    gfs_png_decode(png.data, png.len, 8192, 8192, &a->rgba, &a->w, &a->h))
		a->rgba = NULL;	/* remembered as missing */
	gfs_buf_release(&png);
	return a->rgba ? a : NULL;
}

void tng_atlases_release(struct tng_atlases *c)
{
	for (size_t k = 0; k < c->n; k++)
		free(c->a[k].rgba);
	free(c->a);
	memset(c, 0, sizeof(*c));
}

/*
 * The first frame of sprite spr's first direction as w x h RGBA (malloc'd
 * into *rgba; rgba NULL: its size only); -EIO when the sprite does not
 * decode or is not drawable.
 */
int tng_sprite_image(struct gfs_archive *ar, struct tng *t, struct tng_asset *spr,
		     struct tng_atlases *c, uint8_t **rgba, unsigned *w, unsigned *h)
{
	struct gfs_buf b = GFS_BUF_INIT;
	struct gfs_rd rd;
	uint16_t sw, sh, v[7];
	uint8_t type, nf;
	struct tng_atlas *a;
	int r = tng_asset_content(ar, t, spr, TNG_SPR_MAX, &b);

	if (rgba)
		*rgba = NULL;
	if (r)
		goto out;
	gfs_rd_init(&rd, b.data, b.len, 0);
	r = -EIO;
	if (gfs_rd_u16le(&rd, &sw) || gfs_rd_u16le(&rd, &sh) || gfs_rd_u8(&rd, &type) ||
	    gfs_rd_u8(&rd, &nf) || !sw || !sh || !nf || sw > TNG_SPR_MAXDIM || sh > TNG_SPR_MAXDIM)
		goto out;
	for (int k = 0; k < 7; k++)
		if (gfs_rd_u16le(&rd, &v[k]))
			goto out;
	*w = sw;
	*h = sh;
	r = 0;
	if (!rgba)
		goto out;	/* its size only */
	*rgba = calloc((size_t)sw * sh, 4);
	if (!*rgba) {
		r = -ENOMEM;
		goto out;
	}
	a = tng_atlas_get(ar, t, c, v[0] & 0xfff);
	if (a)
		tng_blit(a, v[0] >> 12, v[1], v[2], v[3], v[4], *rgba, sw, sh, v[5], v[6], sw);
out:
	gfs_buf_release(&b);
	return r;
}

static int tng_strip_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	struct gfs_buf b = GFS_BUF_INIT;
	struct tng_atlases at = { 0 };
	struct gfs_rd rd;
	uint8_t *canvas = NULL;
	uint16_t w = 0, h = 0;
	uint8_t type = 0, nf = 0;
	int r = tng_asset_content(ar, t, tng_ref_asset(n), TNG_SPR_MAX, &b);

	if (r)
		goto out;
	gfs_rd_init(&rd, b.data, b.len, 0);
	for (int d = 0; ; d++) {
		if (gfs_rd_u16le(&rd, &w) || gfs_rd_u16le(&rd, &h) || gfs_rd_u8(&rd, &type) ||
		    gfs_rd_u8(&rd, &nf)) {
			r = gfs_err(ar, -EIO, "%s: the sprite has no direction record %d", n->name, ref->sub);
			goto out;
		}
		if (d == ref->sub)
			break;
		if (gfs_rd_skip(&rd, (size_t)nf * TNG_SPR_FRAME)) {
			r = gfs_err(ar, -EIO, "%s: sprite record cut short", n->name);
			goto out;
		}
	}
	if (!w || !h || !nf || w > TNG_SPR_MAXDIM || h > TNG_SPR_MAXDIM || nf > TNG_SPR_MAXFRAMES ||
	    (size_t)w * h * nf > ((size_t)16 << 20)) {
		r = gfs_err(ar, -EIO, "%s: %ux%u sprite with %u frames cannot be drawn", n->name, w, h, nf);
		goto out;
	}
	canvas = calloc((size_t)w * h * nf, 4);
	if (!canvas) {
		r = -ENOMEM;
		goto out;
	}
	for (unsigned f = 0; f < nf; f++) {
		uint16_t v[7];
		unsigned id, op;
		struct tng_atlas *a = NULL;

		for (int k = 0; k < 7; k++)
			if (gfs_rd_u16le(&rd, &v[k])) {
				r = gfs_err(ar, -EIO, "%s: sprite frame cut short", n->name);
				goto out;
			}
		id = v[0] & 0xfff;
		op = v[0] >> 12;
		a = tng_atlas_get(ar, t, &at, id);
		if (!a)
			continue;	/* a missing atlas draws nothing */
		tng_blit(a, op, v[1], v[2], v[3], v[4], canvas + (size_t)f * w * 4, w, h, v[5], v[6],
			 (unsigned)w * nf);
	}
	r = gfs_png_encode(canvas, (uint32_t)w * nf, h, out);
out:
	tng_atlases_release(&at);
	free(canvas);
	gfs_buf_release(&b);
	return r;
}

const struct gfs_node_ops tng_strip_ops = {
	.render = tng_strip_render,
	.free = tng_ref_free,
};
