/*
 * unit-zzt.c - unit tests of the ZZT driver (TAP): the code page 437
 * mapping, the RLE encoder, and random edits of every view of a world built
 * here, each followed by a save and a reload that must load undamaged with
 * the untouched boards byte-identical.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gamefs.h"
#include "formats/zzt/zzt.h"
#include "gfs_record.h"
#include "../tap.h"

static void quiet(const char *msg)
{
	(void)msg;
}

static void test_cp437(void)
{
	int bad = 0, c;

	for (c = 0; c < 256; c++) {
		struct gfs_buf b = GFS_BUF_INIT;
		uint32_t cp;
		size_t n;

		if (zzt_cp437_put(&b, (uint8_t)c) || !(n = gfs_utf8_decode(b.data, b.len, &cp)) ||
		    n != b.len || zzt_cp437_from(cp) != c)
			bad++;
		gfs_buf_release(&b);
	}
	ok(!bad, "every code page 437 byte survives UTF-8 and back (%d bad)", bad);
}

static int rle_check(const uint8_t *e, const uint8_t *c, const struct gfs_buf *rle)
{
	size_t p, n = 0;

	for (p = 0; p + 3 <= rle->len; p += 3) {
		unsigned run = rle->data[p];

		if (run < 1 || run > ZZT_RUN_MAX || n + run > ZZT_TILES)
			return -1;
		for (unsigned k = 0; k < run; k++, n++)
			if (e[n] != rle->data[p + 1] || c[n] != rle->data[p + 2])
				return -1;
	}
	return n == ZZT_TILES && p == rle->len ? 0 : -1;
}

static void test_rle(void)
{
	uint8_t e[ZZT_TILES], c[ZZT_TILES];
	int bad = 0, i, t;

	for (i = 0; i < 200; i++) {
		struct gfs_buf b = GFS_BUF_INIT;
		unsigned mode = (unsigned)i % 4;

		for (t = 0; t < ZZT_TILES; t++) {
			e[t] = mode == 0 ? 0 : mode == 1 ? (uint8_t)rnd() : (uint8_t)(t / (1 + rnd() % 600));
			c[t] = mode == 3 ? (uint8_t)(rnd() % 2) : 0x0f;
		}
		if (zzt_rle_encode(e, c, ZZT_TILES, &b) || rle_check(e, c, &b))
			bad++;
		gfs_buf_release(&b);
	}
	ok(!bad, "RLE: runs of 1..255 that decode to the grid and stop at 1500 tiles (%d bad)", bad);
}

/* A world of engine e of nboards boards, each with a player, an object with code and a bound one. */
static void make_world(struct gfs_buf *out, int nboards, const struct zzt_engine *e)
{
	uint8_t hdr[ZZT_HDR_MAX] = { 0 };
	int i, s;

	gfs_put_u16le(hdr + ZZT_H_TYPE, (uint16_t)e->type);
	gfs_put_u16le(hdr + ZZT_H_NUMBOARDS, (uint16_t)(nboards - 1));
	gfs_put_u16le(hdr + ZZT_H_HEALTH, (uint16_t)(100));
	hdr[e->h_name] = 4;
	memcpy(hdr + e->h_name + 1, "UNITxyz", 7);	/* stale bytes after the name */
	gfs_buf_add(out, hdr, e->hdr_size);
	for (i = 0; i < nboards; i++) {
		struct zzt_board b;
		struct zzt_stat st[3];
		static uint8_t tiles[2 * ZZT_TILES_MAX];

		memset(&b, 0, sizeof(b));
		memset(st, 0, sizeof(st));
		b.eng = e;
		b.elem = tiles;
		b.color = tiles + e->tiles;
		for (int t = 0; t < (int)e->tiles; t++) {
			b.elem[t] = (uint8_t)((t / 97 + i) % 24);
			b.color[t] = (uint8_t)(t / 333 + 0x10 * i);
		}
		b.tiles_changed = 1;
		b.name[0] = 5;
		memcpy(b.name + 1, "Board", 5);
		b.props[ZZT_P_SHOTS] = 255;
		for (s = 0; s < 3; s++) {
			st[s].rec[ZZT_S_X] = (uint8_t)(s + 1);
			st[s].rec[ZZT_S_Y] = 1;
			st[s].bind = s == 2 ? 1 : -1;
		}
		gfs_buf_adds(&st[1].code, "@thing\r#end\r:touch\r'hi\r");
		b.stats = st;
		b.nstats = 3;
		zzt_board_encode(&b, out);
		gfs_buf_release(&st[1].code);
	}
}

static int nstores, naccepted;

static void mutate(struct gfs_buf *b)
{
	int k = (int)(rnd() % 6);

	for (int j = 0; j < k && b->len; j++) {
		size_t p = rnd() % b->len;
		uint8_t t[64];
		size_t m;

		switch (rnd() % 5) {
		case 0:
			b->data[p] = (uint8_t)rnd();
			break;
		case 1:
			b->data[p] = (uint8_t)"0123456789,\n-x\"\\=["[rnd() % 18];
			break;
		case 2:
			b->len = p;
			break;
		case 3:
			memmove(b->data + p, b->data + p + 1, b->len - p - 1);
			b->len--;
			break;
		default:
			m = p < sizeof(t) ? p : sizeof(t);
			memcpy(t, b->data, m);
			gfs_buf_add(b, t, m);
			break;
		}
	}
}

static void edit_all(struct gfs_archive *ar, struct gfs_node *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		edit_all(ar, n->kids[i]);
	if (S_ISDIR(n->mode) || !n->ops || !n->ops->store || (rnd() % 3))
		return;
	struct gfs_buf b = GFS_BUF_INIT;

	if (!gfs_node_content(ar, n, &b)) {
		mutate(&b);
		nstores++;
		if (!n->ops->store(ar, n, b.data ? b.data : (const uint8_t *)"", b.len))
			naccepted++;
		gfs_tree_invalidate(ar);
	}
	gfs_buf_release(&b);
}

static void test_random_edits(const struct zzt_engine *e, int iters)
{
	struct gfs_buf w = GFS_BUF_INIT;
	int bad = 0, it;

	nstores = naccepted = 0;
	make_world(&w, 4, e);
	for (it = 0; it < iters; it++) {
		struct gfs_opts o = { 0 };
		struct gfs_archive *ar = NULL, *again = NULL;
		struct gfs_buf out = GFS_BUF_INIT;
		char err[600];

		if (gfs_archive_open_mem(w.data, w.len, "unit.zzt", &o, &ar, err, sizeof(err))) {
			printf("# open: %s\n", err);
			bad++;
			break;
		}
		ar->log = quiet;
		edit_all(ar, ar->root);
		if (gfs_archive_save_mem(ar, &out)) {
			bad++;
		} else if (gfs_archive_open_mem(out.data, out.len, "unit.zzt", &o, &again, err,
						sizeof(err))) {
			printf("# reload: %s\n", err);
			bad++;
		} else {
			struct zzt_world *a = ar->priv, *b = again->priv;

			again->log = quiet;
			if (again->readonly || b->nboards != a->nboards) {
				printf("# reload damaged: %s\n", again->ro_reason);
				bad++;
			}
			for (size_t i = 0; i < a->nboards && i < b->nboards; i++) {
				struct zzt_board *x = &a->boards[i], *y = &b->boards[i];

				if (memcmp(x->elem, y->elem, 2 * e->tiles) || x->nstats != y->nstats ||
				    memcmp(x->props, y->props, e->nstats->count_off) ||
				    memcmp(x->name, y->name, e->name_len))
					bad++;
				if (!x->dirty && (x->size != y->size ||
						  memcmp(w.data + x->off, out.data + y->off, x->size + 2)))
					bad++;	/* an untouched board changed */
			}
			gfs_archive_close(again);
		}
		gfs_buf_release(&out);
		gfs_archive_close(ar);
	}
	ok(!bad, "%s: %d random edits (%d accepted): saves reload undamaged, models equal, "
	   "untouched boards byte-identical (%d bad)", e->name, nstores, naccepted, bad);
	gfs_buf_release(&w);
}

static void test_store_world(void)
{
	struct gfs_buf w = GFS_BUF_INIT, out = GFS_BUF_INIT;
	struct gfs_opts o = { 0 };
	struct gfs_archive *ar = NULL;
	struct gfs_node *n;
	char err[600];
	const char *edit = "[player]\nammo = 321\n[world]\nname = \"AB\"\n";

	make_world(&w, 2, &zzt_engine_zzt);
	if (gfs_archive_open_mem(w.data, w.len, "unit.zzt", &o, &ar, err, sizeof(err))) {
		ok(0, "open: %s", err);
		return;
	}
	ar->log = quiet;
	n = gfs_node_lookup(ar, "world.ini");
	ok(n && n->ops->store(ar, n, (const uint8_t *)edit, strlen(edit)) == 0, "world.ini store");
	ok(gfs_archive_save_mem(ar, &out) == 0 && out.len == w.len, "save keeps the size");
	ok(out.len > ZZT_HDR_SIZE && (int16_t)gfs_le16(out.data + ZZT_H_AMMO) == 321, "ammo written");
	ok(out.len > ZZT_HDR_SIZE && !memcmp(out.data + ZZT_H_NAME, "\002ABITxyz", 8),
	   "name written, stale bytes after it kept");
	ok(out.len == w.len && !memcmp(out.data + ZZT_HDR_SIZE, w.data + ZZT_HDR_SIZE,
				       w.len - ZZT_HDR_SIZE), "boards untouched");
	n = gfs_node_lookup(ar, "boards/00-board/elements.csv");
	ok(n && n->ops->store(ar, n, (const uint8_t *)"x1\n1,2\n", 7) == -EINVAL,
	   "a grid with the wrong shape is EINVAL");
	gfs_buf_release(&out);
	gfs_buf_release(&w);
	gfs_archive_close(ar);
}

int main(void)
{
	test_cp437();
	test_rle();
	test_store_world();
	test_random_edits(&zzt_engine_zzt, 150);
	test_random_edits(&zzt_engine_szt, 60);
	return done_testing();
}
