/*
 * tng_rec.h - private to tng_records.c (the record tables) and tng_refs.c
 * (the tables' value callbacks): the offsets and references both use.
 */
#ifndef GFS_TNG_REC_H
#define GFS_TNG_REC_H

#include <stddef.h>
#include <stdint.h>
#include "gfs_buf.h"

#define OBJ_HDR		39
#define OBJ_SPRS	96
#define OBJ_W		3
#define OBJ_H		5
#define OBJ_NSND	34
#define OBJ_NREQ	35
#define OBJ_NMOD	36
#define OBJ_NSMOD	37
#define OBJ_SMOD	123
#define ALERTS_N	11
#define ALERTS_MIN	3
#define CREDITS_HDR	24
enum { AK_PRIMARY, AK_VAR, AK_CALC, AK_GVAR, AK_GCALC, AK_N };
#define NONE24		0xffffffu

/* How a REF field shows (struct gfs_field.ref). */
enum rref {
	RR_TEXT,	/* u24 text index */
	RR_SPR,		/* u8 category, u16 index */
	RR_PORTRAIT,	/* RR_SPR, or the player's portrait */
	RR_UISPR,	/* u16 index of a UI sprite */
	RR_TILESPR,	/* u16 index of a tile sprite */
	RR_OBJSPR,	/* u16 index of an object sprite (category 2, as in scripts) */
	RR_REL,		/* u8 relation */
	RR_COND,	/* chooser: u8 type, u24 attribute */
	RR_AREA,	/* chooser option: three UI sprites, or a rectangle */
	RR_INGR,	/* crafting ingredient: u16 quantity, u16 object sprite */
	RR_CREDIT,	/* u8 credits category letter */
	RR_AUTHOR,	/* a u24 string offset in a list: 0 as #0, not empty */
	RR_NAME = 0x100	/* | enum tngs_ref: a u24 string offset named in that kind */
};

/* The letters of the credits' categories (section 21). */
#define CREDIT_CATS "gcdafmsvtp"

/* struct gfs_rec_refs callbacks of every table (ctx: a const struct tngs_names *). */
int tng_ref_fmt(void *ctx, int ref, uint64_t v, struct gfs_buf *out);
int tng_ref_parse(void *ctx, int ref, const char *s, uint64_t *v);
/* A chooser option's area: the six bytes after its position, bit 48 set for a rectangle. */
uint64_t tng_area_get(const uint8_t *e);
void tng_area_set(uint8_t *e, uint64_t v);

#endif
