/*
 * New records at the end of an OHRRPGCE game's record lumps, and the last
 * one removed, as Custom's editors do it (specs/ohrrpgce-lumps.md 5):
 *
 *   cp items/003.ini items/256.ini     a new item (the next free number)
 *   echo Hi > textboxes/0002.txt       a new text box
 *   printf '3\tPotion\n' >> names/items.txt   a new item named Potion
 *   rm items/256.ini                   the last item removed
 *
 * A new record is appended to its lump in whole records of the lump's
 * BINSIZE size (a partial record at the end is overwritten, as the
 * engine's storerecord does), its companion lumps grow with it (an attack
 * is a DT6 record and an ATTACK.BIN record; a shop a SHO record and 50 STF
 * stock slots) and GEN's last-record field becomes its number.  The record
 * is blank: zeros, except the defaults Custom's "new blank" sets (loading.rbas
 * clearenemydata, itemedit.bas item_editor_init_new, the TextBox type's
 * initial values, shopedit.bas shop_init_stf):
 *   items      elemental damage multipliers (words 82-209) 1.0, where the record holds them
 *   enemies    palette (word 54) -1, spawn count (word 91) 1, elemental multipliers
 *              (words 239-366) 1.0 where held
 *   text boxes shrink (word 194) -1 (auto), portrait palette (word 202) -1 where held
 *   shops      stock slot 0: stock (word 19) -1 (infinite), stock index (word 37) 1
 * Only the last record can be removed, and only when nothing refers to it
 * (EBUSY naming the referrers: rpg_records_refs(), the NPC types); one in
 * the middle stays, as in Custom (EPERM).  Removing a record added in the same mount puts back
 * the GEN field it changed (a game grown and shrunk back is byte-identical).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpg_grow.h"
#include "rpg_draw.h"
#include "reload.h"

/* A lump of a kind of record: per lump records a record of the kind. */
struct rg_lump {
	const char *lump;	/* rpg_lump_is() pattern */
	int binsize_idx;	/* -1: fixed size */
	unsigned recsize;	/* fixed, or legacy */
	unsigned per;
};

struct rg_kind {
	const char *what;	/* "item": messages */
	const char *dir;	/* its record files, NULL: only a name list */
	const char *ext;
	unsigned digits;
	unsigned gen;		/* GEN's last-record field */
	long max;		/* the engine's highest record number */
	struct rg_lump l[2];	/* the files' lump, a companion */
	const char *target;	/* rpg_records_refs()'s name of the kind; NULL: nothing refers to it */
	int npc_word;		/* the NPC types' word that refers to it (-1 none), off: */
	int npc_off;		/* the number there less this */
};

/* numbers: const.bi maxMax*, common.rbas max_tag(), the editors' 32767 */
static const struct rg_kind rg_kinds[] = {
	{ "item", "items", ".ini", 3, 82, 32000, { { ".ITM", 12, 200, 1 } }, ".ITM", 6, 1 },
	{ "hero", "heroes", ".ini", 3, 35, 511, { { ".DT0", 10, 636, 1 } }, ".DT0", -1, 0 },
	{ "enemy", "enemies", ".ini", 3, 36, 32767, { { ".DT1", 11, 320, 1 } }, ".DT1", -1, 0 },
	{ "attack", "attacks", ".ini", 3, 34, 32767, { { "ATTACK.BIN", 0, 0, 1 }, { ".DT6", -1, 80, 1 } }, ".DT6", -1, 0 },
	{ "formation", "formations", ".ini", 3, 37, 32767, { { ".FOR", -1, 80, 1 } }, ".FOR", -1, 0 },
	{ "shop", "shops", ".ini", 3, 97, 32767, { { ".SHO", -1, 40, 1 }, { ".STF", 1, 64, 50 } }, NULL, -1, 0 },
	{ "vehicle", "vehicles", ".ini", 3, 55, 32767, { { ".VEH", -1, 80, 1 } }, NULL, 14, 1 },
	{ "menu", "menus", ".ini", 3, 80, 32767, { { "MENUS.BIN", 5, 0, 1 } }, NULL, -1, 0 },
	{ "menu item", "menu-items", ".ini", 4, 81, 32767, { { "MENUITEM.BIN", 6, 0, 1 } }, NULL, -1, 0 },
	{ "text box", "textboxes", ".txt", 4, 39, 32767, { { ".SAY", 8, 400, 1 } }, ".SAY", 4, 0 },
	{ "tag", NULL, NULL, 0, 56, 15999, { { ".TMN", -1, 42, 1 } }, NULL, -1, 0 },
};
#define RG_NKINDS (sizeof(rg_kinds) / sizeof(rg_kinds[0]))

static unsigned rg_recsize(struct gfs_archive *ar, const struct rg_lump *d)
{
	return d->binsize_idx >= 0 ? rpg_binsize(ar, (unsigned)d->binsize_idx, d->recsize) : d->recsize;
}

/* Records of the kind: its files' lump in whole records; 0 when it cannot grow (-1 no record size). */
static long rg_count(struct gfs_archive *ar, const struct rg_kind *k, struct rpg_lump **l)
{
	unsigned rs = rg_recsize(ar, &k->l[0]);
	struct gfs_buf b = GFS_BUF_INIT;
	long n;

	*l = rpg_kind_lump(ar->priv, k->l[0].lump);
	if (!*l || rs < 2)
		return -1;
	if (rpg_lump_read(ar, *l, &b))
		return -1;
	n = (long)(b.len / rs);
	gfs_buf_release(&b);
	return n;
}

/* Custom's blank record: zeros but n words from word (RG_ONE: n singles 1.0); .STF: a shop's slot 0 */
#define RG_ONE 0x10000
static const struct rg_blank {
	const char *lump;
	unsigned word, n;
	int v;
} rg_blanks[] = {
	{ ".ITM", 82, 64, RG_ONE }, { ".DT1", 54, 1, -1 }, { ".DT1", 91, 1, 1 }, { ".DT1", 239, 64, RG_ONE },
	{ ".SAY", 194, 1, -1 }, { ".SAY", 202, 1, -1 }, { ".STF", 19, 1, -1 }, { ".STF", 37, 1, 1 },
};

/* Custom's blank record (rec: its number in the lump) at p, as far as its rs bytes hold the words. */
static void rg_blank(struct rpg_model *m, struct rpg_lump *l, size_t rec, uint8_t *p, unsigned rs)
{
	memset(p, 0, rs);
	for (size_t i = 0; i < sizeof(rg_blanks) / sizeof(rg_blanks[0]); i++) {
		const struct rg_blank *d = &rg_blanks[i];
		unsigned w = d->v == RG_ONE ? 4 : 2;

		if (!rpg_lump_is(m, l, d->lump) || (!strcmp(d->lump, ".STF") && rec % 50))
			continue;
		for (unsigned j = 0; j < d->n && 2 * d->word + (j + 1) * w <= rs; j++)
			if (d->v == RG_ONE)
				memcpy(p + 2 * d->word + j * w, "\0\0\x80\x3f", 4);	/* 1.0f, little-endian */
			else
				gfs_put_u16le(p + 2 * d->word + j * w, (uint16_t)d->v);
	}
}

/* b, lump l's content, to want whole records of rs bytes: blank from its last whole record on. */
static int rg_extend(struct rpg_model *m, struct rpg_lump *l, struct gfs_buf *b, size_t want, unsigned rs)
{
	size_t first = b->len / rs;
	int r;

	if (first >= want)
		return 0;
	if ((r = gfs_buf_set_len(b, want * rs)))
		return r;
	for (size_t i = first; i < want; i++)
		rg_blank(m, l, i, b->data + i * rs, rs);
	return 0;
}

static int rg_gen_set(struct gfs_archive *ar, unsigned field, long v)
{
	struct rpg_model *m = ar->priv;
	char nm[RPG_NAME_MAX + 8];
	struct rpg_lump *g;
	struct gfs_buf b = GFS_BUF_INIT;
	int r;

	snprintf(nm, sizeof(nm), "%s.GEN", m->archinym);
	if (!(g = rpg_lump_named(m, nm)))
		return 0;
	if (!(r = rpg_lump_read(ar, g, &b)) && b.len >= 7 + 2 * (size_t)field + 2)
		gfs_put_u16le(b.data + 7 + 2 * field, (uint16_t)v);
	return rpg_lump_done(ar, g, &b, r);
}

int rpg_grow_set(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_buf *b, int r)
{
	if ((r = rpg_lump_done(ar, l, b, r)))
		return r;
	if (l->data)
		l->len = l->data->len;	/* its size now (load-time code reads it); its place after the commit */
	return 0;
}

int rpg_grow_gen(struct gfs_archive *ar, unsigned field, size_t rec, long v)
{
	struct rpg_model *m = ar->priv;
	struct rpg_genundo *u;
	long gen = rpg_gen(ar, m, field);

	if (gen < 0)
		return 0;
	if (!(u = realloc(m->undo, (m->nundo + 1) * sizeof(*u))))
		return -ENOMEM;
	m->undo = u;
	u[m->nundo++] = (struct rpg_genundo){ .field = field, .rec = rec, .before = gen };
	return gen < v ? rg_gen_set(ar, field, v) : 0;
}

int rpg_grow_gen_back(struct gfs_archive *ar, unsigned field, size_t rec)
{
	struct rpg_model *m = ar->priv;
	long gen = rpg_gen(ar, m, field);

	if (gen < 0)
		return 0;
	if (m->nundo && m->undo[m->nundo - 1].field == field && m->undo[m->nundo - 1].rec == rec)
		return rg_gen_set(ar, field, m->undo[--m->nundo].before);
	return gen >= (long)rec ? rg_gen_set(ar, field, (long)rec - 1) : 0;
}

/* The views of record rec of l (a record lump's INI, a text box). */
static int rg_view_add(struct gfs_archive *ar, struct rpg_lump *l, size_t rec)
{
	if (rpg_lump_is(ar->priv, l, ".SAY"))
		return rpg_say_add(ar, l, rec);
	return rpg_records_add(ar, l, rec);	/* none for a lump without INI views (DT6) */
}

/*
 * The kind grows from had to want records: every lump of it (pre, already
 * grown by rpg_grow_lines(), from prehad of its records), the views of the
 * new records, GEN's field (its old value kept to be put back).
 */
static int rg_grow_to(struct gfs_archive *ar, const struct rg_kind *k, size_t want,
		      struct rpg_lump *pre, size_t prehad)
{
	struct rpg_model *m = ar->priv;
	int r = 0;

	for (unsigned j = 0; j < 2 && !r && k->l[j].lump; j++) {
		struct rpg_lump *l = rpg_kind_lump(m, k->l[j].lump);
		unsigned rs = rg_recsize(ar, &k->l[j]);
		struct gfs_buf b = GFS_BUF_INIT;
		size_t from;

		if (!l || rs < 2)
			continue;	/* a companion the game lacks */
		if ((r = rpg_lump_read(ar, l, &b)))
			break;
		from = l == pre ? prehad : b.len / rs;
		if (l != pre) {
			r = rg_extend(m, l, &b, want * k->l[j].per, rs);
			r = rpg_grow_set(ar, l, &b, r);
		} else {
			gfs_buf_release(&b);
		}
		for (size_t i = from; !r && i < want * k->l[j].per; i++)
			r = rg_view_add(ar, l, i);
	}
	return r ? r : rpg_grow_gen(ar, k->gen, want - 1, (long)want - 1);
}

static const struct rg_kind *rg_kind_of_dir(struct gfs_archive *ar, struct gfs_node *dir)
{
	if (!dir || dir->parent != ar->root)
		return NULL;
	for (size_t i = 0; i < RG_NKINDS; i++)
		if (rg_kinds[i].dir && !strcmp(dir->name, rg_kinds[i].dir))
			return &rg_kinds[i];
	return NULL;
}

int rpg_grow_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out)
{
	struct rpg_model *m = ar->priv;
	const struct rg_kind *k = m->game ? rg_kind_of_dir(ar, dir) : NULL;
	struct rpg_lump *l;
	long n = k ? rg_count(ar, k, &l) : -1;
	char want[32];
	int r;

	if (!k || n < 0)
		return 1;
	snprintf(want, sizeof(want), "%0*ld%s", (int)k->digits, n, k->ext);
	if (n > k->max)
		return gfs_err(ar, -ENOSPC, "%s/%s: %s/ holds %ld records, the engine's most (%s 0 to %ld)",
			       k->dir, name, k->dir, n, k->what, k->max);
	if (strcmp(name, want))
		return gfs_err(ar, -EINVAL, "%s/%s: a new %s is the next free number, %s/%s", k->dir, name,
			       k->what, k->dir, want);
	if ((r = rg_grow_to(ar, k, (size_t)n + 1, NULL, 0)))
		return r;
	for (size_t i = l->nviews; i-- > 0;) {
		struct rpg_vpriv *v = l->views[i]->priv;

		if (l->views[i]->parent == dir && v->rec == (size_t)n) {
			v->fresh = 1;
			*out = l->views[i];
			ar->changed = 1;
			return 0;
		}
	}
	return gfs_err(ar, -EIO, "%s/%s: the new record has no view", k->dir, name);
}

/* Detach l's record views (not its name list) of records from on. */
static void rg_views_cut(struct gfs_archive *ar, struct rpg_lump *l, size_t from)
{
	size_t k = 0;

	for (size_t i = 0; i < l->nviews; i++) {
		struct gfs_node *n = l->views[i];
		struct rpg_vpriv *v = n->priv;

		if (v->rec < from || n->parent == ar->root || !strcmp(n->parent->name, "names")) {
			l->views[k++] = n;
			continue;
		}
		if (gfs_node_is_open(n)) {
			gfs_node_remove(ar, n);
			v->l = NULL;	/* an open view keeps what it read */
		} else {
			gfs_node_remove(ar, n);
		}
	}
	l->nviews = k;
}

/* The NPC types (of every map and the global pool) whose word k->npc_word leads to record id. */
static size_t rg_npc_refs(struct gfs_archive *ar, const struct rg_kind *k, long id, struct gfs_buf *who, size_t n)
{
	struct rpg_model *m = ar->priv;
	unsigned rs = rpg_binsize(ar, 9, 30);

	for (size_t i = 0; k->npc_word >= 0 && 2 * (unsigned)k->npc_word + 2 <= rs && i < m->n; i++) {
		struct rpg_lump *l = m->lumps[i];
		struct gfs_buf b = GFS_BUF_INIT;
		char letter, where[256];

		if (!((rpg_map_of(m, l->name, &letter) >= 0 && letter == 'N') || rpg_lump_is(m, l, "GLOBALNPCS1.N")))
			continue;
		if (l->nviews)
			gfs_node_pathname(l->views[0], where, sizeof(where));
		else
			snprintf(where, sizeof(where), "lumps/%s", l->name);
		if (rpg_lump_read(ar, l, &b))
			continue;
		for (size_t t = 0; 7 + (t + 1) * rs <= b.len; t++) {
			if ((long)(int16_t)gfs_le16(b.data + 7 + t * rs + 2 * (unsigned)k->npc_word) - k->npc_off != id ||
			    (k->npc_off == 0 && id == 0))
				continue;
			if (n < 6 && gfs_buf_printf(who, "%s%s id %zu %s", n ? ", " : "", where, t,
						    k->npc_word == 4 ? "textbox" : k->npc_word == 6 ? "item" : "vehicle"))
				break;
			n++;
		}
		gfs_buf_release(&b);
	}
	return n;
}

/* EBUSY naming what refers to record rec of k (the game's records, NPC types); 0 when nothing does. */
static int rg_busy(struct gfs_archive *ar, const struct rg_kind *k, struct gfs_node *n, long rec)
{
	struct gfs_buf who = GFS_BUF_INIT;
	size_t cnt = k->target ? rpg_records_refs(ar, k->target, rec, &who) : 0;
	int r = 0;

	cnt = rg_npc_refs(ar, k, rec, &who, cnt);
	if (cnt)
		r = gfs_err(ar, -EBUSY, "%s/%s: used by %.*s%s%.0zu%s; change that first", k->dir, n->name,
			    (int)who.len, who.data ? (const char *)who.data : "", cnt > 6 ? " and " : "",
			    cnt > 6 ? cnt - 6 : 0, cnt > 6 ? " more" : "");
	gfs_buf_release(&who);
	return r;
}

int rpg_grow_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct rpg_model *m = ar->priv;
	const struct rg_kind *k = m->game ? rg_kind_of_dir(ar, n->parent) : NULL;
	struct rpg_vpriv *v = k ? n->priv : NULL;
	struct rpg_lump *l;
	long cnt = k ? rg_count(ar, k, &l) : -1;
	int r = 0;

	if (!k || cnt < 0 || !v || v->l != l)
		return 1;
	if (cnt == 1)
		return gfs_err(ar, -EPERM, "%s/%s: a game keeps at least one %s", k->dir, n->name, k->what);
	if (!(n->mode & 0200) && !strcmp(k->dir, "heroes"))
		return gfs_err(ar, -EPERM, "%s/%s: lumps/HEROES.RELD holds this hero: remove its hero = %zu from "
			       "reload/heroes.txt first", k->dir, n->name, v->rec);
	if ((r = rg_busy(ar, k, n, (long)v->rec)))
		return r;
	if ((long)v->rec != cnt - 1)
		return gfs_err(ar, -EPERM, "%s/%s: only the last %s (%s/%0*ld%s) can be removed: nothing refers "
			       "to this one, but the game numbers its %s and Custom, too, removes none in the "
			       "middle (write over it to reuse it)", k->dir, n->name, k->what, k->dir,
			       (int)k->digits, cnt - 1, k->ext, k->dir);
	for (unsigned j = 0; j < 2 && !r && k->l[j].lump; j++) {
		struct rpg_lump *c = rpg_kind_lump(m, k->l[j].lump);
		unsigned rs = rg_recsize(ar, &k->l[j]);
		size_t keep = (size_t)(cnt - 1) * k->l[j].per * rs;
		struct gfs_buf b = GFS_BUF_INIT;

		if (!c || rs < 2)
			continue;
		if (!(r = rpg_lump_read(ar, c, &b)) && b.len > keep)
			r = gfs_buf_set_len(&b, keep);
		if (!(r = rpg_grow_set(ar, c, &b, r)))
			rg_views_cut(ar, c, (size_t)(cnt - 1) * k->l[j].per);
	}
	ar->changed = 1;
	return r ? r : rpg_grow_gen_back(ar, k->gen, (size_t)cnt - 1);
}

/* The kind whose lump (its files' or a companion) l is, j: which. */
static const struct rg_kind *rg_kind_of_lump(struct rpg_model *m, struct rpg_lump *l, unsigned *j)
{
	for (size_t i = 0; i < RG_NKINDS; i++)
		for (*j = 0; *j < 2 && rg_kinds[i].l[*j].lump; (*j)++)
			if (rpg_lump_is(m, l, rg_kinds[i].l[*j].lump))
				return &rg_kinds[i];
	return NULL;
}

int rpg_grow_lines(struct gfs_archive *ar, const char *view, struct rpg_lump *l, size_t want, struct gfs_buf *b)
{
	struct rpg_model *m = ar->priv;
	unsigned j;
	const struct rg_kind *k = rg_kind_of_lump(m, l, &j);
	unsigned rs = k ? rg_recsize(ar, &k->l[j]) : 0;

	if (!k || rs < 2 || k->l[j].per != 1)
		return gfs_err(ar, -EINVAL, "%s: line %zu: the lump has %zu lines' worth, and a line more is "
			       "no new record here%s", view, b->len / (rs ? rs : 1) + 1, b->len / (rs ? rs : 1),
			       rpg_lump_is(m, l, ".MN") ? " (a new map: mkdir maps/NN-name)" : "");
	if ((long)want - 1 > k->max)
		return gfs_err(ar, -EINVAL, "%s: line %zu: the engine's last %s is %ld", view, want, k->what, k->max);
	return rg_extend(m, l, b, want, rs);
}

int rpg_grow_done(struct gfs_archive *ar, struct rpg_lump *l, size_t had)
{
	struct rpg_model *m = ar->priv;
	unsigned j;
	const struct rg_kind *k = rg_kind_of_lump(m, l, &j);
	unsigned rs = k ? rg_recsize(ar, &k->l[j]) : 0;
	struct gfs_buf b = GFS_BUF_INIT;
	int r;

	if (!k || rs < 2)
		return 0;
	if ((r = rpg_lump_read(ar, l, &b)))
		return r;
	r = rg_grow_to(ar, k, b.len / rs, l, had);
	gfs_buf_release(&b);
	ar->changed = 1;
	return r;
}

/* ---- a new hero in HEROES.RELD: .DT0 and GEN follow ---------------------- */

/* The highest "hero = N" of the root (-1 none) and whether each id up to RG_MAX_HEROES is there. */
#define RG_MAX_HEROES 512
struct rg_heroes {
	long max;
	uint8_t has[RG_MAX_HEROES];
	long bad;		/* an id past the engine's last, or -1 */
};

static int rg_hero_visit(void *ctx, const struct reld_node *nd)
{
	struct rg_heroes *h = ctx;

	if (nd->depth != 1 || nd->namelen != 4 || memcmp(nd->name, "hero", 4) || nd->type < 1 || nd->type > 4)
		return 0;
	if (nd->i < 0 || nd->i >= RG_MAX_HEROES) {
		h->bad = nd->i < 0 ? -1 : (long)nd->i;
		return 0;
	}
	h->has[nd->i] = 1;
	h->max = nd->i > h->max ? (long)nd->i : h->max;
	return 0;
}

/*
 * The heroes HEROES.RELD (l) holds now (*old) and in bin (*h); the first
 * new number: past .DT0's records and the document's heroes (the engine's
 * count is GEN's, which .DT0 follows; a document may hold more, autotest's).
 */
static long rg_reld_next(struct gfs_archive *ar, struct rpg_lump *l, const uint8_t *bin, size_t len,
			 struct rg_heroes *old, struct rg_heroes *h, struct rpg_lump **dt0)
{
	struct gfs_buf b = GFS_BUF_INIT;
	char err[160];
	long cnt = rg_count(ar, &rg_kinds[1], dt0);

	*old = (struct rg_heroes){ .max = -1, .bad = -1 };
	*h = (struct rg_heroes){ .max = -1, .bad = -1 };
	if (cnt < 0 || reld_walk(bin, len, rg_hero_visit, h, err, sizeof(err)))
		return -1;
	if (!rpg_lump_read(ar, l, &b))
		(void)reld_walk(b.data, b.len, rg_hero_visit, old, err, sizeof(err));
	gfs_buf_release(&b);
	return old->max + 1 > cnt ? old->max + 1 : cnt;
}

int rpg_grow_reld(struct gfs_archive *ar, struct rpg_lump *l, const uint8_t *bin, size_t len, const char *view)
{
	struct rpg_model *m = ar->priv;
	struct rg_heroes old, h;
	struct rpg_lump *dt0;
	long next;

	if (!m->game || !rpg_lump_is(m, l, "HEROES.RELD") || (next = rg_reld_next(ar, l, bin, len, &old, &h, &dt0)) < 0)
		return 0;
	if (h.bad >= 0)
		return gfs_err(ar, -EINVAL, "reload/%s: hero = %ld: the engine's last hero is %d", view, h.bad,
			       RG_MAX_HEROES - 1);
	for (long i = next; i <= h.max; i++)
		if (!h.has[i])
			return gfs_err(ar, -EINVAL, "reload/%s: hero = %ld: a new hero is the next number, %ld (lumps/%s "
				       "holds %ld heroes)", view, h.max, i, dt0->name, (long)(dt0->len /
				       rg_recsize(ar, &rg_kinds[1].l[0])));
	return h.max >= next ? 1 : 0;
}

int rpg_grow_reld_done(struct gfs_archive *ar, struct rpg_lump *l)
{
	struct rg_heroes h = { .max = -1, .bad = -1 };
	struct gfs_buf b = GFS_BUF_INIT;
	struct rpg_lump *dt0;
	long cnt = rg_count(ar, &rg_kinds[1], &dt0);
	char err[160];
	int r = rpg_lump_read(ar, l, &b);

	if (!r && cnt >= 0 && !reld_walk(b.data, b.len, rg_hero_visit, &h, err, sizeof(err)) && h.max >= cnt) {
		r = rg_grow_to(ar, &rg_kinds[1], (size_t)h.max + 1, NULL, 0);
		ar->changed = 1;
	}
	gfs_buf_release(&b);
	return r;
}
