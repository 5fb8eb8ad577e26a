/*
 * tng_walk.c - every script and record table of a TirNanoG game walked:
 * `gamefs check` of the scripts (what their text shows has no meaning) and
 * tng_logic_referrer(), what names a medium or a record.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tng.h"
#include "tng_script.h"

struct check_ctx {
	FILE *out;
	size_t scripts, insns, warnings;
	unsigned maxcmd;
};

/* Warn of what the text of a script shows has no meaning: #N operands, .byte lines. */
static void check_script(struct gfs_archive *ar, struct tng *t, struct check_ctx *c,
			 const char *name, const uint8_t *code, size_t len)
{
	struct gfs_buf text = GFS_BUF_INIT;
	struct tngs_info info;
	const char *p, *end, *nl;
	unsigned line = 0;

	tngs_scan(code, len, &info);
	if (info.maxcmd > c->maxcmd)
		c->maxcmd = info.maxcmd;
	c->scripts++;
	if (tng_script_text(ar, t, code, len, &text) || !text.len) {	/* an empty script: nothing to say */
		gfs_buf_release(&text);
		return;
	}
	for (p = (const char *)text.data, end = p + text.len; p < end; p = nl + 1) {
		const char *why = NULL, *bad;
		int shown;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		line++;
		if (*p != '\t')
			continue;
		shown = (int)(nl - p - 1);
		if (!strncmp(p, "\t.byte", 6) &&
		    (bad = memmem(p, (size_t)(nl - p), ": " TNGS_BAD_JUMP, strlen(": " TNGS_BAD_JUMP)))) {
			why = TNGS_BAD_JUMP;	/* the line shown up to its comment's own saying so */
			shown = (int)(bad - p - 1);
		} else if (!strncmp(p, "\t.byte", 6))
			why = "bytes that do not decode as instructions";
		else if (!strncmp(p, "\tFNC", 4) && memchr(p, '#', (size_t)(nl - p)))
			why = "a command the document does not name, or with the wrong stack arity";
		else if (memchr(p, '#', (size_t)(nl - p)))
			why = "a reference to something the game does not have";
		else
			c->insns++;
		if (why && c->warnings++ < 100)
			fprintf(c->out, "warning: %s line %u: %.*s: %s\n", name, line, shown, p + 1, why);
	}
	gfs_buf_release(&text);
}

/*
 * Calls fn for every script of the game with the name of its file; stops at
 * fn's first non-zero return, which it returns.  A record whose scripts
 * cannot be found is given with code NULL.
 */
static int each_script(struct gfs_archive *ar, struct tng *t,
		       int (*fn)(void *ctx, const char *name, const uint8_t *code, size_t len),
		       void *ctx)
{
	int r = 0;

	for (size_t ai = 0; ai < t->nassets && !r; ai++) {
		struct tng_asset *a = &t->assets[ai];
		enum tng_rkind k = tng_rkind_of(t, a);
		const char *kind = tng_kind_of(t->secs[a->sec].type)->name;
		struct gfs_buf rec = GFS_BUF_INIT;
		struct tng_split s;
		unsigned occ[256] = { 0 };
		char name[TNG_STEM_MAX + 128], file[TNG_STEM_MAX + 64], stem[TNG_STEM_MAX + 8];

		if (k == TNG_R_NONE || a->gone || tng_asset_content(ar, t, a, TNG_ZASSET_MAX, &rec)) {
			gfs_buf_release(&rec);
			continue;
		}
		tng_rec_stem(t, a, stem, sizeof stem);
		if (k == TNG_R_WHOLE) {
			snprintf(name, sizeof name, "%s/%s.tngs", kind, stem);
			r = fn(ctx, name, rec.data, rec.len);
		} else if (tng_split(k, rec.data, rec.len, &s)) {
			snprintf(name, sizeof name, "%s/%s.bin", kind, stem);
			r = fn(ctx, name, NULL, 0);
		} else {
			for (size_t i = 0; i < s.nh && !r; i++) {
				int sub = tng_rkind_lists(k) ? HSUB(s.h[i].type, occ[s.h[i].type]++) : 0;

				tng_hscript_name(k, stem, sub, file, sizeof file);
				snprintf(name, sizeof name, "%s/%s", kind, file);
				r = fn(ctx, name, s.h[i].code, s.h[i].len);
			}
			tng_split_release(&s);
		}
		gfs_buf_release(&rec);
	}
	for (size_t si = 0; si < t->nsecs && !r; si++) {	/* attributes' on-change and expressions */
		size_t len, cnt, cn, n;
		const uint8_t *d = tng_sec_data(t, si, &len), *code;
		uint32_t nameoff;
		const char *s;
		char name[300];
		int sk;

		if (t->secs[si].type != TNG_S_ATTRS || tng_attr_count(d, len, &cnt))
			continue;
		for (size_t k = 0; k < cnt && !r; k++) {
			if ((sk = tng_attr_script(d, len, k, &nameoff, &code, &cn)) <= 0)
				continue;
			s = nameoff ? tng_string_at(t, nameoff, &n) : NULL;
			if (s && n && n < 200)
				snprintf(name, sizeof name, "attributes/%.*s.%s.tngs", (int)n, s,
					 sk == 1 ? "on_change" : "expression");
			else
				snprintf(name, sizeof name, "attributes/%04zu.%s.tngs", k,
					 sk == 1 ? "on_change" : "expression");
			r = fn(ctx, name, code, cn);
		}
	}
	return r;
}

/*
 * Calls fn with every record and section shown as INI: the name of its
 * file, its section type and the bytes its table covers (a record's bytes
 * before its scripts); stops at fn's first non-zero return, which it returns.
 */
static int each_table(struct gfs_archive *ar, struct tng *t,
		      int (*fn)(void *ctx, const char *name, unsigned type, const uint8_t *p,
				size_t len), void *ctx)
{
	char name[TNG_STEM_MAX + 64];
	int r = 0;

	for (size_t ai = 0; ai < t->nassets && !r; ai++) {
		struct tng_asset *a = &t->assets[ai];
		unsigned type = t->secs[a->sec].type;
		enum tng_rkind rk = tng_rkind_of(t, a);
		struct gfs_buf rec = GFS_BUF_INIT;
		struct tng_split s = { 0 };
		size_t pre;

		if (a->gone || a->kind != TNG_A_ZBIN || !tng_rec_known(type) || rk == TNG_R_WHOLE ||
		    tng_asset_content(ar, t, a, TNG_ZASSET_MAX, &rec) ||
		    (rk != TNG_R_NONE && tng_split(rk, rec.data, rec.len, &s))) {
			gfs_buf_release(&rec);
			continue;
		}
		pre = rk != TNG_R_NONE ? s.pre : rec.len;
		if (s.tail == rec.len || rk == TNG_R_NONE) {	/* else shown whole, as bytes */
			char stem[TNG_STEM_MAX + 8];

			tng_rec_stem(t, a, stem, sizeof stem);
			snprintf(name, sizeof name, "%s/%s.ini", tng_kind_of(type)->name, stem);
			if (tng_rec_decodes(type, t->hdr[TNG_OFF_TRANSPORTS], rec.data, pre))
				r = fn(ctx, name, type, rec.data, pre);
		}
		tng_split_release(&s);
		gfs_buf_release(&rec);
	}
	for (size_t si = 0; si < t->nsecs && !r; si++) {
		unsigned type = t->secs[si].type;
		size_t len;
		const uint8_t *d = tng_sec_data(t, si, &len);

		if (tng_kind_of(type)->view != TNG_V_RAW || !tng_rec_known(type) || t->secs[si].raw_bad ||
		    !tng_rec_decodes(type, t->hdr[TNG_OFF_TRANSPORTS], d, len))
			continue;	/* shown as bytes */
		if (type == TNG_S_ATTRS)
			snprintf(name, sizeof name, "attributes/attributes.ini");
		else
			snprintf(name, sizeof name, "sections/%02u-%s.ini", type, tng_kind_of(type)->name);
		r = fn(ctx, name, type, d, len);
	}
	return r;
}

struct check_each {
	struct gfs_archive *ar;
	struct tng *t;
	struct check_ctx *c;
};

static int check_each(void *vctx, const char *name, const uint8_t *code, size_t len)
{
	struct check_each *e = vctx;

	if (code)
		check_script(e->ar, e->t, e->c, name, code, len);
	else if (e->c->warnings++ < 100)
		fprintf(e->c->out, "warning: %s: its counts run past its end: its scripts cannot be "
			"found\n", name);
	return 0;
}

struct check_table {
	struct check_ctx *c;
	const struct tngs_names *nm;
	unsigned transports;
	size_t tables;
};

/* Warn of every field of a record or section whose reference does not resolve (shown #...). */
static int check_table(void *vctx, const char *name, unsigned type, const uint8_t *p, size_t len)
{
	struct check_table *k = vctx;
	struct gfs_buf text = GFS_BUF_INIT;
	const char *q, *end, *nl;
	unsigned line = 0;

	k->tables++;
	if (tng_rec_render(type, k->transports, p, len, k->nm, &text)) {
		if (k->c->warnings++ < 100)
			fprintf(k->c->out, "warning: %s: the record does not decode\n", name);
		gfs_buf_release(&text);
		return 0;
	}
	for (q = (const char *)text.data, end = q + text.len; q < end; q = nl + 1) {
		const char *v;

		nl = memchr(q, '\n', (size_t)(end - q));
		if (!nl)
			nl = end;
		line++;
		if (*q == ';' || *q == '[' || !(v = memchr(q, '=', (size_t)(nl - q))))
			continue;
		for (v++; v < nl && *v != ';'; v++)	/* a value (or list item) starting with # */
			if (*v == '#' && (v[-1] == ' ' || v[-1] == ',' || v[-1] == '='))
				break;
		if (v < nl && *v == '#' && k->c->warnings++ < 100)
			fprintf(k->c->out, "warning: %s line %u: %.*s: a reference to something the "
				"game does not have\n", name, line, (int)(nl - q), q);
	}
	gfs_buf_release(&text);
	return 0;
}

size_t tng_logic_check(struct gfs_archive *ar, struct tng *t, FILE *out)
{
	struct check_ctx c = { out, 0, 0, 0, 0 };
	struct check_each e = { ar, t, &c };

	struct tng_namectx nc;
	struct tngs_names nm;
	struct check_table k = { &c, &nm, t->hdr[TNG_OFF_TRANSPORTS], 0 };

	each_script(ar, t, check_each, &e);
	fprintf(out, "scripts: %zu, %zu instructions, highest command %u\n", c.scripts, c.insns,
		c.maxcmd);
	tng_names(ar, t, &nc, &nm);
	each_table(ar, t, check_table, &k);
	tng_names_release(&nc);
	fprintf(out, "records and sections as INI: %zu, references checked\n", k.tables);
	if (c.maxcmd > t->hdr[TNG_OFF_MAXCMD] && c.warnings++ < 100)
		fprintf(out, "warning: header byte 43 says the highest command is %u, the scripts "
			"use %u\n", t->hdr[TNG_OFF_MAXCMD], c.maxcmd);
	if (c.warnings > 100)
		fprintf(out, "warning: ... %zu warnings in all\n", c.warnings);
	return c.warnings;
}

struct referrer {
	enum tngs_ref k;
	uint32_t v;
	char *who;
	size_t wholen;
};

static int find_referrer(void *vctx, const char *name, const uint8_t *code, size_t len)
{
	struct referrer *f = vctx;
	size_t at = code ? tngs_refers(code, len, f->k, f->v) : 0;

	if (!at)
		return 0;
	snprintf(f->who, f->wholen, "%s (byte %zu)", name, at - 1);
	return 1;
}

struct table_referrer {
	struct referrer *f;
	unsigned transports;
};

static int find_table_referrer(void *vctx, const char *name, unsigned type, const uint8_t *p,
			       size_t len)
{
	struct table_referrer *c = vctx;

	if (!tng_rec_refers(type, c->transports, p, len, c->f->k, c->f->v))
		return 0;
	snprintf(c->f->who, c->f->wholen, "%s", name);
	return 1;
}

int tng_logic_referrer(struct gfs_archive *ar, struct tng *t, int k, uint32_t v,
		       char *who, size_t wholen)
{
	struct referrer f = { (enum tngs_ref)k, v, who, wholen };
	struct table_referrer c = { &f, t->hdr[TNG_OFF_TRANSPORTS] };

	if (each_script(ar, t, find_referrer, &f))
		return 1;
	return each_table(ar, t, find_table_referrer, &c);	/* the records' and sections' fields */
}
