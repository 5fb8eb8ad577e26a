/*
 * tng_media.c - media made, renamed and removed through the mount: a new
 * file in fonts/, music/, sounds/, movies/ or lang/<code>/speech/ is a new
 * asset with a new name in the strings section (made when its content is
 * first stored, so a refused one changes nothing); renaming changes the name;
 * removing drops the descriptor (the bytes go at the next commit).  What a
 * script, a record or a map still refers to by its name cannot be removed or
 * renamed.  Records are removed here too (tng_record_unlink), since what
 * refers to them is found the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tng.h"
#include "tng_script.h"

#define TNG_NAME_MAX 200

/* The section whose new files dir takes, or -1. */
static long media_section(const struct tng *t, const struct gfs_node *dir)
{
	for (size_t i = 0; i < t->nsecs; i++)
		if (t->secs[i].dir && t->secs[i].dir == dir)
			return (long)i;
	return -1;
}

static const char *media_ext(const struct tng *t, size_t si)
{
	const struct tng_kind *k = tng_kind_of(t->secs[si].type);

	return k->ext ? k->ext : "ogg";	/* speech (section 1) */
}

/* The name in section 0 of file name in section si's directory: its stem. */
static int media_stem(struct gfs_archive *ar, const struct tng *t, size_t si, const char *name,
		      char *stem, size_t stemlen)
{
	const char *ext = media_ext(t, si);
	size_t n = strlen(name), e = strlen(ext);

	if (n < e + 2 || name[n - e - 1] != '.' || strcmp(name + n - e, ext))
		return gfs_err(ar, -EINVAL, "%s: the files here are <name>.%s", name, ext);
	if (n - e - 1 > TNG_NAME_MAX || n - e - 1 >= stemlen)
		return gfs_err(ar, -EINVAL, "%s: a name is at most %d bytes", name, TNG_NAME_MAX);
	memcpy(stem, name, n - e - 1);
	stem[n - e - 1] = '\0';
	return 0;
}

/*
 * Does something refer to asset a by its name, a name no other asset of its
 * kind has?  1 with who, else 0.  Scripts, records and sections are
 * searched, and maps for their music.
 */
static int media_referrer(struct gfs_archive *ar, struct tng *t, struct tng_asset *a, char *who,
			  size_t wholen)
{
	unsigned type = t->secs[a->sec].type;
	const struct tng_kind *kd = tng_kind_of(type);
	/* media and speech by name; records have other ways to be found */
	int k = kd->view == TNG_V_MEDIA || kd->view == TNG_V_LANG ? kd->ref : -1;

	if (k < 0 || !a->nameoff)
		return 0;
	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *b = &t->assets[i];

		if (b != a && !b->gone && b->nameoff == a->nameoff && t->secs[b->sec].type == type)
			return 0;	/* the name still names another (speech of another language) */
	}
	if (tng_logic_referrer(ar, t, k, a->nameoff, who, wholen))
		return 1;
	for (size_t i = 0; type == TNG_S_MUSIC && i < t->nassets; i++) {
		struct tng_asset *m = &t->assets[i];
		struct gfs_buf b = GFS_BUF_INIT;
		size_t n;
		const char *name;
		int hit;

		if (m->kind != TNG_A_MAP || m->gone)
			continue;
		hit = !tng_asset_content(ar, t, m, TNG_MAP_MAX, &b) && b.len >= TNG_MAP_HDR &&
		      gfs_le24(b.data + 26) == a->nameoff;
		gfs_buf_release(&b);
		if (hit) {
			name = tng_string_at(t, m->nameoff, &n);
			snprintf(who, wholen, "maps/%.*s/map.ini (its music)", name ? (int)n : 4,
				 name ? name : "?");
			return 1;
		}
	}
	return 0;
}

/* A file created and never stored (nothing in the game yet): removed, 1; else 0. */
static int never_stored(struct gfs_archive *ar, struct gfs_node *n)
{
	if (((struct tng_ref *)n->priv)->asset != TNG_NEW_ASSET)
		return 0;
	gfs_node_remove(ar, n);
	return 1;
}

int tng_media_dir(const struct tng *t, const struct gfs_node *dir)
{
	return media_section(t, dir) >= 0;
}

/*
 * A new file is a node only; its asset and its name in section 0 are made
 * when its first content is stored (tng_media_adopt), so a file whose
 * content is refused leaves the game as it was.
 */
int tng_media_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		     struct gfs_node **out)
{
	struct tng *t = ar->priv;
	long si = media_section(t, dir);
	char stem[TNG_NAME_MAX + 1];
	struct tng_ref *ref;
	int r;

	if (si < 0)
		return -EPERM;
	if ((r = media_stem(ar, t, (size_t)si, name, stem, sizeof stem)))
		return r;
	ref = tng_ref_new(t, TNG_NEW_ASSET, (size_t)si, 0);
	*out = ref ? gfs_node_new_file(ar, dir, name, 0644, &tng_media_ops, ref) : NULL;
	if (!*out) {
		tng_ref_release(ref);
		return -ENOMEM;
	}
	return 0;
}

int tng_media_adopt(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	char stem[TNG_NAME_MAX + 1];
	uint32_t off;
	size_t ai;
	int r;

	if ((r = media_stem(ar, t, ref->sec, n->name, stem, sizeof stem)))
		return r;
	if ((r = tng_string_add(t, stem, &off)) || (r = tng_asset_new(t, ref->sec, off, &ai)))
		return r == -EFBIG ? gfs_err(ar, r, "%s: the section block is full", n->name) : r;
	ref->asset = ai;
	t->assets[ai].node = n;
	ar->changed = 1;
	return 0;
}

int tng_media_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	struct tng_asset *a;
	char who[160];
	int r;

	if (never_stored(ar, n))
		return 0;
	a = &t->assets[ref->asset];
	if (media_referrer(ar, t, a, who, sizeof who))
		return gfs_err(ar, -EBUSY, "%s: %s refers to it; change that first", n->name, who);
	if ((r = tng_asset_drop(t, ref->asset)))
		return r;
	ar->changed = 1;
	gfs_node_remove(ar, n);
	gfs_tree_invalidate(ar);
	return 0;
}

int tng_media_rename(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		     const char *newname)
{
	struct tng *t = ar->priv;
	struct tng_ref *ref = n->priv;
	struct tng_asset *a;
	struct gfs_buf *e;
	char stem[TNG_NAME_MAX + 1], who[160];
	uint32_t off;
	int r;

	if (gfs_node_get_ops(n) != &tng_media_ops || media_section(t, n->parent) < 0)
		return gfs_err(ar, -EPERM, "%s: only fonts, music, sounds, movies and speech can be "
			       "renamed", n->name);
	if (newdir != n->parent)
		return gfs_err(ar, -EXDEV, "%s: an asset stays in its directory", n->name);
	if ((r = media_stem(ar, t, ref->sec, newname, stem, sizeof stem)))
		return r;
	if (ref->asset == TNG_NEW_ASSET) {	/* never stored: only the node has a name */
		gfs_node_move(ar, n, newdir, newname);
		return 0;
	}
	a = &t->assets[ref->asset];
	if (media_referrer(ar, t, a, who, sizeof who))
		return gfs_err(ar, -EBUSY, "%s: %s refers to it by its name; change that first",
			       n->name, who);
	if ((r = tng_string_add(t, stem, &off)))
		return r == -EFBIG ? gfs_err(ar, r, "%s: the section block is full", newname) : r;
	if (!(e = tng_sec_edit(t, a->sec)))
		return -ENOMEM;
	gfs_put_u32le(e->data + a->dpos + TNG_DESC_NAME, off);
	a->nameoff = off;
	gfs_node_move(ar, n, newdir, newname);
	ar->changed = 1;
	gfs_tree_invalidate(ar);
	return 0;
}

/* ---- records removed: <kind>/NAME.ini ---- */

/* Does a map's layer hold value v (an NPC or spawner by number)?  1 with the map in who. */
static int map_user(struct gfs_archive *ar, struct tng *t, unsigned layer, unsigned v, char *who,
		    size_t wholen)
{
	unsigned ms = tng_map_size(t), layers = tng_map_layers(t);

	for (size_t i = 0; i < t->nassets && layer < layers; i++) {
		struct tng_asset *a = &t->assets[i];
		struct gfs_buf b = GFS_BUF_INIT;
		struct tng_map m;
		const char *name;
		size_t nl, cells = (size_t)ms * ms;
		int hit = 0;

		if (a->kind != TNG_A_MAP || a->gone)
			continue;
		if (!tng_asset_content(ar, t, a, TNG_MAP_MAX, &b) &&
		    !tng_map_parse(ms, layers, b.data, b.len, &m, 1, NULL, 0)) {
			for (size_t c = 0; c < cells && !hit; c++)
				hit = m.cells[(size_t)layer * cells + c] == v;
			free(m.cells);
		}
		gfs_buf_release(&b);
		if (hit) {
			name = tng_string_at(t, a->nameoff, &nl);
			snprintf(who, wholen, "maps/%.*s/layer%02u.csv", name ? (int)nl : 4,
				 name ? name : "?", layer);
			return 1;
		}
	}
	return 0;
}

/*
 * Removing NAME.ini removes the record: one named by what refers to it
 * (dialogs, choosers, cutscenes, crafts, quests) when nothing does; one
 * numbered by what refers to it (NPCs and spawners on maps' layers,
 * character options) only when it is the last of its kind and no map
 * places it, so no number changes.
 */
int tng_record_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	struct tng_asset *a;
	unsigned type = t->secs[ref->sec].type;
	const struct tng_kind *kd = tng_kind_of(type);
	char who[200];
	int r;

	if (never_stored(ar, n))
		return 0;
	a = &t->assets[ref->asset];
	if (tng_record_section(ar, t, n->parent) < 0)
		return gfs_err(ar, -EPERM, "%s: records of %s cannot be removed", n->name, kd->name);
	if (kd->ref >= 0) {
		const char *s;
		size_t sn;

		if (a->nameoff && (s = tng_string_at(t, a->nameoff, &sn)) &&
		    !tng_record_named(t, a->sec, a, s, sn) && tng_logic_referrer(ar, t, kd->ref, a->nameoff, who,
									       sizeof who))
			return gfs_err(ar, -EBUSY, "%s/%s: %s refers to it; change that first",
				       n->parent->name, n->name, who);
	} else {
		for (size_t i = 0; i < t->nassets; i++)
			if (!t->assets[i].gone && t->secs[t->assets[i].sec].type == type &&
			    t->assets[i].num > a->num)
				return gfs_err(ar, -EBUSY, "%s/%s: %s are numbered: only the last "
					       "can be removed", n->parent->name, n->name, kd->name);
		if ((type == TNG_S_NPCS || type == TNG_S_SPAWNERS) &&
		    map_user(ar, t, type == TNG_S_NPCS ? 5 : 6, a->num, who, sizeof who))
			return gfs_err(ar, -EBUSY, "%s/%s: %s places it; change that first",
				       n->parent->name, n->name, who);
	}
	if ((r = tng_asset_drop(t, ref->asset)))
		return r;
	for (size_t j = n->parent->nkids; j-- > 0;) {	/* its scripts go with it */
		struct gfs_node *o = n->parent->kids[j];
		struct tng_ref *or = o->priv;

		if (o != n && gfs_node_get_ops(o) == &tng_hscript_ops && or->asset == ref->asset)
			gfs_node_remove(ar, o);
	}
	ar->changed = 1;
	gfs_node_remove(ar, n);
	gfs_tree_invalidate(ar);
	return 0;
}
