/*
 * tng_media.c - media made, renamed and removed through the mount: a new
 * file in fonts/, music/, sounds/, movies/ or lang/<code>/speech/ is a new
 * asset with a new name in the strings section (made when its content is
 * first stored, so a refused one changes nothing); renaming changes the name;
 * removing drops the descriptor (the bytes go at the next commit).  What a
 * script, a record or a map still refers to by its name cannot be removed or
 * renamed.  Records are removed here too (tng_asset_unlink), since what
 * refers to them is found the same way, and the numbered atlases,
 * backgrounds and sprites are made (the next number) and removed (the last,
 * when nothing draws from or shows it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_codec.h"
#include "gfs_record.h"
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

/* The start of a removal: n's asset; NULL when n was created and never stored (then n is removed). */
static struct tng_asset *stored_asset(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tng_ref *ref = n->priv;

	if (ref->asset != TNG_NEW_ASSET)
		return &ref->t->assets[ref->asset];
	gfs_node_remove(ar, n);
	return NULL;
}

/*
 * Drop n's asset and remove n with the files of its folder that show the
 * same asset through kids (its scripts, its strips; NULL: none).
 */
static int asset_unlink(struct gfs_archive *ar, struct gfs_node *n, const struct gfs_node_ops *kids)
{
	struct tng_ref *ref = n->priv;
	int r = tng_asset_drop(ref->t, ref->asset);

	if (r)
		return r;
	for (size_t j = n->parent->nkids; kids && j-- > 0;) {
		struct gfs_node *o = n->parent->kids[j];

		if (o != n && gfs_node_get_ops(o) == kids && ((struct tng_ref *)o->priv)->asset == ref->asset)
			gfs_node_remove(ar, o);
	}
	ar->changed = 1;
	gfs_node_remove(ar, n);
	gfs_tree_invalidate(ar);
	return 0;
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
	struct tng_asset *a = stored_asset(ar, n);
	char who[160];

	if (!a)
		return 0;
	if (media_referrer(ar, t, a, who, sizeof who))
		return gfs_err(ar, -EBUSY, "%s: %s refers to it; change that first", n->name, who);
	return asset_unlink(ar, n, NULL);
}

int tng_media_rename(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		     const char *newname)
{
	struct tng *t = ar->priv;
	struct tng_ref *ref = n->priv;
	struct tng_asset *a;
	char stem[TNG_NAME_MAX + 1], who[160];
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
	if ((r = tng_asset_rename(t, a, stem)))
		return r == -EFBIG ? gfs_err(ar, r, "%s: the section block is full", newname) : r;
	gfs_node_move(ar, n, newdir, newname);
	ar->changed = 1;
	gfs_tree_invalidate(ar);
	return 0;
}

/* ---- names left behind ---- */

/*
 * After a map or a record is removed or renamed: the names added to the strings section since the
 * last commit, from its end, that nothing has or names any more go (a map
 * made and removed before a commit leaves the game as it was).
 */
void tng_names_trim(struct gfs_archive *ar, struct tng *t)
{
	struct tng_sec *s = t->strsec >= 0 ? &t->secs[t->strsec] : NULL;
	char who[200];
	int used = 0;

	while (!used && s && s->edit && s->edit->len > s->len && s->edit->data[s->edit->len - 1] == 0) {
		uint32_t off = (uint32_t)s->edit->len - 1;

		while (off > s->len && s->edit->data[off - 1])
			off--;	/* the start of the last string */
		if (off < s->len || (off == s->len && s->len && s->edit->data[off - 1]))
			break;	/* it began before the load's end */
		for (size_t i = 0; i < t->nassets && !used; i++)
			used = !t->assets[i].gone && t->assets[i].nameoff == off;
		if (used || tng_logic_referrer(ar, t, TNGS_STRING, off, who, sizeof who))
			break;
		s->edit->len = off;
	}
	if (s && s->edit && s->edit->len == s->len && !memcmp(s->edit->data, t->block.data + s->off, s->len)) {
		gfs_buf_free(s->edit);	/* the section as loaded */
		s->edit = NULL;
	}
}

/* ---- records removed: <kind>/NAME.ini ---- */

/*
 * The assets that hold a reference, one search for the map users of
 * records and sprites: test(ctx, t, a, m) for every asset a not gone, m its
 * map decoded (its cells when decode) or NULL for another asset or a map
 * that does not decode.  Its first answer not 0 is the one: 1 the map's
 * map.ini, 2 + L its layer L (named with what after it), -1 who as test
 * wrote it.  Returns 1 then (who set), else 0.
 */
typedef int (*tng_user_test)(void *ctx, struct tng *t, const struct tng_asset *a, const struct tng_map *m,
			     char *who, size_t wholen);

static int map_users(struct gfs_archive *ar, struct tng *t, int decode, tng_user_test test, void *ctx,
		     const char *what, char *who, size_t wholen)
{
	unsigned ms = tng_map_size(t), layers = tng_map_layers(t);

	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *a = &t->assets[i];
		struct gfs_buf b = GFS_BUF_INIT;
		struct tng_map m;
		const char *name;
		size_t nl;
		int hit, ok;

		if (a->gone)
			continue;
		ok = a->kind == TNG_A_MAP && !tng_asset_content(ar, t, a, TNG_MAP_MAX, &b) &&
		     !tng_map_parse(ms, layers, b.data, b.len, &m, decode, NULL, 0);
		hit = test(ctx, t, a, ok ? &m : NULL, who, wholen);
		if (ok)
			free(m.cells);
		gfs_buf_release(&b);
		if (hit > 0) {
			name = tng_string_at(t, a->nameoff, &nl);
			if (hit == 1)
				snprintf(who, wholen, "maps/%.*s/map.ini", name ? (int)nl : 4, name ? name : "?");
			else
				snprintf(who, wholen, "maps/%.*s/layer%02d.csv%s", name ? (int)nl : 4,
					 name ? name : "?", hit - 2, what);
		}
		if (hit)
			return 1;
	}
	return 0;
}

/* Does a map's layer hold value v (an NPC or spawner by number)? */
struct layer_want {
	unsigned layer, v;
};

static int layer_holds(void *ctx, struct tng *t, const struct tng_asset *a, const struct tng_map *m,
		       char *who, size_t wholen)
{
	const struct layer_want *w = ctx;
	size_t cells = (size_t)tng_map_size(t) * tng_map_size(t);

	(void)a, (void)who, (void)wholen;
	for (size_t c = 0; m && w->layer < tng_map_layers(t) && c < cells; c++)
		if (m->cells[(size_t)w->layer * cells + c] == w->v)
			return 2 + (int)w->layer;
	return 0;
}

/*
 * Removing NAME.ini removes the record: one named by what refers to it
 * (dialogs, choosers, cutscenes, crafts, quests) when nothing does; one
 * numbered by what refers to it (NPCs and spawners on maps' layers,
 * character options) only when it is the last of its kind and no map
 * places it, so no number changes.
 */
static int record_unlink(struct gfs_archive *ar, struct gfs_node *n, struct tng *t, struct tng_asset *a,
			 unsigned type)
{
	const struct tng_kind *kd = tng_kind_of(type);
	char who[200];

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
		    map_users(ar, t, 1, layer_holds, &(struct layer_want){
				      type == TNG_S_NPCS ? TNG_LAYER_NPCS : TNG_LAYER_SPAWNERS, a->num },
			      "", who, sizeof who))
			return gfs_err(ar, -EBUSY, "%s/%s: %s places it; change that first",
				       n->parent->name, n->name, who);
	}
	return asset_unlink(ar, n, &tng_hscript_ops);	/* its scripts go with it */
}

/* ---- records renamed: mv <kind>/OLD.ini <kind>/NEW.ini ---- */

/*
 * Renaming NAME.ini renames the record: its descriptor names NEW in the
 * strings section, and its scripts' files follow (NEW.on_click.tngs...).
 * Kinds referred to by number (NPCs, spawners, character options) keep
 * every reference; kinds referred to by name (dialogs, choosers,
 * cutscenes, crafts, quests) are renamed when nothing names them, else
 * EBUSY with the referrer (what names the old name would name nothing).
 * Objects have no names (their number and sprite index are their key).
 */
int tng_record_rename(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		      const char *newname)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	struct tng_asset *a;
	unsigned type = t->secs[ref->sec].type;
	const struct tng_kind *kd = tng_kind_of(type);
	size_t nl = strlen(newname), sn;
	char stem[TNG_STEM_MAX + 1], who[200], fn[TNG_STEM_MAX + 64];
	const char *s;
	int r;

	if (tng_record_section(ar, t, n->parent) < 0)
		return gfs_err(ar, -EPERM, "%s: records of %s cannot be renamed", n->name, kd->name);
	if (newdir != n->parent)
		return gfs_err(ar, -EINVAL, "%s/%s: a record stays in its kind's folder (%s/)",
			       n->parent->name, n->name, kd->name);
	if (kd->index_field)
		return gfs_err(ar, -EINVAL, "%s/%s: %s have no names: they are numbered", n->parent->name,
			       n->name, kd->name);
	if (nl < 5 || strcmp(newname + nl - 4, ".ini") || !tng_stem_ok(newname, nl - 4))
		return gfs_err(ar, -EINVAL, "%s: a record is NAME.ini, NAME its name: at most %d printable "
			       "ASCII bytes, no blank, '.', '/' or '\\', not all digits", newname, TNG_STEM_MAX);
	memcpy(stem, newname, nl - 4);
	stem[nl - 4] = '\0';
	a = ref->asset == TNG_NEW_ASSET ? NULL : &t->assets[ref->asset];
	if (tng_record_named(t, ref->sec, a, stem, nl - 4))
		return gfs_err(ar, -EEXIST, "%s: a record of %s is named %s already", newname, kd->name, stem);
	if (!a) {	/* created, never stored: its name is taken from the file when it is */
		gfs_node_move(ar, n, newdir, newname);
		return 0;
	}
	if (kd->ref >= 0 && a->nameoff && (s = tng_string_at(t, a->nameoff, &sn)) &&
	    !tng_record_named(t, a->sec, a, s, sn) &&
	    tng_logic_referrer(ar, t, kd->ref, a->nameoff, who, sizeof who))
		return gfs_err(ar, -EBUSY, "%s/%s: %s refers to it by its name; change that first",
			       n->parent->name, n->name, who);
	for (size_t j = 0; j < n->parent->nkids; j++) {	/* its scripts' new names must be free */
		struct gfs_node *o = n->parent->kids[j];
		struct tng_ref *or = o->priv;

		if (o == n || gfs_node_get_ops(o) != &tng_hscript_ops || or->asset != ref->asset)
			continue;
		tng_hscript_name(tng_rkind_of(t, a), stem, or->sub, fn, sizeof fn);
		if (gfs_node_child(ar, n->parent, fn))
			return gfs_err(ar, -EEXIST, "%s/%s: %s is there already", n->parent->name, n->name, fn);
	}
	if ((r = tng_asset_rename(t, a, stem)))
		return r == -EFBIG ? gfs_err(ar, r, "%s: the section block is full", newname) : r;
	a->named = 1;
	for (size_t j = 0; j < n->parent->nkids; j++) {
		struct gfs_node *o = n->parent->kids[j];
		struct tng_ref *or = o->priv;

		if (o == n || gfs_node_get_ops(o) != &tng_hscript_ops || or->asset != ref->asset)
			continue;
		tng_hscript_name(tng_rkind_of(t, a), stem, or->sub, fn, sizeof fn);
		gfs_node_move(ar, o, newdir, fn);
	}
	gfs_node_move(ar, n, newdir, newname);
	tng_names_trim(ar, t);
	ar->changed = 1;
	gfs_tree_invalidate(ar);
	return 0;
}

/* ---- numbered assets: atlases/NNNN.png, backs/NNNN.png, sprites/<cat>/NNNN.txt ---- */

/*
 * A new file in atlases/, backs/ or sprites/<cat>/ named with the next
 * number is a node only; its asset is made when its first content is
 * stored and checked (tng_numbered_adopt), so a refused one changes
 * nothing.  1: dir takes no numbered files.
 */
int tng_numbered_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
			struct gfs_node **out)
{
	struct tng *t = ar->priv;
	long si = tng_numbered_section(t, dir);
	int sprite, r;
	struct tng_ref *ref;

	if (si < 0)
		return 1;
	if ((r = tng_numbered_name(ar, t, (size_t)si, name)))
		return r;
	sprite = tng_kind_of(t->secs[si].type)->view == TNG_V_SPRITE;
	ref = tng_ref_new(t, TNG_NEW_ASSET, (size_t)si, 0);
	*out = ref ? gfs_node_new_file(ar, dir, name, 0644, sprite ? &tng_sprite_ops : &tng_image_ops,
				       ref) : NULL;
	if (!*out) {
		tng_ref_release(ref);
		return -ENOMEM;
	}
	return 0;
}

/* The path of sprite asset s: sprites/<cat>/NNNN.txt. */
static void sprite_path(const struct tng *t, const struct tng_asset *s, char *who, size_t wholen)
{
	snprintf(who, wholen, "sprites/%s/%04u.txt", tng_kind_of(t->secs[s->sec].type)->name, s->num);
}

/* Does a sprite draw from atlas id?  1 with the sprite in who. */
static int atlas_user(struct gfs_archive *ar, struct tng *t, unsigned id, char *who, size_t wholen)
{
	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *s = &t->assets[i];
		struct gfs_buf b = GFS_BUF_INIT;
		struct gfs_rd rd;
		int hit = 0;

		if (s->kind != TNG_A_SPRITE || s->gone || tng_asset_content(ar, t, s, TNG_SPR_MAX, &b)) {
			gfs_buf_release(&b);
			continue;
		}
		gfs_rd_init(&rd, b.data, b.len, 0);
		while (!hit && gfs_rd_left(&rd)) {
			uint8_t nf = 0;
			uint16_t v = 0;

			if (gfs_rd_skip(&rd, 5) || gfs_rd_u8(&rd, &nf))
				break;
			for (unsigned f = 0; f < nf && !hit; f++) {
				if (gfs_rd_u16le(&rd, &v) || gfs_rd_skip(&rd, TNG_SPR_FRAME - 2))
					break;
				hit = (v & 0xfffu) == id;
			}
		}
		gfs_buf_release(&b);
		if (hit) {
			sprite_path(t, s, who, wholen);
			return 1;
		}
	}
	return 0;
}

struct spr_want {
	unsigned cat, idx;
};

static int map_spr_field(void *ctx, const struct gfs_field *f, uint64_t v)
{
	const struct spr_want *w = ctx;

	return f->kind == GFS_FK_REF && f->ref == TNG_MREF_SPRITE && (v & 0xff) == w->cat &&
	       (v >> 8 & 0xffff) == w->idx;
}

static int sprite_shown(void *ctx, struct tng *t, const struct tng_asset *a, const struct tng_map *m,
			char *who, size_t wholen)
{
	const struct spr_want *w = ctx;
	size_t cells = (size_t)tng_map_size(t) * tng_map_size(t);

	if (t->secs[a->sec].type == TNG_S_OBJECTS && w->cat == TNGS_OBJ_CAT && a->nameoff == w->idx) {
		snprintf(who, wholen, "objects/index.csv (object %04u)", a->num);
		return -1;
	}
	if (!m)
		return 0;
	if (gfs_record_each(&tng_map_rec, m->p, m->rle, map_spr_field, ctx) > 0)
		return 1;
	for (size_t c = 0; w->cat == 1 && c < cells * tng_map_layers(t); c++)
		if (c / cells != TNG_LAYER_NPCS && c / cells != TNG_LAYER_SPAWNERS && m->cells[c] == w->idx)
			return 2 + (int)(c / cells);
	return 0;
}

/*
 * Does something show sprite cat/idx (a background is category 4)?  1 with
 * who: a script, a record or section, an object (its sprite index), a
 * map's header or parallax, or a tile on a map's layer.
 */
static int sprite_user(struct gfs_archive *ar, struct tng *t, unsigned cat, unsigned idx, char *who,
		       size_t wholen)
{
	struct spr_want w = { cat, idx };

	return tng_logic_referrer(ar, t, TNGS_SPRITE, cat << 16 | idx, who, wholen) ||
	       map_users(ar, t, cat == 1, sprite_shown, &w, " (a tile)", who, wholen);
}

/*
 * Removing atlases/NNNN.png, backs/NNNN.png or sprites/<cat>/NNNN.txt: only
 * the last of its kind (no other number changes), and only when nothing
 * draws from it (an atlas) or shows it (a sprite, a background).
 */
static int numbered_unlink(struct gfs_archive *ar, struct gfs_node *n, struct tng_ref *ref, struct tng_asset *a)
{
	struct tng *t = ref->t;
	unsigned type = t->secs[ref->sec].type;
	const struct tng_kind *kd = tng_kind_of(type);
	char who[200], path[64];

	snprintf(path, sizeof path, "%s%s/%s", kd->view == TNG_V_SPRITE ? "sprites/" : "", kd->name, n->name);
	if (a->num + 1 != tng_numbered_next(t, ref->sec))
		return gfs_err(ar, -EBUSY, "%s: %s are numbered: only the last (%04u) can be removed", path,
			       kd->name, tng_numbered_next(t, ref->sec) - 1);
	if (type == TNG_S_ATLASES ? atlas_user(ar, t, a->num, who, sizeof who) :
	    sprite_user(ar, t, type - TNG_S_UISPR, a->num, who, sizeof who))
		return gfs_err(ar, -EBUSY, "%s: %s %s it; change that first", path, who,
			       type == TNG_S_ATLASES ? "draws from" : "shows");
	return asset_unlink(ar, n, &tng_strip_ops);	/* a sprite's strips go with it */
}

/* Removing a record or a numbered file (a created one never stored just goes). */
int tng_asset_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	unsigned type = t->secs[ref->sec].type;
	int numbered = gfs_node_get_ops(n) != &tng_recini_ops;
	struct tng_asset *a = stored_asset(ar, n);	/* NULL: n is gone with ref */

	if (!a)
		return 0;
	return numbered ? numbered_unlink(ar, n, ref, a) : record_unlink(ar, n, t, a, type);
}
