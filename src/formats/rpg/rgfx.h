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

/*
 * The colours an image view shows in: n of rgb (RGB triples), called what
 * in messages; its first nclear shown transparent (the engine does not
 * draw them: colour 0 of sprites and the font).
 */
struct rgfx_pal {
	uint8_t rgb[3 * 256];
	unsigned n, nclear;
	const char *what;
};

/* The spriteset's PNG (appended to out), its indices in pal. */
int rgfx_render(const struct rgfx_set *s, const uint8_t *bin, const struct rgfx_pal *pal, struct gfs_buf *out);

/*
 * A PNG written to an image view of w x h shown in pal, as indices: idx
 * (w x h) holds the view's indices on entry and the PNG's on return.  A
 * palette PNG whose palette is pal's (or its first colours; alpha aside,
 * so an editor may keep or drop the tRNS) keeps its indices, duplicate
 * colours included.  Any other PNG (palette-indexed only when indexed) is
 * matched by colour: a transparent pixel is index 0 where pal->nclear, a
 * pixel keeps its index while that still has its colour, else takes the
 * one index of exactly its colour.  -EINVAL with why in err ("pixel X,Y:
 * ..."), idx then partly written; -ENOMEM.
 */
int rgfx_png_in(const uint8_t *data, size_t len, uint32_t w, uint32_t h, int indexed, const struct rgfx_pal *pal,
		uint8_t *idx, char *err, size_t errlen);

/* A spriteset's PNG written back into its image bytes in bin by rgfx_png_in(); bin is changed only on success. */
int rgfx_store(const struct rgfx_set *s, uint8_t *bin, const uint8_t *data, size_t len, int indexed,
	       const struct rgfx_pal *pal, char *err, size_t errlen);

#endif
