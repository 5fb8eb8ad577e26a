/*
 * rpg_resize.h - an OHRRPGCE map taking a new width and height (a map.tmx
 * of another size written into it: Tiled's "Save As", cp), as Custom's
 * resize does: the .T/.P/.E layers cut or padded at the right and bottom,
 * the .Z zone map's w and h (rpg_resize.c).
 */
#ifndef GFS_RPG_RESIZE_H
#define GFS_RPG_RESIZE_H

#include "rpg.h"

struct gfs_xml_el;
struct rpg_tmap;

#define RPG_MAP_MIN_W	16		/* the engine's smallest map (it clamps to it) */
#define RPG_MAP_MIN_H	10
#define RPG_MAP_MAX_WH	32767		/* int16 in the lumps' header */
#define RPG_MAP_MAX_TILES 1048576	/* w x h: 16 layers of it are 16 MiB of .T */

/* w x h within the limits above: 0, or -EINVAL naming them (view: the file written). */
int rpg_resize_ok(struct gfs_archive *ar, const char *view, long w, long h);
/*
 * The .Z zone map of map (when it has one) for a w x h map: *z set to its
 * lump and out to its new bytes, or -EINVAL when a zone has tiles the new
 * size would cut (zones.txt).  Nothing is set here.
 */
int rpg_resize_zones(struct gfs_archive *ar, const char *view, long map, unsigned w, unsigned h,
		     struct rpg_lump **z, struct gfs_buf *out);
/* The map's NPC instances and doors (those read) on a w x h map: 0, or -EINVAL */
int rpg_resize_objects(struct gfs_archive *ar, const char *view, const struct rpg_tmap *tm, unsigned w, unsigned h);
/* The game's tileset pages (.TIL: 320x200 bytes each) */
long rpg_resize_pages(struct gfs_archive *ar);
/* A map.tmx object's x or y attribute as a tile into *cell: 0, or -1 when it moved off the map (rpg_tiled.c) */
int rpg_resize_obj_cell(const struct gfs_xml_el *o, const char *attr, unsigned tiles, long cur, double shift,
			long *cell);

#endif
