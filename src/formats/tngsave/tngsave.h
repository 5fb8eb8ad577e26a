/*
 * tngsave.h - private model of the TirNanoG saved game driver.
 *
 * Files, each calling only the ones below it (no circles): tngsave.c (load,
 * save, the tree), tsv_views.c (every view), tsv_model.c (chunk bodies,
 * the tables of the USER and NPC records, layer RLE, which view a chunk
 * gets).
 *
 * The save is small (the payload is capped at TSV_PAYLOAD_MAX), so load()
 * inflates the whole payload and keeps every chunk body in memory.  Views
 * render from those bodies and store() replaces a body with the bytes it
 * parsed; a chunk whose body did not change keeps its exact bytes, and a
 * save whose chunks did not change copies the compressed payload verbatim.
 */
#ifndef TNGSAVE_H
#define TNGSAVE_H

#include "gfs_driver.h"
#include "gfs_record.h"

/* file header */
#define TSV_MAGIC		"TNG Saved Game\n"	/* + NUL: 16 bytes */
#define TSV_MAGIC_LEN		16
#define TSV_GAMEID_OFF		16
#define TSV_GAMEID_LEN		16
#define TSV_HDR_LEN		32
#define TSV_CRC_LEN		4

/* chunks: magic, size including this header */
#define TSV_CHUNK_HDR		8

/* PRVW chunk, offsets from the chunk start */
#define TSV_PRVW_TIME		8
#define TSV_PRVW_RES		12
#define TSV_PRVW_RESLEN		18
#define TSV_PRVW_DIM		30
#define TSV_PRVW_DATA		32
#define TSV_PREVIEW_DIM		256
#define TSV_PREVIEW_PIXELS	(TSV_PREVIEW_DIM * TSV_PREVIEW_DIM)
#define TSV_PREVIEW_BYTES	(TSV_PREVIEW_PIXELS * 2)

/* USER body (offsets from the end of the chunk header) */
#define TSV_USER_HASH		0
#define TSV_USER_HASHLEN	32
#define TSV_USER_DATES		32	/* created, login, logout, seen: u64 each */
#define TSV_USER_LANG		64
#define TSV_USER_FLAGS		66
#define TSV_USER_NUMCHAR	67
#define TSV_USER_NAME		68
#define TSV_USER_SLOTS		32	/* equipped objects and belt: 32 x u16 */
#define TSV_USER_NAME_MAX	255

/* NPC body */
#define TSV_NPC_ENTITY		8

/* entity block */
#define TSV_ENT_FIXED		22

/* DENY records */
#define TSV_DENY_REC		17
#define TSV_AF_INET		2
#define TSV_AF_INET6		10

/* MAP body: map id, then RLE of u16 values */
#define TSV_MAP_RLE		4
#define TSV_MAP_MAX_VALUES	(4u << 20)	/* 2048 x 2048 */

#define TSV_PAYLOAD_MAX		(64u << 20)
#define TSV_PRVW_MAX		(1u << 20)	/* a deflated 128 KiB image is never larger */

enum tsv_kind { TSV_RAW, TSV_GLBL, TSV_QSTS, TSV_USER, TSV_NPC, TSV_MAP, TSV_DENY };

struct tsv_chunk {
	uint8_t magic[4];
	enum tsv_kind kind;		/* the view it has (TSV_RAW: shown raw) */
	size_t index;			/* position in the payload */
	uint64_t pay_off;		/* offset in the inflated payload at load */
	struct gfs_buf body;		/* current body, without the 8-byte header */
	int changed;			/* body differs from the committed file */
	int renamed;			/* USER name edited: rename its directory */
	const char *why_raw;		/* why a known chunk is shown raw */
	struct gfs_node *node;
};

struct tsv_save {
	uint8_t gameid[TSV_GAMEID_LEN];
	int gameid_changed;

	/* the preview chunk, outside the compressed payload */
	int has_prvw;
	int prvw_ok;			/* decoded; else shown raw */
	const char *prvw_why;
	uint64_t prvw_off, prvw_size;	/* the chunk in the file */
	uint32_t played;
	uint8_t reserved[TSV_PRVW_RESLEN];
	uint16_t dim;
	enum gfs_zwrap prvw_wrap;
	uint16_t *pix;			/* TSV_PREVIEW_PIXELS, when prvw_ok */
	struct gfs_buf prvw_raw;	/* body after the header, when !prvw_ok */
	int prvw_hdr_changed, prvw_pix_changed;

	/* the compressed payload and its CRC */
	uint64_t pay_off, pay_clen;
	size_t pay_len;			/* inflated */
	enum gfs_zwrap wrap;
	int crc_compressed;		/* the CRC covers the compressed bytes */
	int crc_ok;
	uint32_t crc_stored, crc_inflated, crc_deflated;
	uint64_t tail_off, tail_len;	/* bytes after the CRC, kept */

	struct tsv_chunk **chunks;
	size_t nchunks;
	int removed;			/* a chunk was deleted since the last commit */

	/* where save() put things, adopted by committed() */
	uint64_t new_prvw_off, new_prvw_size, new_pay_off, new_pay_clen, new_tail_off;
	uint32_t new_crc;
	int new_pay_rebuilt;

	struct gfs_node *users, *npcs, *maps, *chunksdir;
};

/* tsv_model.c: the model */
/* The USER and NPC records: tables of the record codec (gfs_record.h). */
extern const struct gfs_record tsv_user_rec, tsv_npc_rec;
/* gfs_format.layout(): USER, then NPC, then NULL. */
const struct gfs_record *tsv_layout_nth(size_t i);
/* A MAP layer's values; *vals is malloc'd (NULL if none). */
int tsv_rle_decode(const uint8_t *p, size_t len, uint16_t **vals, size_t *count);

/* tsv_views.c: every view */
extern const struct gfs_node_ops tsv_header_ops, tsv_png_ops, tsv_pini_ops, tsv_praw_ops;
extern const struct gfs_node_ops tsv_list_ops, tsv_user_ops,
	tsv_npc_ops, tsv_map_ops, tsv_raw_ops;
/* deny.txt's element: an address (the fuzz target drives it too) */
extern const struct gfs_record tsv_addr_rec;
/* Decide the view of c (sets c->kind, c->why_raw); 0 or -ENOMEM. */
int tsv_chunk_classify(struct tsv_chunk *c);
/* The user name of a USER chunk that classified as TSV_USER (malloc'd). */
char *tsv_user_name(const struct tsv_chunk *c);
/* Replace c's body with new bytes if they differ. */
int tsv_chunk_set_body(struct tsv_chunk *c, const uint8_t *data, size_t len);

#endif
