/*
 * Text fields of OHRRPGCE records (specs/ohrrpgce-lumps.md 4), the name
 * lists they make (names/<kind>.txt: rpg_views.c; the names references
 * show: rpg_record_name) and the text boxes, textboxes/NNNN.txt (a SAY
 * record: its 8 lines, then its 2 choices).
 *
 * Text is the game font's glyph numbers: printable ASCII as itself, "\\"
 * as \\, every other byte as \xHH.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpg_draw.h"
#include "rpg_text.h"
#include "gfs_codec.h"

static const struct rpg_namelist rpg_namelists[] = {
	{ ".ITM", "names/items.txt", 12, 200, { TS_BAD, 0, 2, 8 } },
	{ ".DT0", "names/heroes.txt", 10, 636, { TS_BAD, 0, 2, 16 } },
	{ ".DT1", "names/enemies.txt", 11, 320, { TS_BAD, 0, 2, 16 } },
	{ ".DT6", "names/attacks.txt", -1, 80, { TS_BAD, 48, 52, 10 } },
	{ ".TMN", "names/tags.txt", -1, 42, { TS_BAD, 0, 2, 20 } },
	{ ".MN", "names/maps.txt", -1, 80, { TS_BYTE, 0, 1, 39 } },
	{ ".SHO", "names/shops.txt", -1, 40, { TS_BAD, 0, 2, 15 } },
	{ "SONGDATA.BIN", "names/songs.txt", -1, 32, { TS_BIN, 0, 2, 30 } },
	{ "SFXDATA.BIN", "names/sfx.txt", -1, 34, { TS_BIN, 0, 2, 30 } },
	{ "BROWSE.TXT", "browse.txt", -1, 40, { TS_BIN, 0, 2, 38 } },
};

static const struct rpg_tfield say_fields[] = {
	{ TS_PAD, 0, 0, 38 }, { TS_PAD, 0, 38, 38 }, { TS_PAD, 0, 76, 38 }, { TS_PAD, 0, 114, 38 },
	{ TS_PAD, 0, 152, 38 }, { TS_PAD, 0, 190, 38 }, { TS_PAD, 0, 228, 38 }, { TS_PAD, 0, 266, 38 },
	{ TS_PAD, 0, 349, 15 }, { TS_PAD, 0, 367, 15 },
};

size_t rpg_tf_get(const struct rpg_tfield *f, const uint8_t *rec, uint8_t *out)
{
	size_t n = 0;

	switch (f->style) {
	case TS_BAD:
	case TS_BIN: {
		int16_t len = (int16_t)gfs_le16(rec + f->lenoff);

		n = len < 0 ? 0 : (size_t)len > f->max ? f->max : (size_t)len;
		for (size_t i = 0; i < n; i++)
			out[i] = f->style == TS_BAD ? rec[f->dataoff + 2 * i] : rec[f->dataoff + i];
		break;
	}
	case TS_BYTE:
		n = rec[f->lenoff] > f->max ? f->max : rec[f->lenoff];
		memcpy(out, rec + f->dataoff, n);
		break;
	case TS_PAD:
		n = f->max;
		while (n && !rec[f->dataoff + n - 1])
			n--;
		memcpy(out, rec + f->dataoff, n);
		break;
	}
	return n;
}

void rpg_tf_put(const struct rpg_tfield *f, uint8_t *rec, const uint8_t *s, size_t n)
{
	switch (f->style) {
	case TS_BAD:
		gfs_put_u16le(rec + f->lenoff, (uint16_t)n);
		for (size_t i = 0; i < f->max; i++)
			gfs_put_u16le(rec + f->dataoff + 2 * i, i < n ? s[i] : 0);
		break;
	case TS_BIN:
		gfs_put_u16le(rec + f->lenoff, (uint16_t)n);
		memset(rec + f->dataoff, 0, f->max);
		memcpy(rec + f->dataoff, s, n);
		break;
	case TS_BYTE:
		rec[f->lenoff] = (uint8_t)n;
		memset(rec + f->dataoff, 0, f->max);
		memcpy(rec + f->dataoff, s, n);
		break;
	case TS_PAD:
		memset(rec + f->dataoff, 0, f->max);
		memcpy(rec + f->dataoff, s, n);
		break;
	}
}

unsigned rpg_tf_end(const struct rpg_tfield *f)
{
	unsigned e = f->style == TS_BAD ? f->dataoff + 2 * f->max : f->dataoff + f->max;

	return e > f->lenoff + 2u ? e : f->lenoff + 2u;
}

int rpg_put_text(struct gfs_buf *b, const uint8_t *s, size_t n)
{
	int r = 0;

	for (size_t i = 0; !r && i < n; i++) {
		if (s[i] == '\\')
			r = gfs_buf_adds(b, "\\\\");
		else if (s[i] >= 0x20 && s[i] < 0x7f)
			r = gfs_buf_addc(b, s[i]);
		else
			r = gfs_buf_printf(b, "\\x%02x", s[i]);
	}
	return r;
}

int rpg_get_text(const char *s, const char *e, uint8_t *out, size_t max, size_t *n)
{
	*n = 0;
	while (s < e) {
		uint8_t c = (uint8_t)*s++;

		if (c == '\\') {
			int h, l;

			if (s < e && *s == '\\') {
				s++;
			} else if (e - s >= 3 && s[0] == 'x' && (h = gfs_hex_digit(s[1])) >= 0 &&
				   (l = gfs_hex_digit(s[2])) >= 0) {
				c = (uint8_t)(h << 4 | l);
				s += 3;
			} else {
				return -1;
			}
		} else if (c < 0x20 || c >= 0x7f) {
			return -1;
		}
		if (*n >= max)
			return -2;
		out[(*n)++] = c;
	}
	return 0;
}


const struct rpg_namelist *rpg_namelist_of(struct rpg_model *m, const struct rpg_lump *l)
{
	for (size_t i = 0; i < sizeof(rpg_namelists) / sizeof(rpg_namelists[0]); i++)
		if (rpg_lump_is(m, l, rpg_namelists[i].lump))
			return &rpg_namelists[i];
	return NULL;
}

/* ---- name lists ------------------------------------------------------------ */

unsigned rpg_nl_recsize(struct gfs_archive *ar, const struct rpg_namelist *d)
{
	unsigned rs = d->binsize_idx >= 0 ? rpg_binsize(ar, (unsigned)d->binsize_idx, d->recsize) : d->recsize;

	return rs ? rs : d->recsize;
}

/*
 * The name of record id of the name list of lump (".ITM", "SONGDATA.BIN":
 * rpg_namelists[]), escaped as names/ shows it, appended to out: 0, or
 * -ENOENT when the game has no such record.
 */
int rpg_record_name(struct gfs_archive *ar, const char *lump, long id, struct gfs_buf *out)
{
	for (size_t k = 0; k < sizeof(rpg_namelists) / sizeof(rpg_namelists[0]); k++) {
		const struct rpg_namelist *d = &rpg_namelists[k];
		unsigned rs, end = rpg_tf_end(&d->f);
		uint8_t rec[256], txt[256];
		struct rpg_lump *l = strcmp(d->lump, lump) ? NULL : rpg_kind_lump(ar->priv, lump);

		if (!l)
			continue;
		rs = rpg_nl_recsize(ar, d);
		if (id < 0 || rs < end || end > sizeof(rec) || rpg_lump_range(ar, l, (uint64_t)id * rs, end, rec))
			return -ENOENT;
		return rpg_put_text(out, txt, rpg_tf_get(&d->f, rec, txt));
	}
	return -ENOENT;
}

/* ---- text boxes ------------------------------------------------------------ */

unsigned rpg_say_recsize(struct gfs_archive *ar)
{
	unsigned rs = rpg_binsize(ar, 8, 400);

	return rs ? rs : 400;
}

static int rpg_say_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	unsigned rs = rpg_say_recsize(ar);
	uint8_t txt[64], rec[SAY_MIN];
	int r = v->l ? 0 : -ENOENT;

	if (v->fresh && gfs_node_is_open(n))
		return 0;	/* created: empty until written (or closed unwritten) */
	v->fresh = 0;
	/* only this box's text bytes: a stat walk of a thousand boxes reads no lump whole */
	if (!r && (rs < SAY_MIN || rpg_lump_range(ar, v->l, (uint64_t)v->rec * rs, SAY_MIN, rec)))
		r = gfs_err(ar, -EIO, "text box %zu: not in the lump any more", v->rec);
	for (size_t i = 0; !r && i < sizeof(say_fields) / sizeof(say_fields[0]); i++) {
		size_t len = rpg_tf_get(&say_fields[i], rec, txt);

		if (i >= SAY_LINES)
			r = gfs_buf_adds(out, len ? "choice: " : "choice:");
		if (!r)
			r = rpg_put_text(out, txt, len);
		if (!r)
			r = gfs_buf_addc(out, '\n');
	}
	return r;
}

static int rpg_say_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_vpriv *v = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	unsigned rs = rpg_say_recsize(ar);
	const char *p = (const char *)data, *end = p + len;
	size_t nf = sizeof(say_fields) / sizeof(say_fields[0]), i = 0;
	int r = v->l ? rpg_lump_read(ar, v->l, &b) : -ENOENT;

	v->fresh = 0;
	if (!r && (rs < SAY_MIN || (v->rec + 1) * rs > b.len))
		r = gfs_err(ar, -EIO, "text box %zu: not in the lump any more", v->rec);
	for (; !r && p < end; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end, *s = p;
		const struct rpg_tfield *f = &say_fields[i < nf ? i : 0];
		uint8_t old[64], txt[64];
		size_t olen, tlen;
		int e;

		if (le > p && le[-1] == '\r')
			le--;
		if (i >= nf) {
			r = gfs_err(ar, -EINVAL, "%s: line %zu: a box has %d lines and 2 choices (%zu lines)",
				    n->name, i + 1, SAY_LINES, nf);
			break;
		}
		if (i >= SAY_LINES) {
			if (le - s < 7 || memcmp(s, "choice:", 7)) {
				r = gfs_err(ar, -EINVAL, "%s: line %zu: want \"choice: TEXT\"", n->name, i + 1);
				break;
			}
			s += 7;
			if (s < le && *s == ' ')
				s++;
		}
		e = rpg_get_text(s, le, txt, f->max, &tlen);
		if (!e && memchr(txt, 0, tlen) && tlen && !txt[tlen - 1])
			e = -1;
		if (e) {
			r = gfs_err(ar, -EINVAL, e == -2 ? "%s: line %zu: longer than %u characters" :
				    "%s: line %zu: a byte outside printable ASCII, a bad escape (\\\\ or \\xHH) or a final \\x00",
				    n->name, i + 1, f->max);
			break;
		}
		olen = rpg_tf_get(f, b.data + v->rec * rs, old);
		if (olen != tlen || memcmp(old, txt, tlen))
			rpg_tf_put(f, b.data + v->rec * rs, txt, tlen);
		p = nl ? nl + 1 : end;
	}
	for (uint8_t old[64]; !r && i < nf; i++)	/* lines not written: empty (echo TEXT > a new box) */
		if (rpg_tf_get(&say_fields[i], b.data + v->rec * rs, old))
			rpg_tf_put(&say_fields[i], b.data + v->rec * rs, old, 0);
	return rpg_lump_done(ar, v->l, &b, r);
}

RPG_VIEW_OPS(rpg_say);

int rpg_say_add(struct gfs_archive *ar, struct rpg_lump *l, size_t rec)
{
	struct gfs_node *dir = rpg_subdir(ar, "textboxes");
	char nm[32];

	snprintf(nm, sizeof(nm), "%04zu.txt", rec);
	return dir ? rpg_add_view(ar, l, dir, nm, &rpg_say_ops, rec, NULL) : -ENOMEM;
}
