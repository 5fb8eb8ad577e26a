/*
 * OHRRPGCE lumped files (.rpg, .hsp, .hs, any lumped file).
 *
 * On disk: no header, just lumps one after another:
 *   name     1..50 bytes, ASCII, then a NUL
 *   size     4 bytes PDP-endian: high 16-bit word first, each word LE
 *   data     size bytes
 * Tree: the root holds one regular file per lump, named as stored, in
 * archive order; each is a span of the archive (never read at mount).
 * New lumps are appended; deleting a file deletes the lump; no directories.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "gfs_driver.h"

#define RPG_NAME_MAX	50
#define RPG_SIZE_BYTES	4
#define RPG_HDR_MAX	(RPG_NAME_MAX + 1 + RPG_SIZE_BYTES)
#define RPG_MAX_LUMPS	1000000

struct rpg_lump {
	char name[RPG_NAME_MAX + 1];	/* as stored on disk */
	struct gfs_node *node;
	uint64_t new_off;		/* data offset in the file being saved */
};

struct rpg_model {
	struct rpg_lump **lumps;
	size_t n, cap;
};

static int rpg_name_char(int c)
{
	return isalnum(c) || c == '.' || c == '_' || c == '-' || c == '~' || c == ' ';
}

static uint32_t rpg_get_size(const uint8_t *p)
{
	/* PDP-endian: the high 16-bit word first, each word little-endian */
	return (uint32_t)gfs_le16(p) << 16 | gfs_le16(p + 2);
}

static void rpg_put_size(uint8_t *p, uint32_t size)
{
	gfs_put_u16le(p, (uint16_t)(size >> 16));
	gfs_put_u16le(p + 2, (uint16_t)size);
}

static int rpg_bid(const uint8_t *head, size_t len, const char *path)
{
	const char *dot = strrchr(path, '.');
	int ext = dot && (!strcasecmp(dot, ".rpg") || !strcasecmp(dot, ".hsp") ||
			  !strcasecmp(dot, ".hs") || !strcasecmp(dot, ".lmp"));
	size_t i;

	/* no magic: a plausible first lump name, or at least the extension */
	for (i = 0; i < len && i <= RPG_NAME_MAX && head[i]; i++)
		if (!rpg_name_char(head[i]))
			return ext ? 10 : 0;
	if (i == 0 || i > RPG_NAME_MAX || i >= len)
		return ext ? 10 : 0;
	return ext ? 50 : 20;
}

static int rpg_add(struct rpg_model *m, struct rpg_lump *l)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		struct rpg_lump **p = realloc(m->lumps, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		m->lumps = p;
		m->cap = cap;
	}
	m->lumps[m->n++] = l;
	return 0;
}

static struct gfs_node *rpg_new_node(struct gfs_archive *ar, struct rpg_lump *l,
				     uint64_t off, uint64_t len, int span)
{
	char *nm = gfs_unique_name(ar->root, l->name);
	struct gfs_node *n;

	if (!nm)
		return NULL;
	if (span)
		n = gfs_node_new_span(ar, ar->root, nm, 0644, NULL, l, off, len);
	else
		n = gfs_node_new_file(ar, ar->root, nm, 0644, NULL, l);
	free(nm);
	return n;
}

static int rpg_load(struct gfs_archive *ar)
{
	struct rpg_model *m = calloc(1, sizeof(*m));
	uint64_t pos = 0, end = (uint64_t)ar->st.st_size;

	if (!m)
		return -ENOMEM;
	ar->priv = m;
	while (pos < end) {
		uint8_t hdr[RPG_HDR_MAX];
		size_t hlen = end - pos < RPG_HDR_MAX ? (size_t)(end - pos) : RPG_HDR_MAX;
		struct gfs_rd rd;
		const char *name;
		size_t nlen;
		const uint8_t *sz;
		uint32_t size;
		struct rpg_lump *l;
		int r = gfs_pread(ar, hdr, hlen, pos);

		if (r)
			return gfs_err_at(ar, r, pos, "cannot read lump header");
		gfs_rd_init(&rd, hdr, hlen, pos);
		if (gfs_rd_cstr(&rd, &name, &nlen, RPG_NAME_MAX + 1))
			return gfs_err_at(ar, -EBADMSG, pos, hlen < RPG_NAME_MAX + 1 ?
					  "lump name runs past the end of the file" :
					  "lump name has no NUL within 50 bytes");
		if (nlen == 0)
			return gfs_err_at(ar, -EBADMSG, pos, "empty lump name");
		for (size_t i = 0; i < nlen; i++)
			if ((unsigned char)name[i] < 0x20 || (unsigned char)name[i] >= 0x7f)
				return gfs_err_at(ar, -EBADMSG, pos, "lump name has byte 0x%02x", (unsigned char)name[i]);
		if (gfs_rd_ptr(&rd, &sz, RPG_SIZE_BYTES))
			return gfs_err_at(ar, -EBADMSG, gfs_rd_off(&rd), "lump %.*s: size field cut off by the end of the file",
					  (int)nlen, name);
		size = rpg_get_size(sz);
		pos = gfs_rd_off(&rd);
		if (size > end - pos)
			return gfs_err_at(ar, -EBADMSG, pos - RPG_SIZE_BYTES,
					  "lump %.*s: size %u runs past the end of the file (%llu bytes left)",
					  (int)nlen, name, size, (unsigned long long)(end - pos));
		if (m->n >= RPG_MAX_LUMPS)
			return gfs_err_at(ar, -EBADMSG, pos, "more than %d lumps", RPG_MAX_LUMPS);
		l = calloc(1, sizeof(*l));
		if (!l)
			return -ENOMEM;
		memcpy(l->name, name, nlen);
		if (rpg_add(m, l)) {
			free(l);
			return -ENOMEM;
		}
		l->node = rpg_new_node(ar, l, pos, size, 1);
		if (!l->node)
			return -ENOMEM;
		pos += size;
	}
	return 0;
}

static int rpg_save(struct gfs_archive *ar, struct gfs_writer *w)
{
	struct rpg_model *m = ar->priv;

	for (size_t i = 0; i < m->n; i++) {
		struct rpg_lump *l = m->lumps[i];
		uint8_t sz[RPG_SIZE_BYTES];
		uint64_t size;
		int r = gfs_node_size(ar, l->node, &size);

		if (r)
			return r;
		if (size > UINT32_MAX)
			return gfs_err(ar, -EFBIG, "lump %s: %llu bytes do not fit a lump size",
				       l->name, (unsigned long long)size);
		rpg_put_size(sz, (uint32_t)size);
		if ((r = gfs_writer_put(w, l->name, strlen(l->name) + 1)) ||
		    (r = gfs_writer_put(w, sz, sizeof(sz))))
			return r;
		l->new_off = gfs_writer_tell(w);
		if ((r = gfs_writer_node(w, l->node)))
			return r;
	}
	return 0;
}

static void rpg_committed(struct gfs_archive *ar)
{
	struct rpg_model *m = ar->priv;

	for (size_t i = 0; i < m->n; i++) {
		struct gfs_node *n = m->lumps[i]->node;
		uint64_t size = 0;

		gfs_node_size(ar, n, &size);
		gfs_node_set_span(n, m->lumps[i]->new_off, size);
	}
}

static void rpg_free(struct gfs_archive *ar)
{
	struct rpg_model *m = ar->priv;

	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->lumps[i]);
	free(m->lumps);
	free(m);
	ar->priv = NULL;
}

/* Name rules for new names: 1..50 chars of [A-Za-z0-9._-~ ], unique ignoring case. */
static int rpg_check_name(struct gfs_archive *ar, const char *name, const struct rpg_lump *self)
{
	struct rpg_model *m = ar->priv;
	size_t len = strlen(name);

	if (len > RPG_NAME_MAX)
		return gfs_err(ar, -ENAMETOOLONG, "lump name %s: longer than %d characters", name, RPG_NAME_MAX);
	if (len == 0)
		return gfs_err(ar, -EINVAL, "empty lump name");
	for (size_t i = 0; i < len; i++)
		if (!rpg_name_char((unsigned char)name[i]))
			return gfs_err(ar, -EINVAL, "lump name %s: character 0x%02x not allowed "
				       "(A-Z a-z 0-9 . _ - ~ space)", name, (unsigned char)name[i]);
	for (size_t i = 0; i < m->n; i++)
		if (m->lumps[i] != self && !strcasecmp(m->lumps[i]->name, name))
			return gfs_err(ar, -EEXIST, "lump name %s: clashes with %s (names ignore case)",
				       name, m->lumps[i]->name);
	return 0;
}

static int rpg_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		      struct gfs_node **out)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *l;
	int r;

	if (dir != ar->root)
		return -EPERM;
	if ((r = rpg_check_name(ar, name, NULL)))
		return r;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	strcpy(l->name, name);
	if (rpg_add(m, l)) {
		free(l);
		return -ENOMEM;
	}
	l->node = rpg_new_node(ar, l, 0, 0, 0);
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

	if (!l)
		return -ENOENT;
	memmove(m->lumps + i, m->lumps + i + 1, (m->n - i - 1) * sizeof(*m->lumps));
	m->n--;
	free(l);
	n->priv = NULL;
	gfs_node_remove(ar, n);
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

	if (!l)
		return -ENOENT;
	if (newdir != ar->root)
		return -EPERM;
	if ((r = rpg_check_name(ar, newname, l)))
		return r;
	strcpy(l->name, newname);
	gfs_node_move(ar, n, newdir, newname);
	ar->changed = 1;
	return 0;
}

static int rpg_check(struct gfs_archive *ar, FILE *out)
{
	struct rpg_model *m = ar->priv;

	fprintf(out, "%zu lumps, %llu bytes, every lump within the file\n", m->n,
		(unsigned long long)ar->st.st_size);
	return 0;
}

const struct gfs_format gfs_format_rpg = {
	.name = "rpg",
	.description = "OHRRPGCE lumped file",
	.bid = rpg_bid,
	.load = rpg_load,
	.save = rpg_save,
	.committed = rpg_committed,
	.free = rpg_free,
	.check = rpg_check,
	.create = rpg_create,
	.unlink = rpg_unlink,
	.rename = rpg_rename,
};
