/*
 * New tileset pages, backdrops and 4-bit sprite sets of an OHRRPGCE game,
 * and the last one removed (specs/ohrrpgce-lumps.md 3.1, 3.2, 5):
 *
 *   cp forest.png tilesets/03.png             a new tileset page (<arch>.TIL)
 *   cp title.png backdrops/02.png             a new backdrop (<arch>.MXS)
 *   cp bat.png sprites/walkabouts/012.png     a new walkabout set (<arch>.PT4)
 *   rm sprites/walkabouts/012.png             the last one removed
 *
 * The file is named with the next free number and takes the size the
 * lump's records have (320x200; a sprite set its frames side by side).
 * Nothing changes until the PNG is written and taken (rpg_gfx_png(): the
 * size, palette indices): then the lump grows by the record (a partial
 * record at its end is overwritten), DEFPALn.BIN by an entry (palette 0)
 * when it held one a set, and GEN's field: the last tileset (33), the
 * last set of the kind (26-32, 83, 84), the number of backdrops (100).
 * A file made and never written is dropped.  A set the game's heroes,
 * enemies, items, NPC types or maps use by its number is not removed
 * (EBUSY naming them).  A game whose sets of a kind
 * are in an rgfx lump (the engine reads those) gets none here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpg.h"
#include "rpg_grow.h"
#include "rpg_tmap.h"

/* A view made by cp: the real view's (rpg_image_ops) once its record is in the lump. */
struct gn_view {
	struct rpg_vpriv v;	/* first: rpg_image_ops see their priv */
	int pending;		/* made, not written: no record yet */
	struct rpg_image im;
};

static int gn_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct gn_view *w = n->priv;

	return w->pending ? 0 : rpg_image_ops.render(ar, n, out);
}

/* DEFPALn.BIN of the kind, or NULL. */
static struct rpg_lump *gn_defpal(struct rpg_model *m, const struct rpg_image *im)
{
	char nm[16];

	if (im->pages || !im->defpal || im->defpal == '-')
		return NULL;
	snprintf(nm, sizeof(nm), "DEFPAL%c.BIN", im->defpal);
	return rpg_lump_named(m, nm);
}

/* The first write of a made view: the record into the lump, DEFPAL, GEN; then the view is l's. */
static int gn_grow(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct gn_view *w = n->priv;
	struct rpg_lump *l = w->v.l, *dp = gn_defpal(ar->priv, &w->im);
	size_t rb = w->im.bytes, rec = w->v.rec;
	struct gfs_buf b = GFS_BUF_INIT;
	struct gfs_node **vs;
	char view[96];
	int r = rpg_lump_read(ar, l, &b);

	snprintf(view, sizeof(view), "%s/%s", w->im.view, n->name);
	if (!r && (r = gfs_buf_set_len(&b, (rec + 1) * rb)) == 0)
		r = rpg_gfx_png(ar, l, rec, view, data, len, b.data + rec * rb);
	if (r) {
		gfs_buf_release(&b);
		return r;
	}
	if (!(vs = realloc(l->views, (l->nviews + 1) * sizeof(*vs)))) {
		gfs_buf_release(&b);
		return -ENOMEM;
	}
	l->views = vs;
	if ((r = rpg_grow_set(ar, l, &b, 0)))
		return r;
	l->views[l->nviews++] = n;
	w->pending = 0;
	ar->changed = 1;
	if (dp && dp->len == 2 * (uint64_t)rec && !(r = rpg_lump_read(ar, dp, &b)) && !(r = gfs_buf_set_len(&b, b.len + 2)))
		gfs_put_u16le(b.data + b.len - 2, 0);
	if (dp && dp->len == 2 * (uint64_t)rec && (r = rpg_grow_set(ar, dp, &b, r)))
		return r;
	return rpg_grow_gen(ar, w->im.gen, rec + (size_t)w->im.count, (long)rec + w->im.count);
}

static int gn_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct gn_view *w = n->priv;

	return w->pending ? gn_grow(ar, n, data, len) : rpg_image_ops.store(ar, n, data, len);
}

static const struct gfs_node_ops gn_ops = { .render = gn_render, .store = gn_store, .free = free };

/* The image lump whose views dir holds (im: its kind), or NULL; *rgfx: an rgfx lump the engine reads them from. */
static struct rpg_lump *gn_dir_lump(struct gfs_archive *ar, struct gfs_node *dir, struct rpg_image *im,
				    struct rpg_lump **rgfx)
{
	struct rpg_model *m = ar->priv;
	struct gfs_buf path = GFS_BUF_INIT;
	struct rpg_lump *got = NULL;
	static const char *const rgfx_of[][2] = {
		{ "sprites/heroes", "HEROES.RGFX" }, { "sprites/walkabouts", "WALKABOUTS.RGFX" },
		{ "sprites/weapons", "WEAPONS.RGFX" }, { "sprites/attacks", "ATTACKS.RGFX" },
		{ "sprites/box-borders", "BOXBORDERS.RGFX" }, { "sprites/portraits", "PORTRAITS.RGFX" },
		{ "backdrops", "BACKDROPS.RGFX" }, { "sprites/enemies", "ENEMIES.RGFX" },
		{ "sprites/small-enemies", "ENEMIES.RGFX" }, { "sprites/medium-enemies", "ENEMIES.RGFX" },
		{ "sprites/large-enemies", "ENEMIES.RGFX" },
	};

	*rgfx = NULL;
	if (gfs_node_path(dir, &path) || gfs_buf_addc(&path, 0)) {
		gfs_buf_release(&path);
		return NULL;
	}
	for (size_t i = 0; i < m->n && !got; i++)
		if (rpg_gfx_image(ar, m->lumps[i], im) && !strcmp(im->view, (const char *)path.data))
			got = m->lumps[i];
	for (size_t i = 0; i < sizeof(rgfx_of) / sizeof(rgfx_of[0]) && !*rgfx; i++)
		if (!strcmp(rgfx_of[i][0], (const char *)path.data))
			*rgfx = rpg_lump_named(m, rgfx_of[i][1]);
	gfs_buf_release(&path);
	return got;
}

int rpg_gfx_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out)
{
	struct rpg_image im;
	struct rpg_lump *rgfx, *l = gn_dir_lump(ar, dir, &im, &rgfx);
	struct gn_view *w;
	size_t next;
	char want[32];

	if (rgfx)
		return gfs_err(ar, -EPERM, "%s/%s: the engine reads these sets from lumps/%s: a new one is not made "
			       "here (yet)", dir->name, name, rgfx->name);
	if (!l)
		return 1;
	next = (size_t)(l->len / im.bytes);
	snprintf(want, sizeof(want), im.pages ? "%02zu.png" : "%03zu.png", next);
	if (next > 32767 - (size_t)im.count)
		return gfs_err(ar, -ENOSPC, "%s/%s: lumps/%s holds %zu, the engine's most", dir->name, name, l->name,
			       next);
	if (strcmp(name, want))
		return gfs_err(ar, -EINVAL, "%s/%s: a new one is the next free number, %s (lumps/%s holds %zu)",
			       dir->name, name, want, l->name, next);
	if (!(w = calloc(1, sizeof(*w))))
		return -ENOMEM;
	*w = (struct gn_view){ { .l = l, .rec = next, .desc = im.desc }, 1, im };
	if (!(*out = gfs_node_new_file(ar, dir, name, 0644, &gn_ops, w))) {
		free(w);
		return -ENOMEM;
	}
	return 0;
}

/* What refers to a set of a kind by its number: a word of each record of a lump (when word cond is val). */
static const struct gn_ref {
	const char *view;	/* the sets' */
	const char *lump;	/* rpg_lump_is()'s; "N": every map's NPC types and the global pool's */
	int binsize_idx;	/* the record size: BINSIZE.BIN's, else legacy */
	unsigned legacy, hdr;
	unsigned word;
	int off;		/* the number there less this */
	int cond, val;		/* -1: always */
	const char *dir, *key;	/* "heroes/NNN walkabout" */
} gn_refs[] = {
	{ "sprites/heroes", ".DT0", 10, 636, 0, 17, 0, -1, 0, "heroes", "battle_sprite" },
	{ "sprites/walkabouts", ".DT0", 10, 636, 0, 19, 0, -1, 0, "heroes", "walkabout" },
	{ "sprites/portraits", ".DT0", 10, 636, 0, 239, 0, -1, 0, "heroes", "portrait" },
	{ "sprites/small-enemies", ".DT1", 11, 320, 0, 53, 0, 55, 0, "enemies", "picture" },
	{ "sprites/medium-enemies", ".DT1", 11, 320, 0, 53, 0, 55, 1, "enemies", "picture" },
	{ "sprites/large-enemies", ".DT1", 11, 320, 0, 53, 0, 55, 2, "enemies", "picture" },
	{ "sprites/weapons", ".ITM", 12, 200, 0, 52, 0, -1, 0, "items", "weapon_picture" },
	{ "sprites/walkabouts", "N", 9, 30, 7, 0, 0, -1, 0, NULL, "picture" },
	{ "tilesets", ".MAP", 4, 40, 0, 0, 0, -1, 0, NULL, "tileset" },
};

/* The layers' tilesets in a MAP record: +1, 0 the map's (word 0) */
static const unsigned gn_layer_words[] = { 22, 23, 24, 26, 27, 28, 29, 30, 370, 371, 372, 373, 374, 375, 376, 377 };

/* The tile layers of map (its .T lump's), each a tileset word of gn_layer_words */
static size_t gn_layers(struct gfs_archive *ar, long map)
{
	struct rpg_lump *t = rpg_map_lump(ar->priv, map, 'T', RPG_K_MAP);
	unsigned w, h, layers;

	if (!rpg_map_lump_dims(ar, t, t->len, &w, &h, &layers))
		return 0;
	return layers < sizeof(gn_layer_words) / sizeof(gn_layer_words[0]) ? layers : sizeof(gn_layer_words) /
	       sizeof(gn_layer_words[0]);
}

/* "where" of record rec of l for the messages (layer: the MAP record's layer tileset word that leads to it) */
static void gn_where(struct gfs_archive *ar, struct rpg_lump *l, const struct gn_ref *f, size_t rec, int layer,
		     char *out, size_t size)
{
	struct rpg_lump *t = *f->lump == '.' && !strcmp(f->lump, ".MAP") ? rpg_map_lump(ar->priv, (long)rec, 'T', RPG_K_MAP) : NULL;
	char path[200];

	if (t && t->nviews && t->views[0]->parent) {
		gfs_node_pathname(t->views[0]->parent, path, sizeof(path));
		if (layer >= 0)
			snprintf(out, size, "%s/map.ini layer%d_tileset", path, layer);
		else
			snprintf(out, size, "%s/map.ini tileset", path);
		return;
	}

	if (f->dir)
		snprintf(out, size, "%s/%03zu %s", f->dir, rec, f->key);
	else if (*f->lump == 'N')
		snprintf(out, size, "%s id %zu %s", l->nviews ? gfs_node_pathname(l->views[0], path, sizeof(path)) :
			 l->name, rec, f->key);
	else
		snprintf(out, size, "map %zu %s", rec, f->key);
}

/* EBUSY naming what refers to set rec of the sets in view; 0 when nothing does. */
static int gn_busy(struct gfs_archive *ar, const char *view, struct gfs_node *n, size_t rec)
{
	struct rpg_model *m = ar->priv;
	struct gfs_buf who = GFS_BUF_INIT;
	size_t cnt = 0;
	int r = 0;

	for (size_t i = 0; i < sizeof(gn_refs) / sizeof(gn_refs[0]); i++) {
		const struct gn_ref *f = &gn_refs[i];
		unsigned rs = rpg_binsize(ar, (unsigned)f->binsize_idx, f->legacy);

		if (strcmp(f->view, view) || rs < 2)
			continue;
		for (size_t k = 0; k < m->n; k++) {
			struct rpg_lump *l = m->lumps[k];
			struct gfs_buf b = GFS_BUF_INIT;
			char letter;

			if (*f->lump == 'N' ? !((rpg_map_of(m, l->name, &letter) >= 0 && letter == 'N') ||
						rpg_lump_is(m, l, "GLOBALNPCS1.N")) : !rpg_lump_is(m, l, f->lump))
				continue;
			if (rpg_lump_read(ar, l, &b))
				continue;
			for (size_t j = 0; f->hdr + (j + 1) * rs <= b.len; j++) {
				const uint8_t *p = b.data + f->hdr + j * rs;
				char what[256];
				int hit = 2 * f->word + 2 <= rs && (long)(int16_t)gfs_le16(p + 2 * f->word) - f->off == (long)rec &&
					  (f->cond < 0 || (2 * (unsigned)f->cond + 2 <= rs &&
							   (int16_t)gfs_le16(p + 2 * f->cond) == f->val));

				int layer = -1;

				for (size_t w = 0; !strcmp(f->view, "tilesets") && !hit && w < gn_layers(ar, (long)j); w++)
					if ((hit = 2 * gn_layer_words[w] + 2 <= rs &&
						   (int16_t)gfs_le16(p + 2 * gn_layer_words[w]) == (long)rec + 1))
						layer = (int)w;
				if (!hit)
					continue;
				gn_where(ar, l, f, j, layer, what, sizeof(what));
				if (cnt++ < 6)
					r = gfs_buf_printf(&who, "%s%s", cnt > 1 ? ", " : "", what);
			}
			gfs_buf_release(&b);
		}
	}
	if (!r && cnt)
		r = gfs_err(ar, -EBUSY, "%s/%s: used by %.*s%s; change that first", view, n->name, (int)who.len,
			    (const char *)who.data, cnt > 6 ? " and more" : "");
	gfs_buf_release(&who);
	return r;
}

int rpg_gfx_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	const struct gfs_node_ops *ops = gfs_node_get_ops(n);
	struct rpg_vpriv *v = ops == &gn_ops || ops == &rpg_image_ops ? n->priv : NULL;
	struct rpg_lump *l = v ? v->l : NULL, *dp;
	struct rpg_image im;
	struct gfs_buf b = GFS_BUF_INIT;
	size_t cnt, rec;
	int r;

	if (!l || !rpg_gfx_image(ar, l, &im))
		return 1;
	if (ops == &gn_ops && ((struct gn_view *)v)->pending) {	/* made, never written */
		gfs_node_remove(ar, n);
		return 0;
	}
	cnt = (size_t)(l->len / im.bytes);
	if (cnt <= 1)
		return gfs_err(ar, -EPERM, "%s/%s: a game keeps at least one", n->parent->name, n->name);
	if (v->rec + 1 != cnt)
		return gfs_err(ar, -EPERM, "%s/%s: only the last (%0*zu.png) can be removed: the game refers to the "
			       "others by their numbers", n->parent->name, n->name, im.pages ? 2 : 3, cnt - 1);
	if ((r = gn_busy(ar, im.view, n, v->rec)))
		return r;
	if ((r = rpg_lump_read(ar, l, &b)) == 0 && b.len > v->rec * im.bytes)
		r = gfs_buf_set_len(&b, v->rec * im.bytes);
	if ((r = rpg_grow_set(ar, l, &b, r)))
		return r;
	if ((dp = gn_defpal(ar->priv, &im)) && dp->len == 2 * (uint64_t)cnt) {
		if ((r = rpg_lump_read(ar, dp, &b)) == 0)
			r = gfs_buf_set_len(&b, b.len - 2);
		if ((r = rpg_grow_set(ar, dp, &b, r)))
			return r;
	}
	for (size_t i = 0, k = 0; i < l->nviews; i++)
		if (l->views[i] != n)
			l->views[k++] = l->views[i];
	l->nviews--;
	rec = v->rec;
	if (gfs_node_is_open(n))
		v->l = NULL;	/* an open view keeps what it read */
	gfs_node_remove(ar, n);	/* v is freed with a closed n */
	ar->changed = 1;
	return rpg_grow_gen_back(ar, im.gen, rec + (size_t)im.count);
}
