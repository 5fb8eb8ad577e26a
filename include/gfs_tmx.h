/*
 * gfs_tmx.h - the format-independent pieces of a TMX map (Tiled's XML):
 * attribute text out, and on the way back a layer's <data> (CSV, <tile>
 * elements, or base64 plain, zlib or gzip, as Tiled writes them) as gids,
 * a tileset's name (inline, or the file name of an external .tsx).
 *
 * Failures are -EINVAL after gfs_err() with "VIEW: line N: what", VIEW
 * the name of the node written.
 */
#ifndef GFS_TMX_H
#define GFS_TMX_H

#include <stddef.h>
#include <stdint.h>
#include "gfs_buf.h"
#include "gfs_driver.h"
#include "gfs_xml.h"

/* s[0..len) as XML attribute text: the five entities; bytes outside printable ASCII as \xHH */
int gfs_tmx_attr(struct gfs_buf *out, const char *s, size_t len);
/* An attribute as an unsigned decimal number; -1 when absent or not one. */
long gfs_tmx_num(const struct gfs_xml_el *e, const char *name);
/* gfs_err(ar, -EINVAL, "VIEW: line N: ...") for element e. */
int gfs_tmx_err(struct gfs_archive *ar, const char *view, const struct gfs_xml_el *e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * The name a <tileset> goes by: its name attribute, else the base name of
 * its source file without the extension ("../ts/walls.tsx": "walls"),
 * copied into buf; NULL when it has neither (or the name does not fit).
 */
const char *gfs_tmx_tileset_name(const struct gfs_xml_el *e, char *buf, size_t size);
/* The gids of a <data> element, exactly cells of them, into gids[cells]. */
int gfs_tmx_data(struct gfs_archive *ar, const char *view, const struct gfs_xml_el *d, size_t cells,
		 uint32_t *gids);
/*
 * The gids of tile layer e (named name for messages), which must be w x h:
 * its <data> (after optional <properties>), finite (no chunks), with no
 * flipped or rotated tile.
 */
int gfs_tmx_layer(struct gfs_archive *ar, const char *view, const struct gfs_xml_el *e, const char *name,
		  unsigned w, unsigned h, uint32_t *gids);

#endif
