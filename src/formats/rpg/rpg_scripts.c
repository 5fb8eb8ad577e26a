/*
 * The scripts of an OHRRPGCE game (specs/ohrrpgce-lumps.md section 6), all
 * read-only: the compiled bytecode cannot follow an edited source, and a
 * new HSP needs HSpeak plus PLOTSCR.LST, LOOKUP1.BIN and GEN, which is
 * Custom's job.  Edit lumps/<arch>.HSP raw to replace the scripts.
 *
 *   scripts/<name>.hss        every compiled script (<id>.HSZ / .HSX of
 *                             the HSP) decompiled to HamsterSpeak (rpg_hsp.c)
 *   scripts/hsp/<LUMP>        every lump of <arch>.HSP (itself a lumped
 *                             file: HS, SCRIPTS.TXT ...) that is text,
 *                             verbatim; the binary ones (bytecode, SCRIPTS.BIN,
 *                             COMMANDS.BIN, SOURCE.LUMPED) are read through
 *                             the views above and below, raw in lumps/ only
 *   scripts/source/<name>     every lump of its SOURCE.LUMPED (a lumped
 *                             file of the sources HSpeak compiled), lower case
 *   scripts/plotscr.txt       PLOTSCR.LST: "id<TAB>name" a 40-byte record
 *                             (int16 id, int16 length, up to 36 bytes)
 *   scripts/lookup1.txt       LOOKUP1.BIN: "trigger<TAB>id<TAB>name", the
 *                             trigger being 16384 + the record
 *
 * The nested indexes are read with rpg_index_walk() over the lump's
 * current content, anew at each render: a raw edit of the HSP shows.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rpg.h"
#include "gfs_record.h"

#define SCR_SOURCE	"SOURCE.LUMPED"
#define SCR_LIST_REC	40
#define SCR_NAME_MAX	36
#define SCR_TRIGGER0	16384

/* what a view shows: a lump of the HSP, a lump of its SOURCE.LUMPED, or a list */
static const int scr_hsp, scr_source, scr_plotscr, scr_lookup, scr_hss;

/* ---- lumps inside a lump ---------------------------------------------------- */

struct scr_reader {
	struct gfs_archive *ar;
	struct rpg_lump *l;
	uint64_t base;		/* where the nested lumped file starts in the lump */
};

static int scr_read(void *ctx, uint8_t *buf, size_t n, uint64_t off)
{
	struct scr_reader *rd = ctx;

	return rpg_lump_range(rd->ar, rd->l, rd->base + off, n, buf);
}

/* Finds lump number want, or the lump named name when name is not NULL. */
struct scr_find {
	const char *name;
	size_t want, k;
	uint64_t off, len;
	int found;
};

static int scr_find_fn(void *ctx, const char *name, uint64_t off, uint64_t len)
{
	struct scr_find *f = ctx;

	if (f->name ? !strcasecmp(name, f->name) : f->k == f->want) {
		f->off = off;
		f->len = len;
		f->found = 1;
		return 1;
	}
	f->k++;
	return 0;
}

static uint64_t scr_lump_len(const struct rpg_lump *l)
{
	return l->data ? l->data->len : l->len;
}

/*
 * Where SOURCE.LUMPED is in the HSP lump l (*base, *end); 0 when it has
 * none, 1 when found, -errno when the HSP's index is bad.
 */
static int scr_source_span(struct gfs_archive *ar, struct rpg_lump *l, uint64_t *base, uint64_t *end)
{
	struct scr_reader rd = { ar, l, 0 };
	struct scr_find f = { SCR_SOURCE, 0, 0, 0, 0, 0 };
	char why[160];
	uint64_t at;
	int r = rpg_index_walk(scr_read, &rd, scr_lump_len(l), scr_find_fn, &f, why, sizeof(why), &at);

	if (r < 0)
		return r;
	*base = f.off;
	*end = f.len;
	return f.found;
}

/* Bytes of lump k of the lumped file at [base, base + end) of l. */
static int scr_nested(struct gfs_archive *ar, struct rpg_lump *l, uint64_t base, uint64_t end, size_t k,
		      struct gfs_buf *out)
{
	struct scr_reader rd = { ar, l, base };
	struct scr_find f = { NULL, k, 0, 0, 0, 0 };
	char why[160];
	uint64_t at;
	size_t old = out->len;
	int r = rpg_index_walk(scr_read, &rd, end, scr_find_fn, &f, why, sizeof(why), &at);

	if (r < 0 || !f.found)
		return gfs_err(ar, -EIO, "lump %s: lump %zu of the scripts is not there any more%s%s", l->name, k,
			       r < 0 ? ": " : "", r < 0 ? why : "");
	if ((r = rpg_buf_room(out, f.len)))
		return r;
	if ((r = gfs_buf_set_len(out, old + (size_t)f.len)))
		return r;
	return rpg_lump_range(ar, l, base + f.off, (size_t)f.len, out->data + old);
}

/* ---- views ------------------------------------------------------------------ */

/* "id<TAB>name" (lookup: "trigger<TAB>id<TAB>name") a 40-byte record */
static int scr_list_render(struct gfs_archive *ar, struct rpg_lump *l, int lookup, struct gfs_buf *out)
{
	struct gfs_buf b = GFS_BUF_INIT;
	int r = rpg_lump_read(ar, l, &b);

	for (size_t i = 0; !r && (i + 1) * SCR_LIST_REC <= b.len; i++) {
		const uint8_t *rec = b.data + i * SCR_LIST_REC;
		int16_t len = (int16_t)gfs_le16(rec + 2);
		size_t n = len < 0 ? 0 : len > SCR_NAME_MAX ? SCR_NAME_MAX : (size_t)len;

		if (lookup)
			r = gfs_buf_printf(out, "%zu\t", SCR_TRIGGER0 + i);
		if (!r)
			r = gfs_buf_printf(out, "%d\t", (int16_t)gfs_le16(rec));
		if (!r)
			r = gfs_text_escape(out, rec + 4, n, 1);
		if (!r)
			r = gfs_buf_addc(out, '\n');
	}
	gfs_buf_release(&b);
	return r;
}

static int scr_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_vpriv *v = n->priv;
	uint64_t base, end;
	int r;

	if (!v->l)
		return -ENOENT;
	if (v->desc == &scr_plotscr || v->desc == &scr_lookup)
		return scr_list_render(ar, v->l, v->desc == &scr_lookup, out);
	if (v->desc == &scr_hss)
		return rpg_hsp_render(ar, v->l, v->rec, out);
	if (v->desc == &scr_hsp)
		return scr_nested(ar, v->l, 0, scr_lump_len(v->l), v->rec, out);
	r = scr_source_span(ar, v->l, &base, &end);
	if (r <= 0)
		return gfs_err(ar, -EIO, "lump %s: no %s any more", v->l->name, SCR_SOURCE);
	return scr_nested(ar, v->l, base, end, v->rec, out);
}

static const struct gfs_node_ops scr_ops = {
	.render = scr_render,
	.free = free,
};

/* ---- the tree ------------------------------------------------------------ */

int rpg_scripts_kind(struct gfs_archive *ar, struct rpg_lump *l)
{
	struct rpg_model *m = ar->priv;

	return rpg_lump_is(m, l, ".HSP") || rpg_lump_is(m, l, "PLOTSCR.LST") || rpg_lump_is(m, l, "LOOKUP1.BIN");
}

/*
 * Is lump name at [off, off + len) of the HSP l text (tab, CR, LF, 0x20-0x7e)?
 * The bytecode, SCRIPTS.BIN, COMMANDS.BIN and SOURCE.LUMPED never are.
 */
static int scr_is_text(struct gfs_archive *ar, struct rpg_lump *l, const char *name, uint64_t off, uint64_t len)
{
	static const char *const binary[] = { ".HSZ", ".HSX", "SCRIPTS.BIN", "COMMANDS.BIN", SCR_SOURCE };
	size_t nl = strlen(name);
	uint8_t buf[4096];

	for (size_t i = 0; i < sizeof(binary) / sizeof(binary[0]); i++) {
		size_t bl = strlen(binary[i]);

		if (nl >= bl && !strcasecmp(name + nl - bl, binary[i]))
			return 0;
	}
	if (len > (1u << 20))
		return 0;
	for (uint64_t at = 0; at < len; at += sizeof(buf)) {
		size_t n = len - at < sizeof(buf) ? (size_t)(len - at) : sizeof(buf);

		if (rpg_lump_range(ar, l, off + at, n, buf))
			return 0;
		for (size_t i = 0; i < n; i++)
			if (!(buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n' || (buf[i] >= 0x20 && buf[i] < 0x7f)))
				return 0;
	}
	return 1;
}

struct scr_build {
	struct gfs_archive *ar;
	struct rpg_lump *l;
	struct gfs_node *dir;
	const char *path;	/* of dir, made on the first lump */
	const int *what;
	int lower;
	size_t k;
};

static int scr_build_fn(void *ctx, const char *name, uint64_t off, uint64_t len)
{
	struct scr_build *b = ctx;
	char nm[RPG_NAME_MAX + 1];
	struct gfs_node *n;
	size_t k = b->k++;
	int r;

	if (b->what == &scr_hsp && !scr_is_text(b->ar, b->l, name, off, len))
		return 0;
	for (size_t i = 0; i <= strlen(name); i++)
		nm[i] = b->lower ? (char)tolower((unsigned char)name[i]) : name[i];
	if (!b->dir && !(b->dir = rpg_subdir(b->ar, b->path)))
		return -ENOMEM;
	if ((r = rpg_add_view(b->ar, b->l, b->dir, nm, &scr_ops, k, b->what)))
		return r;
	/* read-only: the bytecode cannot follow an edit */
	n = b->l->views[b->l->nviews - 1];
	n->mode = (n->mode & ~(mode_t)0777) | 0444;
	return 0;
}

static int scr_none(void *ctx, const char *name, uint64_t off, uint64_t len)
{
	(void)ctx;
	(void)name;
	(void)off;
	(void)len;
	return 0;
}

/* Views of each lump of the lumped file at [base, base + end) of b->l; none when its index is bad. */
static int scr_build_dir(struct scr_build *b, uint64_t base, uint64_t end, const char *what)
{
	struct scr_reader rd = { b->ar, b->l, base };
	char why[160];
	uint64_t at;
	int r = rpg_index_walk(scr_read, &rd, end, scr_none, NULL, why, sizeof(why), &at);

	if (r == -EBADMSG) {
		gfs_warn(b->ar, "lump %s: %s is not a lumped file (byte %llu: %s): no %s", b->l->name, what,
			 (unsigned long long)at, why, b->path);
		return 0;
	}
	return r ? r : rpg_index_walk(scr_read, &rd, end, scr_build_fn, b, why, sizeof(why), &at);
}

static int scr_build_hsp(struct gfs_archive *ar, struct rpg_lump *l)
{
	struct scr_build hb = { ar, l, NULL, "scripts/hsp", &scr_hsp, 0, 0 };
	struct scr_build sb = { ar, l, NULL, "scripts/source", &scr_source, 1, 0 };
	uint64_t base, end;
	int r = scr_build_dir(&hb, 0, l->len, "it"), s;

	if (r)
		return r;
	if ((r = scr_source_span(ar, l, &base, &end)) < 0)
		return 0;	/* not a lumped file: said above */
	if ((s = rpg_hsp_build(ar, l, &scr_ops, &scr_hss)))
		return s;
	return r ? scr_build_dir(&sb, base, end, "its " SCR_SOURCE) : 0;
}

int rpg_scripts_build(struct gfs_archive *ar)
{
	struct rpg_model *m = ar->priv;
	int r = 0;

	for (size_t i = 0; i < m->n && !r; i++) {
		struct rpg_lump *l = m->lumps[i];

		if (rpg_lump_is(m, l, ".HSP")) {
			r = scr_build_hsp(ar, l);
		} else if (rpg_lump_is(m, l, "PLOTSCR.LST") || rpg_lump_is(m, l, "LOOKUP1.BIN")) {
			int lookup = rpg_lump_is(m, l, "LOOKUP1.BIN");
			struct scr_build b = { ar, l, NULL, "scripts", lookup ? &scr_lookup : &scr_plotscr, 0, 0 };

			r = scr_build_fn(&b, lookup ? "lookup1.txt" : "plotscr.txt", 0, 0);
		}
	}
	return r;
}
