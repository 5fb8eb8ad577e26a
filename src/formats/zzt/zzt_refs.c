/*
 * zzt_refs.c - board names, and every number that leads to a board: the
 * start board, the four exits of each board and each passage's
 * destination.  A board is removed only when nothing leads to it; the
 * boards after it move down one and so do the numbers that lead to them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "formats/zzt/zzt.h"

/*
 * A name as a slug: lower-case ASCII letters and digits, every other run of
 * characters one '-' between them; its first cap - 1 characters, without a
 * final '-'.
 */
size_t zzt_slug(const uint8_t *s, size_t n, char *out, size_t cap)
{
	size_t len = 0, i;
	int dash = 0;

	for (i = 0; i < n && len + 1 < cap; i++) {
		unsigned char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && len) {
				if (len + 2 >= cap)
					break;	/* never end in '-' */
				out[len++] = '-';
			}
			dash = 0;
			out[len++] = (char)c;
		} else {
			dash = 1;
		}
	}
	out[len] = 0;
	return len;
}

/* "NN-slug" from the board name. */
void zzt_board_dirname(const struct zzt_board *b, char *out, size_t len)
{
	char slug[41];

	if (zzt_slug(b->name + 1, b->name[0] > b->eng->name_max ? b->eng->name_max : b->name[0],
		     slug, sizeof(slug)))
		snprintf(out, len, "%02u-%s", b->idx, slug);
	else
		snprintf(out, len, "%02u", b->idx);
}

/* 1 when stat s of b stands on a passage: its P3 is a board number. */
static int zzt_is_passage(const struct zzt_board *b, size_t s)
{
	unsigned x = b->stats[s].rec[ZZT_S_X], y = b->stats[s].rec[ZZT_S_Y];

	return x >= 1 && x <= b->eng->w && y >= 1 && y <= b->eng->h &&
	       b->elem[(y - 1) * b->eng->w + x - 1] == ZZT_E_PASSAGE_ID;
}

static const char *const zzt_exit_names[4] = { "north", "south", "west", "east" };

int zzt_each_ref(struct zzt_world *w, int (*fn)(struct zzt_world *, struct zzt_refsite *, void *),
			void *arg)
{
	struct zzt_refsite rs = { .kind = ZZT_REF_START };
	int r;

	rs.value = (uint16_t)gfs_le16(w->hdr + ZZT_H_BOARD);
	if ((r = fn(w, &rs, arg)))
		return r;
	for (size_t i = 0; i < w->nboards; i++) {
		struct zzt_board *b = &w->boards[i];

		if (b->damaged)
			continue;
		rs.board = (unsigned)i;
		rs.kind = ZZT_REF_EXIT;
		for (rs.n = 0; rs.n < 4; rs.n++) {
			rs.value = b->props[b->eng->p_exits + rs.n];
			if (rs.value && (r = fn(w, &rs, arg)))
				return r;
		}
		rs.kind = ZZT_REF_PASSAGE;
		for (size_t s = 0; s < b->nstats; s++) {
			if (!zzt_is_passage(b, s))
				continue;
			rs.n = (unsigned)s;
			rs.value = b->stats[s].rec[ZZT_S_P3];
			if ((r = fn(w, &rs, arg)))
				return r;
		}
	}
	return 0;
}

struct zzt_refquery {
	unsigned target;
	char who[128];
};

static int zzt_ref_to(struct zzt_world *w, struct zzt_refsite *rs, void *arg)
{
	struct zzt_refquery *q = arg;
	char dn[64];

	if (rs->value != q->target)
		return 0;
	zzt_board_dirname(&w->boards[rs->board], dn, sizeof(dn));
	if (rs->kind == ZZT_REF_EXIT)
		snprintf(q->who, sizeof(q->who), "the %s exit of board %s (board.ini exit_%s)",
			 zzt_exit_names[rs->n], dn, zzt_exit_names[rs->n]);
	else if (rs->kind == ZZT_REF_PASSAGE)
		snprintf(q->who, sizeof(q->who), "the passage of board %s (stats.csv stat %u, p3)",
			 dn, rs->n);
	else
		snprintf(q->who, sizeof(q->who), "the start board (world.ini board)");
	return 1;
}

/* EBUSY naming what still leads to board b (or that it is the title screen), else 0. */
int zzt_board_busy(struct gfs_archive *ar, struct zzt_board *b)
{
	struct zzt_refquery q = { .target = b->idx };

	if (!b->idx)
		return gfs_err(ar, -EBUSY, "board 0 is the title screen: it cannot be removed");
	if (zzt_each_ref(ar->priv, zzt_ref_to, &q))
		return gfs_err(ar, -EBUSY, "board %u is still the destination of %s", b->idx, q.who);
	return 0;
}

/* Board target went: every number past it follows its board down by one. */
int zzt_ref_shift(struct zzt_world *w, struct zzt_refsite *rs, void *arg)
{
	unsigned target = *(unsigned *)arg;
	struct zzt_board *b = &w->boards[rs->board];

	if (rs->value <= target)
		return 0;
	if (rs->kind == ZZT_REF_START) {
		gfs_put_u16le(w->hdr + ZZT_H_BOARD, (uint16_t)(rs->value - 1));
		w->hdr_dirty = 1;
		return 0;
	}
	if (rs->kind == ZZT_REF_EXIT)
		b->props[b->eng->p_exits + rs->n]--;
	else
		b->stats[rs->n].rec[ZZT_S_P3]--;
	b->dirty = 1;
	return 0;
}


/* Board from went to number to (unsigned[2] arg): the boards between shift by one towards from. */
int zzt_ref_move(struct zzt_world *w, struct zzt_refsite *rs, void *arg)
{
	const unsigned *mv = arg;
	struct zzt_board *b = &w->boards[rs->board];
	unsigned v = rs->value;

	if (v == mv[0])
		v = mv[1];
	else if (mv[0] < mv[1] && v > mv[0] && v <= mv[1])
		v--;
	else if (mv[0] > mv[1] && v >= mv[1] && v < mv[0])
		v++;
	if (v == rs->value)
		return 0;
	if (rs->kind == ZZT_REF_START) {
		gfs_put_u16le(w->hdr + ZZT_H_BOARD, (uint16_t)v);
		w->hdr_dirty = 1;
		return 0;
	}
	if (rs->kind == ZZT_REF_EXIT)
		b->props[b->eng->p_exits + rs->n] = (uint8_t)v;
	else
		b->stats[rs->n].rec[ZZT_S_P3] = (uint8_t)v;
	b->dirty = 1;
	return 0;
}
