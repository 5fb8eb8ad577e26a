/*
 * A byte-string -> number map (see gfs_strmap.h): open addressing with
 * linear probing; each slot keeps the key's hash, so a probe compares bytes
 * only when the hashes agree.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gfs_strmap.h"

struct gfs_strmap_slot {
	size_t hash;
	size_t off, len;	/* the key in m->keys */
	size_t val;
	int used;
};

static size_t strmap_hash(const uint8_t *p, size_t len)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a, then a final mix */

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	return (size_t)(h ^ h >> 33);
}

/* The slot holding key, or the empty slot where it would go. */
static struct gfs_strmap_slot *strmap_find(const struct gfs_strmap *m, const uint8_t *key, size_t len,
					   size_t hash)
{
	size_t i = hash & (m->cap - 1);

	for (;; i = (i + 1) & (m->cap - 1)) {
		struct gfs_strmap_slot *s = &m->slot[i];

		if (!s->used || (s->hash == hash && s->len == len &&
				 (!len || !memcmp(m->keys.data + s->off, key, len))))
			return s;
	}
}

static int strmap_grow(struct gfs_strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct gfs_strmap_slot *old = m->slot, *ns;
	size_t oldcap = m->cap;

	if (cap > SIZE_MAX / sizeof(*ns) || !(ns = calloc(cap, sizeof(*ns))))
		return -ENOMEM;
	m->slot = ns;
	m->cap = cap;
	for (size_t i = 0; i < oldcap; i++) {
		size_t j = old[i].hash & (cap - 1);

		if (!old[i].used)
			continue;
		while (ns[j].used)
			j = (j + 1) & (cap - 1);
		ns[j] = old[i];
	}
	free(old);
	return 0;
}

int gfs_strmap_put(struct gfs_strmap *m, const void *key, size_t len, size_t **val)
{
	size_t hash = strmap_hash(key, len);
	struct gfs_strmap_slot *s;
	int r;

	if ((m->n + 1) * 2 > m->cap && (r = strmap_grow(m)))
		return r;
	s = strmap_find(m, key, len, hash);
	if (s->used) {
		*val = &s->val;
		return 0;
	}
	s->off = m->keys.len;
	if (len && (r = gfs_buf_add(&m->keys, key, len)))
		return r;
	s->used = 1;
	s->hash = hash;
	s->len = len;
	s->val = 0;
	m->n++;
	*val = &s->val;
	return 1;
}

int gfs_strmap_get(const struct gfs_strmap *m, const void *key, size_t len, size_t *val)
{
	const struct gfs_strmap_slot *s;

	if (!m->n)
		return 0;
	s = strmap_find(m, key, len, strmap_hash(key, len));
	if (!s->used)
		return 0;
	*val = s->val;
	return 1;
}

void gfs_strmap_release(struct gfs_strmap *m)
{
	free(m->slot);
	gfs_buf_release(&m->keys);
	m->slot = NULL;
	m->cap = m->n = 0;
}
