/*
 * The compiled scripts of an HSP as text (specs/ohrrpgce-lumps.md section 6):
 *
 *   scripts/<name>.hss   each <id>.HSZ / <id>.HSX of the HSP decompiled
 *                        (rpg_hsz.c), read-only, named as SCRIPTS.BIN (else
 *                        SCRIPTS.TXT) names the script, script<id> when neither does
 *
 * The names inside come from the game where it has them: scripts from
 * SCRIPTS.BIN / SCRIPTS.TXT, commands from COMMANDS.BIN (else the engine's
 * list, rpg_hsz_cmds.c), globals from the `global variable` lines of the
 * sources HSpeak 3K+ keeps in SOURCE.LUMPED (3I-3J: SOURCE.TXT), locals
 * from the script's own name table.  Each render reads the HSP anew, so a
 * raw edit of lumps/<arch>.HSP shows.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rpg.h"
#include "rpg_hsz.h"

#define HSP_NAME	36		/* SCRIPTS.BIN name bytes */
#define HSP_GLOBAL_MAX	64		/* bytes of a global's name we keep */
#define HSP_ARGS_MAX	256		/* the engine's limit on a script's variables */

struct hsp_lump {
	char name[RPG_NAME_MAX + 1];
	uint64_t off, len;
};

struct hsp_global {
	long id;
	char name[HSP_GLOBAL_MAX + 1];
};

struct hsp {
	const uint8_t *p;		/* the HSP's bytes */
	size_t len;
	struct hsp_lump *lumps;		/* lb's bytes */
	size_t n;
	struct gfs_buf lb;
	const uint8_t *sbin, *stxt, *cbin;	/* SCRIPTS.BIN, SCRIPTS.TXT, COMMANDS.BIN; NULL when absent */
	size_t sbinlen, stxtlen, cbinlen;
	struct hsp_global *g;		/* globals (gb's bytes), read from the sources at the first use */
	size_t ng;
	struct gfs_buf gb;
	int gread;
	char tmp[RPG_NAME_MAX + HSP_NAME + 8];
	long defaults[HSP_ARGS_MAX];	/* of the script hsp_script() found in SCRIPTS.TXT */
	long ndefaults;
};

/* ---- the HSP's lumps ------------------------------------------------------------ */

struct hsp_mem {
	const uint8_t *p;
	size_t len;
};

static int hsp_read(void *ctx, uint8_t *buf, size_t n, uint64_t off)
{
	struct hsp_mem *m = ctx;

	if (off > m->len || n > m->len - off)
		return -EIO;
	memcpy(buf, m->p + off, n);
	return 0;
}

static int hsp_add(void *ctx, const char *name, uint64_t off, uint64_t len)
{
	struct hsp *h = ctx;
	struct hsp_lump k = { .off = off, .len = len };

	snprintf(k.name, sizeof(k.name), "%s", name);
	if (gfs_buf_add(&h->lb, &k, sizeof(k)))
		return -ENOMEM;
	h->lumps = (struct hsp_lump *)(void *)h->lb.data;
	h->n++;
	return 0;
}

static const struct hsp_lump *hsp_named(const struct hsp *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcasecmp(h->lumps[i].name, name))
			return &h->lumps[i];
	return NULL;
}

static const uint8_t *hsp_bytes(const struct hsp *h, const char *name, size_t *len)
{
	const struct hsp_lump *k = hsp_named(h, name);

	*len = k ? (size_t)k->len : 0;
	return k ? h->p + k->off : NULL;
}

/* The lumps of the HSP p[0..len); -EBADMSG when it is no lumped file. */
static int hsp_open(struct hsp *h, const uint8_t *p, size_t len)
{
	struct hsp_mem m = { p, len };
	char why[160];
	uint64_t at;
	int r;

	memset(h, 0, sizeof(*h));
	h->p = p;
	h->len = len;
	r = rpg_index_walk(hsp_read, &m, len, hsp_add, h, why, sizeof(why), &at);
	if (r < 0)
		return r;
	h->sbin = hsp_bytes(h, "SCRIPTS.BIN", &h->sbinlen);
	h->stxt = hsp_bytes(h, "SCRIPTS.TXT", &h->stxtlen);
	h->cbin = hsp_bytes(h, "COMMANDS.BIN", &h->cbinlen);
	return 0;
}

static void hsp_close(struct hsp *h)
{
	gfs_buf_release(&h->lb);
	gfs_buf_release(&h->gb);
}

/* The script id of a lump <id>.HSZ / <id>.HSX, else -1. */
static long hsp_script_id(const char *name)
{
	const char *dot = strrchr(name, '.');
	char *end;
	long id;

	if (!dot || dot == name || (strcasecmp(dot, ".HSZ") && strcasecmp(dot, ".HSX")) || !isdigit((unsigned char)*name))
		return -1;
	id = strtol(name, &end, 10);
	return end == dot && id < 0x8000 ? id : -1;
}

/* ---- names --------------------------------------------------------------------- */

/* SCRIPTS.TXT: "name CRLF id CRLF argc CRLF" and argc default lines per script */
struct hsp_txt {
	const uint8_t *p, *end;
};

static int hsp_txt_line(struct hsp_txt *t, const uint8_t **s, size_t *n)
{
	const uint8_t *e;

	if (t->p >= t->end)
		return 0;
	e = memchr(t->p, '\n', (size_t)(t->end - t->p));
	if (!e)
		e = t->end;
	*s = t->p;
	*n = (size_t)(e - t->p);
	if (*n && (*s)[*n - 1] == '\r')
		(*n)--;
	t->p = e < t->end ? e + 1 : e;
	return 1;
}

static long hsp_txt_num(const uint8_t *s, size_t n)
{
	char tmp[16];

	if (n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = 0;
	return strtol(tmp, NULL, 10);
}

/* Script id's name (into h->tmp, NULL when unknown), trigger and argument count. */
static const char *hsp_script(struct hsp *h, long id, int *trigger, long *argc)
{
	const char *name = NULL;

	*trigger = -1;
	*argc = -1;
	h->ndefaults = 0;
	if (h->stxt) {
		struct hsp_txt t = { h->stxt, h->stxt + h->stxtlen };
		const uint8_t *s, *si, *sa;
		size_t n, ni, na;

		while (hsp_txt_line(&t, &s, &n) && hsp_txt_line(&t, &si, &ni) && hsp_txt_line(&t, &sa, &na)) {
			long a = hsp_txt_num(sa, na);

			if (hsp_txt_num(si, ni) == id && a >= 0) {
				snprintf(h->tmp, sizeof(h->tmp), "%.*s", (int)(n < HSP_NAME ? n : HSP_NAME), (const char *)s);
				name = h->tmp;
				*argc = a;
				for (h->ndefaults = 0; h->ndefaults < a && h->ndefaults < HSP_ARGS_MAX &&
				     hsp_txt_line(&t, &s, &n); h->ndefaults++)
					h->defaults[h->ndefaults] = hsp_txt_num(s, n);
				break;
			}
			for (long i = 0; i < a && i < 256 && hsp_txt_line(&t, &s, &n); i++)
				;
		}
	}
	if (h->sbin && h->sbinlen >= 4) {
		size_t hs = gfs_le16(h->sbin), rs = gfs_le16(h->sbin + 2);

		for (size_t at = hs; rs >= 6 + HSP_NAME && at + rs <= h->sbinlen; at += rs) {
			const uint8_t *rec = h->sbin + at;
			int16_t nl = (int16_t)gfs_le16(rec + 4);

			if ((int16_t)gfs_le16(rec) != id)
				continue;
			*trigger = (int16_t)gfs_le16(rec + 2);
			snprintf(h->tmp, sizeof(h->tmp), "%.*s", nl < 0 ? 0 : nl > HSP_NAME ? HSP_NAME : nl,
				 (const char *)rec + 6);
			name = h->tmp;
			break;
		}
	}
	return name;
}

static const char *hsp_script_name(void *ctx, long id)
{
	int trigger;
	long argc;

	return hsp_script(ctx, id, &trigger, &argc);
}

/* COMMANDS.BIN: header size, format 0, records; an int16 offset per id; at it int16 argc, int16 length, name */
static const char *hsp_command_name(void *ctx, long id)
{
	struct hsp *h = ctx;
	size_t hs, recs, off, n;

	if (!h->cbin || h->cbinlen < 6 || gfs_le16(h->cbin + 2) != 0)
		return NULL;
	hs = gfs_le16(h->cbin);
	recs = gfs_le16(h->cbin + 4);
	if (id < 0 || (size_t)id >= recs || hs + 2 * (size_t)id + 2 > h->cbinlen)
		return NULL;
	off = gfs_le16(h->cbin + hs + 2 * (size_t)id);
	if (!off || off + 4 > h->cbinlen)
		return NULL;
	n = gfs_le16(h->cbin + off + 2);
	if (n > h->cbinlen - off - 4 || n > sizeof(h->tmp) - 1)
		return NULL;
	memcpy(h->tmp, h->cbin + off + 4, n);
	h->tmp[n] = 0;
	return h->tmp;
}

/* ---- globals: `global variable (id, name)` and `global variable, begin id, name ... end` ---- */

static int hsp_g_add(struct hsp *h, long id, const uint8_t *s, size_t n)
{
	struct hsp_global g = { .id = id };
	size_t k = 0;

	while (n && isspace(s[n - 1]))
		n--;
	while (n && isspace(*s))
		s++, n--;
	if (!n)
		return 0;
	for (size_t i = 0; i < n && k < HSP_GLOBAL_MAX; i++)
		if (!(isspace(s[i]) && k && isspace((unsigned char)g.name[k - 1])))
			g.name[k++] = isspace(s[i]) ? ' ' : (char)s[i];
	if (gfs_buf_add(&h->gb, &g, sizeof(g)))
		return -ENOMEM;
	h->g = (struct hsp_global *)(void *)h->gb.data;
	h->ng++;
	return 0;
}

/* The pairs "id, name" in s[0..n) (comments already cut at #) */
static int hsp_g_pairs(struct hsp *h, const uint8_t *s, size_t n)
{
	long id = -1;
	size_t i = 0;

	while (i < n) {
		size_t j = i;

		while (j < n && s[j] != ',' && s[j] != '\n' && s[j] != '\r')
			j++;
		{
			size_t a = i, b = j;

			while (a < b && isspace(s[a]))
				a++;
			while (b > a && isspace(s[b - 1]))
				b--;
			if (b > a) {
				if (id < 0 && (isdigit(s[a]) || s[a] == '-')) {
					id = hsp_txt_num(s + a, b - a);
				} else if (id >= 0) {
					int r = hsp_g_add(h, id, s + a, b - a);

					if (r)
						return r;
					id = -1;
				}
			}
		}
		i = j + 1;
	}
	return 0;
}

/* a case-blind match of word at s[i..n), whitespace inside the word skipped (HamsterSpeak ignores it) */
static size_t hsp_g_word(const uint8_t *s, size_t i, size_t n, const char *word)
{
	for (const char *w = word; *w; w++) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= n || tolower(s[i]) != *w)
			return 0;
		i++;
	}
	return i;
}

static int hsp_g_scan(struct hsp *h, const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t j, e;

		if (s[i] == '#') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if ((i && (isalnum(s[i - 1]) || s[i - 1] == '_')) || !(j = hsp_g_word(s, i, n, "globalvariable")))
			continue;
		while (j < n && isspace(s[j]))
			j++;
		if (j < n && s[j] == '(') {
			for (e = j + 1; e < n && s[e] != ')' && s[e] != '#'; e++)
				;
		} else if (j < n && s[j] == ',' && (j = hsp_g_word(s, j + 1, n, "begin"))) {
			/* line by line up to the one that starts with end, each cut at its # */
			while (j < n && !hsp_g_word(s, j, n, "end")) {
				size_t le = j, ce = j;
				int r;

				while (le < n && s[le] != '\n')
					le++;
				while (ce < le && s[ce] != '#')
					ce++;
				if ((r = hsp_g_pairs(h, s + j, ce - j)))
					return r;
				for (j = le + 1; j < n && isspace(s[j]); j++)
					;
			}
			i = j;
			continue;
		} else {
			continue;
		}
		{
			int r = hsp_g_pairs(h, s + j + (s[j] == '('), e - j - (s[j] == '('));

			if (r)
				return r;
		}
		i = e;
	}
	return 0;
}

static int hsp_globals(struct hsp *h)
{
	size_t n;
	const uint8_t *src = hsp_bytes(h, "SOURCE.LUMPED", &n);
	int r = 0;

	h->gread = 1;
	if (src) {
		struct hsp inner;

		if (hsp_open(&inner, src, n))
			return 0;
		for (size_t i = 0; i < inner.n && !r; i++)
			r = hsp_g_scan(h, src + inner.lumps[i].off, (size_t)inner.lumps[i].len);
		hsp_close(&inner);
	}
	if (!r && (src = hsp_bytes(h, "SOURCE.TXT", &n)))
		r = hsp_g_scan(h, src, n);
	return r;
}

static const char *hsp_global_name(void *ctx, long id)
{
	struct hsp *h = ctx;

	if (!h->gread && hsp_globals(h))
		return NULL;
	for (size_t i = 0; i < h->ng; i++)
		if (h->g[i].id == id)
			return h->g[i].name;
	return NULL;
}

/* ---- views ------------------------------------------------------------------------ */

int rpg_hsp_render(struct gfs_archive *ar, struct rpg_lump *l, size_t k, struct gfs_buf *out)
{
	struct gfs_buf b = GFS_BUF_INIT;
	struct hsp h;
	char name[HSP_NAME + 1];
	struct hsz_script s = { 0 };
	const char *nm;
	int r = rpg_lump_read(ar, l, &b);

	if (r)
		return r;
	r = hsp_open(&h, b.data, b.len);
	if (r || k >= h.n || hsp_script_id(h.lumps[k].name) < 0) {
		if (r != -ENOMEM)
			r = gfs_err(ar, -EIO, "lump %s: script %zu of the HSP is not there any more", l->name, k);
		hsp_close(&h);
		gfs_buf_release(&b);
		return r;
	}
	s.id = hsp_script_id(h.lumps[k].name);
	nm = hsp_script(&h, s.id, &s.trigger, &s.argc);
	snprintf(name, sizeof(name), "%s", nm ? nm : "");
	s.name = nm ? name : NULL;
	s.defaults = h.defaults;
	s.ndefaults = h.ndefaults;
	s.lump = h.lumps[k].name;
	s.script_name = hsp_script_name;
	s.command_name = hsp_command_name;
	s.global_name = hsp_global_name;
	s.ctx = &h;
	r = rpg_hsz_decompile(h.p + h.lumps[k].off, (size_t)h.lumps[k].len, &s, out);
	hsp_close(&h);
	gfs_buf_release(&b);
	return r;
}

/* File names: the script's name in printable ASCII without / (script<id> when it has none) */
static void hsp_file_name(const char *name, long id, char *out, size_t n)
{
	size_t k = 0;

	for (const char *p = name ? name : ""; *p && k + 5 < n && k < HSP_NAME; p++)
		out[k++] = (unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f || *p == '/' ? '_' : *p;
	out[k] = 0;
	if (!k || !strcmp(out, ".") || !strcmp(out, ".."))
		snprintf(out, n - 4, "script%ld", id);
	strcat(out, ".hss");
}

int rpg_hsp_build(struct gfs_archive *ar, struct rpg_lump *l, const struct gfs_node_ops *ops, const void *desc)
{
	struct gfs_buf b = GFS_BUF_INIT;
	struct gfs_node *dir = NULL;
	struct hsp h;
	int r = rpg_lump_read(ar, l, &b);

	if (r)
		return r;
	if ((r = hsp_open(&h, b.data, b.len))) {
		hsp_close(&h);
		gfs_buf_release(&b);
		return r == -EBADMSG ? 0 : r;
	}
	for (size_t k = 0; k < h.n && !r; k++) {
		long id = hsp_script_id(h.lumps[k].name), argc;
		char fn[HSP_NAME + 16];
		int trigger;
		struct gfs_node *n;

		if (id < 0)
			continue;
		hsp_file_name(hsp_script(&h, id, &trigger, &argc), id, fn, sizeof(fn));
		if (!dir && !(dir = rpg_subdir(ar, "scripts"))) {
			r = -ENOMEM;
			break;
		}
		if ((r = rpg_add_view(ar, l, dir, fn, ops, k, desc)))
			break;
		n = l->views[l->nviews - 1];
		n->mode = (n->mode & ~(mode_t)0777) | 0444;
	}
	hsp_close(&h);
	gfs_buf_release(&b);
	return r;
}
