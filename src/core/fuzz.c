/* One fuzzing step, shared by the libFuzzer targets and tests/replay. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gamefs.h"
#include "gfs_layout.h"
#include "gfs_xml.h"

static void gfs_fuzz_quiet(const char *msg)
{
	(void)msg;
}

static void gfs_fuzz_render(struct gfs_archive *ar, struct gfs_node *n)
{
	gfs_dir_ready(ar, n);
	for (size_t i = 0; i < n->nkids; i++)
		gfs_fuzz_render(ar, n->kids[i]);
	if (!S_ISDIR(n->mode)) {
		struct gfs_buf b = GFS_BUF_INIT;

		gfs_node_content(ar, n, &b);
		gfs_buf_release(&b);
	}
}

/* Write every editable view back with the content it renders; the first refusal is *bad. */
static void gfs_fuzz_writeback(struct gfs_archive *ar, struct gfs_node *n, const char **bad)
{
	gfs_dir_ready(ar, n);
	for (size_t i = 0; i < n->nkids && !*bad; i++)
		gfs_fuzz_writeback(ar, n->kids[i], bad);
	if (!S_ISDIR(n->mode) && (n->mode & 0200)) {
		struct gfs_buf b = GFS_BUF_INIT;

		if (gfs_node_content(ar, n, &b) == 0 &&
		    (gfs_node_truncate(ar, n, 0) || (b.len && gfs_node_write(ar, n, b.data, b.len, 0) < 0)))
			*bad = n->name;
		gfs_buf_release(&b);
	}
}

/*
 * Every view written back unchanged changes nothing: it is not refused, and
 * the archive saves to the same bytes.
 */
static int gfs_fuzz_same(struct gfs_archive *ar, const uint8_t *data, size_t len)
{
	struct gfs_buf saved = GFS_BUF_INIT;
	const char *bad = NULL;
	int r = 0;

	gfs_fuzz_writeback(ar, ar->root, &bad);
	if (bad) {
		fprintf(stderr, "%s: view %s cannot be written back\n", ar->fmt->name, bad);
		return -1;
	}
	if (gfs_archive_store(ar, NULL)) {
		fprintf(stderr, "%s: a view written back unchanged is refused: %s\n", ar->fmt->name,
			ar->err);
		return -1;
	}
	if (gfs_archive_save_mem(ar, &saved) == 0 &&
	    (saved.len != len || (len && memcmp(saved.data, data, len)))) {
		fprintf(stderr, "%s: views written back unchanged change the archive\n",
			ar->fmt->name);
		r = -1;
	}
	gfs_buf_release(&saved);
	return r;
}

/* ---- growing and shrinking: the creation paths, as a shell drives them ---- */

/*
 * After the load, a few structural edits chosen by the input's bytes, each
 * as cp, cp -r, mkdir, rm, rm -r and mv make them through a mount: a file
 * copied to a new name in its folder (the next number where the name starts
 * with one), a folder copied with its files, a file or folder removed or
 * renamed.  A refusal must leave the archive saving to the bytes it saved
 * to before; what is taken must save, and the saved archive must load again.
 */
struct gfs_fz_grow {
	struct gfs_archive *ar;
	uint32_t seed;
	struct gfs_node **nodes;
	size_t n, cap;
	int bad;
};

static uint32_t gfs_fz_rand(struct gfs_fz_grow *g)
{
	g->seed ^= g->seed << 13;
	g->seed ^= g->seed >> 17;
	g->seed ^= g->seed << 5;
	return g->seed;
}

/* Every node but the root and scratch files, in tree order (after each change: removed ones are freed). */
static void gfs_fz_collect(struct gfs_fz_grow *g, struct gfs_node *d, int depth)
{
	if (depth > 8 || gfs_dir_ready(g->ar, d))
		return;
	for (size_t i = 0; i < d->nkids; i++) {
		struct gfs_node *k = d->kids[i];

		if (k->flags & GFS_NODE_SCRATCH)
			continue;
		if (g->n == g->cap) {
			size_t cap = g->cap ? g->cap * 2 : 64;
			struct gfs_node **nn = realloc(g->nodes, cap * sizeof(*nn));

			if (!nn)
				return;
			g->nodes = nn;
			g->cap = cap;
		}
		g->nodes[g->n++] = k;
		if (S_ISDIR(k->mode))
			gfs_fz_collect(g, k, depth + 1);
	}
}

/* A node picked by the seed: a directory (want 1), a file (want 0) or either (-1); NULL: none. */
static struct gfs_node *gfs_fz_pick(struct gfs_fz_grow *g, int want)
{
	size_t m = 0, k;

	g->n = 0;
	gfs_fz_collect(g, g->ar->root, 0);
	for (size_t i = 0; i < g->n; i++)
		m += want < 0 || (S_ISDIR(g->nodes[i]->mode) != 0) == want;
	if (!m)
		return NULL;
	k = gfs_fz_rand(g) % m;
	for (size_t i = 0; i < g->n; i++)
		if ((want < 0 || (S_ISDIR(g->nodes[i]->mode) != 0) == want) && !k--)
			return g->nodes[i];
	return NULL;
}

/*
 * A name not in dir for a copy (or a move) of name: the number it starts
 * with made the next one of its siblings' (its width kept), or with move,
 * any number up to that; else the stem with 'z' added before the extension.
 */
static void gfs_fz_name(struct gfs_fz_grow *g, struct gfs_node *dir, const char *name, int move,
			char *out, size_t outlen)
{
	size_t digits = strspn(name, "0123456789");
	unsigned long next = 0;

	if (digits && digits < 6) {
		for (size_t i = 0; i < dir->nkids; i++) {
			const char *k = dir->kids[i]->name;
			unsigned long v = strtoul(k, NULL, 10);

			if (strspn(k, "0123456789") && v + 1 > next)
				next = v + 1;
		}
		if (move)
			next = gfs_fz_rand(g) % (next + 1);
		snprintf(out, outlen, "%0*lu%s", (int)digits, next, name + digits);
	} else {
		const char *dot = strrchr(name, '.');
		size_t stem = dot && dot != name ? (size_t)(dot - name) : strlen(name);

		snprintf(out, outlen, "%.*sz%s", (int)stem, name, name + stem);
	}
	for (size_t n = strlen(out); gfs_node_child(g->ar, dir, out) && n + 1 < outlen; n++) {
		memmove(out + 1, out, n + 1);	/* taken: another letter before it */
		out[0] = 'z';
	}
}

/* The archive saved now into b (released first); 0 or the save's error. */
static int gfs_fz_snap(struct gfs_archive *ar, struct gfs_buf *b)
{
	gfs_buf_release(b);
	return gfs_archive_save_mem(ar, b);
}

/* A refused edit (r < 0) must leave the archive saving to before's bytes. */
static void gfs_fz_refused(struct gfs_fz_grow *g, const char *op, const char *name, int r,
			   int have, const struct gfs_buf *before)
{
	struct gfs_buf after = GFS_BUF_INIT;

	if (r >= 0 || !have || g->bad)
		return;
	if (gfs_fz_snap(g->ar, &after) ||
	    after.len != before->len || (after.len && memcmp(after.data, before->data, after.len))) {
		fprintf(stderr, "%s: %s %s refused (%s) but the archive changed\n", g->ar->fmt->name, op,
			name, g->ar->err);
		g->bad = 1;
	}
	gfs_buf_release(&after);
}

/* A new file name in dir with content (cp: create, write, close); its refusals checked. */
static int gfs_fz_copy_file(struct gfs_fz_grow *g, struct gfs_node *dir, const char *name,
			    const struct gfs_buf *content)
{
	struct gfs_buf before = GFS_BUF_INIT;
	struct gfs_node *n;
	int have = !gfs_fz_snap(g->ar, &before), r;

	r = gfs_edit_create(g->ar, dir, name, &n);
	gfs_fz_refused(g, "create", name, r, have, &before);
	if (!r && content->len && gfs_node_write(g->ar, n, content->data, content->len, 0) < 0)
		r = -EIO;
	if (!r) {
		r = gfs_archive_store(g->ar, NULL);
		gfs_fz_refused(g, "store", name, r, have, &before);
	}
	gfs_buf_release(&before);
	return r;
}

/* cp -r of folder src to a new name beside it (two levels deep). */
static void gfs_fz_copy_dir(struct gfs_fz_grow *g, struct gfs_node *src, struct gfs_node *into,
			    const char *name, int depth)
{
	struct gfs_buf before = GFS_BUF_INIT;
	struct gfs_node *d;
	char **names;
	size_t nk;
	int have = !gfs_fz_snap(g->ar, &before), r;

	r = gfs_edit_mkdir(g->ar, into, name, &d);
	gfs_fz_refused(g, "mkdir", name, r, have, &before);
	gfs_buf_release(&before);
	if (r || depth > 1 || gfs_dir_ready(g->ar, src))
		return;
	/* the source's names as they are now: each is looked up again, the copies may change the tree */
	nk = src->nkids;
	if (!nk || !(names = calloc(nk, sizeof(*names))))
		return;
	for (size_t i = 0; i < nk; i++)
		names[i] = strdup(src->kids[i]->name);
	for (size_t i = 0; i < nk && !g->bad; i++) {
		struct gfs_buf c = GFS_BUF_INIT;
		struct gfs_node *k = names[i] ? gfs_node_child(g->ar, src, names[i]) : NULL;

		if (gfs_node_child(g->ar, into, name) != d)
			break;	/* the copy went (a format may take it whole) */
		if (!k || (k->flags & GFS_NODE_SCRATCH) || gfs_node_child(g->ar, d, names[i]))
			continue;
		if (S_ISDIR(k->mode))
			gfs_fz_copy_dir(g, k, d, names[i], depth + 1);
		else if (!gfs_node_content(g->ar, k, &c))
			gfs_fz_copy_file(g, d, names[i], &c);
		gfs_buf_release(&c);
	}
	for (size_t i = 0; i < nk; i++)
		free(names[i]);
	free(names);
}

/* rm or rm -r of n (files first, deepest first), then rmdir; stops at the first refusal. */
static int gfs_fz_remove(struct gfs_fz_grow *g, struct gfs_node *n, int depth)
{
	struct gfs_archive *ar = g->ar;
	struct gfs_buf before = GFS_BUF_INIT;
	int dir = S_ISDIR(n->mode), have, r;

	if (dir) {
		if (depth > 3 || gfs_dir_ready(ar, n))
			return -1;
		while (n->nkids && !g->bad) {
			struct gfs_node *k = n->kids[n->nkids - 1];

			if (k->flags & GFS_NODE_SCRATCH)
				gfs_node_remove(ar, k);
			else if (gfs_fz_remove(g, k, depth + 1))
				return -1;
			else if (n->nkids && n->kids[n->nkids - 1] == k)
				return -1;	/* taken, yet still there */
		}
	}
	if (!(dir ? ar->fmt->rmdir : ar->fmt->unlink) || g->bad)
		return -1;
	have = !gfs_fz_snap(ar, &before);
	ar->err[0] = 0;
	r = dir ? ar->fmt->rmdir(ar, n) : ar->fmt->unlink(ar, n);	/* n is freed when it went */
	gfs_fz_refused(g, dir ? "rmdir" : "unlink", "a node", r, have, &before);
	gfs_buf_release(&before);
	return r;
}

static void gfs_fz_step(struct gfs_fz_grow *g)
{
	struct gfs_archive *ar = g->ar;
	struct gfs_buf c = GFS_BUF_INIT, before = GFS_BUF_INIT;
	struct gfs_node *n;
	char name[240];
	unsigned op = gfs_fz_rand(g) % 6;
	int have, r;

	n = gfs_fz_pick(g, op == 1 || op == 4 ? 1 : op == 5 ? -1 : 0);
	if (!n || !n->parent)
		return;
	gfs_fz_name(g, n->parent, n->name, op == 5, name, sizeof name);
	switch (op) {
	case 0:		/* cp FILE NEW (twice as likely: the commonest creation) */
	case 3:
		if (!gfs_node_content(ar, n, &c))
			gfs_fz_copy_file(g, n->parent, name, &c);
		break;
	case 1:		/* cp -r DIR NEW */
		gfs_fz_copy_dir(g, n, n->parent, name, 0);
		break;
	case 2:		/* rm FILE */
	case 4:		/* rm -r DIR */
		gfs_fz_remove(g, n, 0);
		break;
	case 5:		/* mv NODE NEW */
		if (!ar->fmt->rename)
			break;
		have = !gfs_fz_snap(ar, &before);
		ar->err[0] = 0;
		r = ar->fmt->rename(ar, n, n->parent, name);
		gfs_fz_refused(g, "rename", name, r, have, &before);
		break;
	}
	gfs_buf_release(&c);
	gfs_buf_release(&before);
}

static int gfs_fuzz_grow(const char *fmt, const uint8_t *data, size_t len)
{
	struct gfs_opts o = { 0 };
	struct gfs_archive *ar = NULL, *again = NULL;
	struct gfs_fz_grow g;
	struct gfs_buf saved = GFS_BUF_INIT;
	char err[600];

	o.format = fmt;
	o.force = 1;	/* a fuzzed input's CRCs are mostly wrong: grow it all the same */
	if (gfs_archive_open_mem(data, len, "fuzz.bin", &o, &ar, err, sizeof(err)))
		return 0;
	ar->log = gfs_fuzz_quiet;
	memset(&g, 0, sizeof(g));
	g.ar = ar;
	g.seed = gfs_crc32(0, data, len < 4096 ? len : 4096) | 1;
	for (int i = 0; i < 6 && !g.bad && !ar->readonly; i++)
		gfs_fz_step(&g);
	if (!g.bad && !ar->readonly && !gfs_archive_save_mem(ar, &saved)) {
		if (gfs_archive_open_mem(saved.data, saved.len, "fuzz.bin", &o, &again, err, sizeof(err))) {
			fprintf(stderr, "%s: grown or shrunk, the saved archive does not load: %s\n",
				ar->fmt->name, err);
			g.bad = 1;
		} else {
			again->log = gfs_fuzz_quiet;
			gfs_fuzz_render(again, again->root);
			gfs_archive_close(again);
		}
	}
	gfs_buf_release(&saved);
	free(g.nodes);
	gfs_archive_close(ar);
	return g.bad ? -1 : 0;
}

/* The core codecs fuzzed on their own (a "format" name of their own). */
int gfs_fuzz_codec(const char *name)
{
	return name && (!strcmp(name, "xml") || !strcmp(name, "layout"));
}

/*
 * The layout codec: one table with a field of every kind, a group and a
 * list, and one of parts in byte order, through both faces, and every
 * format's tables through the INI face.  The input is "VIEW TEXT\0RECORD BYTES".
 */
static const char *const gfs_fz_names[] = { "zero", "one", NULL };
static const struct gfs_field gfs_fz_item_fields[] = {
	{ .key = "x", .kind = GFS_FK_UINT, .off = 0, .width = 1 },
	{ .key = "y", .kind = GFS_FK_SINT, .off = 1, .width = 1 },
};
static const struct gfs_record gfs_fz_item = { "item", NULL, 2, gfs_fz_item_fields, 2 };
static const struct gfs_field gfs_fz_el_fields[] = {
	{ .key = "f", .kind = GFS_FK_F32, .off = 0, .width = 4 },
	{ .key = "s", .kind = GFS_FK_SINT, .off = 4, .width = 2, .flags = GFS_FF_BLANK0 },
	{ .key = "items", .kind = GFS_FK_LIST, .off = 7, .group = &gfs_fz_item, .count_off = 6,
	  .count_width = 1 },
};
static const struct gfs_record gfs_fz_el = { "el", NULL, 7, gfs_fz_el_fields, 3 };
static const struct gfs_field gfs_fz_fields[] = {
	{ .key = "u", .kind = GFS_FK_UINT, .off = 0, .width = 2, .max = 1000 },
	{ .key = "bits", .kind = GFS_FK_UINT, .off = 2, .width = 1, .shift = 2, .bits = 3 },
	{ .key = "h", .kind = GFS_FK_HEX, .off = 3, .width = 2 },
	{ .key = "e", .kind = GFS_FK_ENUM, .off = 5, .width = 1, .names = gfs_fz_names },
	{ .key = "str", .kind = GFS_FK_STR, .off = 6, .width = 4, .section = "text" },
	{ .key = "p", .kind = GFS_FK_PSTR, .off = 10, .width = 3 },
	{ .key = "pad", .kind = GFS_FK_HEXZ, .off = 14, .width = 2 },
	{ .key = "ro", .kind = GFS_FK_UINT, .off = 16, .width = 1, .flags = GFS_FF_RO },
	{ .key = "el", .kind = GFS_FK_GROUP, .group = &gfs_fz_el, .count_off = 17, .count_width = 1 },
};
static const struct gfs_record gfs_fz_rec = { "rec", NULL, 18, gfs_fz_fields, 9 };
/* parts in byte order: mask rows sized by w (shown last), a PART with the count of g, g, el to the end */
static const struct gfs_field gfs_fz_cell_fields[] = { { .key = "c", .kind = GFS_FK_UINT, .off = 0, .width = 1 } };
static const struct gfs_record gfs_fz_cell = { "cell", NULL, 1, gfs_fz_cell_fields, 1 };
static const struct gfs_field gfs_fz_mrow_fields[] = {
	{ .key = "row", .kind = GFS_FK_LIST, .group = &gfs_fz_cell, .flags = GFS_FF_TOEND },
};
static const struct gfs_record gfs_fz_mrow = { "mask", NULL, 0, gfs_fz_mrow_fields, 1 };
static const struct gfs_field gfs_fz_blk_fields[] = {
	{ .key = "b", .kind = GFS_FK_UINT, .off = 1, .width = 1 },
};
static const struct gfs_record gfs_fz_blk = { "blk", NULL, 2, gfs_fz_blk_fields, 1 };
static const struct gfs_field gfs_fz_parts_fields[] = {
	{ .key = "w", .kind = GFS_FK_UINT, .off = 0, .width = 1, .flags = GFS_FF_RO },
	{ .key = "mask", .kind = GFS_FK_GROUP, .group = &gfs_fz_mrow, .count_off = 1, .count_width = 1,
	  .size_off = 0, .size_width = 1, .view = 1 },
	{ .key = "blk", .kind = GFS_FK_PART, .group = &gfs_fz_blk, .width = 2, .section = "blk" },
	{ .key = "g", .kind = GFS_FK_GROUP, .group = &gfs_fz_item, .count_width = 1, .count_in = 2, .min = 1 },
	{ .key = "el", .kind = GFS_FK_GROUP, .group = &gfs_fz_el, .flags = GFS_FF_TOEND },
};
static const struct gfs_record gfs_fz_parts = { "parts", NULL, 2, gfs_fz_parts_fields, 5 };
static const struct gfs_field gfs_fz_row_fields[] = {
	{ .key = "u", .kind = GFS_FK_UINT, .off = 0, .width = 2, .max = 1000 },
	{ .key = "f", .kind = GFS_FK_F32, .off = 2, .width = 4 },
	{ .key = "h", .kind = GFS_FK_HEX, .off = 6, .width = 1 },
	{ .key = "s", .kind = GFS_FK_SINT, .off = 7, .width = 1, .flags = GFS_FF_BLANK0 },
	{ .key = "pad", .kind = GFS_FK_HEXZ, .off = 8, .width = 2 },
};
static const struct gfs_record gfs_fz_row = { "row", NULL, 10, gfs_fz_row_fields, 5 };
static const struct gfs_table gfs_fz_table = { "index", &gfs_fz_row, 64, 3, NULL };

/*
 * One layout through the INI face: old renders and parses back to its
 * bytes; text parses to a refusal or to bytes the table lays out.  NULL,
 * or what was wrong.
 */
static const char *gfs_fuzz_record(struct gfs_archive *ar, const struct gfs_record *rec,
				   const uint8_t *text, size_t tlen, const uint8_t *old, size_t olen)
{
	struct gfs_buf v = GFS_BUF_INIT, out = GFS_BUF_INIT;
	const char *bad = NULL;
	int r;

	size_t span = gfs_record_span(rec, old, olen), at, n;

	if (!span)
		return NULL;
	for (size_t i = 0; i < rec->nfields; i++) {	/* each part where the span has it */
		const struct gfs_field *f = &rec->fields[i];

		if ((f->kind == GFS_FK_GROUP || f->kind == GFS_FK_PART || f->kind == GFS_FK_CSTR) &&
		    (!gfs_record_part(rec, old, olen, f->key, &at, &n) || at < rec->size || at > span))
			return "a part not found where the span lays it out";
	}
	if (gfs_record_render(rec, old, olen, NULL, &v) ||
	    gfs_record_parse(ar, "f.ini", rec, old, olen, v.data, v.len, NULL, &out) ||
	    out.len != olen || (olen && memcmp(out.data, old, olen))) {
		bad = "INI: a rendered record does not parse back to its bytes";
		goto out;
	}
	gfs_buf_set_len(&out, 0);
	r = gfs_record_parse(ar, "f.ini", rec, old, olen, text, tlen, NULL, &out);
	if (r && r != -EINVAL)
		bad = "INI: a parse failed other than EINVAL";
	else if (!r && rec->size && !gfs_record_span(rec, out.data, out.len))
		bad = "INI: parsed bytes do not span the table";	/* (no fixed part: 0 elements span 0) */
out:
	gfs_buf_release(&v);
	gfs_buf_release(&out);
	return bad;
}

/*
 * Every layout, the tables above and each format's (gfs_format.layout()),
 * through the INI face, then the table above through the CSV face.
 */
static int gfs_fuzz_layout(const uint8_t *data, size_t len)
{
	const uint8_t *nul = memchr(data, 0, len);
	const uint8_t *old = nul ? nul + 1 : data + len;
	size_t tlen = nul ? (size_t)(nul - data) : len, olen = len - (size_t)(old - data);
	size_t n = olen / gfs_fz_row.size, m;
	struct gfs_buf v = GFS_BUF_INIT, out = GFS_BUF_INIT;
	struct gfs_archive ar;
	const char *bad, *which = gfs_fz_rec.section;
	int r;

	memset(&ar, 0, sizeof(ar));
	ar.path = "fuzz";
	ar.log = gfs_fuzz_quiet;
	bad = gfs_fuzz_record(&ar, &gfs_fz_rec, data, tlen, old, olen);
	if (!bad)
		bad = gfs_fuzz_record(&ar, &gfs_fz_parts, data, tlen, old, olen);
	for (size_t i = 0; !bad && gfs_formats[i]; i++) {
		const struct gfs_record *rec;

		for (size_t k = 0; !bad && gfs_formats[i]->layout && (rec = gfs_formats[i]->layout(k)); k++) {
			which = rec->section;
			bad = gfs_fuzz_record(&ar, rec, data, tlen, old, olen);
		}
	}
	if (bad)
		goto out;
	which = "csv";
	if (gfs_table_render(&gfs_fz_table, old, n, NULL, &v) ||
	    gfs_table_parse(&ar, "f.csv", &gfs_fz_table, old, n, v.data, v.len, NULL, NULL, &out, &m) ||
	    m != n || (n && memcmp(out.data, old, n * gfs_fz_row.size))) {
		bad = "CSV: a rendered table does not parse back to its bytes";
		goto out;
	}
	gfs_buf_set_len(&out, 0);
	r = gfs_table_parse(&ar, "f.csv", &gfs_fz_table, old, n, data, tlen, NULL, NULL, &out, &m);
	if (r && r != -EINVAL)
		bad = "CSV: a parse failed other than EINVAL";
	else if (!r && out.len != m * gfs_fz_row.size)
		bad = "CSV: rows and bytes disagree";
out:
	gfs_buf_release(&v);
	gfs_buf_release(&out);
	if (bad)
		fprintf(stderr, "layout %s: %s (%s)\n", which, bad, ar.err);
	return bad ? -1 : 0;
}

/* The XML reader: parses or refuses; a tree it gives is well formed. */
static int gfs_fuzz_xml(const uint8_t *data, size_t len)
{
	struct gfs_xml x;
	char why[200];
	const struct gfs_xml_el *e;
	size_t n = 0;
	int r = 0;

	if (gfs_xml_parse(data, len, &x, why, sizeof(why)))
		return strncmp(why, "line ", 5) ? (fprintf(stderr, "xml: no line in '%s'\n", why), -1) : 0;
	/* walk it depth first: every element named, its parent link right, counted once */
	for (e = x.root; e && !r;) {
		n++;
		if (!e->name[0] || !e->text || strlen(e->text) > e->textlen)
			r = -1;
		for (size_t i = 0; i < e->nattrs && !r; i++)
			if (gfs_xml_attr(e, e->attrs[i].name) != e->attrs[i].value)
				r = -1;	/* duplicate names */
		if (e->kid) {
			if (e->kid->parent != e)
				r = -1;
			e = e->kid;
			continue;
		}
		while (e && !e->next)
			e = e->parent;
		if (e)
			e = e->next;
	}
	if (!r && n != x.nodes)
		r = -1;
	if (r)
		fprintf(stderr, "xml: a malformed tree\n");
	gfs_xml_free(&x);
	return r;
}

int gfs_fuzz_one(const char *fmt, const uint8_t *data, size_t len)
{
	struct gfs_opts o = { 0 };
	struct gfs_archive *ar = NULL, *again = NULL;
	struct gfs_buf saved = GFS_BUF_INIT;
	char err[600];
	int r = 0;

	if (gfs_fuzz_codec(fmt))
		return strcmp(fmt, "xml") ? gfs_fuzz_layout(data, len) : gfs_fuzz_xml(data, len);
	o.format = fmt;
	gfs_set_log(gfs_fuzz_quiet);
	if (gfs_archive_open_mem(data, len, "fuzz.bin", &o, &ar, err, sizeof(err)))
		return 0;	/* refused: fine */
	ar->log = gfs_fuzz_quiet;
	gfs_fuzz_render(ar, ar->root);
	if (!ar->readonly && ar->fmt->save && gfs_archive_save_mem(ar, &saved) == 0) {
		if (!ar->damaged && (saved.len != len || (len && memcmp(saved.data, data, len)))) {
			size_t at = 0;

			while (at < len && at < saved.len && saved.data[at] == data[at])
				at++;
			fprintf(stderr, "%s: unedited save differs from the input at byte %zu "
				"(%zu bytes in, %zu out)\n", ar->fmt->name, at, len, saved.len);
			r = -1;
		} else if (gfs_archive_open_mem(saved.data, saved.len, "fuzz.bin", &o, &again, err, sizeof(err))) {
			if (!ar->damaged) {
				fprintf(stderr, "saved archive does not load again: %s\n", err);
				r = -1;
			}
		} else {
			again->log = gfs_fuzz_quiet;
			gfs_fuzz_render(again, again->root);
			gfs_archive_close(again);
		}
		if (!r && !ar->damaged)
			r = gfs_fuzz_same(ar, data, len);
	}
	gfs_buf_release(&saved);
	gfs_archive_close(ar);
	return r ? r : gfs_fuzz_grow(fmt, data, len);
}
