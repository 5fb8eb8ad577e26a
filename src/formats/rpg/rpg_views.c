/*
 * Decoded views of an OHRRPGCE game's lumps.
 *
 * reload/<name>.txt: every lump holding a RELOAD document (found by its
 * RELD magic: GENERAL.RELD, HEROES.RELD, *.RGFX, zone maps .Z##,
 * slice trees...) as the lossless text of reload.c.  Writing one encodes
 * it back; the text of an untouched document gives its bytes back.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rpg.h"
#include "reload.h"

int rpg_view_reload_ok(struct gfs_archive *ar, struct rpg_lump *l)
{
	struct gfs_buf b = GFS_BUF_INIT;
	char err[160];
	int ok = 0;

	if (l->len < 13 || rpg_lump_read(ar, l, &b))
		goto out;
	ok = reld_to_text(b.data, b.len, NULL, err, sizeof(err)) == 0;
	if (!ok)
		gfs_warn(ar, "lump %s: RELOAD document not shown as text: %s", l->name, err);
out:
	gfs_buf_release(&b);
	return ok;
}

char *rpg_view_reload_name(const struct rpg_lump *l)
{
	size_t n = strlen(l->name);
	char *s = malloc(n + 5);

	if (!s)
		return NULL;
	for (size_t i = 0; i <= n; i++)
		s[i] = (char)tolower((unsigned char)l->name[i]);
	if (n > 5 && !strcmp(s + n - 5, ".reld"))
		n -= 5;
	strcpy(s + n, ".txt");
	return s;
}

static int rpg_reload_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_lump *l = n->priv;
	struct gfs_buf b = GFS_BUF_INIT;
	char err[160];
	int r = l ? rpg_lump_read(ar, l, &b) : -ENOENT;

	if (!r && (r = reld_to_text(b.data, b.len, out, err, sizeof(err))) != 0 && r != -ENOMEM)
		r = gfs_err(ar, -EIO, "lump %s: %s", l->name, err);
	gfs_buf_release(&b);
	return r;
}

static int rpg_reload_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_lump *l = n->priv;
	struct gfs_buf bin = GFS_BUF_INIT, old = GFS_BUF_INIT;
	char err[200];
	int r = l ? reld_from_text(data, len, &bin, err, sizeof(err)) : -ENOENT;

	if (r == -EINVAL)
		r = gfs_err(ar, -EINVAL, "reload/%s: %s", n->name, err);
	if (!r)
		r = rpg_lump_read(ar, l, &old);
	if (!r && (old.len != bin.len || (bin.len && memcmp(old.data, bin.data, bin.len))))
		r = rpg_lump_set(ar, l, bin.data, bin.len);
	gfs_buf_release(&bin);
	gfs_buf_release(&old);
	return r;
}

const struct gfs_node_ops rpg_reload_ops = {
	.render = rpg_reload_render,
	.store = rpg_reload_store,
};
