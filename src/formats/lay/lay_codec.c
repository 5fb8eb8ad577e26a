/*
 * The .lay tables as stored: the layout declared once (gfs_record.h), and
 * sprite and chunk records read from and written to their bytes.  The
 * lowest layer of the format: the model (lay.c) and the CSV views
 * (lay_view.c) both call it, and it calls neither.
 */
#include <stdint.h>
#include <string.h>

#include "gfs_rd.h"
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
