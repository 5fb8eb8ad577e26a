/*
 * The .lay tables as stored: sprite and chunk records read from and written
 * to their bytes.  The lowest layer of the format: the model (lay.c) and the
 * CSV views (lay_view.c) both call it, and it calls neither.
 */
#include <stdint.h>
#include <string.h>

#include "gfs_rd.h"
#include "formats/lay/lay.h"

/* The sprite table sp[0..n) as stored (LAY_SPRITE_SIZE bytes each), appended to b. */
int lay_sprites_raw(const struct lay_sprite *sp, size_t n, struct gfs_buf *b)
{
	int rc = gfs_buf_grow(b, n * LAY_SPRITE_SIZE);

	for (size_t i = 0; !rc && i < n; i++) {
		const struct lay_sprite *s = &sp[i];
		uint8_t info[4] = { s->id, s->dep, s->c, s->type };

		rc = gfs_buf_add(b, info, 4);
		if (!rc)
			rc = gfs_buf_add_u32le(b, s->off);
		if (!rc)
			rc = gfs_buf_add_u32le(b, s->count);
	}
	return rc;
}

/* The chunk table ch[0..n) as stored (LAY_CHUNK_SIZE bytes each), appended to b. */
int lay_chunks_raw(const struct lay_chunk *ch, size_t n, struct gfs_buf *b)
{
	int rc = gfs_buf_grow(b, n * LAY_CHUNK_SIZE);

	for (size_t i = 0; !rc && i < n; i++)
		for (int k = 0; !rc && k < 4; k++)
			rc = gfs_buf_add_u32le(b, ch[i].v[k]);
	return rc;
}

/* Sprite i of the stored table p (its bytes are there: no check). */
void lay_sprite_of(const uint8_t *p, size_t i, struct lay_sprite *s)
{
	struct gfs_rd r;

	gfs_rd_init(&r, p + i * LAY_SPRITE_SIZE, LAY_SPRITE_SIZE, 0);
	(void)(gfs_rd_u8(&r, &s->id) || gfs_rd_u8(&r, &s->dep) || gfs_rd_u8(&r, &s->c) ||
	       gfs_rd_u8(&r, &s->type) || gfs_rd_u32le(&r, &s->off) || gfs_rd_u32le(&r, &s->count));
}

/* Chunk i of the stored table p. */
void lay_chunk_of(const uint8_t *p, size_t i, struct lay_chunk *c)
{
	struct gfs_rd r;

	gfs_rd_init(&r, p + i * LAY_CHUNK_SIZE, LAY_CHUNK_SIZE, 0);
	for (int k = 0; k < 4; k++)
		(void)gfs_rd_u32le(&r, &c->v[k]);
}
