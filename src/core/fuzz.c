/* One fuzzing step, shared by the libFuzzer targets and tests/replay. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gamefs.h"
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
	return name && !strcmp(name, "xml");
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
		return gfs_fuzz_xml(data, len);
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
