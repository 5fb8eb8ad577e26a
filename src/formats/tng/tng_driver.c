/*
 * tng_driver.c - TirNanoG game files (.tng): the driver table, probing,
 * loading, the tree, check; the top of the format (the model is tng.c).
 *
 * Layout (see tng.h for the offsets):
 *   header(64) | n(4) | deflate(section table + section data) | crc(4) | assets
 * Tree (DESIGN.md section 4):
 *   header.ini, strings.txt (section 0), lang/<code>/texts.txt and
 *   lang/<code>/speech/<name>.ogg (section 1), fonts/ music/ sounds/
 *   movies/ (2-5, named from the strings), atlases/ backs/ (6, 11: PNG),
 *   sprites/<cat>/<NNNN>.txt and <NNNN>-<dir>.png (7-10), maps/<name>/
 *   (34) with maps/<name>.tmx, maps/<name>.png and maps/tilesets/ for
 *   Tiled (tng_tiled.c), scripts as assembly and records as INI (tng_logic.c:
 *   <kind>/<record>.ini, .tngs; sections/<NN>-<kind>.ini, attributes/), and
 *   what has no table or does not decode raw: <kind>/<record>.bin (inflated)
 *   and sections/<NN>-<kind>.bin.
 * Stored assets are span nodes (served by pread); compressed ones are
 * inflated only when a view is read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_codec.h"
#include "tng.h"

/* ---- probing ------------------------------------------------------------- */

static int tng_bid(const uint8_t *head, size_t len, const char *path)
{
	(void)path;
	if (len >= TNG_MAGIC_LEN && !memcmp(head, TNG_MAGIC, TNG_MAGIC_LEN))
		return 100;
	return 0;
}

/* ---- loading ------------------------------------------------------------- */

static struct gfs_node *tng_dir(struct gfs_archive *ar, struct gfs_node *parent,
				const char *name)
{
	struct gfs_node *d = gfs_node_child(ar, parent, name);

	if (d && S_ISDIR(d->mode))
		return d;
	return gfs_node_new_dir(ar, parent, name);
}

static int tng_add_asset(struct gfs_archive *ar, struct tng *t, size_t sec, uint32_t dpos,
			 unsigned idx, enum tng_akind kind, struct tng_asset **out)
{
	size_t dlen;
	const uint8_t *d = tng_sec_data(t, sec, &dlen);
	struct gfs_rd rd;
	uint64_t off, avail = t->fsize - t->base;
	uint32_t len;
	struct tng_asset *a;

	gfs_rd_init(&rd, d, dlen, 0);
	if (gfs_rd_seek(&rd, dpos) || gfs_rd_u64le(&rd, &off) || gfs_rd_u32le(&rd, &len))
		return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCK,
				  "section %zu: descriptor %u runs past the section",
			       sec, idx);
	if (len && (off > avail || len > avail - off))
		return gfs_err_at(ar, -EBADMSG, t->base + off,
				  "asset %u of section %zu (type %u): %u bytes past the end of the file",
				  idx, sec, t->secs[sec].type, len);
	a = &t->assets[t->nassets++];
	memset(a, 0, sizeof(*a));
	a->sec = (unsigned)sec;
	a->dpos = dpos;
	a->idx = idx;
	a->kind = kind;
	a->off = off;
	a->len = len;
	a->wrap = -1;
	*out = a;
	return 0;
}

static int tng_load_block(struct gfs_archive *ar, struct tng *t)
{
	struct gfs_buf z = GFS_BUF_INIT;
	enum gfs_zwrap wrap;
	size_t used;
	uint8_t c4[4];
	uint32_t stored;
	int r;

	r = gfs_pread(ar, c4, 4, TNG_OFF_BLOCKLEN);
	if (r)
		return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCKLEN, "truncated before the section block");
	t->blocklen = gfs_le32(c4);
	if (t->blocklen < 4 + 2 || t->blocklen > t->fsize - TNG_OFF_BLOCK)
		return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCKLEN,
				  "section block of %u bytes does not fit a %llu-byte file",
				  t->blocklen, (unsigned long long)t->fsize);
	if (t->blocklen - 4 > TNG_BLOCK_MAX)
		return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCKLEN,
				  "section block of %u bytes is over the %zu-byte limit",
				  t->blocklen, TNG_BLOCK_MAX);
	t->base = TNG_OFF_BLOCK + (uint64_t)t->blocklen;
	r = gfs_buf_set_len(&z, t->blocklen);
	if (r)
		return r;
	r = gfs_pread(ar, z.data, t->blocklen, TNG_OFF_BLOCK);
	if (r)
		goto out;
	r = gfs_inflate(z.data, t->blocklen - 4, TNG_BLOCK_MAX, &t->block, &wrap, &used);
	if (r) {
		r = gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCK,
			       "section block does not inflate (broken deflate or over %zu bytes)",
			       TNG_BLOCK_MAX);
		goto out;
	}
	if (used != t->blocklen - 4) {
		r = gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCK + used,
			       "deflate stream ends %zu bytes before the section CRC",
			       (size_t)(t->blocklen - 4 - used));
		goto out;
	}
	t->bwrap = (int)wrap;
	stored = gfs_le32(z.data + t->blocklen - 4);
	if (gfs_crc32(0, t->block.data, t->block.len) == stored) {
		t->sec_crc_ok = 1;
	} else if (gfs_crc32(0, z.data, t->blocklen - 4) == stored) {
		t->sec_crc_ok = 1;
		t->crc_comp = 1;
	} else {
		t->sec_crc_ok = 0;
		ar->damaged = 1;
		gfs_warn(ar, "section CRC 0x%08x matches neither the inflated nor the compressed bytes",
			 stored);
	}
out:
	gfs_buf_release(&z);
	return r;
}

static int tng_load_table(struct gfs_archive *ar, struct tng *t)
{
	struct gfs_rd rd;
	uint32_t first, off, lt;
	size_t i;

	gfs_rd_init(&rd, t->block.data, t->block.len, 0);
	if (gfs_rd_u32le(&rd, &first) || first < TNG_TABENT || first % TNG_TABENT ||
	    first > t->block.len)
		return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCK, "section table: first entry offset %u "
				  "is not a table size within the %zu-byte block", first, t->block.len);
	t->nsecs = first / TNG_TABENT;
	t->secs = calloc(t->nsecs, sizeof(*t->secs));
	if (!t->secs)
		return -ENOMEM;
	gfs_rd_seek(&rd, 0);
	t->strsec = -1;
	for (i = 0; i < t->nsecs; i++) {
		if (gfs_rd_u32le(&rd, &off) || gfs_rd_u32le(&rd, &lt))
			return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCK,
					  "section table entry %zu past the block", i);
		t->secs[i].off = off;
		t->secs[i].len = lt & 0xffffff;
		t->secs[i].type = (uint8_t)(lt >> 24);
		if (off > t->block.len || t->secs[i].len > t->block.len - off)
			return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCK,
					  "section table entry %zu (type %u): %u bytes at %u, "
					  "past the %zu-byte block", i, t->secs[i].type,
					  t->secs[i].len, off, t->block.len);
		if (t->secs[i].type == TNG_S_STRINGS && t->strsec < 0)
			t->strsec = (long)i;
	}
	if (t->strsec < 0)
		gfs_warn(ar, "no strings section: assets are named by their index");
	else if (t->strsec != 0)
		gfs_warn(ar, "the strings section is not the first section");
	return 0;
}

static int tng_sprite_nodes(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
			    struct gfs_node *dir, unsigned num)
{
	struct gfs_buf b = GFS_BUF_INIT;
	char name[64], why[512];
	uint8_t nd = 0;
	size_t ai = (size_t)(a - t->assets);
	struct gfs_rd rd;
	int r;

	r = tng_asset_content(ar, t, a, TNG_SPR_MAX, &b);
	if (!r && tng_sprite_parse(b.data, b.len, &nd, why, sizeof(why)))
		r = -EBADMSG;
	else if (r)
		snprintf(why, sizeof(why), "%s", gfs_err_reason(ar));
	if (r) {
		gfs_warn(ar, "sprite %s/%04u at 0x%llx: %s; shown raw", tng_kind_of(t->secs[a->sec].type)->name,
			 num, (unsigned long long)(t->base + a->off), why);
		t->broken_assets++;
		a->kind = TNG_A_ZBIN;
		snprintf(name, sizeof(name), "%04u.bin", num);
		a->node = tng_file(ar, dir, name, 0644, &tng_zbin_ops, tng_ref_new(t, ai, a->sec, 0));
		gfs_buf_release(&b);
		return a->node ? 0 : -ENOMEM;
	}
	a->ndirs = nd;
	snprintf(name, sizeof(name), "%04u.txt", num);
	a->node = tng_file(ar, dir, name, 0644, &tng_sprite_ops, tng_ref_new(t, ai, a->sec, 0));
	if (!a->node)
		goto nomem;
	a->dir = dir;
	/* one strip per direction record */
	gfs_rd_init(&rd, b.data, b.len, 0);
	for (unsigned k = 0; k < nd; k++) {
		uint8_t type, nf;

		gfs_rd_skip(&rd, 4);
		gfs_rd_u8(&rd, &type);
		gfs_rd_u8(&rd, &nf);
		gfs_rd_skip(&rd, (size_t)nf * TNG_SPR_FRAME);
		snprintf(name, sizeof(name), "%04u-%s.png", num, tng_dir_name(type & 0x3f));
		if (!tng_file(ar, dir, name, 0444, &tng_strip_ops, tng_ref_new(t, ai, a->sec, (int)k)))
			goto nomem;
	}
	gfs_buf_release(&b);
	return 0;
nomem:
	gfs_buf_release(&b);
	return -ENOMEM;
}

/* Descriptors of one asset section: add assets and their nodes. */
static int tng_load_assets(struct gfs_archive *ar, struct tng *t, size_t si, unsigned *counters)
{
	struct tng_sec *s = &t->secs[si];
	const struct tng_kind *k = tng_kind_of(s->type);
	size_t dlen, ai;
	const uint8_t *d = tng_sec_data(t, si, &dlen);
	struct gfs_node *dir = NULL, *sub;
	struct tng_asset *a;
	char name[256];
	uint32_t nameoff;
	int r;

	if (k->view == TNG_V_LANG) {
		char code[3];

		if (dlen < TNG_LANG_HDR || (dlen - TNG_LANG_HDR) % TNG_DESC)
			return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCK, "translation section %zu: "
					  "length %zu is not 18 + a multiple of 16", si, dlen);
		code[0] = (char)d[0];
		code[1] = (char)d[1];
		code[2] = '\0';
		sub = tng_dir(ar, ar->root, "lang");
		if (!sub)
			return -ENOMEM;
		dir = tng_unique_dir(ar, sub, code);
		if (!dir)
			return -ENOMEM;
		r = tng_add_asset(ar, t, si, TNG_LANG_ASSET, 0, TNG_A_TEXT, &a);
		if (r)
			return r;
		ai = (size_t)(a - t->assets);
		a->node = tng_file(ar, dir, "texts.txt", 0644, &tng_texts_ops, tng_ref_new(t, ai, si, 0));
		if (!a->node)
			return -ENOMEM;
		if (!tng_file(ar, dir, "lang.ini", 0644, &tng_lang_ops, tng_ref_new(t, (size_t)-1, si, 0)))
			return -ENOMEM;
		sub = gfs_node_new_dir(ar, dir, "speech");
		if (!sub)
			return -ENOMEM;
		t->secs[si].dir = sub;
		for (uint32_t p = TNG_LANG_HDR, i = 0; p < dlen; p += TNG_DESC, i++) {
			r = tng_add_asset(ar, t, si, p, i + 1, TNG_A_STORED, &a);
			if (r)
				return r;
			ai = (size_t)(a - t->assets);
			nameoff = gfs_le32(d + p + TNG_DESC_NAME);
			a->nameoff = nameoff;
			tng_asset_name(t, nameoff, i, "ogg", name, sizeof(name));
			a->node = tng_span(ar, sub, name, &tng_media_ops, tng_ref_new(t, ai, si, 0),
					   t->base + a->off, a->len);
			if (!a->node)
				return -ENOMEM;
		}
		return 0;
	}

	if (dlen % TNG_DESC)
		return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCK,
				  "section %zu (%s, type %u): length %zu is not a multiple of 16",
				  si, k->name, s->type, dlen);
	switch (k->view) {
	case TNG_V_SPRITE:
		sub = tng_dir(ar, ar->root, "sprites");
		dir = sub ? tng_dir(ar, sub, k->name) : NULL;
		break;
	default:
		dir = tng_dir(ar, ar->root, k->name);
		break;
	}
	if (!dir)
		return -ENOMEM;
	if (k->view == TNG_V_MEDIA)
		t->secs[si].dir = dir;
	if (tng_kind_of(s->type)->index_field &&
	    !tng_file(ar, dir, "index.csv", 0644, &tng_index_ops,
		      tng_ref_new(t, (size_t)-1, si, (int)counters[s->type])))
		return -ENOMEM;
	for (uint32_t p = 0; p < dlen; p += TNG_DESC) {
		unsigned num = counters[s->type]++;
		enum tng_akind kind = k->view == TNG_V_MEDIA || k->view == TNG_V_IMAGE ? TNG_A_STORED :
				      k->view == TNG_V_SPRITE ? TNG_A_SPRITE :
				      k->view == TNG_V_MAP ? TNG_A_MAP : TNG_A_ZBIN;

		nameoff = gfs_le32(d + p + TNG_DESC_NAME);
		r = tng_add_asset(ar, t, si, p, p / TNG_DESC, kind, &a);
		if (r)
			return r;
		ai = (size_t)(a - t->assets);
		a->num = num;
		a->nameoff = nameoff;
		switch (k->view) {
		case TNG_V_SPRITE:
			r = tng_sprite_nodes(ar, t, a, dir, num);
			if (r)
				return r;
			break;
		case TNG_V_MAP:
			r = tng_map_nodes(ar, t, a, dir, nameoff, num, 1, NULL);
			if (r)
				return r;
			break;
		default:	/* a flat list of files: made when the directory is first used */
			a->lazy_dir = dir;
			a->ino = gfs_ino_reserve(ar);	/* the number it would have had if made now */
			gfs_node_set_lazy(dir, &tng_lazy_dir_ops);
			continue;
		}
		if (!a->node)
			return -ENOMEM;
	}
	return 0;
}

/* The node of a media, image or compressed-record asset, in dir. */
static int tng_flat_node(struct gfs_archive *ar, struct tng *t, struct tng_asset *a,
			 struct gfs_node *dir)
{
	const struct tng_kind *k = tng_kind_of(t->secs[a->sec].type);
	size_t ai = (size_t)(a - t->assets);
	char name[256];

	switch (k->view) {
	case TNG_V_MEDIA:
		tng_asset_name(t, a->nameoff, a->num, k->ext, name, sizeof(name));
		a->node = tng_span(ar, dir, name, &tng_media_ops, tng_ref_new(t, ai, a->sec, 0),
				   t->base + a->off, a->len);
		break;
	case TNG_V_IMAGE:
		snprintf(name, sizeof(name), "%04u.png", a->num);
		a->node = tng_span(ar, dir, name, &tng_image_ops, tng_ref_new(t, ai, a->sec, 0),
				   t->base + a->off, a->len);
		break;
	default: {
		/* scripts are assembly text: a whole asset, or split out of their record */
		enum tng_rkind rk = tng_rkind_of(t, a);
		int r = tng_logic_nodes(ar, t, ai, dir);

		if (r < 0)
			return r;
		if (r == 0) {
			if (a->ino)
				gfs_node_set_ino(a->node, a->ino);
			return 0;
		}
		tng_rec_stem(t, a, name, sizeof(name) - 8);
		strcat(name, rk == TNG_R_WHOLE ? ".tngs" : ".bin");
		a->node = tng_file(ar, dir, name, 0644, rk == TNG_R_WHOLE ? &tng_script_ops : &tng_zbin_ops,
				   tng_ref_new(t, ai, a->sec, 0));
		break;
	}
	}
	if (a->node && a->ino)
		gfs_node_set_ino(a->node, a->ino);
	return a->node ? 0 : -ENOMEM;
}

/*
 * A big game has thousands of sounds: their nodes are made when their
 * directory is first listed or looked into, not at mount, in the order and
 * with the names the load would have given them.
 */
static int tng_populate(struct gfs_archive *ar, struct gfs_node *dir)
{
	struct tng *t = ar->priv;

	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *a = &t->assets[i];
		int r;

		if (a->lazy_dir != dir)
			continue;
		a->lazy_dir = NULL;
		if ((r = tng_flat_node(ar, t, a, dir)))
			return r;
	}
	return 0;
}

const struct gfs_node_ops tng_lazy_dir_ops = {
	.populate = tng_populate,
};

static void tng_free(struct gfs_archive *ar)
{
	struct tng *t = ar->priv;

	if (!t)
		return;
	for (size_t i = 0; i < t->nsecs; i++)
		gfs_buf_free(t->secs[i].edit);
	for (size_t i = 0; i < t->nassets; i++) {
		gfs_buf_free(t->assets[i].pending);
		gfs_buf_free(t->assets[i].enc);
	}
	gfs_buf_free(t->new_block);
	free(t->new_secoff);
	tng_crctab_free(t->crctab);
	free(t->secs);
	free(t->assets);
	free(t->refpool);
	gfs_buf_release(&t->block);
	free(t);
	ar->priv = NULL;
}

static int tng_load(struct gfs_archive *ar)
{
	struct tng *t;
	unsigned counters[256];
	size_t ndesc = 0;
	int r;

	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	ar->priv = t;
	t->strsec = -1;
	t->hdr_crc_ok = -1;
	t->sec_crc_ok = -1;
	t->fsize = (uint64_t)ar->st.st_size;
	if (t->fsize < TNG_HDR_SIZE)
		return gfs_err_at(ar, -EBADMSG, 0, "file of %llu bytes is shorter than the 64-byte header",
				  (unsigned long long)t->fsize);
	r = gfs_pread(ar, t->hdr, TNG_HDR_SIZE, 0);
	if (r)
		return gfs_err_at(ar, r, 0, "cannot read the header");
	if (memcmp(t->hdr, TNG_MAGIC, TNG_MAGIC_LEN))
		return gfs_err_at(ar, -EBADMSG, 0, "no TirNanoG magic");
	if (!gfs_node_new_file(ar, ar->root, "header.ini", 0644, &tng_header_ops,
			       tng_ref_new(t, (size_t)-1, 0, 0)))
		return -ENOMEM;
	if (t->hdr[TNG_OFF_ENC] | t->hdr[TNG_OFF_ENC + 1] | t->hdr[TNG_OFF_ENC + 2] |
	    t->hdr[TNG_OFF_ENC + 3]) {
		ar->readonly = 1;
		snprintf(ar->ro_reason, sizeof(ar->ro_reason),
			 "encrypted game (header offset 60 is not zero): only header.ini is shown");
		return 0;
	}
	if (t->fsize < TNG_OFF_BLOCK + 6)
		return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCKLEN, "truncated before the section block");
	r = tng_load_block(ar, t);
	if (r)
		return r;
	r = tng_load_table(ar, t);
	if (r)
		return r;

	/* count descriptors to size the asset array */
	for (size_t i = 0; i < t->nsecs; i++) {
		const struct tng_kind *k = tng_kind_of(t->secs[i].type);

		if (k->view != TNG_V_RAW && k->view != TNG_V_STRINGS)
			ndesc += t->secs[i].len / TNG_DESC + 1;
	}
	if (ndesc > TNG_ASSETS_MAX)
		return gfs_err_at(ar, -EBADMSG, TNG_OFF_BLOCK, "%zu asset descriptors, more than the %zu "
				  "this driver accepts", ndesc, TNG_ASSETS_MAX);
	t->budget = TNG_LOAD_BUDGET;
	t->assets = calloc(ndesc ? ndesc : 1, sizeof(*t->assets));
	if (!t->assets || gfs_tree_reserve(ar, ndesc))
		return -ENOMEM;
	if (GFS_POOLS && ndesc && (t->refpool = calloc(ndesc, sizeof(*t->refpool))))
		t->refpool_len = ndesc;	/* one ref an asset; more come from calloc */

	memset(counters, 0, sizeof(counters));
	if (t->strsec >= 0 && !gfs_node_new_file(ar, ar->root, "strings.txt", 0444, &tng_strings_ops,
						 tng_ref_new(t, (size_t)-1, (size_t)t->strsec, 0)))
		return -ENOMEM;
	for (size_t i = 0; i < t->nsecs; i++) {
		struct tng_sec *s = &t->secs[i];
		const struct tng_kind *k = tng_kind_of(s->type);
		struct gfs_node *dir;
		char name[64];
		unsigned rs = k->recsize;

		if (k->view == TNG_V_STRINGS && (long)i == t->strsec)
			continue;
		if (k->view != TNG_V_RAW && k->view != TNG_V_STRINGS) {
			r = tng_load_assets(ar, t, i, counters);
			if (r)
				return r;
			continue;
		}
		if (s->type == TNG_S_TILESMETA)
			rs = 2 + 5u * t->hdr[TNG_OFF_TRANSPORTS];
		if (rs && s->len % rs) {
			gfs_warn(ar, "section %zu (%s): length %u is not a multiple of %u; shown raw",
				 i, k->name, s->len, rs);
			s->raw_bad = 1;
		}
		if (!s->raw_bad && (r = tng_logic_section(ar, t, i)) <= 0) {
			if (r)
				return r;
			continue;	/* shown as INI */
		}
		dir = tng_dir(ar, ar->root, "sections");
		snprintf(name, sizeof(name), "%02u-%s.bin", s->type, k->name);
		if (!tng_file(ar, dir, name, 0644, &tng_raw_ops, tng_ref_new(t, (size_t)-1, i, 0)))
			return -ENOMEM;
	}
	r = tng_stems_mark(t);	/* before any record directory is listed */
	if (r)
		return r;
	{
		uint64_t gaps = 0;

		r = tng_gaps(ar, t, NULL, &gaps);
		if (r)
			return r;
		if (gaps && !tng_file(ar, ar->root, "unreferenced.bin", 0444, &tng_gaps_ops,
				      tng_ref_new(t, (size_t)-1, 0, 0)))
			return -ENOMEM;
	}
	/*
	 * the whole-file CRC: small files now (damaged: read-only at once),
	 * big ones in the background; a commit waits for the verdict
	 */
	return tng_crc_schedule(ar, t);
}

/* ---- check --------------------------------------------------------------- */

static int tng_check(struct gfs_archive *ar, FILE *out)
{
	struct tng *t = ar->priv;
	uint32_t crc, stored = gfs_le32(t->hdr + TNG_OFF_CRC);
	size_t nzlib = 0, nraw = 0;
	int bad = 0, r;

	gfs_check_wait(ar);	/* the load's pass, when it ran in the background */
	if (t->crctab && t->crctab->ok && t->crctab->fsize == t->fsize) {
		crc = t->crctab->whole;
	} else if ((r = tng_file_crc(ar, t, &crc))) {
		fprintf(out, "header CRC: cannot read the file: %s\n", ar->err);
		return 1;
	}
	t->hdr_crc_ok = crc == stored;
	fprintf(out, "header CRC: 0x%08x %s (over the whole file, CRC field zeroed)\n", stored,
		t->hdr_crc_ok ? "ok" : "BAD");
	if (!t->hdr_crc_ok) {
		fprintf(out, "  computed 0x%08x\n", crc);
		bad = 1;
	}
	if (!t->secs)
		return bad;
	fprintf(out, "section block: %u bytes, %s deflate, %zu bytes inflated, %zu sections\n",
		t->blocklen, t->bwrap == GFS_ZLIB ? "zlib-wrapped" : "raw", t->block.len, t->nsecs);
	fprintf(out, "section CRC: %s (over the %s bytes)\n", t->sec_crc_ok ? "ok" : "BAD",
		t->crc_comp ? "compressed" : "inflated");
	if (!t->sec_crc_ok)
		bad = 1;
	fprintf(out, "assets: %zu, all within the file\n", t->nassets);
	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *a = &t->assets[i];
		struct gfs_buf b = GFS_BUF_INIT;
		size_t max = a->kind == TNG_A_MAP ? TNG_MAP_MAX : TNG_ZASSET_MAX;

		if (a->kind == TNG_A_STORED || a->len == 0)
			continue;
		r = a->pending ? 0 : tng_asset_content(ar, t, a, max, &b);
		gfs_buf_release(&b);
		if (r) {
			fprintf(out, "asset %zu (section type %u, record %u): %s\n", i,
				t->secs[a->sec].type, a->idx, ar->err);
			bad = 1;
		} else if (a->wrap == GFS_ZRAW) {
			nraw++;
		} else {
			nzlib++;
		}
	}
	fprintf(out, "compressed assets: %zu zlib-wrapped, %zu raw deflate\n", nzlib, nraw);
	if (!tng_tiled_supported(t))
		fprintf(out, "maps: game type %u (3D) has no Tiled orientation: no maps/<name>.tmx "
			"or .png (the CSV views and map.ini remain)\n", t->hdr[TNG_OFF_TYPE] & 0x0f);
	for (size_t i = 0; i < t->nassets; i++) {	/* atlases large enough for their sprites */
		struct tng_asset *a = &t->assets[i];
		struct gfs_buf png = GFS_BUF_INIT;
		uint8_t *rgba = NULL;
		uint32_t w, h;
		char why[200];

		if (t->secs[a->sec].type != TNG_S_ATLASES || tng_asset_content(ar, t, a, (size_t)64 << 20, &png))
			goto next;
		if (gfs_png_decode(png.data, png.len, tng_atlas_max_side(t), tng_atlas_max_side(t), &rgba, &w, &h)) {
			if (!gfs_png_size(png.data, png.len, &w, &h) &&
			    (w > tng_atlas_max_side(t) || h > tng_atlas_max_side(t)))
				fprintf(out, "atlas %u: %ux%u pixels, over the %ux%u of atlas_size_log2\n", a->num,
					w, h, tng_atlas_max_side(t), tng_atlas_max_side(t));
			else
				fprintf(out, "atlas %u: not a PNG image that decodes (whole, and to no more than "
					"the pixels its header declares)\n", a->num);
			bad = 1;
		} else if (tng_atlas_fits(ar, t, a, w, h, why, sizeof(why))) {
			fprintf(out, "%s\n", why);
			bad = 1;
		}
next:
		free(rgba);
		gfs_buf_release(&png);
	}
	for (size_t i = 0; i < t->nsecs; i++)
		if (t->secs[i].raw_bad) {
			fprintf(out, "section %zu (type %u): length %u does not fit its records\n", i,
				t->secs[i].type, t->secs[i].len);
			bad = 1;
		}
	if (t->broken_assets) {
		fprintf(out, "%d sprite or map assets do not decode (shown raw)\n", t->broken_assets);
		bad = 1;
	}
	tng_logic_check(ar, t, out);	/* warnings: the game is inconsistent, not damaged */
	return bad;
}

/* New files: media in media directories, a new map's files, records and event handlers. */
static int tng_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		      struct gfs_node **out)
{
	int r;

	if (tng_media_dir(ar->priv, dir))
		return tng_media_create(ar, dir, name, out);
	if ((r = tng_numbered_create(ar, dir, name, out)) <= 0)
		return r;
	if (dir->parent && dir->parent->parent == ar->root && !strcmp(dir->parent->name, "maps") &&
	    (r = tng_map_create(ar, dir, name, out)) <= 0)
		return r;
	if (dir->parent == ar->root && !strcmp(dir->name, "maps") &&
	    (r = tng_map_tmx_create(ar, dir, name, out)) <= 0)
		return r;
	return tng_logic_create(ar, dir, name, out);
}

static int tng_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	if (gfs_node_get_ops(n) == &tng_media_ops && tng_media_dir(ar->priv, n->parent))
		return tng_media_unlink(ar, n);
	if (gfs_node_get_ops(n) == &tng_recini_ops ||
	    ((gfs_node_get_ops(n) == &tng_image_ops || gfs_node_get_ops(n) == &tng_sprite_ops) &&
	     tng_numbered_section(ar->priv, n->parent) >= 0))
		return tng_asset_unlink(ar, n);
	if (gfs_node_get_ops(n) == &tng_mapini_ops || gfs_node_get_ops(n) == &tng_layer_ops || tng_map_tmx_is(n))
		return tng_map_file_unlink(ar, n);
	return tng_logic_unlink(ar, n);
}

/* mv: media and records renamed (new names), maps renamed (folder or TMX). */
static int tng_rename(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		      const char *newname)
{
	int inmaps = n->parent && n->parent->parent == ar->root && !strcmp(n->parent->name, "maps");

	if (gfs_node_get_ops(n) == &tng_recini_ops)
		return tng_record_rename(ar, n, newdir, newname);
	if (inmaps && (S_ISDIR(n->mode) || tng_map_tmx_is(n)))
		return tng_map_rename(ar, n, newdir, newname);
	if (gfs_node_get_ops(n) == &tng_media_ops && tng_media_dir(ar->priv, n->parent))
		return tng_media_rename(ar, n, newdir, newname);
	return gfs_err(ar, -EPERM, "%s: only media, records (NAME.ini) and maps can be renamed", n->name);
}

static int tng_rmdir(struct gfs_archive *ar, struct gfs_node *n)
{
	if (n->parent && n->parent->parent == ar->root && !strcmp(n->parent->name, "maps"))
		return tng_map_rmdir(ar, n);
	return gfs_err(ar, -EPERM, "%s: only a map's folder (rm -r maps/NAME) can be removed", n->name);
}

/*
 * mkdir KIND at the root, for a kind of record (npcs, dialogs, objects...)
 * or media (fonts, music, sounds, movies) the game has no section of: a new
 * empty section of that kind at the end of the table, where files copied
 * in become its first records or media.  1: name is no such kind.
 */
static int tng_kind_mkdir(struct gfs_archive *ar, const char *name, struct gfs_node **out)
{
	struct tng *t = ar->priv;
	unsigned type;
	const struct tng_kind *k = NULL;
	size_t si;
	int r;

	for (type = 0; type < TNG_S_N; type++) {
		k = tng_kind_of(type);
		if (!strcmp(k->name, name) && ((k->view == TNG_V_ZBIN && k->rec && k->script != TNG_R_WHOLE) ||
					       k->view == TNG_V_MEDIA))
			break;
	}
	if (type == TNG_S_N)
		return 1;
	for (size_t i = 0; i < t->nsecs; i++)
		if (t->secs[i].type == type)
			return gfs_err(ar, -EPERM, "%s: the game has a section of %s (shown raw: it does not "
				       "decode)", name, name);
	if ((r = tng_sec_new(t, type, &si)))
		return r == -EFBIG ? gfs_err(ar, r, "%s: the section table is full", name) : r;
	if (!(*out = gfs_node_new_dir(ar, ar->root, name)))
		return -ENOMEM;
	if (k->view == TNG_V_MEDIA)
		t->secs[si].dir = *out;
	if (k->index_field &&
	    !tng_file(ar, *out, "index.csv", 0644, &tng_index_ops, tng_ref_new(t, (size_t)-1, si, 0)))
		return -ENOMEM;
	ar->changed = 1;
	return 0;
}

static int tng_mkdir(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		     struct gfs_node **out)
{
	int r;

	if (dir->parent == ar->root && !strcmp(dir->name, "maps"))
		return tng_map_mkdir(ar, dir, name, out);
	if (dir == ar->root && (r = tng_kind_mkdir(ar, name, out)) <= 0)
		return r;
	return gfs_err(ar, -EPERM, "%s: only maps (a new folder in maps/) and the folder of a kind of "
		       "record or media the game has none of (npcs, dialogs, objects, sounds...) can be "
		       "made", name);
}

/* the first map, drawn with its tiles */
static const char *const tng_thumbnails[] = { "maps/*.png", NULL };

const struct gfs_format gfs_format_tng = {
	.name = "tng",
	.description = "TirNanoG game (.tng)",
	GFS_FORMAT_CALLS(tng),
	.create = tng_create,
	.unlink = tng_unlink,
	.rename = tng_rename,
	.mkdir = tng_mkdir,
	.rmdir = tng_rmdir,
	.thumbnails = tng_thumbnails,
	.layout = tng_layout_nth,
};
