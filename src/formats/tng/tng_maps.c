/*
 * tng_maps.c - the nodes of assets and maps made, and maps grown and
 * shrunk through the mount: mkdir maps/NAME (an empty map), the files
 * copied into its folder, a TMX saved or copied into maps/ (a new map of
 * its layers and properties), rm -r maps/NAME (a map nothing refers to).
 * Below the driver (tng_driver.c), above the views it makes nodes of.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_codec.h"
#include "gfs_record.h"
#include "tng.h"
#include "tng_script.h"

/* ---- nodes ---- */

/* A new directory under a safe unique name in parent (NULL: out of memory). */
struct gfs_node *tng_unique_dir(struct gfs_archive *ar, struct gfs_node *parent,
				       const char *name)
{
	char *u = gfs_unique_name(parent, name);
	struct gfs_node *d = u ? gfs_node_new_dir(ar, parent, u) : NULL;

	free(u);
	return d;
}

/*
 * A file (span = 0) or a span of the archive under a safe unique name; ref
 * becomes the node's, and is freed here on any failure.
 */
static struct gfs_node *tng_node(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
				 mode_t mode, const struct gfs_node_ops *ops, struct tng_ref *ref,
				 int span, uint64_t off, uint64_t len)
{
	char *u = NULL;
	struct gfs_node *n = NULL;

	if (dir && ref && !gfs_name_usable(dir, name))
		name = u = gfs_unique_name(dir, name);
	if (dir && ref && name)
		n = span ? gfs_node_new_span(ar, dir, name, mode, ops, ref, off, len)
			 : gfs_node_new_file(ar, dir, name, mode, ops, ref);
	free(u);
	if (!n)
		tng_ref_release(ref);
	return n;
}

struct gfs_node *tng_file(struct gfs_archive *ar, struct gfs_node *dir,
				 const char *name, mode_t mode,
				 const struct gfs_node_ops *ops, struct tng_ref *ref)
{
	return tng_node(ar, dir, name, mode, ops, ref, 0, 0, 0);
}

struct gfs_node *tng_span(struct gfs_archive *ar, struct gfs_node *dir,
				 const char *name, const struct gfs_node_ops *ops,
				 struct tng_ref *ref, uint64_t off, uint64_t len)
{
	return tng_node(ar, dir, name, 0644, ops, ref, 1, off, len);
}

/* "name.ext" from the descriptor's string, or "NNNN.ext". */
void tng_asset_name(struct tng *t, uint32_t stroff, unsigned idx, const char *ext,
			   char *out, size_t outlen)
{
	size_t n = 0;
	const char *s = stroff ? tng_string_at(t, stroff, &n) : NULL;

	size_t e = strlen(ext);

	if (s && n > 0 && n < 200 && n + 1 + e < outlen) {	/* the usual case, without snprintf */
		memcpy(out, s, n);
		out[n] = '.';
		memcpy(out + n + 1, ext, e + 1);
	} else {
		snprintf(out, outlen, "%04u.%s", idx, ext);
	}
}

/* ---- maps' nodes ---- */

/* File l of map asset ai's directory d: its map.ini (l -1, the asset's node) or layer l's CSV. */
struct gfs_node *tng_map_file(struct gfs_archive *ar, struct tng *t, size_t ai,
				     struct gfs_node *d, int l)
{
	struct tng_asset *a = &t->assets[ai];
	struct gfs_node *n;
	char name[32];

	if (l < 0)
		return a->node = tng_file(ar, d, "map.ini", 0644, &tng_mapini_ops, tng_ref_new(t, ai, a->sec, 0));
	snprintf(name, sizeof(name), "layer%02d.csv", l);
	n = tng_file(ar, d, name, 0644, &tng_layer_ops, tng_ref_new(t, ai, a->sec, l));
	return n;
}

/*
 * A map's directory, its files unless files is 0 (a new map: made as they
 * are copied in), TMX (unless tmx is given: a TMX that made the map) and PNG.
 */
int tng_map_nodes(struct gfs_archive *ar, struct tng *t, struct tng_asset *a, struct gfs_node *maps,
		  uint32_t stroff, unsigned num, int files, struct gfs_node *tmx)
{
	struct gfs_buf b = GFS_BUF_INIT;
	char name[256], why[512];
	size_t ai = (size_t)(a - t->assets);
	struct gfs_node *d;
	int r;

	/* check the map now while the load budget lasts; later ones fail on read */
	if (t->budget >= TNG_MAP_MAX) {
		r = tng_asset_content(ar, t, a, TNG_MAP_MAX, &b);
		t->budget -= r ? TNG_MAP_MAX : b.len;
		if (!r && tng_map_validate(tng_map_size(t), tng_map_layers(t), b.data, b.len, why, sizeof(why)))
			r = -EBADMSG;
		else if (r)
			snprintf(why, sizeof(why), "%s", gfs_err_reason(ar));
		gfs_buf_release(&b);
	} else {
		r = 0;
	}
	tng_asset_name(t, stroff, num, "bin", name, sizeof(name));
	if (r) {
		gfs_warn(ar, "map %s at 0x%llx: %s; shown raw", name,
			 (unsigned long long)(t->base + a->off), why);
		t->broken_assets++;
		a->kind = TNG_A_ZBIN;
		a->node = tng_file(ar, maps, name, 0644, &tng_zbin_ops, tng_ref_new(t, ai, a->sec, 0));
		return a->node ? 0 : -ENOMEM;
	}
	name[strlen(name) - 4] = '\0';
	/* the tilesets every map's TMX points at, made with the first map */
	if (tng_tiled_supported(t) && !gfs_node_child(ar, maps, "tilesets")) {
		struct gfs_node *ts = gfs_node_new_dir(ar, maps, "tilesets");

		if (!ts)
			return -ENOMEM;
		for (int k = 0; k < TNG_TS_N; k++) {
			char tsn[32];

			snprintf(tsn, sizeof(tsn), "%s.png", tng_ts_name[k]);
			if (!tng_file(ar, ts, tsn, 0444, &tng_tileset_ops, tng_ref_new(t, ai, a->sec, k)))
				return -ENOMEM;
		}
	}
	d = tng_unique_dir(ar, maps, name);
	if (!d)
		return -ENOMEM;
	a->dir = d;
	for (int l = -1; files && l < (int)tng_map_layers(t); l++)
		if (!tng_map_file(ar, t, ai, d, l))
			return -ENOMEM;
	if (!tng_tiled_supported(t))
		return 0;	/* a 3D game: Tiled has no orientation for it (check says so) */
	snprintf(name, sizeof(name), "%s.tmx", d->name);
	if (!tmx && !tng_file(ar, maps, name, 0644, &tng_tmx_ops, tng_ref_new(t, ai, a->sec, 0)))
		return -ENOMEM;
	snprintf(name, sizeof(name), "%s.png", d->name);
	if (!tng_file(ar, maps, name, 0444, &tng_mappng_ops, tng_ref_new(t, ai, a->sec, 0)))
		return -ENOMEM;
	return 0;
}

/* ---- a new map: mkdir maps/NAME ---- */

/* The section new maps go to: the last of type 34 that holds no quests; -1 none. */
static long tng_map_section(const struct tng *t)
{
	long si = -1;

	for (size_t i = 0; i < t->nsecs; i++) {
		int quests = 0;

		for (size_t k = 0; k < t->nassets && t->secs[i].type == TNG_S_MAPS; k++)
			quests |= t->assets[k].sec == i && t->assets[k].kind == TNG_A_ZBIN;
		if (t->secs[i].type == TNG_S_MAPS && !quests)
			si = (long)i;
	}
	return si;
}

/* A map's name: 1 to 64 bytes of printable ASCII, no blank, '.', '/' or '\\', not "tilesets". */
static int tng_map_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 64 || !strcmp(s, "tilesets"))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 0x7f || strchr("./\\", s[i]))
			return 0;
	return 1;
}

/*
 * A new map named name at the end of maps section si, every cell of every
 * layer empty, no title (-1), no parallax or path: *ai its asset.
 */
static int map_blank(struct gfs_archive *ar, struct tng *t, size_t si, const char *name, size_t *ai)
{
	size_t cells = (size_t)tng_map_size(t) * tng_map_size(t) * tng_map_layers(t);
	uint8_t hdr[TNG_MAP_HDR] = { 0 };
	struct gfs_buf rle = GFS_BUF_INIT, *nb;
	uint16_t *c;
	uint32_t off;
	int r;

	if (!cells || cells > TNG_MAP_CELLS_MAX)
		return gfs_err(ar, -EINVAL, "maps/%s: the header's map size and layers allow no map", name);
	if (!(c = malloc(cells * sizeof(*c))))
		return -ENOMEM;
	for (size_t i = 0; i < cells; i++)
		c[i] = 0xffff;
	r = gfs_rle16_encode(c, cells, &rle);
	free(c);
	gfs_put_u24le(hdr, 0xffffff);	/* no title */
	gfs_put_u16le(hdr + 24, 0xffff);	/* no daylight sprite (category 0, index -1) */
	nb = r ? NULL : gfs_buf_new();
	r = r ? r : !nb ? -ENOMEM : tng_map_build(hdr, TNG_MAP_HDR, rle.data, rle.len, NULL, 0, nb);
	gfs_buf_release(&rle);
	if (!r && ((r = tng_string_add(t, name, &off)) || (r = tng_asset_new(t, si, off, ai))))
		r = r == -EFBIG ? gfs_err(ar, r, "maps/%s: the section block is full", name) : r;
	if (r) {
		gfs_buf_free(nb);
		return r;
	}
	t->assets[*ai].kind = TNG_A_MAP;
	t->assets[*ai].pending = nb;
	ar->changed = 1;
	return 0;
}

/* The section a new map named name goes to, or -errno said. */
static long map_new_section(struct gfs_archive *ar, const struct tng *t, const char *name)
{
	long si = tng_map_section(t);

	if (si < 0)
		return gfs_err(ar, -EPERM, "maps/%s: the game has no maps section", name);
	if (!tng_map_name_ok(name))
		return gfs_err(ar, -EINVAL, "maps/%s: a map's name is 1 to 64 bytes of printable ASCII, "
			       "no blank, '.', '/' or '\\', not tilesets", name);
	return si;
}

/*
 * mkdir maps/NAME: a new empty map named NAME (map_blank).  Its folder
 * starts empty: map.ini and layerNN.csv are created in it as they are
 * copied in (cp -r creates them exclusively) and written like any map's;
 * maps/NAME.tmx and .png are there at once.
 */
int tng_map_mkdir(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		  struct gfs_node **out)
{
	struct tng *t = ar->priv;
	long si = map_new_section(ar, t, name);
	size_t ai;
	int r;

	if (si < 0)
		return (int)si;
	if ((r = map_blank(ar, t, (size_t)si, name, &ai)))
		return r;
	if ((r = tng_map_nodes(ar, t, &t->assets[ai], dir, t->assets[ai].nameoff, t->assets[ai].num, 0,
			       NULL)))
		return r;
	*out = t->assets[ai].dir;
	gfs_tree_invalidate(ar);
	return 0;
}

/* map.ini or layerNN.csv created in the folder of a map: its view (not there yet); 1: not a map's folder. */
int tng_map_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
			  struct gfs_node **out)
{
	struct tng *t = ar->priv;
	unsigned l = tng_layer_of(name, ".csv");

	for (size_t i = 0; i < t->nassets; i++) {
		if (t->assets[i].dir != dir || t->assets[i].kind != TNG_A_MAP || t->assets[i].gone)
			continue;
		if (!strcmp(name, "map.ini"))
			*out = tng_map_file(ar, t, i, dir, -1);
		else if (l < tng_map_layers(t))	/* layerNN.csv, two digits */
			*out = tng_map_file(ar, t, i, dir, (int)l);
		else
			return gfs_err(ar, -EPERM, "maps/%s/%s: a map's folder holds map.ini and "
				       "layer00.csv to layer%02u.csv", dir->name, name,
				       tng_map_layers(t) - 1);
		if (!*out)
			return -ENOMEM;
		((struct tng_ref *)(*out)->priv)->fresh = 1;	/* empty until written */
		return 0;
	}
	return 1;
}

/* ---- a new map from a TMX: maps/NAME.tmx saved or copied in ---- */

static int newtmx_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;

	return ref->asset == TNG_NEW_ASSET ? 0 : tng_tmx_ops.render(ar, n, out);
}

/* What a failed first store of a TMX undoes: the game as it was before it. */
struct map_undo {
	size_t nassets;
	int changed;
	long sec[2];			/* the strings and the maps section */
	struct gfs_buf *edit[2];	/* their edits as they were (NULL: none) */
	size_t len[2];
};

static void undo_keep(struct tng *t, struct map_undo *u, int changed, size_t si)
{
	u->nassets = t->nassets;
	u->changed = changed;
	u->sec[0] = t->strsec;
	u->sec[1] = (long)si;
	for (int k = 0; k < 2; k++) {
		u->edit[k] = u->sec[k] >= 0 ? t->secs[u->sec[k]].edit : NULL;
		u->len[k] = u->edit[k] ? u->edit[k]->len : 0;
	}
}

static void undo_apply(struct tng *t, const struct map_undo *u)
{
	for (size_t i = u->nassets; i < t->nassets; i++)
		gfs_buf_free(t->assets[i].pending);
	t->nassets = u->nassets;
	for (int k = 0; k < 2; k++) {
		struct tng_sec *s;

		if (u->sec[k] < 0)
			continue;
		s = &t->secs[u->sec[k]];
		if (u->edit[k]) {
			s->edit->len = u->len[k];	/* what was added at its end goes */
		} else {
			gfs_buf_free(s->edit);
			s->edit = NULL;
		}
	}
}

/*
 * The first content of a created maps/NAME.tmx: an empty map named NAME
 * (as mkdir makes) with the TMX stored over it as over any map's; refused,
 * the map and its name go again and the game is as it was.  Taken, the
 * map's folder, its files and its PNG appear.
 */
static int newtmx_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	struct map_undo u;
	char stem[80];
	size_t ai, nl = strlen(n->name);
	long si;
	int r;

	if (ref->asset != TNG_NEW_ASSET)
		return tng_tmx_ops.store(ar, n, data, len);
	if (!len)
		return 0;	/* created, not written yet */
	if (nl < 5 || nl - 4 >= sizeof stem)
		return -EINVAL;
	memcpy(stem, n->name, nl - 4);
	stem[nl - 4] = '\0';
	if ((si = map_new_section(ar, t, stem)) < 0)
		return (int)si;
	if (gfs_node_child(ar, n->parent, stem))
		return gfs_err(ar, -EEXIST, "maps/%s: there is a map (or a file) of that name", n->name);
	undo_keep(t, &u, ar->changed, (size_t)si);
	if (!(r = map_blank(ar, t, (size_t)si, stem, &ai))) {
		ref->asset = ai;
		ref->sec = (size_t)si;
		r = tng_tmx_ops.store(ar, n, data, len);
	}
	if (r) {
		ref->asset = TNG_NEW_ASSET;
		undo_apply(t, &u);
		ar->changed = u.changed;
		return r;
	}
	if ((r = tng_map_nodes(ar, t, &t->assets[ai], n->parent, t->assets[ai].nameoff, t->assets[ai].num,
			       1, n)))
		return r;
	gfs_tree_invalidate(ar);
	return 0;
}

static const struct gfs_node_ops tng_newtmx_ops = {
	.render = newtmx_render,
	.store = newtmx_store,
	.free = tng_ref_free,
};

int tng_map_tmx_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		       struct gfs_node **out)
{
	struct tng *t = ar->priv;
	size_t nl = strlen(name);
	char stem[80];
	struct tng_ref *ref;
	long si;

	if (nl < 5 || strcmp(name + nl - 4, ".tmx"))
		return 1;
	if (!tng_tiled_supported(t))
		return gfs_err(ar, -EPERM, "maps/%s: a 3D game's maps have no TMX (make the folder "
			       "and copy map.ini and the layers in)", name);
	if (nl - 4 >= sizeof stem)
		return gfs_err(ar, -EINVAL, "maps/%s: a map's name is at most 64 bytes", name);
	memcpy(stem, name, nl - 4);
	stem[nl - 4] = '\0';
	if ((si = map_new_section(ar, t, stem)) < 0)
		return (int)si;
	if (gfs_node_child(ar, dir, stem))
		return gfs_err(ar, -EEXIST, "maps/%s: there is a map (or a file) of that name", name);
	ref = tng_ref_new(t, TNG_NEW_ASSET, (size_t)si, 0);
	*out = ref ? gfs_node_new_file(ar, dir, name, 0644, &tng_newtmx_ops, ref) : NULL;
	if (!*out) {
		tng_ref_release(ref);
		return -ENOMEM;
	}
	return 0;
}

/* ---- rm -r maps/NAME ---- */

int tng_map_tmx_is(const struct gfs_node *n)
{
	return gfs_node_get_ops(n) == &tng_newtmx_ops || gfs_node_get_ops(n) == &tng_tmx_ops;
}

struct neighbour {
	uint32_t v;
};

static int is_neighbour(void *ctx, const struct gfs_field *f, uint64_t v)
{
	const struct neighbour *w = ctx;

	return f->kind == GFS_FK_REF && f->ref == TNG_MREF_STR && !strncmp(f->key, "neighbour", 9) &&
	       v == w->v;
}

/*
 * Does something lead to map a: a script or record naming it, another
 * map's neighbour?  1 with who.  A name another map has too leads there.
 */
static int map_referrer(struct gfs_archive *ar, struct tng *t, const struct tng_asset *a, char *who,
			size_t wholen)
{
	unsigned ms = tng_map_size(t), layers = tng_map_layers(t);
	struct neighbour w = { a->nameoff };

	for (size_t i = 0; i < t->nassets; i++)
		if (&t->assets[i] != a && !t->assets[i].gone && t->assets[i].kind == TNG_A_MAP &&
		    t->assets[i].nameoff == a->nameoff)
			return 0;
	if (tng_logic_referrer(ar, t, TNGS_MAP, a->nameoff, who, wholen))
		return 1;
	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *b = &t->assets[i];
		struct gfs_buf buf = GFS_BUF_INIT;
		struct tng_map m;
		const char *name;
		size_t n;
		int hit = 0;

		if (b == a || b->gone || b->kind != TNG_A_MAP)
			continue;
		if (!tng_asset_content(ar, t, b, TNG_MAP_MAX, &buf) &&
		    !tng_map_parse(ms, layers, buf.data, buf.len, &m, 0, NULL, 0))
			hit = gfs_record_each(&tng_map_rec, buf.data, m.rle, is_neighbour, &w) > 0;
		gfs_buf_release(&buf);
		if (hit) {
			name = tng_string_at(t, b->nameoff, &n);
			snprintf(who, wholen, "maps/%.*s/map.ini (a neighbour)", name ? (int)n : 4,
				 name ? name : "?");
			return 1;
		}
	}
	return 0;
}

/* The map whose folder is dir, or NULL. */
static struct tng_asset *map_of_dir(struct tng *t, const struct gfs_node *dir)
{
	for (size_t i = 0; i < t->nassets; i++)
		if (t->assets[i].dir == dir && t->assets[i].kind == TNG_A_MAP && !t->assets[i].gone)
			return &t->assets[i];
	return NULL;
}

/*
 * Removing map.ini or a layer of a map's folder is the start of rm -r: the
 * file goes (the map at rmdir) when nothing leads to the map, else EBUSY
 * naming what does, and the map stays whole.
 */
int tng_map_file_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tng *t = ar->priv;
	struct tng_asset *a = map_of_dir(t, n->parent);
	char who[200];

	if (gfs_node_get_ops(n) == &tng_newtmx_ops && ((struct tng_ref *)n->priv)->asset == TNG_NEW_ASSET) {
		gfs_node_remove(ar, n);	/* a TMX created and refused (or never written): no map */
		return 0;
	}
	if (!a)
		return gfs_err(ar, -EPERM, "%s: only a map's folder can be removed, as a whole (rm -r "
			       "maps/NAME)", n->name);
	if (map_referrer(ar, t, a, who, sizeof who))
		return gfs_err(ar, -EBUSY, "maps/%s: %s leads to it; change that first", n->parent->name, who);
	gfs_node_remove(ar, n);
	gfs_tree_invalidate(ar);
	return 0;
}

/* rmdir of an emptied map folder removes the map, its TMX and PNG; the maps after it keep their names. */
int tng_map_rmdir(struct gfs_archive *ar, struct gfs_node *dir)
{
	struct tng *t = ar->priv;
	struct tng_asset *a = map_of_dir(t, dir);
	struct gfs_node *maps = dir->parent;
	char who[200];
	size_t ai;
	int r;

	if (!a)
		return gfs_err(ar, -EPERM, "%s: only a map's folder can be removed", dir->name);
	if (map_referrer(ar, t, a, who, sizeof who))
		return gfs_err(ar, -EBUSY, "maps/%s: %s leads to it; change that first", dir->name, who);
	if (dir->nkids)
		return gfs_err(ar, -ENOTEMPTY, "maps/%s: remove its files first (rm -r)", dir->name);
	ai = (size_t)(a - t->assets);
	if ((r = tng_asset_drop(t, ai)))
		return r;
	for (size_t j = maps->nkids; j-- > 0;) {
		struct gfs_node *o = maps->kids[j];

		if ((gfs_node_get_ops(o) == &tng_tmx_ops || gfs_node_get_ops(o) == &tng_newtmx_ops ||
		     gfs_node_get_ops(o) == &tng_mappng_ops) && ((struct tng_ref *)o->priv)->asset == ai)
			gfs_node_remove(ar, o);
	}
	a->dir = NULL;
	tng_names_trim(ar, t);
	gfs_node_remove(ar, dir);
	ar->changed = 1;
	gfs_tree_invalidate(ar);
	return 0;
}

/* ---- mv maps/OLD maps/NEW ---- */

/*
 * Renaming a map's folder (or its TMX) renames the map: its descriptor
 * names NEW in the strings section, and its folder, TMX and PNG take the
 * name.  Scripts and neighbours lead to a map by its name, so a map
 * something leads to is not renamed (EBUSY naming what does).
 */
int tng_map_rename(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		   const char *newname)
{
	struct tng *t = ar->priv;
	int tmx = !S_ISDIR(n->mode);
	struct tng_ref *ref = tmx ? n->priv : NULL;
	struct tng_asset *a;
	struct gfs_node *maps = n->parent, *o;
	size_t nl = strlen(newname), ai;
	char stem[80], fn[96], who[200];
	int r;

	if (newdir != maps)
		return gfs_err(ar, -EINVAL, "maps/%s: a map stays in maps/", n->name);
	if (tmx && (nl < 5 || strcmp(newname + nl - 4, ".tmx") || nl - 4 >= sizeof stem))
		return gfs_err(ar, -EINVAL, "maps/%s: a map's TMX is maps/NAME.tmx", newname);
	snprintf(stem, sizeof stem, "%.*s", (int)(tmx ? nl - 4 : nl), newname);
	if (!tng_map_name_ok(stem))
		return gfs_err(ar, -EINVAL, "maps/%s: a map's name is 1 to 64 bytes of printable ASCII, "
			       "no blank, '.', '/' or '\\', not tilesets", newname);
	if (tmx && ref->asset == TNG_NEW_ASSET) {	/* never stored: the map is made by its name then */
		gfs_node_move(ar, n, newdir, newname);
		return 0;
	}
	a = tmx ? &t->assets[ref->asset] : map_of_dir(t, n);
	if (!a || a->kind != TNG_A_MAP || a->gone || !a->dir)
		return gfs_err(ar, -EPERM, "maps/%s: only a map (its folder or its TMX) can be renamed",
			       n->name);
	ai = (size_t)(a - t->assets);
	if (!strcmp(a->dir->name, stem))
		return 0;
	for (int k = 0; k < 3; k++) {
		snprintf(fn, sizeof fn, "%s%s", stem, k == 0 ? "" : k == 1 ? ".tmx" : ".png");
		if ((o = gfs_node_child(ar, maps, fn)))
			return gfs_err(ar, -EEXIST, "maps/%s: maps/%s is there already", n->name, fn);
	}
	if (map_referrer(ar, t, a, who, sizeof who))
		return gfs_err(ar, -EBUSY, "maps/%s: %s leads to it by its name; change that first",
			       a->dir->name, who);
	if ((r = tng_asset_rename(t, a, stem)))
		return r == -EFBIG ? gfs_err(ar, r, "maps/%s: the section block is full", newname) : r;
	for (size_t j = 0; j < maps->nkids; j++) {
		o = maps->kids[j];
		if (o->priv && !S_ISDIR(o->mode) && ((struct tng_ref *)o->priv)->asset == ai &&
		    (tng_map_tmx_is(o) || gfs_node_get_ops(o) == &tng_mappng_ops)) {
			snprintf(fn, sizeof fn, "%s%s", stem, tng_map_tmx_is(o) ? ".tmx" : ".png");
			gfs_node_move(ar, o, maps, fn);
		}
	}
	gfs_node_move(ar, a->dir, maps, stem);
	tng_names_trim(ar, t);
	ar->changed = 1;
	gfs_tree_invalidate(ar);
	return 0;
}
