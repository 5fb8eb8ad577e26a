/*
 * rgfx documents (OHRRPGCE spritesets in RELOAD, specs/ohrrpgce-lumps.md
 * 3.6): the walk that finds each spriteset's first frameset, and the pixel
 * code of its PNG (frames side by side, 8-bit indices).  Pure: no archive,
 * no palette of its own; the game's views (rpg_gfx.c) and the reld driver
 * pass their palettes in.
 */
#ifndef GFS_RPG_RGFX_H
#define GFS_RPG_RGFX_H

#include <stddef.h>
#include <stdint.h>
#include "reload.h"

struct gfs_buf;

#define RGFX_MAX_FRAMES 64
#define RGFX_MAX_W 1280
#define RGFX_MAX_H 800

/*
 * The first frameset of a spriteset, as a walk finds it: the want-th one,
 * or (each set) every one in turn, handed to each() as the walk leaves it
 * (why: NULL when it can be a PNG, else the reason it cannot).
 */
struct rgfx_set {
	size_t want, seen;		/* spritesets: the one wanted, how many met */
	int root_rgfx;			/* the root is named rgfx */
	int in_sets, in_set, in_frameset, framesets, too_many;
	int64_t id, w, h, bits;
	size_t nframes, off[RGFX_MAX_FRAMES], len[RGFX_MAX_FRAMES];
	unsigned ncolors;		/* indices must be below this (256: any) */
	const uint8_t *bin;
	int (*each)(struct rgfx_set *s, size_t k, const char *why);
	void *ctx;
};

/*
 * Walk an rgfx document for spriteset want (each NULL), or for every
 * spriteset (each called for each).  0, or -EBADMSG with why in err.
 */
int rgfx_walk(const uint8_t *bin, size_t len, unsigned ncolors, size_t want, struct rgfx_set *s,
	      int (*each)(struct rgfx_set *, size_t, const char *), void *ctx, char *err, size_t errlen);

/* The PNG's size: frames side by side. */
static inline uint32_t rgfx_png_w(const struct rgfx_set *s)
{
	return (uint32_t)((size_t)s->w * s->nframes);
}

/* The spriteset's PNG (appended to out), its indices in ncolors of rgb. */
int rgfx_render(const struct rgfx_set *s, const uint8_t *bin, const uint8_t *rgb, unsigned ncolors,
		struct gfs_buf *out);

/*
 * The index of colour px (RGB) among ncolors of rgb: old when that index
 * still has the colour, else the one index of exactly it; -1 when the
 * colour is not there, -2 when it is there twice.
 */
int rgfx_colour_index(const uint8_t *px, const uint8_t *rgb, unsigned ncolors, unsigned old);

/*
 * A PNG written to an image view: exactly w x h, palette-indexed when
 * indexed, decoded to RGBA (*rgba malloc'd); else -EINVAL, why in err.
 */
int rgfx_png_in(const uint8_t *data, size_t len, uint32_t w, uint32_t h, int indexed, uint8_t **rgba, char *err,
		size_t errlen);

/*
 * The RGBA pixels of a spriteset's PNG (rgfx_png_w() x h) into its image
 * bytes in bin, each by rgfx_colour_index() among ncolors of rgb (what:
 * that palette's name); -EINVAL with "pixel X,Y: ..." in err, bin then
 * partly written.
 */
int rgfx_from_rgba(const struct rgfx_set *s, uint8_t *bin, const uint8_t *rgba, const uint8_t *rgb,
		   unsigned ncolors, const char *what, char *err, size_t errlen);

#endif
