/*
 * OHRRPGCE RELOAD documents on their own (.reld, saved games .rsav).
 *
 * Tree: document.txt, the whole document in the lossless text form of
 * src/formats/rpg/reload.c (the same text a game's reload/ shows).  An
 * edit is encoded back; a document written back unchanged gives the same
 * bytes.  The codec is the rpg format's: one RELOAD codec in gamefs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "gfs_driver.h"
#include "../rpg/reload.h"

#define RELD_FILE_MAX ((size_t)256 << 20)

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
	struct reld_model *m = ar->priv;
	struct gfs_buf *bin = gfs_buf_new();
	struct gfs_buf old = GFS_BUF_INIT;
	char err[200];
	int r;

	if (!bin)
		return -ENOMEM;
	r = reld_from_text(data, len, bin, err, sizeof(err));
	if (r == -EINVAL)
		r = gfs_err(ar, -EINVAL, "%s: %s", n->name, err);
	if (!r)
		r = reld_bytes(ar, &old);
	if (!r && (old.len != bin->len || (bin->len && memcmp(old.data, bin->data, bin->len)))) {
		gfs_buf_free(m->data);
		m->data = bin;
		bin = NULL;
	}
	gfs_buf_free(bin);
	gfs_buf_release(&old);
	return r;
}

static const struct gfs_node_ops reld_doc_ops = {
	.render = reld_render,
	.store = reld_store,
};

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
	gfs_buf_release(&b);
	if (r == -ENOMEM)
		return r;
	if (r)
		return gfs_err(ar, -EBADMSG, "%s", err);
	if (!gfs_node_new_file(ar, ar->root, "document.txt", 0644, &reld_doc_ops, NULL))
		return -ENOMEM;
	return 0;
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
	.name = "reld",
	.description = "OHRRPGCE RELOAD document or saved game",
	.bid = reld_bid,
	.load = reld_load,
	.save = reld_save,
	.committed = reld_committed,
	.free = reld_free,
	.check = reld_check,
};
