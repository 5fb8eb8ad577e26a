/*
 * tng_handlers.c - the scripts inside TirNanoG records: where they are and
 * how a record is put back together around edited ones.
 *
 * NPCs (section 28) and objects (31) end with a list of event handlers
 * (u8 type, u24 parameter, u24 length, bytecode), counted by a byte of the
 * record's header; a quest (35) holds one on-complete script and a cutscene
 * (23) one script, each after a u24 length in its header.  A record is
 * split into the bytes before its scripts, the scripts, and any bytes after
 * them (kept as they were).  Where the scripts start is the span of the
 * kind's table (the section registry's), whose fixed part ends in the count
 * or the length: one table says it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_record.h"
#include "tng.h"

/*
 * The table of the bytes before k's scripts: the registry's (tng.c) for a
 * section of that script kind.  Its fixed part ends in what places the
 * scripts: the handler count (a byte; a list) or the script's u24 length.
 */
static const struct gfs_record *scripts_rec(enum tng_rkind k)
{
	for (unsigned type = 0; k != TNG_R_NONE && k != TNG_R_WHOLE && type < TNG_S_N; type++)
		if (tng_kind_of(type)->script == k)
			return tng_kind_of(type)->rec;
	return NULL;
}
#define COUNT_AT(rec)	((rec)->size - 1)
#define LEN_AT(rec)	((rec)->size - 3)

int tng_rkind_lists(enum tng_rkind k)
{
	return k == TNG_R_NPC || k == TNG_R_OBJECT;
}

/* Length of the part before the scripts, from the layout's counts; 0 when short. */
size_t tng_rec_prefix(enum tng_rkind k, const uint8_t *p, size_t len)
{
	const struct gfs_record *rec = scripts_rec(k);

	return rec ? gfs_record_span(rec, p, len) : 0;
}

void tng_split_release(struct tng_split *s)
{
	free(s->h);
	memset(s, 0, sizeof(*s));
}

int tng_split(enum tng_rkind k, const uint8_t *p, size_t len, struct tng_split *s)
{
	const struct gfs_record *rec = scripts_rec(k);
	int list = tng_rkind_lists(k);
	size_t pos, n;

	memset(s, 0, sizeof(*s));
	if (!(s->pre = pos = tng_rec_prefix(k, p, len)))
		return -EBADMSG;
	n = list ? p[COUNT_AT(rec)] : 1;
	if (!(s->h = calloc(n ? n : 1, sizeof(*s->h))))
		return -ENOMEM;
	for (s->nh = 0; s->nh < n; s->nh++) {
		struct tng_hand *h = &s->h[s->nh];

		if (list) {
			if (len - pos < 7)
				goto bad;
			h->type = p[pos];
			h->param = gfs_le24(p + pos + 1);
			h->len = gfs_le24(p + pos + 4);
			pos += 7;
		} else {
			h->len = gfs_le24(p + LEN_AT(rec));
		}
		if (h->len > len - pos)
			goto bad;
		h->code = p + pos;
		pos += h->len;
	}
	s->tail = pos;
	return 0;
bad:
	tng_split_release(s);
	return -EBADMSG;
}

int tng_join(enum tng_rkind k, const uint8_t *pre, size_t prelen, const struct tng_hand *h,
	     size_t nh, const uint8_t *tail, size_t taillen, struct gfs_buf *out)
{
	const struct gfs_record *rec = scripts_rec(k);
	int list = tng_rkind_lists(k);
	size_t start = out->len;
	int r;

	if (!rec || prelen < rec->size || (list ? nh > 255 : nh != 1))
		return -EINVAL;
	if ((r = gfs_buf_add(out, pre, prelen)))
		return r;
	if (list)
		out->data[start + COUNT_AT(rec)] = (uint8_t)nh;
	for (size_t i = 0; i < nh && !r; i++) {
		if (h[i].len > 0xffffff || h[i].param > 0xffffff)
			return -EINVAL;
		if (list) {
			r = gfs_buf_addc(out, h[i].type);
			r = r ? r : gfs_buf_add_u24le(out, h[i].param);
			r = r ? r : gfs_buf_add_u24le(out, (uint32_t)h[i].len);
		} else {
			gfs_put_u24le(out->data + start + LEN_AT(rec), (uint32_t)h[i].len);
		}
		r = r ? r : gfs_buf_add(out, h[i].code, h[i].len);
	}
	return r ? r : gfs_buf_add(out, tail, taillen);
}

static const char *const hnames[] = {
	"on_click", "on_touch", "on_leave", "on_approach", "on_action1", "on_action2",
	"on_action3", "on_action4", "on_action5", "on_action6", "on_action7", "on_action8",
	"on_action9", "on_using1", "on_using2", "on_using3", "on_timer", "on_sell", "on_buy",
};

/* "on_click" for type 0 ...; "on_NN" for a type the document does not name. */
void tng_handler_name(unsigned type, char *out, size_t outlen)
{
	if (type < sizeof hnames / sizeof hnames[0])
		snprintf(out, outlen, "%s", hnames[type]);
	else
		snprintf(out, outlen, "on_%u", type);
}

int tng_handler_type(const char *name, size_t len)
{
	unsigned v = 0;

	for (unsigned i = 0; i < sizeof hnames / sizeof hnames[0]; i++)
		if (strlen(hnames[i]) == len && !memcmp(hnames[i], name, len))
			return (int)i;
	if (len < 4 || len > 6 || memcmp(name, "on_", 3))
		return -1;
	for (size_t i = 3; i < len; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(name[i] - '0');
	}
	return v <= 255 && (len == 4 || name[3] != '0') ? (int)v : -1;
}
