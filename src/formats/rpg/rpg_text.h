/*
 * rpg_text.h - text fields of OHRRPGCE records, the name lists over them
 * and the text boxes (rpg_text.c): below the views that list them
 * (rpg_views.c), the records that name what they refer to (rpg_records.c)
 * and the new records (rpg_grow.c), which all use them.
 */
#ifndef GFS_RPG_TEXT_H
#define GFS_RPG_TEXT_H

#include "rpg.h"

enum { TS_BAD, TS_BIN, TS_BYTE, TS_PAD };	/* int16 len + int16 chars, int16 len + bytes, u8 len + bytes, NUL-padded */

struct rpg_tfield {
	unsigned style, lenoff, dataoff, max;
};

struct rpg_namelist {
	const char *lump;	/* ".ITM": archinym + this; "BROWSE.TXT": the whole name */
	const char *view;	/* file name */
	int binsize_idx;	/* -1: fixed size */
	unsigned recsize;	/* fixed size, or the legacy one */
	struct rpg_tfield f;
};

#define SAY_LINES 8
#define SAY_LINE_LEN 38
#define SAY_MIN 400

/* Bytes of the field's live text into out (length clamped to max, as the engine does). */
size_t rpg_tf_get(const struct rpg_tfield *f, const uint8_t *rec, uint8_t *out);
/* Rewrite the field engine-style: length, text, zeros to the maximum. */
void rpg_tf_put(const struct rpg_tfield *f, uint8_t *rec, const uint8_t *s, size_t n);
/* The byte after the field's last (its length word's included). */
unsigned rpg_tf_end(const struct rpg_tfield *f);
/* s[0..n) escaped as the views show text: printable ASCII, \\, \xHH. */
int rpg_put_text(struct gfs_buf *b, const uint8_t *s, size_t n);
/* Unescape [s, e) into out (at most max bytes); -1 bad escape/byte, -2 too long. */
int rpg_get_text(const char *s, const char *e, uint8_t *out, size_t max, size_t *n);
/* The name list of l (names/items.txt ...), or NULL. */
const struct rpg_namelist *rpg_namelist_of(struct rpg_model *m, const struct rpg_lump *l);
/* Its record size: BINSIZE.BIN's, else the legacy one. */
unsigned rpg_nl_recsize(struct gfs_archive *ar, const struct rpg_namelist *d);
/* A text box's record size (BINSIZE.BIN's, else 400). */
unsigned rpg_say_recsize(struct gfs_archive *ar);

#endif
