/* Unit tests of the core codecs: gfs_rd u24, RLE, the CSV dialect, the record codec and its CSV face. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gamefs.h"
#include "gfs_codec.h"
#include "gfs_grid.h"
#include "gfs_layout.h"
#include "tap.h"

#define S(s) (const uint8_t *)(s), strlen(s)

static void test_u24(void)
{
	static const uint8_t b[4] = { 0x01, 0x02, 0x03, 0x04 };
	struct gfs_rd r;
	uint32_t v = 0;
	uint8_t p[3];

	gfs_rd_init(&r, b, sizeof(b), 0);
	ok(gfs_rd_u24le(&r, &v) == 0 && v == 0x030201 && r.pos == 3, "u24 reads 3 bytes");
	ok(gfs_rd_u24le(&r, &v) == -EBADMSG && r.pos == 3, "u24 overrun refused, cursor kept");
	gfs_put_u24le(p, 0xabcdef);
	ok(p[0] == 0xef && p[1] == 0xcd && p[2] == 0xab, "put u24");
}

static void test_rle(void)
{
	uint16_t v[300], back[300];
	struct gfs_buf b = GFS_BUF_INIT;
	size_t n, at;

	for (int i = 0; i < 300; i++)
		v[i] = i < 200 ? 7 : (uint16_t)i;
	ok(gfs_rle16_encode(v, 300, &b) == 0, "rle encode");
	ok(gfs_rle16_decode(b.data, b.len, back, 300, &n, &at) == 0 && n == 300 && at == b.len &&
	   !memcmp(v, back, sizeof(v)), "rle round trip");
	ok(gfs_rle16_decode(b.data, b.len, NULL, 299, &n, &at) == -EFBIG, "rle over max refused");
	ok(gfs_rle16_decode(b.data, b.len - 1, back, 300, &n, &at) == -EBADMSG && at < b.len,
	   "cut packet refused");
	gfs_buf_release(&b);
	/* the byte layout the games write: a repeat, then literals */
	{
		static const uint16_t c[4] = { 5, 5, 1, 2 };
		static const uint8_t want[] = { 0x81, 5, 0, 0x01, 1, 0, 2, 0 };

		ok(gfs_rle16_encode(c, 4, &b) == 0 && b.len == sizeof(want) && !memcmp(b.data, want, b.len),
		   "rle bytes");
		gfs_buf_release(&b);
	}
}

static void test_grid(void)
{
	struct gfs_archive ar;
	struct gfs_grid g;
	uint16_t cells[4];
	static const char *const names[2] = { "a", "b" };
	struct gfs_buf b = GFS_BUF_INIT;
	int64_t v;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_grid_parse(&ar, "t.csv", S("\xef\xbb\xbfx0,x1\r\n1, -1\r\n\r\n\"2\",3\n"), 2, NULL, &g) == 0 &&
	   g.header.ncells == 2 && g.nrows == 2 && g.rows[1].line == 4, "BOM, CRLF, blank line, quoted cell");
	ok(gfs_grid_u16(&ar, &g, 2, 2, 65534, cells) == 0 && cells[1] == 0xffff && cells[2] == 2,
	   "u16 grid");
	gfs_grid_release(&g);
	ok(gfs_grid_parse(&ar, "t.csv", S("1,2\n3,4\n"), 2, NULL, &g) == 0 && g.nrows == 2 &&
	   !g.header.ncells, "header optional");
	ok(gfs_grid_int(&ar, &g, 1, 1, 0, 3, &v) == -EINVAL && strstr(ar.err, "t.csv: line 2, column 2"),
	   "range error names line and column: %s", ar.err);
	gfs_grid_release(&g);
	ok(gfs_grid_parse(&ar, "t.csv", S("1,2\n3\n"), 2, NULL, &g) == -EINVAL &&
	   strstr(ar.err, "line 2: 1 values, want 2"), "short row: %s", ar.err);
	ok(gfs_grid_parse(&ar, "t.csv", S("A , \"b\"\n\"x,y\",\"q\"\"\"\n"), 2, names, &g) == 0 &&
	   !strcmp(g.rows[0].cell[0], "x,y") && !strcmp(g.rows[0].cell[1], "q\""),
	   "quoted commas and quotes, header names checked");
	gfs_grid_release(&g);
	ok(gfs_grid_parse(&ar, "t.csv", S("a,c\n"), 2, names, &g) == -EINVAL &&
	   strstr(ar.err, "column 2: header 'c', want 'b'"), "wrong header: %s", ar.err);
	ok(gfs_grid_parse(&ar, "t.csv", S("1,\"2\n"), 2, NULL, &g) == -EINVAL &&
	   strstr(ar.err, "line 1, column 2"), "open quote: %s", ar.err);
	ok(gfs_grid_parse(&ar, "t.csv", (const uint8_t *)"1\0,2\n", 5, 0, NULL, &g) == -EINVAL, "NUL refused");
	cells[0] = 1;
	cells[1] = 0xffff;
	ok(gfs_grid_xheader(&b, 2) == 0 && gfs_grid_render_u16(&b, cells, 2, 2) == 0 &&
	   !strcmp((char *)b.data, "x0,x1\n1,-1\n"), "render");
	gfs_buf_release(&b);
	{
		uint8_t bytes[4] = { 0, 255, 7, 8 };

		ok(gfs_grid_xheader_from(&b, 2, 1) == 0 && gfs_grid_render_u8(&b, bytes, 4, 2) == 0 &&
		   !strcmp((char *)b.data, "x1,x2\n0,255\n7,8\n"), "render bytes, 1-based header");
		ok(gfs_grid_parse(&ar, "t.csv", b.data, b.len, 2, NULL, &g) == 0 &&
		   gfs_grid_u8(&ar, &g, 2, 2, bytes) == 0 && bytes[1] == 255 && bytes[3] == 8,
		   "byte grid reads back");
		gfs_grid_release(&g);
		ok(gfs_grid_parse(&ar, "t.csv", S("1,256\n"), 2, NULL, &g) == 0 &&
		   gfs_grid_u8(&ar, &g, 2, 1, bytes) == -EINVAL && strstr(ar.err, "column 2"),
		   "byte out of range: %s", ar.err);
		gfs_grid_release(&g);
		gfs_buf_release(&b);
	}
}

/* A record kind as a table: a fixed part and a group counted by a field. */
static const char *const colours[] = { "red", "green", NULL };
static int ref_fmt(void *ctx, int ref, uint64_t v, struct gfs_buf *out)
{
	(void)ctx;
	(void)ref;
	return gfs_buf_printf(out, "#%llu", (unsigned long long)v);
}
static int ref_parse(void *ctx, int ref, const char *s, uint64_t *v)
{
	(void)ctx;
	(void)ref;
	if (s[0] != '#')
		return -EINVAL;
	*v = strtoull(s + 1, NULL, 10);
	return 0;
}
static const struct gfs_field elem_fields[] = {
	{ .key = "x", .kind = GFS_FK_SINT, .off = 0, .width = 1 },
	{ .key = "y", .kind = GFS_FK_UINT, .off = 1, .width = 2 },
};
static const struct gfs_record elem = { .section = "point", .size = 3, .fields = elem_fields, .nfields = 2 };
static const struct gfs_field rec_fields[] = {
	{ .key = "name", .kind = GFS_FK_STR, .off = 0, .width = 4 },
	{ .key = "colour", .kind = GFS_FK_ENUM, .off = 4, .width = 1, .bits = 4, .names = colours },
	{ .key = "level", .kind = GFS_FK_UINT, .off = 5, .width = 3, .max = 1000 },
	{ .key = "owner", .kind = GFS_FK_REF, .off = 8, .width = 2, .ref = 1 },
	{ .key = "magic", .kind = GFS_FK_HEX, .off = 10, .width = 1, .flags = GFS_FF_RO },
	{ .key = "points", .kind = GFS_FK_GROUP, .group = &elem, .count_off = 11, .count_width = 1 },
};
static const struct gfs_record rec = {
	.section = "thing", .comment = "; a test record\n", .size = 12, .fields = rec_fields, .nfields = 6
};

/* Sections and notes per field, a Pascal string in a code page, trailing-zero hex. */
static const uint16_t page[256] = { [0] = 0x2400, ['A'] = 'A', ['B'] = 'B', [0x80] = 0x00c7 };
static const struct gfs_field zrec_fields[] = {
	{ .key = "title", .kind = GFS_FK_PSTR, .off = 0, .width = 4, .charset = page },
	{ .key = "hp", .kind = GFS_FK_SINT, .off = 5, .width = 2, .section = "player", .note = "health" },
	{ .key = "pad", .kind = GFS_FK_HEXZ, .off = 7, .width = 3, .section = "unused" },
};
static const struct gfs_record zrec = {
	.section = "world", .size = 10, .fields = zrec_fields, .nfields = 3
};

static void test_record_sections(void)
{
	/* title "A\"" (length 2) with a stale 'B' after it, hp -2, pad 12 00 00 */
	static const uint8_t old[] = { 2, 'A', 0x80, 'B', 0, 0xfe, 0xff, 0x12, 0, 0 };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT, back = GFS_BUF_INIT;
	const char *want = "[world]\ntitle = \"A\xc3\x87\"\n\n[player]\n; health\nhp = -2\n\n[unused]\npad = 12\n";

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_render(&zrec, old, sizeof(old), NULL, &out) == 0 && !strcmp((char *)out.data, want),
	   "render:\n%s", (char *)out.data);
	ok(gfs_record_parse(&ar, "z.ini", &zrec, old, sizeof(old), out.data, out.len, NULL, &back) == 0 &&
	   back.len == sizeof(old) && !memcmp(back.data, old, sizeof(old)), "unchanged view, same bytes");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "z.ini", &zrec, old, sizeof(old), S("[world]\ntitle = A\xc3\x87\n[unused]\npad =\n"),
			    NULL, &back) == 0 && !memcmp(back.data, old, 7) && back.data[7] == 0,
	   "a bare string equal to the old one keeps the stale byte; an empty hex is zeros");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "z.ini", &zrec, old, sizeof(old), S("[world]\ntitle = \"B\"\n"), NULL,
			    &back) == 0 && back.data[0] == 1 && back.data[1] == 'B' && back.data[3] == 'B',
	   "a shorter string: the length byte and its characters");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "z.ini", &zrec, old, sizeof(old), S("[world]\ntitle = AC\n"), NULL,
			    &back) == -EINVAL && strstr(ar.err, "title: U+0043 has no byte"), "code page: %s", ar.err);
	ok(gfs_record_parse(&ar, "z.ini", &zrec, old, sizeof(old), S("[world]\ntitle = AAAAA\n"), NULL,
			    &back) == -EINVAL && strstr(ar.err, "longer than 4"), "string length: %s", ar.err);
	ok(gfs_record_parse(&ar, "z.ini", &zrec, old, sizeof(old), S("[world]\nhp = 1\n"), NULL,
			    &back) == -EINVAL && strstr(ar.err, "line 2: unknown key hp in [world]"),
	   "a key is found in its own section: %s", ar.err);
	ok(gfs_record_parse(&ar, "z.ini", &zrec, old, sizeof(old), S("[unused]\npad = 0x11223344\n"), NULL,
			    &back) == -EINVAL && strstr(ar.err, "pad: want at most 3 bytes"), "hex: %s", ar.err);
	ok(gfs_record_parse(&ar, "z.ini", &zrec, old, sizeof(old), S("[player]\nhp = 7\n[unused]\npad = 0x0102\n"),
			    NULL, &back) == 0 && back.data[5] == 7 && back.data[6] == 0 && back.data[7] == 1 &&
	   back.data[8] == 2 && back.data[9] == 0, "patched in their sections");
	gfs_buf_release(&back);
	gfs_buf_release(&out);
}

/* Found by the layout fuzz target: values whose text the faces would trim or split. */
static const struct gfs_field edge_fields[] = {
	{ .key = "s", .kind = GFS_FK_STR, .off = 0, .width = 4 },
	{ .key = "p", .kind = GFS_FK_PSTR, .off = 4, .width = 3 },
};
static const struct gfs_record edge = { .section = "e", .size = 8, .fields = edge_fields, .nfields = 2 };

static void test_record_edges(void)
{
	/* " a " with a blank at both ends; a Pascal string holding a newline, a NUL and 'q' */
	static const uint8_t old[] = { ' ', 'a', ' ', 0, 3, '\n', 0, 'q' };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT, back = GFS_BUF_INIT;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_render(&edge, old, sizeof(old), NULL, &out) == 0 &&
	   !strcmp((char *)out.data, "[e]\ns = \\x20a\\x20\np = \"\\x0a\\x00q\"\n"),
	   "blanks at the ends and control bytes escaped:\n%s", (char *)out.data);
	ok(gfs_record_parse(&ar, "e.ini", &edge, old, sizeof(old), out.data, out.len, NULL, &back) == 0 &&
	   back.len == sizeof(old) && !memcmp(back.data, old, sizeof(old)), "and read back to the same bytes");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "e.ini", &edge, old, sizeof(old), S("[e]\np = \"\\x01b\"\n"), NULL, &back) == 0 &&
	   back.data[4] == 2 && back.data[5] == 1 && back.data[6] == 'b', "\\xNN written in a Pascal string");
	gfs_buf_release(&back);
	gfs_buf_release(&out);
}

static void test_record(void)
{
	/* name "ab", colour 1 with high bits 0xf0 kept, level 300, owner 7, magic 0x5a, 1 point, tail */
	static const uint8_t old[] = { 'a', 'b', 0, 0, 0xf1, 0x2c, 0x01, 0, 7, 0, 0x5a, 1,
				       0xff, 9, 0, 'T' };
	struct gfs_rec_refs refs = { ref_fmt, ref_parse, "a #number", NULL };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT, back = GFS_BUF_INIT;
	const char *want = "; a test record\n[thing]\nname = ab\ncolour = green\nlevel = 300\n"
			   "owner = #7\nmagic = 0x5a\n\n[point 0]\nx = -1\ny = 9\n";

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_span(&rec, old, sizeof(old)) == 15, "span: fixed part and one element");
	ok(gfs_record_render(&rec, old, sizeof(old), &refs, &out) == 0 && !strcmp((char *)out.data, want),
	   "render:\n%s", (char *)out.data);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old), out.data, out.len, &refs, &back) == 0 &&
	   back.len == sizeof(old) && !memcmp(back.data, old, sizeof(old)), "unchanged view, same bytes");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old),
			    S("[thing]\ncolour = red\nlevel = 0x10\nowner = #9\n[point 0]\ny = 9\n[point 1]\nx = 5\n"),
			    &refs, &back) == 0 && back.len == sizeof(old) + 3 && back.data[4] == 0xf0 &&
	   back.data[5] == 16 && back.data[8] == 9 && back.data[11] == 2 && back.data[12] == 0xff &&
	   back.data[15] == 5 && back.data[back.len - 1] == 'T', "patched fields, a new element, tail kept");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old), S("[thing]\nname = abc\n"), &refs,
			    &back) == 0 && back.len == sizeof(old) - 3 && back.data[11] == 0 &&
	   back.data[2] == 'c' && back.data[back.len - 1] == 'T', "no element sections: the group is empty");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old), S("[thing]\n\nlevel = 1001\n"), &refs,
			    &back) == -EINVAL && strstr(ar.err, "t.ini: line 3: level: '1001' is not in 0..1000"),
	   "range: %s", ar.err);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old), S("[thing]\nmagic = 1\n"), &refs,
			    &back) == -EINVAL && strstr(ar.err, "magic: read-only"), "read-only: %s", ar.err);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old), S("[thing]\nowner = bob\n"), &refs,
			    &back) == -EINVAL && strstr(ar.err, "owner: 'bob' is not a #number"), "ref: %s", ar.err);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old), S("[point 1]\nx = 1\n"), &refs,
			    &back) == -EINVAL && strstr(ar.err, "out of order"), "group order: %s", ar.err);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old), S("[thing]\nname = abcde\n"), &refs,
			    &back) == -EINVAL && strstr(ar.err, "at most 4 bytes"), "string length: %s", ar.err);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old), S("[thing]\nnope = 1\n"), &refs,
			    &back) == -EINVAL && strstr(ar.err, "unknown key nope"), "unknown key: %s", ar.err);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old), S("[thing]\nlevel = 3\nowner = #7\nlevel = 4\n"),
			    &refs, &back) == -EINVAL && strstr(ar.err, "t.ini: line 4: level given twice"),
	   "a key given twice: %s", ar.err);
	ok(gfs_record_parse(&ar, "t.ini", &rec, old, sizeof(old), S("[point 0]\nx = 1\n[point 1]\nx = 2\n"),
			    &refs, &back) == 0, "the same key in two elements is no repeat");
	gfs_buf_release(&back);
	ok(gfs_record_render(&rec, old, 14, &refs, &out) == -EBADMSG, "short record refused");
	gfs_buf_release(&back);
	gfs_buf_release(&out);
}

/* A group whose elements end in a list: a path of points. */
static const struct gfs_field pt_fields[] = {
	{ .key = "x", .kind = GFS_FK_UINT, .off = 0, .width = 1 },
	{ .key = "y", .kind = GFS_FK_UINT, .off = 1, .width = 1 },
};
static const struct gfs_record pt = { .section = "pt", .size = 2, .fields = pt_fields, .nfields = 2 };
static const struct gfs_field path_fields[] = {
	{ .key = "id", .kind = GFS_FK_UINT, .off = 0, .width = 1 },
	{ .key = "points", .kind = GFS_FK_LIST, .off = 2, .group = &pt, .count_off = 1, .count_width = 1,
	  .want = "an x,y pair" },
};
static const struct gfs_record path = { .section = "path", .size = 2, .fields = path_fields, .nfields = 2 };
static const struct gfs_field paths_fields[] = {
	{ .key = "n", .kind = GFS_FK_UINT, .off = 0, .width = 1, .flags = GFS_FF_RO },
	{ .key = "paths", .kind = GFS_FK_GROUP, .group = &path, .count_off = 0, .count_width = 1 },
};
static const struct gfs_record paths = { .section = "map", .size = 1, .fields = paths_fields, .nfields = 2 };

static void test_record_list(void)
{
	/* two paths: id 7 with (1,2) (3,4); id 8 with none; then a tail */
	static const uint8_t old[] = { 2, 7, 2, 1, 2, 3, 4, 8, 0, 'T' };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT, back = GFS_BUF_INIT;
	const char *want = "[map]\nn = 2\n\n[path 0]\nid = 7\npoints = 1,2 3,4\n\n[path 1]\nid = 8\npoints =\n";

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_span(&paths, old, sizeof(old)) == 9, "span: elements of their own sizes");
	ok(gfs_record_span(&paths, old, 6) == 0, "a list past the end does not fit");
	ok(gfs_record_render(&paths, old, sizeof(old), NULL, &out) == 0 && !strcmp((char *)out.data, want),
	   "render:\n%s", (char *)out.data);
	ok(gfs_record_parse(&ar, "p.ini", &paths, old, sizeof(old), out.data, out.len, NULL, &back) == 0 &&
	   back.len == sizeof(old) && !memcmp(back.data, old, sizeof(old)), "unchanged view, same bytes");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "p.ini", &paths, old, sizeof(old),
			    S("[map]\nn = 2\n[path 0]\npoints = 5,6\n[path 1]\nid = 8\npoints =  9,9   1,1 2,2\n"
			      "[path 2]\nid = 3\n"), NULL, &back) == 0 && back.len == 16 &&
	   !memcmp(back.data, "\x03\x07\x01\x05\x06\x08\x03\x09\x09\x01\x01\x02\x02\x03\x00T", 16),
	   "lists shrink and grow, an element is added, the tail stays");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "p.ini", &paths, old, sizeof(old), S("[path 0]\npoints = 1,2,3\n"), NULL,
			    &back) == -EINVAL && strstr(ar.err, "line 2: points: '1,2,3' is not an x,y pair"),
	   "an item of three: %s", ar.err);
	ok(gfs_record_parse(&ar, "p.ini", &paths, old, sizeof(old), S("[path 0]\npoints = 1,256\n"), NULL,
			    &back) == -EINVAL && strstr(ar.err, "line 2: y: '256'"), "an item out of range: %s", ar.err);
	gfs_buf_release(&back);
	gfs_buf_release(&out);
}

/* Tagged elements: kind 0 is kind and id; kind 1 adds a value and a list of data bytes. */
static const struct gfs_record byte_rec = { .section = "byte", .size = 1 };
#define TAG_COMMON { .key = "kind", .kind = GFS_FK_UINT, .off = 0, .width = 1 }, \
	{ .key = "id", .kind = GFS_FK_UINT, .off = 1, .width = 1 }
static const struct gfs_field k0_fields[] = { TAG_COMMON };
static const struct gfs_field k1_fields[] = {
	TAG_COMMON, { .key = "value", .kind = GFS_FK_UINT, .off = 2, .width = 1 },
	{ .key = "data", .kind = GFS_FK_LIST, .off = 4, .group = &byte_rec, .count_off = 3, .count_width = 1,
	  .min = 1, .why = "empty its data first" },
};
static const struct gfs_record k0 = { .section = "thing", .size = 2, .fields = k0_fields, .nfields = 2 };
static const struct gfs_record k1 = { .section = "thing", .size = 4, .fields = k1_fields, .nfields = 4 };
static const struct gfs_record *const kinds[] = { &k0, &k1 };
static const struct gfs_field tview_fields[] = {
	TAG_COMMON, { .key = "value", .kind = GFS_FK_UINT, .off = 2, .width = 1, .why = "only kind 1 has a value" },
};
static const struct gfs_record tview = { .section = "thing", .size = 3, .fields = tview_fields, .nfields = 3 };
static const struct gfs_field tagged_fields[] = {
	{ .key = "thing", .kind = GFS_FK_GROUP, .group = &tview, .count_off = 0, .count_width = 1,
	  .variants = kinds, .nvariants = 2, .match = "id" },
};
static const struct gfs_record tagged = { .section = "r", .size = 1, .fields = tagged_fields, .nfields = 1 };

static void test_record_tagged(void)
{
	static const uint8_t old[] = { 2, 0, 7, 1, 8, 5, 2, 0xaa, 0xbb, 'T' };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT, back = GFS_BUF_INIT;
	const char *want = "[r]\n\n[thing 0]\nkind = 0\nid = 7\nvalue = 0\n\n[thing 1]\nkind = 1\nid = 8\nvalue = 5\n";
	size_t at, n;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_span(&tagged, old, sizeof(old)) == 9, "tagged: each element of its kind's size");
	ok(gfs_record_elem(&tagged, old, sizeof(old), "thing", 1, &at, &n) == &k1 && at == 3 && n == 6 &&
	   gfs_record_items(&k1, old + at, n, "data", &at, &n) && at == 4 && n == 2, "an element and its list found");
	ok(gfs_record_render(&tagged, old, sizeof(old), NULL, &out) == 0 && !strcmp((char *)out.data, want),
	   "render, one table for both kinds:\n%s", (char *)out.data);
	ok(gfs_record_parse(&ar, "g.ini", &tagged, old, sizeof(old), out.data, out.len, NULL, &back) == 0 &&
	   back.len == sizeof(old) && !memcmp(back.data, old, sizeof(old)), "unchanged view, same bytes");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "g.ini", &tagged, old, sizeof(old), S("[thing 0]\nvalue = 3\nkind = 1\nid = 7\n"
			    "[thing 1]\nkind = 1\nid = 8\nvalue = 5\n"), NULL, &back) == 0 && back.len == 13 &&
	   !memcmp(back.data, "\x02\x01\x07\x03\x01\x00\x01\x08\x05\x02\xaa\xbbT", 13),
	   "a new kind: laid out anew, a new list of min items");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "g.ini", &tagged, old, sizeof(old), S("[thing 0]\nkind = 1\nid = 8\nvalue = 5\n"),
			    NULL, &back) == 0 && back.len == 8 && !memcmp(back.data, "\x01\x01\x08\x05\x02\xaa\xbbT", 8),
	   "an element gone: the lists follow the match field");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "g.ini", &tagged, old, sizeof(old), S("[thing 0]\nvalue = 4\n[thing 1]\nid = 8\n"), NULL,
			    &back) == -EINVAL && strstr(ar.err, "g.ini: [thing 0]: only kind 1 has a value"),
	   "a value the kind lacks: %s", ar.err);
	ok(gfs_record_parse(&ar, "g.ini", &tagged, old, sizeof(old), S("[thing 0]\nid = 7\n[thing 1]\nkind = 0\nvalue = 0\n"),
			    NULL, &back) == -EINVAL && strstr(ar.err, "g.ini: [thing 1]: empty its data first"),
	   "a list the kind lacks: %s", ar.err);
	ok(gfs_record_parse(&ar, "g.ini", &tagged, old, sizeof(old), S("[thing 0]\nkind = 9\n[thing 1]\nid = 8\n"), NULL,
			    &back) == -EINVAL && strstr(ar.err, "[thing 0]: kind 9 is not one the format has"),
	   "an unknown kind: %s", ar.err);
	gfs_buf_release(&back);
	gfs_buf_release(&out);
}

/* The lines face: an element a line, no header, no index; comments and blank lines skipped. */
static const struct gfs_field ln_fields[] = {
	{ .key = "a", .kind = GFS_FK_SINT, .off = 0, .width = 2 },
	{ .key = "b", .kind = GFS_FK_UINT, .off = 2, .width = 1 },
};
static const struct gfs_record ln_rec = { .section = "ln", .size = 3, .fields = ln_fields, .nfields = 2 };
static const struct gfs_table ln_table = { .index = "index", .rec = &ln_rec, .max = 3 };

/* A field whose text the format writes: a byte n shows as "n stars" of '*' (the fmt/scan hooks). */
static int star_fmt(const struct gfs_field *f, const uint8_t *base, struct gfs_buf *out)
{
	int r = 0;

	for (unsigned k = 0; k < base[f->off] && !r; k++)
		r = gfs_buf_addc(out, '*');
	return r;
}

static int star_scan(const struct gfs_field *f, uint8_t *base, const char *text, char *why, size_t whysz)
{
	if (strspn(text, "*") != strlen(text) || strlen(text) > 255) {
		snprintf(why, whysz, "'%s' is not stars", text);
		return -EINVAL;
	}
	base[f->off] = (uint8_t)strlen(text);
	return 0;
}
static const struct gfs_field star_fields[] = {
	{ .key = "s", .kind = GFS_FK_BYTES, .off = 1, .width = 1, .fmt = star_fmt, .scan = star_scan },
};
static const struct gfs_record star_rec = { .section = "st", .size = 2, GFS_FIELDS(star_fields) };
static const struct gfs_table star_table = { .index = "index", .rec = &star_rec, .max = 3 };

static void test_lines(void)
{
	static const uint8_t old[] = { 0xff, 0xff, 7, 5, 0, 9 };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT, back = GFS_BUF_INIT;
	size_t n;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_lines_render(&ln_table, old, 2, NULL, &out) == 0 && !strcmp((char *)out.data, "-1,7\n5,9\n"),
	   "lines: render");
	ok(gfs_lines_parse(&ar, "l.txt", &ln_table, old, 2, out.data, out.len, NULL, &back, &n) == 0 && n == 2 &&
	   back.len == sizeof(old) && !memcmp(back.data, old, sizeof(old)), "lines: unchanged view, same bytes");
	gfs_buf_set_len(&back, 0);
	ok(gfs_lines_parse(&ar, "l.txt", &ln_table, old, 2, S("\xef\xbb\xbf# c\n\n -1 , 7 \r\n2,3\n4,5\n"), NULL,
			   &back, &n) == 0 && n == 3 && back.len == 9 &&
	   !memcmp(back.data, "\xff\xff\x07\x02\x00\x03\x04\x00\x05", 9), "lines: BOM, comment, blanks; a line more");
	ok(gfs_lines_parse(&ar, "l.txt", &ln_table, old, 2, S("1,2\n\n1\n"), NULL, &back, &n) == -EINVAL &&
	   strstr(ar.err, "l.txt: line 3: 1 values, want 2"), "lines: a short line: %s", ar.err);
	ok(gfs_lines_parse(&ar, "l.txt", &ln_table, old, 2, S("1,256\n"), NULL, &back, &n) == -EINVAL &&
	   strstr(ar.err, "l.txt: line 1: b: '256'"), "lines: a value out of range: %s", ar.err);
	ok(gfs_lines_parse(&ar, "l.txt", &ln_table, old, 2, S("1,1\n1,1\n1,1\n1,1\n"), NULL, &back, &n) == -EINVAL &&
	   strstr(ar.err, "line 4: more than 3 values"), "lines: too many: %s", ar.err);
	gfs_buf_set_len(&out, 0);
	gfs_buf_set_len(&back, 0);
	ok(gfs_lines_render(&star_table, old, 3, NULL, &out) == 0 && out.len == 255 + 5 + 9 + 3 &&
	   out.data[255] == '\n' && out.data[261] == '\n', "lines: a field's own text (fmt)");
	ok(gfs_lines_parse(&ar, "s.txt", &star_table, old, 3, S("***\n**\n"), NULL, &back, &n) == 0 && n == 2 &&
	   !memcmp(back.data, "\xff\x03\x07\x02", 4), "lines: a field's own text read back (scan)");
	ok(gfs_lines_parse(&ar, "s.txt", &star_table, old, 3, S("*x\n"), NULL, &back, &n) == -EINVAL &&
	   strstr(ar.err, "s.txt: line 1: s: '*x' is not stars"), "lines: scan's why: %s", ar.err);
	gfs_buf_release(&back);
	gfs_buf_release(&out);
}

/* An element that ends in three lists, one after another, each with its own count. */
static const struct gfs_field w_fields[] = { { .key = "w", .kind = GFS_FK_UINT, .off = 0, .width = 2 } };
static const struct gfs_record w16 = { .section = "w", .size = 2, .fields = w_fields, .nfields = 1 };
static const struct gfs_field opt_fields[] = {
	{ .key = "id", .kind = GFS_FK_UINT, .off = 0, .width = 1 },
	{ .key = "pts", .kind = GFS_FK_LIST, .off = 4, .group = &pt, .count_off = 1, .count_width = 1,
	  .want = "an x,y pair" },
	{ .key = "words", .kind = GFS_FK_LIST, .off = 4, .group = &w16, .count_off = 2, .count_width = 1 },
	{ .key = "refs", .kind = GFS_FK_LIST, .off = 4, .group = &pt, .count_off = 3, .count_width = 1 },
};
static const struct gfs_record opt = { .section = "opt", .size = 4, .fields = opt_fields, .nfields = 4 };
static const struct gfs_field opts_fields[] = {
	{ .key = "opts", .kind = GFS_FK_GROUP, .group = &opt, .count_off = 0, .count_width = 1 },
};
static const struct gfs_record opts = { .section = "set", .size = 1, .fields = opts_fields, .nfields = 1 };

static int sum_fields(void *ctx, const struct gfs_field *f, uint64_t v)
{
	(void)f;
	*(uint64_t *)ctx += v;
	return 0;
}

static void test_record_lists(void)
{
	/* two options: id 1 with pts (1,2), words 0x0304 0x0506, refs (7,8); id 9 with none; a tail */
	static const uint8_t old[] = { 2, 1, 1, 2, 1, 1, 2, 4, 3, 6, 5, 7, 8, 9, 0, 0, 0, 'T' };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT, back = GFS_BUF_INIT;
	const char *want = "[set]\n\n[opt 0]\nid = 1\npts = 1,2\nwords = 772 1286\nrefs = 7,8\n\n"
			   "[opt 1]\nid = 9\npts =\nwords =\nrefs =\n";
	uint64_t sum = 0;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_span(&opts, old, sizeof(old)) == 17, "span: three lists an element");
	ok(gfs_record_span(&opts, old, 12) == 0, "the last list past the end does not fit");
	ok(gfs_record_each(&opts, old, sizeof(old), sum_fields, &sum) == 0 &&
	   sum == 1 + 1 + 2 + 772 + 1286 + 7 + 8 + 9, "each visits the items of every list: %llu",
	   (unsigned long long)sum);
	ok(gfs_record_render(&opts, old, sizeof(old), NULL, &out) == 0 && !strcmp((char *)out.data, want),
	   "render:\n%s", (char *)out.data);
	ok(gfs_record_parse(&ar, "o.ini", &opts, old, sizeof(old), out.data, out.len, NULL, &back) == 0 &&
	   back.len == sizeof(old) && !memcmp(back.data, old, sizeof(old)), "unchanged view, same bytes");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "o.ini", &opts, old, sizeof(old),
			    S("[opt 0]\nid = 1\npts = 1,2 3,4\nwords = 772 1286\nrefs = 7,8\n[opt 1]\nid = 9\n"),
			    NULL, &back) == 0 && back.len == sizeof(old) + 2 &&
	   !memcmp(back.data, "\x02\x01\x02\x02\x01\x01\x02\x03\x04\x04\x03\x06\x05\x07\x08\x09\0\0\0T", 20),
	   "the first list grows, the others move along");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "o.ini", &opts, old, sizeof(old),
			    S("[opt 0]\nid = 1\nwords = 5\n[opt 1]\nid = 9\n"), NULL, &back) == 0 &&
	   back.len == sizeof(old) - 2 &&
	   !memcmp(back.data, "\x02\x01\x01\x01\x01\x01\x02\x05\x00\x07\x08\x09\0\0\0T", 16),
	   "the middle list shrinks, the one after it kept");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "o.ini", &opts, old, sizeof(old),
			    S("[opt 0]\nid = 1\nrefs =\n[opt 1]\nid = 9\nrefs = 1,1 2,2\npts = 3,3\n"), NULL,
			    &back) == 0 && back.len == sizeof(old) + 4 &&
	   !memcmp(back.data, "\x02\x01\x01\x02\x00\x01\x02\x04\x03\x06\x05\x09\x01\x00\x02\x03\x03\x01\x01"
		   "\x02\x02T", 22), "the last list emptied; lists of an element set in any order");
	gfs_buf_release(&back);
	ok(gfs_record_parse(&ar, "o.ini", &opts, old, sizeof(old), S("[opt 0]\nid = 1\nwords = 1 x\n"),
			    NULL, &back) == -EINVAL && strstr(ar.err, "line 3: w: 'x'"), "a bad item: %s", ar.err);
	ok(gfs_record_parse(&ar, "o.ini", &opts, old, sizeof(old), S("[opt 0]\nid = 1\nrefs = 1\n"),
			    NULL, &back) == -EINVAL && strstr(ar.err, "line 3: refs: '1' is not an item"),
	   "an item of one field where two are wanted: %s", ar.err);
	gfs_buf_release(&back);
	gfs_buf_release(&out);
}

/* Elements of 8 bytes: x (u8), step (s16), at (f32), a byte no field covers; columns in view order */
static const struct gfs_field el_fields[] = {
	{ .key = "x", .kind = GFS_FK_UINT, .off = 0, .width = 1, .max = 59 },
	{ .key = "at", .kind = GFS_FK_F32, .off = 3, .width = 4 },
	{ .key = "step", .kind = GFS_FK_SINT, .off = 1, .width = 2, .flags = GFS_FF_BLANK0 },
};
static const struct gfs_record el = { .section = "el", .size = 8, .fields = el_fields, .nfields = 3 };

static int el_check(void *ctx, size_t i, size_t n, uint8_t *e, const uint8_t *old, char *why,
		    size_t whysz)
{
	(void)ctx;
	(void)n;
	if (!old && e[0] == 13)
		return snprintf(why, whysz, "element %zu: x 13 is unlucky", i), -EINVAL;
	return 0;
}

static const struct gfs_table el_table = { .index = "n", .rec = &el, .max = 4, .min_cols = 2,
					   .check = el_check };

static void test_table(void)
{
	/* x 5, step -2, at 1.5, 0xee; x 7, step 0, at 0.1f, 0x11 */
	static const uint8_t old[] = { 5, 0xfe, 0xff, 0, 0, 0xc0, 0x3f, 0xee,
				       7, 0, 0, 0xcd, 0xcc, 0xcc, 0x3d, 0x11 };
	const char *want = "n,x,at,step\n0,5,1.5,-2\n1,7,0.100000001,\n";
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT, back = GFS_BUF_INIT;
	size_t n = 0;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_table_render(&el_table, old, 2, NULL, &out) == 0 && !strcmp((char *)out.data, want),
	   "table render:\n%s", (char *)out.data);
	ok(gfs_table_parse(&ar, "t.csv", &el_table, old, 2, out.data, out.len, NULL, NULL, &back, &n) == 0 &&
	   n == 2 && back.len == sizeof(old) && !memcmp(back.data, old, sizeof(old)),
	   "unchanged table, same bytes");
	gfs_buf_set_len(&back, 0);
	ok(gfs_table_parse(&ar, "t.csv", &el_table, old, 2, S("0,5,1.5,-2\n1,8,0.100000001\n2,1,-0,3\n"), NULL, NULL,
			   &back, &n) == 0 && n == 3 && back.data[8] == 8 && back.data[15] == 0x11 &&
	   back.data[16] == 1 && back.data[17] == 3 && back.data[22] == 0x80 && back.data[23] == 0,
	   "a changed field, a short row (step left out: empty), a new element (uncovered byte kept, new one zero)");
	gfs_buf_set_len(&back, 0);
	ok(gfs_table_parse(&ar, "t.csv", &el_table, old, 2, S("n,x,at,step\n0,5,1.5,-2\n"), NULL, NULL,
			   &back, &n) == 0 && n == 1 && back.len == 8, "the last row removed: one element");
	gfs_buf_set_len(&back, 0);
	ok(gfs_table_parse(&ar, "t.csv", &el_table, old, 2, S("0,5,1.5,-2\n2,7,1\n"), NULL, NULL, &back, &n) ==
	   -EINVAL && strstr(ar.err, "t.csv: line 2, column 1 (n): want 1 (rows stay in order") &&
	   back.len == 0, "row N is element N: %s", ar.err);
	ok(gfs_table_parse(&ar, "t.csv", &el_table, old, 2, S("0,60,1.5\n"), NULL, NULL, &back, &n) ==
	   -EINVAL && strstr(ar.err, "t.csv: line 1, column 2 (x): '60' is not in 0..59"),
	   "a value names line and column: %s", ar.err);
	ok(gfs_table_parse(&ar, "t.csv", &el_table, old, 2, S("0,5,nan\n"), NULL, NULL, &back, &n) ==
	   -EINVAL && strstr(ar.err, "column 3 (at): nan is not a finite number"), "floats: %s", ar.err);
	{
		/* a NaN's and an infinity's bits show as 0x and 8 hex digits, and read back the same */
		static const uint8_t odd[] = { 5, 0, 0, 0x01, 0x00, 0xc0, 0xff, 0xee,
					       7, 0, 0, 0x00, 0x00, 0x80, 0x7f, 0x11 };

		gfs_buf_set_len(&out, 0);
		gfs_buf_set_len(&back, 0);
		ok(gfs_table_render(&el_table, odd, 2, NULL, &out) == 0 &&
		   strstr((char *)out.data, "0,5,0xffc00001,\n1,7,0x7f800000,\n") &&
		   gfs_table_parse(&ar, "t.csv", &el_table, odd, 2, out.data, out.len, NULL, NULL, &back, &n) == 0 &&
		   back.len == sizeof(odd) && !memcmp(back.data, odd, sizeof(odd)),
		   "NaN and infinity as their bits, both ways:\n%s", (char *)out.data);
		gfs_buf_set_len(&back, 0);
	}
	ok(gfs_table_parse(&ar, "t.csv", &el_table, old, 2, S("0,1\n"), NULL, NULL, &back, &n) ==
	   -EINVAL && strstr(ar.err, "t.csv: line 1: 2 values, want 4"), "row shape: %s", ar.err);
	ok(gfs_table_parse(&ar, "t.csv", &el_table, old, 2, S("n,y\n0,5,1\n"), NULL, NULL, &back, &n) ==
	   -EINVAL && strstr(ar.err, "header 'y', want 'x'"), "header names the keys: %s", ar.err);
	ok(gfs_table_parse(&ar, "t.csv", &el_table, old, 2, S("0,5,1.5\n1,7,0.100000001\n2,13,0\n"), NULL, NULL, &back,
			   &n) == -EINVAL && strstr(ar.err, "t.csv: line 3: element 2: x 13 is unlucky"),
	   "check() refuses a row with its line: %s", ar.err);
	ok(gfs_table_parse(&ar, "t.csv", &el_table, old, 2, S("0,1,0\n1,1,0\n2,1,0\n3,1,0\n4,1,0\n"), NULL, NULL,
			   &back, &n) == -EINVAL && strstr(ar.err, "t.csv: 5 rows, at most 4"), "max: %s", ar.err);
	gfs_buf_release(&back);
	gfs_buf_release(&out);
}

/* A table read in place: two int16 arrays (one a column), elements 2 bytes apart, a slot array. */
static const struct gfs_field col_fields[] = {
	{ .key = "a", .kind = GFS_FK_SINT, .off = 0, .width = 2 },
	{ .key = "b", .kind = GFS_FK_SINT, .off = 6, .width = 2 },
};
static const struct gfs_record cols = { .size = 8, .fields = col_fields, .nfields = 2 };

static int col_used(const uint8_t *e)
{
	return e[6] || e[7];
}

static int col_check(void *ctx, size_t c, const uint8_t *e, const uint8_t *old, char *why, size_t whysz)
{
	(void)ctx;
	if (c == 0 && e[0] == 99 && old[0] != 99)
		return snprintf(why, whysz, "99 is too much"), -EINVAL;
	return 0;
}

static const struct gfs_table slots_table = { .index = "s", .rec = &cols, .stride = 2, .used = col_used,
					      .check_cell = col_check };
static const struct gfs_table fixed_table = { .index = "s", .rec = &cols, .stride = 2 };

static void test_table_patch(void)
{
	/* a = 1, 2, 3; b = 5, 0, 7: slots 0 and 2 used */
	static const uint8_t old[] = { 1, 0, 2, 0, 3, 0, 5, 0, 0, 0, 7, 0 };
	static const uint8_t moved[] = { 0, 0, 4, 0, 3, 0, 0, 0, 8, 0, 7, 0 };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT;
	uint8_t p[sizeof(old)];

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	memcpy(p, old, sizeof(p));
	ok(gfs_table_render(&slots_table, p, 3, NULL, &out) == 0 && !strcmp((char *)out.data, "s,a,b\n0,1,5\n2,3,7\n"),
	   "slots: the used ones, in place:\n%s", (char *)out.data);
	ok(gfs_table_patch(&ar, "s.csv", &slots_table, p, 3, out.data, out.len, NULL, NULL) == 0 &&
	   !memcmp(p, old, sizeof(p)), "slots: unchanged view, same bytes");
	ok(gfs_table_patch(&ar, "s.csv", &slots_table, p, 3, S("s,a,b\n,4,8\n2,3,7\n"), NULL, NULL) == 0 &&
	   !memcmp(p, moved, sizeof(p)), "slots: a row without a slot takes the free one, a slot without a row is cleared");
	memcpy(p, old, sizeof(p));
	ok(gfs_table_patch(&ar, "s.csv", &slots_table, p, 3, S("0,1,5\n0,1,5\n"), NULL, NULL) == -EINVAL &&
	   strstr(ar.err, "s.csv: line 2, column 1 (s): this slot has a row already"), "slots: once: %s", ar.err);
	ok(gfs_table_patch(&ar, "s.csv", &slots_table, p, 3, S("s,a,b\n,1,1\n,1,1\n"), NULL, NULL) == -EINVAL &&
	   strstr(ar.err, "line 3, column 1 (s): no free slot left"), "slots: no free one: %s", ar.err);
	ok(gfs_table_patch(&ar, "s.csv", &slots_table, p, 3, S("0,99,5\n"), NULL, NULL) == -EINVAL &&
	   strstr(ar.err, "s.csv: line 1, column 2 (a): 99 is too much"), "check_cell names the cell: %s", ar.err);
	memcpy(p, old, sizeof(p));
	gfs_buf_set_len(&out, 0);
	ok(gfs_table_render(&fixed_table, p, 3, NULL, &out) == 0 &&
	   !strcmp((char *)out.data, "s,a,b\n0,1,5\n1,2,0\n2,3,7\n") &&
	   gfs_table_patch(&ar, "s.csv", &fixed_table, p, 3, S("0,1,5\n1,2,-1\n2,3,7\n"), NULL, NULL) == 0 &&
	   p[8] == 0xff && p[9] == 0xff && !memcmp(p, old, 8), "in place: one word patched");
	ok(gfs_table_patch(&ar, "s.csv", &fixed_table, p, 3, S("0,1,5\n1,2,0\n"), NULL, NULL) == -EINVAL &&
	   strstr(ar.err, "s.csv: 2 rows, want 3"), "in place: the count stays: %s", ar.err);
	gfs_buf_release(&out);
}

/* Adding and removing an element is a codec operation: the count field follows. */
static void test_resize(void)
{
	/* two paths: id 7 with (1,2) (3,4); id 8 with none; then a tail */
	static const uint8_t old[] = { 2, 7, 2, 1, 2, 3, 4, 8, 0, 'T' };
	static const uint8_t grown[] = { 3, 7, 2, 1, 2, 3, 4, 8, 0, 0, 0, 'T' };
	static const uint8_t shrunk[] = { 1, 7, 2, 1, 2, 3, 4, 'T' };
	struct gfs_buf out = GFS_BUF_INIT;

	ok(gfs_record_resize(&paths, &paths_fields[1], old, sizeof(old), 3, &out) == 0 &&
	   out.len == sizeof(grown) && !memcmp(out.data, grown, sizeof(grown)), "grow: a zero element, count 3");
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_resize(&paths, &paths_fields[1], old, sizeof(old), 1, &out) == 0 &&
	   out.len == sizeof(shrunk) && !memcmp(out.data, shrunk, sizeof(shrunk)),
	   "shrink: the last element (and its list) goes, count 1");
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_resize(&paths, &paths_fields[1], old, sizeof(old), 256, &out) == -EINVAL &&
	   out.len == 0, "a count its field cannot hold");
	ok(gfs_record_resize(&paths, &paths_fields[1], old, 5, 1, &out) == -EBADMSG, "short record");
	gfs_buf_release(&out);
}

/* A record declared once for the size the caller gives: repeats, hidden bytes, fillers. */
static const struct gfs_field words_fields[] = {
	{ .key = "tag%u", .kind = GFS_FK_SINT, .off = 4, .width = 2, .repeat = 2, .stride = 6,
	  .note = "tags" },
	{ .key = "name", .kind = GFS_FK_PSTR, .off = 12, .width = 3 },
	{ .kind = GFS_FK_BYTES, .off = 0, .width = 2, .flags = GFS_FF_HIDDEN, .note = "id" },
};
static const struct gfs_layout words = { .section = "w", .fields = words_fields, .nfields = 3, .filler_prefix = "w",
					.filler_digits = 2, .filler_width = 2, .filler_kind = GFS_FK_SINT, .filler_base = 10 };
/* a repeat whose keys count from 8 (an array's second half elsewhere in the record) */
static const struct gfs_field based_fields[] = {
	{ .key = "e%u", .kind = GFS_FK_SINT, .off = 2, .width = 2, .repeat = 2, .stride = 2, .repeat_base = 8 },
};
static const struct gfs_layout based = { .section = "w", .fields = based_fields, .nfields = 1, .filler_prefix = "w",
					.filler_digits = 2, .filler_width = 2, .filler_kind = GFS_FK_SINT };

/* in table order, no fillers: z does not fit in 4 bytes and hands its section to y */
static const struct gfs_field order_fields[] = {
	{ .key = "z", .kind = GFS_FK_SINT, .off = 4, .width = 2, .section = "one" },
	{ .key = "y", .kind = GFS_FK_SINT, .off = 2, .width = 2 },
	{ .key = "x", .kind = GFS_FK_SINT, .off = 0, .width = 1, .section = "two" },
};
static const struct gfs_layout inorder = { .section = "w", .fields = order_fields, .nfields = 3,
					  .flags = GFS_LAYOUT_INORDER };
/* a set of flags: bit 3 named, the others fillers named by their bit */
static const struct gfs_field flag_fields[] = {
	{ .key = "x", .kind = GFS_FK_UINT, .off = 0, .width = 1, .shift = 3, .bits = 1 },
};
static const struct gfs_layout flagbits = { .section = "f", .fields = flag_fields, .nfields = 1, .filler_prefix = "f",
					   .filler_digits = 2, .filler_kind = GFS_FK_UINT, .flags = GFS_LAYOUT_BITS };

static void test_layout_table(void)
{
	static const uint8_t wrec[] = { 9, 9, 1, 0, 0xff, 0xff, 2, 0, 3, 0, 7, 0, 2, 'h', 'i', 0 };
	struct gfs_layout_table t;
	struct gfs_buf out = GFS_BUF_INIT;

	ok(gfs_layout_table(&words, sizeof(wrec), &t) == 0 &&
	   gfs_record_render(&t.rec, wrec, sizeof(wrec), NULL, &out) == 0 &&
	   !strcmp((char *)out.data, "[w]\nw11 = 1\n; tags\ntag0 = -1\nw13 = 2\nw14 = 3\ntag1 = 7\n"
		   "name = \"hi\"\n"), "repeats, a hidden word, fillers named from their index:\n%s",
	   (char *)out.data);
	gfs_layout_table_release(&t);
	gfs_buf_set_len(&out, 0);
	ok(gfs_layout_table(&words, 14, &t) == 0 && gfs_record_render(&t.rec, wrec, 14, NULL, &out) == 0 &&
	   strstr((char *)out.data, "tag1 = 7\nw16 = 26626\n") && !strstr((char *)out.data, "name"),
	   "a smaller record size: the string that does not fit is a filler:\n%s", (char *)out.data);
	gfs_layout_table_release(&t);
	gfs_buf_set_len(&out, 0);
	ok(gfs_layout_table(&based, 6, &t) == 0 && gfs_record_render(&t.rec, wrec, 6, NULL, &out) == 0 &&
	   !strcmp((char *)out.data, "[w]\nw00 = 2313\ne8 = 1\ne9 = -1\n"), "a repeat's keys from repeat_base:\n%s",
	   (char *)out.data);
	gfs_layout_table_release(&t);
	gfs_buf_set_len(&out, 0);
	ok(gfs_layout_table(&inorder, 4, &t) == 0 && gfs_record_render(&t.rec, wrec, 4, NULL, &out) == 0 &&
	   strstr((char *)out.data, "[one]\ny = 1\n") && strstr((char *)out.data, "[two]\nx = 9\n") &&
	   strstr((char *)out.data, "y = 1") < strstr((char *)out.data, "x = 9") && !strstr((char *)out.data, "z ="),
	   "in table order, no fillers, the section of a field left out moves on:\n%s", (char *)out.data);
	gfs_layout_table_release(&t);
	gfs_buf_set_len(&out, 0);
	ok(gfs_layout_table(&flagbits, 1, &t) == 0 && gfs_record_render(&t.rec, wrec, 1, NULL, &out) == 0 &&
	   !strcmp((char *)out.data, "[f]\nf00 = 1\nf01 = 0\nf02 = 0\nx = 1\nf04 = 0\nf05 = 0\nf06 = 0\nf07 = 0\n"),
	   "bits: a field a bit, the named one in its place:\n%s", (char *)out.data);
	gfs_layout_table_release(&t);
	gfs_buf_release(&out);
}

/* A group to the end: as many elements as the bytes hold, no count field. */
static const struct gfs_field toend_fields[] = {
	{ .key = "pt", .kind = GFS_FK_GROUP, .group = &pt, .flags = GFS_FF_TOEND },
};
static const struct gfs_record toend = { .section = "all", .size = 0, .fields = toend_fields, .nfields = 1 };

static void test_toend(void)
{
	static const uint8_t old[] = { 1, 2, 3, 4 };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT, back = GFS_BUF_INIT;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_span(&toend, old, 4) == 4 && gfs_record_span(&toend, old, 3) == 2,
	   "to the end: the span is whole elements");
	ok(gfs_record_render(&toend, old, 4, NULL, &out) == 0 &&
	   !strcmp((char *)out.data, "[all]\n\n[pt 0]\nx = 1\ny = 2\n\n[pt 1]\nx = 3\ny = 4\n"),
	   "to the end: rendered:\n%s", (char *)out.data);
	ok(gfs_record_parse(&ar, "a.ini", &toend, old, 4, S("[pt 0]\nx = 1\ny = 2\n[pt 1]\nx = 3\n[pt 2]\ny = 9\n"),
			    NULL, &back) == 0 && back.len == 6 && back.data[3] == 4 && back.data[5] == 9,
	   "to the end: an element added, no count to set");
	gfs_buf_set_len(&back, 0);
	{
		int rr = gfs_record_resize(&toend, &toend_fields[0], old, 4, 1, &back);

		ok(rr == 0 && back.len == 2, "to the end: resized to one element (%d, %zu)", rr, back.len);
	}
	gfs_buf_release(&back);
	gfs_buf_release(&out);
}

/*
 * Parts in byte order: w and h, then the mask (h rows of w cells, shown
 * last), a PART holding g's count and b, g (at least 1), categories to the
 * end (each a count and its items).
 */
static const struct gfs_field cellf[] = { { .key = "c", .kind = GFS_FK_UINT, .off = 0, .width = 1 } };
static const struct gfs_record cell = { .section = "cell", .size = 1, .fields = cellf, .nfields = 1 };
static const struct gfs_field rowf[] = {
	{ .key = "row", .kind = GFS_FK_LIST, .group = &cell, .flags = GFS_FF_TOEND },
};
static const struct gfs_record row = { .section = "mask", .size = 0, .fields = rowf, .nfields = 1 };
static const struct gfs_field catf[] = {
	{ .key = "items", .kind = GFS_FK_LIST, .off = 1, .group = &cell, .count_width = 1 },
};
static const struct gfs_record cat = { .section = "cat", .size = 1, .fields = catf, .nfields = 1 };
static const struct gfs_field blkf[] = { { .key = "b", .kind = GFS_FK_UINT, .off = 1, .width = 1 } };
static const struct gfs_record blk = { .section = "blk", .size = 2, .fields = blkf, .nfields = 1 };
static const struct gfs_field partsf[] = {
	{ .key = "w", .kind = GFS_FK_UINT, .off = 0, .width = 1, .flags = GFS_FF_RO },
	{ .key = "mask", .kind = GFS_FK_GROUP, .group = &row, .count_off = 1, .count_width = 1,
	  .size_off = 0, .size_width = 1, .view = 1 },
	{ .key = "blk", .kind = GFS_FK_PART, .group = &blk, .width = 2, .section = "blk" },
	{ .key = "pt", .kind = GFS_FK_GROUP, .group = &pt, .count_width = 1, .count_in = 2, .min = 1 },
	{ .key = "cat", .kind = GFS_FK_GROUP, .group = &cat, .flags = GFS_FF_TOEND },
};
static const struct gfs_record parts = { .section = "parts", .size = 2, .fields = partsf, .nfields = 5 };

static void test_parts(void)
{
	static const uint8_t old[] = { 2, 2, 1, 2, 3, 4, 1, 9, 5, 6, 2, 7, 8, 0 };
	static const char view[] = "[parts]\nw = 2\n\n[blk]\nb = 9\n\n[pt 0]\nx = 5\ny = 6\n\n[cat 0]\n"
		"items = 7 8\n\n[cat 1]\nitems =\n\n[mask 0]\nrow = 1 2\n\n[mask 1]\nrow = 3 4\n";
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_span(&parts, old, sizeof(old)) == sizeof(old) && !gfs_record_span(&parts, old, 9),
	   "parts: the span from the table; cut inside pt 0 it does not fit");
	{
		const struct gfs_field *f;
		size_t at = 0, n = 0, bat = 0, bn = 0;

		f = gfs_record_part(&parts, old, sizeof(old), "pt", &at, &n);
		ok(f == &partsf[3] && at == 8 && n == 1 && gfs_record_field(f->group, "y") &&
		   gfs_record_field(f->group, "y")->off == 1 &&
		   gfs_record_part(&parts, old, sizeof(old), "blk", &bat, &bn) && bat == 6 && bn == 1 &&
		   gfs_record_part(&parts, old, sizeof(old), "cat", &at, &n) && at == 10 && n == 2 &&
		   !gfs_record_part(&parts, old, sizeof(old), "w", &at, &n) &&
		   !gfs_record_part(&parts, old, 9, "pt", &at, &n) && !gfs_record_field(&parts, "nope"),
		   "parts: where a part starts and its count, from the table (gfs_record_part)");
	}
	ok(gfs_record_render(&parts, old, sizeof(old), NULL, &out) == 0 && !strcmp((char *)out.data, view),
	   "parts: byte order apart from view order, the mask last:\n%s", (char *)out.data);
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_parse(&ar, "p.ini", &parts, old, sizeof(old), S(view), NULL, &out) == 0 &&
	   out.len == sizeof(old) && !memcmp(out.data, old, sizeof(old)), "parts: unchanged view, same bytes");
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_parse(&ar, "p.ini", &parts, old, sizeof(old),
			    S("[pt 0]\nx = 5\n[pt 1]\nx = 1\n[cat 0]\nitems = 7\n[mask 0]\nrow = 1 2 3\n"), NULL,
			    &out) == 0 && out.len == 13 && !memcmp(out.data, "\3\1\1\2\3\2\11\5\6\1\0\1\7", 13),
	   "parts: the mask 3x1 (w and h set), pt's count in its PART, a category gone");
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_parse(&ar, "p.ini", &parts, old, sizeof(old), S("[mask 0]\nrow = 1 2\n[mask 1]\nrow = 1\n"),
			    NULL, &out) == -EINVAL && strstr(ar.err, "p.ini: [mask 1] has 1 cells, [mask 0] 2"),
	   "parts: rows of two lengths: %s", ar.err);
	ok(gfs_record_parse(&ar, "p.ini", &parts, old, sizeof(old), S("[blk]\nb = 1\n"), NULL, &out) == -EINVAL &&
	   strstr(ar.err, "p.ini: 0 pts, want at least 1"), "parts: a least count: %s", ar.err);
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_resize(&parts, &partsf[3], old, sizeof(old), 2, &out) == 0 && out.len == 16 &&
	   out.data[6] == 2 && out.data[10] == 0 && out.data[12] == 2, "parts: resized, the count in the PART");
	gfs_buf_release(&out);
}

/* Parts one after another shown as lines: a CSTR, a group on one line, one a line an element. */
static const struct gfs_field lp_u8f[] = { { .key = "v", .kind = GFS_FK_UINT, .width = 1 } };
static const struct gfs_record lp_u8 = { .size = 1, .fields = lp_u8f, .nfields = 1 };
static const struct gfs_field lp_pairf[] = {
	{ .key = "a", .kind = GFS_FK_UINT, .off = 0, .width = 1 },
	{ .key = "b", .kind = GFS_FK_UINT, .off = 1, .width = 1, .flags = GFS_FF_OPTIONAL },
};
static const struct gfs_record lp_pair = { .size = 2, .fields = lp_pairf, .nfields = 2 };
static const struct gfs_field lpf[] = {
	{ .key = "name", .kind = GFS_FK_CSTR, .max = 4, .flags = GFS_FF_NEED, .want = "1 to 4 bytes" },
	{ .key = "id", .kind = GFS_FK_BYTES, .off = 0, .width = 2, .flags = GFS_FF_NEED | GFS_FF_HEXDIGITS },
	{ .key = "vals", .kind = GFS_FK_GROUP, .group = &lp_u8, .count_off = 2, .count_width = 1,
	  .flags = GFS_FF_NEED | GFS_FF_LINE, .why = "vals overrun" },
	{ .key = "pair", .kind = GFS_FK_GROUP, .group = &lp_pair, .count_off = 3, .count_width = 1,
	  .flags = GFS_FF_LINES, .section = "pairs", .note = "pair = a [b]", .want = "a [b]" },
};
static const struct gfs_record lp = { .section = "lp", .size = 4, .fields = lpf, .nfields = 4 };

static void test_line_parts(void)
{
	static const uint8_t old[] = { 0xab, 0xcd, 2, 1, 'h', 'i', 0, 5, 6, 7, 8, 0xee };
	static const uint8_t want[] = { 0xab, 0xcd, 3, 2, 'h', 'e', 'y', 0, 1, 2, 3, 9, 0, 1, 2, 0xee };
	static const char view[] = "[lp]\nname = hi\nid = abcd\nvals = 5 6\n\n[pairs]\n; pair = a [b]\npair = 7 8\n";
	const char *why = NULL;
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_span(&lp, old, sizeof(old)) == 11 && !gfs_record_span_why(&lp, old, 8, &why) &&
	   why && !strcmp(why, "vals overrun"), "lines: span; cut in vals, its why");
	ok(gfs_record_render(&lp, old, sizeof(old), NULL, &out) == 0 && !strcmp((char *)out.data, view),
	   "lines: the name first, a list on a line, a line an element:\n%s", (char *)out.data);
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_parse(&ar, "l.ini", &lp, old, sizeof(old), S(view), NULL, &out) == 0 &&
	   out.len == sizeof(old) && !memcmp(out.data, old, sizeof(old)), "lines: unchanged view, same bytes");
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_parse(&ar, "l.ini", &lp, old, sizeof(old),
			    S("[lp]\nname = hey\nid = ABCD\nvals = 1,2,3\n[pairs]\npair = 9\npair = 1,2\n"), NULL,
			    &out) == 0 && out.len == sizeof(want) && !memcmp(out.data, want, sizeof(want)),
	   "lines: a longer name, counts set, an optional field left out is 0, the tail kept");
	ok(gfs_record_parse(&ar, "l.ini", &lp, old, sizeof(old), S("[lp]\nname = hi\nvals = 1\n"), NULL, &out) ==
	   -EINVAL && strstr(ar.err, "l.ini: [lp] id missing"), "lines: a key needed: %s", ar.err);
	ok(gfs_record_parse(&ar, "l.ini", &lp, old, sizeof(old), S("[lp]\nname = hello\n"), NULL, &out) ==
	   -EINVAL && strstr(ar.err, "l.ini: line 2: name: want 1 to 4 bytes"), "lines: name too long: %s", ar.err);
	ok(gfs_record_parse(&ar, "l.ini", &lp, old, sizeof(old), S("[lp]\nid = abc\n"), NULL, &out) ==
	   -EINVAL && strstr(ar.err, "l.ini: line 2: id: want 4 hex digits"), "lines: hex digits: %s", ar.err);
	ok(gfs_record_parse(&ar, "l.ini", &lp, old, sizeof(old), S("[pairs]\npair = 1 2 3\n"), NULL, &out) ==
	   -EINVAL && strstr(ar.err, "l.ini: line 2: pair: want a [b]"), "lines: an element of three: %s", ar.err);
	gfs_buf_release(&out);
}

/* A count that is a product of fields: w x h tiles of 2 bytes each, on one line, then a tail. */
static const struct gfs_field tilef[] = { { .key = "t", .kind = GFS_FK_UINT, .off = 0, .width = 2 } };
static const struct gfs_record tile = { .section = "tile", .size = 2, .fields = tilef, .nfields = 1 };
static const struct gfs_field wxhf[] = {
	{ .key = "w", .kind = GFS_FK_UINT, .off = 0, .width = 1 },
	{ .key = "h", .kind = GFS_FK_UINT, .off = 1, .width = 1 },
	{ .key = "tiles", .kind = GFS_FK_GROUP, .group = &tile, .count_off = 0, .count_width = 1,
	  .mul_off = 1, .mul_width = 1, .flags = GFS_FF_LINE },
};
static const struct gfs_record wxh = { .section = "map", .size = 2, .fields = wxhf, .nfields = 3 };

static void test_product(void)
{
	static const uint8_t old[] = { 3, 2, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 'T' };
	static const uint8_t want[] = { 2, 2, 1, 0, 2, 0, 3, 0, 9, 1, 'T' };
	static const uint8_t none[] = { 0, 200, 'T' };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT;
	size_t at = 0, n = 0;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_span(&wxh, old, sizeof(old)) == 14 && !gfs_record_span(&wxh, old, 13) &&
	   gfs_record_span(&wxh, none, sizeof(none)) == 2, "product: the span is w x h tiles (0 x 200: none)");
	ok(gfs_record_part(&wxh, old, sizeof(old), "tiles", &at, &n) == &wxhf[2] && at == 2 && n == 6,
	   "product: where the tiles start and how many, from the table");
	ok(gfs_record_render(&wxh, old, sizeof(old), NULL, &out) == 0 &&
	   !strcmp((char *)out.data, "[map]\nw = 3\nh = 2\ntiles = 1 2 3 4 5 6\n"), "product: rendered:\n%s",
	   (char *)out.data);
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_parse(&ar, "m.ini", &wxh, old, sizeof(old), S("[map]\nw = 2\ntiles = 1 2 3 265\n"), NULL,
			    &out) == 0 && out.len == sizeof(want) && !memcmp(out.data, want, sizeof(want)),
	   "product: a factor and the tiles changed together, the tail kept");
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_parse(&ar, "m.ini", &wxh, old, sizeof(old), S("[map]\nh = 1\n"), NULL, &out) == -EINVAL &&
	   strstr(ar.err, "m.ini: 6 tiles, want 3 x 1 = 3"), "product: a factor alone: %s", ar.err);
	ok(gfs_record_parse(&ar, "m.ini", &wxh, old, sizeof(old), S("[map]\ntiles = 1 2\n"), NULL, &out) ==
	   -EINVAL && strstr(ar.err, "m.ini: 2 tiles, want 3 x 2 = 6"), "product: tiles alone: %s", ar.err);
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_resize(&wxh, &wxhf[2], old, sizeof(old), 4, &out) == -EINVAL && out.len == 0,
	   "product: not resized by count (which factor?)");
	gfs_buf_release(&out);
}

/* Planes of w x h cells to the end (an OHRRPGCE map's layers): an element's size a product of fields. */
static const struct gfs_field planef[] = {
	{ .key = "w", .kind = GFS_FK_UINT, .off = 0, .width = 1 },
	{ .key = "h", .kind = GFS_FK_UINT, .off = 1, .width = 1 },
	{ .key = "layer", .kind = GFS_FK_GROUP, .group = &row, .flags = GFS_FF_TOEND, .size_off = 0, .size_width = 1,
	  .size_mul_off = 1, .size_mul_width = 1 },
};
static const struct gfs_record plane = { .section = "map", .size = 2, GFS_FIELDS(planef) };

static void test_plane(void)
{
	static const uint8_t old[] = { 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 'T' };
	static const uint8_t flat[] = { 0, 2, 1, 2 };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT;
	size_t at = 0, n = 0;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_span(&plane, old, sizeof(old)) == 14 && gfs_record_span(&plane, old, 13) == 8 &&
	   gfs_record_span(&plane, flat, sizeof(flat)) == 2, "plane: the span is whole w x h planes (0 x 2: none)");
	ok(gfs_record_part(&plane, old, sizeof(old), "layer", &at, &n) == &planef[2] && at == 2 && n == 2 &&
	   gfs_record_elem(&plane, old, sizeof(old), "layer", 1, &at, &n) && at == 8 && n == 6,
	   "plane: the layers from the table, and where layer 1 is");
	ok(gfs_record_render(&plane, old, 8, NULL, &out) == 0 &&
	   !strcmp((char *)out.data, "[map]\nw = 3\nh = 2\n\n[mask 0]\nrow = 1 2 3 4 5 6\n"), "plane: rendered:\n%s",
	   (char *)out.data);
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_parse(&ar, "m.ini", &plane, old, 8, S("[map]\nw = 2\nh = 1\n[mask 0]\nrow = 7 8\n"), NULL,
			    &out) == 0 && out.len == 4 && !memcmp(out.data, "\2\1\7\10", 4),
	   "plane: the factors and the plane changed together");
	ok(gfs_record_parse(&ar, "m.ini", &plane, old, 8, S("[map]\nw = 2\n[mask 0]\nrow = 1 2 3 4 5 6\n"), NULL, &out) ==
	   -EINVAL && strstr(ar.err, "m.ini: [mask 0] has 6 cells, want 2 x 2"), "plane: a factor alone: %s", ar.err);
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_resize(&plane, &planef[2], old, sizeof(old), 3, &out) == 0 && out.len == 21 &&
	   out.data[13] == 12 && out.data[14] == 0 && out.data[19] == 0 && out.data[20] == 'T',
	   "plane: a plane of zeros added before the tail");
	gfs_buf_release(&out);
}

/* ZZT's board: a stat count stored minus one, each stat followed by its code when its length is > 0. */
static const struct gfs_field zstat_fields[] = {
	{ .key = "x", .kind = GFS_FK_UINT, .off = 0, .width = 1 },
	{ .key = "code", .kind = GFS_FK_LIST, .off = 3, .group = &byte_rec, .count_off = 1, .count_width = 2,
	  .flags = GFS_FF_POSITIVE },
};
static const struct gfs_record zstat = { .section = "stat", .size = 3, GFS_FIELDS(zstat_fields) };
static const struct gfs_field zboard_fields[] = {
	{ .key = "stats", .kind = GFS_FK_GROUP, .group = &zstat, .count_off = 0, .count_width = 2, .count_bias = 1 },
};
static const struct gfs_record zboard = { .section = "board", .size = 2, GFS_FIELDS(zboard_fields) };

static void test_bias(void)
{
	/* stored 1: two stats, the first with 2 bytes of code, the second bound (length -1); a tail */
	static const uint8_t old[] = { 1, 0, 5, 2, 0, 'a', 'b', 6, 0xff, 0xff, 'T' };
	static const uint8_t none[] = { 0xff, 0xff, 'T' }, neg[] = { 0xfe, 0xff, 0, 0, 0 };
	struct gfs_archive ar;
	struct gfs_buf out = GFS_BUF_INIT, back = GFS_BUF_INIT;
	size_t at = 0, n = 0;
	uint8_t c[2] = { 0, 0 };

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_record_span(&zboard, old, sizeof(old)) == 10 && !gfs_record_span(&zboard, old, 9) &&
	   gfs_record_count(&zboard_fields[0], old) == 2, "bias: two stats of stored 1, code only when > 0");
	ok(gfs_record_elem(&zboard, old, sizeof(old), "stats", 1, &at, &n) == &zstat && at == 7 && n == 3 &&
	   gfs_record_items(&zstat, old + at, n, "code", &at, &n) && n == 0, "bias: a negative length, no code");
	ok(gfs_record_span(&zboard, none, sizeof(none)) == 2 && !gfs_record_span(&zboard, neg, sizeof(neg)) &&
	   gfs_record_count(&zboard_fields[0], neg) == -1, "bias: stored -1 is no stat, -2 does not fit");
	gfs_record_count_set(&zboard_fields[0], c, 0);
	ok(c[0] == 0xff && c[1] == 0xff, "bias: a count of 0 is stored -1");
	ok(gfs_record_resize(&zboard, &zboard_fields[0], old, sizeof(old), 3, &out) == 0 && out.len == 14 &&
	   out.data[0] == 2 && gfs_record_span(&zboard, out.data, out.len) == 13, "bias: resized, stored 2");
	gfs_buf_set_len(&out, 0);
	ok(gfs_record_render(&zboard, old, sizeof(old), NULL, &out) == 0 &&
	   gfs_record_parse(&ar, "b.ini", &zboard, old, sizeof(old), out.data, out.len, NULL, &back) == 0 &&
	   back.len == sizeof(old) && !memcmp(back.data, old, sizeof(old)), "bias: unchanged view, same bytes");
	gfs_buf_set_len(&back, 0);
	ok(gfs_record_parse(&ar, "b.ini", &zboard, old, sizeof(old), S("[stat 0]\nx = 5\n"), NULL, &back) == 0 &&
	   back.len == 8 && !back.data[0] && !back.data[1] && gfs_record_span(&zboard, back.data, back.len) == 7,
	   "bias: one stat left (its code kept), stored 0");
	gfs_buf_release(&back);
	gfs_buf_release(&out);
}

int main(void)
{
	test_u24();
	test_rle();
	test_grid();
	test_record();
	test_record_sections();
	test_record_edges();
	test_record_list();
	test_record_tagged();
	test_lines();
	test_record_lists();
	test_table();
	test_table_patch();
	test_resize();
	test_layout_table();
	test_toend();
	test_parts();
	test_line_parts();
	test_product();
	test_plane();
	test_bias();
	return done_testing();
}
