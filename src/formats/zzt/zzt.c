/*
 * zzt.c - ZZT and Super ZZT worlds and saved games (.zzt, .szt, .sav).
 *
 * Super ZZT's files have the same shape with other sizes (a 1024-byte
 * header, 96x80 boards, 30 bytes of board info, 25-byte stats): the
 * header's first word picks the engine description (zzt_engine.c) that
 * every board carries and every layer below asks.  ZZT's layout:
 *
 * On disk:
 *   0x000  512-byte world header: type (-1), board count - 1, player
 *          items, world name and ten flags as Pascal strings (length byte
 *          + fixed field), time, saved-game flag, padding
 *   0x200  boards, one after the other, each:
 *            int16 size (bytes that follow; the only reliable way to the
 *            next board), name (length + 50), RLE tiles (count, element,
 *            colour; count 0 = 256) filling 60x25, 88 bytes of properties
 *            ending in the stat count - 1, then per stat a 33-byte record
 *            (its last 8 bytes padding) followed by Length bytes of
 *            ZZT-OOP when Length > 0 (Length -i shares stat i's code)
 *   ...    anything after the declared boards (kept as trailing.bin)
 *
 * The tree:
 *   world.ini                 the header
 *   boards/NN-slug/           board.ini elements.csv colors.csv stats.csv
 *                             code/NAME.oop board.png [extra.bin]
 *   trailing.bin              bytes after the last board, if any
 *   damaged.bin               from a board running past the file to its end
 *
 * A board nobody edited is copied from the old file byte for byte; an
 * edited one is serialised from the model by the codec.  This file builds
 * the tree and holds the format's callbacks; the calls go one way:
 * codec (zzt_board.c) <- views (zzt_view.c, zzt_png.c) and board numbers
 * (zzt_refs.c) <- this file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/zzt/zzt.h"
#include "gfs_record.h"

/* code/ fills itself with the program files when first used */
static int zzt_populate_code(struct gfs_archive *ar, struct gfs_node *dir);
static const struct gfs_node_ops zzt_ops_code_dir = { .populate = zzt_populate_code };

static void zzt_free(struct gfs_archive *ar)
{
	struct zzt_world *w = ar->priv;
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nboards; i++)
		zzt_board_release(&w->boards[i]);
	free(w->boards);
	free(w);
	ar->priv = NULL;
}

static int zzt_bid(const uint8_t *head, size_t len, const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	int ext = dot && (!strcasecmp(dot, ".zzt") || !strcasecmp(dot, ".sav") ||
			  !strcasecmp(dot, ".szt"));
	const struct zzt_engine *e;

	if (len < 4)
		return 0;
	e = zzt_engine_of((int16_t)gfs_le16(head + ZZT_H_TYPE));
	if (e && gfs_record_count(e->boards, head) > 0) {
		if (len > e->h_name && head[e->h_name] > ZZT_NAME_MAX)
			return ext ? 60 : 30;
		return ext ? 90 : 70;
	}
	if (e)		/* a negative board count: a damaged world, or another format's bytes */
		return ext ? 60 : 20;
	return ext ? 10 : 0;
}

static struct gfs_node *zzt_view_node(struct gfs_archive *ar, struct gfs_node *dir,
				      const char *name, mode_t mode,
				      const struct gfs_node_ops *ops, enum zzt_view kind,
				      unsigned board, unsigned stat)
{
	struct zzt_ref *ref = calloc(1, sizeof(*ref));
	struct gfs_node *n;

	if (!ref)
		return NULL;
	ref->kind = kind;
	ref->board = board;
	ref->stat = stat;
	if (ar->ro_reason[0])	/* a damaged world: nothing is editable */
		mode = S_IFREG | 0444;
	n = gfs_node_new_file(ar, dir, name, mode, ops, ref);
	if (!n)
		free(ref);
	return n;
}

static struct gfs_node *zzt_add_code_node(struct gfs_archive *ar, struct zzt_board *b, unsigned s,
					   const char *name)
{
	b->stats[s].code_node = zzt_view_node(ar, b->code_dir, name, S_IFREG | 0644,
					      &zzt_ops_code, ZZT_V_CODE, b->idx, s);
	if (b->stats[s].code_node && b->stats[s].code_ino)
		gfs_node_set_ino(b->stats[s].code_node, b->stats[s].code_ino);	/* reserved at load */
	b->stats[s].code_ino = 0;
	return b->stats[s].code_node;
}

static int zzt_has_code(const struct zzt_stat *s)
{
	return s->bind < 0 && s->code.len;
}

/*
 * The code file names of a board's stats with their own code (names[s],
 * ZZT_CODE_NAME bytes each): the slug of the object's @name (the first
 * line, when it starts with '@'), with "-SS" (the stat number) when another
 * stat has the same slug or the slug is all digits, and "SS" when there is
 * no @name or the name still clashes.  They depend on the board alone.
 */
#define ZZT_CODE_NAME 48
static void zzt_code_names(const struct zzt_board *b, char (*names)[ZZT_CODE_NAME])
{
	char (*slug)[ZZT_CODE_NAME] = names;
	size_t s, t;

	for (s = 0; s < b->nstats; s++) {
		const struct gfs_buf *c = &b->stats[s].code;
		size_t n = 0;

		slug[s][0] = 0;
		if (!zzt_has_code(&b->stats[s]) || c->data[0] != '@')
			continue;
		while (1 + n < c->len && c->data[1 + n] != '\r')
			n++;
		zzt_slug(c->data + 1, n, slug[s], ZZT_CODE_NAME - 8);
	}
	/* suffixes first, on the slugs alone, so every stat's name is decided
	 * by the same facts whatever its position */
	for (s = 0; s < b->nstats; s++) {
		int dup = slug[s][0] && slug[s][strspn(slug[s], "0123456789")] == 0;

		for (t = 0; t < b->nstats && slug[s][0] && !dup; t++)
			dup = t != s && !strcmp(slug[s], slug[t]);
		names[s][ZZT_CODE_NAME - 1] = (char)dup;
	}
	for (s = 0; s < b->nstats; s++) {
		char base[ZZT_CODE_NAME];

		if (!zzt_has_code(&b->stats[s]))
			continue;
		memcpy(base, slug[s], sizeof(base));
		if (!base[0])
			snprintf(names[s], ZZT_CODE_NAME, "%02u.oop", (unsigned)s);
		else if (base[ZZT_CODE_NAME - 1])
			snprintf(names[s], ZZT_CODE_NAME, "%.32s-%02u.oop", base, (unsigned)s);
		else
			snprintf(names[s], ZZT_CODE_NAME, "%.40s.oop", base);
		for (t = 0; t < s; t++)
			if (zzt_has_code(&b->stats[t]) && !strcmp(names[s], names[t])) {
				snprintf(names[s], ZZT_CODE_NAME, "%02u.oop", (unsigned)s);
				break;
			}
	}
}

static int zzt_build_board(struct gfs_archive *ar, struct gfs_node *boards, struct zzt_board *b)
{
	char dn[64];
	size_t i;

	zzt_board_dirname(b, dn, sizeof(dn));
	if (b->damaged)
		snprintf(dn + strlen(dn), sizeof(dn) - strlen(dn), "%s", "-damaged");
	/* unique by its number, safe by construction: no gfs_unique_name() scan */
	b->dir = gfs_node_new_dir(ar, boards, dn);
	if (!b->dir)
		return -ENOMEM;
	if (b->damaged) {
		struct zzt_ref *ref = calloc(1, sizeof(*ref));

		if (!ref)
			return -ENOMEM;
		ref->kind = ZZT_V_RAW;
		ref->board = b->idx;
		if (!gfs_node_new_span(ar, b->dir, "board.bin", S_IFREG | 0444, &zzt_ops_raw,
				       ref, b->off, (uint64_t)b->size + 2)) {
			free(ref);
			return -ENOMEM;
		}
		return 0;
	}
	if (!zzt_view_node(ar, b->dir, "board.ini", S_IFREG | 0644, &zzt_ops_board,
			   ZZT_V_BOARD, b->idx, 0) ||
	    !zzt_view_node(ar, b->dir, "elements.csv", S_IFREG | 0644, &zzt_ops_grid,
			   ZZT_V_ELEMENTS, b->idx, 0) ||
	    !zzt_view_node(ar, b->dir, "colors.csv", S_IFREG | 0644, &zzt_ops_grid,
			   ZZT_V_COLORS, b->idx, 0) ||
	    !zzt_view_node(ar, b->dir, "stats.csv", S_IFREG | 0644, &zzt_ops_stats,
			   ZZT_V_STATS, b->idx, 0))
		return -ENOMEM;
	b->code_dir = gfs_node_new_dir(ar, b->dir, "code");
	if (!b->code_dir)
		return -ENOMEM;
	for (i = 0; i < b->nstats; i++)
		if (b->stats[i].bind < 0 && b->stats[i].code.len) {
			/* the programs' files are made when code/ is first used, with
			 * the inode numbers they would have had if made now */
			b->stats[i].code_ino = gfs_ino_reserve(ar);
			gfs_node_set_lazy(b->code_dir, &zzt_ops_code_dir);
		}
	if (!zzt_view_node(ar, b->dir, "board.png", S_IFREG | 0444, &zzt_ops_png,
			   ZZT_V_PNG, b->idx, 0))
		return -ENOMEM;
	if (b->tail_len &&
	    !zzt_view_node(ar, b->dir, "extra.bin", S_IFREG | 0644, &zzt_ops_extra,
			   ZZT_V_EXTRA, b->idx, 0))
		return -ENOMEM;
	return 0;
}

static void zzt_note_damage(struct gfs_archive *ar, struct zzt_world *w, unsigned idx,
			    const char *why)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "board %u %s", idx, why);
	if (!w->damage[0])
		snprintf(w->damage, sizeof(w->damage), "%s", msg);
	if (w->nwarned++ < ZZT_WARN_MAX)
		gfs_warn(ar, "%s", msg);
}

static int zzt_load(struct gfs_archive *ar)
{
	struct gfs_buf file = GFS_BUF_INIT;
	const struct zzt_engine *eng;
	struct zzt_world *w;
	struct gfs_node *boards;
	uint64_t off;
	int64_t nb;
	int16_t type;
	size_t i;
	int r;

	r = gfs_read_all(ar, &file, ZZT_FILE_MAX);
	if (r)
		return r;
	if (file.len < 2) {
		r = gfs_err_at(ar, -EBADMSG, 0, "file too short for a ZZT world (%zu bytes)", file.len);
		goto out_file;
	}
	type = (int16_t)gfs_le16(file.data + ZZT_H_TYPE);
	eng = zzt_engine_of(type);
	if (!eng) {
		r = gfs_err_at(ar, -EBADMSG, 0, "first word is %d, not -1 (ZZT) or -2 (Super ZZT): "
			       "not a ZZT world", type);
		goto out_file;
	}
	if (file.len < eng->hdr_size) {
		r = gfs_err_at(ar, -EBADMSG, file.len, "world header truncated: %zu of %s's %zu bytes",
			       file.len, eng->name, eng->hdr_size);
		goto out_file;
	}
	nb = gfs_record_count(eng->boards, file.data);
	if (nb < 1) {
		r = gfs_err_at(ar, -EBADMSG, ZZT_H_NUMBOARDS, "board count %d is negative", (int)nb - 1);
		goto out_file;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		r = -ENOMEM;
		goto out_file;
	}
	ar->priv = w;
	w->eng = eng;
	/* every board takes at least its size field: allocate no more */
	i = (file.len - eng->hdr_size) / eng->boards->group->size + 1;
	w->boards = calloc((size_t)nb < i ? (size_t)nb : i, sizeof(*w->boards));
	if (!w->boards) {
		r = -ENOMEM;
		goto out_file;
	}
	memcpy(w->hdr, file.data, eng->hdr_size);
	w->file_size = file.len;
	off = eng->hdr_size;
	/* each board behind its size, as the codec lays them out (zzt_engine.c) */
	for (i = 0; i < (size_t)nb; i++) {
		struct zzt_board *b = &w->boards[i];
		size_t span = gfs_record_elem_span(eng->boards, file.data, file.data + off, file.len - off), at;
		char why[200];

		if (!span) {
			if (file.len - off < eng->boards->group->size)
				snprintf(why, sizeof(why), "at 0x%llx: the file ends before it (%d boards declared)",
					 (unsigned long long)off, (int)nb);
			else
				snprintf(why, sizeof(why), "at 0x%llx: size %u runs past the end of the file "
					 "(%llu bytes left); it and the boards after it are not shown",
					 (unsigned long long)off, (unsigned)gfs_le16(file.data + off),
					 (unsigned long long)(file.len - off - 2));
			zzt_note_damage(ar, w, (unsigned)i, why);
			w->truncated = 1;
			break;
		}
		b->eng = eng;
		b->idx = (unsigned)i;
		b->off = off;
		gfs_record_items(eng->boards->group, file.data + off, span, "bytes", &at, &span);
		b->size = (uint32_t)span;
		w->nboards = i + 1;
		r = zzt_board_parse(b, file.data + off + at, span, off + at, why, sizeof(why));
		if (r == -ENOMEM)
			goto out_file;
		if (r) {
			zzt_board_release(b);
			b->damaged = 1;
			w->ndamaged++;
			zzt_note_damage(ar, w, (unsigned)i, why);
		}
		off += at + span;
	}
	w->boards_end = off;
	if (w->truncated || w->ndamaged) {
		ar->readonly = 1;
		if (w->nwarned > 1)
			snprintf(ar->ro_reason, sizeof(ar->ro_reason), "%.200s (and %u more damaged boards)",
				 w->damage, w->nwarned - 1);
		else
			snprintf(ar->ro_reason, sizeof(ar->ro_reason), "%s", w->damage);
		if (w->nwarned > ZZT_WARN_MAX)
			gfs_warn(ar, "%u more damaged boards not listed", w->nwarned - ZZT_WARN_MAX);
	}

	r = -ENOMEM;
	{
		size_t nodes = 2;	/* world.ini, boards/; then each board's views and code */

		for (i = 0; i < w->nboards; i++)
			nodes += 8 + w->boards[i].nstats;
		if (gfs_tree_reserve(ar, nodes))
			goto out_file;
	}
	if (!zzt_view_node(ar, ar->root, "world.ini", S_IFREG | 0644, &zzt_ops_world,
			   ZZT_V_WORLD, 0, 0))
		goto out_file;
	boards = gfs_node_new_dir(ar, ar->root, "boards");
	if (!boards)
		goto out_file;
	w->boards_dir = boards;
	for (i = 0; i < w->nboards; i++) {
		r = zzt_build_board(ar, boards, &w->boards[i]);
		if (r)
			goto out_file;
	}
	r = -ENOMEM;
	if (w->truncated) {
		if (!gfs_node_new_span(ar, ar->root, "damaged.bin", S_IFREG | 0444, NULL, NULL,
				       off, file.len - off))
			goto out_file;
	} else if (off < file.len) {
		w->trailing = gfs_node_new_span(ar, ar->root, "trailing.bin",
						S_IFREG | (ar->ro_reason[0] ? 0444 : 0644),
						NULL, NULL, off, file.len - off);
		if (!w->trailing)
			goto out_file;
	}
	r = 0;
out_file:
	gfs_buf_release(&file);
	return r;
}

static int zzt_save(struct gfs_archive *ar, struct gfs_writer *wr)
{
	struct zzt_world *w = ar->priv;
	struct gfs_buf enc = GFS_BUF_INIT;
	size_t i;
	int r;

	if (w->truncated || w->ndamaged)
		return gfs_err(ar, -EROFS, "world is damaged: %s", w->damage);
	r = w->hdr_dirty ? gfs_writer_put(wr, w->hdr, w->eng->hdr_size)
			 : gfs_writer_copy(wr, 0, w->eng->hdr_size);
	if (r)
		return r;
	for (i = 0; i < w->nboards; i++) {
		struct zzt_board *b = &w->boards[i];

		b->new_off = gfs_writer_tell(wr);
		b->new_size = b->size;
		if (!b->dirty) {
			r = gfs_writer_copy(wr, b->off, (uint64_t)b->size + 2);
		} else {
			gfs_buf_release(&enc);
			r = zzt_board_encode(b, &enc);
			if (!r && enc.len - 2 > w->eng->board_engine_max)
				gfs_warn(ar, "board %u is %zu bytes: more than %s itself loads (%u)",
					 b->idx, enc.len - 2, w->eng->name, w->eng->board_engine_max);
			if (!r) {
				b->new_size = (uint32_t)(enc.len - 2);
				r = gfs_writer_put(wr, enc.data, enc.len);
			}
		}
		if (r)
			goto out;
	}
	w->trailing_new_off = gfs_writer_tell(wr);
	if (w->trailing)
		r = gfs_writer_node(wr, w->trailing);
out:
	gfs_buf_release(&enc);
	return r;
}

static void zzt_committed(struct gfs_archive *ar)
{
	struct zzt_world *w = ar->priv;
	struct gfs_buf enc = GFS_BUF_INIT;
	size_t i;

	for (i = 0; i < w->nboards; i++) {
		struct zzt_board *b = &w->boards[i];

		b->off = b->new_off;
		if (!b->dirty)
			continue;
		if (b->tiles_changed && !zzt_rle_encode(b->elem, b->color, b->eng->tiles, &enc)) {
			uint8_t *p = malloc(enc.len);

			if (p) {
				memcpy(p, enc.data, enc.len);
				free(b->rle);
				b->rle = p;
				b->rle_len = enc.len;
				b->tiles_changed = 0;
			}
		}
		gfs_buf_release(&enc);
		b->size = b->new_size;
		b->dirty = 0;
		/* a board whose RLE could not be kept stays dirty: re-encoded each time */
		if (b->tiles_changed)
			b->dirty = 1;
	}
	w->file_size = (uint64_t)ar->st.st_size;
	if (w->trailing) {
		gfs_node_set_span(w->trailing, w->trailing_new_off,
				  w->file_size - w->trailing_new_off);
	}
	w->hdr_dirty = 0;
}

/*
 * What ZZT makes of a board's data: element ids past its table (it reads
 * garbage definitions for them: a warning) and stats outside its tile
 * array (it reads and writes past it: an error).  Returns the errors.
 */
static unsigned zzt_check_board(const struct zzt_board *b, FILE *out)
{
	const struct zzt_engine *e = b->eng;
	size_t t, n = 0, first = 0, s;
	unsigned bad = 0;

	for (t = 0; t < e->tiles; t++)
		if (b->elem[t] >= e->nelems && !n++)
			first = t;
	if (n)
		fprintf(out, "board %u: warning: %zu tiles with element ids past %s's table "
			"(0-%u), the first %u at x %zu, y %zu\n", b->idx, n, e->name, e->nelems - 1,
			b->elem[first], first % e->w + 1, first / e->w + 1);
	if (b->nstats > e->stats_max)
		fprintf(out, "board %u: warning: %zu stats, more than %s's %u\n", b->idx, b->nstats,
			e->name, e->stats_max);
	for (s = 0; s < b->nstats; s++) {
		unsigned x = b->stats[s].rec[ZZT_S_X], y = b->stats[s].rec[ZZT_S_Y];

		if (x <= e->w + 1 && y <= e->h + 1)
			continue;
		if (bad++ < ZZT_WARN_MAX)
			fprintf(out, "board %u: error: stat %zu at x %u, y %u is outside %s's board "
				"(x 0-%u, y 0-%u)\n", b->idx, s, x, y, e->name, e->w + 1, e->h + 1);
	}
	if (bad > ZZT_WARN_MAX)
		fprintf(out, "board %u: error: %u more stats outside the board\n", b->idx,
			bad - ZZT_WARN_MAX);
	return bad;
}

static int zzt_check(struct gfs_archive *ar, FILE *out)
{
	struct zzt_world *w = ar->priv;
	unsigned bad = 0;
	size_t i;

	fprintf(out, "%s %s: %zu of %d boards loaded\n", w->eng->name,
		w->hdr[w->eng->h_saved] ? "saved game" : "world", w->nboards,
		(int)gfs_record_count(w->eng->boards, w->hdr));
	for (i = 0; i < w->nboards; i++) {
		struct zzt_board *b = &w->boards[i];

		if (b->damaged)
			fprintf(out, "board %zu at 0x%llx: damaged\n", i, (unsigned long long)b->off);
		else if (b->size > w->eng->board_engine_max)
			fprintf(out, "board %zu: %u bytes, more than %s itself loads (%u)\n",
				i, b->size, w->eng->name, w->eng->board_engine_max);
		if (!b->damaged && b->tail_len)
			fprintf(out, "board %zu: %zu bytes after the last stat (kept as extra.bin)\n",
				i, b->tail_len);
		if (!b->damaged)
			bad += zzt_check_board(b, out);
	}
	if (w->damage[0])
		fprintf(out, "damage: %s\n", w->damage);
	if (w->trailing) {
		uint64_t len = 0;

		gfs_node_size(ar, w->trailing, &len);
		fprintf(out, "%llu bytes after the last board (kept as trailing.bin)\n",
			(unsigned long long)len);
	}
	return w->truncated || w->ndamaged || bad ? 1 : 0;
}

/* code/NAME.oop of every stat with a program, when code/ is first listed or looked into */
static int zzt_populate_code(struct gfs_archive *ar, struct gfs_node *dir)
{
	struct zzt_world *w = ar->priv;
	char (*names)[ZZT_CODE_NAME] = NULL;
	int r = 0;

	for (size_t i = 0; i < w->nboards && !r; i++) {
		struct zzt_board *b = &w->boards[i];

		if (b->code_dir != dir || !b->nstats)
			continue;
		names = calloc(b->nstats, sizeof(*names));
		if (!names)
			return -ENOMEM;
		zzt_code_names(b, names);
		for (size_t k = 0; k < b->nstats && !r; k++)
			if (zzt_has_code(&b->stats[k]) && !b->stats[k].code_node &&
			    !zzt_add_code_node(ar, b, (unsigned)k, names[k]))
				r = -ENOMEM;
		free(names);
	}
	return r;
}


/* ---- boards made and removed: mkdir, cp -r, rm -r ------------------------------ */

static struct zzt_board *zzt_board_of(struct zzt_world *w, const struct gfs_node *dir, int code)
{
	for (size_t i = 0; i < w->nboards; i++)
		if ((code ? w->boards[i].code_dir : w->boards[i].dir) == dir)
			return &w->boards[i];
	return NULL;
}

static void zzt_set_count(struct gfs_archive *ar, struct zzt_world *w)
{
	gfs_record_count_set(w->eng->boards, w->hdr, w->nboards);
	w->hdr_dirty = 1;
	ar->changed = 1;
	gfs_tree_invalidate(ar);
}

/*
 * A board folder's name, "NN-title", "NN" or "title": *num its number (-1
 * when it has none: "3d-maze" is all title) and the title in code page 437
 * into title (*n bytes); -EINVAL said when the title does not fit.
 */
static int zzt_dir_title(struct gfs_archive *ar, const struct zzt_world *w, const char *name,
			 long *num, uint8_t *title, size_t *n)
{
	const char *t = name;
	size_t len;

	*num = -1;
	*n = 0;
	if (*t >= '0' && *t <= '9') {
		unsigned long v = strtoul(t, (char **)&t, 10);

		if (*t && *t != '-') {
			t = name;
		} else {
			*num = v > 0xffff ? 0xffff : (long)v;
			t += *t == '-';
		}
	}
	for (len = strlen(t); len;) {
		uint32_t cp;
		size_t k = gfs_utf8_decode((const uint8_t *)t, len, &cp);
		int c = k ? zzt_cp437_from(cp) : -1;

		if (c < 0)
			return gfs_err(ar, -EINVAL, "%s: the board name has a character code page 437 "
				       "lacks", name);
		if (*n == w->eng->name_max)
			return gfs_err(ar, -EINVAL, "%s: a board name holds at most %zu characters",
				       name, w->eng->name_max);
		title[(*n)++] = (uint8_t)c;
		t += k;
		len -= k;
	}
	return 0;
}

/*
 * mkdir boards/NAME: a blank board with the next number.  NAME is
 * "NN-title" (NN must be that number), "NN" or "title"; the title becomes
 * the board's name.  mkdir code in a board made so: its code directory.
 */
static int zzt_mkdir(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		     struct gfs_node **out)
{
	struct zzt_world *w = ar->priv;
	struct zzt_board *b = zzt_board_of(w, dir, 0), *nb;
	uint8_t title[ZZT_B_NAME_LEN_MAX];
	size_t n;
	long num;
	int r;

	if (b && !strcmp(name, "code") && !b->code_dir) {
		b->code_dir = gfs_node_new_dir(ar, dir, name);
		b->rm_refused = 0;
		*out = b->code_dir;
		return *out ? 0 : -ENOMEM;
	}
	if (dir != w->boards_dir)
		return gfs_err(ar, -EPERM, "%s: only boards/NN-name and a board's code/ can be made", name);
	if (w->nboards >= w->eng->boards_max)
		return gfs_err(ar, -ENOSPC, "%s: the world has %zu boards, %s's most (boards 0-%u)",
			       name, w->nboards, w->eng->name, w->eng->boards_max - 1);
	if ((r = zzt_dir_title(ar, w, name, &num, title, &n)))
		return r;
	if (num >= 0 && (size_t)num != w->nboards)
		return gfs_err(ar, -EINVAL, "%s: the next free board number is %02zu", name, w->nboards);
	nb = realloc(w->boards, (w->nboards + 1) * sizeof(*w->boards));
	if (!nb)
		return -ENOMEM;
	w->boards = nb;
	b = &nb[w->nboards];
	memset(b, 0, sizeof(*b));
	b->idx = (unsigned)w->nboards;
	if (zzt_board_blank(b, w->eng, title, n) || !(b->dir = gfs_node_new_dir(ar, dir, name))) {
		zzt_board_release(b);
		return -ENOMEM;
	}
	w->nboards++;
	zzt_set_count(ar, w);
	*out = b->dir;
	return 0;
}

static const struct {
	const char *name;
	const struct gfs_node_ops *ops;
	enum zzt_view kind;
	mode_t mode;
} zzt_board_views[] = {
	{ "board.ini", &zzt_ops_board, ZZT_V_BOARD, 0644 },
	{ "elements.csv", &zzt_ops_grid, ZZT_V_ELEMENTS, 0644 },
	{ "colors.csv", &zzt_ops_grid, ZZT_V_COLORS, 0644 },
	{ "stats.csv", &zzt_ops_stats, ZZT_V_STATS, 0644 },
	{ "board.png", &zzt_ops_png, ZZT_V_PNG, 0444 },
	{ "extra.bin", &zzt_ops_extra, ZZT_V_EXTRA, 0644 },
};

/*
 * A board's view written into its folder (cp -r of a board, or one removed
 * and written again): the view comes back and the write replaces it.
 */
static int zzt_create_view(struct gfs_archive *ar, struct zzt_board *b, const char *name,
			   struct gfs_node **out)
{
	for (size_t i = 0; i < sizeof(zzt_board_views) / sizeof(zzt_board_views[0]); i++) {
		if (strcmp(name, zzt_board_views[i].name))
			continue;
		*out = zzt_view_node(ar, b->dir, name, S_IFREG | zzt_board_views[i].mode,
				     zzt_board_views[i].ops, zzt_board_views[i].kind, b->idx, 0);
		b->rm_refused = 0;
		return *out ? 0 : -ENOMEM;
	}
	return gfs_err(ar, -EPERM, "%s: a board folder holds board.ini, elements.csv, colors.csv, "
		       "stats.csv, board.png, extra.bin and code/", name);
}

/*
 * The stat a new code file is for: NN.oop and NAME-NN.oop name stat NN;
 * NAME.oop goes to the first object or scroll with no code (cp -r copies
 * code/ in stat order, so a copied board's programs land where they were).
 */
static long zzt_code_stat(const struct zzt_board *b, const char *name, size_t len)
{
	size_t d = len - 4;

	while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
		d--;
	if (d == len - 4 || (d && name[d - 1] != '-') || len - 4 - d != 2) {
		if (strspn(name, "0123456789") == len - 4)
			return -1;	/* a number that is not NN */
		for (size_t s = 0; s < b->nstats; s++) {
			const struct zzt_stat *st = &b->stats[s];
			unsigned x = st->rec[ZZT_S_X], y = st->rec[ZZT_S_Y];
			uint8_t e = x >= 1 && x <= b->eng->w && y >= 1 && y <= b->eng->h ?
				    b->elem[(y - 1) * b->eng->w + x - 1] : 0;

			if ((e == ZZT_E_OBJECT_ID || e == ZZT_E_SCROLL_ID) && st->bind < 0 &&
			    !st->code.len && !st->code_node)
				return (long)s;
		}
		return -2;
	}
	return (name[d] - '0') * 10 + (name[d + 1] - '0');
}

/* code/NAME.oop for a stat that has no code of its own yet (named by its @name at the next mount). */
static int zzt_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		      struct gfs_node **out)
{
	struct zzt_world *w = ar->priv;
	struct zzt_board *b = zzt_board_of(w, dir, 1);
	size_t len = strlen(name);
	long s;

	if (!b && (b = zzt_board_of(w, dir, 0)))
		return zzt_create_view(ar, b, name, out);
	if (!b)
		return gfs_err(ar, -EPERM, "%s: only code/NAME.oop files can be created", name);
	if (len < 5 || strcmp(name + len - 4, ".oop"))
		return gfs_err(ar, -EINVAL, "%s: want NN.oop, NN a stat number, or NAME.oop", name);
	s = zzt_code_stat(b, name, len);
	if (s == -1)
		return gfs_err(ar, -EINVAL, "%s: want NN.oop, NN a stat number", name);
	if (s == -2)
		return gfs_err(ar, -EINVAL, "%s: board %u has no object or scroll without code",
			       name, b->idx);
	if ((size_t)s >= b->nstats)
		return gfs_err(ar, -EINVAL, "%s: board %u has no stat %ld", name, b->idx, s);
	if (b->stats[s].bind >= 0 || b->stats[s].code_node)
		return gfs_err(ar, -EINVAL, "%s: stat %ld already has code (or binds to another's)",
			       name, s);
	b->stats[s].final_cr = 1;
	b->rm_refused = 0;
	if (!zzt_add_code_node(ar, b, (unsigned)s, name))
		return -ENOMEM;
	*out = b->stats[s].code_node;
	return 0;
}

/*
 * Removing code/NAME.oop leaves the stat without code.  Removing another
 * view of a board is the start of rm -r: allowed when nothing leads to the
 * board (the board goes at rmdir), else EBUSY, and the refusal then holds
 * for as many code file removals as the board has code files (the rest of
 * that rm -r), so a refused rm -r changes nothing.
 */
static int zzt_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct zzt_world *w = ar->priv;
	struct zzt_ref *ref = n->priv;
	struct zzt_board *b;
	struct zzt_stat *s;
	int r;

	if (!ref || ref->kind == ZZT_V_WORLD || ref->kind == ZZT_V_RAW || ref->board >= w->nboards)
		return gfs_err(ar, -EPERM, "%s: only a board's files can be removed", n->name);
	b = &w->boards[ref->board];
	if (gfs_node_get_ops(n) == &zzt_ops_code && b->rm_refused > 0) {
		b->rm_refused--;	/* once per code file: the rest of that rm -r */
		return zzt_board_busy(ar, b);
	}
	if (gfs_node_get_ops(n) != &zzt_ops_code) {
		if ((r = zzt_board_busy(ar, b))) {
			b->rm_refused = b->code_dir && !gfs_dir_ready(ar, b->code_dir) ?
					(int)b->code_dir->nkids : 0;
			return r;
		}
		if (gfs_node_get_ops(n) != &zzt_ops_code) {
			gfs_node_remove(ar, n);
			return 0;
		}
	}
	if (ref->stat >= b->nstats)
		return -EPERM;
	s = &b->stats[ref->stat];
	if (s->code.len) {
		gfs_buf_release(&s->code);
		b->dirty = 1;
		ar->changed = 1;
	}
	s->code_node = NULL;
	ref->stat = ZZT_NO_STAT;
	gfs_node_remove(ar, n);
	gfs_tree_invalidate(ar);
	return 0;
}

/* The board at idx takes its new number: its views' references follow. */
static void zzt_board_renumber_refs(struct zzt_board *b, unsigned idx)
{
	struct gfs_node *dirs[2] = { b->dir, b->code_dir };

	b->idx = idx;
	for (size_t d = 0; d < 2; d++)
		for (size_t i = 0; dirs[d] && i < dirs[d]->nkids; i++) {
			struct gfs_node *k = dirs[d]->kids[i];

			if (!S_ISDIR(k->mode) && k->priv)
				((struct zzt_ref *)k->priv)->board = idx;
		}
}

/* The same, and its folder's name. */
static void zzt_board_renumber(struct gfs_archive *ar, struct zzt_board *b, unsigned idx)
{
	char dn[64];

	zzt_board_renumber_refs(b, idx);
	zzt_board_dirname(b, dn, sizeof(dn));
	gfs_node_move(ar, b->dir, b->dir->parent, dn);
}

/*
 * rmdir of an emptied board folder removes the board, as KevEdit's delete
 * does: later boards move down one number, and the exits, passages and
 * start board that led to them follow.
 */
static int zzt_rmdir(struct gfs_archive *ar, struct gfs_node *n)
{
	struct zzt_world *w = ar->priv;
	struct zzt_board *b;
	unsigned k;
	int r;

	if ((r = gfs_dir_ready(ar, n)))
		return r;
	if ((b = zzt_board_of(w, n, 1))) {
		if (n->nkids)
			return -ENOTEMPTY;
		b->code_dir = NULL;
		gfs_node_remove(ar, n);
		return 0;
	}
	b = zzt_board_of(w, n, 0);
	if (!b)
		return gfs_err(ar, -EPERM, "%s: only a board's folder can be removed", n->name);
	if ((r = zzt_board_busy(ar, b)))
		return r;
	if (n->nkids)
		return gfs_err(ar, -ENOTEMPTY, "%s: remove its files first (rm -r)", n->name);
	k = b->idx;
	zzt_board_release(b);
	gfs_node_remove(ar, n);
	memmove(b, b + 1, (w->nboards - k - 1) * sizeof(*b));
	w->nboards--;
	for (size_t i = k; i < w->nboards; i++)
		zzt_board_renumber(ar, &w->boards[i], (unsigned)i);
	zzt_each_ref(w, zzt_ref_shift, &k);
	zzt_set_count(ar, w);
	return 0;
}

/*
 * mv boards/NN-old boards/NN-new renames the board (its title); to another
 * number MM (1 to the last) it moves the board there as a board list's
 * "move" does: the boards between shift by one, and the start board, exits
 * and passages follow their boards.  Board 0, the title screen, stays.
 */
static int zzt_rename(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		      const char *newname)
{
	struct zzt_world *w = ar->priv;
	struct zzt_board *b = zzt_board_of(w, n, 0), keep;
	uint8_t title[ZZT_B_NAME_LEN_MAX];
	unsigned mv[2];
	size_t len;
	long num;
	int r;

	if (!b)
		return gfs_err(ar, -EPERM, "%s: only a board's folder can be renamed", n->name);
	if (newdir != w->boards_dir)
		return gfs_err(ar, -EINVAL, "%s: a board stays in boards/", n->name);
	if ((r = zzt_dir_title(ar, w, newname, &num, title, &len)))
		return r;
	mv[0] = b->idx;
	mv[1] = num < 0 ? b->idx : (unsigned)num;
	if (mv[1] != mv[0] && (!mv[0] || !mv[1]))
		return gfs_err(ar, -EINVAL, "%s: board 0 is the title screen: it keeps its number", newname);
	if (mv[1] >= w->nboards)
		return gfs_err(ar, -EINVAL, "%s: the last board is %02zu", newname, w->nboards - 1);
	if (len != b->name[0] || memcmp(b->name + 1, title, len)) {
		b->name[0] = (uint8_t)len;	/* the bytes after the name stay as they were */
		memcpy(b->name + 1, title, len);
		b->dirty = 1;
	}
	gfs_node_move(ar, n, newdir, newname);
	if (mv[1] != mv[0]) {
		zzt_each_ref(w, zzt_ref_move, mv);
		keep = *b;
		if (mv[0] < mv[1])
			memmove(b, b + 1, (mv[1] - mv[0]) * sizeof(*b));
		else
			memmove(&w->boards[mv[1] + 1], &w->boards[mv[1]], (mv[0] - mv[1]) * sizeof(*b));
		w->boards[mv[1]] = keep;
		w->boards[mv[1]].idx = mv[1];
		for (unsigned i = mv[0]; i != mv[1]; i = mv[0] < mv[1] ? i + 1 : i - 1)
			/* each takes the name the board before it freed */
			zzt_board_renumber(ar, &w->boards[i], i);
		zzt_board_renumber_refs(&w->boards[mv[1]], mv[1]);
	}
	ar->changed = 1;
	gfs_tree_invalidate(ar);
	return 0;
}

/* the title screen: board 0 */
static const char *const zzt_thumbnails[] = { "boards/*/board.png", NULL };

const struct gfs_format gfs_format_zzt = {
	.name = "zzt", .description = "ZZT or Super ZZT world or saved game",
	GFS_FORMAT_CALLS(zzt),
	.create = zzt_create, .unlink = zzt_unlink, .mkdir = zzt_mkdir, .rmdir = zzt_rmdir,
	.rename = zzt_rename,
	.thumbnails = zzt_thumbnails, .layout = zzt_layout_nth,
};
