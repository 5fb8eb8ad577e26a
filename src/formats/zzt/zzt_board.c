/*
 * zzt_board.c - the board codec: one board's bytes <-> struct zzt_board.
 *
 * A board after its 16-bit size field: its name (stale bytes after the
 * length kept), its RLE tiles (count, element, colour; count 0 = 256;
 * kept as stored until a tile changes), then its info and stats as
 * zzt_engine.c's spans declare them, and any tail after the last stat (kept).
 *
 * The lowest layer of the format: it calls only the core.  The model
 * (zzt.h), the views (zzt_view.c, zzt_png.c) and the tree builder (zzt.c)
 * sit above it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/zzt/zzt.h"
#include "gfs_record.h"

void zzt_board_release(struct zzt_board *b)
{
	size_t i;

	for (i = 0; i < b->nstats; i++)
		gfs_buf_release(&b->stats[i].code);
	free(b->stats);
	free(b->rle);
	free(b->tail);
	free(b->elem);
	b->elem = b->color = NULL;
	b->stats = NULL;
	b->rle = NULL;
	b->tail = NULL;
	b->nstats = b->capstats = 0;
}

/*
 * Parse one board's bytes (after its size field).  On damage returns
 * -EBADMSG with the reason in why; the board is then shown raw.
 */
int zzt_board_parse(struct zzt_board *b, const uint8_t *data, size_t size,
			   uint64_t base, char *why, size_t wl)
{
	const struct zzt_engine *e = b->eng;
	struct gfs_rd r;
	size_t n = 0, start, i, pos, len;
	int64_t count;

	gfs_rd_init(&r, data, size, base);
	if (gfs_rd_bytes(&r, b->name, e->name_len)) {
		snprintf(why, wl, "at 0x%llx: board name runs past the board end",
			 (unsigned long long)gfs_rd_off(&r));
		return -EBADMSG;
	}
	b->elem = malloc(2 * (size_t)e->tiles);
	if (!b->elem)
		return -ENOMEM;
	b->color = b->elem + e->tiles;
	start = r.pos;
	while (n < e->tiles) {
		uint64_t at = gfs_rd_off(&r);
		uint8_t cnt, el, c;
		size_t run;

		if (gfs_rd_u8(&r, &cnt) || gfs_rd_u8(&r, &el) || gfs_rd_u8(&r, &c)) {
			snprintf(why, wl, "at 0x%llx: RLE runs past the board end after %zu tiles",
				 (unsigned long long)at, n);
			return -EBADMSG;
		}
		run = cnt ? cnt : 256;
		if (n + run > e->tiles) {
			snprintf(why, wl, "at 0x%llx: RLE runs past %u tiles (run of %zu at tile %zu)",
				 (unsigned long long)at, e->tiles, run, n);
			return -EBADMSG;
		}
		memset(b->elem + n, el, run);
		memset(b->color + n, c, run);
		n += run;
	}
	b->rle_len = r.pos - start;
	b->rle = malloc(b->rle_len);
	if (!b->rle)
		return -ENOMEM;
	memcpy(b->rle, data + start, b->rle_len);
	if (gfs_rd_bytes(&r, b->props, e->p_size)) {
		snprintf(why, wl, "at 0x%llx: board properties run past the board end",
			 (unsigned long long)gfs_rd_off(&r));
		return -EBADMSG;
	}
	/* the stats after the info, as the codec lays them out (zzt_engine.c) */
	count = gfs_record_count(e->nstats, b->props);
	if (count < 0 || (size_t)count > gfs_rd_left(&r) / e->s_size) {
		snprintf(why, wl, "at 0x%llx: stat count %d overruns the board",
			 (unsigned long long)(gfs_rd_off(&r) - e->p_size + e->nstats->count_off), (int)count);
		return -EBADMSG;
	}
	b->capstats = count ? (size_t)count : 1;
	b->stats = calloc(b->capstats, sizeof(*b->stats));
	if (!b->stats)
		return -ENOMEM;
	for (i = 0, pos = r.pos; i < (size_t)count; i++, pos += n) {
		struct zzt_stat *s = &b->stats[i];
		size_t at;

		s->final_cr = 1;
		b->nstats = i + 1;
		n = gfs_record_elem_span(e->nstats, b->props, data + pos, size - pos);
		if (!n && size - pos < e->s_size) {
			snprintf(why, wl, "at 0x%llx: stat %zu runs past the board end",
				 (unsigned long long)(base + pos), i);
			return -EBADMSG;
		}
		if (!n) {
			snprintf(why, wl, "at 0x%llx: code length %d of stat %zu runs past the board end",
				 (unsigned long long)(base + pos + e->code->count_off),
				 (int)gfs_record_count(e->code, data + pos), i);
			return -EBADMSG;
		}
		memcpy(s->rec, data + pos, e->s_size);
		if (gfs_record_items(e->nstats->group, data + pos, n, "code", &at, &len) && len) {
			if (gfs_buf_add(&s->code, data + pos + at, len))
				return -ENOMEM;
			s->final_cr = data[pos + at + len - 1] == '\r';
		}
		s->bind = zzt_bind_get(s->rec) ? (int)zzt_bind_get(s->rec) : -1;
		if (s->bind >= count) {
			snprintf(why, wl, "at 0x%llx: stat %zu binds to stat %d, which does not exist (%d stats)",
				 (unsigned long long)(base + pos + e->code->count_off), i, s->bind, (int)count);
			return -EBADMSG;
		}
	}
	b->tail_len = size - pos;
	if (b->tail_len) {
		b->tail = malloc(b->tail_len);
		if (!b->tail)
			return -ENOMEM;
		memcpy(b->tail, data + pos, b->tail_len);
	}
	return 0;
}

int zzt_rle_encode(const uint8_t *elem, const uint8_t *color, size_t tiles, struct gfs_buf *out)
{
	size_t i = 0;

	while (i < tiles) {
		size_t run = 1;
		uint8_t t[3];

		while (i + run < tiles && run < ZZT_RUN_MAX &&
		       elem[i + run] == elem[i] && color[i + run] == color[i])
			run++;
		t[0] = (uint8_t)run;
		t[1] = elem[i];
		t[2] = color[i];
		if (gfs_buf_add(out, t, 3))
			return -ENOMEM;
		i += run;
	}
	return 0;
}

int zzt_board_encode(const struct zzt_board *b, struct gfs_buf *out)
{
	const struct zzt_engine *e = b->eng;
	size_t start = out->len, i, size;
	uint8_t props[ZZT_P_SIZE_MAX];
	int r = 0;

	r |= gfs_buf_add_u16le(out, 0);
	r |= gfs_buf_add(out, b->name, e->name_len);
	if (r)
		return -ENOMEM;
	if (b->tiles_changed)
		r = zzt_rle_encode(b->elem, b->color, e->tiles, out);
	else
		r = gfs_buf_add(out, b->rle, b->rle_len);
	memcpy(props, b->props, e->p_size);
	gfs_record_count_set(e->nstats, props, b->nstats);
	r |= gfs_buf_add(out, props, e->p_size);
	for (i = 0; i < b->nstats && !r; i++) {
		const struct zzt_stat *s = &b->stats[i];
		uint8_t rec[ZZT_S_SIZE_MAX];

		memcpy(rec, s->rec, e->s_size);
		gfs_record_count_set(e->code, rec, s->code.len);
		if (s->bind >= 0)
			zzt_bind_set(rec, (uint64_t)s->bind);
		r |= gfs_buf_add(out, rec, e->s_size);
		if (s->bind < 0 && s->code.len)
			r |= gfs_buf_add(out, s->code.data, s->code.len);
	}
	if (b->tail_len)
		r |= gfs_buf_add(out, b->tail, b->tail_len);
	if (r)
		return -ENOMEM;
	size = out->len - start - 2;
	if (size > ZZT_BOARD_MAX)
		return -EFBIG;
	gfs_put_u16le(out->data + start, (uint16_t)size);
	return 0;
}

/* EINVAL (with the message) if b no longer fits the 16-bit size field. */
int zzt_board_check_size(struct gfs_archive *ar, struct zzt_board *b)
{
	struct gfs_buf enc = GFS_BUF_INIT;
	int r = zzt_board_encode(b, &enc);

	if (r == -EFBIG)
		r = gfs_err(ar, -EINVAL, "board %u would be %zu bytes, more than the %d its size field holds",
			    b->idx, enc.len - 2, ZZT_BOARD_MAX);
	gfs_buf_release(&enc);
	return r;
}

/* ZZT's BoardCreate: what a new board holds. */
#define ZZT_BORDER_COLOR	0x0e	/* yellow on black */
#define ZZT_PLAYER_COLOR	0x1f	/* white on blue */
#define ZZT_NEW_SHOTS		255

int zzt_board_blank(struct zzt_board *b, const struct zzt_engine *e, const uint8_t *name, size_t n)
{
	struct zzt_stat *p;
	size_t x, y, w = e->w;

	b->eng = e;
	memset(b->name, 0, sizeof(b->name));
	b->name[0] = (uint8_t)n;
	memcpy(b->name + 1, name, n);
	b->elem = calloc(2, e->tiles);
	b->stats = calloc(1, sizeof(*b->stats));
	if (!b->elem || !b->stats)
		return -ENOMEM;
	b->color = b->elem + e->tiles;
	for (y = 0; y < e->h; y++)
		for (x = 0; x < w; x++)
			if (!x || !y || x == w - 1 || y == e->h - 1) {
				b->elem[y * w + x] = ZZT_E_NORMAL_ID;
				b->color[y * w + x] = ZZT_BORDER_COLOR;
			}
	/* the player at (BOARD_WIDTH div 2, BOARD_HEIGHT div 2), 1-based */
	x = w / 2;
	y = e->h / 2;
	b->elem[(y - 1) * w + x - 1] = ZZT_E_PLAYER_ID;
	b->color[(y - 1) * w + x - 1] = ZZT_PLAYER_COLOR;
	b->tiles_changed = 1;
	memset(b->props, 0, sizeof(b->props));
	b->props[ZZT_P_SHOTS] = ZZT_NEW_SHOTS;
	p = &b->stats[0];
	p->bind = -1;
	p->final_cr = 1;
	p->rec[ZZT_S_X] = (uint8_t)x;
	p->rec[ZZT_S_Y] = (uint8_t)y;
	gfs_put_u16le(p->rec + ZZT_S_CYCLE, 1);
	gfs_put_u16le(p->rec + ZZT_S_FOLLOWER, 0xffff);
	gfs_put_u16le(p->rec + ZZT_S_LEADER, 0xffff);
	b->nstats = b->capstats = 1;
	b->dirty = 1;
	return 0;
}
