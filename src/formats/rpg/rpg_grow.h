/*
 * rpg_grow.h - records added at the end of an OHRRPGCE game's record lumps
 * and the last one removed, as Custom does it (rpg_grow.c): the lump grows
 * by whole records of its BINSIZE size, with its companion lumps (DT6 with
 * ATTACK.BIN, 50 STF slots with a shop), and GEN's last-record field.
 */
#ifndef GFS_RPG_GROW_H
#define GFS_RPG_GROW_H

#include "rpg.h"

/* A GEN field as it was before a record was added (rm of that record puts it back). */
struct rpg_genundo {
	unsigned field;
	size_t rec;
	long before;
	int has_dox, has_map, has_mn;	/* a new map over records already there: them as they were */
	uint8_t dox[600], map[1024], mn[80];
};

/* create(): items/NNN.ini, textboxes/NNNN.txt ... with the next free number; 1 when dir is none of them. */
int rpg_grow_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out);
/* unlink() of a record's view: the last record removed (EPERM for the others); 1 when n is none. */
int rpg_grow_unlink(struct gfs_archive *ar, struct gfs_node *n);
/*
 * A name list (names/items.txt ...) written with lines past its last
 * record: b, the content of lump l, grows to want records (blank records,
 * Custom's defaults) or -EINVAL naming why not (view: the file's name).
 * Nothing else changes until rpg_grow_done().
 */
int rpg_grow_lines(struct gfs_archive *ar, const char *view, struct rpg_lump *l, size_t want, struct gfs_buf *b);
/* After l, grown by rpg_grow_lines(), was set: its companions, GEN and the new records' views (had: before). */
int rpg_grow_done(struct gfs_archive *ar, struct rpg_lump *l, size_t had);

/* Set l to b (released) when r is 0 and it changed; l->len follows (lumps change size here). */
int rpg_grow_set(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_buf *b, int r);
/* GEN field set to v for the new record rec (its old value kept for rpg_grow_gen_back()). */
int rpg_grow_gen(struct gfs_archive *ar, unsigned field, size_t rec, long v);
/* Record rec, the last, removed: the field as it was before rec was added, else rec - 1 when it was past. */
int rpg_grow_gen_back(struct gfs_archive *ar, unsigned field, size_t rec);

/*
 * reload/<view> (lump l) about to become the document bin: 0 when it holds
 * no new hero, 1 when HEROES.RELD holds heroes past .DT0's (the next
 * numbers: rpg_grow_reld_done() after it was set), -EINVAL naming why not.
 */
int rpg_grow_reld(struct gfs_archive *ar, struct rpg_lump *l, const uint8_t *bin, size_t len, const char *view);
/* .DT0 grown by Custom's blank heroes to what HEROES.RELD (l, just set) holds, GEN's last hero. */
int rpg_grow_reld_done(struct gfs_archive *ar, struct rpg_lump *l);

/* ---- rpg_newmap.c: maps/NN-name made, filled and removed; 1 when not a map's ---- */
int rpg_newmap_mkdir(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out);
int rpg_newmap_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out);
int rpg_newmap_unlink(struct gfs_archive *ar, struct gfs_node *n);
int rpg_newmap_rmdir(struct gfs_archive *ar, struct gfs_node *dir);

#endif
