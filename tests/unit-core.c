/* Unit tests of the core: buffers, cursor, codecs, text helpers, tree. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "gamefs.h"
#include "gfs_mount.h"
#include "gfs_xml.h"
#include "tap.h"

static void test_rd(void)
{
	static const uint8_t d[] = { 1, 2, 3, 4, 5, 'a', 'b', 0, 9 };
	struct gfs_rd r;
	uint16_t a;
	uint32_t b;
	const char *s;
	size_t n;

	gfs_rd_init(&r, d, sizeof(d), 0x100);
	ok(gfs_rd_u16le(&r, &a) == 0 && a == 0x0201, "u16le");
	ok(gfs_rd_u32le(&r, &b) == 0 && b == 0x61050403, "u32le");
	ok(gfs_rd_off(&r) == 0x106, "offset");
	ok(gfs_rd_u32le(&r, &b) == -EBADMSG && r.pos == 6, "overrun fails, cursor stays");
	ok(gfs_rd_cstr(&r, &s, &n, 10) == 0 && n == 1 && s[0] == 'b', "cstr");
	ok(gfs_rd_cstr(&r, &s, &n, 10) == -EBADMSG, "cstr without NUL");
	ok(gfs_rd_skip(&r, 2) == -EBADMSG && gfs_rd_skip(&r, 1) == 0 && gfs_rd_left(&r) == 0, "skip");
}

static void test_inflate(void)
{
	struct gfs_buf src = GFS_BUF_INIT, z = GFS_BUF_INIT, out = GFS_BUF_INIT;
	enum gfs_zwrap w;

	gfs_buf_set_len(&src, 1 << 20);		/* 1 MiB of zeros: a small bomb */
	ok(gfs_deflate(src.data, src.len, GFS_ZLIB, &z) == 0 && z.len < 4096, "deflate zlib");
	ok(gfs_inflate(z.data, z.len, 1 << 20, &out, &w, NULL) == 0 && out.len == 1 << 20 && w == GFS_ZLIB,
	   "inflate at exactly the cap");
	gfs_buf_release(&out);
	ok(gfs_inflate(z.data, z.len, (1 << 20) - 1, &out, &w, NULL) == -EBADMSG && out.len == 0,
	   "inflate over the cap refused");
	gfs_buf_release(&z);
	ok(gfs_deflate(src.data, 1000, GFS_ZRAW, &z) == 0, "deflate raw");
	ok(gfs_inflate(z.data, z.len, 1000, &out, &w, NULL) == 0 && out.len == 1000 && w == GFS_ZRAW,
	   "inflate raw");
	gfs_buf_release(&out);
	ok(gfs_inflate(z.data, z.len / 2, 1000, &out, &w, NULL) == -EBADMSG, "truncated stream refused");
	gfs_buf_release(&out);
	gfs_buf_release(&z);
	gfs_buf_release(&src);
	ok(gfs_crc32(gfs_crc32(0, NULL, 0), "123456789", 9) == 0xcbf43926u, "crc32 check value");
}

static void test_png(void)
{
	uint8_t px[3 * 2 * 4], *back = NULL;
	struct gfs_buf png = GFS_BUF_INIT;
	uint32_t w = 0, h = 0;

	for (size_t i = 0; i < sizeof(px); i++)
		px[i] = (uint8_t)(i * 11);
	ok(gfs_png_encode(px, 3, 2, &png) == 0 && png.len > 8, "png encode");
	ok(gfs_png_decode(png.data, png.len, 16, 16, &back, &w, &h) == 0 && w == 3 && h == 2 &&
	   !memcmp(back, px, sizeof(px)), "png round trip");
	free(back);
	ok(gfs_png_decode(png.data, png.len, 2, 2, &back, &w, &h) == -EINVAL, "png over the size cap");
	ok(gfs_png_decode((const uint8_t *)"not a png", 9, 16, 16, &back, &w, &h) == -EINVAL, "not a png");
	gfs_buf_release(&png);
}

static void test_png_indexed(void)
{
	static const uint8_t pal[3 * 3] = { 0, 0, 0, 255, 0, 0, 10, 20, 30 };
	uint8_t idx[5 * 2] = { 0, 1, 2, 2, 1, 0, 0, 1, 1, 2 }, *back = NULL;
	struct gfs_buf png = GFS_BUF_INIT;
	uint32_t w = 0, h = 0;
	int same = 1;

	ok(gfs_png_encode_indexed(idx, 5, 2, pal, 3, &png) == 0 && png.len > 8 &&
	   png.data[24] == 2 && png.data[25] == 3, "indexed png: colour type 3, 2 bits a pixel");
	ok(gfs_png_decode(png.data, png.len, 16, 16, &back, &w, &h) == 0 && w == 5 && h == 2,
	   "indexed png decodes");
	for (size_t i = 0; back && i < sizeof(idx); i++)
		same &= !memcmp(back + 4 * i, pal + 3 * idx[i], 3) && back[4 * i + 3] == 255;
	ok(back && same, "indexed png: every pixel its palette colour");
	free(back);
	ok(gfs_png_encode_indexed(idx, 5, 2, pal, 0, &png) == -EINVAL, "indexed png without colours");
	gfs_buf_release(&png);
}

/* PNGs drawn in place, RGBA and palette: sizes as promised, pixels as drawn, after other bytes. */
static void test_png_rows(void)
{
	static const uint8_t pal[3 * 3] = { 1, 2, 3, 200, 0, 0, 10, 20, 30 };
	struct gfs_buf png = GFS_BUF_INIT;
	struct gfs_png_rows pr;
	uint8_t *back = NULL;
	uint32_t w = 0, h = 0;
	int same = 1;

	gfs_buf_add(&png, "xy", 2);
	ok(gfs_png_rows_begin_pal(&png, 7, 3, pal, 3, &pr) == 0 &&
	   png.len == 2 + gfs_png_rows_size_pal(7, 3, 3), "palette rows: the size promised");
	for (uint32_t y = 0; y < 3; y++)
		for (uint32_t x = 0; x < 7; x++)
			pr.pix[y * pr.stride + x] = (uint8_t)((x + y) % 3);
	gfs_png_rows_end(&png, &pr);
	ok(gfs_png_decode(png.data + 2, png.len - 2, 16, 16, &back, &w, &h) == 0 && w == 7 && h == 3,
	   "palette rows decode (libpng)");
	for (uint32_t i = 0; back && i < 21; i++)
		same &= !memcmp(back + 4 * i, pal + 3 * ((i % 7 + i / 7) % 3), 3) && back[4 * i + 3] == 255;
	ok(back && same, "palette rows: every pixel its colour");
	free(back);
	back = NULL;
	gfs_buf_release(&png);
	ok(gfs_png_rows_begin(&png, 2, 2, &pr) == 0 && png.len == gfs_png_rows_size(2, 2),
	   "RGBA rows: the size promised");
	memcpy(pr.pix + pr.stride, "\x10\x20\x30\xff", 4);
	gfs_png_rows_end(&png, &pr);
	ok(gfs_png_decode(png.data, png.len, 16, 16, &back, &w, &h) == 0 && w == 2 && h == 2 &&
	   !memcmp(back, "\0\0\0\0\0\0\0\0\x10\x20\x30\xff\0\0\0\0", 16), "RGBA rows: drawn pixel, rest clear");
	free(back);
	gfs_buf_release(&png);
	ok(gfs_png_rows_size_pal(7, 3, 0) == 0 && gfs_png_rows_size_pal(7, 3, 257) == 0 &&
	   gfs_png_rows_size_pal(GFS_PNG_ROW_MAXW + 1, 3, 3) == 0, "palette rows: no palette, too many colours, too wide");
}

/* The lookup table against a plain model, through adds, removals and moves. */
static void test_tree(void)
{
	static const uint8_t img[] = "A.TXT\0\0\0\x03\0abc";
	enum { N = 3000 };
	struct gfs_opts o = { 0 };
	struct gfs_archive *ar;
	struct gfs_node *nodes[N], *sub;
	char err[600], name[32];
	int alive[N], good = 1;

	ok(gfs_archive_open_mem(img, sizeof(img) - 1, "t.rpg", &o, &ar, err, sizeof(err)) == 0,
	   "tree: archive");
	ar->loading = 1;	/* the first half from load-time chunks */
	for (int i = 0; i < N; i++) {
		if (i == N / 2)
			ar->loading = 0;
		snprintf(name, sizeof(name), "n%d", i);
		nodes[i] = gfs_node_new_file(ar, ar->root, name, 0644, NULL, NULL);
		alive[i] = nodes[i] != NULL;
		good &= alive[i];
	}
	ok(good, "tree: %d nodes made", N);
	sub = gfs_node_new_dir(ar, ar->root, "sub");
	ok(sub && ar->root->nsubdirs == 1, "tree: subdirectory counted");
	ok(gfs_is_scratch_in(ar, ar->root, "n5.abcdef") && gfs_is_scratch_in(ar, ar->root, "n5.ABCDEF") &&
	   gfs_is_scratch_in(ar, ar->root, "x.aBcdef") && !gfs_is_scratch_in(ar, ar->root, "x.abcdef") &&
	   !gfs_is_scratch_in(ar, ar->root, "sub.abcdef") && !gfs_is_scratch_in(ar, ar->root, "SOURCE.LUMPED") &&
	   gfs_is_scratch_in(ar, ar->root, "map.tmx.QVQTGM") && gfs_is_scratch_in(ar, ar->root, "new.csv.abcdef") &&
	   !gfs_is_scratch_in(ar, ar->root, "A.SONGS.LUMPED"),
	   "QSaveFile names: one-case tails only beside their file or after an extension");
	{
		char *u = gfs_unique_name(ar->root, "bad\xff\x01na/me\xc3\xa9");

		ok(u && !strcmp(u, "bad\\xff_na_me\xc3\xa9"), "names: invalid UTF-8 escaped, control and / replaced: %s",
		   u ? u : "(null)");
		free(u);
	}
	for (int i = 0; i < N; i += 3) {
		gfs_node_remove(ar, nodes[i]);
		alive[i] = 0;
	}
	for (int i = 1; i < N; i += 7) {
		if (!alive[i])
			continue;
		snprintf(name, sizeof(name), "m%d", i);
		gfs_node_move(ar, nodes[i], sub, name);
	}
	for (int i = 0; i < N; i++) {
		struct gfs_node *a, *b;

		snprintf(name, sizeof(name), "n%d", i);
		a = gfs_node_child(ar, ar->root, name);
		snprintf(name, sizeof(name), "m%d", i);
		b = gfs_node_child(ar, sub, name);
		if (!alive[i])
			good &= !a && !b;
		else if (i % 7 == 1)
			good &= !a && b == nodes[i] && !strcmp(b->name, name);
		else
			good &= a == nodes[i] && !b;
	}
	ok(good, "tree: every lookup agrees with the model after removals and moves");
	ok(!gfs_name_usable(ar->root, "n2") && gfs_name_usable(ar->root, "n0") && gfs_name_usable(ar->root, "n1") &&
	   !gfs_name_usable(ar->root, "..") && !gfs_name_usable(ar->root, "a/b"), "tree: usable names");
	gfs_archive_close(ar);
}

static int ini_count;
static int ini_cb(void *ctx, const char *sec, const char *key, const char *val, unsigned line)
{
	ini_count++;
	if (!strcmp(key, "bad"))
		return -EINVAL;
	return strcmp(sec, "s") || strcmp(key, "k") || strcmp(val, "v w") ? -EINVAL : 0;
}

static void test_text(void)
{
	struct gfs_archive ar;
	int64_t v;

	memset(&ar, 0, sizeof(ar));
	ar.path = "x";
	ok(gfs_ini_parse(&ar, "a.ini", (const uint8_t *)"; c\n[s]\n k =  v w \n", 19, ini_cb, NULL) == 0 &&
	   ini_count == 1, "ini parse");
	ok(gfs_ini_parse(&ar, "a.ini", (const uint8_t *)"[s]\nnonsense\n", 13, ini_cb, NULL) == -EINVAL &&
	   strstr(ar.err, "line 2"), "ini error names the line: %s", ar.err);
	ok(gfs_parse_int("0x1f", 0, 255, &v) == 0 && v == 31, "hex int");
	ok(gfs_parse_int("256", 0, 255, &v) == -EINVAL, "int over range");
	ok(gfs_parse_int("-3", -5, 5, &v) == 0 && v == -3, "negative int");
	ok(gfs_parse_int("3x", 0, 5, &v) == -EINVAL, "trailing junk");
	ok(gfs_utf8_valid((const uint8_t *)"h\xc3\xa9", 3) && !gfs_utf8_valid((const uint8_t *)"\xc3", 1) &&
	   !gfs_utf8_valid((const uint8_t *)"\xc0\x80", 2), "utf8");
	ok(gfs_is_scratch_name("sedAb12x") == 0 && gfs_is_scratch_name("sedAb12xy") &&
	   gfs_is_scratch_name(".x.swp") && gfs_is_scratch_name("4913") && gfs_is_scratch_name("a~") &&
	   gfs_is_scratch_name(".goutputstream-ABC") && !gfs_is_scratch_name("BROWSE.TXT"), "scratch names");
	ok(gfs_is_scratch_name(".directory") && gfs_is_scratch_name(".world.ini.HAJpbQ") &&
	   gfs_is_scratch_name("lu2381bk3a.tmp") && gfs_is_scratch_name("layer09.csv.aB3xYz") &&
	   gfs_is_scratch_name("map.ini.rejected") && !gfs_is_scratch_name("notes.backup") &&
	   !gfs_is_scratch_name("layer09.csv") && !gfs_is_scratch_name("lump.tmp") &&
	   !gfs_is_scratch_name("SOURCE.LUMPED") && !gfs_is_scratch_name("a.abcdef"),
	   "scratch names of rsync, LibreOffice, Qt, KDE and gamefs");
	{
		char esc[64];

		gfs_escape("a\nb\xff\xc3\xa9", esc, sizeof(esc));
		ok(!strcmp(esc, "a\\x0ab\\xff\xc3\xa9"), "escape: control and invalid bytes: %s", esc);
	}
}

static void test_rpg_mem(void)
{
	static const uint8_t img[] = "A.TXT\0\0\0\x03\0abcB\0\0\0\0\0";
	struct gfs_archive *ar;
	struct gfs_buf out = GFS_BUF_INIT;
	char err[600] = "";
	struct gfs_node *n;
	struct gfs_opts o = { 0 };

	ok(gfs_archive_open_mem(img, sizeof(img) - 1, "t.rpg", &o, &ar, err, sizeof(err)) == 0, "rpg loads");
	n = gfs_node_lookup(ar, "A.TXT");
	ok(n && n->span_len == 3, "lump A.TXT is a span of 3");
	ok(gfs_node_lookup(ar, "/B") && gfs_node_lookup(ar, "b") == NULL, "exact lookups");
	ok(gfs_node_write(ar, n, "xy", 2, 3) == 2, "write appends");
	ok(gfs_archive_save_mem(ar, &out) == 0 && out.len == sizeof(img) - 1 + 2 &&
	   !memcmp(out.data, "A.TXT\0\0\0\x05\0abcxyB\0\0\0\0\0", out.len), "save rewrites size");
	gfs_archive_close(ar);
	gfs_buf_release(&out);
	ok(gfs_archive_open_mem((const uint8_t *)"A\0\0\0\x09\0ab", 8, "t.rpg", &o, &ar, err, sizeof(err)) == -EBADMSG &&
	   strstr(err, "at 0x2") && strstr(err, "runs past"), "lying size refused: %s", err);
}

/* A big edit is staged in a memfd: written, read back, cut, grown, shared, committed. */
static void test_staged_edit(void)
{
	static const uint8_t img[] = "A.TXT\0\0\0\x03\0abcB\0\0\0\0\0";
	const size_t big = 3 * GFS_BUF_STAGE_MIN + 12345, cut = GFS_BUF_STAGE_MIN + 777;
	char path[] = "/tmp/gamefs-unit-XXXXXX", err[600] = "";
	uint8_t *want = malloc(big), *got = malloc(big + 10);
	struct gfs_buf *sh, out = GFS_BUF_INIT;
	struct gfs_archive *ar = NULL;
	struct gfs_opts o = { 0 };
	struct gfs_node *n;
	int fd = mkstemp(path), good = 1;
	size_t done;

	ok(fd >= 0 && want && got && write(fd, img, sizeof(img) - 1) == (ssize_t)sizeof(img) - 1,
	   "staging: archive file");
	close(fd);
	ok(gfs_archive_open(path, &o, &ar, err, sizeof(err)) == 0, "staging: archive opens: %s", err);
	if (!ar)
		goto out;
	n = gfs_node_lookup(ar, "A.TXT");
	for (size_t i = 0; i < big; i++)
		want[i] = (uint8_t)rnd();
	/* 128 KiB writes as FUSE makes them; the first ones still in the heap */
	for (done = 0; done < big && good; done += 131072) {
		size_t k = big - done < 131072 ? big - done : 131072;

		good = gfs_node_write(ar, n, want + done, k, done) == (ssize_t)k;
	}
	ok(good && n->edit && gfs_buf_fd(n->edit) >= 0 && n->edit->len == big, "staging: past the threshold the edit is a memfd");
	ok(gfs_node_read(ar, n, got, big + 10, 0) == (ssize_t)big && !memcmp(got, want, big),
	   "staging: read back whole");
	ok(n->edit->data && !memcmp(n->edit->data + big - 100, want + big - 100, 100) &&
	   n->edit->data[big] == 0, "staging: the mapping has the bytes, NUL after them");
	ok(gfs_node_truncate(ar, n, cut) == 0 && gfs_node_truncate(ar, n, cut + 5000) == 0 &&
	   gfs_node_read(ar, n, got, big, 0) == (ssize_t)(cut + 5000) && !memcmp(got, want, cut),
	   "staging: cut then grown");
	memset(want + cut, 0, 5000);
	ok(!memcmp(got + cut, want + cut, 5000), "staging: grown bytes are zeros");
	/* a share sees the bytes; a change to the node's copy leaves the share as it was */
	sh = gfs_buf_share(n->edit);
	ok(sh && gfs_buf_fd(sh) == gfs_buf_fd(n->edit) && sh->len == cut + 5000, "staging: shared, not copied");
	ok(gfs_node_write(ar, n, "XYZ", 3, 10) == 3 && gfs_buf_fd(sh) != gfs_buf_fd(n->edit) &&
	   sh && sh->data[10] == want[10] && n->edit->data[10] == 'X', "staging: a write after a share copies first");
	gfs_buf_free(sh);
	memcpy(want + 10, "XYZ", 3);
	ok(gfs_archive_save_mem(ar, &out) == 0 && out.len == sizeof(img) - 1 + cut + 5000 - 3 &&
	   !memcmp(out.data + 10, want, cut + 5000), "staging: saved into memory");
	gfs_buf_release(&out);
	ok(gfs_archive_commit(ar) == 0, "staging: committed: %s", ar->err);
	gfs_archive_close(ar);
	ar = NULL;
	ok(gfs_archive_open(path, &o, &ar, err, sizeof(err)) == 0 && (n = gfs_node_lookup(ar, "A.TXT")) &&
	   n->span_len == cut + 5000 && gfs_node_read(ar, n, got, big, 0) == (ssize_t)(cut + 5000) &&
	   !memcmp(got, want, cut + 5000), "staging: the new archive has the bytes");
	/* a small edit stays in the heap */
	ok(ar && gfs_node_truncate(ar, n, 0) == 0 && gfs_node_write(ar, n, "ab", 2, 0) == 2 &&
	   gfs_buf_fd(n->edit) < 0, "staging: a small edit is a heap buffer");
out:
	if (ar)
		gfs_archive_close(ar);
	unlink(path);
	free(want);
	free(got);
}

static int xml_bad(const char *doc, const char *want)
{
	struct gfs_xml x;
	char why[200] = "";
	int r = gfs_xml_parse((const uint8_t *)doc, strlen(doc), &x, why, sizeof(why));

	if (!r)
		gfs_xml_free(&x);
	return r == -EINVAL && strstr(why, want) && x.root == NULL;
}

static void test_xml(void)
{
	static const char doc[] =
		"\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a map -->\n"
		"<map a='1' b = \"x&amp;y&#65;&#x263a;\tz\">\n <k n=\"1\"/><k n=\"2\">t&lt;&gt;&quot;&apos;"
		"<![CDATA[<raw&>]]></k>\n <e></e >\n</map>\n<!-- end -->\n";
	struct gfs_xml x;
	struct gfs_xml_el *k;
	char why[200] = "", deep[64 * 3 + 70 * 4 + 1] = "";
	int r = gfs_xml_parse((const uint8_t *)doc, sizeof(doc) - 1, &x, why, sizeof(why));

	ok(r == 0 && x.root && !strcmp(x.root->name, "map") && x.nodes == 4, "xml parses: %s", why);
	if (r)
		return;
	ok(!strcmp(gfs_xml_attr(x.root, "a"), "1") && !gfs_xml_attr(x.root, "c"), "attributes");
	ok(!strcmp(gfs_xml_attr(x.root, "b"), "x&yA\xe2\x98\xba z"), "entities, char refs, blank normalised");
	k = x.root->kid;
	ok(k && !strcmp(gfs_xml_attr(k, "n"), "1") && k->line == 4 && k->next &&
	   !strcmp(k->next->text, "t<>\"'<raw&>") && k->next->next && !strcmp(k->next->next->name, "e") &&
	   !k->next->next->next, "children in order, text, CDATA, lines");
	ok(!strcmp(x.root->text, "\n \n \n"), "the root's own text");
	gfs_xml_free(&x);
	ok(xml_bad("<!DOCTYPE m [<!ENTITY e SYSTEM \"/etc/passwd\">]><m>&e;</m>", "DOCTYPE"), "no DOCTYPE");
	ok(xml_bad("<m>&e;</m>", "unknown entity"), "no other entity");
	ok(xml_bad("<m>\n<a></b></m>", "line 2: </b> closes <a>"), "mismatched tags, with the line");
	ok(xml_bad("<m a='1' a='2'/>", "twice"), "duplicate attribute");
	/* past 16 attributes duplicates are found through a map, not a scan */
	ok(xml_bad("<m><k a0='' a1='' a2='' a3='' a4='' a5='' a6='' a7='' a8='' a9='' a10='' a11='' a12='' "
		   "a13='' a14='' a15='' a16='' a17='' a18=''/><k a0='' a1='' a2='' a3='' a4='' a5='' a6='' "
		   "a7='' a8='' a9='' a10='' a11='' a12='' a13='' a14='' a15='' a16='' a17='' a3=''/></m>",
		   "attribute 'a3' twice in <k>"), "duplicate attribute among many, in a second element");
	ok(xml_bad("<m></m><n/>", "second root"), "one root");
	ok(xml_bad("<m>", "not closed"), "unclosed element");
	ok(xml_bad("<m a=1/>", "quoted"), "unquoted attribute");
	ok(xml_bad("x<m/>", "outside"), "text outside the root");
	ok(xml_bad("<m>&#0;</m>", "does not allow"), "character 0");
	ok(xml_bad("<m>&#x110000;</m>", "out of range"), "past Unicode");
	ok(xml_bad("<m><!-- a -- b --></m>", "'--'"), "-- in a comment");
	ok(xml_bad("", "no root"), "empty document");
	ok(xml_bad("<m a='<'/>", "'<' in the value"), "< in an attribute");
	for (int i = 0; i < 70; i++)
		strcat(deep, "<a>");
	ok(xml_bad(deep, "64 levels"), "depth limit");
	/* every cut before the root's end tag is complete */
	for (size_t cut = 0; cut < (size_t)(strstr(doc, "</map>") - doc) + 5; cut++) {
		r = gfs_xml_parse((const uint8_t *)doc, cut, &x, why, sizeof(why));
		if (!r)
			gfs_xml_free(&x);
		if (r != -EINVAL)
			break;
	}
	ok(r == -EINVAL, "every cut document is refused");
	r = gfs_xml_parse((const uint8_t *)doc, (size_t)(strstr(doc, "</map>") - doc) + 6, &x, why,
			  sizeof(why));
	ok(r == 0, "the document up to its root's end: %s", why);
	if (!r)
		gfs_xml_free(&x);
}

/* SHA-256 against FIPS 180-2's vectors, fed whole and in odd pieces. */
static int sha_is(const void *data, size_t len, size_t piece, const char *hex)
{
	struct gfs_sha256 s;
	uint8_t d[GFS_SHA256_LEN];
	char got[2 * GFS_SHA256_LEN + 1];
	const uint8_t *p = data;

	gfs_sha256_init(&s);
	/* at least one update, also of nothing (NULL: an empty buffer's data) */
	for (size_t at = 0; at < len || (at == 0 && len == 0); at += piece)
		gfs_sha256_update(&s, len ? p + at : NULL, len - at < piece ? len - at : piece);
	gfs_sha256_final(&s, d);
	for (size_t i = 0; i < sizeof(d); i++)
		snprintf(got + 2 * i, 3, "%02x", d[i]);
	return !strcmp(got, hex);
}

static void test_sha256(void)
{
	static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	size_t mil = 1000000;
	char *a = malloc(mil);

	ok(sha_is(NULL, 0, 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), "sha256: empty, given as NULL");
	ok(sha_is("abc", 3, 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "sha256: abc");
	ok(sha_is(two, sizeof(two) - 1, 7, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
	   "sha256: two blocks, fed 7 bytes at a time");
	if (a)
		memset(a, 'a', mil);
	ok(a && sha_is(a, mil, 4099, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
	   "sha256: a million a");
	ok(a && sha_is(a, 55, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318") &&
	   sha_is(a, 56, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a") &&
	   sha_is(a, 64, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
	   "sha256: 55, 56 and 64 bytes (the padding's edges)");
	free(a);
}

/* The edit rules pack shares with a mount: who may write, what create and mkdir make. */
static void test_edit(void)
{
	static const uint8_t img[] = "A.TXT\0\0\0\x03\0abcB\0\0\0\0\0";
	struct gfs_archive *ar;
	struct gfs_opts o = { 0 };
	struct gfs_node *n, *k;
	char err[600], got[16];

	ok(gfs_archive_open_mem(img, sizeof(img) - 1, "t.rpg", &o, &ar, err, sizeof(err)) == 0, "edit: rpg loads");
	n = gfs_node_lookup(ar, "A.TXT");
	ok(n && gfs_edit_may_write(ar, n) == 0, "edit: a lump may be written");
	ok(gfs_edit_may_write(ar, ar->root) == -EISDIR, "edit: not a directory");
	ok(n && gfs_edit_replace(ar, n, (const uint8_t *)"xy", 2) == 0 &&
	   gfs_node_read(ar, n, got, sizeof(got), 0) == 2 && !memcmp(got, "xy", 2), "edit: replace is the whole content");
	ok(gfs_archive_pending(ar), "edit: the replaced file is pending");
	ok(gfs_edit_create(ar, ar->root, ".A.TXT.swp", &k) == 0 && k && (k->flags & GFS_NODE_SCRATCH),
	   "edit: a scratch name is a memory-only file");
	ok(gfs_edit_create(ar, ar->root, "A.TXT", &k) == -EEXIST, "edit: create of an existing name");
	ok(gfs_edit_create(ar, ar->root, "C.TXT", &k) == 0 && k && !(k->flags & GFS_NODE_SCRATCH) &&
	   k->mtime.tv_sec > 0, "edit: the format creates a lump, dated now");
	/* a lumped file makes only OHRRPGCE maps (maps/NN-name) since i29r */
	ok(gfs_edit_mkdir(ar, ar->root, "D", &k) == -EPERM && strstr(ar->err, "only maps/NN-name can be made"),
	   "edit: mkdir the format refuses: %s", ar->err);
	ar->readonly = 1;
	ok(n && gfs_edit_may_write(ar, n) == -EROFS && gfs_edit_replace(ar, n, (const uint8_t *)"z", 1) == -EROFS,
	   "edit: nothing on a read-only archive");
	ok(gfs_edit_create(ar, ar->root, "E.TXT", &k) == -EROFS, "edit: no create on a read-only archive");
	gfs_archive_close(ar);
}

static int content_is(struct gfs_archive *ar, struct gfs_node *n, const char *want)
{
	char got[64];
	ssize_t len = n ? gfs_node_read(ar, n, got, sizeof(got), 0) : -1;

	return len == (ssize_t)strlen(want) && !memcmp(got, want, (size_t)len);
}

/*
 * The rules of a mount's create, unlink, rename and hidden files (DESIGN.md
 * sections 2 and 3), without FUSE: what the front end calls.
 */
static void test_edit_rules(void)
{
	static const uint8_t img[] = "A.TXT\0\0\0\x03\0abcB.TXT\0\0\0\x02\0deC.TXT\0\0\0\x01\0f";
	struct gfs_archive *ar;
	struct gfs_opts o = { 0 };
	struct gfs_hidden_set hs = { 0 };
	struct gfs_node *a, *b, *c, *k, *closing, *root;
	char err[600] = "";

	ok(gfs_archive_open_mem(img, sizeof(img) - 1, "t.rpg", &o, &ar, err, sizeof(err)) == 0, "rules: rpg loads: %s", err);
	root = ar->root;
	a = gfs_node_lookup(ar, "A.TXT");
	b = gfs_node_lookup(ar, "B.TXT");
	c = gfs_node_lookup(ar, "C.TXT");
	ok(a && b && c && gfs_node_is_stored(a) && !gfs_node_is_render(a) && !gfs_node_is_view(a),
	   "rules: a lump is stored bytes, not a view");
	/* scratch names of the tools DESIGN.md names, and NAME.rejected */
	ok(gfs_is_scratch_name("4913") && gfs_is_scratch_name("A.TXT~") && gfs_is_scratch_name("#A.TXT#") &&
	   gfs_is_scratch_name("sedAb12Z9") && gfs_is_scratch_name("lu12ab3x.tmp") &&
	   gfs_is_scratch_name(".goutputstream-ABC123") && gfs_is_scratch_name("A.TXT.rejected") &&
	   !gfs_is_scratch_name("A.TXT") && !gfs_is_scratch_name("sed"), "rules: scratch names");
	ok(gfs_is_scratch_in(ar, root, "A.TXT.aBcDeF") && gfs_is_scratch_in(ar, root, "A.TXT.abcdef") &&
	   gfs_is_scratch_in(ar, root, "Q.TXT.abcdef") && !gfs_is_scratch_in(ar, root, "QTXT.abcdef"),
	   "rules: QSaveFile names beside their file, or of a name with an extension");
	/* sed -i: a scratch file renamed over a lump replaces its content in place */
	ok(gfs_edit_create_how(ar, root, "sedAb12Z9", GFS_EDIT_EXCL, &k) == 0 && k &&
	   (k->flags & GFS_NODE_SCRATCH) && gfs_node_write(ar, k, "new", 3, 0) == 3, "rules: sed's scratch file");
	ok(gfs_edit_rename(ar, k, root, "A.TXT", a, &closing) == 1 && closing == a &&
	   gfs_node_lookup(ar, "A.TXT") == a && content_is(ar, a, "new") && !gfs_node_lookup(ar, "sedAb12Z9"),
	   "rules: renamed over a lump, the same node takes the content (commit it)");
	ok(gfs_node_is_view(a), "rules: an edited lump is a view a commit changes");
	/* an editor's backup: mv f f~ keeps f and gives f~ a copy */
	ok(gfs_edit_rename(ar, b, root, "B.TXT~", NULL, &closing) == 0 && !closing &&
	   gfs_node_lookup(ar, "B.TXT") == b && (k = gfs_node_lookup(ar, "B.TXT~")) &&
	   (k->flags & GFS_NODE_SCRATCH) && content_is(ar, k, "de"), "rules: mv f f~ copies, f stays");
	ok(gfs_edit_unlink(ar, k) == 1 && !gfs_node_lookup(ar, "B.TXT~"),
	   "rules: a scratch file unlinked (edits pending: commit)");
	ok(gfs_edit_unlink(ar, root) == -EISDIR, "rules: unlink of a directory");
	/* scratch to scratch: a move, nothing to write */
	ok(gfs_edit_create_how(ar, root, ".x.swp", 0, &k) == 0 &&
	   gfs_edit_rename(ar, k, root, ".y.swp", NULL, &closing) == 0 && gfs_node_lookup(ar, ".y.swp") == k,
	   "rules: scratch renamed to scratch");
	/* a new name that is no scratch name: the format creates it with the content */
	ok(gfs_edit_rename(ar, k, root, "D.TXT", NULL, &closing) == 1 && closing &&
	   closing == gfs_node_lookup(ar, "D.TXT") && !(closing->flags & GFS_NODE_SCRATCH),
	   "rules: scratch renamed to a new lump name: created");
	/* the format's rename, over a lump */
	ok(gfs_edit_rename(ar, c, root, "E.TXT", NULL, &closing) == 1 && gfs_node_lookup(ar, "E.TXT") == c &&
	   !gfs_node_lookup(ar, "C.TXT"), "rules: a lump renamed by its format");
	ok(gfs_edit_rename(ar, c, root, "E.TXT", c, &closing) == 0, "rules: rename onto itself");
	ok(gfs_edit_truncate(ar, c, -1) == -EINVAL && gfs_edit_truncate(ar, c, 0) == 1 &&
	   content_is(ar, c, ""), "rules: truncate(1) of a closed lump is an edit to commit");
	ok(gfs_edit_rmdir(ar, c) == -ENOTDIR && gfs_edit_rmdir(ar, root) == -EPERM, "rules: rmdir");

	/* a file removed while open: hidden, and a save under its name takes its place */
	ok(gfs_hide(ar, &hs, b, ".fuse_hidden0001") == 0 && !gfs_node_lookup(ar, "B.TXT") &&
	   gfs_node_lookup(ar, ".fuse_hidden0001") == b, "rules: hidden");
	ok(gfs_unhide(ar, &hs, root, "B.TXT", NULL) == b && gfs_node_lookup(ar, "B.TXT") == b,
	   "rules: a file made under its name takes the hidden file's place");
	ok(!gfs_hidden_is(&hs, b), "rules: given its name back, it is hidden no more");
	ok(gfs_hide(ar, &hs, b, ".fuse_hidden0002") == 0 &&
	   gfs_hidden_is(&hs, b) && gfs_hidden_unlink(ar, &hs, b) == 1 && !gfs_node_lookup(ar, "B.TXT") &&
	   !gfs_node_lookup(ar, ".fuse_hidden0002"), "rules: removed with nothing in its place: it leaves (commit)");
	ok(gfs_hide(ar, &hs, a, ".fuse_hidden0003") == 0 && hs.closed &&
	   gfs_hidden_reap(ar, &hs) == 1 && !hs.closed && !gfs_node_lookup(ar, "A.TXT"),
	   "rules: hidden with no open handle: reaped");
	gfs_hidden_clear(&hs);
	ar->readonly = 1;
	ok(gfs_edit_rename(ar, c, root, "F.TXT", NULL, &closing) == -EROFS && gfs_edit_unlink(ar, c) == -EROFS &&
	   gfs_edit_create_how(ar, root, ".z.swp", 0, &k) == -EROFS, "rules: nothing on a read-only archive");
	gfs_archive_close(ar);
}

int main(void)
{
	test_xml();
	test_rd();
	test_inflate();
	test_png();
	test_png_indexed();
	test_png_rows();
	test_tree();
	test_text();
	test_rpg_mem();
	test_staged_edit();
	test_sha256();
	test_edit();
	test_edit_rules();
	return done_testing();
}
