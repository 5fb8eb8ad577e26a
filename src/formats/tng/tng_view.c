/*
 * tng_view.c - the views of a TirNanoG game: header.ini, strings.txt,
 * texts.txt, media, raw records, maps (sprite maps and strips: tng_sprview.c).
 *
 * Every render reads the model (pending edits first, then the file); every
 * store checks the whole edited view before it changes the model, so a bad
 * edit leaves the model as it was.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_codec.h"
#include "gfs_grid.h"
#include "gfs_record.h"
#include "tng.h"

#define TNG_NONE24 0xffffffu

/* ---- header.ini ---------------------------------------------------------- */

/* Tile sides are 10 bits: the low byte at 34/35, the high bits in the type byte. */
static uint64_t tng_tile_get(const uint8_t *h, unsigned off, unsigned shift)
{
	return h[off] | ((h[TNG_OFF_TYPE] >> shift) & 3u) << 8;
}

static void tng_tile_set(uint8_t *h, unsigned off, unsigned shift, uint64_t v)
{
	h[off] = (uint8_t)v;
	h[TNG_OFF_TYPE] = (uint8_t)((h[TNG_OFF_TYPE] & ~(3u << shift)) | (v >> 8 & 3) << shift);
}

static uint64_t tng_tilew_get(const uint8_t *h) { return tng_tile_get(h, TNG_OFF_TILEW, 4); }
static uint64_t tng_tileh_get(const uint8_t *h) { return tng_tile_get(h, TNG_OFF_TILEH, 6); }
static void tng_tilew_set(uint8_t *h, uint64_t v) { tng_tile_set(h, TNG_OFF_TILEW, 4, v); }
static void tng_tileh_set(uint8_t *h, uint64_t v) { tng_tile_set(h, TNG_OFF_TILEH, 6, v); }

void tng_tile_size(const struct tng *t, unsigned *w, unsigned *h)
{
	*w = (unsigned)tng_tilew_get(t->hdr);
	*h = (unsigned)tng_tileh_get(t->hdr);
}

/* key, kind, offset, width, flags */
#define TNG_HF(k, kd, o, w, fl) { .key = k, .kind = kd, .off = o, .width = w, .flags = fl }
static const struct gfs_field tng_hdr_fields[] = {
	TNG_HF("magic", GFS_FK_BYTES, 0, TNG_MAGIC_LEN, GFS_FF_RO),
	TNG_HF("id", GFS_FK_STR, TNG_OFF_ID, TNG_ID_LEN, 0),
	TNG_HF("revision", GFS_FK_UINT, TNG_OFF_REV, 1, GFS_FF_RO),
	{ .key = "type", .kind = GFS_FK_UINT, .off = TNG_OFF_TYPE, .width = 1, .bits = 4 },
	{ .key = "tile_width", .kind = GFS_FK_UINT, .off = TNG_OFF_TILEW, .width = 1, .bits = 10,
	  .get = tng_tilew_get, .set = tng_tilew_set },
	{ .key = "tile_height", .kind = GFS_FK_UINT, .off = TNG_OFF_TILEH, .width = 1, .bits = 10,
	  .get = tng_tileh_get, .set = tng_tileh_set },
	TNG_HF("map_size_log2", GFS_FK_UINT, TNG_OFF_MAPSIZE, 1, 0),
	TNG_HF("atlas_size_log2", GFS_FK_UINT, TNG_OFF_ATLAS, 1, 0),
	TNG_HF("frequency", GFS_FK_UINT, TNG_OFF_FREQ, 1, 0),
	TNG_HF("fps", GFS_FK_UINT, TNG_OFF_FPS, 1, 0),
	TNG_HF("actions", GFS_FK_UINT, TNG_OFF_ACTIONS, 1, 0),
	TNG_HF("layers", GFS_FK_UINT, TNG_OFF_LAYERS, 1, 0),
	TNG_HF("transports", GFS_FK_UINT, TNG_OFF_TRANSPORTS, 1, 0),
	TNG_HF("max_command", GFS_FK_UINT, TNG_OFF_MAXCMD, 1, 0),
	TNG_HF("delta_y", GFS_FK_UINT, TNG_OFF_DELTAY, 1, 0),
	TNG_HF("sprites_per_layer", GFS_FK_UINT, TNG_OFF_SPRPERLAYER, 1, 0),
	TNG_HF("reserved", GFS_FK_UINT, TNG_OFF_PAD, 2, 0),
	TNG_HF("uid", GFS_FK_HEX, TNG_OFF_UID, 8, 0),
	/* no crc: it changes at every commit (DESIGN.md 2); check prints it, the save recomputes it */
	TNG_HF("encrypted", GFS_FK_HEX, TNG_OFF_ENC, 4, GFS_FF_RO),
};
#undef TNG_HF

static const struct gfs_record tng_hdr_rec = { .section = "header", .size = TNG_HDR_SIZE,
					       GFS_FIELDS(tng_hdr_fields) };

static int tng_header_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;

	(void)ar;
	return gfs_record_render(&tng_hdr_rec, ref->t->hdr, TNG_HDR_SIZE, NULL, out);
}

static int tng_has_type(struct tng *t, unsigned type)
{
	for (size_t i = 0; i < t->nsecs; i++)
		if (t->secs[i].type == type && t->secs[i].len)
			return 1;
	return 0;
}

static int tng_header_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	struct gfs_buf h = GFS_BUF_INIT;
	int r = gfs_record_parse(ar, "header.ini", &tng_hdr_rec, t->hdr, TNG_HDR_SIZE, data, len, NULL, &h);

	if (r)
		goto out;
	if ((h.data[TNG_OFF_MAPSIZE] != t->hdr[TNG_OFF_MAPSIZE] ||
	     h.data[TNG_OFF_LAYERS] != t->hdr[TNG_OFF_LAYERS]) && tng_has_type(t, TNG_S_MAPS)) {
		r = gfs_err(ar, -EINVAL, "header.ini: map_size_log2 and layers cannot change while "
			    "the game has maps");
		goto out;
	}
	if (h.data[TNG_OFF_TRANSPORTS] != t->hdr[TNG_OFF_TRANSPORTS] && tng_has_type(t, TNG_S_TILESMETA)) {
		r = gfs_err(ar, -EINVAL, "header.ini: transports cannot change while the game has "
			    "tile meta records");
		goto out;
	}
	if (memcmp(h.data, t->hdr, TNG_HDR_SIZE)) {
		memcpy(t->hdr, h.data, TNG_HDR_SIZE);
		t->hdr_edited = 1;
	}
out:
	gfs_buf_release(&h);
	return r;
}

const struct gfs_node_ops tng_header_ops = {
	.render = tng_header_render,
	.store = tng_header_store,
	.free = tng_ref_free,
};

/* ---- strings.txt ----------------------------------------------------------- */

static int tng_strings_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	size_t len, i = 0;
	const uint8_t *p = tng_sec_data(ref->t, ref->sec, &len);
	int r = 0;

	(void)ar;
	while (i < len && !r) {
		const uint8_t *nul = memchr(p + i, 0, len - i);
		size_t e = nul ? (size_t)(nul - p) : len;

		r = gfs_buf_add_dec(out, i);
		if (!r)
			r = gfs_buf_addc(out, '\t');
		if (!r)
			r = gfs_text_escape(out, p + i, e - i, 0);
		if (!r)
			r = gfs_buf_adds(out, nul ? "\n" : "\t(no terminating NUL)\n");
		i = e + 1;
	}
	return r;
}

const struct gfs_node_ops tng_strings_ops = {
	.render = tng_strings_render,
	.free = tng_ref_free,
};

/* ---- lang/<code>/texts.txt -------------------------------------------------- */

static int tng_texts_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	size_t i = 0;
	int r = tng_asset_content(ar, ref->t, tng_ref_asset(n), TNG_ZASSET_MAX, &b);

	while (!r && i < b.len) {
		const uint8_t *nul = memchr(b.data + i, 0, b.len - i);
		size_t e = nul ? (size_t)(nul - b.data) : b.len;

		r = gfs_text_escape(out, b.data + i, e - i, 0);
		if (!r)
			r = gfs_buf_addc(out, '\n');
		i = e + 1;
	}
	gfs_buf_release(&b);
	return r;
}

static int tng_texts_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct gfs_buf *nb;
	size_t i = 0;
	unsigned line = 1;
	int r = 0;

	if (!gfs_utf8_valid(data, len))
		return gfs_err(ar, -EINVAL, "texts.txt: not UTF-8 text");
	if (memchr(data, 0, len))
		return gfs_err(ar, -EINVAL, "texts.txt: contains a NUL byte");
	nb = gfs_buf_new();
	if (!nb)
		return -ENOMEM;
	while (i < len) {
		const uint8_t *nl = memchr(data + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - data) : len, at = nb->len;

		r = gfs_text_unescape((const char *)data + i, e - i, nb);
		if (r == -EINVAL) {
			r = gfs_err(ar, -EINVAL, "texts.txt: line %u: bad escape (use \\n, \\\\ or \\xNN)",
				    line);
			break;
		}
		if (!r && memchr(nb->data + at, 0, nb->len - at))
			r = gfs_err(ar, -EINVAL, "texts.txt: line %u: \\x00 is not allowed", line);
		if (!r)
			r = gfs_buf_addc(nb, 0);
		if (r)
			break;
		i = e + 1;
		line++;
	}
	if (!r && nb->len > TNG_ZASSET_MAX)
		r = gfs_err(ar, -EINVAL, "texts.txt: too large");
	if (r) {
		gfs_buf_free(nb);
		return r;
	}
	tng_set_pending(ar, n, nb);
	return 0;
}

const struct gfs_node_ops tng_texts_ops = {
	.render = tng_texts_render,
	.store = tng_texts_store,
	.free = tng_ref_free,
};

/* ---- stored media ------------------------------------------------------------ */

static int tng_media_keep(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct gfs_buf *nb;

	if ((uint64_t)len > 0xffffffffu)
		return gfs_err(ar, -EINVAL, "%s: %zu bytes is over the 4 GiB asset limit", n->name, len);
	/* a big edit's memfd is shared with the node, not copied (the store compared it already) */
	nb = gfs_node_keep_bytes(n, data, len);
	if (!nb)
		return -ENOMEM;
	tng_keep_pending(n, nb);
	gfs_tree_invalidate(ar);
	return 0;
}

/* A stored asset written back as it is (even one the checks would refuse): nothing to do. */
static int tng_stored_unchanged(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
				size_t len)
{
	struct tng_ref *ref = n->priv;
	struct tng_asset *a = tng_ref_asset(n);
	const struct gfs_buf *sb = gfs_node_staged(n, data, len);

	/* a big edit is compared through its memfd, not its mapping */
	if (sb && a && !a->pending && a->kind == TNG_A_STORED)
		return tng_stored_equal_buf(ar, ref->t, a, sb);
	return tng_asset_same(ar, ref->t, a, data, len);
}

static int tng_media_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	size_t nl = strlen(n->name);
	int created = ((struct tng_ref *)n->priv)->asset == TNG_NEW_ASSET, r;

	if (!created && tng_stored_unchanged(ar, n, data, len))
		return 0;
	/* empty is allowed: a missing asset (and a file being truncated) */
	if (nl > 4 && (!strcmp(n->name + nl - 4, ".ogg") || !strcmp(n->name + nl - 4, ".ogv")) &&
	    len && (len < 4 || memcmp(data, "OggS", 4)))
		return gfs_err(ar, -EINVAL, "%s: not an Ogg file (no OggS page)", n->name);
	if (created && (r = tng_media_adopt(ar, n)))
		return r;
	return tng_media_keep(ar, n, data, len);
}

const struct gfs_node_ops tng_media_ops = {
	.store = tng_media_store,
	.free = tng_ref_free,
};

uint32_t tng_atlas_max_side(const struct tng *t)
{
	unsigned log2 = t->hdr[TNG_OFF_ATLAS];

	return log2 && log2 < 16 ? (uint32_t)1 << log2 : TNG_IMAGE_MAX_SIDE;
}

static int tng_image_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	uint8_t *rgba = NULL;
	uint32_t w, h, max;
	int r;

	/* decoded whole: a PNG with a broken image chunk is refused now, not in the game */
	char why[200];
	struct tng_ref *ref = n->priv;
	int created = ref->asset == TNG_NEW_ASSET;

	if (created && !len)
		return 0;	/* created, not written yet: nothing in the game */
	if (!created && tng_stored_unchanged(ar, n, data, len))
		return 0;
	max = ref->t->secs[ref->sec].type == TNG_S_ATLASES ? tng_atlas_max_side(ref->t) : TNG_IMAGE_MAX_SIDE;
	r = gfs_png_decode(data, len, max, max, &rgba, &w, &h);
	free(rgba);
	if (r == -ENOMEM)
		return r;
	if (r && !gfs_png_size(data, len, &w, &h) && (w > max || h > max))
		return gfs_err(ar, -EINVAL, "%s: %ux%u pixels, over the %ux%u %s", n->name, w, h, max, max,
			       max == TNG_IMAGE_MAX_SIDE ? "limit" : "of header.ini's atlas_size_log2");
	if (r)
		return gfs_err(ar, -EINVAL, "%s: not a PNG image that decodes (whole, and to no more "
			       "than the pixels its header declares)", n->name);
	/* an atlas too small for the sprites drawn from it breaks them */
	if (!created && tng_atlas_fits(ar, ref->t, tng_ref_asset(n), w, h, why, sizeof(why)))
		return gfs_err(ar, -EINVAL, "%s: %s", n->name, why);
	if (created && (r = tng_numbered_adopt(ar, n)))	/* the next number: a new asset */
		return r;
	return tng_media_keep(ar, n, data, len);
}

const struct gfs_node_ops tng_image_ops = {
	.store = tng_image_store,
	.free = tng_ref_free,
};

/* ---- inflated records (<kind>/<NNNN>.bin) -------------------------------------- */

static int tng_zbin_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;

	return tng_asset_content(ar, ref->t, tng_ref_asset(n), TNG_ZASSET_MAX, out);
}

static int tng_zbin_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct gfs_buf *nb;

	if (len > TNG_ZASSET_MAX)
		return gfs_err(ar, -EINVAL, "%s: %zu bytes is over the %zu-byte limit", n->name, len,
			       TNG_ZASSET_MAX);
	nb = gfs_buf_new();
	if (!nb || gfs_buf_add(nb, data, len)) {
		gfs_buf_free(nb);
		return -ENOMEM;
	}
	tng_set_pending(ar, n, nb);
	return 0;
}

const struct gfs_node_ops tng_zbin_ops = {
	.render = tng_zbin_render,
	.store = tng_zbin_store,
	.free = tng_ref_free,
};

/* ---- sections/<NN>-<kind>.bin ----------------------------------------------- */

static int tng_raw_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	size_t len;
	const uint8_t *p = tng_sec_data(ref->t, ref->sec, &len);

	(void)ar;
	return gfs_buf_add(out, p, len);
}

static int tng_raw_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	struct tng_ref *ref = n->priv;
	size_t len;

	(void)ar;
	tng_sec_data(ref->t, ref->sec, &len);
	*size = len;
	return 0;
}

static int tng_raw_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	struct tng_sec *s = &t->secs[ref->sec];
	unsigned rs = tng_kind_of(s->type)->recsize;
	struct gfs_buf *nb;

	if (s->type == TNG_S_TILESMETA)
		rs = 2 + 5u * t->hdr[TNG_OFF_TRANSPORTS];
	if (len > 0xffffff)
		return gfs_err(ar, -EINVAL, "%s: %zu bytes is over the 16 MiB section limit", n->name, len);
	if (rs && len % rs)
		return gfs_err(ar, -EINVAL, "%s: %zu bytes is not a multiple of the %u-byte record",
			       n->name, len, rs);
	nb = gfs_buf_new();
	if (!nb || gfs_buf_add(nb, data, len)) {
		gfs_buf_free(nb);
		return -ENOMEM;
	}
	gfs_buf_free(s->edit);
	s->edit = nb;
	s->raw_bad = 0;
	return 0;
}

const struct gfs_node_ops tng_raw_ops = {
	.render = tng_raw_render,
	.size = tng_raw_size,
	.store = tng_raw_store,
	.free = tng_ref_free,
};

/* ---- maps -------------------------------------------------------------------- */

/* Current map bytes of a view's asset, parsed (decode: cells too). */
int tng_map_get(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *b,
		       struct tng_map *m, int decode)
{
	struct tng_ref *ref = n->priv;
	char why[160];
	int r = tng_asset_content(ar, ref->t, tng_ref_asset(n), TNG_MAP_MAX, b);

	if (r)
		return r;
	r = tng_map_parse(tng_map_size(ref->t), tng_map_layers(ref->t), b->data, b->len, m, decode,
			  why, sizeof(why));
	if (r)
		return gfs_err(ar, -EIO, "%s: %s", n->name, why);
	return 0;
}

/* A string reference: "" (0), -1 (0xffffff), the name, or @offset. */
static int tng_strref_fmt(struct tng *t, uint32_t v, struct gfs_buf *out)
{
	size_t len, plen;
	const char *s;

	if (v == 0)
		return 0;
	if (v == TNG_NONE24)
		return gfs_buf_adds(out, "-1");
	s = tng_string_at(t, v, &len);
	if (s && len && (v == 0 || ((const uint8_t *)s)[-1] == 0) && !strchr("@-", s[0]) &&
	    !memchr(s, '\n', len) && s[0] != ' ' && s[len - 1] != ' ') {
		/* the first string with this text, so the name maps back here */
		const uint8_t *p = tng_sec_data(t, (size_t)t->strsec, &plen);
		size_t i = 0;

		while (i < plen) {
			const uint8_t *nul = memchr(p + i, 0, plen - i);
			size_t e = nul ? (size_t)(nul - p) : plen;

			if (e - i == len && !memcmp(p + i, s, len))
				break;
			i = e + 1;
		}
		if (i == v)
			return gfs_buf_add(out, s, len);
	}
	return gfs_buf_printf(out, "@%u", v);
}

static int tng_strref_parse(struct tng *t, const char *value, uint32_t *v)
{
	int64_t x;
	size_t plen, i = 0, len = strlen(value);
	const uint8_t *p;

	if (!*value) {
		*v = 0;
		return 0;
	}
	if (!strcmp(value, "-1")) {
		*v = TNG_NONE24;
		return 0;
	}
	if (value[0] == '@') {
		if (gfs_parse_int(value + 1, 0, 0xffffff, &x))
			return -EINVAL;
		*v = (uint32_t)x;
		return 0;
	}
	if (t->strsec < 0)
		return -EINVAL;
	p = tng_sec_data(t, (size_t)t->strsec, &plen);
	while (i < plen) {
		const uint8_t *nul = memchr(p + i, 0, plen - i);
		size_t e = nul ? (size_t)(nul - p) : plen;

		if (nul && e - i == len && !memcmp(p + i, value, len) && i <= 0xffffff) {
			*v = (uint32_t)i;
			return 0;
		}
		i = e + 1;
	}
	return -EINVAL;
}

/* map.ini's references (tng_map_rec, tng_map.c) */
static int tng_mref_fmt(void *ctx, int ref, uint64_t v, struct gfs_buf *out)
{
	if (ref == TNG_MREF_STR)
		return tng_strref_fmt(ctx, (uint32_t)v, out);
	if (ref == TNG_MREF_SPRITE)
		return v >> 8 == 0xffff ? gfs_buf_printf(out, "%u:-1", (unsigned)(v & 0xff)) :
		       gfs_buf_printf(out, "%u:%u", (unsigned)(v & 0xff), (unsigned)(v >> 8));
	return v == TNG_NONE24 ? gfs_buf_adds(out, "-1") : gfs_buf_printf(out, "%u", (unsigned)v);
}

static int tng_mref_parse(void *ctx, int ref, const char *value, uint64_t *v)
{
	uint32_t u;
	unsigned cat;
	int idx;
	char extra;
	int64_t x;

	switch (ref) {
	case TNG_MREF_STR:
		if (tng_strref_parse(ctx, value, &u))
			return -EINVAL;
		*v = u;
		return 0;
	case TNG_MREF_SPRITE:
		if (sscanf(value, "%u:%d %c", &cat, &idx, &extra) != 2 || cat > 255 || idx < -1 ||
		    idx > 65535)
			return -EINVAL;
		*v = cat | (uint64_t)(idx < 0 ? 0xffff : idx) << 8;
		return 0;
	default:
		if (!strcmp(value, "-1"))
			x = TNG_NONE24;
		else if (gfs_parse_int(value, 0, 0xffffff, &x))
			return -EINVAL;
		*v = (uint64_t)x;
		return 0;
	}
}

static int tng_mapini_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct gfs_rec_refs refs = { tng_mref_fmt, tng_mref_parse, NULL, ref->t };
	struct gfs_buf b = GFS_BUF_INIT;
	struct tng_map m;
	int r;

	if (ref->fresh)	/* created by a copy into a new map: empty until written */
		return 0;
	r = tng_map_get(ar, n, &b, &m, 0);

	if (!r)
		r = gfs_record_render(&tng_map_rec, b.data, b.len, &refs, out);
	gfs_buf_release(&b);
	return r;
}

/*
 * The map of view n changed: map.ini's text ini[0..inilen) (NULL: kept) over
 * its header, parallaxes and paths, and cells (NULL: kept) as its layers,
 * re-encoded only when they differ; adopted as the asset's new content.
 */
int tng_map_store(struct gfs_archive *ar, struct gfs_node *n, const char *view, const uint8_t *ini,
		  size_t inilen, const uint16_t *cells)
{
	struct tng_ref *ref = n->priv;
	struct gfs_rec_refs refs = { tng_mref_fmt, tng_mref_parse, NULL, ref->t };
	struct gfs_buf b = GFS_BUF_INIT, rle = GFS_BUF_INIT, *nb = NULL, *nb2 = NULL;
	struct tng_map m;
	char why[160];
	int r;

	m.cells = NULL;
	r = tng_map_get(ar, n, &b, &m, cells != NULL);
	if (!r && !(nb = gfs_buf_new()))
		r = -ENOMEM;
	if (r)
		goto out;
	if (ini)
		r = gfs_record_parse(ar, view, &tng_map_rec, b.data, b.len, ini, inilen, &refs, nb);
	else
		r = gfs_buf_add(nb, b.data, b.len);
	if (r || !cells || !memcmp(cells, m.cells, m.ncells * sizeof(*cells)))
		goto adopt;
	r = gfs_rle16_encode(cells, m.ncells, &rle);
	if (r)
		goto out;
	if (rle.len > 0xffffff) {
		r = gfs_err(ar, -EINVAL, "%s: the map's RLE block would be over 16 MiB", view);
		goto out;
	}
	free(m.cells);
	m.cells = NULL;
	r = tng_map_parse(tng_map_size(ref->t), tng_map_layers(ref->t), nb->data, nb->len, &m, 0, why,
			  sizeof(why));
	if (r) {
		r = gfs_err(ar, -EINVAL, "%s: %s", view, why);
		goto out;
	}
	if (!(nb2 = gfs_buf_new())) {
		r = -ENOMEM;
		goto out;
	}
	r = tng_map_build(nb->data, m.rle, rle.data, rle.len, nb->data + m.tail, nb->len - m.tail, nb2);
	if (r)
		goto out;
	gfs_buf_free(nb);
	nb = nb2;
	nb2 = NULL;
adopt:
	if (!r) {
		tng_set_pending(ar, n, nb);
		nb = NULL;
	}
out:
	free(m.cells);
	gfs_buf_free(nb);
	gfs_buf_free(nb2);
	gfs_buf_release(&rle);
	gfs_buf_release(&b);
	return r;
}

/* A new map's file: nothing to store while it is empty, its own content once written. */
static int tng_fresh_store(struct gfs_node *n, size_t len, int r)
{
	struct tng_ref *ref = n->priv;

	if (!r && len)
		ref->fresh = 0;
	return r;
}

static int tng_mapini_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	if (((struct tng_ref *)n->priv)->fresh && !len)
		return 0;
	return tng_fresh_store(n, len, tng_map_store(ar, n, "map.ini", data, len, NULL));
}

const struct gfs_node_ops tng_mapini_ops = {
	.render = tng_mapini_render,
	.store = tng_mapini_store,
	.free = tng_ref_free,
};

static int tng_layer_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	struct tng_map m;
	size_t ms = tng_map_size(ref->t);
	const uint16_t *c;
	int r;

	if (ref->fresh)
		return 0;
	if ((r = tng_map_get(ar, n, &b, &m, 1)))
		goto out;
	c = m.cells + (size_t)ref->sub * ms * ms;
	r = gfs_grid_write_u16(out, c, ms, ms);
	free(m.cells);
out:
	gfs_buf_release(&b);
	return r;
}

static int tng_layer_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	struct tng_map m;
	size_t ms = tng_map_size(ref->t);
	int r;

	if (ref->fresh && !len)
		return 0;
	m.cells = NULL;
	r = tng_map_get(ar, n, &b, &m, 1);
	if (!r)
		r = gfs_grid_read_u16(ar, n->name, data, len, ms, ms, 65534, m.cells + (size_t)ref->sub * ms * ms);
	if (!r)
		r = tng_map_store(ar, n, n->name, NULL, 0, m.cells);
	free(m.cells);
	gfs_buf_release(&b);
	return tng_fresh_store(n, len, r);
}

const struct gfs_node_ops tng_layer_ops = {
	.render = tng_layer_render,
	.store = tng_layer_store,
	.free = tng_ref_free,
};

/* ---- descriptor fields: lang/<code>/lang.ini, <kind>/index.csv ------------- */

/* The section's bytes, made editable (a copy of the loaded ones). */
static uint8_t *tng_sec_bytes(struct tng *t, size_t sec)
{
	struct gfs_buf *e = tng_sec_edit(t, sec);

	return e ? e->data : NULL;
}

/* lang.ini: the translation's code (it names the directory) and the text index of its name. */
static const struct gfs_field tng_lang_fields[] = {
	{ .key = "code", .kind = GFS_FK_BYTES, .off = 0, .width = 2, .flags = GFS_FF_RO },
	{ .key = "name", .kind = GFS_FK_UINT, .off = TNG_LANG_ASSET + TNG_DESC_NAME, .width = 4 },
};
const struct gfs_record tng_lang_rec = {
	.section = "lang", .comment = "; code is read-only (it names the directory); name is a text index\n",
	.size = TNG_LANG_HDR, GFS_FIELDS(tng_lang_fields),
};

static int tng_lang_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	size_t len;
	const uint8_t *d = tng_sec_data(ref->t, ref->sec, &len);

	(void)ar;
	return gfs_record_render(&tng_lang_rec, d, len, NULL, out);
}

static int tng_lang_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf nb = GFS_BUF_INIT;
	size_t slen;
	const uint8_t *d = tng_sec_data(ref->t, ref->sec, &slen);
	uint8_t *e;
	int r = gfs_record_parse(ar, "lang.ini", &tng_lang_rec, d, slen, data, len, NULL, &nb);

	if (!r && memcmp(nb.data, d, TNG_LANG_HDR)) {
		if ((e = tng_sec_bytes(ref->t, ref->sec)))
			memcpy(e, nb.data, TNG_LANG_HDR);
		else
			r = -ENOMEM;
	}
	gfs_buf_release(&nb);
	return r;
}

const struct gfs_node_ops tng_lang_ops = {
	.render = tng_lang_render,
	.store = tng_lang_store,
	.free = tng_ref_free,
};

static int tng_index_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	size_t len;
	const uint8_t *d = tng_sec_data(ref->t, ref->sec, &len);
	int r = gfs_buf_printf(out, "asset,%s\n", tng_kind_of(ref->t->secs[ref->sec].type)->index_field);

	(void)ar;
	for (size_t p = 0; p + TNG_DESC <= len && !r; p += TNG_DESC)
		r = gfs_buf_printf(out, "%04u,%u\n", (unsigned)(ref->sub + p / TNG_DESC),
				   gfs_le32(d + p + TNG_DESC_NAME));
	return r;
}

static int tng_index_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct tng_ref *ref = n->priv;
	size_t slen, nrec;
	const uint8_t *d = tng_sec_data(ref->t, ref->sec, &slen);
	struct gfs_grid g;
	uint32_t *vals;
	int r, changed = 0;

	nrec = slen / TNG_DESC;
	vals = calloc(nrec ? nrec : 1, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	r = gfs_grid_parse(ar, n->name, data, len, 2, NULL, &g);
	if (!r && g.nrows != nrec)
		r = gfs_err(ar, -EINVAL, "%s: %zu rows, want %zu", n->name, g.nrows, nrec);
	for (size_t k = 0; !r && k < nrec; k++) {
		int64_t v;

		r = gfs_grid_int(ar, &g, k, 1, 0, UINT32_MAX, &v);
		vals[k] = (uint32_t)v;
	}
	gfs_grid_release(&g);
	for (size_t k = 0; !r && k < nrec; k++)
		changed |= vals[k] != gfs_le32(d + k * TNG_DESC + TNG_DESC_NAME);
	if (!r && changed) {
		uint8_t *e = tng_sec_bytes(ref->t, ref->sec);

		if (!e)
			r = -ENOMEM;
		for (size_t k = 0; !r && k < nrec; k++)
			gfs_put_u32le(e + k * TNG_DESC + TNG_DESC_NAME, vals[k]);
	}
	free(vals);
	return r;
}

const struct gfs_node_ops tng_index_ops = {
	.render = tng_index_render,
	.store = tng_index_store,
	.free = tng_ref_free,
};

/* ---- unreferenced.bin: asset-area bytes no descriptor covers ----------------- */

static int tng_gaps_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	uint64_t total;

	return tng_gaps(ar, ref->t, out, &total);
}

const struct gfs_node_ops tng_gaps_ops = {
	.render = tng_gaps_render,
	.free = tng_ref_free,
};
