/*
 * tngsave.c - TirNanoG saved games (.sav): load, tree, save, check.
 *
 * On disk (all integers little-endian):
 *   0   16  magic "TNG Saved Game\n\0"          -> (checked, not shown)
 *   16  16  game id, zero padded               -> header.ini
 *   32  ..  optional PRVW chunk, not compressed:
 *           magic, size, u32 time played, 18 reserved bytes, u16 dimension
 *           (256), then a deflated 256x256 15-bit image
 *                                              -> preview.png, preview.ini
 *   ..  ..  deflate stream (zlib or raw) of the chunk payload
 *   ..  4   CRC-32 of the inflated payload (or, in some files, of the
 *           compressed bytes: both are accepted and the one used is kept)
 * The payload is a run of chunks (4-byte magic, u32 size with header):
 *   GLBL -> globals.txt   QSTS -> quests.txt   DENY -> deny.txt
 *   USER -> users/<name>/user.ini   NPC\0 -> npcs/<NNNN>.ini
 *   MAP\0 -> maps/<id>.csv   anything else, or a chunk that does not
 *   decode -> chunks/<NN>-<MAGIC>.bin (the body after the 8-byte header)
 *
 * Preview pixels are 15-bit X1R5G5B5 (red in bits 10-14, green 5-9, blue
 * 0-4, bit 15 unused and kept), the layout SDL calls RGB555 and the one
 * every 15-bit hi-color VGA/VESA mode used.  The spec does not say; see
 * MANUAL.mdoc.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tngsave.h"

#define TSV_CHUNKS_MAX		(1u << 18)

/* ---- small helpers ------------------------------------------------------- */

/* A chunk magic as a safe name: printable letters kept, trailing NULs dropped. */
static void tsv_magic_name(const uint8_t m[4], char out[5])
{
	size_t n = 4, i;

	while (n && m[n - 1] == 0)
		n--;
	for (i = 0; i < n; i++)
		out[i] = (m[i] >= '0' && m[i] <= '9') || (m[i] >= 'A' && m[i] <= 'Z') ||
			 (m[i] >= 'a' && m[i] <= 'z') ? (char)m[i] : '_';
	if (!n)
		out[n++] = '_';
	out[n] = 0;
}

static struct gfs_node *tsv_dir(struct gfs_archive *ar, struct gfs_node **slot, const char *name)
{
	if (!*slot)
		*slot = gfs_node_new_dir(ar, ar->root, name);
	return *slot;
}

static struct gfs_node *tsv_new_file(struct gfs_archive *ar, struct gfs_node *dir,
				     const char *name, mode_t mode,
				     const struct gfs_node_ops *ops, void *priv, size_t index)
{
	char *safe = gfs_unique_name_ix(dir, name, index);
	struct gfs_node *n;

	if (!safe)
		return NULL;
	n = gfs_node_new_file(ar, dir, safe, mode, ops, priv);
	free(safe);
	return n;
}

/* ---- load ------------------------------------------------------------------ */

static int tsv_bid(const uint8_t *head, size_t len, const char *path)
{
	(void)path;
	if (len >= TSV_MAGIC_LEN && !memcmp(head, TSV_MAGIC, TSV_MAGIC_LEN))
		return 100;
	return 0;
}

/* Parse the PRVW chunk at sv->prvw_off; a bad image leaves it raw. */
static int tsv_load_preview(struct gfs_archive *ar, struct tsv_save *sv)
{
	struct gfs_buf chunk = GFS_BUF_INIT, img = GFS_BUF_INIT;
	struct gfs_rd rd;
	enum gfs_zwrap wrap = GFS_ZLIB;
	size_t used = 0;
	int r;

	r = gfs_buf_set_len(&chunk, (size_t)sv->prvw_size);
	if (!r)
		r = gfs_pread(ar, chunk.data, chunk.len, sv->prvw_off);
	if (r)
		goto out;
	gfs_rd_init(&rd, chunk.data, chunk.len, sv->prvw_off);
	if ((r = gfs_rd_skip(&rd, TSV_PRVW_TIME)) || (r = gfs_rd_u32le(&rd, &sv->played)) ||
	    (r = gfs_rd_bytes(&rd, sv->reserved, TSV_PRVW_RESLEN)) || (r = gfs_rd_u16le(&rd, &sv->dim)))
		goto out;
	if (sv->dim != TSV_PREVIEW_DIM) {
		sv->prvw_why = "dimension is not 256";
	} else if (gfs_inflate(chunk.data + TSV_PRVW_DATA, chunk.len - TSV_PRVW_DATA,
			       TSV_PREVIEW_BYTES, &img, &wrap, &used) || img.len != TSV_PREVIEW_BYTES) {
		sv->prvw_why = "image does not inflate to 256x256x2 bytes";
	} else {
		sv->pix = malloc(TSV_PREVIEW_BYTES);
		if (!sv->pix) {
			r = -ENOMEM;
			goto out;
		}
		for (size_t i = 0; i < TSV_PREVIEW_PIXELS; i++)
			sv->pix[i] = gfs_le16(img.data + 2 * i);
		sv->prvw_wrap = wrap;
		sv->prvw_ok = 1;
	}
	if (!sv->prvw_ok) {
		r = gfs_buf_add(&sv->prvw_raw, chunk.data + TSV_CHUNK_HDR, chunk.len - TSV_CHUNK_HDR);
		gfs_warn(ar, "preview at 0x%llx shown raw: %s", (unsigned long long)sv->prvw_off,
			 sv->prvw_why);
	}
out:
	gfs_buf_release(&chunk);
	gfs_buf_release(&img);
	return r;
}

static int tsv_add_chunk(struct gfs_archive *ar, struct tsv_save *sv, const uint8_t *magic,
			 const uint8_t *body, size_t len, size_t pay_off)
{
	struct tsv_chunk *c, **nc;
	int r;

	if (sv->nchunks >= TSV_CHUNKS_MAX)
		return gfs_err_at(ar, -EBADMSG, sv->pay_off, "more than %u chunks", TSV_CHUNKS_MAX);
	if ((sv->nchunks & (sv->nchunks - 1)) == 0) {
		nc = realloc(sv->chunks, (sv->nchunks ? sv->nchunks * 2 : 8) * sizeof(*nc));
		if (!nc)
			return -ENOMEM;
		sv->chunks = nc;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	memcpy(c->magic, magic, 4);
	c->index = sv->nchunks;
	c->pay_off = pay_off;
	r = gfs_buf_add(&c->body, body, len);
	if (!r)
		r = tsv_chunk_classify(c);
	if (r) {
		gfs_buf_release(&c->body);
		free(c);
		return r;
	}
	sv->chunks[sv->nchunks++] = c;
	return 0;
}

static int tsv_load_payload(struct gfs_archive *ar, struct tsv_save *sv)
{
	struct gfs_buf comp = GFS_BUF_INIT, pay = GFS_BUF_INIT;
	uint64_t fsize = (uint64_t)ar->st.st_size;
	size_t used = 0, off;
	int r;

	if (fsize - sv->pay_off > TSV_PAYLOAD_MAX + (TSV_PAYLOAD_MAX >> 4))
		return gfs_err_at(ar, -EFBIG, sv->pay_off, "compressed payload of %llu bytes is over the %u MiB limit",
				  (unsigned long long)(fsize - sv->pay_off), TSV_PAYLOAD_MAX >> 20);
	r = gfs_buf_set_len(&comp, (size_t)(fsize - sv->pay_off));
	if (!r)
		r = gfs_pread(ar, comp.data, comp.len, sv->pay_off);
	if (r)
		goto out;
	r = gfs_inflate(comp.data, comp.len, TSV_PAYLOAD_MAX, &pay, &sv->wrap, &used);
	if (r) {
		r = gfs_err_at(ar, -EBADMSG, sv->pay_off,
			       "payload is not a complete deflate stream of at most %u MiB (truncated or corrupt)",
			       TSV_PAYLOAD_MAX >> 20);
		goto out;
	}
	if (comp.len - used < TSV_CRC_LEN) {
		r = gfs_err_at(ar, -EBADMSG, sv->pay_off + used, "CRC missing after the payload (file truncated)");
		goto out;
	}
	sv->pay_clen = used;
	sv->pay_len = pay.len;
	sv->crc_stored = gfs_le32(comp.data + used);
	sv->crc_inflated = gfs_crc32(0, pay.data, pay.len);
	sv->crc_deflated = gfs_crc32(0, comp.data, used);
	sv->tail_off = sv->pay_off + used + TSV_CRC_LEN;
	sv->tail_len = fsize - sv->tail_off;
	if (sv->crc_stored == sv->crc_inflated) {
		sv->crc_ok = 1;
	} else if (sv->crc_stored == sv->crc_deflated) {
		sv->crc_ok = 1;
		sv->crc_compressed = 1;
	} else {
		ar->damaged = 1;
		gfs_warn(ar, "at 0x%llx: CRC 0x%08x matches neither the inflated (0x%08x) nor the compressed "
			 "payload (0x%08x): damaged, commits need -o force",
			 (unsigned long long)(sv->pay_off + used), sv->crc_stored, sv->crc_inflated,
			 sv->crc_deflated);
	}
	for (off = 0; off < pay.len;) {
		uint32_t size;
		char mn[5];

		if (pay.len - off < TSV_CHUNK_HDR) {
			r = gfs_err_at(ar, -EBADMSG, sv->pay_off,
				       "inflated payload byte 0x%zx: %zu stray bytes, too short for a chunk header",
				       off, pay.len - off);
			goto out;
		}
		size = gfs_le32(pay.data + off + 4);
		tsv_magic_name(pay.data + off, mn);
		if (size < TSV_CHUNK_HDR || size > pay.len - off) {
			r = gfs_err_at(ar, -EBADMSG, sv->pay_off,
				       "inflated payload byte 0x%zx: chunk %zu '%s': size %" PRIu32 " %s",
				       off, sv->nchunks, mn, size,
				       size < TSV_CHUNK_HDR ? "is smaller than its 8-byte header"
							    : "runs past the end of the payload");
			goto out;
		}
		r = tsv_add_chunk(ar, sv, pay.data + off, pay.data + off + TSV_CHUNK_HDR,
				  size - TSV_CHUNK_HDR, off);
		if (r)
			goto out;
		off += size;
	}
out:
	gfs_buf_release(&comp);
	gfs_buf_release(&pay);
	return r;
}

static int tsv_chunk_node(struct gfs_archive *ar, struct tsv_save *sv, struct tsv_chunk *c)
{
	static const char *const list_names[] = { [TSV_GLBL] = "globals.txt", [TSV_QSTS] = "quests.txt",
						  [TSV_DENY] = "deny.txt" };
	struct gfs_node *dir;
	char name[64], mn[5];
	char *uname;

	switch (c->kind) {
	case TSV_GLBL:
	case TSV_QSTS:
	case TSV_DENY:
		c->node = tsv_new_file(ar, ar->root, list_names[c->kind], 0644, &tsv_list_ops, c, c->index);
		break;
	case TSV_USER:
		if (!tsv_dir(ar, &sv->users, "users"))
			return -ENOMEM;
		uname = tsv_user_name(c);
		if (!uname)
			return -ENOMEM;
		{
			char *safe = gfs_unique_name_ix(sv->users, uname, c->index);

			free(uname);
			if (!safe)
				return -ENOMEM;
			dir = gfs_node_new_dir(ar, sv->users, safe);
			free(safe);
		}
		if (!dir)
			return -ENOMEM;
		c->node = tsv_new_file(ar, dir, "user.ini", 0644, &tsv_user_ops, c, c->index);
		break;
	case TSV_NPC:
		if (!tsv_dir(ar, &sv->npcs, "npcs"))
			return -ENOMEM;
		snprintf(name, sizeof(name), "%04zu.ini", sv->npcs->nkids);
		c->node = tsv_new_file(ar, sv->npcs, name, 0644, &tsv_npc_ops, c, c->index);
		break;
	case TSV_MAP:
		if (!tsv_dir(ar, &sv->maps, "maps"))
			return -ENOMEM;
		snprintf(name, sizeof(name), "%" PRIu32 ".csv", gfs_le32(c->body.data));
		c->node = tsv_new_file(ar, sv->maps, name, 0644, &tsv_map_ops, c, c->index);
		break;
	default:
		if (!tsv_dir(ar, &sv->chunksdir, "chunks"))
			return -ENOMEM;
		tsv_magic_name(c->magic, mn);
		snprintf(name, sizeof(name), "%02zu-%s.bin", c->index, mn);
		c->node = tsv_new_file(ar, sv->chunksdir, name, 0644, &tsv_raw_ops, c, c->index);
		break;
	}
	return c->node ? 0 : -ENOMEM;
}

static int tsv_build_tree(struct gfs_archive *ar, struct tsv_save *sv)
{
	int r;

	if (!tsv_new_file(ar, ar->root, "header.ini", 0644, &tsv_header_ops, NULL, 0))
		return -ENOMEM;
	if (sv->has_prvw && sv->prvw_ok) {
		if (!tsv_new_file(ar, ar->root, "preview.png", 0644, &tsv_png_ops, NULL, 0) ||
		    !tsv_new_file(ar, ar->root, "preview.ini", 0644, &tsv_pini_ops, NULL, 0))
			return -ENOMEM;
	} else if (sv->has_prvw) {
		if (!tsv_dir(ar, &sv->chunksdir, "chunks") ||
		    !tsv_new_file(ar, sv->chunksdir, "preview-PRVW.bin", 0644, &tsv_praw_ops, NULL, 0))
			return -ENOMEM;
	}
	for (size_t i = 0; i < sv->nchunks; i++) {
		r = tsv_chunk_node(ar, sv, sv->chunks[i]);
		if (r)
			return r;
	}
	if (sv->tail_len &&
	    !gfs_node_new_span(ar, ar->root, "trailing.bin", 0444, NULL, NULL, sv->tail_off, sv->tail_len))
		return -ENOMEM;
	return 0;
}

static int tsv_load(struct gfs_archive *ar)
{
	uint8_t hdr[TSV_HDR_LEN + TSV_CHUNK_HDR];
	uint64_t fsize = (uint64_t)ar->st.st_size;
	struct tsv_save *sv;
	int r;

	sv = calloc(1, sizeof(*sv));
	if (!sv)
		return -ENOMEM;
	ar->priv = sv;
	if (fsize < TSV_HDR_LEN)
		return gfs_err_at(ar, -EBADMSG, 0, "file is %llu bytes, shorter than the %d-byte header",
				  (unsigned long long)fsize, TSV_HDR_LEN);
	r = gfs_pread(ar, hdr, fsize >= sizeof(hdr) ? sizeof(hdr) : TSV_HDR_LEN, 0);
	if (r)
		return gfs_err_at(ar, r, 0, "cannot read the header");
	if (memcmp(hdr, TSV_MAGIC, TSV_MAGIC_LEN))
		return gfs_err_at(ar, -EBADMSG, 0, "no 'TNG Saved Game' magic");
	memcpy(sv->gameid, hdr + TSV_GAMEID_OFF, TSV_GAMEID_LEN);
	sv->pay_off = TSV_HDR_LEN;
	if (fsize >= sizeof(hdr) && !memcmp(hdr + TSV_HDR_LEN, "PRVW", 4)) {
		uint32_t size = gfs_le32(hdr + TSV_HDR_LEN + 4);

		if (size < TSV_PRVW_DATA)
			return gfs_err_at(ar, -EBADMSG, TSV_HDR_LEN + 4,
					  "preview chunk size %" PRIu32 " is smaller than its %d-byte header",
					  size, TSV_PRVW_DATA);
		if (size > fsize - TSV_HDR_LEN)
			return gfs_err_at(ar, -EBADMSG, TSV_HDR_LEN + 4,
					  "preview chunk size %" PRIu32 " runs past the end of the file", size);
		if (size > TSV_PRVW_MAX)
			return gfs_err_at(ar, -EBADMSG, TSV_HDR_LEN + 4,
					  "preview chunk size %" PRIu32 " is over the %u KiB limit",
					  size, TSV_PRVW_MAX >> 10);
		sv->has_prvw = 1;
		sv->prvw_off = TSV_HDR_LEN;
		sv->prvw_size = size;
		sv->pay_off += size;
		r = tsv_load_preview(ar, sv);
		if (r)
			return r;
	}
	if (sv->pay_off >= fsize)
		return gfs_err_at(ar, -EBADMSG, sv->pay_off, "no payload (file truncated)");
	r = tsv_load_payload(ar, sv);
	if (r)
		return r;
	return tsv_build_tree(ar, sv);
}

/* ---- save ------------------------------------------------------------------ */

static int tsv_payload_changed(const struct tsv_save *sv)
{
	if (sv->removed)
		return 1;
	for (size_t i = 0; i < sv->nchunks; i++)
		if (sv->chunks[i]->changed)
			return 1;
	return 0;
}

static int tsv_save_preview(struct gfs_archive *ar, struct tsv_save *sv, struct gfs_writer *w)
{
	struct gfs_buf img = GFS_BUF_INIT, comp = GFS_BUF_INIT;
	uint8_t h[TSV_PRVW_DATA];
	uint64_t start = gfs_writer_tell(w), datalen;
	int r = 0;

	sv->new_prvw_off = start;
	if (!sv->prvw_hdr_changed && !sv->prvw_pix_changed) {
		sv->new_prvw_size = sv->prvw_size;
		return gfs_writer_copy(w, sv->prvw_off, sv->prvw_size);
	}
	if (!sv->prvw_ok) {
		if (sv->prvw_raw.len + TSV_CHUNK_HDR > UINT32_MAX)
			return gfs_err(ar, -EFBIG, "preview chunk too large");
		memcpy(h, "PRVW", 4);
		gfs_put_u32le(h + 4, (uint32_t)(sv->prvw_raw.len + TSV_CHUNK_HDR));
		sv->new_prvw_size = sv->prvw_raw.len + TSV_CHUNK_HDR;
		r = gfs_writer_put(w, h, TSV_CHUNK_HDR);
		if (!r)
			r = gfs_writer_put(w, sv->prvw_raw.data, sv->prvw_raw.len);
		return r;
	}
	if (sv->prvw_pix_changed) {
		r = gfs_buf_set_len(&img, TSV_PREVIEW_BYTES);
		for (size_t i = 0; !r && i < TSV_PREVIEW_PIXELS; i++)
			gfs_put_u16le(img.data + 2 * i, sv->pix[i]);
		if (!r)
			r = gfs_deflate(img.data, img.len, sv->prvw_wrap, &comp);
		if (r)
			goto out;
		datalen = comp.len;
	} else {
		datalen = sv->prvw_size - TSV_PRVW_DATA;
	}
	memcpy(h, "PRVW", 4);
	gfs_put_u32le(h + 4, (uint32_t)(datalen + TSV_PRVW_DATA));
	gfs_put_u32le(h + TSV_PRVW_TIME, sv->played);
	memcpy(h + TSV_PRVW_RES, sv->reserved, TSV_PRVW_RESLEN);
	gfs_put_u16le(h + TSV_PRVW_DIM, sv->dim);
	sv->new_prvw_size = datalen + TSV_PRVW_DATA;
	r = gfs_writer_put(w, h, sizeof(h));
	if (!r)
		r = sv->prvw_pix_changed ? gfs_writer_put(w, comp.data, comp.len)
					 : gfs_writer_copy(w, sv->prvw_off + TSV_PRVW_DATA, datalen);
out:
	gfs_buf_release(&img);
	gfs_buf_release(&comp);
	return r;
}

static int tsv_save_payload(struct gfs_archive *ar, struct tsv_save *sv, struct gfs_writer *w)
{
	struct gfs_buf pay = GFS_BUF_INIT, comp = GFS_BUF_INIT;
	uint8_t crc[TSV_CRC_LEN];
	int r = 0;

	sv->new_pay_off = gfs_writer_tell(w);
	sv->new_pay_rebuilt = 0;
	if (!tsv_payload_changed(sv)) {
		sv->new_pay_clen = sv->pay_clen;
		sv->new_crc = sv->crc_stored;
		return gfs_writer_copy(w, sv->pay_off, sv->pay_clen + TSV_CRC_LEN);
	}
	for (size_t i = 0; !r && i < sv->nchunks; i++) {
		struct tsv_chunk *c = sv->chunks[i];

		if (c->body.len > TSV_PAYLOAD_MAX || pay.len + c->body.len + TSV_CHUNK_HDR > TSV_PAYLOAD_MAX) {
			r = gfs_err(ar, -EFBIG, "payload would exceed %u MiB", TSV_PAYLOAD_MAX >> 20);
			break;
		}
		r = gfs_buf_add(&pay, c->magic, 4);
		if (!r)
			r = gfs_buf_add_u32le(&pay, (uint32_t)(c->body.len + TSV_CHUNK_HDR));
		if (!r)
			r = gfs_buf_add(&pay, c->body.data, c->body.len);
	}
	if (!r)
		r = gfs_deflate(pay.data, pay.len, sv->wrap, &comp);
	if (r)
		goto out;
	sv->new_crc = sv->crc_compressed ? gfs_crc32(0, comp.data, comp.len) : gfs_crc32(0, pay.data, pay.len);
	sv->new_pay_clen = comp.len;
	sv->new_pay_rebuilt = 1;
	gfs_put_u32le(crc, sv->new_crc);
	r = gfs_writer_put(w, comp.data, comp.len);
	if (!r)
		r = gfs_writer_put(w, crc, sizeof(crc));
out:
	gfs_buf_release(&pay);
	gfs_buf_release(&comp);
	return r;
}

static int tsv_save(struct gfs_archive *ar, struct gfs_writer *w)
{
	struct tsv_save *sv = ar->priv;
	int r;

	if (sv->gameid_changed) {
		r = gfs_writer_copy(w, 0, TSV_GAMEID_OFF);
		if (!r)
			r = gfs_writer_put(w, sv->gameid, TSV_GAMEID_LEN);
	} else {
		r = gfs_writer_copy(w, 0, TSV_HDR_LEN);
	}
	if (!r && sv->has_prvw)
		r = tsv_save_preview(ar, sv, w);
	if (!r)
		r = tsv_save_payload(ar, sv, w);
	sv->new_tail_off = gfs_writer_tell(w);
	if (!r && sv->tail_len)
		r = gfs_writer_copy(w, sv->tail_off, sv->tail_len);
	return r;
}

static void tsv_committed(struct gfs_archive *ar)
{
	struct tsv_save *sv = ar->priv;

	sv->gameid_changed = 0;
	if (sv->has_prvw) {
		sv->prvw_off = sv->new_prvw_off;
		sv->prvw_size = sv->new_prvw_size;
		sv->prvw_hdr_changed = sv->prvw_pix_changed = 0;
	}
	sv->pay_off = sv->new_pay_off;
	sv->pay_clen = sv->new_pay_clen;
	if (sv->new_pay_rebuilt) {
		size_t len = 0;

		for (size_t i = 0; i < sv->nchunks; i++)
			len += sv->chunks[i]->body.len + TSV_CHUNK_HDR;
		sv->pay_len = len;
		sv->crc_stored = sv->new_crc;
		if (sv->crc_compressed)
			sv->crc_deflated = sv->new_crc;
		else
			sv->crc_inflated = sv->new_crc;
		sv->crc_ok = 1;
		ar->damaged = 0;
	}
	sv->tail_off = sv->new_tail_off;
	sv->removed = 0;
	for (size_t i = 0; i < sv->nchunks; i++) {
		struct tsv_chunk *c = sv->chunks[i];
		struct gfs_node *dir;
		char *name, *safe;

		c->changed = 0;
		if (!c->renamed)
			continue;
		c->renamed = 0;
		if (c->kind != TSV_USER || !c->node || gfs_node_is_removed(c->node) || !sv->users)
			continue;
		dir = c->node->parent;
		if (!dir || dir->parent != sv->users)
			continue;
		/* the directory still shows the name (as it was made safe): leave it */
		name = tsv_user_name(c);
		safe = name ? gfs_safe_name(name) : NULL;
		if (safe && strcmp(dir->name, safe)) {
			free(safe);
			safe = gfs_unique_name_ix(sv->users, name, c->index);
			if (safe)
				gfs_node_move(ar, dir, sv->users, safe);
		}
		free(safe);
		free(name);
	}
}

/* ---- deleting chunks ---------------------------------------------------------- */

static int tsv_is_chunk_view(const struct gfs_node *n)
{
	const struct gfs_node_ops *ops = gfs_node_get_ops(n);

	return n->priv && (ops == &tsv_list_ops || ops == &tsv_user_ops ||
			   ops == &tsv_npc_ops || ops == &tsv_map_ops || ops == &tsv_raw_ops);
}

/* Deleting the view of a chunk deletes the chunk; the other files stay. */
static int tsv_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tsv_save *sv = ar->priv;
	struct tsv_chunk *c;
	int still_open;
	size_t i;

	if (!tsv_is_chunk_view(n))
		return gfs_err(ar, -EPERM, "%s: only the files of chunks can be deleted", n->name);
	for (i = 0; i < sv->nchunks && sv->chunks[i]->node != n; i++)
		;
	if (i == sv->nchunks)
		return -ENOENT;
	c = sv->chunks[i];
	still_open = gfs_node_is_open(n);
	gfs_node_remove(ar, n);		/* may render n one last time: c still valid */
	if (still_open)
		n->priv = NULL;		/* it reads its kept bytes from now on */
	memmove(sv->chunks + i, sv->chunks + i + 1, (sv->nchunks - i - 1) * sizeof(*sv->chunks));
	sv->nchunks--;
	gfs_buf_release(&c->body);
	free(c);
	sv->removed = 1;
	ar->changed = 1;
	return 0;
}

/* Empty directories (a deleted user's, or users/ npcs/ maps/ chunks/) can go. */
static int tsv_rmdir(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tsv_save *sv = ar->priv;

	if (n->nkids)
		return -ENOTEMPTY;
	if (n == sv->users)
		sv->users = NULL;
	else if (n == sv->npcs)
		sv->npcs = NULL;
	else if (n == sv->maps)
		sv->maps = NULL;
	else if (n == sv->chunksdir)
		sv->chunksdir = NULL;
	else if (!n->parent || n->parent != sv->users)
		return -EPERM;
	gfs_node_remove(ar, n);
	return 0;
}

/* ---- check and free ---------------------------------------------------------- */

static int tsv_check(struct gfs_archive *ar, FILE *out)
{
	struct tsv_save *sv = ar->priv;
	size_t nraw = 0;

	fprintf(out, "%s: TirNanoG saved game\n", ar->base);
	if (sv->has_prvw)
		fprintf(out, "preview: %s (%llu bytes at 0x%llx)\n",
			sv->prvw_ok ? (sv->prvw_wrap == GFS_ZLIB ? "256x256, zlib deflate" : "256x256, raw deflate")
				    : sv->prvw_why,
			(unsigned long long)sv->prvw_size, (unsigned long long)sv->prvw_off);
	else
		fprintf(out, "preview: none\n");
	fprintf(out, "payload: %s deflate, %llu bytes at 0x%llx, %zu bytes inflated, %zu chunks\n",
		sv->wrap == GFS_ZLIB ? "zlib" : "raw", (unsigned long long)sv->pay_clen,
		(unsigned long long)sv->pay_off, sv->pay_len, sv->nchunks);
	for (size_t i = 0; i < sv->nchunks; i++) {
		struct tsv_chunk *c = sv->chunks[i];
		char mn[5];

		if (c->kind != TSV_RAW || !c->why_raw)
			continue;
		tsv_magic_name(c->magic, mn);
		fprintf(out, "chunk %zu %s: shown raw: %s\n", i, mn, c->why_raw);
		nraw++;
	}
	if (sv->tail_len)
		fprintf(out, "trailing: %llu bytes after the CRC, kept\n", (unsigned long long)sv->tail_len);
	if (sv->crc_ok) {
		fprintf(out, "crc: 0x%08x over the %s payload: ok\n", sv->crc_stored,
			sv->crc_compressed ? "compressed" : "inflated");
		return 0;
	}
	fprintf(out, "crc: 0x%08x matches neither the inflated payload (0x%08x) nor the compressed one "
		"(0x%08x): DAMAGED\n", sv->crc_stored, sv->crc_inflated, sv->crc_deflated);
	return 1;
}

static void tsv_free(struct gfs_archive *ar)
{
	struct tsv_save *sv = ar->priv;

	if (!sv)
		return;
	for (size_t i = 0; i < sv->nchunks; i++) {
		gfs_buf_release(&sv->chunks[i]->body);
		free(sv->chunks[i]);
	}
	free(sv->chunks);
	free(sv->pix);
	gfs_buf_release(&sv->prvw_raw);
	free(sv);
	ar->priv = NULL;
}

/* the save's own preview */
static const char *const tsv_thumbnails[] = { "preview.png", NULL };

const struct gfs_format gfs_format_tngsave = {
	.name = "tngsave", .description = "TirNanoG saved game (.sav)",
	GFS_FORMAT_CALLS(tsv),
	.unlink = tsv_unlink, .rmdir = tsv_rmdir, .thumbnails = tsv_thumbnails, .layout = tsv_layout_nth,
};
