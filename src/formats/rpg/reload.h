/*
 * reload.h - the RELOAD codec: OHRRPGCE's binary tree documents (.reld,
 * .rsav, .rgfx, zone maps and many lumps of a game) <-> a lossless text
 * form.  Pure byte functions: no archive, no nodes.
 *
 * The text form (documented in gamefs-formats(5)):
 *
 *   RELOAD 1
 *   names
 *     1 general_data          the string table, in stored order, unused
 *     2 "odd name"            names included; bare when identifier-like
 *   tree
 *   general_data              one node a line, two spaces a level
 *     version = 5             int (stored at the narrowest width)
 *     wide = 5:i32            int stored wider than it needs
 *     ratio = float:1.5       double (shortest exact decimal, or
 *     nan = float:0x7ff8000000000000   its bit pattern)
 *     title = "Baby \x01"     byte string: printable ASCII, \\ \" \n \t \xHH
 *     pixels = base64:AAEC    byte string, mostly binary and over 64 bytes
 *     flag                    null
 *     #0 = 3                  a name by its table index (0 = unnamed)
 *   end                       the last line: a text without it was cut short
 *                             (a writer killed half way) and is refused
 *
 * Node sizes, VLIs, the header and the table offset are derived.  A name
 * typed that the table lacks is appended to it (as the engine does).
 */
#ifndef GFS_RPG_RELOAD_H
#define GFS_RPG_RELOAD_H

#include <stddef.h>
#include <stdint.h>
#include "gfs_buf.h"

#define RELD_MAGIC "RELD"
#define RELD_MAX_DEPTH 256
#define RELD_END "end"		/* the text's last line */

/* Does the buffer start like a RELOAD document? */
int reld_magic(const uint8_t *p, size_t len);
/*
 * Binary document -> text (appended to out; out may be NULL to only
 * validate).  -EBADMSG with a message naming the byte offset in err when
 * the document is broken or not in the canonical form the engine writes
 * (padded VLIs, a gap before the string table, trailing bytes): the text
 * would not give the same bytes back.
 */
int reld_to_text(const uint8_t *bin, size_t len, struct gfs_buf *out, char *err, size_t errlen);
/* A node as reld_walk() meets it. */
struct reld_node {
	unsigned depth;			/* 0 for the root */
	const uint8_t *name;		/* into the document's string table (NULL: unnamed) */
	size_t namelen;
	unsigned type;			/* 0 null, 1-4 int, 5 double, 6 byte string */
	int64_t i;			/* an int's value */
	size_t off, len;		/* a byte string's bytes in the document */
};
/*
 * Visit every node of a canonical document in stored order (pre-order),
 * checking it as reld_to_text() does; a non-zero return of visit stops the
 * walk and is returned.
 */
int reld_walk(const uint8_t *bin, size_t len, int (*visit)(void *ctx, const struct reld_node *n), void *ctx,
	      char *err, size_t errlen);
/* Text -> binary document (appended to out); -EINVAL with "line N: ..." in err. */
int reld_from_text(const uint8_t *txt, size_t len, struct gfs_buf *out, char *err, size_t errlen);

#endif
