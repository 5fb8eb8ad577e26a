/*
 * OHRRPGCE lumped files: the lump index and each lump's content.
 *
 * On disk: no header, just lumps one after another:
 *   name     1..50 bytes, ASCII, then a NUL
 *   size     4 bytes PDP-endian: high 16-bit word first, each word LE
 *   data     size bytes
 * A lump's content is, newest first: what a decoded view set (data), the
 * raw file's edit, or its span of the archive.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rpg.h"
#include "gfs_record.h"

#define RPG_SIZE_BYTES	4
#define RPG_HDR_MAX	(RPG_NAME_MAX + 1 + RPG_SIZE_BYTES)

int rpg_name_char(int c)
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

int rpg_lump_append(struct rpg_model *m, struct rpg_lump *l)
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

int rpg_index_walk(rpg_read_fn rd, void *rctx, uint64_t end, rpg_lump_fn fn, void *ctx,
		   char *why, size_t whylen, uint64_t *at)
{
	uint64_t pos = 0;
	size_t count = 0;

	while (pos < end) {
		uint8_t hdr[RPG_HDR_MAX];
		size_t hlen = end - pos < RPG_HDR_MAX ? (size_t)(end - pos) : RPG_HDR_MAX;
		struct gfs_rd rd0;
		const char *name;
		size_t nlen;
		const uint8_t *sz;
		uint32_t size;
		char nm[RPG_NAME_MAX + 1];
		int r = rd(rctx, hdr, hlen, pos);

		*at = pos;
		if (r) {
			snprintf(why, whylen, "cannot read lump header");
			return r;
		}
		gfs_rd_init(&rd0, hdr, hlen, pos);
		if (gfs_rd_cstr(&rd0, &name, &nlen, RPG_NAME_MAX + 1)) {
			snprintf(why, whylen, "%s", hlen < RPG_NAME_MAX + 1 ? "lump name runs past the end of the file" :
				 "lump name has no NUL within 50 bytes");
			return -EBADMSG;
		}
		if (nlen == 0) {
			snprintf(why, whylen, "empty lump name");
			return -EBADMSG;
		}
		for (size_t i = 0; i < nlen; i++)
			if ((unsigned char)name[i] < 0x20 || (unsigned char)name[i] >= 0x7f) {
				snprintf(why, whylen, "lump name has byte 0x%02x", (unsigned char)name[i]);
				return -EBADMSG;
			}
		if (gfs_rd_ptr(&rd0, &sz, RPG_SIZE_BYTES)) {
			*at = gfs_rd_off(&rd0);
			snprintf(why, whylen, "lump %.*s: size field cut off by the end of the file", (int)nlen, name);
			return -EBADMSG;
		}
		size = rpg_get_size(sz);
		pos = gfs_rd_off(&rd0);
		if (size > end - pos) {
			*at = pos - RPG_SIZE_BYTES;
			snprintf(why, whylen, "lump %.*s: size %u runs past the end of the file (%llu bytes left)",
				 (int)nlen, name, size, (unsigned long long)(end - pos));
			return -EBADMSG;
		}
		if (count++ >= RPG_MAX_LUMPS) {
			*at = pos;
			snprintf(why, whylen, "more than %d lumps", RPG_MAX_LUMPS);
			return -EBADMSG;
		}
		memcpy(nm, name, nlen);
		nm[nlen] = 0;
		if ((r = fn(ctx, nm, pos, size)) != 0)
			return r;
		pos += size;
	}
	return 0;
}

static int rpg_read_archive(void *ctx, uint8_t *buf, size_t n, uint64_t off)
{
	return gfs_pread(ctx, buf, n, off);
}

static int rpg_index_add(void *ctx, const char *name, uint64_t off, uint64_t len)
{
	struct rpg_model *m = ctx;
	struct rpg_lump *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	strcpy(l->name, name);
	l->off = off;
	l->len = len;
	if (rpg_lump_append(m, l)) {
		free(l);
		return -ENOMEM;
	}
	return 0;
}

int rpg_index_load(struct gfs_archive *ar)
{
	struct rpg_model *m = calloc(1, sizeof(*m));
	char why[160];
	uint64_t at = 0;
	int r;

	if (!m)
		return -ENOMEM;
	ar->priv = m;
	r = rpg_index_walk(rpg_read_archive, ar, (uint64_t)ar->st.st_size, rpg_index_add, m, why, sizeof(why), &at);
	if (r && r != -ENOMEM)
		return gfs_err_at(ar, r, at, "%s", why);
	return r;
}

int rpg_check_name(struct gfs_archive *ar, const char *name, const struct rpg_lump *self)
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

int rpg_buf_room(struct gfs_buf *out, uint64_t len)
{
	if (len > GFS_BUF_STAGED_MAX - out->len)
		return -EFBIG;
	return out->len + len > GFS_BUF_MAX ? gfs_buf_stage(out) : 0;	/* past 2 GiB: a memfd */
}

int rpg_lump_read(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_buf *out)
{
	size_t old = out->len;
	int r;

	if (l->data)
		return l->data->len ? gfs_buf_add(out, l->data->data, l->data->len) : 0;
	if (l->node && !l->kind)
		return gfs_node_content(ar, l->node, out);	/* a lump without views: its edit, if any */
	if ((r = rpg_buf_room(out, l->len)))
		return r;
	if ((r = gfs_buf_set_len(out, old + (size_t)l->len)))
		return r;
	return l->len ? gfs_pread(ar, out->data + old, (size_t)l->len, l->off) : 0;
}

int rpg_lump_range(struct gfs_archive *ar, struct rpg_lump *l, uint64_t off, size_t len, uint8_t *buf)
{
	uint64_t size = l->data ? l->data->len : l->len;

	if (off > size || len > size - off)
		return -EBADMSG;
	if (l->data) {
		memcpy(buf, l->data->data + off, len);
		return 0;
	}
	return len ? gfs_pread(ar, buf, len, l->off + off) : 0;
}

struct rpg_lump *rpg_lump_named(struct rpg_model *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcasecmp(m->lumps[i]->name, name))
			return m->lumps[i];
	return NULL;
}

int rpg_lump_is(const struct rpg_model *m, const struct rpg_lump *l, const char *pat)
{
	size_t an = strlen(m->archinym);

	if (pat[0] != '.')
		return !strcasecmp(l->name, pat);
	return strlen(l->name) == an + strlen(pat) && !strncasecmp(l->name, m->archinym, an) &&
	       !strcasecmp(l->name + an, pat);
}

unsigned rpg_binsize(struct gfs_archive *ar, unsigned idx, unsigned legacy)
{
	struct rpg_lump *l = rpg_lump_named(ar->priv, "BINSIZE.BIN");
	struct gfs_buf b = GFS_BUF_INIT;
	unsigned v = legacy;

	if (l && !rpg_lump_read(ar, l, &b) && b.len >= 2 * (size_t)idx + 2)
		v = gfs_le16(b.data + 2 * idx);
	gfs_buf_release(&b);
	return v;
}

int rpg_lump_set(struct gfs_archive *ar, struct rpg_lump *l, const uint8_t *data, size_t len)
{
	struct gfs_buf *b = gfs_buf_new();

	if (!b || (len && gfs_buf_add(b, data, len))) {
		gfs_buf_free(b);
		return -ENOMEM;
	}
	gfs_buf_free(l->data);
	l->data = b;
	gfs_tree_invalidate(ar);
	return 0;
}

/* The raw file of a lump with views: the archive's bytes, or what a view set. */
static int rpg_lump_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct rpg_lump *l = n->priv;
	int r;

	if (!l)
		return -ENOENT;	/* deleted */
	if (l->data)
		return l->data->len ? gfs_buf_add(out, l->data->data, l->data->len) : 0;
	if ((r = rpg_buf_room(out, l->len)))
		return r;
	if ((r = gfs_buf_set_len(out, (size_t)l->len)))
		return r;
	return l->len ? gfs_pread(ar, out->data, (size_t)l->len, l->off) : 0;
}

static int rpg_lump_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	struct rpg_lump *l = n->priv;

	if (!l)
		return -ENOSYS;
	*size = l->data ? l->data->len : l->len;
	return 0;
}

/* Raw bytes are taken verbatim, newer than any view's: the views read them from l->data. */
static int rpg_lump_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct rpg_lump *l = n->priv;

	return l ? rpg_lump_set(ar, l, data, len) : 0;
}

const struct gfs_node_ops rpg_lump_ops = {
	.render = rpg_lump_render,
	.size = rpg_lump_size,
	.store = rpg_lump_store,
};

/*
 * Are the lump's header (name, size) and data, as this save writes them,
 * the bytes before and at l->off in the archive file?  Then they are copied
 * from it with its neighbours: a run of unchanged lumps is one copy
 * (gfs_writer_copy), not a write and a copy each.
 */
static int rpg_lump_as_stored(struct gfs_archive *ar, const struct rpg_lump *l, const uint8_t *hdr,
			      size_t hlen)
{
	const struct gfs_node *n = l->node;
	uint8_t old[RPG_NAME_MAX + 1 + RPG_SIZE_BYTES];

	if (l->data || !n || l->off < hlen || hlen > sizeof(old) ||
	    !gfs_node_is_stored_at(n, l->off, l->len, gfs_node_get_ops(n) == &rpg_lump_ops))
		return 0;
	return !gfs_pread(ar, old, hlen, l->off - hlen) && !memcmp(old, hdr, hlen);
}

int rpg_save(struct gfs_archive *ar, struct gfs_writer *w)
{
	struct rpg_model *m = ar->priv;

	for (size_t i = 0; i < m->n; i++) {
		struct rpg_lump *l = m->lumps[i];
		uint8_t hdr[RPG_NAME_MAX + 1 + RPG_SIZE_BYTES];
		size_t nl = strlen(l->name), hlen = nl + 1 + RPG_SIZE_BYTES;
		uint64_t size;
		int r = l->data ? (size = l->data->len, 0) : gfs_node_size(ar, l->node, &size);

		if (r)
			return r;
		if (size > UINT32_MAX)
			return gfs_err(ar, -EFBIG, "lump %s: %llu bytes do not fit a lump size",
				       l->name, (unsigned long long)size);
		memcpy(hdr, l->name, nl + 1);
		rpg_put_size(hdr + nl + 1, (uint32_t)size);
		if (size == l->len && rpg_lump_as_stored(ar, l, hdr, hlen)) {
			l->new_off = gfs_writer_tell(w) + hlen;
			l->new_len = size;
			if ((r = gfs_writer_copy(w, l->off - hlen, hlen + size)))
				return r;
			continue;
		}
		if ((r = gfs_writer_put(w, hdr, hlen)))
			return r;
		l->new_off = gfs_writer_tell(w);
		l->new_len = size;
		if (l->data)
			r = size ? gfs_writer_put(w, l->data->data, (size_t)size) : 0;
		else
			r = gfs_writer_node(w, l->node);
		if (r)
			return r;
	}
	return 0;
}

void rpg_committed(struct gfs_archive *ar)
{
	struct rpg_model *m = ar->priv;

	for (size_t i = 0; i < m->n; i++) {
		struct rpg_lump *l = m->lumps[i];

		l->off = l->new_off;
		l->len = l->new_len;
		gfs_buf_free(l->data);
		l->data = NULL;
		gfs_node_set_span(l->node, l->off, l->len);
		for (size_t k = 0; k < l->nviews; k++)	/* a created record left alone reads as it is */
			if (!gfs_node_is_open(l->views[k]))
				((struct rpg_vpriv *)l->views[k]->priv)->fresh = 0;
	}
}

void rpg_free(struct gfs_archive *ar)
{
	struct rpg_model *m = ar->priv;

	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		gfs_buf_free(m->lumps[i]->data);
		free(m->lumps[i]->views);
		free(m->lumps[i]);
	}
	free(m->lumps);
	free(m->undo);
	free(m);
	ar->priv = NULL;
}

/* ---- plumbing of the decoded views ---- */

/* Set the lump to bin unless it already holds exactly that. */
int rpg_set_if_changed(struct gfs_archive *ar, struct rpg_lump *l, const uint8_t *bin, size_t len)
{
	struct gfs_buf old = GFS_BUF_INIT;
	int r = rpg_lump_read(ar, l, &old);

	if (!r && (old.len != len || (len && memcmp(old.data, bin, len))))
		r = rpg_lump_set(ar, l, bin, len);
	gfs_buf_release(&old);
	return r;
}

int rpg_lump_done(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_buf *b, int r)
{
	if (!r)
		r = rpg_set_if_changed(ar, l, b->data, b->len);
	gfs_buf_release(b);
	return r;
}

int rpg_record_render(struct gfs_archive *ar, struct rpg_lump *l, size_t rec, const struct gfs_record *tab,
		      struct gfs_buf *out)
{
	return rpg_record_render_refs(ar, l, rec, tab, NULL, out);
}

int rpg_record_render_refs(struct gfs_archive *ar, struct rpg_lump *l, size_t rec, const struct gfs_record *tab,
			   const struct gfs_rec_refs *refs, struct gfs_buf *out)
{
	size_t rs = tab->size;
	uint8_t *p;
	int r;

	if (!l)
		return -ENOENT;
	if (rs < 2 || !(p = malloc(rs)))
		return rs < 2 ? gfs_err(ar, -EIO, "lump %s: no record size any more", l->name) : -ENOMEM;
	/* only this record's bytes: a stat walk of many records reads no lump whole */
	if ((r = rpg_lump_range(ar, l, (uint64_t)rec * rs, rs, p)))
		r = gfs_err(ar, -EIO, "lump %s: record %zu is not in the lump any more", l->name, rec);
	if (!r)
		r = gfs_record_render(tab, p, rs, refs, out);
	free(p);
	return r;
}

int rpg_record_store(struct gfs_archive *ar, struct rpg_lump *l, size_t rec, const char *view,
		     const struct gfs_record *tab, const uint8_t *data, size_t len,
		     int (*fix)(void *ctx, const uint8_t *old, uint8_t *p), void *ctx)
{
	return rpg_record_store_refs(ar, l, rec, view, tab, NULL, data, len, fix, ctx);
}

int rpg_record_store_refs(struct gfs_archive *ar, struct rpg_lump *l, size_t rec, const char *view,
			  const struct gfs_record *tab, const struct gfs_rec_refs *refs, const uint8_t *data,
			  size_t len, int (*fix)(void *ctx, const uint8_t *old, uint8_t *p), void *ctx)
{
	size_t rs = tab->size;
	struct gfs_buf b = GFS_BUF_INIT, out = GFS_BUF_INIT;
	int r = l ? rpg_lump_read(ar, l, &b) : -ENOENT;

	if (!r && (rs < 2 || (rec + 1) * rs > b.len))
		r = gfs_err(ar, -EIO, "lump %s: record %zu is not in the lump any more", l->name, rec);
	if (!r)
		r = gfs_record_parse(ar, view, tab, b.data + rec * rs, rs, data, len, refs, &out);
	if (!r && out.len != rs)
		r = gfs_err(ar, -EINVAL, "%s: the record would be %zu bytes, not %zu", view, out.len, rs);
	/* a text that changed gets its int16 length word (the word before it), as the engine writes it */
	for (size_t i = 0; !r && i < tab->nfields; i++) {
		const struct gfs_field *f = &tab->fields[i];

		if (f->kind == GFS_FK_STR && f->off >= 2 && memcmp(b.data + rec * rs + f->off, out.data + f->off, f->width))
			gfs_put_u16le(out.data + f->off - 2, (uint16_t)strnlen((const char *)out.data + f->off, f->width));
	}
	if (!r && fix)
		r = fix(ctx, b.data + rec * rs, out.data);
	if (!r)
		memcpy(b.data + rec * rs, out.data, rs);
	gfs_buf_release(&out);
	return rpg_lump_done(ar, l, &b, r);
}

/* GEN (BSAVE + int16s) field idx, or -1 when the lump is too short. */
long rpg_gen(struct gfs_archive *ar, struct rpg_model *m, unsigned idx)
{
	char nm[RPG_NAME_MAX + 8];
	struct rpg_lump *l;
	struct gfs_buf b = GFS_BUF_INIT;
	long v = -1;

	snprintf(nm, sizeof(nm), "%s.GEN", m->archinym);
	l = rpg_lump_named(m, nm);
	if (l && !rpg_lump_read(ar, l, &b) && b.len >= 7 + 2 * (size_t)idx + 2)
		v = (int16_t)gfs_le16(b.data + 7 + 2 * idx);
	gfs_buf_release(&b);
	return v;
}

long rpg_map_of(struct rpg_model *m, const char *name, char *letter)
{
	size_t an = strlen(m->archinym), nl = strlen(name);
	const char *dot = strrchr(name, '.');
	char *ep;
	long v;

	if (nl == an + 4 && !strncasecmp(name, m->archinym, an) && name[an] == '.' &&
	    isdigit((unsigned char)name[an + 2]) && isdigit((unsigned char)name[an + 3])) {
		*letter = (char)toupper((unsigned char)name[an + 1]);
		return (name[an + 2] - '0') * 10 + (name[an + 3] - '0');
	}
	if (dot && dot[1] && !dot[2] && dot > name && isdigit((unsigned char)name[0])) {
		v = strtol(name, &ep, 10);
		if (ep == dot && v >= 100 && v < 100000) {
			*letter = (char)toupper((unsigned char)dot[1]);
			return v;
		}
	}
	return -1;
}

struct gfs_node *rpg_subdir(struct gfs_archive *ar, const char *path)
{
	struct gfs_node *d = ar->root;
	char part[64];

	while (d && *path) {
		size_t n = strcspn(path, "/");
		struct gfs_node *c;

		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = 0;
		c = gfs_node_child(ar, d, part);
		d = c ? c : gfs_node_new_dir(ar, d, part);
		path += n + (path[n] == '/');
	}
	return d;
}

int rpg_add_view(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_node *dir, const char *name,
		 const struct gfs_node_ops *ops, size_t rec, const void *desc)
{
	struct rpg_vpriv *v = calloc(1, sizeof(*v));
	struct gfs_node **vs = realloc(l->views, (l->nviews + 1) * sizeof(*vs));
	char *un = gfs_unique_name(dir, name);
	struct gfs_node *n;

	if (vs)
		l->views = vs;
	if (!v || !vs || !un) {
		free(v);
		free(un);
		return -ENOMEM;
	}
	v->l = l;
	v->rec = rec;
	v->desc = desc;
	n = gfs_node_new_file(ar, dir, un, 0644, ops, v);
	free(un);
	if (!n) {
		free(v);
		return -ENOMEM;
	}
	l->views[l->nviews++] = n;
	return 0;
}

