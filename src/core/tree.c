/*
 * The generic tree the FUSE layer serves: directories keep their entries in
 * archive order; a hash on (parent, name) makes lookups O(1) for huge
 * directories.  File content comes from an edit buffer, a cached render or
 * a span of the archive file, in that order.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include "gamefs.h"

static size_t gfs_hash_key(const struct gfs_node *parent, const char *name)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)(uintptr_t)parent;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	h ^= h >> 33;		/* spread into the low bits the table indexes by */
	h *= 0xff51afd7ed558ccdull;
	return (size_t)(h ^ h >> 33);
}

/*
 * The lookup table is open addressing with linear probing: each slot keeps
 * the key beside the node, so a probe that misses touches no node at all
 * (a mount of 10,000 assets does 20,000 lookups, nearly all misses).
 */
static void gfs_hash_put(struct gfs_hslot *tab, size_t size, size_t key, struct gfs_node *n)
{
	size_t i = key & (size - 1);

	while (tab[i].node)
		i = (i + 1) & (size - 1);
	tab[i].key = key;
	tab[i].node = n;
}

static int gfs_hash_resize(struct gfs_archive *ar, size_t nsize)
{
	struct gfs_hslot *nh = calloc(nsize, sizeof(*nh));

	if (!nh)
		return -ENOMEM;
	for (size_t i = 0; i < ar->hsize; i++)
		if (ar->hash[i].node)
			gfs_hash_put(nh, nsize, ar->hash[i].key, ar->hash[i].node);
	free(ar->hash);
	ar->hash = nh;
	ar->hsize = nsize;
	return 0;
}

/* Table size for count entries at a load of at most 0.7. */
static size_t gfs_hash_size_for(size_t count)
{
	size_t size = 1024;

	while (count * 10 > size * 7 && size < ((size_t)1 << 40))
		size *= 2;
	return size;
}

int gfs_tree_reserve(struct gfs_archive *ar, size_t count)
{
	size_t size = gfs_hash_size_for(ar->hcount + count);

	return size > ar->hsize ? gfs_hash_resize(ar, size) : 0;
}

static int gfs_hash_add(struct gfs_archive *ar, struct gfs_node *n)
{
	if ((ar->hcount + 1) * 10 > ar->hsize * 7 &&
	    gfs_hash_resize(ar, ar->hsize ? ar->hsize * 2 : 1024))
		return -ENOMEM;
	n->hkey = gfs_hash_key(n->parent, n->name);
	gfs_hash_put(ar->hash, ar->hsize, n->hkey, n);
	ar->hcount++;
	return 0;
}

static void gfs_hash_del(struct gfs_archive *ar, struct gfs_node *n)
{
	size_t mask = ar->hsize - 1, i, j;

	if (!ar->hsize)
		return;
	for (i = n->hkey & mask; ar->hash[i].node != n; i = (i + 1) & mask)
		if (!ar->hash[i].node)
			return;		/* not in the table */
	/* backward shift: pull later entries of the run into the hole */
	for (j = (i + 1) & mask; ar->hash[j].node; j = (j + 1) & mask) {
		size_t home = ar->hash[j].key & mask;

		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;	/* its home lies between the hole and it: stays */
		ar->hash[i] = ar->hash[j];
		i = j;
	}
	ar->hash[i].node = NULL;
	ar->hash[i].key = 0;
	ar->hcount--;
}

int gfs_dir_ready(struct gfs_archive *ar, struct gfs_node *dir)
{
	int loading, r;

	if (!dir || !(dir->flags & GFS_NODE_LAZY))
		return 0;
	dir->flags &= ~GFS_NODE_LAZY;	/* first: populate looks names up in dir */
	if (!dir->ops || !dir->ops->populate)
		return 0;
	loading = ar->loading;
	ar->loading = 1;		/* these nodes live as long as load-time ones */
	r = dir->ops->populate(ar, dir);
	ar->loading = loading;
	if (r)
		gfs_warn(ar, "cannot list %s: %s", dir->name, strerror(-r));
	return r;
}

struct gfs_node *gfs_node_child(struct gfs_archive *ar, struct gfs_node *dir, const char *name)
{
	size_t key, mask = ar->hsize - 1;

	if (dir && (dir->flags & GFS_NODE_LAZY))
		gfs_dir_ready(ar, dir);
	if (!ar->hsize || !dir)
		return NULL;
	key = gfs_hash_key(dir, name);
	for (size_t i = key & mask; ar->hash[i].node; i = (i + 1) & mask) {
		struct gfs_node *n = ar->hash[i].node;

		if (ar->hash[i].key == key && n->parent == dir && !strcmp(n->name, name))
			return n;
	}
	return NULL;
}

struct gfs_node *gfs_node_lookup(struct gfs_archive *ar, const char *path)
{
	struct gfs_node *n = ar->root;
	char comp[NAME_MAX + 1];

	while (n && *path) {
		const char *e;
		size_t len;

		while (*path == '/')
			path++;
		if (!*path)
			break;
		e = strchr(path, '/');
		len = e ? (size_t)(e - path) : strlen(path);
		if (len > NAME_MAX || !S_ISDIR(n->mode))
			return NULL;
		memcpy(comp, path, len);
		comp[len] = 0;
		n = gfs_node_child(ar, n, comp);
		path += len;
	}
	return n;
}

static int gfs_dir_append(struct gfs_node *dir, struct gfs_node *n)
{
	if (dir->nkids == dir->capkids) {
		size_t cap = dir->capkids ? dir->capkids * 2 : 8;
		struct gfs_node **k = realloc(dir->kids, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		dir->kids = k;
		dir->capkids = cap;
	}
	dir->kids[dir->nkids++] = n;
	if (S_ISDIR(n->mode))
		dir->nsubdirs++;
	return 0;
}

static void gfs_dir_drop(struct gfs_node *dir, struct gfs_node *n)
{
	for (size_t i = 0; i < dir->nkids; i++)
		if (dir->kids[i] == n) {
			memmove(dir->kids + i, dir->kids + i + 1, (dir->nkids - i - 1) * sizeof(*dir->kids));
			dir->nkids--;
			if (S_ISDIR(n->mode))
				dir->nsubdirs--;
			return;
		}
}

/* The name given at creation lives in the node's own block (one allocation). */
static char *gfs_inline_name(struct gfs_node *n)
{
	return (char *)(n + 1);
}

static void gfs_name_release(struct gfs_node *n)
{
	if (n->name != gfs_inline_name(n))
		free(n->name);	/* given by a rename */
}

/*
 * Node memory during a load comes from chunks: a first one of 256 KiB,
 * then 2 MiB ones asked for as huge pages.  A game of 10,000 assets then
 * takes a handful of page faults instead of a thousand, and no malloc per
 * node.  A chunk node is never freed on its own (a removed one stays until
 * the archive closes), so only the load and the first fill of a lazy
 * directory use chunks.  Under
 * AddressSanitizer every node is its own allocation, to keep
 * use-after-free visible.
 */
#define GFS_CHUNK_FIRST ((size_t)256 << 10)
#define GFS_CHUNK_HUGE ((size_t)2 << 20)

struct gfs_chunk {
	struct gfs_chunk *next;
	size_t used, size;
};

/* size bytes of zeroed memory, aligned to size when it is a huge page */
static struct gfs_chunk *gfs_chunk_map(size_t size)
{
	size_t span = size == GFS_CHUNK_HUGE ? size * 2 : size;
	uint8_t *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *a = p;

	if (p == MAP_FAILED)
		return NULL;
	if (span > size) {
		a = (uint8_t *)(((uintptr_t)p + size - 1) & ~(uintptr_t)(size - 1));
		if (a > p)
			munmap(p, (size_t)(a - p));
		if (a + size < p + span)
			munmap(a + size, (size_t)(p + span - (a + size)));
#ifdef MADV_HUGEPAGE
		madvise(a, size, MADV_HUGEPAGE);	/* a hint: fine if refused */
#endif
	}
	((struct gfs_chunk *)a)->size = size;
	return (struct gfs_chunk *)a;
}

static void *gfs_chunk_alloc(struct gfs_archive *ar, size_t size)
{
	struct gfs_chunk *c = ar->chunks;
	size_t hdr = (sizeof(*c) + 15) & ~(size_t)15;

	size = (size + 15) & ~(size_t)15;
	if (!GFS_POOLS || !ar->loading || size > GFS_CHUNK_FIRST / 16)
		return NULL;
	if (!c || c->used + size > c->size) {
		c = gfs_chunk_map(c ? GFS_CHUNK_HUGE : GFS_CHUNK_FIRST);
		if (!c)
			return NULL;
		c->next = ar->chunks;
		c->used = hdr;
		ar->chunks = c;
	}
	c->used += size;
	return (uint8_t *)c + c->used - size;	/* fresh mmap memory: zeroed */
}

void gfs_tree_release(struct gfs_archive *ar)
{
	while (ar->chunks) {
		struct gfs_chunk *c = ar->chunks;

		ar->chunks = c->next;
		munmap(c, c->size);
	}
}

static void gfs_node_dealloc(struct gfs_node *n)
{
	gfs_name_release(n);
	if (n->flags & GFS_NODE_CHUNK)
		memset(n, 0, sizeof(*n));	/* its memory goes with the chunk */
	else
		free(n);
}

static struct gfs_node *gfs_node_new(struct gfs_archive *ar, struct gfs_node *parent,
				     const char *name, mode_t mode)
{
	size_t len = strlen(name);
	struct gfs_node *n = gfs_chunk_alloc(ar, sizeof(*n) + len + 1);

	if (n)
		n->flags = GFS_NODE_CHUNK;
	else if (!(n = calloc(1, sizeof(*n) + len + 1)))
		return NULL;
	n->name = memcpy(gfs_inline_name(n), name, len + 1);
	n->mode = mode;
	n->ar = ar;
	n->ino = ar->next_ino++;
	n->mtime = ar->st.st_mtim;
	n->parent = parent;
	if (parent) {
		if (gfs_dir_append(parent, n))
			goto fail;
		if (gfs_hash_add(ar, n)) {
			gfs_dir_drop(parent, n);
			goto fail;
		}
	}
	return n;
fail:
	gfs_node_dealloc(n);
	return NULL;
}

struct gfs_node *gfs_node_new_dir(struct gfs_archive *ar, struct gfs_node *parent, const char *name)
{
	return gfs_node_new(ar, parent, name, S_IFDIR | 0755);
}

struct gfs_node *gfs_node_new_file(struct gfs_archive *ar, struct gfs_node *parent,
				   const char *name, mode_t mode,
				   const struct gfs_node_ops *ops, void *priv)
{
	struct gfs_node *n = gfs_node_new(ar, parent, name, S_IFREG | (mode & 07777));

	if (n) {
		n->ops = ops;
		n->priv = priv;
	}
	return n;
}

struct gfs_node *gfs_node_new_span(struct gfs_archive *ar, struct gfs_node *parent,
				   const char *name, mode_t mode,
				   const struct gfs_node_ops *ops, void *priv,
				   uint64_t off, uint64_t len)
{
	struct gfs_node *n = gfs_node_new_file(ar, parent, name, mode, ops, priv);

	if (n) {
		n->flags |= GFS_NODE_SPAN;
		n->span_off = off;
		n->span_len = len;
	}
	return n;
}

void gfs_node_set_span(struct gfs_node *n, uint64_t off, uint64_t len)
{
	n->flags |= GFS_NODE_SPAN;
	n->span_off = off;
	n->span_len = len;
}

void gfs_node_set_lazy(struct gfs_node *dir, const struct gfs_node_ops *ops)
{
	dir->ops = ops;
	dir->flags |= GFS_NODE_LAZY;
}

uint64_t gfs_ino_reserve(struct gfs_archive *ar)
{
	return ar->next_ino++;
}

void gfs_node_set_ino(struct gfs_node *n, uint64_t ino)
{
	n->ino = ino;
}

const struct gfs_node_ops *gfs_node_get_ops(const struct gfs_node *n)
{
	return n->ops;
}

int gfs_node_is_open(const struct gfs_node *n)
{
	return n->open_count > 0;
}

int gfs_node_is_removed(const struct gfs_node *n)
{
	return n->unlinked;
}

int gfs_node_is_stored_at(const struct gfs_node *n, uint64_t off, uint64_t len, int views)
{
	if (n->edit)
		return 0;
	if (views)
		return 1;
	return !(n->ops && n->ops->render) && (n->flags & GFS_NODE_SPAN) && n->span_off == off &&
	       n->span_len == len;
}

int gfs_name_usable(struct gfs_node *dir, const char *name)
{
	size_t len = 0;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++, len++)
		if (*p == '/' || *p < 0x20 || *p == 0x7f)
			return 0;
	if (!gfs_utf8_valid((const uint8_t *)name, len))
		return 0;
	return len && len <= 200 && strcmp(name, ".") && strcmp(name, "..") &&
	       !gfs_node_child(dir->ar, dir, name);
}

char *gfs_safe_name(const char *name)
{
	size_t len = strlen(name);
	char *base = malloc(len * 4 + 2);	/* each invalid byte may become \xNN */

	if (!base)
		return NULL;
	/* '/' and control bytes become '_'; bytes that are not UTF-8, \xNN */
	gfs_escape(name, base, len * 4 + 2);
	len = 0;
	for (size_t i = 0, o = 0; base[i]; i++) {
		if (base[i] == '\\' && base[i + 1] == 'x' && base[i + 2] && base[i + 3]) {
			unsigned v = (unsigned)(gfs_hex_digit(base[i + 2]) << 4 | gfs_hex_digit(base[i + 3]));

			if (v < 0x20 || v == 0x7f) {	/* a control byte: '_' as before */
				base[o++] = '_';
				i += 3;
				len = o;
				continue;
			}
		}
		base[o++] = base[i] == '/' ? '_' : base[i];
		len = o;
	}
	base[len] = 0;
	if (!len || !strcmp(base, ".") || !strcmp(base, "..")) {
		free(base);
		return strdup("_");
	}
	if (len > 200) {		/* leave room under NAME_MAX for " (N)" */
		len = 200;
		while (len && ((unsigned char)base[len] & 0xc0) == 0x80)
			len--;		/* cut between UTF-8 characters */
		base[len] = 0;
	}
	return base;
}

char *gfs_unique_name_ix(struct gfs_node *dir, const char *name, size_t index)
{
	size_t len, stem, cap;
	char *base, *out;
	const char *dot;

	if (gfs_name_usable(dir, name))
		return strdup(name);	/* the common case: nothing to repair or number */
	base = gfs_safe_name(name);
	if (!base || !gfs_node_child(dir->ar, dir, base))
		return base;
	len = strlen(base);
	dot = strrchr(base, '.');
	stem = dot && dot != base ? (size_t)(dot - base) : len;
	cap = len + 48;
	out = malloc(cap);
	for (unsigned k = 2; out; k++) {
		if (k < 10 || index == SIZE_MAX)
			snprintf(out, cap, "%.*s (%u)%s", (int)stem, base, k, base + stem);
		else if (k == 10)
			snprintf(out, cap, "%.*s (#%zu)%s", (int)stem, base, index, base + stem);
		else if (k < 1000)
			snprintf(out, cap, "%.*s (#%zu-%u)%s", (int)stem, base, index, k, base + stem);
		else
			break;
		if (!gfs_node_child(dir->ar, dir, out)) {
			free(base);
			return out;
		}
	}
	free(out);
	free(base);
	return NULL;
}

char *gfs_unique_name(struct gfs_node *dir, const char *name)
{
	return gfs_unique_name_ix(dir, name, SIZE_MAX);
}

void gfs_node_free(struct gfs_archive *ar, struct gfs_node *n)
{
	if (ar->node_gone)
		ar->node_gone(ar->node_gone_arg, n);
	for (size_t i = 0; i < n->nkids; i++) {
		n->kids[i]->parent = NULL;
		gfs_node_free(ar, n->kids[i]);
	}
	if (n->ops && n->ops->free && n->priv)
		n->ops->free(n->priv);
	gfs_buf_free(n->edit);
	gfs_buf_free(n->cache);
	gfs_buf_free(n->good);
	free(n->kids);
	gfs_node_dealloc(n);
}

static void gfs_hash_del_kids(struct gfs_archive *ar, struct gfs_node *n)
{
	for (size_t i = 0; i < n->nkids; i++) {
		gfs_hash_del_kids(ar, n->kids[i]);
		gfs_hash_del(ar, n->kids[i]);
	}
}

static int gfs_node_materialize(struct gfs_archive *ar, struct gfs_node *n, int keep);

void gfs_node_remove(struct gfs_archive *ar, struct gfs_node *n)
{
	if (!n->parent)
		return;
	if (ar->name_gone)
		ar->name_gone(ar->node_gone_arg, n->parent, n->name);
	/* still open: keep its bytes, the archive it came from is about to change */
	if (n->open_count && !S_ISDIR(n->mode) && gfs_node_materialize(ar, n, 1))
		gfs_warn(ar, "out of memory keeping %s readable after its removal", n->name);
	gfs_hash_del_kids(ar, n);
	gfs_hash_del(ar, n);
	gfs_dir_drop(n->parent, n);
	n->parent = NULL;
	n->unlinked = 1;
	if (!n->open_count)
		gfs_node_free(ar, n);
}

void gfs_node_move(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		   const char *newname)
{
	char *nm = strdup(newname);

	if (!nm)
		return;
	if (ar->name_gone)
		ar->name_gone(ar->node_gone_arg, n->parent, n->name);
	gfs_hash_del(ar, n);
	if (n->parent != newdir) {
		gfs_dir_drop(n->parent, n);
		if (gfs_dir_append(newdir, n)) {
			free(nm);	/* out of memory: leave it where it was */
			gfs_dir_append(n->parent, n);
			gfs_hash_add(ar, n);
			return;
		}
		n->parent = newdir;
	}
	gfs_name_release(n);
	n->name = nm;
	gfs_hash_add(ar, n);
}

const char *gfs_node_pathname(struct gfs_node *n, char *buf, size_t size)
{
	struct gfs_buf b = GFS_BUF_INIT;

	if (!gfs_node_path(n, &b) && b.len)
		snprintf(buf, size, "%.*s", (int)b.len, (const char *)b.data);
	else
		snprintf(buf, size, "%s", n->name ? n->name : "?");
	gfs_buf_release(&b);
	return buf;
}

int gfs_node_path(struct gfs_node *n, struct gfs_buf *b)
{
	if (n->parent && n->parent->parent) {
		int r = gfs_node_path(n->parent, b);

		if (r)
			return r;
		if ((r = gfs_buf_addc(b, '/')))
			return r;
	}
	return n->parent ? gfs_buf_adds(b, n->name) : gfs_buf_add(b, "", 0);
}

static int gfs_node_render(struct gfs_archive *ar, struct gfs_node *n)
{
	struct gfs_buf *b;
	int r;

	if (n->cache)
		return 0;
	/* a view that cannot be produced (a bomb) is not inflated again at every stat */
	if (n->flags & GFS_NODE_BROKEN)
		return -EIO;
	b = gfs_buf_new();
	if (!b)
		return -ENOMEM;
	r = n->ops->render(ar, n, b);
	if (r) {
		if (r != -ENOMEM)
			n->flags |= GFS_NODE_BROKEN;
		gfs_buf_free(b);
		return r;
	}
	if (b->cap > 2 * b->len + 4096) {	/* renders are cached: give back the slack */
		uint8_t *p = realloc(b->data, b->len + 1);

		if (p) {
			b->data = p;
			b->cap = b->len + 1;
		}
	}
	n->cache = b;
	return 0;
}

int gfs_node_render_held(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf **out)
{
	int r = n->edit || !n->ops || !n->ops->render ? -EINVAL : gfs_node_render(ar, n);

	if (!r)
		*out = gfs_buf_hold(n->cache);
	return r;
}

int gfs_node_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	int r;

	if (n->edit) {
		*size = n->edit->len;
		return 0;
	}
	if (n->ops && n->ops->render) {
		if (!n->cache && n->ops->size && n->ops->size(ar, n, size) == 0)
			return 0;
		r = gfs_node_render(ar, n);
		if (r)
			return r;
		*size = n->cache->len;
		return 0;
	}
	*size = (n->flags & GFS_NODE_SPAN) ? n->span_len : 0;
	return 0;
}

ssize_t gfs_node_read(struct gfs_archive *ar, struct gfs_node *n, void *buf, size_t len, uint64_t off)
{
	const struct gfs_buf *src = n->edit;
	int r;

	if (S_ISDIR(n->mode))
		return -EISDIR;
	if (!src && n->ops && n->ops->render) {
		r = gfs_node_render(ar, n);
		if (r)
			return r;
		src = n->cache;
	}
	if (src)	/* a staged edit is read from its memfd, not through its mapping */
		return off >= src->len ? 0 : (ssize_t)gfs_buf_pread(src, buf, len, (size_t)off);
	if (!(n->flags & GFS_NODE_SPAN) || off >= n->span_len)
		return 0;
	if (len > n->span_len - off)
		len = (size_t)(n->span_len - off);
	r = gfs_pread(ar, buf, len, n->span_off + off);
	return r ? r : (ssize_t)len;
}

int gfs_node_content(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	uint64_t size;
	size_t old = out->len;
	ssize_t got;
	int r = gfs_node_size(ar, n, &size);

	if (r)
		return r;
	/* past 2 GiB only in a memfd (a member that big is not read onto the heap) */
	if (size > GFS_BUF_STAGED_MAX - old || (old + size > GFS_BUF_MAX && (r = gfs_buf_stage(out))))
		return r ? r : -EFBIG;
	r = gfs_buf_set_len(out, old + (size_t)size);
	if (r)
		return r;
	got = size ? gfs_node_read(ar, n, out->data + old, (size_t)size, 0) : 0;
	if (got < 0) {
		gfs_buf_set_len(out, old);
		return (int)got;
	}
	return gfs_buf_set_len(out, old + (size_t)got);
}

struct gfs_buf *gfs_node_keep_bytes(struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct gfs_buf *b;

	if (n->edit && n->edit->data == data && n->edit->len == len)
		return gfs_buf_share(n->edit);
	b = gfs_buf_new();
	if (b && gfs_buf_add(b, data, len)) {
		gfs_buf_free(b);
		return NULL;
	}
	return b;
}

const struct gfs_buf *gfs_node_staged(struct gfs_node *n, const uint8_t *data, size_t len)
{
	if (n->edit && n->edit->data == data && n->edit->len == len && gfs_buf_fd(n->edit) >= 0)
		return n->edit;
	return NULL;
}

static void gfs_node_touch(struct gfs_node *n)
{
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	n->dirty = 1;
}

/*
 * The new edit buffer b made ready after r (0: so far so good): src's
 * content in it when src is given (staged when big), room to write.  On
 * failure b is freed.
 */
static int gfs_edit_ready(struct gfs_archive *ar, struct gfs_node *src, struct gfs_buf *b, int r)
{
	if (!r && src) {
		r = gfs_node_content(ar, src, b);
		if (!r && b->len > GFS_BUF_STAGE_MIN)
			r = gfs_buf_stage(b);
	}
	if (!r)
		r = gfs_buf_grow(b, 0);
	if (r)
		gfs_buf_free(b);
	return r;
}

/* Give n an edit buffer holding its current content (keep = 0: empty). */
static int gfs_node_materialize(struct gfs_archive *ar, struct gfs_node *n, int keep)
{
	struct gfs_buf *b;
	int r = 0;

	if (n->edit)
		return 0;
	b = gfs_buf_new();
	if (!b)
		return -ENOMEM;
	if (keep && !(n->ops && n->ops->render) && (n->flags & GFS_NODE_SPAN) &&
	    n->span_len > GFS_BUF_STAGE_MIN && n->span_len <= GFS_BUF_STAGED_MAX) {
		/* a big stored asset: straight from the archive into a memfd */
		r = gfs_buf_stage(b);
		if (!r)
			r = gfs_buf_set_len(b, (size_t)n->span_len);
		if (!r)
			r = gfs_fd_copy(ar->fd, n->span_off, gfs_buf_fd(b), 0, n->span_len);
		r = gfs_edit_ready(ar, NULL, b, r);
	} else {
		r = gfs_edit_ready(ar, keep ? n : NULL, b, 0);
	}
	if (!r)
		n->edit = b;
	return r;
}

ssize_t gfs_node_write(struct gfs_archive *ar, struct gfs_node *n, const void *buf, size_t len, uint64_t off)
{
	int r = gfs_node_materialize(ar, n, 1);

	if (r)
		return r;
	if (off > GFS_BUF_STAGED_MAX || len > GFS_BUF_STAGED_MAX - off)
		return -EFBIG;
	/* a big edit goes to a memfd: in the page cache, not the heap (see gfs_buf.h) */
	if (off + len > GFS_BUF_STAGE_MIN && (r = gfs_buf_stage(n->edit)))
		return r;
	if ((r = gfs_buf_pwrite(n->edit, buf, len, (size_t)off)))
		return r;
	gfs_node_touch(n);
	return (ssize_t)len;
}

int gfs_node_truncate(struct gfs_archive *ar, struct gfs_node *n, uint64_t size)
{
	int r = gfs_node_materialize(ar, n, size > 0);

	if (r)
		return r;
	if (size > GFS_BUF_STAGED_MAX)
		return -EFBIG;
	if (size > GFS_BUF_STAGE_MIN && (r = gfs_buf_stage(n->edit)))
		return r;
	r = gfs_buf_set_len(n->edit, (size_t)size);
	if (!r)
		gfs_node_touch(n);
	return r;
}

struct gfs_node *gfs_node_new_scratch(struct gfs_archive *ar, struct gfs_node *dir, const char *name)
{
	struct gfs_node *n = gfs_node_new_file(ar, dir, name, 0644, NULL, NULL);

	if (!n)
		return NULL;
	n->flags |= GFS_NODE_SCRATCH;
	n->edit = gfs_buf_new();
	if (!n->edit || gfs_buf_grow(n->edit, 0)) {
		gfs_node_remove(ar, n);
		return NULL;
	}
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	return n;
}

int gfs_node_take_content(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *src)
{
	/* a staged edit is shared, not copied */
	struct gfs_buf *b = src->edit ? gfs_buf_share(src->edit) : gfs_buf_new();
	int r = b ? gfs_edit_ready(ar, src->edit ? NULL : src, b, 0) : -ENOMEM;

	if (r)
		return r;
	gfs_buf_free(n->edit);
	n->edit = b;
	gfs_node_touch(n);
	return 0;
}

static void gfs_invalidate_rec(struct gfs_node *n)
{
	gfs_buf_free(n->cache);
	n->cache = NULL;
	n->flags &= ~GFS_NODE_BROKEN;
	for (size_t i = 0; i < n->nkids; i++)
		gfs_invalidate_rec(n->kids[i]);
}

void gfs_tree_invalidate(struct gfs_archive *ar)
{
	if (ar->root)
		gfs_invalidate_rec(ar->root);
}

/*
 * Is s exactly n characters of [A-Za-z0-9]?  1 when they mix two of lower
 * case, upper case and digits (surely random), 2 when they are all of one
 * kind (random or a real extension such as LUMPED), 0 otherwise.
 */
static int gfs_random_tail(const char *s, size_t n)
{
	int lower = 0, upper = 0, digit = 0;

	if (strlen(s) != n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] >= 'a' && s[i] <= 'z')
			lower = 1;
		else if (s[i] >= 'A' && s[i] <= 'Z')
			upper = 1;
		else if (s[i] >= '0' && s[i] <= '9')
			digit = 1;
		else
			return 0;
	}
	return lower + upper + digit > 1 ? 1 : 2;
}

/*
 * Scratch names: every dotfile (vim's .x.swp, emacs .#x, rsync's .x.XXXXXX,
 * GIO's .goutputstream-*, LibreOffice's .~lock.*, KDE's .directory, libfuse's
 * .fuse_hiddenN), vim's 4913 and x~, emacs #x#, sed's sedXXXXXX, LibreOffice's
 * luXXXX.tmp, Qt's QSaveFile x.XXXXXX, and what gamefs itself keeps
 * (x.rejected).
 */
int gfs_is_scratch_name(const char *name)
{
	size_t len = strlen(name);
	const char *dot = strrchr(name, '.');

	if (name[0] == '.' || !strcmp(name, "4913") || (len > 1 && name[len - 1] == '~'))
		return 1;
	if (len > 1 && name[0] == '#' && name[len - 1] == '#')
		return 1;					/* emacs */
	if (len == 9 && !strncmp(name, "sed", 3))		/* sed -i: sedXXXXXX */
		return strspn(name + 3, "abcdefghijklmnopqrstuvwxyz"
			      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == 6;
	if (len >= 11 && !strncmp(name, "lu", 2) && !strcmp(name + len - 4, ".tmp") &&
	    strspn(name + 2, "abcdefghijklmnopqrstuvwxyz0123456789") == len - 6 &&
	    strcspn(name + 2, "0123456789") < len - 6)
		return 1;					/* LibreOffice: lu + base 36 + .tmp */
	if (dot && dot > name && gfs_random_tail(dot + 1, 6) == 1)
		return 1;					/* Qt QSaveFile */
	return dot && dot > name && !strcmp(dot, ".rejected");
}

/*
 * A scratch name in dir: the names above, and Qt's QSaveFile NAME.XXXXXX
 * whose six random letters happen to be all of one case (one save in 32)
 * when NAME is a file beside it, or a name with an extension of its own
 * (map.tmx.QVQTGM: Tiled saving a file that is not there yet).
 */
int gfs_is_scratch_in(struct gfs_archive *ar, struct gfs_node *dir, const char *name)
{
	const char *dot = strrchr(name, '.');
	struct gfs_node *stem;
	char buf[NAME_MAX + 1];
	size_t len;

	if (gfs_is_scratch_name(name))
		return 1;
	if (!dot || dot == name || gfs_random_tail(dot + 1, 6) != 2 || (len = dot - name) > NAME_MAX)
		return 0;
	memcpy(buf, name, len);
	buf[len] = 0;
	stem = gfs_node_child(ar, dir, buf);
	if (!stem) {
		const char *ext = strrchr(buf, '.');
		size_t el = ext ? strlen(ext + 1) : 0;

		return ext && ext > buf && el >= 1 && el <= 4 &&
		       strspn(ext + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == el;
	}
	return !S_ISDIR(stem->mode) && !(stem->flags & GFS_NODE_SCRATCH);
}
