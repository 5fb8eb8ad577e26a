/*
 * A new map, as Custom's map editor adds one (mapsubs.bas mapedit_addmap,
 * new_blank_map, mapedit_savemap; specs/ohrrpgce-lumps.md 2 and 5):
 *
 *   mkdir maps/NN-name     map NN (the next free number, GEN's last map + 1)
 *   cp -r maps/00-town maps/NN-name   the same, then the copied files written into it
 *   rm -r maps/NN-name     the last map removed (no door link of another map leading to it)
 *
 * mkdir makes Custom's new blank map: <arch>.T/P/E of 64 x 64 tiles, one
 * layer, zero headers; .L (300 empty NPC slots, y+1 words 1; 5 or 6 arrays
 * as map 0's .L); .N with one NPC type (palette -1, speed 4); .D (the
 * engine's header, 200 links of source -1); .Z (an empty zone map) when the
 * game's maps have them; its MAP record (walkabout layering 2, walkabout
 * layer 1, tileset 0), its MN record (the name after "NN-"), its DOX record
 * (no doors; a pre-sized one with no door stays as it is, one with doors
 * is cleared as Custom does), and GEN's last map.  rmdir puts a pre-sized
 * DOX record back as it was before mkdir in the same mount, else zeros
 * (as a new game's pre-sized records are).
 * The folder starts empty: the map's files are made in it as they are
 * created (cp -r creates them exclusively), each empty until written.  A
 * layer file written first into a new folder sets that lump's size (the
 * map takes the size of the map copied), tiles-N.csv one past the last
 * adds a layer, npc-types.csv sets the number of NPC types.  Removing a
 * map's files only takes them off the folder; rmdir of the last map's
 * folder removes its lumps, its MAP, MN (and DOX past the 20 Custom
 * pre-sizes) records, and GEN's last map goes back.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpg_grow.h"
#include "rpg_tmap.h"
#include "reload.h"
#include "gfs_grid.h"

#define NM_W 64
#define NM_H 64
#define NM_MAX 32767
#define NM_MN 80
#define NM_DOX 600
#define NM_DOX_PRESIZED 20

static void nm_lumpname(struct rpg_model *m, long map, char letter, char *out, size_t n)
{
	if (map < 100)
		snprintf(out, n, "%s.%c%02ld", m->archinym, letter, map);
	else
		snprintf(out, n, "%ld.%c", map, letter);
}

static struct rpg_lump *nm_lump(struct rpg_model *m, long map, char letter)
{
	char nm[RPG_NAME_MAX + 48];

	nm_lumpname(m, map, letter, nm, sizeof(nm));
	return rpg_lump_named(m, nm);
}

/* The maps/ folder, and the map number a folder in it starts with (-1: none). */
static long nm_map_of_dir(struct gfs_archive *ar, struct gfs_node *dir)
{
	char *ep;
	long v;

	if (!dir || !dir->parent || dir->parent->parent != ar->root || strcmp(dir->parent->name, "maps") ||
	    !isdigit((unsigned char)dir->name[0]))
		return -1;
	v = strtol(dir->name, &ep, 10);
	return *ep && *ep != '-' ? -1 : v;
}

/* A new lump at the end of the archive holding b (taken). */
static struct rpg_lump *nm_new_lump(struct gfs_archive *ar, const char *name, struct gfs_buf *b, int kind)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *l = calloc(1, sizeof(*l));
	struct gfs_buf *d = gfs_buf_new();

	if (!l || !d || (b->len && gfs_buf_add(d, b->data, b->len)) || rpg_lump_append(m, l)) {
		free(l);
		gfs_buf_free(d);
		gfs_buf_release(b);
		return NULL;
	}
	gfs_buf_release(b);
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->data = d;
	l->len = d->len;	/* its size now; its place in the file after the commit */
	l->kind = kind;
	if (!(l->node = gfs_node_new_file(ar, m->lumpdir, name, 0644, &rpg_lump_ops, l))) {
		m->n--;
		gfs_buf_free(d);
		free(l);
		return NULL;
	}
	return l;
}

/* Lump <arch>suffix of records of rs bytes, read into b: 1, 0 when the game has none, or -errno. */
static int nm_arch_read(struct gfs_archive *ar, const char *suffix, size_t rs, struct rpg_lump **l,
			struct gfs_buf *b)
{
	struct rpg_model *m = ar->priv;
	char nm[RPG_NAME_MAX + 8];
	int r;

	snprintf(nm, sizeof(nm), "%s%s", m->archinym, suffix);
	if (!(*l = rpg_lump_named(m, nm)) || rs < 2)
		return 0;
	return (r = rpg_lump_read(ar, *l, b)) ? r : 1;
}

/*
 * Record map of a game-wide lump (MAP, MN, DOX) set to rec, padded with
 * zeros up to it; old (when not NULL) gets the record that was there, *had 1.
 * rec NULL: the record dropped when it is the last (DOX: past the
 * pre-sized ones, which are zeroed instead).
 */
static int nm_record(struct gfs_archive *ar, const char *suffix, size_t rs, long map, const uint8_t *rec,
		     uint8_t *old, size_t oldmax, int *had)
{
	size_t presized = strcmp(suffix, ".DOX") ? 0 : NM_DOX_PRESIZED;
	struct rpg_lump *l;
	struct gfs_buf b = GFS_BUF_INIT;
	int r = nm_arch_read(ar, suffix, rs, &l, &b);

	if (r <= 0)
		return r;
	r = 0;
	if (!rec) {
		if (b.len == (size_t)(map + 1) * rs && (size_t)map + 1 > presized)
			r = gfs_buf_set_len(&b, (size_t)map * rs);
		else if (presized && b.len >= (size_t)(map + 1) * rs)
			memset(b.data + (size_t)map * rs, 0, rs);	/* a pre-sized record: as new games have them */
		return rpg_grow_set(ar, l, &b, r);
	}
	if (old && rs <= oldmax && b.len >= (size_t)(map + 1) * rs) {	/* DOX: a pre-sized record with no door stays */
		int doors = 0;

		for (size_t i = 0, at; rs == NM_DOX && rpg_tab_at(ar, RPG_T_DOORS, (size_t)map, b.len, i, DOOR_FLAGS,
									&at); i++)
			doors |= b.data[at] & 1;
		memcpy(old, b.data + (size_t)map * rs, rs);
		*had = 1;
		if (rs == NM_DOX && !doors) {
			gfs_buf_release(&b);
			return 0;
		}
	}
	if (b.len < (size_t)(map + 1) * rs)
		r = gfs_buf_set_len(&b, (size_t)(map + 1) * rs);
	if (!r)
		memcpy(b.data + (size_t)map * rs, rec, rs);
	return rpg_grow_set(ar, l, &b, r);
}

int rpg_newmap_mkdir(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out)
{
	struct rpg_model *m = ar->priv;
	long last = rpg_gen(ar, m, 0), n = last + 1, num;
	struct rpg_lump *l0 = nm_lump(m, 0, 'L');
	unsigned nrs = rpg_binsize(ar, 9, 30), mrs = rpg_binsize(ar, 4, 40);
	const char *title = name;
	char *ep, ln[RPG_NAME_MAX + 48];
	uint8_t mn[NM_MN] = { 0 }, dox[NM_DOX] = { 0 }, *mp;
	struct gfs_buf b = GFS_BUF_INIT;
	struct rpg_genundo u = { 0 };	/* the records taken, for rmdir in this mount */
	size_t tl;
	int r = 0;

	if (!m->game || dir->parent != ar->root || strcmp(dir->name, "maps"))
		return 1;
	if (last < 0 || !nm_lump(m, 0, 'T'))
		return gfs_err(ar, -EPERM, "maps/%s: the game has no GEN map count or no map 0 to go by", name);
	num = isdigit((unsigned char)name[0]) ? strtol(name, &ep, 10) : -1;
	if (num < 0 || (*ep && *ep != '-') || num != n)
		return gfs_err(ar, -EINVAL, "maps/%s: a new map is the next free number: maps/%02ld-NAME", name, n);
	if (n > NM_MAX)
		return gfs_err(ar, -ENOSPC, "maps/%s: the game has %ld maps, the most a GEN count holds", name, n);
	if (nm_lump(m, n, 'T'))
		return gfs_err(ar, -EEXIST, "maps/%s: the game has lumps of map %ld past GEN's last map", name, n);
	title = *ep ? ep + 1 : ep;
	if ((tl = strlen(title)) > 39)
		return gfs_err(ar, -EINVAL, "maps/%s: a map name holds at most 39 characters", name);
	for (size_t i = 0; i < tl; i++)
		if (title[i] < 0x20 || title[i] > 0x7e)
			return gfs_err(ar, -EINVAL, "maps/%s: a map name is printable ASCII", name);
	if (!(mp = calloc(1, mrs > 2 ? mrs : 2)))
		return -ENOMEM;
	/* the lumps, in Custom's order (mapedit_savemap) */
	for (const char *x = "TPELND"; *x && !r; x++) {
		nm_lumpname(m, n, *x, ln, sizeof(ln));
		if (*x == 'T' || *x == 'P' || *x == 'E') {
			r = rpg_map_new(&b, NULL, NM_W, NM_H, 1);
		} else if (*x == 'L') {
			unsigned arrays = l0 && (l0->data ? l0->data->len : l0->len) == 3007 ? 5 : 6;

			if (!(r = gfs_buf_set_len(&b, 7 + 2 * L_SLOTS * arrays)))
				for (size_t i = 0, at; rpg_tab_at(ar, RPG_T_NPCS, 0, b.len, i, NPC_Y, &at); i++)
					gfs_put_u16le(b.data + at, 1);	/* y + 1 */
		} else if (*x == 'N') {
			if (!(r = gfs_buf_set_len(&b, 7 + nrs)) && nrs >= 8) {
				gfs_put_u16le(b.data + 7 + 2, 0xffff);	/* palette -1 */
				gfs_put_u16le(b.data + 7 + 6, 4);	/* speed 4 */
			}
		} else if (!(r = gfs_buf_set_len(&b, 2007))) {
			memcpy(b.data, "\xfd\x99\x99\x00\x00\xd0\x07", 7);
			for (size_t i = 0; i < 200; i++)
				gfs_put_u16le(b.data + 7 + 2 * i, 0xffff);	/* source -1: unused */
		}
		if (!r && !nm_new_lump(ar, ln, &b, *x == 'T' || *x == 'P' || *x == 'E' ? RPG_K_MAP : RPG_K_REC))
			r = -ENOMEM;
	}
	if (!r && nm_lump(m, 0, 'Z')) {
		static const char z[] = "RELOAD 1\nnames\n  1 zonemap\n  2 w\n  3 h\n  4 zones\n  5 rows\ntree\nzonemap\n"
					"  w = 64\n  h = 64\n  zones\n  rows\nend\n";
		char err[160];

		nm_lumpname(m, n, 'Z', ln, sizeof(ln));
		if (!(r = reld_from_text((const uint8_t *)z, sizeof(z) - 1, &b, err, sizeof(err))) &&
		    !nm_new_lump(ar, ln, &b, RPG_K_RELOAD))
			r = -ENOMEM;
	}
	gfs_buf_release(&b);
	if (mrs >= 64) {
		gfs_put_u16le(mp + 2 * 16, 2);	/* walkabout layering: together */
		gfs_put_u16le(mp + 2 * 31, 1);	/* walkabouts above layer 0 */
	}
	mn[0] = (uint8_t)tl;
	memcpy(mn + 1, title, tl);
	for (size_t i = 0; i < 100; i++)
		gfs_put_u16le(dox + 200 + 2 * i, 1);	/* y + 1 */
	if (!r)
		r = nm_record(ar, ".MAP", mrs, n, mp, u.map, sizeof(u.map), &u.has_map);
	free(mp);
	if (!r)
		r = nm_record(ar, ".MN", NM_MN, n, mn, u.mn, sizeof(u.mn), &u.has_mn);
	if (!r)
		r = nm_record(ar, ".DOX", NM_DOX, n, dox, u.dox, sizeof(u.dox), &u.has_dox);
	if (!r && !(r = rpg_grow_gen(ar, 0, (size_t)n, n)) && m->nundo) {
		struct rpg_genundo *t = &m->undo[m->nundo - 1];	/* rmdir puts the records it took back */

		memcpy(t->dox, u.dox, sizeof(u.dox));
		memcpy(t->map, u.map, sizeof(u.map));
		memcpy(t->mn, u.mn, sizeof(u.mn));
		t->has_dox = u.has_dox;
		t->has_map = u.has_map;
		t->has_mn = u.has_mn;
	}
	if (r)
		return r;
	ar->changed = 1;
	gfs_tree_invalidate(ar);
	return (*out = gfs_node_new_dir(ar, dir, name)) ? 0 : -ENOMEM;
}

/* Detach the views of l in dir (not freed while open). */
static void nm_views_in(struct gfs_archive *ar, struct rpg_lump *l, struct gfs_node *dir, struct gfs_node *keep)
{
	size_t k = 0;

	for (size_t i = 0; i < l->nviews; i++) {
		struct gfs_node *n = l->views[i];

		if (n->parent != dir || n == keep) {
			l->views[k++] = n;
			continue;
		}
		if (gfs_node_is_open(n))
			((struct rpg_vpriv *)n->priv)->l = NULL;
		gfs_node_remove(ar, n);
	}
	l->nviews = k;
}

/* tiles-K.csv one past T's last layer: a layer of zeros more. */
static int nm_add_layer(struct gfs_archive *ar, struct rpg_lump *t, const char *name)
{
	struct gfs_buf b = GFS_BUF_INIT;
	unsigned w, h, layers, k;
	char *ep;
	int r;

	if (strncmp(name, "tiles-", 6) || !isdigit((unsigned char)name[6]))
		return 0;
	k = (unsigned)strtoul(name + 6, &ep, 10);
	if (strcmp(ep, ".csv") || (r = rpg_lump_read(ar, t, &b)))
		return 0;
	if (!rpg_map_dims(b.data, b.len, &w, &h, &layers) || k != layers ||
	    gfs_record_span(&rpg_map_rec, b.data, b.len) != b.len) {
		gfs_buf_release(&b);
		return 0;	/* no such view: refused below */
	}
	if (k >= RPG_MAP_MAX_LAYERS) {
		gfs_buf_release(&b);
		return gfs_err(ar, -ENOSPC, "%s: a map has at most %d layers", name, RPG_MAP_MAX_LAYERS);
	}
	return rpg_grow_set(ar, t, &b, rpg_map_layers(&b, k + 1));
}

/*
 * A view made in a map's folder: the real one's render, size and store
 * behind a wrapper that reads empty until written, fits a layer's lump or
 * the NPC types to what is written first (nm_fit), and takes a picture
 * (map.png) written into it as read: drawn from the map, it is dropped.
 */
struct nm_wrap {
	struct rpg_vpriv v;		/* first: the real ops see their priv */
	const struct gfs_node_ops *real;
};

static int nm_fit(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len,
		  struct rpg_lump **fitted, struct gfs_buf *was);

static int nm_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct nm_wrap *w = n->priv;

	if (w->v.fresh)		/* until a write is taken (a refused one may be retried with another size) */
		return 0;
	return w->real->render ? w->real->render(ar, n, out) : 0;
}

static int nm_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size)
{
	struct nm_wrap *w = n->priv;

	if (w->v.fresh) {
		*size = 0;
		return 0;
	}
	return w->real->size ? w->real->size(ar, n, size) : -ENOSYS;
}

static int nm_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	struct nm_wrap *w = n->priv;
	struct rpg_lump *fitted = NULL;
	struct gfs_buf was = GFS_BUF_INIT;
	int r = w->v.fresh && w->v.l ? nm_fit(ar, n, data, len, &fitted, &was) : 0;

	if (!r && w->real->store)
		r = w->real->store(ar, n, data, len);
	if (r && fitted)	/* refused: the lump as it was, the file still to be written */
		rpg_grow_set(ar, fitted, &was, 0);
	else if (!r)
		w->v.fresh = 0;
	gfs_buf_release(&was);
	return r;
}

static const struct gfs_node_ops nm_wrap_ops = { .render = nm_render, .size = nm_size, .store = nm_store, .free = free };

/*
 * A file created in a map's folder: one of its views (built aside, the
 * others let go), empty until written.
 */
int rpg_newmap_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out)
{
	struct rpg_model *m = ar->priv;
	long map = m->game ? nm_map_of_dir(ar, dir) : -1;
	struct rpg_lump *t = map >= 0 ? nm_lump(m, map, 'T') : NULL;
	struct gfs_node *tmp, *got = NULL, *n = NULL;
	struct rpg_lump *owner = NULL;
	struct nm_wrap *w = NULL;
	int r;

	if (!t)
		return 1;
	if (!strcmp(name, "zones.txt") && !nm_lump(m, map, 'Z'))
		return gfs_err(ar, -EPERM, "%s/zones.txt: map %ld has no zone map (.Z lump): make the map with "
			       "mkdir in a game whose maps have them", dir->name, map);
	if ((r = nm_add_layer(ar, t, name)))
		return r;
	if (!(tmp = gfs_node_new_dir(ar, dir->parent, ".gamefs-newmap")))
		return -ENOMEM;
	r = rpg_views_map(ar, map, tmp);
	for (size_t i = 0; !r && i < tmp->nkids; i++)
		if (!strcmp(tmp->kids[i]->name, name))
			got = tmp->kids[i];
	for (size_t i = 0; got && i < m->n && !owner; i++)
		for (size_t k = 0; k < m->lumps[i]->nviews; k++)
			if (m->lumps[i]->views[k] == got)
				owner = m->lumps[i];
	if (owner && (w = calloc(1, sizeof(*w)))) {
		w->v = *(struct rpg_vpriv *)got->priv;
		w->v.fresh = 1;
		w->real = gfs_node_get_ops(got);
		n = gfs_node_new_file(ar, dir, name, (got->mode & 0200) || !strcmp(name, "map.png") ? 0644 : 0444,
				      &nm_wrap_ops, w);
		if (!n)
			free(w);
	}
	for (size_t i = 0; i < m->n; i++)
		nm_views_in(ar, m->lumps[i], tmp, NULL);
	while (tmp->nkids)
		gfs_node_remove(ar, tmp->kids[tmp->nkids - 1]);
	gfs_node_remove(ar, tmp);
	if (!r && n) {
		struct gfs_node **vs = realloc(owner->views, (owner->nviews + 1) * sizeof(*vs));

		if (!vs) {
			gfs_node_remove(ar, n);
			return -ENOMEM;
		}
		owner->views = vs;
		vs[owner->nviews++] = n;
	}
	if (r)
		return r;
	if (!got)
		return gfs_err(ar, -EPERM, "%s/%s: not a file of map %ld (tiles-N.csv, walls.csv, foes.csv, "
			       "zones.txt, npcs.csv, npc-types.csv, doors.csv, door-links.csv, map.ini, map.tmx, "
			       "map.png)", dir->name, name, map);
	if (!n)
		return -ENOMEM;
	gfs_tree_invalidate(ar);
	*out = n;
	return 0;
}

/* A door link of another map leading to map: EBUSY naming it; 0 none. */
static int nm_busy(struct gfs_archive *ar, long map, const char *what)
{
	struct rpg_model *m = ar->priv;

	for (size_t i = 0; i < m->n; i++) {
		struct rpg_lump *d = m->lumps[i];
		struct gfs_buf b = GFS_BUF_INIT;
		char letter;
		long from = rpg_map_of(m, d->name, &letter);

		if (from < 0 || from == map || letter != 'D' || rpg_lump_read(ar, d, &b))
			continue;
		for (size_t k = 0; b.len >= 7 + 2000 && k < 200; k++) {
			int16_t src = (int16_t)gfs_le16(b.data + 7 + 2 * k), to = (int16_t)gfs_le16(b.data + 7 + 800 + 2 * k);

			if (src >= 0 && to == map) {
				gfs_buf_release(&b);
				return gfs_err(ar, -EBUSY, "%s: map %ld is where door link %zu of map %ld "
					       "(its door-links.csv) leads", what, map, k, from);
			}
		}
		gfs_buf_release(&b);
	}
	return 0;
}

/* unlink of a file in a map's folder: the last map's files leave its folder (rm -r); 1: none of ours. */
int rpg_newmap_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct rpg_model *m = ar->priv;
	long map = m->game ? nm_map_of_dir(ar, n->parent) : -1;
	char what[300];
	int r;

	if (map < 0 || !nm_lump(m, map, 'T'))
		return 1;
	snprintf(what, sizeof(what), "%s/%s", n->parent->name, n->name);
	if (map != rpg_gen(ar, m, 0) || nm_lump(m, map + 1, 'T'))
		return gfs_err(ar, -EPERM, "%s: only the last map (%ld) can be removed: the game refers to "
			       "the others by their numbers", what, rpg_gen(ar, m, 0));
	if (map == 0)
		return gfs_err(ar, -EPERM, "%s: a game keeps at least one map", what);
	if ((r = nm_busy(ar, map, what)))
		return r;
	for (size_t i = 0; i < m->n; i++)
		for (size_t k = 0; k < m->lumps[i]->nviews; k++)
			if (m->lumps[i]->views[k] == n) {
				memmove(m->lumps[i]->views + k, m->lumps[i]->views + k + 1,
					(m->lumps[i]->nviews - k - 1) * sizeof(*m->lumps[i]->views));
				m->lumps[i]->nviews--;
				if (gfs_node_is_open(n))
					((struct rpg_vpriv *)n->priv)->l = NULL;
				gfs_node_remove(ar, n);
				return 0;
			}
	gfs_node_remove(ar, n);		/* a Tiled view of the map */
	return 0;
}

int rpg_newmap_rmdir(struct gfs_archive *ar, struct gfs_node *dir)
{
	struct rpg_model *m = ar->priv;
	struct rpg_genundo *t;
	long map = m->game ? nm_map_of_dir(ar, dir) : -1;
	int r;

	if (map < 0 || !nm_lump(m, map, 'T'))
		return 1;
	if ((r = gfs_dir_ready(ar, dir)))
		return r;
	if (map != rpg_gen(ar, m, 0) || nm_lump(m, map + 1, 'T') || map == 0)
		return gfs_err(ar, -EPERM, "maps/%s: only the last map (%ld) can be removed, and not map 0",
			       dir->name, rpg_gen(ar, m, 0));
	if ((r = nm_busy(ar, map, dir->name)))
		return r;
	if (dir->nkids)
		return gfs_err(ar, -ENOTEMPTY, "maps/%s: remove its files first (rm -r)", dir->name);
	for (size_t i = m->n; i-- > 0;) {
		struct rpg_lump *l = m->lumps[i];
		char letter;

		if (rpg_map_of(m, l->name, &letter) != map)
			continue;
		rpg_views_drop(ar, l);
		memmove(m->lumps + i, m->lumps + i + 1, (m->n - i - 1) * sizeof(*m->lumps));
		m->n--;
		if (gfs_node_is_open(l->node)) {
			gfs_node_remove(ar, l->node);
			l->node->priv = NULL;
		} else {
			gfs_node_remove(ar, l->node);
		}
		gfs_buf_free(l->data);
		free(l->views);
		free(l);
	}
	t = m->nundo && m->undo[m->nundo - 1].field == 0 && m->undo[m->nundo - 1].rec == (size_t)map ?
	    &m->undo[m->nundo - 1] : NULL;	/* made in this mount: the records it took, as they were */
	r = nm_record(ar, ".DOX", NM_DOX, map, t && t->has_dox ? t->dox : NULL, NULL, 0, NULL);
	if (!r)
		r = nm_record(ar, ".MAP", rpg_binsize(ar, 4, 40), map, t && t->has_map ? t->map : NULL, NULL, 0, NULL);
	if (!r)
		r = nm_record(ar, ".MN", NM_MN, map, t && t->has_mn ? t->mn : NULL, NULL, 0, NULL);
	if (!r)
		r = rpg_grow_gen_back(ar, 0, (size_t)map);
	gfs_node_remove(ar, dir);
	ar->changed = 1;
	gfs_tree_invalidate(ar);
	return r;
}

/*
 * The first write of a layer file or npc-types.csv made in a map's folder:
 * the lump takes the grid's size (its layers blank), the NPC types the
 * rows' count (new ones Custom's blank), so that a copied map keeps its
 * size and its NPC types.
 */
static int nm_fit(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len,
		  struct rpg_lump **fitted, struct gfs_buf *was)
{
	struct rpg_lump *l = ((struct nm_wrap *)n->priv)->v.l;
	struct gfs_grid g;
	struct gfs_buf b = GFS_BUF_INIT;
	unsigned w, h, layers, nrs = rpg_binsize(ar, 9, 30);
	char letter;
	size_t gw;
	int r;

	size_t want = 0;

	int grid = !strncmp(n->name, "tiles-", 6) || !strncmp(n->name, "walls", 5) || !strncmp(n->name, "foes", 4) ||
		   !strcmp(n->name, "npc-types.csv") || !strcmp(n->name, "npcs.csv");

	if (!grid || rpg_map_of(ar->priv, l->name, &letter) < 0 || !strchr("TPENL", letter))
		return 0;
	if (letter == 'L') {	/* npcs.csv before npc-types.csv (cp's order): room for the types it names */
		long map = rpg_map_of(ar->priv, l->name, &letter);

		if (!(l = nm_lump(ar->priv, map, 'N')))
			return 0;
		letter = 'L';
	}
	if ((r = rpg_lump_read(ar, l, &b)))
		return r;
	if ((r = gfs_grid_parse(ar, n->name, data, len, 0, NULL, &g))) {
		gfs_buf_release(&b);
		return r;
	}
	gw = g.nrows ? g.rows[0].ncells : 0;
	if (letter == 'L') {	/* columns slot,x,y,npc,direction,frame[,pool]: the local NPCs' highest */
		for (size_t i = 0; i < g.nrows; i++) {
			long id = g.rows[i].ncells >= 4 ? strtol(g.rows[i].cell[3], NULL, 0) : -1;
			long pool = g.rows[i].ncells >= 7 ? strtol(g.rows[i].cell[6], NULL, 0) : 0;	/* 6 columns: old .L */

			if (id >= 0 && id < 32767 && !pool && (size_t)id + 1 > want)
				want = (size_t)id + 1;
		}
		if (b.len >= 7 && nrs >= 8 && want <= (b.len - 7) / nrs)
			want = 0;	/* room enough */
	} else if (letter == 'N') {
		want = g.nrows <= 32767 ? g.nrows : 0;
	}
	if (want) {
		size_t had = b.len >= 7 && nrs >= 8 ? (b.len - 7) / nrs : 0;

		if (nrs >= 8 && !(r = gfs_buf_set_len(&b, 7 + want * nrs)))
			for (size_t i = had; i < want; i++) {
				memset(b.data + 7 + i * nrs, 0, nrs);
				gfs_put_u16le(b.data + 7 + i * nrs + 2, 0xffff);
				gfs_put_u16le(b.data + 7 + i * nrs + 6, 4);
			}
	} else if (letter != 'N' && letter != 'L' && rpg_map_dims(b.data, b.len, &w, &h, &layers) && g.nrows && gw &&
		   (gw != w || g.nrows != h) &&
		   gw <= 32767 && g.nrows <= 32767 && gw * g.nrows <= 100000) {
		r = rpg_map_new(&b, NULL, (unsigned)gw, (unsigned)g.nrows, layers);
	}
	gfs_grid_release(&g);
	if (!r && !(r = rpg_lump_read(ar, l, was)))
		*fitted = l;
	return rpg_grow_set(ar, l, &b, r);
}
