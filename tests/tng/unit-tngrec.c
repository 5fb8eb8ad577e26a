/*
 * unit-tngrec.c - unit tests of the TirNanoG records as INI (TAP): random
 * records of every kind with a table (their counts right, every other byte
 * random) render and parse back to the same bytes, with names and without;
 * random bytes either decode and round-trip or are refused as undecodable;
 * an added group element, an edited field and a shorter mask change what
 * they should; bad values are EINVAL naming the view, line and key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gamefs.h"
#include "gfs_driver.h"
#include "formats/tng/tng.h"
#include "formats/tng/tng_script.h"
#include "../tap.h"

/* A small game's names: value -> name per kind (string offsets are the values). */
static const struct {
	enum tngs_ref kind;
	uint32_t v;
	const char *name;
} names[] = {
	{ TNGS_SOUND, 10, "door" }, { TNGS_SOUND, 20, "bell ring" }, { TNGS_SOUND, 35, "door" },
	{ TNGS_MUSIC, 40, "theme" }, { TNGS_SPEECH, 41, "hello" }, { TNGS_MOVIE, 42, "intro" },
	{ TNGS_FONT, 43, "main" }, { TNGS_ATTR, 60, "hp" }, { TNGS_ATTR, 61, "gold" },
	{ TNGS_STRING, 60, "hp" }, { TNGS_STRING, 61, "gold" }, { TNGS_STRING, 70, "caf\xc3\xa9" },
	{ TNGS_STRING, 71, "bad\xff" },
};
static const char *const texts[] = { "Title", "Hello there", "Line\nbreak", "x;y" };

#include "names.h"

static int t_exists(void *ctx, enum tngs_ref k, uint32_t v)
{
	(void)ctx;
	if (k == TNGS_TEXT)
		return v < 4;
	return k == TNGS_SPRITE && (v >> 16) < 4 && (v & 0xffff) < 3;
}

static const struct tngs_names nm = { t_name, t_find, t_exists, NULL };
static const struct tngs_names bare = { NULL, NULL, NULL, NULL };

static void put16(struct gfs_buf *b, size_t at, unsigned v)
{
	b->data[at] = (uint8_t)v;
	b->data[at + 1] = (uint8_t)(v >> 8);
}

/* n random bytes, often one of the values that have names or special meanings. */
static void fill(struct gfs_buf *b, size_t n)
{
	static const uint8_t pick[] = { 0, 0xff, 10, 20, 35, 40, 41, 42, 43, 60, 61, 70, 71, 1, 2, 3, 13 };

	for (size_t i = 0; i < n; i++)
		gfs_buf_addc(b, rnd() % 3 ? pick[rnd() % sizeof pick] : (uint8_t)rnd());
}

/* A random record of a kind, its counts right. */
static void make(unsigned type, unsigned tr, struct gfs_buf *b)
{
	unsigned a = rnd() % 4, c = rnd() % 3, d = rnd() % 3;

	b->len = 0;
	switch (type) {
	case 16:
		gfs_buf_addc(b, (uint8_t)a);
		fill(b, a * 4);
		gfs_buf_addc(b, (uint8_t)c);
		fill(b, c * 7);
		gfs_buf_addc(b, (uint8_t)d);
		fill(b, d * 3 + (rnd() % 4) * 3);
		break;
	case 17: fill(b, rnd() % 2 ? 3 : 141); break;
	case 18: fill(b, 51 + a * 17); b->data[50] = (uint8_t)a; break;
	case 19: fill(b, a * 4); break;
	case 20: fill(b, 12 + (3 + a) * 10); b->data[11] = (uint8_t)(3 + a); break;
	case 21:
		fill(b, 24);
		for (unsigned k = 0; k < a; k++) {
			unsigned n = rnd() % 4;

			gfs_buf_addc(b, (uint8_t)"gcdafmsvtpx"[rnd() % 11]);
			gfs_buf_add_u16le(b, (uint16_t)n);
			fill(b, 3 * n);
		}
		break;
	case 27:
		fill(b, 7);
		b->data[6] = (uint8_t)a;
		for (unsigned k = 0; k < a; k++) {
			unsigned na = rnd() % 3, ni = rnd() % 3, ns = rnd() % 3;

			fill(b, 6);
			gfs_buf_addc(b, (uint8_t)na);
			gfs_buf_addc(b, (uint8_t)ni);
			gfs_buf_addc(b, (uint8_t)ns);
			fill(b, na * 8 + ni * 4 + ns * 3);
		}
		break;
	case 22: fill(b, 10 + a * 31); put16(b, 8, a); break;
	case 23:
		fill(b, 21 + a * 19 + c * 6 + d * 27);
		put16(b, 12, a);
		put16(b, 14, c);
		put16(b, 16, d);
		break;
	case 25: {
		fill(b, 19);
		put16(b, 17, a);
		for (unsigned k = 0; k < a; k++) {
			unsigned kind = rnd() % 5, n = rnd() % 5;

			gfs_buf_addc(b, (uint8_t)kind);
			fill(b, 6);
			if (kind == 1 || kind == 3) {
				fill(b, 4);
				gfs_buf_add_u24le(b, n);
			} else if (kind == 2 || kind == 4) {
				gfs_buf_add_u16le(b, (uint16_t)n);
			} else {
				n = 0;
			}
			fill(b, n);
		}
		break;
	}
	case 28:
		fill(b, 13 + a * 8 + c * 10 + d * 3);
		b->data[9] = (uint8_t)a;
		b->data[10] = (uint8_t)c;
		b->data[11] = (uint8_t)d;
		break;
	case 29: fill(b, 6 + a * 21); put16(b, 4, a); break;
	case 30: fill(b, 14 + a * 21); b->data[13] = (uint8_t)a; break;
	case 31: {
		unsigned w = rnd() % 4, h = rnd() % 4, s = rnd() % 3, m = rnd() % 2;

		fill(b, 39 + w * h + 96 + s * 3 + 96 + a * 8 + m * 8 + c * 123);
		put16(b, 3, w);
		put16(b, 5, h);
		b->data[34] = (uint8_t)s;
		b->data[35] = (uint8_t)a;
		b->data[36] = (uint8_t)m;
		b->data[37] = (uint8_t)c;
		break;
	}
	case 32: fill(b, 14 + a * 68); b->data[13] = (uint8_t)a; break;
	case 33: fill(b, a * (2 + 5 * tr)); break;
	case 35: fill(b, 10); break;
	}
}

static const unsigned types[] = { 16, 17, 18, 19, 20, 21, 22, 23, 25, 27, 28, 29, 30, 31, 32, 33, 35 };
#define NTYPES (sizeof types / sizeof types[0])

/* parse(render(p)) over p: 0 when it gives p back; the view in text. */
static int round_trip(struct gfs_archive *ar, unsigned type, unsigned tr, const struct tngs_names *n,
		      const struct gfs_buf *p, struct gfs_buf *text)
{
	struct gfs_buf back = GFS_BUF_INIT;
	int r;

	text->len = 0;
	r = tng_rec_render(type, tr, p->data, p->len, n, text);
	if (!r)
		r = tng_rec_parse(ar, "r.ini", type, tr, p->data, p->len, text->data, text->len, n, &back);
	if (!r && (back.len != p->len || (p->len && memcmp(back.data, p->data, p->len))))
		r = 1;
	gfs_buf_release(&back);
	return r;
}

static void test_random(struct gfs_archive *ar)
{
	struct gfs_buf b = GFS_BUF_INIT, text = GFS_BUF_INIT;

	for (size_t t = 0; t < NTYPES; t++) {
		int bad = 0, undecoded = 0, odd = 0;
		unsigned tr = 1 + rnd() % 5;

		for (int i = 0; i < 3000; i++) {
			make(types[t], tr, &b);
			if (!tng_rec_decodes(types[t], tr, b.data, b.len)) {
				undecoded++;
				continue;
			}
			if (round_trip(ar, types[t], tr, i % 2 ? &nm : &bare, &b, &text)) {
				if (bad++ < 2)
					printf("# type %u: %s\n", types[t], ar->err);
			}
			if (!gfs_utf8_valid(text.data, text.len) && bad++ < 2)
				printf("# type %u: not UTF-8: %.*s\n", types[t], (int)text.len, text.data);
		}
		/* random bytes: they decode and round-trip, or render says they do not decode */
		for (int i = 0; i < 3000; i++) {
			b.len = 0;
			fill(&b, rnd() % 200);
			if (!tng_rec_decodes(types[t], tr, b.data, b.len)) {
				text.len = 0;
				odd += tng_rec_render(types[t], tr, b.data, b.len, &nm, &text) != -EBADMSG;
				continue;
			}
			if (round_trip(ar, types[t], tr, &nm, &b, &text) && bad++ < 1)
				printf("# type %u: %zu random bytes: %s\n%.*s\n", types[t], b.len, ar->err,
				       (int)text.len, text.data);
		}
		ok(bad == 0 && undecoded == 0 && odd == 0,
		   "type %u: 3000 random records and 3000 random byte strings round-trip (%d differ, "
		   "%d made records do not decode, %d undecodable ones render)", types[t], bad, undecoded, odd);
	}
	gfs_buf_release(&b);
	gfs_buf_release(&text);
}

/* Parse text over old; the result's bytes in out. */
static int parse(struct gfs_archive *ar, unsigned type, const uint8_t *old, size_t oldlen,
		 const char *text, struct gfs_buf *out)
{
	out->len = 0;
	return tng_rec_parse(ar, "r.ini", type, 3, old, oldlen, (const uint8_t *)text, strlen(text),
			     &nm, out);
}

static void test_edits(struct gfs_archive *ar)
{
	/* a dialog: title 1, no answers */
	static const uint8_t dlg[14] = { 1, 0, 0, 2, 0, 0, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0 };
	/* an object 2x1 with mask 1 0, nothing else */
	uint8_t obj[39 + 2 + 192];
	struct gfs_buf out = GFS_BUF_INIT, text = GFS_BUF_INIT;
	int r;

	r = parse(ar, 30, dlg, sizeof dlg, "[dialog]\ntitle = 3 ; stale comment\n[answer 0]\n"
		  "require_attribute = gold\nrequire_relation = set\ntext = 1\n", &out);
	ok(r == 0 && out.len == 35 && out.data[0] == 3 && out.data[13] == 1 && out.data[14] == 61 &&
	   out.data[17] == 0xff && out.data[14 + 18] == 1 && out.data[3] == 2,
	   "an answer added, a title changed, the rest kept");
	text.len = 0;
	ok(tng_rec_render(30, 3, out.data, out.len, &nm, &text) == 0 &&
	   strstr((const char *)text.data, "\ntitle = 3 ; x;y\n") &&
	   strstr((const char *)text.data, "\nrequire_relation = set\n") &&
	   strstr((const char *)text.data, "\nspeech = -1\n"), "a text with its comment, a relation, -1");
	memset(obj, 0, sizeof obj);
	obj[3] = 2;
	obj[5] = 1;
	obj[39] = 1;
	r = parse(ar, 31, obj, sizeof obj, "[mask 0]\nrow = 7 8 9\n[mask 1]\nrow = 1 2 3\n", &out);
	ok(r == 0 && out.len == sizeof obj + 4 && out.data[3] == 3 && out.data[5] == 2 &&
	   !memcmp(out.data + 39, "\x07\x08\x09\x01\x02\x03", 6), "the mask grows to 3x2");
	r = parse(ar, 31, obj, sizeof obj, "[object]\ntitle = 0\n", &out);
	ok(r == 0 && out.len == sizeof obj - 2 && out.data[3] == 2 && out.data[5] == 0,
	   "no mask rows left: height 0, the width stays");
	r = parse(ar, 31, obj, sizeof obj, "[mask 0]\nrow = 1 2\n[mask 1]\nrow = 1\n", &out);
	ok(r == -EINVAL && strstr(ar->err, "r.ini: [mask 1] has 1 cells, [mask 0] 2"),
	   "mask rows of two lengths: %s", ar->err);
	r = parse(ar, 30, dlg, sizeof dlg, "[dialog]\nspeech = nobody\n", &out);
	ok(r == -EINVAL && strstr(ar->err, "r.ini: line 2: speech: 'nobody' is not the name of a speech"),
	   "an unknown speech: %s", ar->err);
	r = parse(ar, 30, dlg, sizeof dlg, "[dialog]\nportrait = chars/7\n", &out);
	ok(r == -EINVAL && strstr(ar->err, "line 2: portrait: 'chars/7'"), "a sprite that is not there");
	r = parse(ar, 30, dlg, sizeof dlg, "[dialog]\nportrait = #chars/7\n", &out);
	ok(r == 0 && out.data[9] == 2 && out.data[10] == 7, "#chars/7 is taken as it is");
	r = parse(ar, 30, dlg, sizeof dlg, "[dialog]\nportrait = player/2\n", &out);
	ok(r == 0 && out.data[9] == 3 && out.data[10] == 0xf2 && out.data[11] == 0xff,
	   "player/2 is the player's portrait FFF2");
	r = parse(ar, 30, dlg, sizeof dlg, "[dialog]\ntitle = 9\n", &out);
	ok(r == -EINVAL && strstr(ar->err, "line 2: title: '9' is not a text index"), "a text not there");
	r = parse(ar, 30, dlg, sizeof dlg, "[dialog]\nportrait_side = up\n", &out);
	ok(r == -EINVAL && strstr(ar->err, "portrait_side"), "an unknown side");
	r = parse(ar, 30, dlg, sizeof dlg, "[answer 1]\ntext = 1\n", &out);
	ok(r == -EINVAL && strstr(ar->err, "[answer 1] out of order"), "an answer out of order");
	gfs_buf_release(&out);
	gfs_buf_release(&text);
}

/* The fuzz target's list of tables: every table of the section registry once, the intro's, lang.ini's. */
static void test_layouts(void)
{
	extern const struct gfs_format gfs_format_tng;
	size_t n = 0, dup = 0;

	while (gfs_format_tng.layout(n))
		n++;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			dup += gfs_format_tng.layout(i) == gfs_format_tng.layout(j);
	ok(n == 18 && !dup && gfs_format_tng.layout(0) == &tng_uielem_rec &&
	   gfs_format_tng.layout(17) == &tng_lang_rec,
	   "the fuzz target drives 18 tables, each once (%zu, %zu twice)", n, dup);
}

int main(void)
{
	struct gfs_archive ar;

	memset(&ar, 0, sizeof(ar));
	ar.path = "t.tng";
	test_random(&ar);
	test_edits(&ar);
	test_layouts();
	return done_testing();
}
