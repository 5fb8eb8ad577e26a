/*
 * Decoded views of an OHRRPGCE game's lumps (specs/ohrrpgce-lumps.md).
 *
 *   reload/<name>.txt  every lump holding a RELOAD document (RELD magic) as
 *                      the lossless text of reload.c
 *   names/<kind>.txt   one line per record, "id<TAB>name": items, heroes,
 *                      enemies, attacks, shops, tags, maps, songs, sfx
 *   browse.txt         BROWSE.TXT: the long name and the about line
 *   strings.txt        <arch>.STT: "index<TAB>text", the known global strings
 *   textboxes/NNNN.txt each SAY record: its 8 lines, then its 2 choices
 *                      (rpg_text.c, with the text fields and name lists)
 *   maps/NN-name/      tiles-L.csv (.T##), walls.csv (.P##), foes.csv (.E##),
 *                      zones.txt (.Z##, RELOAD text); the record views there
 *                      and in game/ are rpg_maps.c's, map.tmx, map.png
 *                      and maps/tilesets/ rpg_tiled.c's
 * Graphics (tilesets/, sprites/, palettes/, font.png) are rpg_gfx.c's.
 *
 * Text is the game font's glyph numbers: printable ASCII as itself, "\\"
 * as \\, every other byte as \xHH.  Writing a view back patches only the
 * fields whose text changed into the lump's bytes (garbage after a name's
 * length, padding and every other field stay); a line appended to a name
 * list or strings.txt is a new record (rpg_grow.c), no other count changes.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rpg.h"
#include "reload.h"
#include "rpg_grow.h"
#include "rpg_text.h"
#include "rpg_tmap.h"
#include "gfs_grid.h"
#include "gfs_codec.h"

#define HEROES_RELD "HEROES.RELD"

/* ---- RELOAD documents ---------------------------------------------------- */

static int rpg_reload_ok(struct gfs_archive *ar, struct rpg_lump *l)
{
	struct gfs_buf b = GFS_BUF_INIT;
	char err[160];
	uint8_t head[4];
	int ok = 0;

	/* at load: look at the magic before reading a lump whole */
	if (l->len < 13 || gfs_pread(ar, head, sizeof(head), l->off) || memcmp(head, RELD_MAGIC, 4))
		return 0;
	if (rpg_lump_read(ar, l, &b) || !reld_magic(b.data, b.len))
		goto out;
	ok = reld_to_text(b.data, b.len, NULL, err, sizeof(err)) == 0;
	if (!ok)
		gfs_warn(ar, "lump %s: RELOAD document not shown as text: %s", l->name, err);
out:
	gfs_buf_release(&b);
	return ok;
}

static char *rpg_reload_name(const struct rpg_lump *l)
{
	size_t n = strlen(l->name);
	char *s = malloc(n + 5);

	if (!s)
		return NULL;
	for (size_t i = 0; i <= n; i++)
		s[i] = (char)tolower((unsigned char)l->name[i]);
	if (n > 5 && !strcmp(s + n - 5, ".reld"))
		n -= 5;
	strcpy(s + n, ".txt");
	return s;
}

static int rpg_reload_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	char err[160];
	int r = v->l ? rpg_lump_read(ar, v->l, &b) : -ENOENT;

	if (!r && (r = reld_to_text(b.data, b.len, out, err, sizeof(err))) != 0 && r != -ENOMEM)
		r = gfs_err(ar, -EIO, "lump %s: %s", v->l->name, err);
	gfs_buf_release(&b);
	return r;
}

static int rpg_heroes_superseded(struct gfs_archive *ar);

static int rpg_reload_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_buf bin = GFS_BUF_INIT;
	char err[200];
	int r = v->l ? reld_from_text(data, len, &bin, err, sizeof(err)) : -ENOENT, grow;

	if (r == -EINVAL)
		r = gfs_err(ar, -EINVAL, "reload/%s: %s", n->name, err);
	grow = r ? 0 : rpg_grow_reld(ar, v->l, bin.data, bin.len, n->name);	/* a new hero: .DT0 follows */
	if ((r = rpg_lump_done(ar, v->l, &bin, grow < 0 ? grow : r)) || !rpg_lump_is(ar->priv, v->l, HEROES_RELD))
		return r;
	return (r = grow ? rpg_grow_reld_done(ar, v->l) : 0) ? r : rpg_heroes_superseded(ar);
}

RPG_VIEW_OPS(rpg_reload);

/* ---- name lists ------------------------------------------------------------ */

/*
 * A list view, one line a text field: "id<TAB>text".  Its lines over the
 * lump's current length: the records of a name list, the known strings of
 * STT.  Lines are neither added, removed nor moved.
 */
struct rpg_tline {
	size_t id;		/* shown before the tab */
	size_t off;		/* of the record the field is in */
	struct rpg_tfield f;
};

/* The lines of view n over a lump of len bytes: *lines malloc'd (NULL when none). */
static int rpg_tlines(struct gfs_archive *ar, struct gfs_node *n, size_t len, struct rpg_tline **lines, size_t *count);
static int rpg_stt_grow(struct gfs_archive *ar, const char *view, struct gfs_buf *b, size_t extra);

static int rpg_tlist_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	struct rpg_tline *ls = NULL;
	size_t nl = 0;
	uint8_t txt[256];
	int r = v->l ? rpg_lump_read(ar, v->l, &b) : -ENOENT;

	if (!r)
		r = rpg_tlines(ar, n, b.len, &ls, &nl);
	if (!r && !(n->mode & 0200))	/* superseded (rpg_heroes_superseded) */
		r = gfs_buf_printf(out, "# read-only: the engine reads hero names from lumps/%s (edit reload/heroes.txt), "
				   "not from lumps/%s shown here\n", HEROES_RELD, v->l->name);
	for (size_t i = 0; !r && i < nl; i++) {
		size_t len = rpg_tf_get(&ls[i].f, b.data + ls[i].off, txt);

		r = gfs_buf_printf(out, "%zu\t", ls[i].id);
		if (!r)
			r = rpg_put_text(out, txt, len);
		if (!r)
			r = gfs_buf_addc(out, '\n');
	}
	free(ls);
	gfs_buf_release(&b);
	return r;
}

static int rpg_tlist_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	struct rpg_tline *ls = NULL;
	const char *p = (const char *)data, *end = p + len;
	size_t k = 0, nl = 0;
	unsigned line = 0;
	int r = v->l ? rpg_lump_read(ar, v->l, &b) : -ENOENT;
	size_t had = 0, want = 0;

	if (!r)
		r = rpg_tlines(ar, n, b.len, &ls, &nl);
	for (const char *q = p; !r && q < end; want++) {	/* lines past the last record: new records */
		const char *e = memchr(q, '\n', (size_t)(end - q));

		q = e ? e + 1 : end;
	}
	if (!r && want > nl && !v->desc && !(r = rpg_stt_grow(ar, n->name, &b, want - nl))) {
		free(ls);	/* new global strings: the next known ones */
		ls = NULL;
		r = rpg_tlines(ar, n, b.len, &ls, &nl);
	} else if (!r && want > nl && (had = nl) && !(r = rpg_grow_lines(ar, n->name, v->l, want, &b))) {
		free(ls);
		ls = NULL;
		r = rpg_tlines(ar, n, b.len, &ls, &nl);
	}
	while (!r && p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *le = eol ? eol : end, *tab;
		const struct rpg_tfield *f;
		uint8_t old[256], txt[256];
		size_t olen, tlen;
		char *ep;
		unsigned long id;
		int e;

		line++;
		if (le > p && le[-1] == '\r')
			le--;
		tab = memchr(p, '\t', (size_t)(le - p));
		if (!tab) {
			r = gfs_err(ar, -EINVAL, "%s: line %u: want ID<TAB>TEXT", n->name, line);
			break;
		}
		if (k >= nl) {
			r = gfs_err(ar, -EINVAL, "%s: line %u: the lump has %zu lines' worth", n->name, line, nl);
			break;
		}
		errno = 0;
		id = strtoul(p, &ep, 10);
		if (ep != tab || ep == p || errno || id != ls[k].id) {
			r = gfs_err(ar, -EINVAL, "%s: line %u: want record %zu (a line added is the next record; "
				    "lines are neither removed nor moved)", n->name, line, ls[k].id);
			break;
		}
		f = &ls[k].f;
		e = rpg_get_text(tab + 1, le, txt, f->max, &tlen);
		if (e) {
			r = gfs_err(ar, -EINVAL, e == -2 ? "%s: line %u: longer than %u characters" :
				    "%s: line %u: a byte outside printable ASCII, or a bad escape (\\\\ or \\xHH)",
				    n->name, line, f->max);
			break;
		}
		olen = rpg_tf_get(f, b.data + ls[k].off, old);
		if (olen != tlen || memcmp(old, txt, tlen))
			rpg_tf_put(f, b.data + ls[k].off, txt, tlen);
		k++;
		p = eol ? eol + 1 : end;
	}
	if (!r && k != nl)
		r = gfs_err(ar, -EINVAL, "%s: %zu lines, want %zu", n->name, k, nl);
	free(ls);
	r = had ? rpg_grow_set(ar, v->l, &b, r) : rpg_lump_done(ar, v->l, &b, r);
	return !r && had ? rpg_grow_done(ar, v->l, had) : r;
}

/* ---- global strings ----------------------------------------------------------- */

/*
 * STT: string i at byte i * 11, a length byte then up to max bytes (a long
 * string runs into the following slots).  The known strings, as runs of
 * count indices step apart sharing one maximum (globalstredit.bas's menu).
 */
#define STT_SLOT 11
static const struct { uint16_t first, count, step, max; } stt_runs[] = {
	{ 0, 9, 1, 10 }, { 25, 7, 1, 10 }, { 33, 6, 1, 10 }, { 39, 2, 1, 8 }, { 41, 14, 1, 10 },
	{ 55, 1, 1, 20 }, { 57, 18, 1, 10 }, { 75, 3, 2, 20 }, { 81, 1, 1, 10 }, { 82, 1, 1, 20 },
	{ 84, 1, 1, 10 }, { 85, 7, 2, 20 }, { 99, 1, 1, 10 }, { 100, 5, 2, 20 }, { 110, 1, 1, 10 },
	{ 111, 3, 3, 30 }, { 120, 2, 2, 20 }, { 124, 3, 1, 10 }, { 130, 1, 1, 30 }, { 133, 10, 2, 20 },
	{ 153, 7, 1, 10 }, { 160, 1, 1, 20 }, { 162, 4, 3, 30 }, { 174, 64, 2, 14 }, { 302, 2, 3, 30 },
	{ 308, 1, 1, 10 }, { 309, 1, 1, 30 }, { 313, 1, 1, 10 }, { 314, 8, 2, 20 }, { 330, 1, 1, 16 },
};
#define STT_STRINGS 186

/*
 * strings.txt with extra lines past the last known string the lump holds:
 * the lump grows (zeros) to hold the next extra known strings, as Custom's
 * global string editor writes a string at its slot.
 */
static int rpg_stt_grow(struct gfs_archive *ar, const char *view, struct gfs_buf *b, size_t extra)
{
	size_t end = b->len;

	for (size_t i = 0; extra && i < sizeof(stt_runs) / sizeof(stt_runs[0]); i++)
		for (size_t j = 0; extra && j < stt_runs[i].count; j++) {
			size_t id = stt_runs[i].first + j * stt_runs[i].step, e = id * STT_SLOT + 1 + stt_runs[i].max;

			if (e <= b->len)
				continue;
			end = e > end ? e : end;
			extra--;
		}
	if (extra)
		return gfs_err(ar, -EINVAL, "%s: %zu lines more than the known global strings (the last is %d)",
			       view, extra, 330);
	return gfs_buf_set_len(b, end);
}

static int rpg_tlines(struct gfs_archive *ar, struct gfs_node *n, size_t len, struct rpg_tline **lines, size_t *count)
{
	struct rpg_vpriv *v = n->priv;
	const struct rpg_namelist *d = v->desc;
	size_t rs = d ? rpg_nl_recsize(ar, d) : 0, cap = d ? len / rs : STT_STRINGS;

	*count = 0;
	if (d && rs < rpg_tf_end(&d->f))
		return gfs_err(ar, -EIO, "lump %s: records of %zu bytes cannot hold the name", v->l->name, rs);
	if (cap && !(*lines = calloc(cap, sizeof(**lines))))
		return -ENOMEM;
	if (d) {
		for (size_t i = 0; i < cap; i++)
			(*lines)[i] = (struct rpg_tline){ i, i * rs, d->f };
		*count = cap;
		return 0;
	}
	for (size_t i = 0; i < sizeof(stt_runs) / sizeof(stt_runs[0]); i++)
		for (size_t j = 0; j < stt_runs[i].count; j++) {
			size_t id = stt_runs[i].first + j * stt_runs[i].step;

			if (id * STT_SLOT + 1 + stt_runs[i].max <= len)
				(*lines)[(*count)++] = (struct rpg_tline){ id, id * STT_SLOT, { TS_BYTE, 0, 1, stt_runs[i].max } };
		}
	return 0;
}

RPG_VIEW_OPS(rpg_tlist);

/* ---- map layers ------------------------------------------------------------ */


/* maps/NN-name (name from MN, letters and digits kept, others as '-'), made once. */
static struct gfs_node *rpg_map_dir(struct gfs_archive *ar, long map)
{
	struct rpg_model *m = ar->priv;
	struct gfs_node *maps = gfs_node_child(ar, ar->root, "maps");
	char nm[80], mn[80] = "";
	size_t k = 0;

	if (!maps && !(maps = gfs_node_new_dir(ar, ar->root, "maps")))
		return NULL;
	for (size_t i = 0; i < m->n; i++) {
		struct rpg_lump *l = m->lumps[i];
		struct gfs_buf b = GFS_BUF_INIT;

		if (rpg_lump_is(m, l, ".MN") && !rpg_lump_read(ar, l, &b) && (size_t)(map + 1) * 80 <= b.len) {
			const uint8_t *rec = b.data + map * 80;
			size_t len = rec[0] > 39 ? 39 : rec[0];
			int dash = 0;

			for (size_t j = 0; j < len && k < 40; j++) {
				if (isalnum(rec[1 + j])) {
					if (dash && k)
						mn[k++] = '-';
					mn[k++] = (char)tolower(rec[1 + j]);
					dash = 0;
				} else {
					dash = 1;
				}
			}
			mn[k] = 0;
		}
		gfs_buf_release(&b);
	}
	snprintf(nm, sizeof(nm), k ? "%02ld-%s" : "%02ld", map, mn);
	for (size_t i = 0; i < maps->nkids; i++)
		if (!strcmp(maps->kids[i]->name, nm))
			return maps->kids[i];
	return gfs_node_new_dir(ar, maps, nm);
}

/* The views in map dir of l, a lump of map (its letter): layers, zones, records. */
static int rpg_map_lump_views(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_node *dir, long map, char letter)
{
	unsigned w, h, layers;
	int r = 0;

	if (l->kind == RPG_K_RELOAD || l->kind == RPG_K_REC)
		return l->kind == RPG_K_REC ? rpg_maps_build(ar, l, dir, map) :
		       rpg_add_view(ar, l, dir, "zones.txt", &rpg_reload_ops, 0, NULL);
	if (!rpg_map_lump_dims(ar, l, l->data ? l->data->len : l->len, &w, &h, &layers))
		return 0;
	for (unsigned k = 0; !r && k < layers; k++) {
		char nm[32];

		if (letter == 'T')
			snprintf(nm, sizeof(nm), "tiles-%u.csv", k);
		else
			snprintf(nm, sizeof(nm), layers > 1 ? "%s-%u.csv" : "%s.csv", letter == 'P' ? "walls" : "foes", k);
		r = rpg_add_view(ar, l, dir, nm, &rpg_layer_ops, k, NULL);
	}
	return !r && letter == 'T' ? rpg_maps_build(ar, l, dir, map) : r;
}

int rpg_views_map(struct gfs_archive *ar, long map, struct gfs_node *dir)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *t = NULL;
	int r = 0;

	for (size_t i = 0; i < m->n && !r; i++) {
		struct rpg_lump *l = m->lumps[i];
		char letter;

		if ((l->kind == RPG_K_MAP || l->kind == RPG_K_RELOAD || l->kind == RPG_K_REC) &&
		    rpg_map_of(m, l->name, &letter) == map && (l->kind != RPG_K_RELOAD || letter == 'Z')) {
			r = rpg_map_lump_views(ar, l, dir, map, letter);
			t = letter == 'T' && l->kind == RPG_K_MAP ? l : t;
		}
	}
	return !r && t ? rpg_tiled_build(ar, t, dir, map) : r;
}

/* ---- which lumps, and the tree ------------------------------------------- */



int rpg_view_kind(struct gfs_archive *ar, struct rpg_lump *l)
{
	struct rpg_model *m = ar->priv;

	if (rpg_namelist_of(m, l))
		return RPG_K_NAMES;
	if (rpg_lump_is(m, l, ".SAY"))
		return RPG_K_SAY;
	if (rpg_scripts_kind(ar, l))
		return RPG_K_SCRIPTS;
	if (rpg_records_kind(ar, l))
		return RPG_K_RECORDS;
	if (rpg_lump_is(m, l, ".STT") && l->len >= STT_SLOT)
		return RPG_K_STT;
	if (rpg_gfx_kind(ar, l))
		return RPG_K_GFX;
	if (rpg_maps_kind(ar, l))
		return RPG_K_REC;
	{
		char letter;
		unsigned w, h;

		if (rpg_map_of(m, l->name, &letter) >= 0 && (letter == 'T' || letter == 'P' || letter == 'E') &&
		    rpg_map_lump_dims(ar, l, l->len, &w, &h, NULL))
			return RPG_K_MAP;
	}
	if (l->len >= 13 && rpg_reload_ok(ar, l))
		return RPG_K_RELOAD;
	return RPG_K_NONE;
}

/* ---- one truth: HEROES.RELD over .DT0 --------------------------------------- */

/* The hero ids HEROES.RELD holds: its root's "hero = N" children */
struct rpg_heroids {
	uint8_t *has;
	size_t n, any;
};

static int rpg_hero_visit(void *ctx, const struct reld_node *nd)
{
	struct rpg_heroids *h = ctx;

	if (nd->depth == 1 && nd->namelen == 4 && !memcmp(nd->name, "hero", 4) && nd->type >= 1 && nd->type <= 4 &&
	    nd->i >= 0 && (uint64_t)nd->i < h->n) {
		h->has[nd->i] = 1;
		h->any++;
	}
	return 0;
}

/*
 * The engine reads a hero from HEROES.RELD when it holds that hero, else
 * from .DT0 (specs/ohrrpgce-lumps.md 1.2): the .DT0 views of the heroes it
 * holds (heroes/NNN.ini) and names/heroes.txt, when it holds any, are
 * read-only, so that reload/heroes.txt is the one editable truth.
 */
static int rpg_heroes_superseded(struct gfs_archive *ar)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *reld = rpg_lump_named(m, HEROES_RELD), *dt0 = NULL;
	struct gfs_buf b = GFS_BUF_INIT;
	struct rpg_heroids h = { NULL, 0, 0 };
	char err[200];

	for (size_t i = 0; i < m->n && !dt0; i++)
		if (rpg_lump_is(m, m->lumps[i], ".DT0"))
			dt0 = m->lumps[i];
	if (!reld || reld->kind != RPG_K_RELOAD || !dt0 || !dt0->nviews)
		return 0;
	h.n = dt0->len;		/* more than its records */
	if (!(h.has = calloc(h.n, 1)))
		return -ENOMEM;
	/* a document that does not decode supersedes nothing gamefs can tell */
	if (!rpg_lump_read(ar, reld, &b))
		(void)reld_walk(b.data, b.len, rpg_hero_visit, &h, err, sizeof(err));
	for (size_t i = 0; i < dt0->nviews; i++) {
		struct gfs_node *n = dt0->views[i];
		const struct rpg_vpriv *v = n->priv;

		int ro = (v->desc == rpg_namelist_of(m, dt0) && h.any) || (v->rec < h.n && h.has[v->rec]);

		n->mode = S_IFREG | (ro ? 0444 : 0644);
	}
	gfs_buf_release(&b);
	free(h.has);
	return 0;
}

int rpg_views_build(struct gfs_archive *ar)
{
	struct rpg_model *m = ar->priv;
	int r = 0;

	/* the order of the tree: browse.txt, strings.txt, names/, textboxes/, maps/, reload/, then graphics */
	for (int pass = 0; pass < 6 && !r; pass++)
		for (size_t i = 0; i < m->n && !r; i++) {
			struct rpg_lump *l = m->lumps[i];
			const struct rpg_namelist *d = l->kind == RPG_K_NAMES ? rpg_namelist_of(m, l) : NULL;

			if (pass == 0 && d && !strchr(d->view, '/')) {
				r = rpg_add_view(ar, l, ar->root, d->view, &rpg_tlist_ops, 0, d);
			} else if (pass == 0 && l->kind == RPG_K_STT) {
				r = rpg_add_view(ar, l, ar->root, "strings.txt", &rpg_tlist_ops, 0, NULL);
			} else if (pass == 1 && d && strchr(d->view, '/')) {
				struct gfs_node *dir = rpg_subdir(ar, "names");

				r = dir ? rpg_add_view(ar, l, dir, strchr(d->view, '/') + 1, &rpg_tlist_ops, 0, d) : -ENOMEM;
			} else if (pass == 2 && l->kind == RPG_K_SAY) {
				unsigned rs = rpg_say_recsize(ar);
				struct gfs_node *dir = rs >= SAY_MIN && l->len >= rs ? rpg_subdir(ar, "textboxes") : NULL;

				for (size_t k = 0; dir && !r && (k + 1) * rs <= l->len; k++)
					r = rpg_say_add(ar, l, k);
			} else if (pass == 3 && (l->kind == RPG_K_MAP || l->kind == RPG_K_RELOAD || l->kind == RPG_K_REC)) {
				char letter;
				long map = rpg_map_of(m, l->name, &letter);
				struct gfs_node *dir;

				if (map < 0 || (l->kind == RPG_K_RELOAD && letter != 'Z'))
					continue;
				if (!(dir = rpg_map_dir(ar, map)))
					return -ENOMEM;
				r = rpg_map_lump_views(ar, l, dir, map, letter);
			} else if (pass == 5 && (l->kind == RPG_K_GFX || l->kind == RPG_K_RELOAD)) {
				r = rpg_gfx_build(ar, l);
			} else if (pass == 4 && l->kind == RPG_K_RELOAD) {
				struct gfs_node *dir;
				char letter, *nm;

				if (rpg_map_of(m, l->name, &letter) >= 0 && letter == 'Z')
					continue;
				dir = rpg_subdir(ar, "reload");
				nm = rpg_reload_name(l);

				r = dir && nm ? rpg_add_view(ar, l, dir, nm, &rpg_reload_ops, 0, NULL) : -ENOMEM;
				free(nm);
			}
		}
	/* each map's Tiled views after its CSVs and records */
	for (size_t i = 0; i < m->n && !r; i++) {
		struct rpg_lump *l = m->lumps[i];
		char letter;
		long map = l->kind == RPG_K_MAP ? rpg_map_of(m, l->name, &letter) : -1;
		struct gfs_node *dir;

		if (map >= 0 && letter == 'T')
			r = (dir = rpg_map_dir(ar, map)) ? rpg_tiled_build(ar, l, dir, map) : -ENOMEM;
	}
	if (!r)
		r = rpg_tiled_sets(ar);
	if (!r)
		r = rpg_maps_build_game(ar);
	if (!r)
		r = rpg_records_build(ar);
	if (!r)
		r = rpg_heroes_superseded(ar);
	return r ? r : rpg_scripts_build(ar);
}

void rpg_views_drop(struct gfs_archive *ar, struct rpg_lump *l)
{
	for (size_t i = 0; i < l->nviews; i++) {
		struct gfs_node *n = l->views[i];
		int open = gfs_node_is_open(n);

		/* an open view keeps its content (rendered now); a closed one is freed */
		gfs_node_remove(ar, n);
		if (open)
			((struct rpg_vpriv *)n->priv)->l = NULL;
	}
	l->nviews = 0;
}

/* ---- check ------------------------------------------------------------------- */

size_t rpg_views_check(struct gfs_archive *ar, FILE *out)
{
	struct rpg_model *m = ar->priv;
	static const struct { const char *lump; unsigned gen; const char *what; } counts[] = {
		{ ".ITM", 82, "items" }, { ".DT0", 35, "heroes" }, { ".DT1", 36, "enemies" },
		{ ".DT6", 34, "attacks" }, { ".SHO", 97, "shops" }, { ".SAY", 39, "text boxes" },
	};
	size_t warn = 0;
	long maxmap = -1;

	/* a map's tile, wall and foe layers of different sizes */
	for (size_t i = 0; i < m->n; i++) {
		struct rpg_lump *t = m->lumps[i];
		char lt, lo;
		long map = t->kind == RPG_K_MAP ? rpg_map_of(m, t->name, &lt) : -1;
		unsigned w1, hh1, w2, hh2;

		if (map < 0 || lt != 'T')
			continue;
		if (map > maxmap)
			maxmap = map;
		if (!rpg_map_lump_dims(ar, t, t->len, &w1, &hh1, NULL))
			continue;
		for (size_t j = 0; j < m->n; j++) {
			struct rpg_lump *o = m->lumps[j];

			if (o->kind != RPG_K_MAP || rpg_map_of(m, o->name, &lo) != map || lo == 'T' ||
			    !rpg_map_lump_dims(ar, o, o->len, &w2, &hh2, NULL))
				continue;
			if (w1 != w2 || hh1 != hh2) {
				fprintf(out, "warning: map %ld: %s is %ux%u, %s is %ux%u\n", map, t->name, w1, hh1,
					o->name, w2, hh2);
				warn++;
			}
		}
	}
	/* GEN's last-record fields against the lumps */
	if (maxmap >= 0 && rpg_gen(ar, m, 0) >= 0 && rpg_gen(ar, m, 0) != maxmap) {
		fprintf(out, "warning: GEN says the last map is %ld, the tile maps go to %ld\n", rpg_gen(ar, m, 0), maxmap);
		warn++;
	}
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		char nm[RPG_NAME_MAX + 8];
		struct rpg_lump *l;
		unsigned rs;
		long last = rpg_gen(ar, m, counts[c].gen);

		snprintf(nm, sizeof(nm), "%s%s", m->archinym, counts[c].lump);
		if (!(l = rpg_lump_named(m, nm)) || last < 0)
			continue;
		if (c == 5)
			rs = rpg_say_recsize(ar);
		else
			rs = rpg_nl_recsize(ar, rpg_namelist_of(m, l));
		if (rs && (uint64_t)(last + 1) * rs > l->len) {
			fprintf(out, "warning: GEN says the last of the %s is %ld, %s holds %llu records\n",
				counts[c].what, last, l->name, (unsigned long long)(l->len / rs));
			warn++;
		}
	}
	return warn + rpg_maps_check(ar, out);
}
