/*
 * tng_logic.c - the game logic of a TirNanoG game as text: scripts as
 * assembly (<kind>/<NNNN>.tngs), with references resolved by name against
 * the model.
 *
 * Startup scripts (section 24) and default actions (section 26) are script
 * assets: the whole inflated asset is bytecode.  An edited script is
 * assembled, and the asset re-deflated at commit like any record.
 */
#include <errno.h>
#include <string.h>
#include "tng.h"
#include "tng_script.h"

/* The section type whose assets a reference kind names; 0 for none. */
static unsigned ref_section(enum tngs_ref k)
{
	switch (k) {
	case TNGS_MUSIC: return 3;
	case TNGS_SOUND: return 4;
	case TNGS_SPEECH: return 1;
	case TNGS_CHOOSER: return 22;
	case TNGS_CUTSCENE: return 23;
	case TNGS_DIALOG: return 30;
	case TNGS_CRAFT: return 32;
	default: return 0;
	}
}

/* Does asset a belong to what kind k names? */
static int ref_asset_is(const struct tng *t, const struct tng_asset *a, enum tngs_ref k)
{
	unsigned type = t->secs[a->sec].type;

	switch (k) {
	case TNGS_MAP:
		return a->kind == TNG_A_MAP;
	case TNGS_QUEST:	/* section 35, or 34 when the game numbers them the other way */
		return (type == 34 || type == 35) && a->kind == TNG_A_ZBIN;
	case TNGS_SPEECH:
		return type == 1 && a->kind == TNG_A_STORED;
	default:
		return ref_section(k) && type == ref_section(k);
	}
}

/* Calls fn(t, nameoff, ctx) for each attribute's name in section 25; stops at non-zero. */
static int each_attr(struct tng *t, int (*fn)(struct tng *t, uint32_t off, void *ctx), void *ctx)
{
	for (size_t i = 0; i < t->nsecs; i++) {
		size_t len, p = 19, n, r;
		const uint8_t *d;

		if (t->secs[i].type != 25)
			continue;
		d = tng_sec_data(t, i, &len);
		if (len < 19)
			continue;
		n = gfs_le16(d + 17);
		for (r = 0; r < n && p + 7 <= len; r++) {
			int rc = fn(t, gfs_le24(d + p + 1), ctx);

			if (rc)
				return rc;
			switch (d[p]) {
			case 0: p += 7; break;
			case 1: case 3: p = p + 14 <= len ? p + 14 + gfs_le24(d + p + 11) : len; break;
			case 2: case 4: p = p + 9 <= len ? p + 9 + gfs_le16(d + p + 7) : len; break;
			default: return 0;	/* unknown record: the rest cannot be found */
			}
		}
	}
	return 0;
}

struct attr_find {
	uint32_t v;
	const char *s;
	uint32_t found;
};

static int attr_is(struct tng *t, uint32_t off, void *vctx)
{
	struct attr_find *f = vctx;
	size_t n;
	const char *s;

	(void)t;
	if (f->s) {
		s = tng_string_at(t, off, &n);
		if (s && strlen(f->s) == n && !memcmp(s, f->s, n)) {
			f->found = off;
			return 1;
		}
		return 0;
	}
	return off == f->v;
}

static const char *names_name(void *ctx, enum tngs_ref k, uint32_t v)
{
	struct tng *t = ctx;
	size_t n;

	if (k == TNGS_TEXT || k == TNGS_SPRITE || v == 0)
		return NULL;
	if (k == TNGS_ATTR) {
		struct attr_find f = { v, NULL, 0 };

		if (!each_attr(t, attr_is, &f))
			return NULL;
		return tng_string_at(t, v, &n);
	}
	for (size_t i = 0; i < t->nassets; i++)
		if (t->assets[i].nameoff == v && ref_asset_is(t, &t->assets[i], k))
			return tng_string_at(t, v, &n);
	return NULL;
}

static int names_find(void *ctx, enum tngs_ref k, const char *s, uint32_t *v)
{
	struct tng *t = ctx;
	size_t slen = strlen(s), n;
	const char *name;

	if (k == TNGS_ATTR) {
		struct attr_find f = { 0, s, 0 };

		if (!each_attr(t, attr_is, &f))
			return -1;
		*v = f.found;
		return 0;
	}
	for (size_t i = 0; i < t->nassets; i++) {
		const struct tng_asset *a = &t->assets[i];

		if (a->nameoff && ref_asset_is(t, a, k) &&
		    (name = tng_string_at(t, a->nameoff, &n)) && n == slen && !memcmp(name, s, n)) {
			*v = a->nameoff;
			return 0;
		}
	}
	return -1;
}

static int names_exists(void *ctx, enum tngs_ref k, uint32_t v)
{
	struct tng *t = ctx;
	unsigned type = (v >> 16) + 7, idx = v & 0xffff;

	if (k != TNGS_SPRITE || type > 11)
		return 0;
	for (size_t i = 0; i < t->nsecs; i++) {
		size_t len;

		if (t->secs[i].type != type)
			continue;
		(void)tng_sec_data(t, i, &len);
		if (idx < len / TNG_DESC)
			return 1;
		idx -= (unsigned)(len / TNG_DESC);
	}
	return 0;
}

static void tng_names(struct tng *t, struct tngs_names *nm)
{
	nm->name = names_name;
	nm->find = names_find;
	nm->exists = names_exists;
	nm->ctx = t;
}

static int tng_script_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf code = GFS_BUF_INIT;
	struct tngs_names nm;
	int r = tng_asset_content(ar, ref->t, &ref->t->assets[ref->asset], TNG_ZASSET_MAX, &code);

	tng_names(ref->t, &nm);
	if (!r)
		r = tngs_disasm(code.data, code.len, &nm, out);
	gfs_buf_release(&code);
	return r;
}

static int tng_script_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			    size_t len)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	struct gfs_buf *nb = gfs_buf_new();
	struct tngs_names nm;
	unsigned maxcmd = 0;
	char why[256];
	int r;

	if (!nb)
		return -ENOMEM;
	tng_names(t, &nm);
	r = tngs_asm((const char *)data, len, &nm, nb, &maxcmd, why, sizeof why);
	if (r == 0 && nb->len > TNG_ZASSET_MAX)
		r = gfs_err(ar, -EINVAL, "%s/%s: %zu bytes of bytecode is over the %zu-byte limit",
			    n->parent->name, n->name, nb->len, TNG_ZASSET_MAX);
	else if (r == -EINVAL)
		r = gfs_err(ar, -EINVAL, "%s/%s: %s", n->parent->name, n->name, why);
	if (r) {
		gfs_buf_free(nb);
		return r;
	}
	/* header byte 43 names the highest command any script uses */
	if (maxcmd > t->hdr[TNG_OFF_MAXCMD]) {
		t->hdr[TNG_OFF_MAXCMD] = (uint8_t)maxcmd;
		t->hdr_edited = 1;
	}
	tng_set_pending(ar, n, nb);
	return 0;
}

const struct gfs_node_ops tng_script_ops = {
	.render = tng_script_render,
	.store = tng_script_store,
	.free = tng_ref_free,
};
