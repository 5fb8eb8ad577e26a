/*
 * rgfx documents: the spriteset walk and the pixels of a spriteset's PNG,
 * shared by a game's views (rpg_gfx.c) and the reld driver (reld.c).
 */
#include <errno.h>
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

int rgfx_render(const struct rgfx_set *s, const uint8_t *bin, const uint8_t *rgb, unsigned ncolors,
		struct gfs_buf *out)
{
	size_t w = (size_t)s->w, iw = w * s->nframes;
	uint8_t *idx = malloc(iw * (size_t)s->h);
	int r;

	if (!idx)
		return -ENOMEM;
	for (size_t f = 0; f < s->nframes; f++)
		for (size_t y = 0; y < (size_t)s->h; y++)
			memcpy(idx + y * iw + f * w, bin + s->off[f] + y * w, w);
	r = gfs_png_encode_indexed(idx, (uint32_t)iw, (uint32_t)s->h, rgb, ncolors, out);
	free(idx);
	return r;
}

int rgfx_colour_index(const uint8_t *px, const uint8_t *rgb, unsigned ncolors, unsigned old)
{
	int found = -1, count = 0;

	if (old < ncolors && !memcmp(rgb + 3 * old, px, 3))
		return (int)old;
	for (unsigned i = 0; i < ncolors; i++)
		if (!memcmp(rgb + 3 * i, px, 3)) {
			found = (int)i;
			count++;
		}
	return count == 1 ? found : count ? -2 : -1;
}

int rgfx_png_in(const uint8_t *data, size_t len, uint32_t w, uint32_t h, int indexed, uint8_t **rgba, char *err,
		size_t errlen)
{
	uint32_t pw = 0, ph = 0;
	int r;

	if (gfs_png_size(data, len, &pw, &ph) || pw != w || ph != h)
		return snprintf(err, errlen, "want a %ux%u PNG", w, h), -EINVAL;
	if (indexed && data[PNG_CTYPE_AT] != PNG_CTYPE_PALETTE)
		return snprintf(err, errlen, "want a palette-indexed PNG (colour type 3), not type %u",
				data[PNG_CTYPE_AT]), -EINVAL;
	r = gfs_png_decode(data, len, w, h, rgba, &pw, &ph);
	if (r && r != -ENOMEM)
		return snprintf(err, errlen, "the PNG does not decode"), -EINVAL;
	return r;
}

int rgfx_from_rgba(const struct rgfx_set *s, uint8_t *bin, const uint8_t *rgba, const uint8_t *rgb,
		   unsigned ncolors, const char *what, char *err, size_t errlen)
{
	size_t w = (size_t)s->w, iw = w * s->nframes;

	for (size_t f = 0; f < s->nframes; f++)
		for (size_t y = 0; y < (size_t)s->h; y++)
			for (size_t x = 0; x < w; x++) {
				uint8_t *c = bin + s->off[f] + y * w + x;
				const uint8_t *px = rgba + (y * iw + f * w + x) * 4;
				int i = rgfx_colour_index(px, rgb, ncolors, *c);

				if (i < 0)
					return snprintf(err, errlen, "pixel %zu,%zu: colour #%02x%02x%02x %s the %s",
							f * w + x, y, px[0], px[1], px[2],
							i == -2 ? "is twice in" : "is not in", what), -EINVAL;
				*c = (uint8_t)i;
			}
	return 0;
}
