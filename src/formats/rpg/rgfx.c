/*
 * rgfx documents: the spriteset walk and the pixels of a spriteset's PNG,
 * shared by a game's views (rpg_gfx.c) and the reld driver (reld.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_driver.h"
#include "gfs_codec.h"
#include "rgfx.h"

#define PNG_CTYPE_AT 25		/* IHDR colour type: signature 8, length 4, "IHDR" 4, w 4, h 4, depth 1 */
#define PNG_CTYPE_PALETTE 3

static int rgfx_is(const struct reld_node *n, const char *name)
{
	return n->namelen == strlen(name) && !memcmp(n->name, name, n->namelen);
}

/* Can spriteset k (s holds it) be a PNG: 8 bits, every frame w x h, indices within its colours? */
static int rgfx_check(const struct rgfx_set *s, size_t k, char *err, size_t errlen)
{
	if (s->bits != 8 || s->w <= 0 || s->h <= 0 || s->w > RGFX_MAX_W || s->h > RGFX_MAX_H || !s->nframes ||
	    s->too_many)
		return snprintf(err, errlen, "spriteset %zu: not %d or fewer 8-bit frames of a sane size", k,
				RGFX_MAX_FRAMES), -EBADMSG;
	for (size_t f = 0; f < s->nframes; f++) {
		if (s->len[f] != (size_t)(s->w * s->h))
			return snprintf(err, errlen, "spriteset %zu frame %zu: %zu bytes, not %lldx%lld", k, f,
					s->len[f], (long long)s->w, (long long)s->h), -EBADMSG;
		for (size_t i = 0; s->ncolors < 256 && i < s->len[f]; i++)
			if (s->bin[s->off[f] + i] >= s->ncolors)
				return snprintf(err, errlen, "spriteset %zu frame %zu: index %u in a %u-colour sprite",
						k, f, s->bin[s->off[f] + i], s->ncolors), -EBADMSG;
	}
	return 0;
}

static int rgfx_close(struct rgfx_set *s)
{
	char err[160];

	s->in_set = 0;
	return s->each(s, s->seen - 1, rgfx_check(s, s->seen - 1, err, sizeof(err)) ? err : NULL);
}

static int rgfx_visit(void *ctx, const struct reld_node *n)
{
	struct rgfx_set *s = ctx;
	int isint = n->type >= 1 && n->type <= 4, r;

	if (n->depth == 0)
		s->root_rgfx = rgfx_is(n, "rgfx");
	if (n->depth == 1)
		s->in_sets = rgfx_is(n, "spritesets");
	if (n->depth <= 2) {
		if (s->in_set && s->each && (r = rgfx_close(s)))
			return r;
		s->in_set = s->in_frameset = 0;
	}
	if (n->depth == 2 && s->in_sets && rgfx_is(n, "spriteset")) {
		s->in_set = s->each || s->seen == s->want;
		s->seen++;
		if (s->in_set) {
			s->id = isint ? n->i : -1;
			s->w = s->h = s->bits = 0;
			s->nframes = 0;
			s->framesets = s->too_many = 0;
		}
	} else if (n->depth == 3 && s->in_set) {
		s->in_frameset = rgfx_is(n, "frameset") && s->framesets++ == 0;
	} else if (n->depth == 4 && s->in_frameset && isint) {
		if (rgfx_is(n, "w"))
			s->w = n->i;
		else if (rgfx_is(n, "h"))
			s->h = n->i;
		else if (rgfx_is(n, "bits"))
			s->bits = n->i;
	} else if (n->depth == 5 && s->in_frameset && n->type == 6 && rgfx_is(n, "image")) {
		if (s->nframes == RGFX_MAX_FRAMES) {
			s->too_many = 1;
		} else {
			s->off[s->nframes] = n->off;
			s->len[s->nframes++] = n->len;
		}
	}
	return 0;
}

int rgfx_walk(const uint8_t *bin, size_t len, unsigned ncolors, size_t want, struct rgfx_set *s,
	      int (*each)(struct rgfx_set *, size_t, const char *), void *ctx, char *err, size_t errlen)
{
	int r;

	*s = (struct rgfx_set){ .want = want, .ncolors = ncolors, .bin = bin, .each = each, .ctx = ctx };
	if ((r = reld_walk(bin, len, rgfx_visit, s, err, errlen)))
		return r;
	if (each)
		return s->in_set ? rgfx_close(s) : 0;
	if (want >= s->seen)
		return snprintf(err, errlen, "no spriteset %zu", want), -EBADMSG;
	return rgfx_check(s, want, err, errlen);
}

/* Where row y of frame f of the spriteset starts in its PNG's indices (frames side by side). */
static size_t rgfx_png_at(const struct rgfx_set *s, size_t f, size_t y)
{
	return y * rgfx_png_w(s) + f * (size_t)s->w;
}

/* The spriteset's indices as its PNG lays them out (rgfx_png_w() x h). */
static void rgfx_get(const struct rgfx_set *s, const uint8_t *bin, uint8_t *idx)
{
	for (size_t f = 0; f < s->nframes; f++)
		for (size_t y = 0; y < (size_t)s->h; y++)
			memcpy(idx + rgfx_png_at(s, f, y), bin + s->off[f] + y * (size_t)s->w, (size_t)s->w);
}

/* ... and back into its frames. */
static void rgfx_put(const struct rgfx_set *s, uint8_t *bin, const uint8_t *idx)
{
	for (size_t f = 0; f < s->nframes; f++)
		for (size_t y = 0; y < (size_t)s->h; y++)
			memcpy(bin + s->off[f] + y * (size_t)s->w, idx + rgfx_png_at(s, f, y), (size_t)s->w);
}

int rgfx_render(const struct rgfx_set *s, const uint8_t *bin, const struct rgfx_pal *pal, struct gfs_buf *out)
{
	uint8_t *idx = malloc(rgfx_png_w(s) * (size_t)s->h);
	int r;

	if (!idx)
		return -ENOMEM;
	rgfx_get(s, bin, idx);
	r = gfs_png_encode_indexed_clear(idx, rgfx_png_w(s), (uint32_t)s->h, pal->rgb, pal->n, pal->nclear, out);
	free(idx);
	return r;
}

/*
 * The index of colour px (RGBA) in pal: 0 for a transparent pixel where
 * pal->nclear; old when that index still has the colour, else the one
 * index of exactly it; -1 when the colour is not there, -2 when it is
 * there twice.
 */
static int rgfx_colour_index(const uint8_t *px, const struct rgfx_pal *pal, unsigned old)
{
	int found = -1, count = 0;

	if (pal->nclear && !px[3])
		return 0;
	if (old < pal->n && !memcmp(pal->rgb + 3 * old, px, 3))
		return (int)old;
	for (unsigned i = 0; i < pal->n; i++)
		if (!memcmp(pal->rgb + 3 * i, px, 3)) {
			found = (int)i;
			count++;
		}
	return count == 1 ? found : count ? -2 : -1;
}

/* The PNG's own indices when its palette is pal's or pal's first colours: 1 (idx set), 0 when not, or -errno. */
static int rgfx_png_same_palette(const uint8_t *data, size_t len, uint32_t w, uint32_t h,
				 const struct rgfx_pal *pal, uint8_t *idx, char *err, size_t errlen)
{
	uint8_t plte[4 * 256], *pidx = NULL;
	unsigned n = 0;
	uint32_t pw, ph;
	int r = gfs_png_decode_index(data, len, w, h, &pidx, plte, &n, &pw, &ph), same = !r && n <= pal->n;

	if (r)
		return r == -ENOMEM ? r : 0;
	for (unsigned i = 0; same && i < n; i++)
		same = !memcmp(plte + 4 * i, pal->rgb + 3 * i, 3);
	for (size_t i = 0; same && i < (size_t)w * h; i++) {
		if (pidx[i] >= n) {
			r = -EINVAL;
			snprintf(err, errlen, "pixel %zu,%zu: index %u past the PNG's %u colours", i % w, i / w,
				 pidx[i], n);
			break;
		}
		idx[i] = pidx[i];
	}
	free(pidx);
	return r ? r : same;
}

int rgfx_png_in(const uint8_t *data, size_t len, uint32_t w, uint32_t h, int indexed, const struct rgfx_pal *pal,
		uint8_t *idx, char *err, size_t errlen)
{
	uint32_t pw = 0, ph = 0;
	uint8_t *rgba = NULL;
	int r;

	if (gfs_png_size(data, len, &pw, &ph))
		return snprintf(err, errlen, "want a %ux%u PNG, not %zu bytes of something else", w, h, len), -EINVAL;
	if (pw != w || ph != h)
		return snprintf(err, errlen, "want a %ux%u PNG, not %" PRIu32 "x%" PRIu32, w, h, pw, ph), -EINVAL;
	if (indexed && data[PNG_CTYPE_AT] != PNG_CTYPE_PALETTE)
		return snprintf(err, errlen, "want a palette-indexed PNG (colour type 3), not type %u",
				data[PNG_CTYPE_AT]), -EINVAL;
	if ((r = rgfx_png_same_palette(data, len, w, h, pal, idx, err, errlen)))
		return r < 0 ? r : 0;
	if ((r = gfs_png_decode(data, len, w, h, &rgba, &pw, &ph)))
		return r == -ENOMEM ? r : (snprintf(err, errlen, "the PNG does not decode"), -EINVAL);
	for (size_t i = 0; !r && i < (size_t)w * h; i++) {
		const uint8_t *px = rgba + 4 * i;
		int k = rgfx_colour_index(px, pal, idx[i]);

		if (k < 0) {
			snprintf(err, errlen, "pixel %zu,%zu: colour #%02x%02x%02x %s the %s", i % w, i / w, px[0],
				 px[1], px[2], k == -2 ? "is twice in" : "is not in", pal->what);
			r = -EINVAL;
		} else {
			idx[i] = (uint8_t)k;
		}
	}
	free(rgba);
	return r;
}

int rgfx_store(const struct rgfx_set *s, uint8_t *bin, const uint8_t *data, size_t len, int indexed,
	       const struct rgfx_pal *pal, char *err, size_t errlen)
{
	uint8_t *idx = malloc(rgfx_png_w(s) * (size_t)s->h);
	int r = idx ? 0 : -ENOMEM;

	if (!r)
		rgfx_get(s, bin, idx);
	if (!r && !(r = rgfx_png_in(data, len, rgfx_png_w(s), (uint32_t)s->h, indexed, pal, idx, err, errlen)))
		rgfx_put(s, bin, idx);
	free(idx);
	return r;
}
