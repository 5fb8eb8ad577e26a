/*
 * tng.c - the model of a loaded TirNanoG game: its sections, its
 * assets and their current content (pending edits first, then the file),
 * string lookups, the whole-file CRC and the bytes no asset covers.
 *
 * The driver (tng_driver.c), the views (tng_view.c) and the writer (tng_save.c)
 * call down into this file; it calls nothing of theirs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_codec.h"
#include "tng.h"
#include "tng_script.h"

/*
 * The section registry (DESIGN.md section 5): one row a section type, all
 * that the driver knows of it: its name, how it shows, its media
 * extension, its record size, its records' table (tng_records.c), where
 * the scripts inside its records are, which reference kind names its
 * assets, and the column name of its descriptors' last field.
 */
#define K(name, view, ext, recsize, layout, script, ref, index) \
	{ name, view, ext, recsize, layout, script, ref, index }
#define NOREF (-1)
static const struct tng_kind tng_kinds[TNG_S_N] = {
	[TNG_S_STRINGS] = K("strings", TNG_V_STRINGS, NULL, 0, NULL, TNG_R_NONE, NOREF, NULL),
	[TNG_S_LANG] = K("lang", TNG_V_LANG, "ogg", 0, NULL, TNG_R_NONE, TNGS_SPEECH, NULL),
	[TNG_S_FONTS] = K("fonts", TNG_V_MEDIA, "sfn", 0, NULL, TNG_R_NONE, TNGS_FONT, NULL),
	[TNG_S_MUSIC] = K("music", TNG_V_MEDIA, "ogg", 0, NULL, TNG_R_NONE, TNGS_MUSIC, NULL),
	[TNG_S_SOUNDS] = K("sounds", TNG_V_MEDIA, "ogg", 0, NULL, TNG_R_NONE, TNGS_SOUND, NULL),
	[TNG_S_MOVIES] = K("movies", TNG_V_MEDIA, "ogv", 0, NULL, TNG_R_NONE, TNGS_MOVIE, NULL),
	[TNG_S_ATLASES] = K("atlases", TNG_V_IMAGE, "png", 0, NULL, TNG_R_NONE, NOREF, NULL),
	[TNG_S_UISPR] = K("ui", TNG_V_SPRITE, NULL, 0, NULL, TNG_R_NONE, NOREF, NULL),
	[TNG_S_TILESPR] = K("tiles", TNG_V_SPRITE, NULL, 0, NULL, TNG_R_NONE, NOREF, NULL),
	[TNG_S_CHARSPR] = K("chars", TNG_V_SPRITE, NULL, 0, NULL, TNG_R_NONE, NOREF, NULL),
	[TNG_S_PORTRAITS] = K("portraits", TNG_V_SPRITE, NULL, 0, NULL, TNG_R_NONE, NOREF, NULL),
	[TNG_S_BACKS] = K("backs", TNG_V_IMAGE, "png", 0, NULL, TNG_R_NONE, NOREF, NULL),
	[12] = K("reserved", TNG_V_RAW, NULL, 0, NULL, TNG_R_NONE, NOREF, NULL),
	[13] = K("reserved", TNG_V_RAW, NULL, 0, NULL, TNG_R_NONE, NOREF, NULL),
	[14] = K("reserved", TNG_V_RAW, NULL, 0, NULL, TNG_R_NONE, NOREF, NULL),
	[15] = K("reserved", TNG_V_RAW, NULL, 0, NULL, TNG_R_NONE, NOREF, NULL),
	[TNG_S_UIELEM] = K("uielements", TNG_V_RAW, NULL, 0, &tng_uielem_rec, TNG_R_NONE, NOREF, NULL),
	[TNG_S_MAINMENU] = K("mainmenu", TNG_V_RAW, NULL, 0, &tng_mainmenu_rec, TNG_R_NONE, NOREF, NULL),
	[TNG_S_HUD] = K("hud", TNG_V_RAW, NULL, 0, &tng_hud_rec, TNG_R_NONE, NOREF, NULL),
	[TNG_S_EQUIP] = K("equipslots", TNG_V_RAW, NULL, 4, &tng_equip_rec, TNG_R_NONE, NOREF, NULL),
	[TNG_S_ALERTS] = K("alerts", TNG_V_RAW, NULL, 0, &tng_alerts_rec, TNG_R_NONE, NOREF, NULL),
	[TNG_S_CREDITS] = K("credits", TNG_V_RAW, NULL, 0, &tng_credits_rec, TNG_R_NONE, NOREF, NULL),
	[TNG_S_CHOOSERS] = K("choosers", TNG_V_ZBIN, NULL, 0, &tng_chooser_rec, TNG_R_NONE, TNGS_CHOOSER,
			     NULL),
	[TNG_S_CUTSCENES] = K("cutscenes", TNG_V_ZBIN, NULL, 0, &tng_cutscene_rec, TNG_R_CUTSCENE,
			      TNGS_CUTSCENE, NULL),
	[TNG_S_STARTUP] = K("startup", TNG_V_ZBIN, NULL, 0, NULL, TNG_R_WHOLE, NOREF, "interval"),
	[TNG_S_ATTRS] = K("attributes", TNG_V_RAW, NULL, 0, &tng_attrs_rec, TNG_R_NONE, NOREF, NULL),
	[TNG_S_ACTIONS] = K("actions", TNG_V_ZBIN, NULL, 0, NULL, TNG_R_WHOLE, NOREF, "range_attribute"),
	[TNG_S_CHAROPTS] = K("charoptions", TNG_V_ZBIN, NULL, 0, &tng_charopt_rec, TNG_R_NONE, NOREF,
			     NULL),
	[TNG_S_NPCS] = K("npcs", TNG_V_ZBIN, NULL, 0, &tng_npc_rec, TNG_R_NPC, NOREF, NULL),
	[TNG_S_SPAWNERS] = K("spawners", TNG_V_ZBIN, NULL, 0, &tng_spawner_rec, TNG_R_NONE, NOREF, NULL),
	[TNG_S_DIALOGS] = K("dialogs", TNG_V_ZBIN, NULL, 0, &tng_dialog_rec, TNG_R_NONE, TNGS_DIALOG, NULL),
	[TNG_S_OBJECTS] = K("objects", TNG_V_ZBIN, NULL, 0, &tng_object_rec, TNG_R_OBJECT, NOREF,
			    "sprite_index"),
	[TNG_S_CRAFTS] = K("crafts", TNG_V_ZBIN, NULL, 0, &tng_craft_rec, TNG_R_NONE, TNGS_CRAFT, NULL),
	/* record size and layout from the header's transportation methods (tng_records.c) */
	[TNG_S_TILESMETA] = K("tilesmeta", TNG_V_RAW, NULL, 0, NULL, TNG_R_NONE, NOREF, NULL),
	/* quests numbered 34 by some games: told apart by content (map assets are not ZBIN) */
	[TNG_S_MAPS] = K("maps", TNG_V_MAP, NULL, 0, &tng_quest_rec, TNG_R_QUEST, NOREF, NULL),
	[TNG_S_QUESTS] = K("quests", TNG_V_ZBIN, NULL, 0, &tng_quest_rec, TNG_R_QUEST, TNGS_QUEST, NULL),
};

static const struct tng_kind tng_unknown = K("unknown", TNG_V_RAW, NULL, 0, NULL, TNG_R_NONE, NOREF,
					     NULL);
#undef K

const struct tng_kind *tng_kind_of(unsigned type)
{
	return type < TNG_S_N ? &tng_kinds[type] : &tng_unknown;
}

unsigned tng_ref_section(int k)
{
	for (unsigned type = 0; k != NOREF && type < TNG_S_N; type++)
		if (tng_kinds[type].ref == k)
			return type;
	return TNG_S_N;
}
#undef NOREF

unsigned tng_map_size(const struct tng *t)
{
	unsigned l = t->hdr[TNG_OFF_MAPSIZE];

	return l < 16 ? 1u << l : 0;
}

unsigned tng_map_layers(const struct tng *t)
{
	return t->hdr[TNG_OFF_LAYERS];
}

const uint8_t *tng_sec_data(struct tng *t, size_t i, size_t *len)
{
	struct tng_sec *s = &t->secs[i];

	if (s->edit) {
		*len = s->edit->len;
		return s->edit->data;
	}
	*len = s->len;
	return t->block.data + s->off;
}

/* The string at byte offset off of the strings section, or NULL. */
const char *tng_string_at(struct tng *t, uint32_t off, size_t *len)
{
	const uint8_t *p, *nul;
	size_t n;

	if (t->strsec < 0)
		return NULL;
	p = tng_sec_data(t, (size_t)t->strsec, &n);
	if (off >= n)
		return NULL;
	nul = memchr(p + off, 0, n - off);
	if (!nul)
		return NULL;
	*len = (size_t)(nul - (p + off));
	return (const char *)p + off;
}

struct tng_ref *tng_ref_new(struct tng *t, size_t asset, size_t sec, int sub)
{
	struct tng_ref *r = t->refpool_used < t->refpool_len ? &t->refpool[t->refpool_used++]
							      : calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->t = t;
	r->asset = asset;
	r->sec = sec;
	r->sub = sub;
	r->fresh = 0;
	return r;
}

void tng_ref_free(void *p)
{
	tng_ref_release(p);
}

int tng_asset_same(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
		   const uint8_t *p, size_t len)
{
	struct gfs_buf cur = GFS_BUF_INIT;
	int same;

	if (a->pending)
		return a->pending->len == len && !memcmp(a->pending->data, p, len);
	if (a->kind == TNG_A_STORED)
		return tng_stored_equal(ar, t, a, p, len);
	same = !tng_asset_content(ar, t, a, TNG_MAP_MAX, &cur) && cur.len == len &&
	       !memcmp(cur.data, p, len);
	gfs_buf_release(&cur);
	return same;
}

void tng_set_pending(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *nb)
{
	struct tng_ref *ref = n->priv;
	struct tng_asset *a = &ref->t->assets[ref->asset];

	if (tng_asset_same(ar, ref->t, a, nb->data, nb->len)) {
		gfs_buf_free(nb);
		return;
	}
	tng_keep_pending(n, nb);
}

void tng_keep_pending(struct gfs_node *n, struct gfs_buf *nb)
{
	struct tng_ref *ref = n->priv;
	struct tng_asset *a = &ref->t->assets[ref->asset];

	gfs_buf_free(a->pending);
	a->pending = nb;
}

void tng_ref_release(struct tng_ref *r)
{
	uintptr_t p = (uintptr_t)r, pool = r ? (uintptr_t)r->t->refpool : 0;

	if (r && (p < pool || p >= pool + r->t->refpool_len * sizeof(*r)))
		free(r);	/* not one of the pool's: they go with tng_free */
}

/* Read the stored bytes of an asset (capped). */
static int tng_asset_read(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
			  size_t max, struct gfs_buf *out)
{
	int r;

	if (a->len > max)
		return gfs_err_at(ar, -EFBIG, t->base + a->off,
				  "asset of %llu bytes is over the %zu this view allows",
				  (unsigned long long)a->len, max);
	r = gfs_buf_set_len(out, (size_t)a->len);
	if (r)
		return r;
	return gfs_pread(ar, out->data, (size_t)a->len, t->base + a->off);
}

/* Are the stored bytes of asset a equal to p? */
int tng_stored_equal(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
		     const uint8_t *p, size_t len)
{
	uint8_t buf[65536];
	uint64_t off = 0;

	if (a->len != len)
		return 0;
	while (off < len) {
		size_t n = len - off < sizeof(buf) ? (size_t)(len - off) : sizeof(buf);

		if (gfs_pread(ar, buf, n, t->base + a->off + off) || memcmp(buf, p + off, n))
			return 0;
		off += n;
	}
	return 1;
}

/* The same for b, read in pieces: a staged edit's pages stay out of the daemon's memory. */
int tng_stored_equal_buf(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
			 const struct gfs_buf *b)
{
	uint8_t old[65536], cur[65536];

	if (a->len != b->len)
		return 0;
	for (size_t off = 0; off < b->len;) {
		size_t n = gfs_buf_pread(b, cur, sizeof(cur), off);

		if (gfs_pread(ar, old, n, t->base + a->off + off) || memcmp(old, cur, n))
			return 0;
		off += n;
	}
	return 1;
}

/* Deflate wrapping of a compressed asset, from its first bytes. */
int tng_asset_wrap(struct gfs_archive *ar, struct tng *t, struct tng_asset *a)
{
	uint8_t h[2];

	if (a->wrap >= 0)
		return a->wrap;
	a->wrap = GFS_ZLIB;
	if (a->len >= 2 && !gfs_pread(ar, h, 2, t->base + a->off)) {
		if (!gfs_is_zlib(h, sizeof(h)))
			a->wrap = GFS_ZRAW;
	}
	return a->wrap;
}

/*
 * The current content of an asset: the pending edit, else its stored bytes
 * (stored assets) or its inflated bytes (compressed ones, at most max).
 */
int tng_asset_content(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
		      size_t max, struct gfs_buf *out)
{
	struct gfs_buf z = GFS_BUF_INIT;
	enum gfs_zwrap wrap;
	size_t used;
	int r;

	if (a->pending)
		return gfs_buf_add(out, a->pending->data, a->pending->len);
	if (a->kind == TNG_A_STORED)
		return tng_asset_read(ar, t, a, max, out);
	if (a->len == 0)
		return 0;
	r = tng_asset_read(ar, t, a, max, &z);
	if (r)
		goto out;
	r = gfs_inflate(z.data, z.len, max, out, &wrap, &used);
	if (r) {
		r = gfs_err_at(ar, -EIO, t->base + a->off,
			       "asset does not inflate (broken stream or over %zu bytes)", max);
		goto out;
	}
	a->wrap = (int)wrap;
out:
	gfs_buf_release(&z);
	return r;
}

/* CRC-32 of the archive file as it is now, its CRC field counted as zero. */
int tng_file_crc(struct gfs_archive *ar, struct tng *t, uint32_t *crc)
{
	uint8_t *buf = malloc(TNG_CHUNK);
	uint64_t off = 0;
	uint32_t c = 0;
	int r = 0;

	if (!buf)
		return -ENOMEM;
	while (off < t->fsize) {
		size_t n = t->fsize - off < TNG_CHUNK ? (size_t)(t->fsize - off) : TNG_CHUNK;

		r = gfs_pread(ar, buf, n, off);
		if (r) {
			r = gfs_err_at(ar, r, off, "cannot read the archive");
			break;
		}
		for (uint64_t k = TNG_OFF_CRC; k < TNG_OFF_CRC + 4; k++)
			if (k >= off && k < off + n)
				buf[k - off] = 0;
		c = tng_crc32(c, buf, n);
		off += n;
	}
	free(buf);
	*crc = c;
	return r;
}

static int tng_cmp_asset(const void *x, const void *y, void *arg)
{
	const struct tng *t = arg;
	const struct tng_asset *a = &t->assets[*(const size_t *)x];
	const struct tng_asset *b = &t->assets[*(const size_t *)y];

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return 0;
}

/* Indices of the assets with bytes, by offset; *n gets their count. */
struct gfs_buf *tng_sec_edit(struct tng *t, size_t i)
{
	struct tng_sec *s = &t->secs[i];

	if (!s->edit) {
		struct gfs_buf *b = gfs_buf_new();

		if (!b || gfs_buf_add(b, t->block.data + s->off, s->len)) {	/* as loaded */
			gfs_buf_free(b);
			return NULL;
		}
		s->edit = b;
	}
	return s->edit;
}

int tng_string_add(struct tng *t, const char *str, uint32_t *off)
{
	size_t n = strlen(str), len, p = 0;
	const uint8_t *d;
	struct gfs_buf *e;

	if (t->strsec < 0)
		return -EINVAL;
	d = tng_sec_data(t, (size_t)t->strsec, &len);
	while (p < len) {	/* a string start: 0, or just after a NUL */
		const uint8_t *nul = memchr(d + p, 0, len - p);
		size_t sl = nul ? (size_t)(nul - (d + p)) : len - p;

		if (nul && sl == n && !memcmp(d + p, str, n)) {
			*off = (uint32_t)p;
			return 0;
		}
		p += sl + 1;
	}
	if (len + n + 1 > 0xffffff)
		return -EFBIG;
	if (!(e = tng_sec_edit(t, (size_t)t->strsec)))
		return -ENOMEM;
	if (e->len && e->data[e->len - 1] != 0 && gfs_buf_addc(e, 0))	/* a last string without NUL */
		return -ENOMEM;
	*off = (uint32_t)e->len;
	return gfs_buf_add(e, str, n + 1);
}

int tng_asset_rename(struct tng *t, struct tng_asset *a, const char *name)
{
	struct gfs_buf *e;
	uint32_t off;
	int r = tng_string_add(t, name, &off);

	if (r)
		return r;
	if (!(e = tng_sec_edit(t, a->sec)))
		return -ENOMEM;
	gfs_put_u32le(e->data + a->dpos + TNG_DESC_NAME, off);
	a->nameoff = off;
	return 0;
}

int tng_asset_new(struct tng *t, size_t si, uint32_t nameoff, size_t *ai)
{
	struct gfs_buf *e = tng_sec_edit(t, si);
	struct tng_asset *na, *a;
	uint8_t desc[TNG_DESC] = { 0 };
	unsigned num = tng_numbered_next(t, si);	/* removed ones no longer count */

	if (!e)
		return -ENOMEM;
	if (e->len + TNG_DESC > 0xffffff)
		return -EFBIG;
	if (!(na = realloc(t->assets, (t->nassets + 1) * sizeof(*na))))
		return -ENOMEM;
	t->assets = na;
	gfs_put_u32le(desc + TNG_DESC_NAME, nameoff);
	if (gfs_buf_add(e, desc, sizeof desc))
		return -ENOMEM;
	a = &t->assets[t->nassets];
	memset(a, 0, sizeof(*a));
	a->sec = (unsigned)si;
	a->dpos = (uint32_t)(e->len - TNG_DESC);
	a->idx = a->dpos / TNG_DESC;
	a->kind = TNG_A_STORED;
	a->wrap = -1;
	a->num = num;
	a->nameoff = nameoff;
	*ai = t->nassets++;
	return 0;
}

int tng_sec_new(struct tng *t, unsigned type, size_t *si)
{
	struct tng_sec *ns;

	if (t->nsecs >= TNG_BLOCK_MAX / TNG_TABENT)
		return -EFBIG;
	if (!(ns = realloc(t->secs, (t->nsecs + 1) * sizeof(*ns))))
		return -ENOMEM;
	t->secs = ns;
	ns = &t->secs[t->nsecs];
	memset(ns, 0, sizeof(*ns));
	ns->type = (uint8_t)type;
	if (!(ns->edit = gfs_buf_new()))
		return -ENOMEM;
	*si = t->nsecs++;
	t->secs_added = 1;
	return 0;
}

int tng_asset_drop(struct tng *t, size_t ai)
{
	struct tng_asset *a = &t->assets[ai];
	struct gfs_buf *e = tng_sec_edit(t, a->sec);

	if (!e)
		return -ENOMEM;
	memmove(e->data + a->dpos, e->data + a->dpos + TNG_DESC, e->len - a->dpos - TNG_DESC);
	e->len -= TNG_DESC;
	for (size_t i = 0; i < t->nassets; i++)
		if (i != ai && !t->assets[i].gone && t->assets[i].sec == a->sec &&
		    t->assets[i].dpos > a->dpos)
			t->assets[i].dpos -= TNG_DESC;
	gfs_buf_free(a->pending);
	a->pending = NULL;
	a->node = NULL;
	a->gone = 1;
	return 0;
}

size_t *tng_sorted_assets(struct tng *t, size_t *n)
{
	size_t *ord = malloc((t->nassets ? t->nassets : 1) * sizeof(*ord));

	*n = 0;
	if (!ord)
		return NULL;
	for (size_t k = 0; k < t->nassets; k++)
		if (t->assets[k].len)
			ord[(*n)++] = k;
	for (size_t k = 1; k < *n; k++)
		if (tng_cmp_asset(&ord[k - 1], &ord[k], t) > 0) {
			qsort_r(ord, *n, sizeof(*ord), tng_cmp_asset, t);
			break;	/* writers usually store assets in order: no sort then */
		}
	return ord;
}

/*
 * The bytes of the asset area no descriptor covers, in file order, into out
 * (NULL: only count them into *total).  They are kept on save.
 */
int tng_gaps(struct gfs_archive *ar, struct tng *t, struct gfs_buf *out, uint64_t *total)
{
	size_t n, *ord = tng_sorted_assets(t, &n);
	uint64_t prev = 0, area = t->fsize - t->base, sum = 0;
	int r = 0;

	if (!ord)
		return -ENOMEM;
	for (size_t i = 0; i <= n && !r; i++) {
		uint64_t s0 = i < n ? t->assets[ord[i]].off : area;

		if (s0 > prev) {
			sum += s0 - prev;
			if (out && sum > TNG_ZASSET_MAX)
				r = gfs_err(ar, -EFBIG, "over %zu unreferenced bytes", TNG_ZASSET_MAX);
			else if (out && !(r = gfs_buf_set_len(out, out->len + (size_t)(s0 - prev))))
				r = gfs_pread(ar, out->data + out->len - (size_t)(s0 - prev),
					      (size_t)(s0 - prev), t->base + prev);
		}
		if (i < n && t->assets[ord[i]].off + t->assets[ord[i]].len > prev)
			prev = t->assets[ord[i]].off + t->assets[ord[i]].len;
	}
	free(ord);
	*total = sum;
	return r;
}

struct tng_asset *tng_ref_asset(struct gfs_node *n)
{
	struct tng_ref *r = n->priv;

	return &r->t->assets[r->asset];
}

/* ---- numbered assets: atlases/, backs/, sprites/<cat>/ ---- */

long tng_numbered_section(const struct tng *t, const struct gfs_node *dir)
{
	long si = -1;

	for (size_t i = 0; dir && dir->parent && i < t->nsecs; i++) {
		const struct tng_kind *k = tng_kind_of(t->secs[i].type);
		const struct gfs_node *p = dir->parent;

		if (strcmp(dir->name, k->name))
			continue;
		if ((k->view == TNG_V_IMAGE && !p->parent) ||
		    (k->view == TNG_V_SPRITE && p->parent && !p->parent->parent && !strcmp(p->name, "sprites")))
			si = (long)i;	/* the last section of the type takes new assets */
	}
	return si;
}

unsigned tng_numbered_next(const struct tng *t, size_t si)
{
	unsigned num = 0;

	for (size_t i = 0; i < t->nassets; i++)
		num += !t->assets[i].gone && t->secs[t->assets[i].sec].type == t->secs[si].type;
	return num;
}

int tng_numbered_name(struct gfs_archive *ar, const struct tng *t, size_t si, const char *name)
{
	const struct tng_kind *k = tng_kind_of(t->secs[si].type);
	char want[32];

	snprintf(want, sizeof want, "%04u.%s", tng_numbered_next(t, si),
		 k->view == TNG_V_SPRITE ? "txt" : "png");
	if (strcmp(name, want))
		return gfs_err(ar, -EINVAL, "%s: %s%s are numbered: the next is %s", name,
			       k->view == TNG_V_SPRITE ? "sprites/" : "", k->name, want);
	return 0;
}

int tng_numbered_adopt(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	const struct tng_kind *k = tng_kind_of(t->secs[ref->sec].type);
	size_t ai;
	int r;

	if ((r = tng_numbered_name(ar, t, ref->sec, n->name)))
		return r;
	if ((r = tng_asset_new(t, ref->sec, 0, &ai)))
		return r == -EFBIG ? gfs_err(ar, r, "%s: the section block is full", n->name) : r;
	if (k->view == TNG_V_SPRITE) {
		t->assets[ai].kind = TNG_A_SPRITE;
		t->assets[ai].dir = n->parent;
	}
	t->assets[ai].node = n;
	ref->asset = ai;
	ar->changed = 1;
	return 0;
}
