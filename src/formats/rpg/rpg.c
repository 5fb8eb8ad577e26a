/*
 * OHRRPGCE lumped files (.rpg, .hsp, .hs, any lumped file): the driver.
 *
 * A lumped file that is not a game shows one regular file per lump at the
 * root, in archive order.  A game (it has a <archinym>.GEN lump with its
 * BSAVE header) shows every lump raw under lumps/ and decoded views beside
 * it (reload/).  Raw lumps are spans of the archive; new lumps are
 * appended; deleting a file deletes the lump.  See rpg.h for the layers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rpg.h"
#include "rpg_grow.h"
#include "rpg_tmap.h"

#define RPG_BSAVE_MAGIC 0xfd
/*
 * A legacy save (.SAV, before RELOAD saves; specs/ohrrpgce-lumps.md 11):
 * slots of 60000 bytes, each opening with an int16 save version (0 empty).
 * gamefs does not mount one: it is recognised only to say so.
 */
#define RPG_OLDSAV_SLOT		60000
#define RPG_OLDSAV_MAX_SLOTS	32
#define RPG_OLDSAV_MAX_VERSION	16

/* Does the head of a .sav file open like a legacy save slot? */
static int rpg_oldsav_head(const uint8_t *head, size_t len, const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot && !strcasecmp(dot, ".sav") && len >= 2 && gfs_le16(head) <= RPG_OLDSAV_MAX_VERSION;
}

/* The refusal of a .sav file the bid took for a legacy save: what it is, or what it is not. */
static int rpg_oldsav_refuse(struct gfs_archive *ar)
{
	uint64_t size = (uint64_t)ar->st.st_size, slots = size / RPG_OLDSAV_SLOT;
	uint8_t ver[2];
	int16_t first = 0;

	for (uint64_t i = 0; i < slots && size % RPG_OLDSAV_SLOT == 0 && slots <= RPG_OLDSAV_MAX_SLOTS; i++) {
		if (gfs_pread(ar, ver, 2, i * RPG_OLDSAV_SLOT))
			return -EIO;
		if (i == 0)
			first = (int16_t)gfs_le16(ver);
		if (gfs_le16(ver) > RPG_OLDSAV_MAX_VERSION)
			break;
		if (i + 1 == slots)
			return gfs_err(ar, -EPROTONOSUPPORT, "a legacy OHRRPGCE save (%llu slots of %d bytes, "
				       "from before RELOAD saves): gamefs does not mount it (it mounts OHRRPGCE's "
				       ".rsav saves, which a current OHRRPGCE writes)", (unsigned long long)slots,
				       RPG_OLDSAV_SLOT);
	}
	return gfs_err(ar, -EPROTONOSUPPORT, "not a ZZT save (first word %d, not -1) nor a legacy OHRRPGCE save "
		       "(%llu bytes, not whole slots of %d bytes)", first, (unsigned long long)size, RPG_OLDSAV_SLOT);
}

static int rpg_bid(const uint8_t *head, size_t len, const char *path)
{
	const char *dot = strrchr(path, '.');
	int ext = dot && (!strcasecmp(dot, ".rpg") || !strcasecmp(dot, ".hsp") ||
			  !strcasecmp(dot, ".hs") || !strcasecmp(dot, ".lmp"));
	size_t i;

	if (rpg_oldsav_head(head, len, path))
		return 15;	/* above zzt's bid on a .sav that is not a ZZT one: load refuses it */
	/* no magic: a plausible first lump name, or at least the extension */
	for (i = 0; i < len && i <= RPG_NAME_MAX && head[i]; i++)
		if (!rpg_name_char(head[i]))
			return ext ? 10 : 0;
	if (i == 0 || i > RPG_NAME_MAX || i >= len)
		return ext ? 10 : 0;
	return ext ? 50 : 20;
}

/* A game: a lump named *.GEN that starts with a BSAVE header. */
static int rpg_is_game(struct gfs_archive *ar, struct rpg_model *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct rpg_lump *l = m->lumps[i];
		size_t nl = strlen(l->name);
		uint8_t c;

		if (nl > 4 && !strcasecmp(l->name + nl - 4, ".GEN") && l->len >= 7 &&
		    !gfs_pread(ar, &c, 1, l->off) && c == RPG_BSAVE_MAGIC) {
			memcpy(m->archinym, l->name, nl - 4);
			m->archinym[nl - 4] = 0;
			return 1;
		}
	}
	return 0;
}

static struct gfs_node *rpg_new_lump_node(struct gfs_archive *ar, struct gfs_node *dir,
					  struct rpg_lump *l, int views, int span)
{
	char *nm = gfs_unique_name(dir, l->name);
	struct gfs_node *n;

	if (!nm)
		return NULL;
	if (views)
		n = gfs_node_new_file(ar, dir, nm, 0644, &rpg_lump_ops, l);
	else if (span)
		n = gfs_node_new_span(ar, dir, nm, 0644, NULL, l, l->off, l->len);
	else
		n = gfs_node_new_file(ar, dir, nm, 0644, NULL, l);
	free(nm);
	return n;
}

static int rpg_load(struct gfs_archive *ar)
{
	struct rpg_model *m;
	uint8_t head[2];
	int r;

	if (!gfs_pread(ar, head, sizeof(head), 0) && rpg_oldsav_head(head, sizeof(head), ar->path))
		return rpg_oldsav_refuse(ar);
	if ((r = rpg_index_load(ar)))
		return r;
	m = ar->priv;
	m->lumpdir = ar->root;
	if (rpg_is_game(ar, m)) {
		m->game = 1;
		if (!(m->lumpdir = gfs_node_new_dir(ar, ar->root, "lumps")))
			return -ENOMEM;
		for (size_t i = 0; i < m->n; i++)
			m->lumps[i]->kind = rpg_view_kind(ar, m->lumps[i]);
	} else if (gfs_tree_reserve(ar, m->n)) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->n; i++)
		if (!(m->lumps[i]->node = rpg_new_lump_node(ar, m->lumpdir, m->lumps[i],
							    m->lumps[i]->kind != RPG_K_NONE, 1)))
			return -ENOMEM;
	return m->game ? rpg_views_build(ar) : 0;
}

static int rpg_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		      struct gfs_node **out)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *l;
	int r;

	if (dir != m->lumpdir && (r = rpg_newmap_create(ar, dir, name, out)) != 1)
		return r;
	if (dir != m->lumpdir && m->game && (r = rpg_gfx_create(ar, dir, name, out)) != 1)
		return r;
	if (dir != m->lumpdir)
		return (r = rpg_grow_create(ar, dir, name, out)) == 1 ? -EPERM : r;
	if ((r = rpg_check_name(ar, name, NULL)))
		return r;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	strcpy(l->name, name);
	if (rpg_lump_append(m, l)) {
		free(l);
		return -ENOMEM;
	}
	l->node = rpg_new_lump_node(ar, dir, l, 0, 0);
	if (!l->node) {
		m->n--;
		free(l);
		return -ENOMEM;
	}
	ar->changed = 1;
	*out = l->node;
	return 0;
}

static struct rpg_lump *rpg_find(struct rpg_model *m, struct gfs_node *n, size_t *idx)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->lumps[i]->node == n) {
			*idx = i;
			return m->lumps[i];
		}
	return NULL;
}

static int rpg_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct rpg_model *m = ar->priv;
	size_t i;
	struct rpg_lump *l = rpg_find(m, n, &i);
	int open;

	if (!l && (open = rpg_newmap_unlink(ar, n)) != 1)
		return open;	/* a file of the last map's folder */
	if (!l && (open = rpg_gfx_unlink(ar, n)) != 1)
		return open;	/* the last page or sprite set */
	if (!l)		/* a decoded view: the last record of a kind may go */
		return (open = rpg_grow_unlink(ar, n)) == 1 ? -EPERM : open;
	rpg_views_drop(ar, l);
	memmove(m->lumps + i, m->lumps + i + 1, (m->n - i - 1) * sizeof(*m->lumps));
	m->n--;
	/* an open file keeps its content (read now, through l); a closed one is freed */
	open = gfs_node_is_open(n);
	gfs_node_remove(ar, n);
	if (open)
		n->priv = NULL;
	gfs_buf_free(l->data);
	free(l->views);
	free(l);
	ar->changed = 1;
	return 0;
}

static int rpg_rename(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		      const char *newname)
{
	struct rpg_model *m = ar->priv;
	size_t i;
	struct rpg_lump *l = rpg_find(m, n, &i);
	int r;

	if (!l || newdir != m->lumpdir)
		return -EPERM;
	if ((r = rpg_check_name(ar, newname, l)))
		return r;
	strcpy(l->name, newname);
	gfs_node_move(ar, n, newdir, newname);
	ar->changed = 1;
	return 0;
}

static int rpg_mkdir(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out)
{
	int r = rpg_newmap_mkdir(ar, dir, name, out);

	return r == 1 ? gfs_err(ar, -EPERM, "%s: only maps/NN-name can be made", name) : r;
}

static int rpg_rmdir(struct gfs_archive *ar, struct gfs_node *n)
{
	int r = rpg_newmap_rmdir(ar, n);

	return r == 1 ? gfs_err(ar, -EPERM, "%s: only a map's folder can be removed", n->name) : r;
}

static int rpg_check(struct gfs_archive *ar, FILE *out)
{
	struct rpg_model *m = ar->priv;
	size_t views = 0, decoded = 0;
	uint64_t dbytes = 0;

	for (size_t i = 0; i < m->n; i++) {
		views += m->lumps[i]->nviews;
		decoded += m->lumps[i]->nviews > 0;
		dbytes += m->lumps[i]->nviews > 0 ? m->lumps[i]->len : 0;
	}
	fprintf(out, "%zu lumps, %llu bytes, every lump within the file\n", m->n,
		(unsigned long long)ar->st.st_size);
	if (!m->game)
		return 0;
	fprintf(out, "a game: %zu decoded views of %zu lumps (%llu bytes), %zu warnings\n", views, decoded,
		(unsigned long long)dbytes, rpg_views_check(ar, out));
	if (decoded < m->n) {	/* what is only in lumps/ */
		fprintf(out, "raw only:");
		for (size_t i = 0; i < m->n; i++)
			if (!m->lumps[i]->nviews)
				fprintf(out, " %s", m->lumps[i]->name);
		fprintf(out, "\n");
	}
	return 0;
}

/* the title screen (backdrop 0 unless GEN says otherwise), else the first map */
static const char *const rpg_thumbnails[] = { "backdrops/0*.png", "maps/*/map.png", NULL };

const struct gfs_format gfs_format_rpg = {
	.name = "rpg", .description = "OHRRPGCE lumped file",
	GFS_FORMAT_CALLS(rpg),
	.create = rpg_create, .unlink = rpg_unlink, .rename = rpg_rename, .mkdir = rpg_mkdir, .rmdir = rpg_rmdir,
	.thumbnails = rpg_thumbnails, .layout = rpg_layout_nth,
};
