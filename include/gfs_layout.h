/*
 * gfs_layout.h - a record layout declared once, and its two text faces.
 *
 * A layout is the table of struct gfs_field (gfs_record.h): each field's
 * offset, width, kind and range.  Everything else is derived from that one
 * table: the bytes a record spans, the INI face (gfs_record.h), the CSV
 * face below, and growing or shrinking a counted group.  Bytes no field
 * covers survive every face; a field whose text did not change is not
 * written.
 *
 * The CSV face shows an array of records of one layout, one element a row
 * (a stat, a sprite, a chunk), in the one CSV dialect of gfs_grid.h:
 *
 *   INDEX,key1,key2,...        header: the index column, then each field's key
 *   0,v1,v2,...                row N is element N (the index repeats N)
 *
 * Calling sequence (as git's lockfile.h: prepare, then commit or drop):
 *
 *   1. Declare the element: a struct gfs_record whose fields are the
 *      columns (in view order) and a struct gfs_table around it.
 *   2. Render: gfs_table_render(t, bytes, n, refs, &out) with the n
 *      elements laid out one after another (t->rec->size bytes each, or
 *      t->stride apart).
 *   3. Store: gfs_table_parse(ar, view, t, old, oldn, data, len, refs,
 *      ctx, &out, &n) appends the new elements to out and sets n.  Element
 *      i starts as old element i (new ones as zeros) and gets only the
 *      fields whose text changed; then t->check(ctx, ...) sees every row
 *      and may refuse one with a reason.  On failure nothing is appended
 *      that the caller must keep: drop out; the model is untouched.
 *   4. Commit: the caller adopts out as its elements (and sets its count,
 *      or lets the count field of an enclosing record follow with
 *      gfs_record_resize()).
 *
 *   A lump whose element count never changes is stored in place instead:
 *   gfs_table_patch() on a copy of its bytes, which the caller keeps or
 *   drops.  Only it reads a table whose elements overlap (t->stride) or a
 *   slot array (t->used).
 *
 * Every refusal is -EINVAL after gfs_err(), written once here:
 *   "VIEW: line N: 3 values, want 15"             (row shape)
 *   "VIEW: line N, column 1 (stat): want 4 (rows stay in order; ...)"
 *   "VIEW: line N, column C (KEY): what is wrong" (a value)
 *   "VIEW: line N: what check() said"             (a row the format refuses)
 *   "VIEW: N rows, at most MAX"                   (too many)
 */
#ifndef GFS_LAYOUT_H
#define GFS_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include "gfs_buf.h"
#include "gfs_record.h"

struct gfs_archive;

/* Room for the reason gfs_field_scan() and check() give. */
#define GFS_WHY_MAX 512

/*
 * One field of the record at base as text (what both faces show): numbers
 * by kind, strings escaped, references through refs.  Appends to out.
 */
int gfs_field_render(const struct gfs_field *f, const uint8_t *base,
		     const struct gfs_rec_refs *refs, struct gfs_buf *out);
/*
 * Parse value into the field of base.  A value whose text equals what the
 * field shows now changes no byte.  Returns 0, -ENOMEM, or -EINVAL with
 * why (what is wrong, without the view, line or key).  tmp is scratch.
 */
int gfs_field_scan(const struct gfs_field *f, uint8_t *base, const char *value,
		   const struct gfs_rec_refs *refs, struct gfs_buf *tmp, char *why, size_t whysz);

/*
 * Lists grow and shrink: the record old[0..oldlen) with its group g (a
 * GROUP field of rec, counted by a field) holding n elements, appended to
 * out.  Kept elements keep their bytes, new ones are zeros, the count field
 * says n, and the bytes after the record stay.  -EINVAL when g has a fixed
 * count or a product count (mul_width: which factor would change?) or n
 * does not fit its count field, -EBADMSG when old does not fit
 * rec.
 */
int gfs_record_resize(const struct gfs_record *rec, const struct gfs_field *g, const uint8_t *old,
		      size_t oldlen, size_t n, struct gfs_buf *out);

/*
 * A record declared once for any record size (a size the caller gives,
 * such as OHRRPGCE's BINSIZE): its fields in any order, each at a fixed
 * offset, a field with repeat n standing n times stride bytes apart (a %u
 * in its key counts 0..n-1 (from repeat_base, if set); its note shows above the first), GFS_FF_HIDDEN
 * bytes kept with no key; every unit of filler_width bytes that no field
 * covers is a filler field named PREFIX and its index plus filler_base
 * (filler_digits wide: "w07").  A field that runs past the size is left
 * out (its bytes become fillers).  gfs_layout_table() lays it out for size
 * bytes as a plain struct gfs_record in byte order, which both faces take;
 * release it with gfs_layout_table_release().
 */
struct gfs_layout {
	const char *section;		/* [section] */
	const char *comment;		/* rendered before it, or NULL */
	const struct gfs_field *fields;
	size_t nfields;
	const char *filler_prefix;	/* "w" */
	unsigned filler_digits;		/* 2 */
	unsigned filler_width;		/* bytes a filler covers (its index counts these) */
	enum gfs_fkind filler_kind;	/* UINT, SINT or HEX */
	unsigned filler_base;		/* added to a filler's index in its key */
	unsigned flags;			/* GFS_LAYOUT_* */
};

/*
 * The fields in table order (view order), not byte order, and no fillers:
 * bytes no field covers are kept unnamed.  A field left out (past the
 * size) hands its section on to the next field kept.
 */
#define GFS_LAYOUT_INORDER 0x1u
/*
 * Every bit of the size bytes is a field of one bit (a set of flags): a
 * named one where a field has its bit (off * 8 + shift, bits 1), the
 * others fillers named by the bit's index (filler_kind; filler_width is
 * not used).
 */
#define GFS_LAYOUT_BITS 0x2u

#define GFS_LAYOUT_KEY 32
struct gfs_layout_table {
	struct gfs_record rec;		/* what the faces take */
	struct gfs_field *f;		/* owned */
	char (*keys)[GFS_LAYOUT_KEY];	/* owned */
};

int gfs_layout_table(const struct gfs_layout *l, size_t size, struct gfs_layout_table *t);
void gfs_layout_table_release(struct gfs_layout_table *t);

struct gfs_table {
	const char *index;		/* the first column's name ("stat", "index") */
	const struct gfs_record *rec;	/* one element: rec->size bytes; each field a column */
	size_t max;			/* most rows */
	size_t min_cols;		/* a row may leave out the columns after this many
					   (as if empty); 0: every row has them all */
	/*
	 * Called for each parsed row i of n with its new bytes and the old
	 * element (NULL for a new row): 0, or -EINVAL with why.  May be NULL.
	 */
	int (*check)(void *ctx, size_t i, size_t n, uint8_t *elem, const uint8_t *old,
		     char *why, size_t whysz);
	/*
	 * Bytes from one element to the next (0: rec->size).  Elements may
	 * overlap: an array of int16 arrays (one a column) is elements 2
	 * bytes apart, field c at c times its array's bytes.
	 */
	size_t stride;
	/*
	 * A slot array (NULL: every element is a row): used(elem) says
	 * whether an element holds something.  See gfs_table_patch().
	 */
	int (*used)(const uint8_t *elem);
	/*
	 * Called for column c (from 0, the index column not counted) of each
	 * parsed row, in column order after the whole row is read, with the
	 * new element and the old one (NULL for a new row): 0, or -EINVAL with
	 * why, shown as "VIEW: line N, column C (KEY): why".  May be NULL.
	 */
	int (*check_cell)(void *ctx, size_t c, const uint8_t *elem, const uint8_t *old,
			  char *why, size_t whysz);
};

/* Append the CSV view of the n elements at p (stride apart; with used(), the used ones) to out. */
int gfs_table_render(const struct gfs_table *t, const uint8_t *p, size_t n,
		     const struct gfs_rec_refs *refs, struct gfs_buf *out);
/* See the calling sequence above. */
int gfs_table_parse(struct gfs_archive *ar, const char *view, const struct gfs_table *t,
		    const uint8_t *old, size_t oldn, const uint8_t *data, size_t len,
		    const struct gfs_rec_refs *refs, void *ctx, struct gfs_buf *out, size_t *n);

/*
 * Store in place (a lump whose element count never changes): the view
 * data[0..len) into the n elements at p, only the fields whose text
 * changed.  Row i is element i and the view keeps n rows ("VIEW: N rows,
 * want n").  With t->used, a slot array: the view lists the used elements,
 * its index naming the slot (0..n-1, once: "this slot has a row already");
 * an empty index takes the first slot that was not used and no row names
 * ("no free slot left"); a used slot no row names is cleared (its fields'
 * bytes zero).  Rows named by slot are read first.  check_cell() and
 * check() see each row with its old element.  Refusals as
 * gfs_table_parse()'s; on failure p may be partly patched: drop it.
 */
int gfs_table_patch(struct gfs_archive *ar, const char *view, const struct gfs_table *t, uint8_t *p, size_t n,
		    const uint8_t *data, size_t len, const struct gfs_rec_refs *refs, void *ctx);

/*
 * The lines face: a list shown one element a line, with no header and no
 * index (a save's globals.txt), each line the values of the element's
 * fields apart by commas.  Read back, a BOM, the blanks around a line,
 * blank lines and lines that start with '#' are skipped: gfs_lines_each()
 * calls line(ctx, text, lineno) with each other line (NUL-terminated,
 * trimmed; lineno from 1) and stops at its first non-zero return, which it
 * returns.  gfs_lines_parse() appends element i of the table t (old
 * element i, else zeros, with the values line i gives) to out and sets *n,
 * as gfs_table_parse() does; its refusals are -EINVAL after gfs_err():
 *   "VIEW: line N: 3 values, want 1"
 *   "VIEW: line N: KEY: what is wrong"
 *   "VIEW: line N: more than MAX values"
 */
int gfs_lines_each(const uint8_t *data, size_t len, int (*line)(void *ctx, char *text, unsigned lineno),
		   void *ctx);
int gfs_lines_render(const struct gfs_table *t, const uint8_t *p, size_t n,
		     const struct gfs_rec_refs *refs, struct gfs_buf *out);
int gfs_lines_parse(struct gfs_archive *ar, const char *view, const struct gfs_table *t,
		    const uint8_t *old, size_t oldn, const uint8_t *data, size_t len,
		    const struct gfs_rec_refs *refs, struct gfs_buf *out, size_t *n);

#endif
