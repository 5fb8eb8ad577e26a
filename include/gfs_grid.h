/*
 * gfs_grid.h - the one CSV dialect of every grid and table view.
 *
 * Dialect (what gfs_grid_parse() accepts; renders write its plain subset):
 *   - UTF-8 text, an optional byte order mark, LF or CRLF line ends, no NUL;
 *   - blank lines (spaces and tabs only) are skipped anywhere;
 *   - cells are separated by commas and trimmed of spaces and tabs; a cell
 *     may be "quoted", with "" for a quote inside (commas then belong to
 *     the cell; a quoted cell ends on its line);
 *   - the header row is optional: the first non-blank row is a header when
 *     its first cell does not start like a number (digit, '+', '-', '.').
 * Errors name the view, the line and the column:
 *   "layer00.csv: line 4, column 7: 'x' is not in -1..65534".
 *
 * Ownership: the grid owns a copy of the text; every cell points into it
 * and lives until gfs_grid_release().
 */
#ifndef GFS_GRID_H
#define GFS_GRID_H

#include <stddef.h>
#include <stdint.h>
#include "gfs_buf.h"

struct gfs_archive;

struct gfs_grid_row {
	unsigned line;			/* 1-based line of the view */
	size_t ncells;
	char **cell;			/* NUL-terminated, unquoted, trimmed */
};

struct gfs_grid {
	const char *view;		/* name used in messages (not owned) */
	const char *const *names;	/* expected column names, or NULL */
	char *text;			/* owned copy the cells live in */
	char **cells;			/* owned: every cell of every row */
	struct gfs_grid_row header;	/* ncells == 0: the view had none */
	struct gfs_grid_row *rows;	/* owned: the data rows, blank lines left out */
	size_t nrows;
};

/*
 * Split data into rows.  ncols > 0: every row, the header too, must have
 * exactly ncols cells.  names (ncols of them, NULL-terminated when ncols is
 * 0, or NULL): a header row, when there is one, must name those columns
 * (case and blanks ignored), and no more.  On
 * failure returns -EINVAL after gfs_err() (or -ENOMEM) and g holds nothing.
 */
int gfs_grid_parse(struct gfs_archive *ar, const char *view, const uint8_t *data, size_t len,
		   size_t ncols, const char *const *names, struct gfs_grid *g);
void gfs_grid_release(struct gfs_grid *g);

/* Cell col of data row row as an integer in [min, max] (decimal or 0x hex). */
int gfs_grid_int(struct gfs_archive *ar, const struct gfs_grid *g, size_t row, size_t col,
		 int64_t min, int64_t max, int64_t *v);
/* -EINVAL after gfs_err() naming the cell's line and column: "...: what". */
int gfs_grid_err(struct gfs_archive *ar, const struct gfs_grid *g, size_t row, size_t col,
		 const char *what);
/*
 * A w x h grid of 16-bit cells: h data rows of w values in -1..max, -1
 * standing for 0xffff.  Parse with ncols = w first.
 */
int gfs_grid_u16(struct gfs_archive *ar, const struct gfs_grid *g, size_t w, size_t h,
		 int64_t max, uint16_t *out);

/* A w x h grid of bytes: h data rows of w values in 0..255.  Parse with ncols = w first. */
int gfs_grid_u8(struct gfs_archive *ar, const struct gfs_grid *g, size_t w, size_t h,
		uint8_t *out);

/*
 * A whole w x h grid view: data parsed (no header names) into out[0..w * h)
 * by gfs_grid_u16() or gfs_grid_u8(), the grid released.  0 or -EINVAL
 * after gfs_err() (-ENOMEM).
 */
int gfs_grid_read_u16(struct gfs_archive *ar, const char *view, const uint8_t *data, size_t len,
		      size_t w, size_t h, int64_t max, uint16_t *out);
int gfs_grid_read_u8(struct gfs_archive *ar, const char *view, const uint8_t *data, size_t len,
		     size_t w, size_t h, uint8_t *out);
/* Render a whole w x h grid view: its "x0,...,x{w-1}" header, then h rows of v (as below). */
int gfs_grid_write_u16(struct gfs_buf *out, const uint16_t *v, size_t w, size_t h);
int gfs_grid_write_u8(struct gfs_buf *out, const uint8_t *v, size_t w, size_t h);
/* Render "x0,x1,...,x{w-1}\n", the header of a grid of w columns. */
int gfs_grid_xheader(struct gfs_buf *out, size_t w);
/* The same with the columns numbered from first: "x1,...,xw" for first = 1. */
int gfs_grid_xheader_from(struct gfs_buf *out, size_t w, size_t first);
/* Render v[0..n) as rows of w comma-separated values, 0xffff as -1. */
int gfs_grid_render_u16(struct gfs_buf *out, const uint16_t *v, size_t n, size_t w);
/* Render v[0..n) as rows of w comma-separated values 0..255. */
int gfs_grid_render_u8(struct gfs_buf *out, const uint8_t *v, size_t n, size_t w);

#endif
