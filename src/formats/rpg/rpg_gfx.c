/*
 * Graphics views of an OHRRPGCE game (specs/ohrrpgce-lumps.md section 3).
 *
 *   tilesets/NN.png     <arch>.TIL, backdrops/NN.png <arch>.MXS: Mode-X
 *                       pages of 64000 bytes, plane x%4 then y*80 + x/4;
 *                       320x200 PNG in the master palette
 *   sprites/<kind>/NNN.png  <arch>.PT0-.PT8: records of frames of w x h
 *                       4-bit pixels, each frame column by column, a byte
 *                       two pixels one above the other (high nibble the
 *                       upper); one PNG a record, its frames side by side,
 *                       in the set's default 16-colour palette
 *   palettes/master-NN.txt  PALETTES.BIN: int16 header size, int16 record
 *                       size, records of 256 RGB triples
 *   palettes/legacy-master.txt  <arch>.MAS: BSAVE header, 256 x 3 int16
 *                       VGA values (0-63)
 *   palettes/16-colour.csv  <arch>.PAL: a header (int16 4444, int16 last
 *                       palette, 12 zeros; or an old BSAVE header), then
 *                       16 master-palette indices a palette
 *   palettes/default-<kind>.csv  DEFPALn.BIN: an int16 a sprite set, its
 *                       16-colour palette; "set,palette" rows
 *   sprites/<kind>/NNN.png, backdrops/NNN.png  <KIND>.RGFX (RELOAD): each
 *                       spriteset's first frameset, 8-bit w x h frames,
 *                       named by the spriteset's id; written back in place
 *                       (same sizes, so the document keeps its layout)
 *   font.png            <arch>.FNT: BSAVE header, 256 glyphs of 8 bytes, a
 *                       byte a column, bit y row y (LSB on top): 128x128,
 *                       16 glyphs a row
 *
 * Every view patches only its own record's bytes; headers, partial trailing
 * records and junk past the data stay.  Sprites and the font show colour 0
 * transparent (a tRNS entry: the engine does not draw it; an editor may
 * keep or drop it).  A PNG written back must be the exact size; one whose palette is the view's keeps its
 * indices (a master palette may hold a colour twice); any other is matched
 * by colour (rgfx_png_in: sprite palettes are shown with 16 distinct
 * colours, so a sprite's colour is the index it had).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rpg.h"
#include "gfs_grid.h"
#include "gfs_codec.h"
#include "gfs_layout.h"
#include "rgfx.h"

#define BSAVE_HDR 7
#define BSAVE_MAGIC 0xfd
#define PAGE_W 320
#define PAGE_H 200
#define PAGE_BYTES (PAGE_W * PAGE_H)
#define PAL16_MAGIC 4444
#define PAL16_HDR 16
#define PAL16_OLD_COUNT 100
#define PAL16_COLOURS 16
#define MASTER_COLOURS 256
#define MASTER_BYTES (MASTER_COLOURS * 3)
#define MASTERS_HDR_MIN 4
#define FONT_GLYPH_BYTES 8
#define FONT_W 128		/* 16 x 16 glyphs of 8 x 8: 2048 bytes */
#define FONT_H 128
#define GEN_MASTER_PALETTE 78

enum { G_PAGES, G_SPRITE, G_MASTERS, G_MAS, G_PAL16, G_FONT, G_DEFPAL, G_RGFX };

struct rpg_gfx {
	const char *lump;	/* ".PT4": after the archinym; else the whole name */
	int type;		/* G_* */
	const char *view;	/* directory (pages, sprites, masters) or file */
	unsigned w, h, frames;	/* images: a frame's size, frames a record */
	unsigned bits;		/* images: bits a pixel */
	unsigned hdr;		/* images: bytes before the first record */
	char defpal;		/* sprites: n of DEFPALn.BIN ('-': none, palette 0); 0: the master palette */
};

/* The rows of one kind: sprite sets .PTn, default palettes DEFPALn.BIN, RELOAD graphics NAME.RGFX. */
#define PT(n, view, w, h, frames)	{ ".PT" #n, G_SPRITE, "sprites/" view, w, h, frames, 4, 0, '0' + n }
#define DEFPAL(n, view)			{ "DEFPAL" #n ".BIN", G_DEFPAL, "palettes/default-" view ".csv", 0, 0, 0, 0, 0, 0 }
#define RGFX(lump, view, pal)		{ lump ".RGFX", G_RGFX, view, 0, 0, 0, 8, 0, pal }

static const struct rpg_gfx rpg_gfxs[] = {
	{ ".TIL", G_PAGES, "tilesets", PAGE_W, PAGE_H, 1, 8, 0, 0 },
	{ ".MXS", G_PAGES, "backdrops", PAGE_W, PAGE_H, 1, 8, 0, 0 },
	PT(0, "heroes", 32, 40, 8), PT(1, "small-enemies", 34, 34, 1), PT(2, "medium-enemies", 50, 50, 1),
	PT(3, "large-enemies", 80, 80, 1), PT(4, "walkabouts", 20, 20, 8), PT(5, "weapons", 24, 24, 2),
	PT(6, "attacks", 50, 50, 3), PT(7, "box-borders", 16, 16, 16), PT(8, "portraits", 50, 50, 1),
	{ "PALETTES.BIN", G_MASTERS, "palettes", 0, 0, 0, 0, 0, 0 },
	{ ".MAS", G_MAS, "palettes/legacy-master.txt", 0, 0, 0, 0, 0, 0 },
	{ ".PAL", G_PAL16, "palettes/16-colour.csv", 0, 0, 0, 0, 0, 0 },
	{ ".FNT", G_FONT, "font.png", FONT_W, FONT_H, 1, 1, BSAVE_HDR, 0 },
	DEFPAL(0, "heroes"), DEFPAL(1, "small-enemies"), DEFPAL(2, "medium-enemies"),
	DEFPAL(3, "large-enemies"), DEFPAL(4, "walkabouts"), DEFPAL(5, "weapons"),
	DEFPAL(6, "attacks"), DEFPAL(7, "box-borders"), DEFPAL(8, "portraits"),
	RGFX("HEROES", "sprites/heroes", '0'), RGFX("ENEMIES", "sprites/enemies", '-'),
	RGFX("WALKABOUTS", "sprites/walkabouts", '4'), RGFX("WEAPONS", "sprites/weapons", '5'),
	RGFX("ATTACKS", "sprites/attacks", '6'), RGFX("BOXBORDERS", "sprites/box-borders", '7'),
	RGFX("PORTRAITS", "sprites/portraits", '8'), RGFX("BACKDROPS", "backdrops", 0),
};

static const struct rpg_gfx *rpg_gfx_of(struct rpg_model *m, const struct rpg_lump *l)
{
	for (size_t i = 0; i < sizeof(rpg_gfxs) / sizeof(rpg_gfxs[0]); i++)
		if (rpg_lump_is(m, l, rpg_gfxs[i].lump))
			return &rpg_gfxs[i];
	return NULL;
}

/* The lump named <archinym><ext> (ext ".PAL"), or NULL. */
static struct rpg_lump *rpg_arch_lump(struct rpg_model *m, const char *ext)
{
	char nm[RPG_NAME_MAX + 16];

	snprintf(nm, sizeof(nm), "%s%s", m->archinym, ext);
	return rpg_lump_named(m, nm);
}

/* ---- layouts ------------------------------------------------------------------- */

/* Bytes of one record of an image lump (a page, a sprite set, the font). */
static size_t rpg_image_bytes(const struct rpg_gfx *g)
{
	return (size_t)g->w * g->h * g->frames * g->bits / 8;
}

/* PAL: where the palettes start and how many whole ones; 0 when not a PAL. */
static int rpg_pal16_layout(const uint8_t *head, size_t headlen, uint64_t len, size_t *hdr, size_t *count)
{
	if (headlen >= 2 && len >= PAL16_HDR && gfs_le16(head) == PAL16_MAGIC)
		*hdr = PAL16_HDR;
	else if (headlen >= 1 && head[0] == BSAVE_MAGIC && len >= BSAVE_HDR + PAL16_OLD_COUNT * PAL16_COLOURS)
		*hdr = BSAVE_HDR;
	else
		return 0;
	*count = (size_t)((len - *hdr) / PAL16_COLOURS);
	return 1;
}

/* PALETTES.BIN: header size, record size, whole records; 0 when unusable. */
static int rpg_masters_layout(const uint8_t *head, size_t headlen, uint64_t len, size_t *hdr, size_t *rs,
			      size_t *count)
{
	if (headlen < MASTERS_HDR_MIN || len < MASTERS_HDR_MIN)
		return 0;
	*hdr = gfs_le16(head);
	*rs = gfs_le16(head + 2);
	if (*hdr < MASTERS_HDR_MIN || *rs < MASTER_BYTES || *hdr > len)
		return 0;
	*count = (size_t)((len - *hdr) / *rs);
	return 1;
}

/* ---- palettes used to draw ------------------------------------------------------ */

/* The game's master palette: PALETTES.BIN record gen(78), else the legacy MAS, else grey. */
void rpg_master_palette(struct gfs_archive *ar, uint8_t *rgb)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *l = rpg_lump_named(m, "PALETTES.BIN");
	struct gfs_buf b = GFS_BUF_INIT;
	size_t hs, rs, count;

	for (int i = 0; i < MASTER_BYTES; i++)
		rgb[i] = (uint8_t)(i / 3);
	if (l && !rpg_lump_read(ar, l, &b) && rpg_masters_layout(b.data, b.len, b.len, &hs, &rs, &count) && count) {
		long sel = rpg_gen(ar, m, GEN_MASTER_PALETTE);

		memcpy(rgb, b.data + hs + (sel > 0 && (size_t)sel < count ? (size_t)sel : 0) * rs, MASTER_BYTES);
		gfs_buf_release(&b);
		return;
	}
	gfs_buf_release(&b);
	if ((l = rpg_arch_lump(m, ".MAS")) && !rpg_lump_read(ar, l, &b) && b.len >= BSAVE_HDR + 2 * MASTER_BYTES)
		for (int i = 0; i < MASTER_BYTES; i++) {
			unsigned v = gfs_le16(b.data + BSAVE_HDR + 2 * i) & 63;

			rgb[i] = (uint8_t)(v ? v * 4 + 3 : 0);
		}
	gfs_buf_release(&b);
}

/*
 * The 16 master palette indices of PAL palette pal, or when pal < 0 of
 * DEFPALn.BIN[set] (n: defpal; palette 0 when it has none).
 */
static void rpg_pal16_of(struct gfs_archive *ar, char defpal, size_t set, long pal, uint8_t *idx)
{
	struct rpg_model *m = ar->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	struct rpg_lump *l;
	char nm[32];
	size_t hdr, count;

	for (int i = 0; i < PAL16_COLOURS; i++)
		idx[i] = (uint8_t)i;
	snprintf(nm, sizeof(nm), "DEFPAL%c.BIN", defpal);
	if (pal < 0 && (l = rpg_lump_named(m, nm)) && !rpg_lump_read(ar, l, &b) && b.len >= 2 * set + 2 &&
	    (int16_t)gfs_le16(b.data + 2 * set) > 0)
		pal = (int16_t)gfs_le16(b.data + 2 * set);
	gfs_buf_release(&b);
	if (pal < 0)
		pal = 0;
	if ((l = rpg_arch_lump(m, ".PAL")) && !rpg_lump_read(ar, l, &b) &&
	    rpg_pal16_layout(b.data, b.len, b.len, &hdr, &count) && count)
		memcpy(idx, b.data + hdr + ((size_t)pal < count ? (size_t)pal : 0) * PAL16_COLOURS, PAL16_COLOURS);
	gfs_buf_release(&b);
}

/*
 * The 16 colours sprite set `set` of g is drawn in: PAL palette
 * DEFPALn.BIN[set] (palette 0 when it has none) through the master palette.
 * A colour already taken by a lower index is nudged in the low bits of
 * blue, so each index has a colour of its own and a PNG maps back exactly.
 */
static void rpg_sprite_palette(struct gfs_archive *ar, const struct rpg_gfx *g, size_t set, uint8_t *rgb)
{
	uint8_t master[MASTER_BYTES], idx[PAL16_COLOURS];

	rpg_pal16_of(ar, g->defpal, set, -1, idx);
	rpg_master_palette(ar, master);
	for (int i = 0; i < PAL16_COLOURS; i++) {
		uint8_t *c = rgb + 3 * i, blue = master[3 * idx[i] + 2];

		memcpy(c, master + 3 * idx[i], 3);
		for (unsigned nudge = 1; nudge < 256; nudge++) {
			int taken = 0;

			for (int j = 0; j < i && !taken; j++)
				taken = !memcmp(rgb + 3 * j, c, 3);
			if (!taken)
				break;
			c[2] = (uint8_t)(blue ^ nudge);
		}
	}
}

/* ---- images: Mode-X pages, 4-bit sprite sets, the font ------------------------ */

/* Where pixel (x, y) of an image's PNG lives in its record: byte, shift, mask. */
struct rpg_px {
	size_t at;
	unsigned shift, mask;
};

static struct rpg_px rpg_px_of(const struct rpg_gfx *g, unsigned x, unsigned y)
{
	switch (g->type) {
	case G_PAGES:	/* plane x%4, then rows of 80 */
		return (struct rpg_px){ (size_t)(x % 4) * (PAGE_BYTES / 4) + (size_t)y * (PAGE_W / 4) + x / 4, 0, 0xff };
	case G_SPRITE:	/* frame x/w, column by column, two rows a byte (high nibble the upper) */
		return (struct rpg_px){ (size_t)(x / g->w) * g->w * g->h / 2 + (size_t)(x % g->w) * (g->h / 2) + y / 2,
					y % 2 ? 0 : 4, 0xf };
	default:	/* font: 16 glyphs a row, a byte a column, bit y%8 row y%8 */
		return (struct rpg_px){ (size_t)((y / 8) * 16 + x / 8) * FONT_GLYPH_BYTES + x % 8, y % 8, 1 };
	}
}

static const uint8_t font_rgb[6] = { 0, 0, 0, 255, 255, 255 };

/*
 * The master palette (master), else the palette of sprite set rec of g;
 * sprites show colour 0 transparent (the engine does not draw it).
 */
static void rpg_palette_of(struct gfs_archive *ar, const struct rpg_gfx *g, int master, size_t rec,
			   struct rgfx_pal *pal)
{
	if (master) {
		rpg_master_palette(ar, pal->rgb);
		pal->what = "master palette";
		pal->n = MASTER_COLOURS;
		pal->nclear = 0;
		return;
	}
	rpg_sprite_palette(ar, g, rec, pal->rgb);
	pal->what = "sprite's palette";
	pal->n = PAL16_COLOURS;
	pal->nclear = 1;
}

/* The colours record rec of image g is shown in (the font: black, transparent, and white). */
static void rpg_image_palette(struct gfs_archive *ar, const struct rpg_gfx *g, size_t rec, struct rgfx_pal *pal)
{
	if (g->type != G_FONT)
		return rpg_palette_of(ar, g, g->type == G_PAGES, rec, pal);
	memcpy(pal->rgb, font_rgb, sizeof(font_rgb));
	pal->what = "palette (black, white)";
	pal->n = 2;
	pal->nclear = 1;
}

/* The indices of an image's record as its PNG lays them out (put: 0), or back into the record (put: 1). */
static void rpg_image_indices(const struct rpg_gfx *g, uint8_t *rec, uint8_t *idx, int put)
{
	size_t iw = (size_t)g->w * g->frames;

	for (unsigned y = 0; y < g->h; y++)
		for (unsigned x = 0; x < iw; x++) {
			struct rpg_px p = rpg_px_of(g, x, y);
			uint8_t *c = rec + p.at, *i = idx + (size_t)y * iw + x;

			if (put)
				*c = (uint8_t)((*c & ~(p.mask << p.shift)) | (unsigned)*i << p.shift);
			else
				*i = (uint8_t)(*c >> p.shift & p.mask);
		}
}

static int rpg_image_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	const struct rpg_gfx *g = v->desc;
	size_t rb = rpg_image_bytes(g), iw = (size_t)g->w * g->frames;
	uint8_t *rec = malloc(rb), *idx = malloc(iw * g->h);
	struct rgfx_pal pal;
	int r = !rec || !idx ? -ENOMEM : v->l ? 0 : -ENOENT;

	/* only this record's bytes: a stat walk of many sprite sets reads no lump whole */
	if (!r && rpg_lump_range(ar, v->l, g->hdr + (uint64_t)v->rec * rb, rb, rec))
		r = gfs_err(ar, -EIO, "lump %s: record %zu is not in the lump any more", v->l->name, v->rec);
	if (!r) {
		rpg_image_indices(g, rec, idx, 0);
		rpg_image_palette(ar, g, v->rec, &pal);
		r = gfs_png_encode_indexed_clear(idx, (uint32_t)iw, g->h, pal.rgb, pal.n, pal.nclear, out);
	}
	free(rec);
	free(idx);
	return r;
}

/*
 * An image written back: the exact size, any PNG (rgfx_png_in: its own
 * indices when it carries the view's palette, else matched by colour).
 */
static int rpg_image_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	const struct rpg_gfx *g = v->desc;
	struct gfs_buf b = GFS_BUF_INIT;
	size_t rb = rpg_image_bytes(g), iw = (size_t)g->w * g->frames, off = g->hdr + v->rec * rb;
	uint8_t *idx = malloc(iw * g->h);
	struct rgfx_pal pal;
	char err[160];
	int r = !idx ? -ENOMEM : v->l ? rpg_lump_read(ar, v->l, &b) : -ENOENT;

	if (!r && (off > b.len || rb > b.len - off))
		r = gfs_err(ar, -EIO, "lump %s: record %zu is not in the lump any more", v->l->name, v->rec);
	if (!r) {
		rpg_image_indices(g, b.data + off, idx, 0);
		rpg_image_palette(ar, g, v->rec, &pal);
		if ((r = rgfx_png_in(data, len, (uint32_t)iw, g->h, 0, &pal, idx, err, sizeof(err))) == -EINVAL)
			r = gfs_err(ar, r, "%s: %s", n->name, err);
	}
	if (!r)
		rpg_image_indices(g, b.data + off, idx, 1);
	free(idx);
	return rpg_lump_done(ar, v->l, &b, r);
}

const struct gfs_node_ops rpg_image_ops = { .render = rpg_image_render, .store = rpg_image_store, .free = free };

int rpg_gfx_image(struct gfs_archive *ar, struct rpg_lump *l, struct rpg_image *im)
{
	const struct rpg_gfx *g = rpg_gfx_of(ar->priv, l);

	if (!g || (g->type != G_PAGES && g->type != G_SPRITE) || l->kind != RPG_K_GFX)
		return 0;
	*im = (struct rpg_image){ g->view, rpg_image_bytes(g), g->type == G_PAGES, g->defpal,
				  g->type == G_PAGES && strcmp(g->lump, ".TIL") ? 1 : 0, 0, g };
	if (g->type == G_SPRITE)
		im->gen = g->lump[3] <= '6' ? 26 + (g->lump[3] - '0') : 83 + (g->lump[3] - '7');
	else
		im->gen = im->count ? 100 : 33;
	return 1;
}

int rpg_gfx_png(struct gfs_archive *ar, struct rpg_lump *l, size_t rec, const char *name, const uint8_t *data,
		size_t len, uint8_t *out)
{
	const struct rpg_gfx *g = rpg_gfx_of(ar->priv, l);
	size_t iw = g ? (size_t)g->w * g->frames : 0;
	uint8_t *idx = g ? calloc(iw * g->h, 1) : NULL;
	struct rgfx_pal pal;
	char err[160];
	int r = idx ? 0 : -ENOMEM;

	if (!r) {
		rpg_image_palette(ar, g, rec, &pal);
		if ((r = rgfx_png_in(data, len, (uint32_t)iw, g->h, 0, &pal, idx, err, sizeof(err))) == -EINVAL)
			r = gfs_err(ar, r, "%s: %s", name, err);
	}
	if (!r) {
		memset(out, 0, rpg_image_bytes(g));
		rpg_image_indices(g, out, idx, 1);
	}
	free(idx);
	return r;
}

/* ---- rgfx sprite sets (rgfx.c walks them): RELOAD rgfx/spritesets/spriteset/frameset/frame/image ---- */

/* The colours a spriteset of g shows in: 16 (its default palette) or 256 (the master palette). */
static unsigned rgfx_ncolors(const struct rpg_gfx *g)
{
	return g->defpal ? PAL16_COLOURS : MASTER_COLOURS;
}

/* What an rgfx view works on: the lump, its spriteset, the colours it shows in. */
struct rgfx_view {
	struct gfs_buf b;
	struct rgfx_set *s;
	struct rgfx_pal pal;
};

/*
 * The lump of v, its spriteset v->rec (EIO when it no longer shows as a
 * PNG) and the palette it shows in: 16 colours (its default palette) or
 * the master palette.  x->s is malloc'd, x->b filled (both for the caller).
 */
static int rgfx_read(struct gfs_archive *ar, struct rpg_vpriv *v, struct rgfx_view *x)
{
	const struct rpg_gfx *g = v->desc;
	char err[160];
	int r = !(x->s = malloc(sizeof(*x->s))) ? -ENOMEM : v->l ? rpg_lump_read(ar, v->l, &x->b) : -ENOENT;

	if (!r && (r = rgfx_walk(x->b.data, x->b.len, rgfx_ncolors(g), v->rec, x->s, NULL, NULL, err, sizeof(err))) &&
	    r != -ENOMEM)
		r = gfs_err(ar, -EIO, "lump %s: %s", v->l->name, err);
	if (!r)
		rpg_palette_of(ar, g, !g->defpal, x->s->id >= 0 ? (size_t)x->s->id : 0, &x->pal);
	return r;
}

static int rpg_rgfx_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rgfx_view x = { .b = GFS_BUF_INIT };
	int r = rgfx_read(ar, n->priv, &x);

	if (!r)
		r = rgfx_render(x.s, x.b.data, &x.pal, out);
	free(x.s);
	gfs_buf_release(&x.b);
	return r;
}

static int rpg_rgfx_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct rgfx_view x = { .b = GFS_BUF_INIT };
	char err[160];
	int r = rgfx_read(ar, v, &x);

	if (!r && (r = rgfx_store(x.s, x.b.data, data, len, 0, &x.pal, err, sizeof(err))) == -EINVAL)
		r = gfs_err(ar, r, "%s: %s", n->name, err);
	free(x.s);
	return rpg_lump_done(ar, v->l, &x.b, r);
}

RPG_VIEW_OPS(rpg_rgfx);

struct rgfx_build {
	struct gfs_archive *ar;
	struct rpg_lump *l;
	const struct rpg_gfx *g;
	struct gfs_node *dir;
};

static int rgfx_add(struct rgfx_set *s, size_t k, const char *why)
{
	struct rgfx_build *bd = s->ctx;
	char nm[32];

	if (why) {
		gfs_warn(bd->ar, "lump %s: spriteset not shown as PNG: %s", bd->l->name, why);
		return 0;
	}
	if (!bd->dir && !(bd->dir = rpg_subdir(bd->ar, bd->g->view)))
		return -ENOMEM;
	snprintf(nm, sizeof(nm), "%03lld.png", (long long)s->id);
	return rpg_add_view(bd->ar, bd->l, bd->dir, nm, &rpg_rgfx_ops, k, bd->g);
}

/* Add the PNG view of every spriteset of an rgfx lump that can be one (one walk). */
static int rpg_rgfx_build(struct gfs_archive *ar, struct rpg_lump *l, const struct rpg_gfx *g)
{
	struct gfs_buf b = GFS_BUF_INIT;
	struct rgfx_set *s = malloc(sizeof(*s));
	struct rgfx_build bd = { ar, l, g, NULL };
	char err[160];
	int r = s ? rpg_lump_read(ar, l, &b) : -ENOMEM;

	/* a document that does not walk has no views (its RELOAD text says why) */
	if (!r && (r = rgfx_walk(b.data, b.len, rgfx_ncolors(g), 0, s, rgfx_add, &bd, err, sizeof(err))) == -EBADMSG)
		r = 0;
	free(s);
	gfs_buf_release(&b);
	return r;
}

/* ---- a walkabout frame as the map draws it ------------------------------------- */

struct rpg_walk_find {
	long set;
	unsigned f;
	uint8_t *px;
	int found;
};

static int rgfx_walk_frame(struct rgfx_set *s, size_t k, const char *why)
{
	struct rpg_walk_find *w = s->ctx;

	(void)k;
	if (why || s->id != w->set || w->found || s->w != RPG_WALK_W || s->h != RPG_WALK_H || w->f >= s->nframes)
		return 0;
	for (unsigned y = 0; y < RPG_WALK_H; y++)
		memcpy(w->px + y * RPG_WALK_W, s->bin + s->off[w->f] + (size_t)y * RPG_WALK_W, RPG_WALK_W);
	w->found = 1;
	return 0;
}

int rpg_walkabout_frame(struct gfs_archive *ar, long set, long pal, unsigned f, uint8_t *px, uint8_t *master)
{
	struct rpg_model *m = ar->priv;
	const struct rpg_gfx *g = NULL;
	struct rpg_lump *l;
	struct rpg_walk_find w = { set, f, px, 0 };
	struct gfs_buf b = GFS_BUF_INIT;
	uint8_t rec[RPG_WALK_W * RPG_WALK_H * 8 / 2];

	for (size_t i = 0; i < sizeof(rpg_gfxs) / sizeof(rpg_gfxs[0]); i++)
		if (!strcmp(rpg_gfxs[i].lump, ".PT4"))
			g = &rpg_gfxs[i];
	if (set < 0 || f >= 8 || !g)
		return -ENOENT;
	if ((l = rpg_lump_named(m, "WALKABOUTS.RGFX"))) {
		struct rgfx_set *s = malloc(sizeof(*s));
		char err[160];

		if (s && !rpg_lump_read(ar, l, &b))
			(void)rgfx_walk(b.data, b.len, PAL16_COLOURS, 0, s, rgfx_walk_frame, &w, err, sizeof(err));
		free(s);
		gfs_buf_release(&b);
	} else if ((l = rpg_arch_lump(m, ".PT4")) &&
		   !rpg_lump_range(ar, l, (uint64_t)set * sizeof(rec), sizeof(rec), rec)) {
		for (unsigned y = 0; y < RPG_WALK_H; y++)
			for (unsigned x = 0; x < RPG_WALK_W; x++) {
				struct rpg_px p = rpg_px_of(g, f * RPG_WALK_W + x, y);

				px[y * RPG_WALK_W + x] = (uint8_t)(rec[p.at] >> p.shift & p.mask);
			}
		w.found = 1;
	}
	if (!w.found)
		return -ENOENT;
	rpg_pal16_of(ar, '4', (size_t)set, pal, master);
	return 0;
}

/* ---- how many sets a sprite kind has (for the records that name one) ---------------- */

static int rgfx_count(struct rgfx_set *s, size_t k, const char *why)
{
	long *sets = s->ctx;

	(void)k;
	(void)why;
	if (s->id >= 0 && s->id < LONG_MAX && s->id + 1 > *sets)
		*sets = (long)(s->id + 1);
	return 0;
}

long rpg_sprite_sets(struct gfs_archive *ar, char kind)
{
	struct rpg_model *m = ar->priv;
	long sets = -1;

	for (size_t i = 0; i < 2 * (sizeof(rpg_gfxs) / sizeof(rpg_gfxs[0])) && sets < 0; i++) {
		size_t ng = sizeof(rpg_gfxs) / sizeof(rpg_gfxs[0]);
		const struct rpg_gfx *g = &rpg_gfxs[i % ng];
		struct rpg_lump *l = NULL;

		/* the rgfx lumps first: the engine prefers them */
		if (g->defpal != kind || g->type != (i < ng ? G_RGFX : G_SPRITE))
			continue;
		for (size_t j = 0; j < m->n && !l; j++)
			if (rpg_lump_is(m, m->lumps[j], g->lump))
				l = m->lumps[j];
		if (l && g->type == G_SPRITE) {
			sets = (long)(l->len / ((size_t)g->w * g->h * g->bits / 8 * g->frames));
		} else if (l) {	/* ids run 0 to the highest one */
			struct gfs_buf b = GFS_BUF_INIT;
			struct rgfx_set *st = malloc(sizeof(*st));
			char err[160];

			sets = 0;
			if (!st || rpg_lump_read(ar, l, &b) ||
			    rgfx_walk(b.data, b.len, rgfx_ncolors(g), 0, st, rgfx_count, &sets, err, sizeof(err)))
				sets = -1;
			free(st);
			gfs_buf_release(&b);
		}
	}
	return sets;
}

/* ---- master palettes as text ----------------------------------------------------- */

/*
 * "III<TAB>R G B", one line a colour: PALETTES.BIN's bytes (0-255), or
 * MAS's int16 words (VGA 0-63, shown as stored).
 */
struct rpg_rgb_layout {
	size_t off;		/* of the first value in the lump */
	unsigned width;		/* bytes a value: 1 or 2 */
};

static int rpg_rgb_layout(struct gfs_archive *ar, struct rpg_vpriv *v, struct gfs_buf *b,
			  struct rpg_rgb_layout *lay)
{
	const struct rpg_gfx *g = v->desc;
	size_t hs, rs, count;
	int r = v->l ? rpg_lump_read(ar, v->l, b) : -ENOENT;

	if (r)
		return r;
	if (g->type == G_MAS) {
		lay->off = BSAVE_HDR;
		lay->width = 2;
	} else if (rpg_masters_layout(b->data, b->len, b->len, &hs, &rs, &count) && v->rec < count) {
		lay->off = hs + v->rec * rs;
		lay->width = 1;
	} else {
		return gfs_err(ar, -EIO, "lump %s: palette %zu is not in the lump any more", v->l->name, v->rec);
	}
	if (lay->off > b->len || (size_t)MASTER_BYTES * lay->width > b->len - lay->off)
		return gfs_err(ar, -EIO, "lump %s: palette %zu is not in the lump any more", v->l->name, v->rec);
	return 0;
}

static long rpg_rgb_get(const struct rpg_rgb_layout *lay, const uint8_t *d, size_t i)
{
	return lay->width == 1 ? d[lay->off + i] : (long)(int16_t)gfs_le16(d + lay->off + 2 * i);
}

static int rpg_rgb_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct gfs_buf b = GFS_BUF_INIT;
	struct rpg_rgb_layout lay;
	int r = rpg_rgb_layout(ar, n->priv, &b, &lay);

	for (size_t i = 0; !r && i < MASTER_COLOURS; i++)
		r = gfs_buf_printf(out, "%zu\t%ld %ld %ld\n", i, rpg_rgb_get(&lay, b.data, 3 * i),
				   rpg_rgb_get(&lay, b.data, 3 * i + 1), rpg_rgb_get(&lay, b.data, 3 * i + 2));
	gfs_buf_release(&b);
	return r;
}

static int rpg_rgb_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct gfs_buf b = GFS_BUF_INIT, text = GFS_BUF_INIT;
	struct rpg_rgb_layout lay;
	size_t i = 0;
	char *p, *line;
	int r = rpg_rgb_layout(ar, n->priv, &b, &lay);

	if (!r && !(r = gfs_buf_add(&text, data, len)))
		r = gfs_buf_addc(&text, 0);
	if (!r && memchr(data, 0, len))
		r = gfs_err(ar, -EINVAL, "%s: a NUL byte in the text", n->name);
	p = r ? NULL : (char *)text.data;
	while (!r && (line = gfs_next_word(&p, "\n"))) {
		long id, c[3], lo = lay.width == 1 ? 0 : INT16_MIN, hi = lay.width == 1 ? 255 : INT16_MAX;
		char tail;

		if (sscanf(line, "%ld %ld %ld %ld %c", &id, &c[0], &c[1], &c[2], &tail) != 4 || id != (long)i ||
		    i >= MASTER_COLOURS) {
			r = gfs_err(ar, -EINVAL, "%s: line %zu: want \"%zu<TAB>R G B\" (256 lines, colours in order)",
				    n->name, i + 1, i);
			break;
		}
		for (int k = 0; !r && k < 3; k++) {
			size_t at = lay.off + (3 * i + (size_t)k) * lay.width;

			if (c[k] < lo || c[k] > hi)
				r = gfs_err(ar, -EINVAL, "%s: line %zu: %ld is not in %ld..%ld", n->name, i + 1, c[k],
					    lo, hi);
			else if (c[k] == rpg_rgb_get(&lay, b.data, 3 * i + (size_t)k))
				continue;
			else if (lay.width == 1)
				b.data[at] = (uint8_t)c[k];
			else
				gfs_put_u16le(b.data + at, (uint16_t)c[k]);
		}
		i++;
	}
	if (!r && i != MASTER_COLOURS)
		r = gfs_err(ar, -EINVAL, "%s: %zu lines, want %d", n->name, i, MASTER_COLOURS);
	if (!r)
		r = rpg_set_if_changed(ar, ((struct rpg_vpriv *)n->priv)->l, b.data, b.len);
	gfs_buf_release(&text);
	gfs_buf_release(&b);
	return r;
}

RPG_VIEW_OPS(rpg_rgb);

/* ---- 16-colour palettes as CSV --------------------------------------------------- */

static int rpg_pal16_read(struct gfs_archive *ar, struct rpg_vpriv *v, struct gfs_buf *b, size_t *hdr,
			  size_t *count)
{
	int r = v->l ? rpg_lump_read(ar, v->l, b) : -ENOENT;

	if (!r && !rpg_pal16_layout(b->data, b->len, b->len, hdr, count))
		r = gfs_err(ar, -EIO, "lump %s: not a 16-colour palette lump any more", v->l->name);
	return r;
}

static int rpg_pal16_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct gfs_buf b = GFS_BUF_INIT;
	size_t hdr = 0, count = 0;
	int r = rpg_pal16_read(ar, n->priv, &b, &hdr, &count);

	if (!r)
		r = gfs_grid_write_u8(out, b.data + hdr, PAL16_COLOURS, count);
	gfs_buf_release(&b);
	return r;
}

static int rpg_pal16_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct gfs_buf b = GFS_BUF_INIT;
	size_t hdr = 0, count = 0;
	int r = rpg_pal16_read(ar, n->priv, &b, &hdr, &count);

	if (!r)	/* one row a palette */
		r = gfs_grid_read_u8(ar, n->name, data, len, PAL16_COLOURS, count, b.data + hdr);
	return rpg_lump_done(ar, ((struct rpg_vpriv *)n->priv)->l, &b, r);
}

RPG_VIEW_OPS(rpg_pal16);

/* ---- default palettes as CSV ------------------------------------------------------ */

/* DEFPALn.BIN: an int16 a sprite set, its default palette (a table on the CSV face, gfs_layout.h) */
static const struct gfs_field defpal_f[] = { { .key = "palette", .kind = GFS_FK_SINT, .width = 2 } };
static const struct gfs_record defpal_rec = { .size = 2, .fields = defpal_f, .nfields = 1 };
static const struct gfs_table defpal_table = { .index = "set", .rec = &defpal_rec };

static int rpg_defpal_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	int r = v->l ? rpg_lump_read(ar, v->l, &b) : -ENOENT;

	if (!r)
		r = gfs_table_render(&defpal_table, b.data, b.len / 2, NULL, out);
	gfs_buf_release(&b);
	return r;
}

static int rpg_defpal_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	int r = v->l ? rpg_lump_read(ar, v->l, &b) : -ENOENT;

	if (!r)	/* one row a sprite set */
		r = gfs_table_patch(ar, n->name, &defpal_table, b.data, b.len / 2, data, len, NULL, NULL);
	return rpg_lump_done(ar, v->l, &b, r);
}

RPG_VIEW_OPS(rpg_defpal);

/* ---- which lumps, and their views ----------------------------------------------- */

/* How many views l has (records, pages, palettes); 0: none.  head: its first bytes. */
static size_t rpg_gfx_count(const struct rpg_gfx *g, const uint8_t *head, size_t headlen, uint64_t len)
{
	size_t hdr, rs, count;

	switch (g->type) {
	case G_PAGES:
	case G_SPRITE:
		return (size_t)(len / rpg_image_bytes(g));
	case G_MASTERS:
		return rpg_masters_layout(head, headlen, len, &hdr, &rs, &count) ? count : 0;
	case G_MAS:
		return headlen && head[0] == BSAVE_MAGIC && len >= BSAVE_HDR + 2 * MASTER_BYTES;
	case G_PAL16:
		return rpg_pal16_layout(head, headlen, len, &hdr, &count);
	case G_FONT:
		return headlen && head[0] == BSAVE_MAGIC && len >= g->hdr + rpg_image_bytes(g);
	case G_DEFPAL:
		return len >= 2;
	case G_RGFX:
		return len >= 4 && !memcmp(head, RELD_MAGIC, 4);
	}
	return 0;
}

static size_t rpg_gfx_views(struct gfs_archive *ar, struct rpg_lump *l, const struct rpg_gfx **g)
{
	uint8_t head[MASTERS_HDR_MIN];
	size_t hl = l->len < sizeof(head) ? (size_t)l->len : sizeof(head);

	*g = rpg_gfx_of(ar->priv, l);
	if (!*g || gfs_pread(ar, head, hl, l->off))
		return 0;
	return rpg_gfx_count(*g, head, hl, l->len);
}

int rpg_gfx_kind(struct gfs_archive *ar, struct rpg_lump *l)
{
	const struct rpg_gfx *g;

	/* an rgfx lump is a RELOAD lump (reload/ text) whose PNGs rpg_gfx_build adds */
	return rpg_gfx_views(ar, l, &g) && g->type != G_RGFX ? RPG_K_GFX : RPG_K_NONE;
}

int rpg_gfx_build(struct gfs_archive *ar, struct rpg_lump *l)
{
	const struct rpg_gfx *g;
	size_t count = rpg_gfx_views(ar, l, &g);
	const struct gfs_node_ops *ops[] = {
		[G_PAGES] = &rpg_image_ops, [G_SPRITE] = &rpg_image_ops, [G_MASTERS] = &rpg_rgb_ops,
		[G_MAS] = &rpg_rgb_ops, [G_PAL16] = &rpg_pal16_ops, [G_FONT] = &rpg_image_ops,
		[G_DEFPAL] = &rpg_defpal_ops,
	};
	const char *slash, *file;
	struct gfs_node *dir;
	char path[64];
	int single, r = 0;

	if (!count)
		return 0;
	if (g->type == G_RGFX)
		return rpg_rgfx_build(ar, l, g);
	single = g->type != G_PAGES && g->type != G_SPRITE && g->type != G_MASTERS;
	slash = single ? strrchr(g->view, '/') : NULL;
	file = slash ? slash + 1 : g->view;
	/* a directory of records (g->view), or one file (g->view, maybe under a directory) */
	snprintf(path, sizeof(path), "%.*s", single ? (int)(file - g->view) : (int)strlen(g->view), g->view);
	if (!(dir = rpg_subdir(ar, path)))
		return -ENOMEM;
	if (single)
		return rpg_add_view(ar, l, dir, file, ops[g->type], 0, g);
	for (size_t k = 0; !r && k < count; k++) {
		char nm[32];

		if (g->type == G_PAGES)
			snprintf(nm, sizeof(nm), "%02zu.png", k);
		else if (g->type == G_SPRITE)
			snprintf(nm, sizeof(nm), "%03zu.png", k);
		else
			snprintf(nm, sizeof(nm), "master-%02zu.txt", k);
		r = rpg_add_view(ar, l, dir, nm, ops[g->type], k, g);
	}
	return r;
}
