/*
 * The .lay tables as stored: the layout declared once (gfs_record.h), and
 * sprite and chunk records read from and written to their bytes.  The
 * lowest layer of the format: the model (lay.c) and the CSV views
 * (lay_view.c) both call it, and it calls neither.
 */
#include <stdint.h>
#include <string.h>

#include "formats/lay/lay.h"

/* A sprite (LAY_SPRITE_SIZE bytes), its fields in view order: sprites.csv's columns. */
static const struct gfs_field lay_sprite_fields[] = {
	{ .key = "type", .kind = GFS_FK_HEX, .off = LAY_SP_TYPE, .width = 1 },
	{ .key = "id", .kind = GFS_FK_UINT, .off = LAY_SP_ID, .width = 1 },
	{ .key = "depends_on", .kind = GFS_FK_UINT, .off = LAY_SP_DEP, .width = 1 },
	{ .key = "c", .kind = GFS_FK_UINT, .off = LAY_SP_C, .width = 1 },
	{ .key = "chunk_offset", .kind = GFS_FK_UINT, .off = LAY_SP_OFF, .width = 4 },
	{ .key = "chunk_count", .kind = GFS_FK_UINT, .off = LAY_SP_COUNT, .width = 4 },
};
const struct gfs_record lay_sprite_rec = { .section = "sprite", .size = LAY_SPRITE_SIZE,
					   GFS_FIELDS(lay_sprite_fields) };

/* A chunk (LAY_CHUNK_SIZE bytes): four floats, chunks.csv's columns. */
static const struct gfs_field lay_chunk_fields[] = {
	{ .key = "dst_x", .kind = GFS_FK_F32, .off = 0, .width = 4 },
	{ .key = "dst_y", .kind = GFS_FK_F32, .off = 4, .width = 4 },
	{ .key = "src_x", .kind = GFS_FK_F32, .off = 8, .width = 4 },
	{ .key = "src_y", .kind = GFS_FK_F32, .off = 12, .width = 4 },
};
const struct gfs_record lay_chunk_rec = { .section = "chunk", .size = LAY_CHUNK_SIZE,
					  GFS_FIELDS(lay_chunk_fields) };

/* The whole (inflated) layout: its header counts the two tables after it; the rest is trailing bytes. */
static const struct gfs_field lay_file_fields[] = {
	{ .key = "sprite_count", .kind = GFS_FK_UINT, .off = LAY_H_SPRITES, .width = 4, .flags = GFS_FF_IGNORE },
	{ .key = "chunk_count", .kind = GFS_FK_UINT, .off = LAY_H_CHUNKS, .width = 4, .flags = GFS_FF_IGNORE },
	{ .key = "sprites", .kind = GFS_FK_GROUP, .group = &lay_sprite_rec, .count_off = LAY_H_SPRITES,
	  .count_width = 4 },
	{ .key = "chunks", .kind = GFS_FK_GROUP, .group = &lay_chunk_rec, .count_off = LAY_H_CHUNKS,
	  .count_width = 4 },
};
const struct gfs_record lay_file_rec = { .section = "layout", .size = LAY_HDR_SIZE,
					 GFS_FIELDS(lay_file_fields) };

/* The i-th table, for the fuzz target; NULL past the last. */
const struct gfs_record *lay_layout_nth(size_t i)
{
	static const struct gfs_record *const t[] = { &lay_file_rec, &lay_sprite_rec, &lay_chunk_rec };

	return i < sizeof(t) / sizeof(t[0]) ? t[i] : NULL;
}

/* Sprite s into the stored element e, through the table (the fields in view order). */
static void lay_sprite_put(uint8_t *e, const struct lay_sprite *s)
{
	const uint32_t v[] = { s->type, s->id, s->dep, s->c, s->off, s->count };

	for (size_t k = 0; k < lay_sprite_rec.nfields; k++)
		gfs_field_set(&lay_sprite_fields[k], e, v[k]);
}

/* The sprite table sp[0..n) as stored (LAY_SPRITE_SIZE bytes each), appended to b. */
int lay_sprites_raw(const struct lay_sprite *sp, size_t n, struct gfs_buf *b)
{
	size_t at = b->len;
	int rc = gfs_buf_set_len(b, at + n * LAY_SPRITE_SIZE);

	for (size_t i = 0; !rc && i < n; i++)
		lay_sprite_put(b->data + at + i * LAY_SPRITE_SIZE, &sp[i]);
	return rc;
}

/* The chunk table ch[0..n) as stored (LAY_CHUNK_SIZE bytes each), appended to b. */
int lay_chunks_raw(const struct lay_chunk *ch, size_t n, struct gfs_buf *b)
{
	size_t at = b->len;
	int rc = gfs_buf_set_len(b, at + n * LAY_CHUNK_SIZE);

	for (size_t i = 0; !rc && i < n; i++)
		for (size_t k = 0; k < 4; k++)
			gfs_field_set(&lay_chunk_fields[k], b->data + at + i * LAY_CHUNK_SIZE, ch[i].v[k]);
	return rc;
}

/* Sprite i of the stored table p (its bytes are there: no check). */
void lay_sprite_of(const uint8_t *p, size_t i, struct lay_sprite *s)
{
	const uint8_t *e = p + i * LAY_SPRITE_SIZE;
	const struct gfs_field *f = lay_sprite_fields;

	s->type = (uint8_t)gfs_field_get(&f[0], e);
	s->id = (uint8_t)gfs_field_get(&f[1], e);
	s->dep = (uint8_t)gfs_field_get(&f[2], e);
	s->c = (uint8_t)gfs_field_get(&f[3], e);
	s->off = (uint32_t)gfs_field_get(&f[4], e);
	s->count = (uint32_t)gfs_field_get(&f[5], e);
}

/* Chunk i of the stored table p. */
void lay_chunk_of(const uint8_t *p, size_t i, struct lay_chunk *c)
{
	for (size_t k = 0; k < 4; k++)
		c->v[k] = (uint32_t)gfs_field_get(&lay_chunk_fields[k], p + i * LAY_CHUNK_SIZE);
}
