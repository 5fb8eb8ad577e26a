/*
 * lay.c - MAGES. .lay sprite layouts (Steins;Gate 0, Chaos;Child...).
 *
 * On disk (little-endian), either as is or as one zlib stream:
 *
 *   0   u32 sprite_count, u32 chunk_count
 *   8   sprite_count x 12: u8 id, u8 dep, u8 c, u8 type, u32 chunk_offset,
 *                          u32 chunk_count
 *   ..  chunk_count x 16:  f32 dst_x, dst_y, src_x, src_y
 *   ..  trailing bytes (some games keep one byte a chunk)
 *
 * A file is compressed when its counts do not fit its size and it starts
 * like a zlib stream; it is written back the way it was read.
 *
 * The tree:
 *   layout.ini     counts, compression (editable), atlas, canvas
 *   sprites.csv    index,type,id,depends_on,c,chunk_offset,chunk_count
 *   chunks.csv     index,dst_x,dst_y,src_x,src_y
 *   tail.bin       the trailing bytes, when there are any
 *   atlas.png      the companion image NAME.png (or -o atlas=PATH), editable
 *   variants/NAME.png  every sprite composed along its dependency chain, 0444
 *
 * The atlas is a file of its own, the archive's companion: save() gives its
 * new content to the core's commit engine, which replaces both files or
 * neither.  -o atlas=PATH reaches lay_option() before the load.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gfs_codec.h"
#include "formats/lay/lay.h"

static int lay_has_ext(const char *path)
{
	size_t n;

	if (!path)
		return 0;
	n = strlen(path);
	return n >= 4 && !strcasecmp(path + n - 4, ".lay");
}

static int lay_type_known(uint8_t t)
{
	return t == LAY_T_BASE || t == LAY_T_SUB || t == LAY_T_DEP30 ||
	       t == LAY_T_DEP40 || t == LAY_T_OVERLAY || t == LAY_T_DEP60;
}

/*
 * No magic: a plausible header and sprite table (known types, chunk ranges
 * inside the declared chunk list) bid 40, the .lay name adds 50.  A zlib
 * stream is only claimed with the name.
 */
static int lay_bid(const uint8_t *head, size_t len, const char *path)
{
	uint32_t sc, cc;
	int ext = lay_has_ext(path);

	if (len < LAY_HDR_SIZE)
		return ext ? 30 : 0;	/* ours to refuse with a reason */
	sc = gfs_le32(head + LAY_H_SPRITES);
	cc = gfs_le32(head + LAY_H_CHUNKS);
	if (sc > LAY_MAX_SPRITES || cc > LAY_MAX_CHUNKS)
		return ext ? (gfs_is_zlib(head, len) ? 60 : 30) : 0;
	if (sc == 0)
		return ext ? 50 : 0;
	for (size_t i = 0; i < sc && LAY_HDR_SIZE + (i + 1) * LAY_SPRITE_SIZE <= len; i++) {
		struct lay_sprite s;

		lay_sprite_of(head + LAY_HDR_SIZE, i, &s);
		if (!lay_type_known(s.type) || (uint64_t)s.off + s.count > cc)
			return ext ? 50 : 0;
	}
	return ext ? 90 : 40;
}

/* Parse the raw (inflated) layout d into L: where its tables are, from lay_file_rec. */
static int lay_parse(struct gfs_archive *ar, struct lay *L, const uint8_t *d, size_t len,
		     int inflated)
{
	const char *in = inflated ? " (inflated)" : "";
	const char *what = inflated ? "the inflated layout" : "the file";
	size_t end = gfs_record_span(&lay_file_rec, d, len), sat = 0, cat = 0, sc, cc;

	if (len < LAY_HDR_SIZE)
		return gfs_err_at(ar, -EBADMSG, 0, "%zu bytes%s, too short for the %d-byte header",
				  len, in, LAY_HDR_SIZE);
	sc = gfs_le32(d + LAY_H_SPRITES);
	cc = gfs_le32(d + LAY_H_CHUNKS);
	if (!end)
		return gfs_err_at(ar, -EBADMSG, 0, "%zu sprites and %zu chunks need %llu bytes, %s has %zu",
				  sc, cc, LAY_HDR_SIZE + (unsigned long long)sc * LAY_SPRITE_SIZE +
				  (unsigned long long)cc * LAY_CHUNK_SIZE, what, len);
	if (sc > LAY_MAX_SPRITES || cc > LAY_MAX_CHUNKS)
		return gfs_err_at(ar, -EBADMSG, 0, "%zu sprites and %zu chunks exceed the limits (%u, %u)",
				  sc, cc, LAY_MAX_SPRITES, LAY_MAX_CHUNKS);
	(void)gfs_record_part(&lay_file_rec, d, len, "sprites", &sat, &sc);
	(void)gfs_record_part(&lay_file_rec, d, len, "chunks", &cat, &cc);
	L->sp = calloc(sc ? sc : 1, sizeof(*L->sp));
	L->ch = calloc(cc ? cc : 1, sizeof(*L->ch));
	if (!L->sp || !L->ch)
		return gfs_err(ar, -ENOMEM, "out of memory");
	L->nsp = sc;
	L->nch = cc;
	for (size_t i = 0; i < sc; i++) {
		struct lay_sprite *s = &L->sp[i];

		lay_sprite_of(d + sat, i, s);
		if ((uint64_t)s->off + s->count > cc)
			return gfs_err_at(ar, -EBADMSG, sat + i * LAY_SPRITE_SIZE,
					  "sprite %zu%s: chunks %u..%llu run past the %zu-chunk list",
					  i, in, s->off, (unsigned long long)s->off + s->count, cc);
	}
	for (size_t i = 0; i < cc; i++) {
		lay_chunk_of(d + cat, i, &L->ch[i]);
		for (int k = 0; k < 4; k++) {
			float f = lay_f(L->ch[i].v[k]);

			if (f != f || f - f != 0)
				return gfs_err_at(ar, -EBADMSG, cat + i * LAY_CHUNK_SIZE + lay_chunk_rec.fields[k].off,
						  "chunk %zu%s: %s is %s", i, in, lay_chunk_rec.fields[k].key,
						  f != f ? "NaN" : "infinite");
		}
	}
	return gfs_buf_add(&L->tail, d + end, len - end);
}

static int lay_add_view(struct gfs_archive *ar, const char *name,
			const struct gfs_node_ops *ops, struct gfs_node **out)
{
	struct gfs_node *n = gfs_node_new_file(ar, ar->root, name, S_IFREG | 0644, ops, ar->priv);

	if (!n)
		return gfs_err(ar, -ENOMEM, "out of memory");
	if (out)
		*out = n;
	return 0;
}

static int lay_load(struct gfs_archive *ar)
{
	struct gfs_buf file = GFS_BUF_INIT;
	struct lay *L;
	int rc;

	L = ar->priv ? ar->priv : calloc(1, sizeof(*L));	/* lay_option() may have made it */
	if (!L)
		return gfs_err(ar, -ENOMEM, "out of memory");
	ar->priv = L;
	if ((uint64_t)ar->st.st_size > LAY_MAX_FILE) {
		rc = gfs_err_at(ar, -EFBIG, 0, "%llu bytes, over the %u-byte limit of a layout",
				(unsigned long long)ar->st.st_size, LAY_MAX_FILE);
		goto out;
	}
	rc = gfs_read_all(ar, &file, LAY_MAX_FILE);
	if (rc)
		goto out;

	if (!gfs_record_span(&lay_file_rec, file.data, file.len) && gfs_is_zlib(file.data, file.len)) {
		enum gfs_zwrap wrap;
		size_t used = 0;

		rc = gfs_inflate(file.data, file.len, LAY_MAX_FILE, &L->orig, &wrap, &used);
		if (rc) {
			rc = gfs_err_at(ar, -EBADMSG, 0,
					"counts do not fit the file and it is no valid zlib stream (or inflates past %u bytes)",
					LAY_MAX_FILE);
			goto out;
		}
		/* bytes after the stream: after-stream.bin */
		if (used < file.len && (rc = gfs_buf_add(&L->ztail, file.data + used, file.len - used)))
			goto out;
		L->compressed = L->file_compressed = 1;
	} else if ((rc = gfs_buf_add(&L->orig, file.data, file.len))) {
		goto out;
	}
	rc = lay_parse(ar, L, L->orig.data, L->orig.len, L->compressed);
	if (rc)
		goto out;

	lay_canvas(L);
	rc = lay_atlas_probe(ar, L);
	if (rc)
		goto out;

	/*
	 * chunks.csv before sprites.csv: when both wait for one commit
	 * (commit=unmount), new chunk rows are stored before the sprites
	 * that use them.
	 */
	if ((rc = lay_add_view(ar, "layout.ini", &lay_ini_ops, NULL)) ||
	    (rc = lay_add_view(ar, "chunks.csv", &lay_chunks_ops, NULL)) ||
	    (rc = lay_add_view(ar, "sprites.csv", &lay_sprites_ops, NULL)))
		goto out;
	if (L->tail.len && (rc = lay_add_view(ar, "tail.bin", &lay_bytes_ops, &L->tail_node)))
		goto out;
	if (L->ztail.len && (rc = lay_add_view(ar, "after-stream.bin", &lay_bytes_ops, NULL)))
		goto out;
	if (L->atlas_path) {
		/* like the archive: no write bit or no writable directory, no edits */
		struct stat st;
		char *dcopy = strdup(L->atlas_path), *slash = dcopy ? strrchr(dcopy, '/') : NULL;
		mode_t mode = 0644;

		if (slash)
			*slash = 0;
		if (stat(L->atlas_path, &st) || !(st.st_mode & 0222) || !slash ||
		    access(dcopy[0] ? dcopy : "/", W_OK) || access(L->atlas_path, W_OK))
			mode = 0444;
		free(dcopy);
		if (!gfs_node_new_file(ar, ar->root, "atlas.png", S_IFREG | mode, &lay_atlas_ops, L) ||
		    !(L->vdir = gfs_node_new_dir(ar, ar->root, "variants"))) {
			rc = gfs_err(ar, -ENOMEM, "out of memory");
			goto out;
		}
		rc = lay_build_variants(ar, L, 1);
	}
out:
	gfs_buf_release(&file);
	return rc;
}

/* The whole raw layout from the model. */
static int lay_serialise(const struct lay *L, struct gfs_buf *b)
{
	int rc = gfs_buf_grow(b, LAY_HDR_SIZE + L->nsp * LAY_SPRITE_SIZE +
			      L->nch * LAY_CHUNK_SIZE + L->tail.len);

	if (!rc)
		rc = gfs_buf_add_u32le(b, (uint32_t)L->nsp);
	if (!rc)
		rc = gfs_buf_add_u32le(b, (uint32_t)L->nch);
	if (!rc)
		rc = lay_sprites_raw(L->sp, L->nsp, b);
	if (!rc)
		rc = lay_chunks_raw(L->ch, L->nch, b);
	if (!rc)
		rc = gfs_buf_add(b, L->tail.data, L->tail.len);
	return rc;
}

static int lay_save(struct gfs_archive *ar, struct gfs_writer *w)
{
	struct lay *L = ar->priv;
	struct gfs_buf z = GFS_BUF_INIT;
	int rc;

	gfs_buf_release(&L->pending);
	L->pending_valid = 0;
	rc = lay_atlas_save(ar, L, w);
	if (rc)
		return rc;
	if (L->edited) {
		rc = lay_serialise(L, &L->pending);
		if (rc)
			return gfs_err(ar, rc, "cannot build the layout: %s", strerror(-rc));
		L->pending_valid = 1;
		/* edited back to what it was: keep the file's own bytes */
		if (L->compressed == L->file_compressed && L->pending.len == L->orig.len &&
		    !memcmp(L->pending.data, L->orig.data, L->orig.len))
			return gfs_writer_copy(w, 0, (uint64_t)ar->st.st_size);
		if (!L->compressed)
			return gfs_writer_put(w, L->pending.data, L->pending.len);
		rc = gfs_deflate(L->pending.data, L->pending.len, GFS_ZLIB, &z);
		if (!rc)
			rc = gfs_writer_put(w, z.data, z.len);
		if (!rc)
			rc = gfs_writer_put(w, L->ztail.data, L->ztail.len);
		gfs_buf_release(&z);
		return rc;
	}
	return gfs_writer_copy(w, 0, (uint64_t)ar->st.st_size);
}

static void lay_committed(struct gfs_archive *ar)
{
	struct lay *L = ar->priv;

	if (L->pending_valid) {
		struct gfs_buf t = L->orig;

		L->orig = L->pending;
		L->pending = t;
		gfs_buf_release(&L->pending);
		L->pending_valid = 0;
		L->file_compressed = L->compressed;
		L->edited = 0;
	}
	lay_atlas_commit(L);
	if (L->vdir)
		lay_build_variants(ar, L, 0);
}

static void lay_free(struct gfs_archive *ar)
{
	struct lay *L = ar->priv;

	if (!L)
		return;
	free(L->sp);
	free(L->ch);
	free(L->next_bad);
	gfs_buf_release(&L->tail);
	gfs_buf_release(&L->ztail);
	gfs_buf_release(&L->orig);
	gfs_buf_release(&L->pending);
	free(L->atlas_path);
	free(L->atlas_name);
	free(L->rgba);
	gfs_buf_free(L->atlas_new);
	free(L->atlas_opt);
	free(L);
	ar->priv = NULL;
}

/* tail.bin can be created when there is none, and removed. */
static int lay_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		      struct gfs_node **out)
{
	struct lay *L = ar->priv;
	int rc;

	if (dir != ar->root || strcmp(name, "tail.bin") || L->tail_node)
		return gfs_err(ar, -EPERM, "%s: the only file that can be created is tail.bin "
			       "(bytes after the chunk list), when there is none", name);
	rc = lay_add_view(ar, "tail.bin", &lay_bytes_ops, out);
	if (!rc)
		L->tail_node = *out;
	return rc;
}

static int lay_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct lay *L = ar->priv;

	if (n != L->tail_node)
		return gfs_err(ar, -EPERM, "%s: only tail.bin can be removed", n->name);
	gfs_buf_release(&L->tail);
	L->tail_node = NULL;
	L->edited = 1;
	ar->changed = 1;
	gfs_node_remove(ar, n);
	return 0;
}

static int lay_check(struct gfs_archive *ar, FILE *out)
{
	struct lay *L = ar->priv;
	size_t bad = 0, nvar = 0;
	char why[256];

	fprintf(out, "%s: lay: %s, %zu sprites, %zu chunks, %zu trailing bytes\n",
		ar->base, L->file_compressed ? "zlib-compressed" : "uncompressed",
		L->nsp, L->nch, L->tail.len);
	if (!L->atlas_path || !L->aw) {
		fprintf(out, "%s: lay: %s\n", ar->base, L->note[0] ? L->note : "no atlas");
		return 0;
	}
	for (size_t i = 0; i < L->nsp; i++) {
		size_t chain[3];

		if (!lay_chain(L, i, chain))
			continue;
		if (lay_variant_ok(L, i, why, sizeof(why)))
			nvar++;
		else
			bad++;	/* the reasons went to the log at load */
	}
	fprintf(out, "%s: lay: atlas %s %ux%u, %zu variants drawable, %zu skipped\n",
		ar->base, L->atlas_name, L->aw, L->ah, nvar, bad);
	return 0;
}

static int lay_option(struct gfs_archive *ar, const char *key, const char *value)
{
	struct lay *L = ar->priv;

	if (!L && !(L = ar->priv = calloc(1, sizeof(*L))))
		return gfs_err(ar, -ENOMEM, "out of memory");
	if (!value[0])
		return gfs_err(ar, -EINVAL, "atlas= wants the path of the image");
	free(L->atlas_opt);
	L->atlas_opt = strdup(value);
	return L->atlas_opt ? 0 : gfs_err(ar, -ENOMEM, "out of memory");
}

static const struct gfs_format_option lay_options[] = {
	{ "atlas", "PATH", "companion image of a .lay layout (default: NAME.png beside it)" },
	{ NULL, NULL, NULL },
};

/* the first base sprite, else any variant */
static const char *const lay_thumbnails[] = { "variants/b*.png", "variants/*.png", NULL };

const struct gfs_format gfs_format_lay = {
	.name = "lay", .description = "MAGES. sprite layout (.lay) with its PNG atlas",
	GFS_FORMAT_CALLS(lay),
	.create = lay_create, .unlink = lay_unlink, .options = lay_options, .option = lay_option,
	.thumbnails = lay_thumbnails, .layout = lay_layout_nth,
};
