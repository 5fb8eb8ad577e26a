/*
 * OHRRPGCE RELOAD documents on their own (.reld, saved games .rsav).
 *
 * Tree: document.txt, the whole document in the lossless text form of
 * src/formats/rpg/reload.c (the same text a game's reload/ shows).  An
 * edit is encoded back; a document written back unchanged gives the same
 * bytes.  The codec is the rpg format's: one RELOAD codec in gamefs.
 *
 * A document whose root is rgfx (a game's HEROES.RGFX ... on its own) also
 * shows spritesets/<id>.png: each spriteset's first frameset that can be a
 * PNG (rgfx.c, the walk a game's views use), frames side by side, 8-bit
 * indices in the fixed palette reld_rgb() (the document has none): index i
 * is red (i >> 5) * 255 / 7, green ((i >> 2) & 7) * 255 / 7, blue
 * (i & 3) * 85, 256 distinct colours.  A PNG written back must be the same
 * size and palette-indexed; each pixel keeps its index when that index has
 * its colour, else takes the one index of exactly it; it is written into
 * the frame's image bytes in place (same length, so the layout stays).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "gfs_driver.h"
#include "../rpg/reload.h"
#include "../rpg/rgfx.h"

#define RELD_FILE_MAX ((size_t)256 << 20)
#define RELD_COLOURS 256

struct reld_model {
	struct gfs_buf *data;	/* the document an edit made, until commit */
	uint64_t new_len;
};

static int reld_bid(const uint8_t *head, size_t len, const char *path)
{
	const char *dot = strrchr(path, '.');
	int ext = dot && (!strcasecmp(dot, ".reld") || !strcasecmp(dot, ".rsav"));

	if (len >= 5 && !memcmp(head, RELD_MAGIC, 4) && head[4] == 1)
		return 100;
	return ext ? 10 : 0;
}

/* The document's current bytes. */
static int reld_bytes(struct gfs_archive *ar, struct gfs_buf *out)
{
	struct reld_model *m = ar->priv;

	if (m->data)
		return m->data->len ? gfs_buf_add(out, m->data->data, m->data->len) : 0;
	return gfs_read_all(ar, out, RELD_FILE_MAX);
}

/* Make *bin the document unless it already is exactly that (then *bin stays the caller's). */
static int reld_take(struct gfs_archive *ar, struct gfs_buf **bin)
{
	struct reld_model *m = ar->priv;
	struct gfs_buf old = GFS_BUF_INIT;
	int r = reld_bytes(ar, &old);

	if (!r && (old.len != (*bin)->len || ((*bin)->len && memcmp(old.data, (*bin)->data, (*bin)->len)))) {
		gfs_buf_free(m->data);
		m->data = *bin;
		*bin = NULL;
		gfs_tree_invalidate(ar);	/* the text and the PNGs show the new bytes */
	}
	gfs_buf_release(&old);
	return r;
}

static int reld_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct gfs_buf b = GFS_BUF_INIT;
	char err[160];
	int r = reld_bytes(ar, &b);

	if (!r && (r = reld_to_text(b.data, b.len, out, err, sizeof(err))) != 0 && r != -ENOMEM)
		r = gfs_err(ar, -EIO, "%s", err);
	gfs_buf_release(&b);
	return r;
}

static int reld_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct gfs_buf *bin = gfs_buf_new();
	char err[200];
	int r;

	if (!bin)
		return -ENOMEM;
	r = reld_from_text(data, len, bin, err, sizeof(err));
	if (r == -EINVAL)
		r = gfs_err(ar, -EINVAL, "%s: %s", n->name, err);
	if (!r)
		r = reld_take(ar, &bin);
	gfs_buf_free(bin);
	return r;
}

static const struct gfs_node_ops reld_doc_ops = {
	.render = reld_render,
	.store = reld_store,
};

/* ---- rgfx documents: spritesets/<id>.png ---- */

/* The fixed palette of a standalone rgfx document: 3 bits red, 3 green, 2 blue. */
static void reld_rgb(uint8_t *rgb)
{
	for (unsigned i = 0; i < RELD_COLOURS; i++) {
		rgb[3 * i] = (uint8_t)((i >> 5) * 255 / 7);
		rgb[3 * i + 1] = (uint8_t)(((i >> 2) & 7) * 255 / 7);
		rgb[3 * i + 2] = (uint8_t)((i & 3) * 85);
	}
}

/* The document and spriteset k of view n: EIO when it is no longer one that shows as a PNG. */
static int reld_set(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *b, struct rgfx_set *s)
{
	char err[160];
	int r = reld_bytes(ar, b);

	if (!r && (r = rgfx_walk(b->data, b->len, RELD_COLOURS, (size_t)(uintptr_t)n->priv, s, NULL, NULL, err,
				 sizeof(err))) && r != -ENOMEM)
		r = gfs_err(ar, -EIO, "%s: %s", n->name, err);
	if (!r && !s->root_rgfx)
		r = gfs_err(ar, -EIO, "%s: the document's root is no longer rgfx", n->name);
	return r;
}

/* The fixed palette as an rgfx palette (no colour transparent: the document's use is not known). */
static void reld_pal(struct rgfx_pal *pal)
{
	reld_rgb(pal->rgb);
	pal->n = RELD_COLOURS;
	pal->nclear = 0;
	pal->what = "document's fixed palette";
}

static int reld_png_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct gfs_buf b = GFS_BUF_INIT;
	struct rgfx_set *s = malloc(sizeof(*s));
	struct rgfx_pal pal;
	int r = s ? reld_set(ar, n, &b, s) : -ENOMEM;

	if (!r) {
		reld_pal(&pal);
		r = rgfx_render(s, b.data, &pal, out);
	}
	free(s);
	gfs_buf_release(&b);
	return r;
}

static int reld_png_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct gfs_buf *b = gfs_buf_new();
	struct rgfx_set *s = malloc(sizeof(*s));
	struct rgfx_pal pal;
	char err[200];
	int r = b && s ? reld_set(ar, n, b, s) : -ENOMEM;

	reld_pal(&pal);
	if (!r && (r = rgfx_store(s, b->data, data, len, 1, &pal, err, sizeof(err))) == -EINVAL)
		r = gfs_err(ar, r, "%s: %s", n->name, err);
	if (!r)
		r = reld_take(ar, &b);
	free(s);
	gfs_buf_free(b);
	return r;
}

static const struct gfs_node_ops reld_png_ops = {
	.render = reld_png_render,
	.store = reld_png_store,
};

struct reld_build {
	struct gfs_archive *ar;
	struct gfs_node *dir;
};

static int reld_png_add(struct rgfx_set *s, size_t k, const char *why)
{
	struct reld_build *bd = s->ctx;
	char nm[32];

	if (!s->root_rgfx)	/* only rgfx documents have spritesets to show */
		return 0;
	if (why) {
		gfs_warn(bd->ar, "spriteset not shown as PNG: %s", why);
		return 0;
	}
	if (!bd->dir && !(bd->dir = gfs_node_new_dir(bd->ar, bd->ar->root, "spritesets")))
		return -ENOMEM;
	snprintf(nm, sizeof(nm), "%03lld.png", (long long)s->id);
	if (s->id < 0 || !gfs_name_usable(bd->dir, nm)) {
		gfs_warn(bd->ar, "spriteset %zu not shown as PNG: its id %lld is missing or not unique", k,
			 (long long)s->id);
		return 0;
	}
	return gfs_node_new_file(bd->ar, bd->dir, nm, 0644, &reld_png_ops, (void *)(uintptr_t)k) ? 0 : -ENOMEM;
}

/* The PNG of every spriteset of an rgfx document that can be one (one walk); none for other roots. */
static int reld_png_build(struct gfs_archive *ar, const uint8_t *bin, size_t len)
{
	struct rgfx_set *s = malloc(sizeof(*s));
	struct reld_build bd = { ar, NULL };
	char err[160];
	int r;

	if (!s)
		return -ENOMEM;
	r = rgfx_walk(bin, len, RELD_COLOURS, 0, s, reld_png_add, &bd, err, sizeof(err));
	free(s);
	return r == -EBADMSG ? 0 : r;
}

static int reld_load(struct gfs_archive *ar)
{
	struct reld_model *m = calloc(1, sizeof(*m));
	struct gfs_buf b = GFS_BUF_INIT;
	char err[160];
	int r;

	if (!m)
		return -ENOMEM;
	ar->priv = m;
	if ((r = gfs_read_all(ar, &b, RELD_FILE_MAX)))
		return gfs_err(ar, r, "cannot read the document (over %zu MiB?)", RELD_FILE_MAX >> 20);
	r = reld_to_text(b.data, b.len, NULL, err, sizeof(err));
	if (!r && !gfs_node_new_file(ar, ar->root, "document.txt", 0644, &reld_doc_ops, NULL))
		r = -ENOMEM;
	if (!r)
		r = reld_png_build(ar, b.data, b.len);
	gfs_buf_release(&b);
	if (r && r != -ENOMEM)
		r = gfs_err(ar, -EBADMSG, "%s", err);
	return r;
}

static int reld_save(struct gfs_archive *ar, struct gfs_writer *w)
{
	struct reld_model *m = ar->priv;

	if (!m->data) {
		m->new_len = (uint64_t)ar->st.st_size;
		return gfs_writer_copy(w, 0, m->new_len);
	}
	m->new_len = m->data->len;
	return gfs_writer_put(w, m->data->data, m->data->len);
}

static void reld_committed(struct gfs_archive *ar)
{
	struct reld_model *m = ar->priv;

	gfs_buf_free(m->data);
	m->data = NULL;
}

static void reld_free(struct gfs_archive *ar)
{
	struct reld_model *m = ar->priv;

	if (!m)
		return;
	gfs_buf_free(m->data);
	free(m);
	ar->priv = NULL;
}

static int reld_check(struct gfs_archive *ar, FILE *out)
{
	fprintf(out, "RELOAD document, %llu bytes, canonical: its text gives it back byte for byte\n",
		(unsigned long long)ar->st.st_size);
	return 0;
}

const struct gfs_format gfs_format_reld = {
	.name = "reld", .description = "OHRRPGCE RELOAD document or saved game",
	GFS_FORMAT_CALLS(reld),
};
