/*
 * zzt.c - ZZT worlds and saved games (.zzt, .sav).
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
 *                             code/SS.oop board.png [extra.bin]
 *   trailing.bin              bytes after the last board, if any
 *   damaged.bin               from a board running past the file to its end
 *
 * A board nobody edited is copied from the old file byte for byte; an
 * edited one is serialised from the model (see zzt_view.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/zzt/zzt.h"

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

static void zzt_board_release(struct zzt_board *b)
{
	size_t i;

	for (i = 0; i < b->nstats; i++)
		gfs_buf_release(&b->stats[i].code);
	free(b->stats);
	free(b->rle);
	free(b->tail);
	free(b->elem);
	b->elem = b->color = NULL;
	b->stats = NULL;
	b->rle = NULL;
	b->tail = NULL;
	b->nstats = b->capstats = 0;
}

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
	int16_t type, nb;

	if (len < 4)
		return 0;
	type = zzt_s16(head + ZZT_H_TYPE);
	nb = zzt_s16(head + ZZT_H_NUMBOARDS);
	if (type == -1 && nb >= 0) {
		if (len > ZZT_H_NAME && head[ZZT_H_NAME] > ZZT_NAME_MAX)
			return ext ? 60 : 30;
		return ext ? 90 : 70;
	}
	if (type == -2)		/* Super ZZT: claimed so load can say so */
		return ext ? 60 : 30;
	return ext ? 10 : 0;
}

/*
 * Parse one board's bytes (after its size field).  On damage returns
 * -EBADMSG with the reason in why; the board is then shown raw.
 */
static int zzt_board_parse(struct zzt_board *b, const uint8_t *data, size_t size,
			   uint64_t base, char *why, size_t wl)
{
	struct gfs_rd r;
	size_t n = 0, start, i;
	int32_t count;

	gfs_rd_init(&r, data, size, base);
	if (gfs_rd_bytes(&r, b->name, ZZT_B_NAME_LEN)) {
		snprintf(why, wl, "at 0x%llx: board name runs past the board end",
			 (unsigned long long)gfs_rd_off(&r));
		return -EBADMSG;
	}
	b->elem = malloc(2 * ZZT_TILES);
	if (!b->elem)
		return -ENOMEM;
	b->color = b->elem + ZZT_TILES;
	start = r.pos;
	while (n < ZZT_TILES) {
		uint64_t at = gfs_rd_off(&r);
		uint8_t cnt, e, c;
		size_t run;

		if (gfs_rd_u8(&r, &cnt) || gfs_rd_u8(&r, &e) || gfs_rd_u8(&r, &c)) {
			snprintf(why, wl, "at 0x%llx: RLE runs past the board end after %zu tiles",
				 (unsigned long long)at, n);
			return -EBADMSG;
		}
		run = cnt ? cnt : 256;
		if (n + run > ZZT_TILES) {
			snprintf(why, wl, "at 0x%llx: RLE runs past 1500 tiles (run of %zu at tile %zu)",
				 (unsigned long long)at, run, n);
			return -EBADMSG;
		}
		memset(b->elem + n, e, run);
		memset(b->color + n, c, run);
		n += run;
	}
	b->rle_len = r.pos - start;
	b->rle = malloc(b->rle_len);
	if (!b->rle)
		return -ENOMEM;
	memcpy(b->rle, data + start, b->rle_len);
	if (gfs_rd_bytes(&r, b->props, ZZT_P_SIZE)) {
		snprintf(why, wl, "at 0x%llx: board properties run past the board end",
			 (unsigned long long)gfs_rd_off(&r));
		return -EBADMSG;
	}
	count = (int32_t)zzt_s16(b->props + ZZT_P_NSTATS) + 1;
	if (count < 0 || (size_t)count * ZZT_S_SIZE > gfs_rd_left(&r)) {
		snprintf(why, wl, "at 0x%llx: stat count %d overruns the board",
			 (unsigned long long)(gfs_rd_off(&r) - 2), (int)count);
		return -EBADMSG;
	}
	b->stats = calloc((size_t)count ? (size_t)count : 1, sizeof(*b->stats));
	if (!b->stats)
		return -ENOMEM;
	b->capstats = count ? (size_t)count : 1;
	for (i = 0; i < (size_t)count; i++) {
		struct zzt_stat *s = &b->stats[i];
		uint64_t at = gfs_rd_off(&r);
		int32_t len;
		const uint8_t *p;

		s->bind = -1;
		s->final_cr = 1;
		b->nstats = i + 1;
		if (gfs_rd_bytes(&r, s->rec, ZZT_S_SIZE)) {
			snprintf(why, wl, "at 0x%llx: stat %zu runs past the board end",
				 (unsigned long long)at, i);
			return -EBADMSG;
		}
		len = zzt_s16(s->rec + ZZT_S_LENGTH);
		if (len > 0) {
			if (gfs_rd_ptr(&r, &p, (size_t)len)) {
				snprintf(why, wl, "at 0x%llx: code length %d of stat %zu runs past the board end",
					 (unsigned long long)(at + ZZT_S_LENGTH), (int)len, i);
				return -EBADMSG;
			}
			if (gfs_buf_add(&s->code, p, (size_t)len))
				return -ENOMEM;
			s->final_cr = p[len - 1] == '\r';
		} else if (len < 0) {
			s->bind = -len;
			if (s->bind >= count) {
				snprintf(why, wl, "at 0x%llx: stat %zu binds to stat %d, which does not exist "
					 "(%d stats)", (unsigned long long)(at + ZZT_S_LENGTH), i, s->bind,
					 (int)count);
				return -EBADMSG;
			}
		}
	}
	b->tail_len = gfs_rd_left(&r);
	if (b->tail_len) {
		b->tail = malloc(b->tail_len);
		if (!b->tail)
			return -ENOMEM;
		memcpy(b->tail, data + r.pos, b->tail_len);
	}
	return 0;
}

/* "NN-slug" from the board name: lower-case ASCII letters and digits. */
static void zzt_board_dirname(const struct zzt_board *b, char *out, size_t len)
{
	char slug[41];
	size_t n = 0, i, nl = b->name[0] > ZZT_B_NAME_MAX ? ZZT_B_NAME_MAX : b->name[0];
	int dash = 0;

	for (i = 0; i < nl && n < sizeof(slug) - 1; i++) {
		unsigned char c = b->name[1 + i];

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && n)
				slug[n++] = '-';
			dash = 0;
			if (n < sizeof(slug) - 1)
				slug[n++] = (char)c;
		} else if (c >= 'A' && c <= 'Z') {
			if (dash && n)
				slug[n++] = '-';
			dash = 0;
			if (n < sizeof(slug) - 1)
				slug[n++] = (char)(c - 'A' + 'a');
		} else {
			dash = 1;
		}
	}
	slug[n] = 0;
	if (n)
		snprintf(out, len, "%02u-%s", b->idx, slug);
	else
		snprintf(out, len, "%02u", b->idx);
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
	if (ar->readonly)	/* a damaged world: nothing is editable */
		mode = S_IFREG | 0444;
	n = gfs_node_new_file(ar, dir, name, mode, ops, ref);
	if (!n)
		free(ref);
	return n;
}

struct gfs_node *zzt_add_code_node(struct gfs_archive *ar, struct zzt_board *b, unsigned s)
{
	char name[32];

	if (s < 100)	/* "%02u.oop" without snprintf: 5,000 of them in a big world */
		memcpy(name, (char[]){ (char)('0' + s / 10), (char)('0' + s % 10), '.', 'o', 'o', 'p', 0 }, 7);
	else
		snprintf(name, sizeof(name), "%02u.oop", s);
	b->stats[s].code_node = zzt_view_node(ar, b->code_dir, name, S_IFREG | 0644,
					      &zzt_ops_code, ZZT_V_CODE, b->idx, s);
	if (b->stats[s].code_node && b->stats[s].code_ino)
		gfs_node_set_ino(b->stats[s].code_node, b->stats[s].code_ino);	/* reserved at load */
	b->stats[s].code_ino = 0;
	return b->stats[s].code_node;
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
	struct zzt_world *w;
	struct gfs_node *boards;
	uint64_t off;
	int32_t nb;
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
	type = zzt_s16(file.data + ZZT_H_TYPE);
	if (type == -2) {
		r = gfs_err_at(ar, -EBADMSG, 0, "Super ZZT world (first word -2): not supported, "
			       "only ZZT worlds (first word -1) are");
		goto out_file;
	}
	if (type != -1) {
		r = gfs_err_at(ar, -EBADMSG, 0, "first word is %d, not -1: not a ZZT world", type);
		goto out_file;
	}
	if (file.len < ZZT_HDR_SIZE) {
		r = gfs_err_at(ar, -EBADMSG, file.len, "world header truncated: %zu of %d bytes",
			       file.len, ZZT_HDR_SIZE);
		goto out_file;
	}
	nb = (int32_t)zzt_s16(file.data + ZZT_H_NUMBOARDS) + 1;
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
	/* every board takes at least its 2-byte size field: allocate no more */
	w->boards = calloc(min_size((size_t)nb, (file.len - ZZT_HDR_SIZE) / 2 + 1),
			   sizeof(*w->boards));
	if (!w->boards) {
		r = -ENOMEM;
		goto out_file;
	}
	memcpy(w->hdr, file.data, ZZT_HDR_SIZE);
	w->file_size = file.len;
	off = ZZT_HDR_SIZE;
	for (i = 0; i < (size_t)nb; i++) {
		struct zzt_board *b;
		char why[200];
		uint32_t size;

		if (off + 2 > file.len) {
			snprintf(why, sizeof(why), "at 0x%llx: the file ends before it (%d boards declared)",
				 (unsigned long long)off, (int)nb);
			zzt_note_damage(ar, w, (unsigned)i, why);
			w->truncated = 1;
			break;
		}
		b = &w->boards[i];
		b->idx = (unsigned)i;
		b->off = off;
		size = (uint32_t)file.data[off] | (uint32_t)file.data[off + 1] << 8;
		if (off + 2 + size > file.len) {
			snprintf(why, sizeof(why), "at 0x%llx: size %u runs past the end of the file "
				 "(%llu bytes left); it and the boards after it are not shown",
				 (unsigned long long)off, size,
				 (unsigned long long)(file.len - off - 2));
			zzt_note_damage(ar, w, (unsigned)i, why);
			w->truncated = 1;
			break;
		}
		b->size = size;
		w->nboards = i + 1;
		r = zzt_board_parse(b, file.data + off + 2, size, off + 2, why, sizeof(why));
		if (r == -ENOMEM)
			goto out_file;
		if (r) {
			zzt_board_release(b);
			b->damaged = 1;
			w->ndamaged++;
			zzt_note_damage(ar, w, (unsigned)i, why);
		}
		off += 2 + size;
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
						S_IFREG | (ar->readonly ? 0444 : 0644),
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
	r = w->hdr_dirty ? gfs_writer_put(wr, w->hdr, ZZT_HDR_SIZE)
			 : gfs_writer_copy(wr, 0, ZZT_HDR_SIZE);
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
			if (!r && enc.len - 2 > ZZT_BOARD_ZZT_MAX)
				gfs_warn(ar, "board %u is %zu bytes: more than ZZT itself loads (%d)",
					 b->idx, enc.len - 2, ZZT_BOARD_ZZT_MAX);
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
		if (b->tiles_changed && !zzt_rle_encode(b->elem, b->color, &enc)) {
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

static int zzt_check(struct gfs_archive *ar, FILE *out)
{
	struct zzt_world *w = ar->priv;
	size_t i;

	fprintf(out, "ZZT %s: %zu of %d boards loaded\n",
		w->hdr[ZZT_H_SAVED] ? "saved game" : "world", w->nboards,
		zzt_s16(w->hdr + ZZT_H_NUMBOARDS) + 1);
	for (i = 0; i < w->nboards; i++) {
		struct zzt_board *b = &w->boards[i];

		if (b->damaged)
			fprintf(out, "board %zu at 0x%llx: damaged\n", i, (unsigned long long)b->off);
		else if (b->size > ZZT_BOARD_ZZT_MAX)
			fprintf(out, "board %zu: %u bytes, more than ZZT itself loads (%d)\n",
				i, b->size, ZZT_BOARD_ZZT_MAX);
		if (!b->damaged && b->tail_len)
			fprintf(out, "board %zu: %zu bytes after the last stat (kept as extra.bin)\n",
				i, b->tail_len);
	}
	if (w->damage[0])
		fprintf(out, "damage: %s\n", w->damage);
	if (w->trailing) {
		uint64_t len = 0;

		gfs_node_size(ar, w->trailing, &len);
		fprintf(out, "%llu bytes after the last board (kept as trailing.bin)\n",
			(unsigned long long)len);
	}
	return w->truncated || w->ndamaged ? 1 : 0;
}

/* code/NN.oop of every stat with a program, when code/ is first listed or looked into */
static int zzt_populate_code(struct gfs_archive *ar, struct gfs_node *dir)
{
	struct zzt_world *w = ar->priv;

	for (size_t i = 0; i < w->nboards; i++) {
		struct zzt_board *b = &w->boards[i];

		if (b->code_dir != dir)
			continue;
		for (size_t k = 0; k < b->nstats; k++)
			if (b->stats[k].bind < 0 && b->stats[k].code.len && !b->stats[k].code_node &&
			    !zzt_add_code_node(ar, b, (unsigned)k))
				return -ENOMEM;
	}
	return 0;
}

const struct gfs_node_ops zzt_ops_code_dir = { .populate = zzt_populate_code };

/* code/NN.oop for a stat that has no code of its own yet. */
static int zzt_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		      struct gfs_node **out)
{
	struct zzt_world *w = ar->priv;
	struct zzt_board *b = NULL;
	size_t i, len = strlen(name);
	unsigned long s = 0;
	char canon[32];

	for (i = 0; i < w->nboards; i++)
		if (w->boards[i].code_dir == dir)
			b = &w->boards[i];
	if (!b)
		return gfs_err(ar, -EPERM, "%s: only code/NN.oop files can be created", name);
	if (len < 5 || len > 9 || strcmp(name + len - 4, ".oop"))
		return gfs_err(ar, -EINVAL, "%s: want NN.oop, NN a stat number", name);
	for (i = 0; i < len - 4; i++) {
		if (name[i] < '0' || name[i] > '9')
			return gfs_err(ar, -EINVAL, "%s: want NN.oop, NN a stat number", name);
		s = s * 10 + (unsigned long)(name[i] - '0');
	}
	if (s >= b->nstats)
		return gfs_err(ar, -EINVAL, "%s: board %u has no stat %lu", name, b->idx, s);
	if (b->stats[s].bind >= 0 || b->stats[s].code_node)
		return gfs_err(ar, -EINVAL, "%s: stat %lu already has code (or binds to another's)",
			       name, s);
	snprintf(canon, sizeof(canon), "%02lu.oop", s);
	if (strcmp(name, canon))
		return gfs_err(ar, -EINVAL, "%s: the code file of stat %lu is %s", name, s, canon);
	b->stats[s].final_cr = 1;
	if (!zzt_add_code_node(ar, b, (unsigned)s))
		return -ENOMEM;
	*out = b->stats[s].code_node;
	return 0;
}

/* Removing code/NN.oop leaves the stat without code. */
static int zzt_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct zzt_world *w = ar->priv;
	struct zzt_ref *ref = n->priv;
	struct zzt_board *b;
	struct zzt_stat *s;

	if (!ref || gfs_node_get_ops(n) != &zzt_ops_code || ref->board >= w->nboards)
		return gfs_err(ar, -EPERM, "%s: only code files can be removed", n->name);
	b = &w->boards[ref->board];
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

const struct gfs_format gfs_format_zzt = {
	.name = "zzt",
	.description = "ZZT world or saved game",
	.bid = zzt_bid,
	.load = zzt_load,
	.save = zzt_save,
	.committed = zzt_committed,
	.free = zzt_free,
	.check = zzt_check,
	.create = zzt_create,
	.unlink = zzt_unlink,
};
