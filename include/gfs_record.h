/*
 * gfs_record.h - the record codec: a record kind is a table, not code.
 * This header is its field language and INI face; gfs_layout.h adds the
 * CSV face, records sized by the caller, and groups that grow or shrink.
 *
 * A record kind (struct gfs_record) lists its fields: where each lives in
 * the record's bytes, how wide it is, how it shows as text.  One renderer
 * writes any record as INI:
 *
 *   COMMENT                    (the table's comment lines, verbatim)
 *   [SECTION]
 *   key = value                (every field of the table, in table order)
 *
 *   [ELEMENT 0]                (each repeated group, one section an element)
 *   key = value
 *
 * and one parser reads such a view back into a copy of the original bytes,
 * patching only the fields whose text changed: bytes no field covers
 * (padding, unknown bits of a bit field, bytes after the record) stay as
 * they were, so a view written back unchanged gives the same bytes.
 *
 * Layout, in byte order: the fixed part is rec->size bytes; each GROUP,
 * PART and CSTR field (at most 16) sits right after the one before it, in
 * table order.
 * A PART is width bytes whose fields (part->group's, at offsets inside it)
 * show as fields of the fixed part, at the PART's place in the table (its
 * section, if any, opens before its first field).  A group's elements are
 * group->size bytes each (and their lists), or, with size_width, exactly the value of the fixed part's field of size_width
 * bytes at size_off (a row of a width x height mask: the elements of such
 * a group are all as long, and a view sets that field), or, with
 * size_mul_width too, that value times the field of size_mul_width bytes at
 * size_mul_off (a width x height plane: a view gives elements that long).  What follows the
 * last part is kept as trailing bytes.  A group's count lives in a field
 * (count_width bytes at count_off) of the fixed part, or, with count_in k,
 * of the k-th GROUP, PART or CSTR (from 1, before it); or it is fixed
 * (count_width 0, count_off elements); or, with GFS_FF_TOEND, the elements
 * run to the end of the bytes (elements that fit; then trailing bytes); or,
 * with mul_width, it is the product of that count and the field of
 * mul_width bytes at mul_off in the same place (width x height: a view
 * gives exactly as many elements as the two fields it leaves or sets say,
 * and such a group is not resized by count).  A
 * variable group has as many elements as the view has sections [ELEMENT 0]
 * ... [ELEMENT N-1] (in order); when that count changes the record is laid
 * out anew: kept elements keep their bytes, new ones start as zeros.  A
 * group's min is the fewest elements a view may leave (a record that had
 * fewer and keeps its count passes).  An element section counts when it
 * has a key line.  Groups are one level deep.  The view shows the groups
 * by their view rank (lowest first), in table order among equals.
 *
 * An element of a group may end in lists (GFS_FK_LIST, off = the element's
 * size): count_width bytes at count_off of the element count a list's
 * items, each an element of the record group; the lists follow the
 * element's fixed part one after another, in field order (the first at
 * off, each other where the one before it ends).  A list renders on one
 * line, "key = 1,2 3,4" (items apart by spaces, the fields of an item by
 * commas), and an element spans its size plus the items of all its lists.
 * A list written anew replaces all its items (and moves the lists after
 * it); the other lists keep theirs.
 *
 * A field of the fixed part may open a new section (field->section): it and
 * the fields after it render under "[section]" after a blank line, and the
 * parser looks a key up in the section it was rendered in; field->note
 * renders as a "; note" line above its key.
 *
 * A part may also be a CSTR (text up to a NUL, shown verbatim as one
 * "key = text" line: printable UTF-8 without a blank at either end; a view
 * writes 1 to max bytes, max 0: any), or a GROUP shown at its place among
 * the fields instead of in sections of its own: GFS_FF_LINE, all elements
 * on one line, "key = 1 2 3" (elements apart by spaces, the fields of one
 * by commas; an element of one field also takes commas between elements;
 * a fixed count, count_width 0, the view must keep); or GFS_FF_LINES, one
 * line an element, "key = f1 f2" (fields apart by spaces or commas), its
 * note above all of them (no line: no elements).  Such an element (at most 8 fields)
 * may leave out its fields flagged GFS_FF_OPTIONAL (they are then 0); a new
 * element starts from the old one at its place (else zeros).  A key is
 * given once in a view (a key of an element section, once in that
 * element's lines; a LINES key, a line an element); a key flagged
 * GFS_FF_NEED left out fails too ("VIEW: [SECTION] KEY missing").
 *
 * Values: numbers are decimal (0x hex accepted); GFS_FK_HEX renders 0x and
 * two digits a byte; GFS_FK_HEXZ renders bare digit pairs without the
 * trailing zero bytes (all zeros: an empty value, "key ="), and parses up
 * to width bytes, the rest zeros; GFS_FK_PSTR renders "quoted" text with
 * \" and \\ escaped, each byte as the code point charset[] gives it (a
 * control character as \xNN, which a quoted value may also write; with
 * GFS_FF_ASCII every byte outside printable ASCII, quoted or bare), and
 * parses quoted or bare text back (a string equal to the current one
 * leaves stale bytes after its length alone); GFS_FK_ENUM renders names[v]
 * when there is one; GFS_FK_STR and GFS_FK_BYTES render bytes escaped
 * (\n, \\, \xNN for control and non-ASCII bytes, \x20 for a blank at
 * either end, which a view's parser would trim); GFS_FK_F32 renders %.9g
 * (read back to the same bits), NaN and infinity as 0x and the 8 hex digits
 * of their bits (read back as those bits); GFS_FF_TIME, GFS_FF_CODE and
 * GFS_FF_HEXDIGITS are said above; GFS_FK_REF goes through
 * the caller's reference callbacks (a name lookup, say).  The parser checks every value
 * against the field's range and fails with -EINVAL after gfs_err():
 * "VIEW: line N: KEY: what is wrong".  Unknown sections and keys fail the
 * same way; a key left out keeps its bytes.
 *
 * Tagged elements: a GROUP with variants has elements whose layout follows
 * their tag, the first field of group (at the same place in every variant,
 * whose tables list that field too): the element is variants[tag] (its
 * fixed part and its lists; no such table: the record does not fit).  It
 * shows as group, one table for all (group: numbers only, no lists): each
 * field takes the value of the variant's field of its key, and shows 0
 * where the variant has none.  Parsed back, the element is laid out anew
 * for the tag the view says: its fixed part (the old one when the tag did
 * not change, else zeros) takes the view's values, a view field the variant
 * lacks must be 0 ("VIEW: [SECTION N]: " and its why), and each list of the
 * variant (shown nowhere: a format reaches it with gfs_record_items())
 * keeps the items of the old element's list of its key, or starts with min
 * items (zeros); a list the new variant lacks must be empty (its why).  The
 * old element is the one at the same place, or, when the number of
 * elements changed, the first unused one whose match field is the same.
 */
#ifndef GFS_RECORD_H
#define GFS_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include "gfs_buf.h"

struct gfs_archive;

enum gfs_fkind {
	GFS_FK_UINT,		/* unsigned integer */
	GFS_FK_SINT,		/* two's complement integer of its width (or bits) */
	GFS_FK_HEX,		/* unsigned, rendered 0x with two digits a byte */
	GFS_FK_ENUM,		/* unsigned, rendered by name where names[] has one */
	GFS_FK_REF,		/* unsigned, rendered and parsed by struct gfs_rec_refs */
	GFS_FK_STR,		/* width bytes of NUL-padded text */
	GFS_FK_BYTES,		/* exactly width bytes */
	GFS_FK_GROUP,		/* a repeated group of elements (struct gfs_record group) */
	GFS_FK_PSTR,		/* Pascal string: a length byte at off, then up to width characters */
	GFS_FK_HEXZ,		/* width bytes as hex digit pairs, trailing zero bytes left out */
	GFS_FK_LIST,		/* group elements only: items on one line, the element's last bytes */
	GFS_FK_F32,		/* IEEE single (4 bytes), %.9g: reads back to the same bits */
	GFS_FK_PART,		/* a fixed block of width bytes after the part before it (group: its fields) */
	GFS_FK_CSTR,		/* text up to a NUL (the NUL is part of it), after the part before it */
};

#define GFS_FF_RO	0x1u	/* read-only: the view must repeat the value */
#define GFS_FF_IGNORE	0x2u	/* shown, but what the view says is ignored (recomputed) */
#define GFS_FF_TIME	0x4u	/* SINT: seconds since 1970, "; key YYYY-MM-DDTHH:MM:SSZ" above the key */
#define GFS_FF_CODE	0x8u	/* BYTES: the characters (printable ASCII, no blank, not "0x..."), else 0x hex */
#define GFS_FF_HEXDIGITS 0x10u	/* BYTES: exactly 2 x width hex digits, no 0x */
#define GFS_FF_BLANK0	0x20u	/* a number 0 shows as nothing, and nothing is 0 */
#define GFS_FF_HIDDEN	0x40u	/* in a struct gfs_layout: bytes kept, shown nowhere (no key) */
#define GFS_FF_TOEND	0x80u	/* GROUP: as many elements as the bytes after it hold (the last
				   group; no count field); LIST: the items fill the element */
#define GFS_FF_LINE	0x100u	/* GROUP: its elements on its key's line, "key = 1 2 3" */
#define GFS_FF_LINES	0x200u	/* GROUP: a "key = f1 f2" line an element (none: no elements) */
#define GFS_FF_OPTIONAL	0x400u	/* a field of a LINE(S) element that a line may leave out (then 0) */
#define GFS_FF_NEED	0x800u	/* not a LINES GROUP: a view must give the key */
#define GFS_FF_ASCII	0x1000u	/* PSTR: a byte outside printable ASCII shows as \xNN, and only
				   \xNN writes one (OHRRPGCE's text rule; no code page) */
#define GFS_FF_POSITIVE	0x2000u	/* GROUP, LIST: the count field is signed and counts only when
				   > 0, else no elements (ZZT's code length, negative for a bind) */

struct gfs_record;

struct gfs_field {
	const char *key;
	enum gfs_fkind kind;
	unsigned off;		/* byte offset in the fixed part (or in one element) */
	unsigned width;		/* bytes: 1, 2, 3, 4 or 8 for numbers; STR, BYTES: the length */
	unsigned shift, bits;	/* a bit field of the width (bits 0: all of it); with get/set: its bits */
	int64_t min, max;	/* accepted range; both 0: all the width (or bits) holds */
	unsigned flags;		/* GFS_FF_* */
	const char *const *names;	/* ENUM: names[v], NULL-terminated */
	int ref;		/* REF: which kind of reference, for the callbacks */
	/* a number spread over several places: read and write it here instead */
	uint64_t (*get)(const uint8_t *rec);
	void (*set)(uint8_t *rec, uint64_t v);
	/* GROUP */
	const struct gfs_record *group;
	unsigned count_off, count_width;	/* the count field; width 0: count_off fixed */
	unsigned count_in;	/* 0: the count field is in the fixed part; k: in the k-th GROUP, PART or CSTR */
	unsigned size_off, size_width;	/* width not 0: each element is as long as this fixed field says */
	unsigned mul_off, mul_width;	/* width not 0: the count times this field (width x height) */
	unsigned view;		/* its rank in the view (groups of rank 0 first), not its place in bytes */
	/* fixed part only: a new [section] from this field on (fields after it stay in it) */
	const char *section;
	const char *note;	/* rendered as "; note" above the key */
	const uint16_t *charset;	/* PSTR: code point of each byte (NULL: Latin-1) */
	const char *want;	/* REF, LIST, CSTR, LINE(S): what the value must be, for messages */
	const char *why;	/* GROUP, PART, CSTR: what gfs_record_span_why() says when it does not fit;
				   a field of a tagged view, a variant's LIST: why it must be 0, empty */
	/* in a struct gfs_layout only (gfs_layout.h): the field repeat times, stride bytes apart,
	   its key's %u counting from repeat_base */
	unsigned repeat, stride, repeat_base;
	/*
	 * GROUP, tagged elements (see "Tagged elements" below): group is their view, variants[v]
	 * the table of the bytes of an element whose tag is v; match names the field whose value
	 * an element's lists follow when elements came or went
	 */
	const struct gfs_record *const *variants;
	unsigned nvariants;
	const char *match;
	/*
	 * GROUP, LIST (added for ZZT): not 0: the count field is signed and the count is its value
	 * plus count_bias (ZZT stores its stat count minus one: 1); a negative count does not fit
	 */
	unsigned count_bias;
	/*
	 * Any kind: a value no kind shows (an IP address, say), its text written by fmt from the
	 * record at base and read back by scan into it (0, or -EINVAL with why); the faces call
	 * them as they would the kind's own (added for the TirNanoG save's deny.txt)
	 */
	int (*fmt)(const struct gfs_field *f, const uint8_t *base, struct gfs_buf *out);
	int (*scan)(const struct gfs_field *f, uint8_t *base, const char *text, char *why, size_t whysz);
	/* GROUP with size_width: each element the size field times this one (width x height) */
	unsigned size_mul_off, size_mul_width;
};

struct gfs_record {
	const char *section;	/* [section]; of a group: [section N] */
	const char *comment;	/* rendered before the first section, or NULL */
	size_t size;		/* bytes of the fixed part (of one element) */
	const struct gfs_field *fields;
	size_t nfields;
};

/*
 * The fields of a struct gfs_record initializer from a static array:
 *   static const struct gfs_record r = { .section = "s", .size = 4, GFS_FIELDS(r_fields) };
 */
#define GFS_FIELDS(a) .fields = (a), .nfields = sizeof(a) / sizeof((a)[0])

/* How GFS_FK_REF values show: fmt() writes v as text, parse() reads it back (0 or -EINVAL). */
struct gfs_rec_refs {
	int (*fmt)(void *ctx, int ref, uint64_t v, struct gfs_buf *out);
	int (*parse)(void *ctx, int ref, const char *text, uint64_t *v);
	const char *what;	/* what parse() wants, for messages */
	void *ctx;
};

/*
 * Bytes the record p[0..len) spans (fixed part and groups); 0 if it does
 * not fit, or if it is empty (a table with no fixed part and a GFS_FF_TOEND
 * group over no bytes), which the other calls take.
 */
size_t gfs_record_span(const struct gfs_record *rec, const uint8_t *p, size_t len);
/* The same; when 0, *why is the why of the part that does not fit ("record truncated" if none). */
size_t gfs_record_span_why(const struct gfs_record *rec, const uint8_t *p, size_t len, const char **why);
/*
 * Where things are, from the table: the GROUP, PART or CSTR key of rec in
 * the record p[0..len) starts at *at and holds *n elements (a PART or CSTR
 * one); NULL when rec has no such part or the record does not fit.  And
 * the field key of rec (its fixed part, or one element of a group), or
 * NULL.  (A format reads a value deep in a record without a hand-computed
 * offset.)
 */
const struct gfs_field *gfs_record_part(const struct gfs_record *rec, const uint8_t *p, size_t len,
					const char *key, size_t *at, size_t *n);
const struct gfs_field *gfs_record_field(const struct gfs_record *rec, const char *key);
/*
 * Element k of the GROUP key of rec in the record p[0..len) (one that fits):
 * *at, *n its bytes; its table (a tagged element's variant), or NULL.  And
 * the LIST key of the element e[0..elen) of table el: its items at *at,
 * *n of them; NULL when el has none or they do not fit.  The bytes of one
 * element of GROUP g at e[0..avail) (the record's fixed part at fixed),
 * 0 when it does not fit.
 */
const struct gfs_record *gfs_record_elem(const struct gfs_record *rec, const uint8_t *p, size_t len,
					 const char *key, size_t k, size_t *at, size_t *n);
const struct gfs_field *gfs_record_items(const struct gfs_record *el, const uint8_t *e, size_t elen,
					const char *key, size_t *at, size_t *n);
size_t gfs_record_elem_span(const struct gfs_field *g, const uint8_t *fixed, const uint8_t *e, size_t avail);
/*
 * A number field (not a GROUP, string or bytes) of the record or element
 * at base: its value as stored (unsigned, its bits only, through get/set
 * when it has them), and written in place (the other bits kept).  A format
 * reads and writes its records through its table, not at its own offsets.
 */
uint64_t gfs_field_get(const struct gfs_field *f, const uint8_t *base);
void gfs_field_set(const struct gfs_field *f, uint8_t *base, uint64_t v);
/*
 * The count of GROUP or LIST g whose count field is at base (the fixed part
 * or PART holding it, or an element): the stored value as count_bias and
 * GFS_FF_POSITIVE say, negative when it is (such a record does not fit).
 * And set it: the stored value becomes what counts n.
 */
int64_t gfs_record_count(const struct gfs_field *g, const uint8_t *base);
void gfs_record_count_set(const struct gfs_field *g, uint8_t *base, size_t n);
/* Append the INI view of p[0..len) to out; -EBADMSG when the record does not fit. */
int gfs_record_render(const struct gfs_record *rec, const uint8_t *p, size_t len,
		      const struct gfs_rec_refs *refs, struct gfs_buf *out);
/*
 * Parse the INI view data[0..len) against the record old[0..oldlen) into
 * out (appended): old with the changed fields patched, relaid when a
 * group's count changed.  refs may be NULL when the table has no REF field.
 */
int gfs_record_parse(struct gfs_archive *ar, const char *view, const struct gfs_record *rec,
		     const uint8_t *old, size_t oldlen, const uint8_t *data, size_t len,
		     const struct gfs_rec_refs *refs, struct gfs_buf *out);

/*
 * The escaping of GFS_FK_STR and GFS_FK_BYTES, for other one-line text
 * views: \n, \\ and, with esc_all, \xNN for bytes below 0x20 and from 0x7f
 * (else only control bytes other than tab).  Unescape fails with -EINVAL.
 */
int gfs_text_escape(struct gfs_buf *out, const uint8_t *p, size_t n, int esc_all);
int gfs_text_unescape(const char *s, size_t n, struct gfs_buf *out);

/* The byte charset[] (NULL: Latin-1) shows as code point cp, or -1. */
int gfs_charset_byte(const uint16_t *charset, uint32_t cp);

/*
 * The text of GFS_FK_HEXZ, for other views: p[0..width) as hex digit pairs
 * without the trailing zero bytes; parse takes up to width bytes (0x
 * allowed), zero-fills the rest, -EINVAL on anything else.
 */
int gfs_hexz_render(struct gfs_buf *out, const uint8_t *p, size_t width);
int gfs_hexz_parse(const char *v, uint8_t *p, size_t width);


/*
 * Calls fn with every number field of the record p[0..len) (UINT, SINT,
 * HEX, ENUM, REF; those of list items too) and its value, the fixed part
 * first, then each group's elements in order; stops at fn's first non-zero
 * return and returns it.  -EBADMSG when the record does not fit.  (To find
 * what refers to something without rendering every record.)
 */
int gfs_record_each(const struct gfs_record *rec, const uint8_t *p, size_t len,
		    int (*fn)(void *ctx, const struct gfs_field *f, uint64_t v), void *ctx);

#endif
