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
	return r;
}
