/*
 * gfs_driver.h - the driver contract: everything a format module sees.
 *
 * A format includes this header and nothing else of the core (not
 * gamefs.h, which is the front ends' API, nor src/core/core.h).  It exports
 * one const struct gfs_format, listed in src/core/formats.c.  The format
 * parses the archive into its own model (ar->priv) and builds a tree of
 * struct gfs_node whose files are views of that model: raw spans of the
 * archive, rendered text/CSV/INI/PNG, or edited bytes the core holds.
 *
 * Ownership: the archive owns every node, every buffer hanging off a node,
 * and the format's model (ar->priv, freed by the format's free()).
 * Functions that can fail return 0 or a negative errno; on failure they
 * leave a one-line message in ar->err.
 *
 * The structs below carry fields only the core and the front ends use.
 * They are marked GFS_CORE_ONLY: in a format's compilation they are
 * unavailable (naming one is a compile error), so the core's bookkeeping
 * (inode numbers, spans, open counts, edit buffers, the hash...) changes
 * only through the functions declared here.  gamefs.h lifts the mark for
 * the core and the front ends.
 */
#ifndef GFS_DRIVER_H
#define GFS_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "gfs_buf.h"
#include "gfs_rd.h"

#ifdef GFS_CORE_SIDE
#define GFS_CORE_ONLY
#else
#define GFS_CORE_ONLY __attribute__((unavailable("core only: not part of the driver contract (gfs_driver.h)")))
#endif

struct gfs_archive;
struct gfs_node;
struct gfs_writer;

/* ---- nodes --------------------------------------------------------------- */

/*
 * What a format plugs into one file node.  All callbacks are optional.
 *
 * render: produce the whole content of the view into out (empty on entry).
 *         Called lazily; the result is cached until the next commit.
 *         A node with neither render nor a span reads as empty.
 * size:   cheap exact size of the rendered view, if the format knows it
 *         without rendering; return 0 and set *size, or -ENOSYS.
 * store:  parse edited bytes of the view back into the model.  Return
 *         -EINVAL (after gfs_err()) when the bytes do not parse or break a
 *         format limit; the core then drops the edit and the file reads back
 *         its last good content.  NULL store on an editable node means the
 *         format takes the bytes verbatim at save time (gfs_writer_node()).
 * free:   release node->priv.
 * populate: directories made with gfs_node_set_lazy(): make the entries
 *         (files only) on first use.  The core calls it once, before the
 *         first lookup or listing; its nodes come from the load-time
 *         chunks like the load's own.
 */
struct gfs_node_ops {
	int (*render)(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out);
	int (*size)(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size);
	int (*store)(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len);
	void (*free)(void *priv);
	int (*populate)(struct gfs_archive *ar, struct gfs_node *dir);
};

struct gfs_node {
	char *name;
	mode_t mode;			/* S_IFDIR|0755, S_IFREG|0644 or 0444 */
	struct gfs_node *parent;
	struct gfs_node **kids;		/* directory entries, in archive order */
	size_t nkids;
	void *priv;			/* the format's; freed with ops->free */

	uint64_t ino GFS_CORE_ONLY;	/* gfs_ino_reserve(), gfs_node_set_ino() */
	unsigned flags GFS_CORE_ONLY;	/* GFS_NODE_* of gamefs.h */
	size_t capkids GFS_CORE_ONLY;
	size_t nsubdirs GFS_CORE_ONLY;	/* of the kids, directories (for st_nlink) */
	size_t hkey GFS_CORE_ONLY;	/* hash of (parent, name) */
	struct gfs_archive *ar GFS_CORE_ONLY;	/* the archive it belongs to */
	const struct gfs_node_ops *ops GFS_CORE_ONLY;	/* gfs_node_get_ops() */
	uint64_t span_off GFS_CORE_ONLY;	/* gfs_node_set_span() */
	uint64_t span_len GFS_CORE_ONLY;
	struct gfs_buf *edit GFS_CORE_ONLY;	/* edited content, authoritative until commit */
	struct gfs_buf *cache GFS_CORE_ONLY;	/* rendered content */
	struct gfs_buf *good GFS_CORE_ONLY;	/* its render before the edit stored (gfs_commit_undo) */
	int dirty GFS_CORE_ONLY;	/* edit not yet given to ops->store */
	int modified GFS_CORE_ONLY;	/* edit stored, not yet committed */
	struct timespec mtime GFS_CORE_ONLY;
	int open_count GFS_CORE_ONLY;	/* open handles: gfs_node_is_open() */
	int writers GFS_CORE_ONLY;	/* of them, open for writing */
	int unlinked GFS_CORE_ONLY;	/* detached: gfs_node_is_removed() */
	/* the kernel's page cache of a render (src/core/handle.c gfs_cache_open) */
	uint32_t pc_open GFS_CORE_ONLY;	/* opens reading through it */
	uint32_t pc_gen GFS_CORE_ONLY;	/* the view generation its pages hold */
	uint32_t pc_closed GFS_CORE_ONLY;	/* invalidations begun when the last of them closed */
	uint64_t pc_size GFS_CORE_ONLY;	/* their size, what stat says meanwhile */
};

/*
 * 1 where load-time memory may come in blocks (node chunks, format pools)
 * that are not freed object by object; 0 under AddressSanitizer, so every
 * object is its own allocation and a use after free shows.
 */
#if defined(__SANITIZE_ADDRESS__)
#define GFS_POOLS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define GFS_POOLS 0
#endif
#endif
#ifndef GFS_POOLS
#define GFS_POOLS 1
#endif

/* ---- formats ------------------------------------------------------------- */

/* One -o KEY=VALUE mount option a format takes, for the usage text. */
struct gfs_format_option {
	const char *key;		/* "atlas" */
	const char *arg;		/* "PATH" */
	const char *help;		/* "companion image of a .lay layout" */
};

/*
 * A format driver.  bid() looks at the first bytes of the file (head, at
 * most GFS_PROBE_BYTES) and its name and returns 0 (not mine) to 100 (magic
 * matched).  load() parses the archive (gfs_pread(), gfs_read_all()) into
 * ar->priv and fills ar->root; it may keep spans of the file instead of
 * reading them (large archives).  save() writes the whole new archive
 * through w, streaming unchanged parts with gfs_writer_copy(), and a second
 * file, if the format has one, through gfs_writer_companion(); committed()
 * is called after the new files replaced the old ones, so the format can
 * point its spans at their new offsets (gfs_writer_tell() during save tells
 * where each part went).
 *
 * options lists the mount options the format takes (NULL-terminated by a
 * NULL key, or NULL for none); option() receives each one given, after the
 * format is chosen and before load(), with ar->priv still NULL unless an
 * earlier option() set it (load() then keeps it).  It returns 0, or
 * -EINVAL after gfs_err() for a bad value; the open then fails.
 *
 * create/unlink/rename/mkdir/rmdir change the tree; NULL means the format
 * cannot express the operation (EPERM).  create() must add the node with
 * gfs_node_new_file() and set *out.  rename() may assume the target does not
 * exist (the core unlinks it first) and must call gfs_node_move().
 * check() prints what `gamefs check` reports and returns 0 ok, 1 damaged.
 *
 * thumbnails names the PNG views that picture the archive, best first
 * (NULL-terminated, or NULL for none): tree paths whose components may
 * hold fnmatch(3) wildcards, the first match in tree order counting.
 * `gamefs thumbnail` scales the first one that renders as a PNG.
 *
 * layout(i) gives the format's i-th record table (gfs_record.h), NULL
 * past the last (or layout is NULL): the fuzz target drives each through
 * the record codec.
 */
struct gfs_record;
struct gfs_format {
	const char *name;
	const char *description;
	int (*bid)(const uint8_t *head, size_t len, const char *path);
	int (*load)(struct gfs_archive *ar);
	int (*save)(struct gfs_archive *ar, struct gfs_writer *w);
	void (*committed)(struct gfs_archive *ar);
	void (*free)(struct gfs_archive *ar);
	int (*check)(struct gfs_archive *ar, FILE *out);
	int (*create)(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out);
	int (*unlink)(struct gfs_archive *ar, struct gfs_node *n);
	int (*rename)(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir, const char *newname);
	int (*mkdir)(struct gfs_archive *ar, struct gfs_node *dir, const char *name, struct gfs_node **out);
	int (*rmdir)(struct gfs_archive *ar, struct gfs_node *n);
	const struct gfs_format_option *options;
	int (*option)(struct gfs_archive *ar, const char *key, const char *value);
	const char *const *thumbnails;
	const struct gfs_record *(*layout)(size_t i);
};

/*
 * The six calls every format has, named after its tag (static functions of
 * the format): GFS_FORMAT_CALLS(zzt) is .bid = zzt_bid, .load = zzt_load,
 * .save = zzt_save, .committed = zzt_committed, .free = zzt_free and
 * .check = zzt_check.
 */
#define GFS_FORMAT_CALLS(tag) .bid = tag##_bid, .load = tag##_load, .save = tag##_save, \
	.committed = tag##_committed, .free = tag##_free, .check = tag##_check

#define GFS_PROBE_BYTES 4096

/* ---- archives ------------------------------------------------------------ */

enum gfs_commit_mode { GFS_COMMIT_CLOSE, GFS_COMMIT_UNMOUNT };

/* A format's own mount option, KEY=VALUE, given to its option(). */
struct gfs_format_arg {
	const char *key;
	const char *value;
};

#define GFS_MAX_FORMAT_ARGS 8

/* How to open an archive; strings are the caller's, kept until close. */
struct gfs_opts {
	const char *format;		/* NULL: detect */
	int readonly;
	int backup;
	int force;			/* commit over an archive with bad CRCs */
	enum gfs_commit_mode commit;
	struct gfs_format_arg fmtargs[GFS_MAX_FORMAT_ARGS];	/* see gfs_opts_format_arg() */
	size_t nfmtargs;
};

struct gfs_hslot {
	size_t key;
	struct gfs_node *node;
};

struct gfs_companion;
struct gfs_bgcheck;

/*
 * An open archive.  A format reads path/dir/base/st/opts, owns priv, fills
 * root, and may set readonly + ro_reason (a usable but unwritable file),
 * damaged (bad CRCs: commits need -o force) and changed (a structural
 * change to write back).
 */
struct gfs_archive {
	char *path;			/* as given */
	char *dir;			/* its directory ("" for an in-memory archive) */
	char *base;			/* its file name */
	struct stat st;			/* of the archive at open or last commit */
	void *priv;			/* the format's model */
	struct gfs_opts opts;
	int readonly;			/* opts.readonly, or forced by the format */
	char ro_reason[256];		/* why the format forced read-only */
	struct gfs_node *root;
	int changed;			/* structure changed since last commit */
	int damaged;			/* format saw bad CRCs at load (commit needs force) */
	char err[512];

	int fd GFS_CORE_ONLY;		/* the archive as it is on disk now: gfs_pread() */
	int retired_fd[8] GFS_CORE_ONLY;	/* earlier archive files, closed 30 s after a commit */
	time_t retired_at[8] GFS_CORE_ONLY;	/* (a splice in flight may still read them) */
	const struct gfs_format *fmt GFS_CORE_ONLY;
	uint64_t next_ino GFS_CORE_ONLY;	/* gfs_ino_reserve() */
	struct gfs_hslot *hash GFS_CORE_ONLY;	/* (parent, name) -> node */
	size_t hsize GFS_CORE_ONLY;
	size_t hcount GFS_CORE_ONLY;
	void *chunks GFS_CORE_ONLY;	/* load-time node memory */
	int loading GFS_CORE_ONLY;	/* in fmt->load or a populate(): nodes come from chunks */
	int backed_up GFS_CORE_ONLY;
	struct gfs_companion *companions GFS_CORE_ONLY;	/* gfs_companion_add() */
	size_t ncompanions GFS_CORE_ONLY;
	uid_t uid GFS_CORE_ONLY;
	gid_t gid GFS_CORE_ONLY;
	void (*log)(const char *msg) GFS_CORE_ONLY;	/* warnings; default stderr */
	struct gfs_bgcheck *bgcheck GFS_CORE_ONLY;	/* gfs_check_later() */
	/* a front end told of every node freed (its handles to the kernel's nodes) */
	void (*node_gone)(void *arg, struct gfs_node *n) GFS_CORE_ONLY;
	/* and of every name that leaves a directory (a node moved or removed) */
	void (*name_gone)(void *arg, struct gfs_node *dir, const char *name) GFS_CORE_ONLY;
	void *node_gone_arg GFS_CORE_ONLY;
	int checks_async GFS_CORE_ONLY;	/* run them in a thread (a mount) */
};

/* Record a one-line failure in ar->err; always returns err (negative). */
int gfs_err(struct gfs_archive *ar, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Same, prefixed "FILE: FORMAT: at 0xOFF: ". */
int gfs_err_at(struct gfs_archive *ar, int err, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* ar->err without its "FILE: FORMAT: " prefix, to quote it in another message. */
const char *gfs_err_reason(const struct gfs_archive *ar);
/* A warning line to the archive's log, prefixed like gfs_err. */
void gfs_warn(struct gfs_archive *ar, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Read exactly len bytes at off from the archive file (-EBADMSG if short). */
int gfs_pread(struct gfs_archive *ar, void *buf, size_t len, uint64_t off);
/* Read the whole archive file into b (small formats only). */
int gfs_read_all(struct gfs_archive *ar, struct gfs_buf *b, size_t max);

/*
 * A check too slow for load(), such as the whole-file CRC of a big archive.
 * load() (or committed(), for the new file) hands it to the core with
 * gfs_check_later(); a mount runs it in a thread of low priority while the
 * tree is already served, other front ends run it when it is first needed.
 * fn may read the archive with gfs_pread() and its own arg and nothing else
 * of ar; it returns 0 (sound), 1 after writing a one-line reason into why
 * (damaged), or -errno (could not read).  Every commit waits for the
 * verdict before it writes anything; a bad one (1 or -errno) marks the
 * archive damaged and, without -o force, read-only with that reason, said
 * in the log (.gamefs.log, stderr).  fn should return -ECANCELED soon after
 * gfs_check_stopping() becomes 1 (the archive is closing).
 * gfs_check_wait() runs or waits for the pending check and returns its
 * verdict (0 when there is none); a format's check() or save() calls it
 * before it uses what fn left in arg.
 */
typedef int (*gfs_check_fn)(struct gfs_archive *ar, void *arg, char *why, size_t whylen);
int gfs_check_later(struct gfs_archive *ar, gfs_check_fn fn, void *arg);
int gfs_check_wait(struct gfs_archive *ar);
int gfs_check_stopping(struct gfs_archive *ar);

/* ---- the tree ------------------------------------------------------------ */

struct gfs_node *gfs_node_new_dir(struct gfs_archive *ar, struct gfs_node *parent,
				  const char *name);
/* A file.  mode is 0644 (editable) or 0444 (read-only view). */
struct gfs_node *gfs_node_new_file(struct gfs_archive *ar, struct gfs_node *parent,
				   const char *name, mode_t mode,
				   const struct gfs_node_ops *ops, void *priv);
/* Same, with content = a span of the archive file. */
struct gfs_node *gfs_node_new_span(struct gfs_archive *ar, struct gfs_node *parent,
				   const char *name, mode_t mode,
				   const struct gfs_node_ops *ops, void *priv,
				   uint64_t off, uint64_t len);
/*
 * Point n's content at a span of the archive file (in committed(), the
 * span's place in the new file).  A render in n's ops still wins.
 */
void gfs_node_set_span(struct gfs_node *n, uint64_t off, uint64_t len);
/*
 * Make dir a lazy directory: its files are made by ops->populate on first
 * use, in the order and with the names the load would have used.
 */
void gfs_node_set_lazy(struct gfs_node *dir, const struct gfs_node_ops *ops);
/*
 * An inode number for a node made later (by populate()), so that it gets
 * the number it would have had if made now; give it with gfs_node_set_ino()
 * to the node as soon as it exists.
 */
uint64_t gfs_ino_reserve(struct gfs_archive *ar);
void gfs_node_set_ino(struct gfs_node *n, uint64_t ino);
/* The ops n was made with (to tell a format's kinds of node apart). */
const struct gfs_node_ops *gfs_node_get_ops(const struct gfs_node *n);
/* Has n open handles?  Was it removed from the tree (kept while open)? */
int gfs_node_is_open(const struct gfs_node *n);
int gfs_node_is_removed(const struct gfs_node *n);
/*
 * Is n's content, unedited, the archive's bytes at [off, off + len): a
 * stored span there, or (views) a node drawn from them with no edit?
 */
int gfs_node_is_stored_at(const struct gfs_node *n, uint64_t off, uint64_t len, int views);
/*
 * Make name safe and unique in dir: '/' and control bytes replaced by '_',
 * empty becomes "_", a clash gets " (2)", " (3)"... before the extension.
 * Returns a malloc'd string.
 */
char *gfs_unique_name(struct gfs_node *dir, const char *name);
/*
 * The same with a bounded search for a format whose directories can hold
 * very many clashing names: after " (9)" comes " (#INDEX)", then
 * " (#INDEX-10)" ... " (#INDEX-999)", then NULL (also when out of memory).
 * index SIZE_MAX: no bound, as gfs_unique_name().
 */
char *gfs_unique_name_ix(struct gfs_node *dir, const char *name, size_t index);
/*
 * The sanitized base gfs_unique_name() numbers (malloc'd, NULL when out of
 * memory): '/' and control bytes '_', other bytes that are not UTF-8 \xNN,
 * "", "." and ".." "_", cut to 200 bytes at a character boundary.  Compare
 * a node's name with this, not with the raw name, to see whether it still
 * fits the name.
 */
char *gfs_safe_name(const char *name);
/* Make room for count more nodes at once (a load that knows its size). */
int gfs_tree_reserve(struct gfs_archive *ar, size_t count);
/* 1 if name needs nothing of gfs_unique_name(): safe as it is and free in dir. */
int gfs_name_usable(struct gfs_node *dir, const char *name);
/*
 * Make a lazy directory's entries now (once); every walk of dir->kids
 * outside the core calls this first.  A lookup in dir does it too.
 */
int gfs_dir_ready(struct gfs_archive *ar, struct gfs_node *dir);
struct gfs_node *gfs_node_child(struct gfs_archive *ar, struct gfs_node *dir, const char *name);
struct gfs_node *gfs_node_lookup(struct gfs_archive *ar, const char *path);
/* Detach n from its directory (the core frees it when nobody has it open). */
void gfs_node_remove(struct gfs_archive *ar, struct gfs_node *n);
void gfs_node_move(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		   const char *newname);
/* Full path of n from the root, into b (no leading slash; root is ""). */
int gfs_node_path(struct gfs_node *n, struct gfs_buf *b);
/* The same path in buf (cut to size), for messages; returns buf. */
const char *gfs_node_pathname(struct gfs_node *n, char *buf, size_t size);
/* Exact size of the node's content (renders if it must). */
int gfs_node_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size);
/*
 * The render of a view node without an edit, shared rather than copied:
 * *out is held (gfs_buf_hold) and stays as it is after the node's cache is
 * dropped; the caller gives it back with gfs_buf_free().
 */
int gfs_node_render_held(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf **out);
/* Whole content of n into out (appended). */
int gfs_node_content(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out);
/*
 * A buffer of the bytes store() was given (data, len) for the model to keep:
 * when they are n's edit, staged in a memfd (a big one), the memfd is shared
 * rather than copied; else a copy.  NULL when out of memory.
 */
struct gfs_buf *gfs_node_keep_bytes(struct gfs_node *n, const uint8_t *data, size_t len);
/*
 * n's edit when (data, len) given to store() is it and it is staged (see
 * gfs_buf.h), else NULL: a store that reads all of a big edit (to compare
 * it) reads it with gfs_buf_pread(), whose pages stay out of the daemon.
 */
const struct gfs_buf *gfs_node_staged(struct gfs_node *n, const uint8_t *data, size_t len);
/* Drop cached renders of every node (after a model change). */
void gfs_tree_invalidate(struct gfs_archive *ar);

/* ---- saving ---------------------------------------------------------------- */

/* Streaming writer for save(): buffers, counts, optional running CRC. */
int gfs_writer_put(struct gfs_writer *w, const void *data, size_t len);
/* Copy len bytes at off of the old archive into the new one. */
int gfs_writer_copy(struct gfs_writer *w, uint64_t off, uint64_t len);
uint64_t gfs_writer_tell(struct gfs_writer *w);
/* Overwrite already-written bytes at off (e.g. a CRC or size field). */
int gfs_writer_pwrite(struct gfs_writer *w, const void *data, size_t len, uint64_t off);
/* Write b's bytes; a staged buffer's go file to file (copy_file_range), not through memory. */
int gfs_writer_put_buf(struct gfs_writer *w, const struct gfs_buf *b);
/* Write a node's current content (edit, render or span). */
int gfs_writer_node(struct gfs_writer *w, struct gfs_node *n);
/* The archive being saved. */
struct gfs_archive *gfs_writer_archive(struct gfs_writer *w);
/* CRC-32 of the file region [off, off+len) of the new file written so far. */
int gfs_writer_crc(struct gfs_writer *w, uint64_t off, uint64_t len, uint32_t *crc);
/*
 * Save into a memory buffer instead of a file (unit tests, fuzzers, and
 * save-then-reload checks).  *out receives the new image; companions'
 * new content is written nowhere.
 */
int gfs_archive_save_mem(struct gfs_archive *ar, struct gfs_buf *out);

/*
 * A second file that belongs to the archive (the .lay atlas), committed by
 * the same engine: load() names it once with gfs_companion_add(), which
 * returns its number (>= 0) or -errno.  A save() that changes it calls
 * gfs_writer_companion() and writes its whole new content to the writer it
 * returns (NULL, with the error in w, when the temporary cannot be made).
 * The core writes and fsyncs the new companion and the new archive to
 * temporary files beside them before it renames either; the old files stay
 * until both are written, so a failed write (ENOSPC) or a kill before the
 * renames leaves both old, and a refused rename puts the companion back.
 * Temporaries of every companion a kill left are removed at the next mount
 * (gfs_archive_clean_stale()).  The companion writer is the core's: it is
 * finished and freed with the commit.  Saves into memory (fuzzers, unit
 * tests) give a writer whose bytes go nowhere.
 */
int gfs_companion_add(struct gfs_archive *ar, const char *path);
struct gfs_writer *gfs_writer_companion(struct gfs_writer *w, int id);

/* ---- codecs ---------------------------------------------------------------- */

enum gfs_zwrap { GFS_ZRAW = 0, GFS_ZLIB = 1 };
/*
 * Inflate src (zlib stream when it starts like one, else raw deflate; *wrap
 * says which) into out, failing with -EBADMSG when the output would exceed
 * max bytes or the stream is broken.  *used gets the compressed bytes eaten.
 */
int gfs_inflate(const uint8_t *src, size_t len, size_t max, struct gfs_buf *out,
		enum gfs_zwrap *wrap, size_t *used);
int gfs_deflate(const uint8_t *src, size_t len, enum gfs_zwrap wrap, struct gfs_buf *out);
/* Inflate a whole zlib or gzip stream (zlib's windowBits 15 + 32) into out: -EBADMSG as above. */
int gfs_inflate_zgz(const uint8_t *src, size_t len, size_t max, struct gfs_buf *out);
/* Decode base64 text (blanks skipped, '=' padding) into out: -EINVAL when it is not base64. */
int gfs_base64_decode(const char *s, size_t len, struct gfs_buf *out);
uint32_t gfs_crc32(uint32_t crc, const void *data, size_t len);

/* RGBA8 (4 bytes a pixel, straight alpha) to PNG and back. */
int gfs_png_encode(const uint8_t *rgba, uint32_t w, uint32_t h, struct gfs_buf *out);
/*
 * RGBA8 to a PNG of stored (uncompressed) deflate blocks: larger, but
 * cheap to make and of a size known before drawing, gfs_png_stored_size()
 * (a view's size callback needs no render).
 */
int gfs_png_encode_stored(const uint8_t *rgba, uint32_t w, uint32_t h, struct gfs_buf *out);
uint64_t gfs_png_stored_size(uint32_t w, uint32_t h);
/*
 * The same kind of PNG drawn in place: one stored block a row, so every
 * row's pixels sit in the file at a fixed stride and a picture is drawn
 * straight into its bytes (no canvas, no copy).  gfs_png_rows_begin()
 * appends the whole file to out, every pixel transparent, and sets pr: row
 * y's w RGBA pixels are at pr->pix + y * pr->stride, valid while out is
 * not grown.  gfs_png_rows_end() sums the rows (Adler-32, CRC) and closes
 * the file.  Rows of at most GFS_PNG_ROW_MAXW pixels (one 65535-byte
 * block); gfs_png_rows_size() is 0 for wider.
 */
#define GFS_PNG_ROW_MAXW 16383u
struct gfs_png_rows {
	uint8_t *pix;
	size_t stride, start, idat;
	uint32_t w, h;
};
uint64_t gfs_png_rows_size(uint32_t w, uint32_t h);
int gfs_png_rows_begin(struct gfs_buf *out, uint32_t w, uint32_t h, struct gfs_png_rows *pr);
void gfs_png_rows_end(struct gfs_buf *out, const struct gfs_png_rows *pr);
/*
 * The same with a palette of ncolors (1-256) RGB8 entries: a pixel is one
 * byte, its index (all 0 at first), a quarter of the bytes to draw and sum.
 */
uint64_t gfs_png_rows_size_pal(uint32_t w, uint32_t h, unsigned ncolors);
int gfs_png_rows_begin_pal(struct gfs_buf *out, uint32_t w, uint32_t h, const uint8_t *rgb,
			   unsigned ncolors, struct gfs_png_rows *pr);
/*
 * One byte a pixel, each an index into ncolors (at most 256) RGB8 entries,
 * to a palette PNG of 1, 2, 4 or 8 bits a pixel as ncolors needs: several
 * times less to compress than RGBA for drawn views.  An index past the
 * palette draws one of its colours (never reads outside it).
 */
int gfs_png_encode_indexed(const uint8_t *idx, uint32_t w, uint32_t h, const uint8_t *rgb,
			   unsigned ncolors, struct gfs_buf *out);
/* The same with its first nclear palette entries fully transparent (a tRNS chunk). */
int gfs_png_encode_indexed_clear(const uint8_t *idx, uint32_t w, uint32_t h, const uint8_t *rgb,
				 unsigned ncolors, unsigned nclear, struct gfs_buf *out);
/*
 * Decode any PNG to RGBA8, ignoring its colour-management chunks (gAMA,
 * cHRM, sRGB, iCCP: games draw the stored values) and reading 16-bit
 * channels as sRGB.  Refuses images over max_w x max_h or over
 * GFS_PNG_MAX_PIXELS, and non-PNG data, with -EINVAL.  *rgba is malloc'd.
 */
#define GFS_PNG_MAX_PIXELS ((uint64_t)1 << 26)	/* 256 MiB of RGBA */
int gfs_png_decode(const uint8_t *png, size_t len, uint32_t max_w, uint32_t max_h,
		   uint8_t **rgba, uint32_t *w, uint32_t *h);
/*
 * A palette-indexed PNG as it is stored: one byte a pixel, its index
 * (*idx malloc'd), and its palette as *ncolors RGBA8 entries in rgba (room
 * for 256; alpha from its tRNS).  -ENOENT when the PNG has no palette;
 * refusals as gfs_png_decode().
 */
int gfs_png_decode_index(const uint8_t *png, size_t len, uint32_t max_w, uint32_t max_h, uint8_t **idx,
			 uint8_t *rgba, unsigned *ncolors, uint32_t *w, uint32_t *h);

/* ---- text helpers for views ------------------------------------------------ */

/* Skip a UTF-8 byte order mark some editors put before text (the INI and CSV readers do). */
void gfs_skip_bom(const uint8_t **data, size_t *len);
/* The next word of the NUL-terminated *p between bytes of seps (cut there), or NULL. */
char *gfs_next_word(char **p, const char *seps);

/*
 * A tiny INI reader for store(): calls fn for each "key = value" line with
 * the current section ("" before any header); a byte order mark is skipped.  Blank lines and lines
 * starting with ';' or '#' are skipped.  fn returns 0 or -EINVAL; a line
 * that is not a header nor key = value fails with -EINVAL, naming its line
 * in ar->err.
 */
int gfs_ini_parse(struct gfs_archive *ar, const char *view, const uint8_t *data, size_t len,
		  int (*fn)(void *ctx, const char *section, const char *key,
			    const char *value, unsigned line),
		  void *ctx);
/* Parse a decimal or 0x hex integer in [min, max]; 0 or -EINVAL. */
int gfs_parse_int(const char *s, int64_t min, int64_t max, int64_t *out);
/* Value of a hex digit, or -1. */
int gfs_hex_digit(int c);
/* Is data valid UTF-8? */
int gfs_utf8_valid(const uint8_t *data, size_t len);
/* Length of the valid UTF-8 character at s (len > 0), or 0 when it is not one. */
size_t gfs_utf8_char(const uint8_t *s, size_t len);
/* Length of the valid UTF-8 character at s with its code point in *cp, or 0. */
size_t gfs_utf8_decode(const uint8_t *s, size_t len, uint32_t *cp);
/* Append code point cp as UTF-8. */
int gfs_utf8_put(struct gfs_buf *out, uint32_t cp);
/* Copy in to out with control bytes and invalid UTF-8 written as \xNN. */
void gfs_escape(const char *in, char *out, size_t outlen);

#endif
