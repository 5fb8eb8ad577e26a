/*
 * tsv_views.c - the views of a TirNanoG save: header.ini, preview.png and
 * preview.ini (outside the payload), and the text views of its chunks:
 *
 *   GLBL, QSTS  globals.txt, quests.txt: one signed 32-bit value per line
 *               (the lines face of the codec, gfs_layout.h)
 *   DENY        deny.txt: one IPv4 or IPv6 address per line; a record that
 *               is not a plain address is shown as "raw FAMILY HEX32" (its
 *               lines read as the lines face's are)
 *   USER, NPC   user.ini, NNNN.ini: every field and the entity block (the
 *               record codec, over the tables in tsv_model.c)
 *   MAP         maps/<id>.csv: the decoded RLE layer, -1 for 0xffff
 *   other       chunks/<NN>-<MAGIC>.bin: the body, verbatim
 *
 * Every view renders from the chunk's current body and store() parses the
 * view into a new body, so a chunk nobody edited keeps its exact bytes.
 * A known chunk that does not decode exactly (counts overrunning the body,
 * bytes left over, a broken RLE packet) is shown raw instead.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "gfs_codec.h"
#include "gfs_grid.h"
#include "gfs_layout.h"
#include "tngsave.h"

/* ---- globals.txt, quests.txt, deny.txt: the lines face of the codec, a value a line ---- */

static const struct gfs_field tsv_value_fields[] = {
	{ .key = "value", .kind = GFS_FK_SINT, .off = 0, .width = 4, .min = INT32_MIN, .max = UINT32_MAX },
};
static const struct gfs_record tsv_value_rec = { "value", NULL, 4, tsv_value_fields, 1 };
static const struct gfs_table tsv_values = { .index = "index", .rec = &tsv_value_rec, .max = TSV_PAYLOAD_MAX / 2 / 4 };

/* A denied address: "127.0.0.1", "::1", or what is not a plain address as "raw FAMILY HEX32". */
static const struct gfs_field tsv_addr_raw[] = {
	{ .key = "family", .kind = GFS_FK_UINT, .off = 0, .width = 1 },
	{ .key = "bytes", .kind = GFS_FK_BYTES, .off = 1, .width = TSV_DENY_REC - 1, .flags = GFS_FF_HEXDIGITS },
};

static int tsv_addr_fmt(const struct gfs_field *f, const uint8_t *p, struct gfs_buf *out)
{
	char txt[INET6_ADDRSTRLEN];
	int pad = 0, r;

	(void)f;
	for (size_t k = 5; k < TSV_DENY_REC; k++)
		pad |= p[k];
	if ((p[0] == TSV_AF_INET && !pad && inet_ntop(AF_INET, p + 1, txt, sizeof(txt))) ||
	    (p[0] == TSV_AF_INET6 && inet_ntop(AF_INET6, p + 1, txt, sizeof(txt))))
		return gfs_buf_adds(out, txt);
	if ((r = gfs_buf_adds(out, "raw ")) || (r = gfs_field_render(&tsv_addr_raw[0], p, NULL, out)) ||
	    (r = gfs_buf_addc(out, ' ')))
		return r;
	return gfs_field_render(&tsv_addr_raw[1], p, NULL, out);
}

static int tsv_addr_scan(const struct gfs_field *f, uint8_t *rec, const char *line, char *why, size_t whysz)
{
	struct gfs_buf tmp = GFS_BUF_INIT;
	char *p = (char *)line + 3, *w[3];
	int ok = 1;

	(void)f;
	memset(rec, 0, TSV_DENY_REC);
	if (!strncmp(line, "raw", 3) && (line[3] == ' ' || line[3] == '\t')) {
		for (size_t k = 0; k < 3; k++)
			w[k] = gfs_next_word(&p, " \t");
		for (size_t k = 0; k < 2 && ok; k++)
			ok = w[k] && !gfs_field_scan(&tsv_addr_raw[k], rec, w[k], NULL, &tmp, why, whysz);
		ok = ok && !w[2];
		gfs_buf_release(&tmp);
	} else {
		rec[0] = strchr(line, ':') ? TSV_AF_INET6 : TSV_AF_INET;
		ok = inet_pton(rec[0] == TSV_AF_INET ? AF_INET : AF_INET6, line, rec + 1) == 1;
	}
	if (ok)
		return 0;
	snprintf(why, whysz, "'%s' is not an IPv4 or IPv6 address (nor 'raw FAMILY 32-HEX-DIGITS')", line);
	return -EINVAL;
}

static const struct gfs_field tsv_addr_fields[] = {
	{ .key = "address", .kind = GFS_FK_BYTES, .off = 0, .width = TSV_DENY_REC, .fmt = tsv_addr_fmt,
	  .scan = tsv_addr_scan },
};
const struct gfs_record tsv_addr_rec = { .section = "address", .size = TSV_DENY_REC, GFS_FIELDS(tsv_addr_fields) };
static const struct gfs_table tsv_addrs = {
	.index = "index", .rec = &tsv_addr_rec, .max = (TSV_PAYLOAD_MAX / 2 + TSV_DENY_REC - 1) / TSV_DENY_REC,
};

static const struct gfs_table *tsv_lines_table(const struct tsv_chunk *c)
{
	return c->kind == TSV_DENY ? &tsv_addrs : &tsv_values;
}

static int tsv_list_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_chunk *c = n->priv;

	if (!c)
		return -EIO;
	(void)ar;
	return gfs_lines_render(tsv_lines_table(c), c->body.data, c->body.len / tsv_lines_table(c)->rec->size,
				NULL, out);
}

static int tsv_list_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_chunk *c = n->priv;
	struct gfs_buf nb = GFS_BUF_INIT;
	char view[256];
	size_t cnt;
	int r;

	if (!c)
		return -EIO;
	gfs_node_pathname(n, view, sizeof(view));
	r = gfs_lines_parse(ar, view, tsv_lines_table(c), c->body.data, c->body.len / tsv_lines_table(c)->rec->size,
			    data, len, NULL, &nb, &cnt);
	if (!r)
		r = tsv_chunk_set_body(c, nb.data, nb.len);
	gfs_buf_release(&nb);
	return r;
}

const struct gfs_node_ops tsv_list_ops = {
	.render = tsv_list_render,
	.store = tsv_list_store,
};

/* ---- USER and NPC records: the record codec over the model's tables -------- */

static const struct gfs_record *tsv_rec_text(const struct tsv_chunk *c)
{
	return c->kind == TSV_USER ? &tsv_user_rec : &tsv_npc_rec;
}

static int tsv_rec_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_chunk *c = n->priv;
	int r;

	if (!c)
		return -EIO;
	(void)ar;
	r = gfs_record_render(tsv_rec_text(c), c->body.data, c->body.len, NULL, out);
	/* -EBADMSG: the body was edited raw into something that no longer parses */
	return r == -EBADMSG ? -EIO : r;
}

static int tsv_rec_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_chunk *c = n->priv;
	struct gfs_buf nb = GFS_BUF_INIT;
	char view[256];
	int r;

	if (!c)
		return -EIO;
	gfs_node_pathname(n, view, sizeof(view));
	r = gfs_record_parse(ar, view, tsv_rec_text(c), c->body.data, c->body.len, data, len, NULL, &nb);
	if (!r && c->kind == TSV_USER && (nb.len < TSV_USER_NAME || c->body.len < TSV_USER_NAME ||
					  strcmp((const char *)nb.data + TSV_USER_NAME,
						 (const char *)c->body.data + TSV_USER_NAME)))
		c->renamed = 1;
	if (!r)
		r = tsv_chunk_set_body(c, nb.data, nb.len);
	gfs_buf_release(&nb);
	return r;
}

const struct gfs_node_ops tsv_user_ops = {
	.render = tsv_rec_render,
	.store = tsv_rec_store,
};

const struct gfs_node_ops tsv_npc_ops = {
	.render = tsv_rec_render,
	.store = tsv_rec_store,
};

/* ---- maps/<id>.csv ---------------------------------------------------------- */

static size_t tsv_isqrt(size_t n)
{
	size_t s = 0;

	while ((s + 1) * (s + 1) <= n)
		s++;
	return s;
}

/* The layer's cells (malloc'd) and its columns: a square layer in rows, else one column. */
static int tsv_map_cells(const struct tsv_chunk *c, uint16_t **v, size_t *count, size_t *cols)
{
	size_t side;
	int r;

	if (!c || c->body.len < TSV_MAP_RLE)
		return -EIO;
	r = tsv_rle_decode(c->body.data + TSV_MAP_RLE, c->body.len - TSV_MAP_RLE, v, count);
	if (r)
		return r == -ENOMEM ? r : -EIO;
	side = tsv_isqrt(*count);
	*cols = *count && side * side == *count ? side : 1;
	return 0;
}

static int tsv_map_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	uint16_t *v = NULL;
	size_t count, cols;
	int r = tsv_map_cells(n->priv, &v, &count, &cols);

	(void)ar;
	if (!r)
		r = cols > 1 ? gfs_grid_write_u16(out, v, cols, count / cols) : gfs_buf_adds(out, "value\n");
	if (!r && cols == 1)
		r = gfs_grid_render_u16(out, v, count, 1);
	free(v);
	return r;
}

static int tsv_map_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_chunk *c = n->priv;
	struct gfs_buf nb = GFS_BUF_INIT;
	uint16_t *old = NULL, *nv = NULL;
	size_t count = 0, cols;
	char view[256];
	int r = tsv_map_cells(c, &old, &count, &cols);

	if (r)
		return r;
	if (!(nv = malloc((count ? count : 1) * sizeof(*nv))))
		r = -ENOMEM;
	if (!r)
		r = gfs_grid_read_u16(ar, gfs_node_pathname(n, view, sizeof(view)), data, len, cols, count / cols,
				      65535, nv);
	if (r || !count || !memcmp(nv, old, count * sizeof(*nv)))
		goto out;
	r = gfs_buf_add(&nb, c->body.data, TSV_MAP_RLE);
	if (!r)
		r = gfs_rle16_encode(nv, count, &nb);
	if (!r)
		r = tsv_chunk_set_body(c, nb.data, nb.len);
out:
	gfs_buf_release(&nb);
	free(nv);
	free(old);
	return r;
}

const struct gfs_node_ops tsv_map_ops = {
	.render = tsv_map_render,
	.store = tsv_map_store,
};

/* ---- raw chunks ------------------------------------------------------------- */

static int tsv_raw_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_chunk *c = n->priv;

	if (!c)
		return -EIO;
	(void)ar;
	return gfs_buf_add(out, c->body.data, c->body.len);
}

static int tsv_raw_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_chunk *c = n->priv;
	char view[256];

	if (!c)
		return -EIO;
	if (len > TSV_PAYLOAD_MAX - TSV_CHUNK_HDR)
		return gfs_err(ar, -EINVAL, "%s: %zu bytes, over the %u MiB payload limit",
			       gfs_node_pathname(n, view, sizeof(view)), len, TSV_PAYLOAD_MAX >> 20);
	return tsv_chunk_set_body(c, data, len);
}

const struct gfs_node_ops tsv_raw_ops = {
	.render = tsv_raw_render,
	.store = tsv_raw_store,
};


/* ---- header.ini, preview.png, preview.ini (outside the payload) ----------- */

/* ---- header.ini ---------------------------------------------------------- */

/* A comment line: what, then p[0..n) in hex, a blank before each byte. */
static int tsv_bytes_comment(struct gfs_buf *out, const char *what, const uint8_t *p, size_t n)
{
	int r = gfs_buf_adds(out, what);

	for (size_t i = 0; !r && i < n; i++)
		r = gfs_buf_printf(out, " %02x", p[i]);
	return r ? r : gfs_buf_addc(out, '\n');
}

/* The game id reads as text when it is printable UTF-8 up to its first NUL. */
static int tsv_gameid_is_text(const uint8_t *id)
{
	size_t n = strnlen((const char *)id, TSV_GAMEID_LEN);

	for (size_t i = 0; i < n; i++)
		if (id[i] < 0x20 || id[i] == 0x7f)
			return 0;
	if (n && (id[0] == ' ' || id[n - 1] == ' '))
		return 0;
	if (n >= 2 && id[0] == '0' && (id[1] == 'x' || id[1] == 'X'))
		return 0;
	return gfs_utf8_valid(id, n);
}

static int tsv_header_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_save *sv = ar->priv;
	int r;

	(void)n;
	r = gfs_buf_adds(out, "; TirNanoG saved game\n[header]\n");
	if (!r && tsv_gameid_is_text(sv->gameid))
		r = gfs_buf_printf(out, "game_id = %.*s\n", (int)strnlen((const char *)sv->gameid,
			TSV_GAMEID_LEN), (const char *)sv->gameid);
	else if (!r) {
		r = gfs_buf_adds(out, "game_id = 0x");
		for (size_t i = 0; !r && i < TSV_GAMEID_LEN; i++)
			r = gfs_buf_printf(out, "%02x", sv->gameid[i]);
		if (!r)
			r = gfs_buf_addc(out, '\n');
	}
	if (!r && tsv_gameid_is_text(sv->gameid)) {
		size_t idlen = strnlen((const char *)sv->gameid, TSV_GAMEID_LEN), nz = 0;

		for (size_t i = idlen; i < TSV_GAMEID_LEN; i++)
			nz |= sv->gameid[i];
		if (nz)
			r = tsv_bytes_comment(out, "; bytes after the id (kept unless the id changes):",
					      sv->gameid + idlen, TSV_GAMEID_LEN - idlen);
	}
	if (!r)
		r = gfs_buf_printf(out, "; payload: %s deflate, CRC-32 over the %s payload\n",
				   sv->wrap == GFS_ZLIB ? "zlib" : "raw",
				   sv->crc_compressed ? "compressed" : "inflated");
	return r;
}

struct tsv_hdr_ctx {
	struct gfs_archive *ar;
	const char *view;
	uint8_t id[TSV_GAMEID_LEN];
	int seen;
};

static int tsv_header_kv(void *ctx, const char *section, const char *key,
			 const char *value, unsigned line)
{
	struct tsv_hdr_ctx *h = ctx;
	size_t len = strlen(value);

	if (strcmp(section, "header") || strcmp(key, "game_id"))
		return gfs_err(h->ar, -EINVAL, "%s: line %u: unknown key '%s' in [%s]",
			       h->view, line, key, section);
	if (h->seen++)
		return gfs_err(h->ar, -EINVAL, "%s: line %u: game_id given twice", h->view, line);
	memset(h->id, 0, sizeof(h->id));
	if (len == 2 + 2 * TSV_GAMEID_LEN && value[0] == '0' && (value[1] == 'x' || value[1] == 'X')) {
		if (gfs_hexz_parse(value, h->id, TSV_GAMEID_LEN))
			return gfs_err(h->ar, -EINVAL, "%s: line %u: game_id: bad hex digit", h->view, line);
		return 0;
	}
	if (len > TSV_GAMEID_LEN)
		return gfs_err(h->ar, -EINVAL, "%s: line %u: game_id is %zu bytes, at most %d",
			       h->view, line, len, TSV_GAMEID_LEN);
	for (size_t i = 0; i < len; i++)
		if ((uint8_t)value[i] < 0x20 || value[i] == 0x7f)
			return gfs_err(h->ar, -EINVAL, "%s: line %u: game_id has a control character",
				       h->view, line);
	memcpy(h->id, value, len);
	return 0;
}

static int tsv_header_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_save *sv = ar->priv;
	char view[256];
	struct tsv_hdr_ctx h = { .ar = ar, .view = view };
	int r = gfs_ini_parse(ar, gfs_node_pathname(n, view, sizeof(view)), data, len, tsv_header_kv, &h);

	if (r)
		return r;
	if (!h.seen)
		return gfs_err(ar, -EINVAL, "%s: game_id missing", h.view);
	/* an unchanged text id keeps whatever padding the file had */
	if (tsv_gameid_is_text(sv->gameid) &&
	    strnlen((const char *)sv->gameid, TSV_GAMEID_LEN) == strnlen((const char *)h.id, TSV_GAMEID_LEN) &&
	    !memcmp(sv->gameid, h.id, strnlen((const char *)h.id, TSV_GAMEID_LEN)))
		return 0;
	if (memcmp(sv->gameid, h.id, TSV_GAMEID_LEN)) {
		memcpy(sv->gameid, h.id, TSV_GAMEID_LEN);
		sv->gameid_changed = 1;
	}
	return 0;
}

const struct gfs_node_ops tsv_header_ops = {
	.render = tsv_header_render,
	.store = tsv_header_store,
};

/* ---- preview.png and preview.ini ----------------------------------------- */

static uint8_t tsv_c5to8(unsigned c)
{
	return (uint8_t)(c << 3 | c >> 2);
}

static int tsv_png_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_save *sv = ar->priv;
	uint8_t *rgba;
	int r;

	(void)n;
	if (!sv->pix)
		return -EIO;
	rgba = malloc((size_t)TSV_PREVIEW_PIXELS * 4);
	if (!rgba)
		return -ENOMEM;
	for (size_t i = 0; i < TSV_PREVIEW_PIXELS; i++) {
		unsigned p = sv->pix[i];

		rgba[4 * i] = tsv_c5to8(p >> 10 & 31);
		rgba[4 * i + 1] = tsv_c5to8(p >> 5 & 31);
		rgba[4 * i + 2] = tsv_c5to8(p & 31);
		rgba[4 * i + 3] = 255;
	}
	r = gfs_png_encode(rgba, TSV_PREVIEW_DIM, TSV_PREVIEW_DIM, out);
	free(rgba);
	return r;
}

static int tsv_png_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_save *sv = ar->priv;
	uint8_t *rgba = NULL;
	uint16_t *pix;
	uint32_t w = 0, h = 0;
	char view[256];
	int r;

	gfs_node_pathname(n, view, sizeof(view));
	r = gfs_png_decode(data, len, TSV_PREVIEW_DIM, TSV_PREVIEW_DIM, &rgba, &w, &h);
	if (r) {
		if (r == -EINVAL || r == -EBADMSG)
			return gfs_err(ar, -EINVAL, "%s: not a PNG of at most %dx%d pixels", view,
				       TSV_PREVIEW_DIM, TSV_PREVIEW_DIM);
		return r;
	}
	if (w != TSV_PREVIEW_DIM || h != TSV_PREVIEW_DIM) {
		free(rgba);
		return gfs_err(ar, -EINVAL, "%s: image is %ux%u, the preview must be %dx%d", view,
			       w, h, TSV_PREVIEW_DIM, TSV_PREVIEW_DIM);
	}
	pix = malloc(TSV_PREVIEW_BYTES);
	if (!pix) {
		free(rgba);
		return -ENOMEM;
	}
	for (size_t i = 0; i < TSV_PREVIEW_PIXELS; i++)
		pix[i] = (uint16_t)((sv->pix[i] & 0x8000u) | (unsigned)(rgba[4 * i] >> 3) << 10 |
				    (unsigned)(rgba[4 * i + 1] >> 3) << 5 | (unsigned)(rgba[4 * i + 2] >> 3));
	free(rgba);
	if (!memcmp(pix, sv->pix, TSV_PREVIEW_BYTES)) {
		free(pix);
		return 0;
	}
	free(sv->pix);
	sv->pix = pix;
	sv->prvw_pix_changed = 1;
	return 0;
}

const struct gfs_node_ops tsv_png_ops = {
	.render = tsv_png_render,
	.store = tsv_png_store,
};

/* preview.ini: the time played as a record of the codec (gfs_record.h); note: room for its note */
static void tsv_pini_table(const struct tsv_save *sv, char *note, size_t size, struct gfs_field *f,
			   struct gfs_record *rec)
{
	snprintf(note, size, "time spent playing, in seconds (%" PRIu32 ":%02" PRIu32 ":%02" PRIu32 ")",
		 sv->played / 3600, sv->played / 60 % 60, sv->played % 60);
	*f = (struct gfs_field){ .key = "time_played", .kind = GFS_FK_UINT, .width = 4, .note = note };
	*rec = (struct gfs_record){ .section = "preview", .size = 4, .fields = f, .nfields = 1 };
}

static int tsv_pini_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_save *sv = ar->priv;
	struct gfs_field f;
	struct gfs_record rec;
	char note[96];
	uint8_t p[4];
	int nz = 0, r;

	(void)n;
	for (size_t i = 0; i < TSV_PRVW_RESLEN; i++)
		nz |= sv->reserved[i];
	gfs_put_u32le(p, sv->played);
	tsv_pini_table(sv, note, sizeof(note), &f, &rec);
	r = gfs_record_render(&rec, p, sizeof(p), NULL, out);
	if (!r)
		r = gfs_buf_printf(out, "; image %ux%u, 15-bit RGB555\n", sv->dim, sv->dim);
	if (!r && nz)
		r = tsv_bytes_comment(out, "; reserved bytes (kept):", sv->reserved, TSV_PRVW_RESLEN);
	return r;
}

static int tsv_pini_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_save *sv = ar->priv;
	struct gfs_buf nb = GFS_BUF_INIT;
	struct gfs_field f;
	struct gfs_record rec;
	char view[256], note[96];
	uint8_t p[4];
	int r;

	gfs_put_u32le(p, sv->played);
	tsv_pini_table(sv, note, sizeof(note), &f, &rec);
	r = gfs_record_parse(ar, gfs_node_pathname(n, view, sizeof(view)), &rec, p, sizeof(p), data, len, NULL, &nb);
	if (!r && nb.len == sizeof(p) && gfs_le32(nb.data) != sv->played) {
		sv->played = gfs_le32(nb.data);
		sv->prvw_hdr_changed = 1;
	}
	gfs_buf_release(&nb);
	return r;
}

const struct gfs_node_ops tsv_pini_ops = {
	.render = tsv_pini_render,
	.store = tsv_pini_store,
};

/* A preview that does not decode: its body after the 8-byte header, raw. */
static int tsv_praw_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tsv_save *sv = ar->priv;

	(void)n;
	return gfs_buf_add(out, sv->prvw_raw.data, sv->prvw_raw.len);
}

static int tsv_praw_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tsv_save *sv = ar->priv;
	struct gfs_buf nb = GFS_BUF_INIT;
	char view[256];
	int r;

	if (len > TSV_PRVW_MAX - TSV_CHUNK_HDR)
		return gfs_err(ar, -EINVAL, "%s: %zu bytes, a preview chunk holds at most %u",
			       gfs_node_pathname(n, view, sizeof(view)), len, TSV_PRVW_MAX - TSV_CHUNK_HDR);
	if (len == sv->prvw_raw.len && (!len || !memcmp(data, sv->prvw_raw.data, len)))
		return 0;
	r = gfs_buf_add(&nb, data, len);
	if (r)
		return r;
	gfs_buf_release(&sv->prvw_raw);
	sv->prvw_raw = nb;
	sv->prvw_hdr_changed = 1;
	return 0;
}

const struct gfs_node_ops tsv_praw_ops = {
	.render = tsv_praw_render,
	.store = tsv_praw_store,
};
