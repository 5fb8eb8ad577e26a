/*
 * gamefs.h - the library every front end links (libgamefs.a).
 *
 * An archive is opened with gfs_archive_open(), which picks a format driver
 * (struct gfs_format) by content and lets it parse the file into its own
 * model and build a tree of struct gfs_node.  Files in the tree are views of
 * that model: raw spans of the archive, rendered text/CSV/INI/PNG, or
 * edited bytes held in memory.  Front ends (the FUSE glue, ls/cat/extract/
 * check, the tests and the fuzzers) only ever see nodes.
 *
 * Ownership: the archive owns every node, every buffer hanging off a node,
 * and the format's model (ar->priv).  Functions that can fail return 0 or a
 * negative errno; on failure they leave a one-line message in ar->err.
 */
#ifndef GAMEFS_H
#define GAMEFS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "gfs_buf.h"
#include "gfs_rd.h"

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
 *         format takes the bytes verbatim from node->edit at save time.
 * free:   release node->priv.
 */
struct gfs_node_ops {
	int (*render)(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out);
	int (*size)(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size);
	int (*store)(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len);
	void (*free)(void *priv);
	/* directories with GFS_NODE_LAZY: make the entries (files only) on first use */
	int (*populate)(struct gfs_archive *ar, struct gfs_node *dir);
};

#define GFS_NODE_SCRATCH  0x1u	/* editor scratch file: memory only, never saved */
#define GFS_NODE_SPAN     0x2u	/* content is span_off/span_len of the archive */
#define GFS_NODE_CHUNK    0x4u	/* lives in a load-time chunk, not its own allocation (core only) */
#define GFS_NODE_LAZY     0x8u	/* directory whose files ops->populate makes when first used */
#define GFS_NODE_BROKEN   0x10u	/* render failed; not tried again until the model changes (core only) */

struct gfs_node {
	char *name;
	uint64_t ino;
	mode_t mode;			/* S_IFDIR|0755, S_IFREG|0644 or 0444 */
	unsigned flags;
	struct gfs_node *parent;
	struct gfs_node **kids;		/* directory entries, in archive order */
	size_t nkids, capkids;
	size_t nsubdirs;		/* of the kids, directories (for st_nlink) */
	size_t hkey;			/* hash of (parent, name) (core only) */
	struct gfs_archive *ar;		/* the archive it belongs to (core only) */

	const struct gfs_node_ops *ops;
	void *priv;			/* the format's; freed with ops->free */
	uint64_t span_off, span_len;	/* valid with GFS_NODE_SPAN */

	struct gfs_buf *edit;		/* edited content, authoritative until commit */
	struct gfs_buf *cache;		/* rendered content (core only) */
	int dirty;			/* edit not yet given to ops->store */
	int modified;			/* edit stored, not yet committed */
	struct timespec mtime;
	int open_count;			/* open handles (core only) */
	int writers;			/* of them, open for writing (core only) */
	int unlinked;			/* detached, freed at last release */
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

/*
 * A format driver.  bid() looks at the first bytes of the file (head, at
 * most GFS_PROBE_BYTES) and its name and returns 0 (not mine) to 100 (magic
 * matched).  load() parses ar->fd into ar->priv and fills ar->root; it may
 * keep spans of the file instead of reading them (large archives).  save()
 * writes the whole new archive through w, streaming unchanged parts with
 * gfs_writer_copy(); committed() is called after the new file replaced the
 * old one, so the format can point its spans at their new offsets
 * (gfs_writer_tell() during save tells where each part went).
 *
 * create/unlink/rename/mkdir/rmdir change the tree; NULL means the format
 * cannot express the operation (EPERM).  create() must add the node with
 * gfs_node_new_file() and set *out.  rename() may assume the target does not
 * exist (the core unlinks it first) and must call gfs_node_move().
 * check() prints what `gamefs check` reports and returns 0 ok, 1 damaged.
 */
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
};

#define GFS_PROBE_BYTES 4096

extern const struct gfs_format gfs_format_rpg;
extern const struct gfs_format gfs_format_tng;
extern const struct gfs_format gfs_format_tngsave;
extern const struct gfs_format gfs_format_zzt;
extern const struct gfs_format gfs_format_lay;
extern const struct gfs_format *const gfs_formats[];	/* NULL-terminated */

const struct gfs_format *gfs_format_by_name(const char *name);

/* ---- archives ------------------------------------------------------------ */

enum gfs_commit_mode { GFS_COMMIT_CLOSE, GFS_COMMIT_UNMOUNT };

struct gfs_opts {
	const char *format;		/* NULL: detect */
	int readonly;
	int backup;
	int force;			/* commit over an archive with bad CRCs */
	enum gfs_commit_mode commit;
	const char *atlas;		/* .lay companion image */
};

struct gfs_hslot {
	size_t key;
	struct gfs_node *node;
};

struct gfs_archive {
	char *path;			/* as given */
	char *dir;			/* its directory, for the temporary file */
	char *base;			/* its file name */
	int fd;				/* the archive as it is on disk now */
	int retired_fd[8];		/* earlier archive files, closed 30 s after a commit */
	time_t retired_at[8];		/* (a splice in flight may still read them) */
	struct stat st;			/* of fd at open or last commit */
	const struct gfs_format *fmt;
	void *priv;			/* the format's model */
	struct gfs_opts opts;
	int readonly;			/* opts.readonly, or forced by the format */
	char ro_reason[256];		/* why the format forced read-only */
	struct gfs_node *root;
	uint64_t next_ino;
	struct gfs_hslot *hash;		/* (parent, name) -> node (core only) */
	size_t hsize, hcount;
	void *chunks;			/* load-time node memory (core only) */
	int loading;			/* in fmt->load or a populate(): nodes come from chunks */
	int changed;			/* structure changed since last commit */
	int damaged;			/* format saw bad CRCs at load (commit needs force) */
	int backed_up;
	uid_t uid;
	gid_t gid;
	char err[512];
	void (*log)(const char *msg);	/* warnings; default stderr */
};

/*
 * Open path and load it.  On failure returns -errno and leaves the message
 * in errbuf (one line naming the file, format, offset and reason).
 */
int gfs_archive_open(const char *path, const struct gfs_opts *opts,
		     struct gfs_archive **out, char *errbuf, size_t errlen);
/* Load from a memory image (fuzzers, unit tests): fd is a memfd copy. */
int gfs_archive_open_mem(const uint8_t *data, size_t len, const char *name,
			 const struct gfs_opts *opts, struct gfs_archive **out,
			 char *errbuf, size_t errlen);
void gfs_archive_close(struct gfs_archive *ar);

/* Record a one-line failure in ar->err; always returns err (negative). */
int gfs_err(struct gfs_archive *ar, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Same, prefixed "FILE: FORMAT: at 0xOFF: ". */
int gfs_err_at(struct gfs_archive *ar, int err, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* ar->err without its "FILE: FORMAT: " prefix, to quote it in another message. */
const char *gfs_err_reason(const struct gfs_archive *ar);
/* A warning line to ar->log, prefixed like gfs_err. */
void gfs_warn(struct gfs_archive *ar, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Take the writer's lock on the archive (held for the archive's lifetime and
 * moved to each new file a commit writes): -EBUSY, with a message, when
 * another gamefs has it mounted for writing.
 */
int gfs_archive_lock(struct gfs_archive *ar);

/* Where warnings of archives without their own ar->log go (default stderr). */
void gfs_set_log(void (*fn)(const char *msg));

/* Read exactly len bytes at off from the archive file (-EBADMSG if short). */
int gfs_pread(struct gfs_archive *ar, void *buf, size_t len, uint64_t off);
/* Read the whole archive file into b (small formats only). */
int gfs_read_all(struct gfs_archive *ar, struct gfs_buf *b, size_t max);

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
 * Make name safe and unique in dir: '/' and control bytes replaced by '_',
 * empty becomes "_", a clash gets " (2)", " (3)"... before the extension.
 * Returns a malloc'd string.
 */
char *gfs_unique_name(struct gfs_node *dir, const char *name);
/* Make room for count more nodes at once (a load that knows its size). */
int gfs_tree_reserve(struct gfs_archive *ar, size_t count);
/* Free the load-time node memory; after the tree is gone (archive close). */
void gfs_tree_release(struct gfs_archive *ar);
/* 1 if name needs nothing of gfs_unique_name(): safe as it is and free in dir. */
int gfs_name_usable(struct gfs_node *dir, const char *name);
/*
 * Make a GFS_NODE_LAZY directory's entries now (once); every walk of
 * dir->kids outside tree.c calls this first.  A lookup in dir does it too.
 */
int gfs_dir_ready(struct gfs_archive *ar, struct gfs_node *dir);
struct gfs_node *gfs_node_child(struct gfs_archive *ar, struct gfs_node *dir, const char *name);
struct gfs_node *gfs_node_lookup(struct gfs_archive *ar, const char *path);
/* Detach n from its directory (the core frees it when nobody has it open). */
void gfs_node_remove(struct gfs_archive *ar, struct gfs_node *n);
void gfs_node_move(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *newdir,
		   const char *newname);
void gfs_node_free(struct gfs_archive *ar, struct gfs_node *n);
/* Full path of n from the root, into b (no leading slash; root is ""). */
int gfs_node_path(struct gfs_node *n, struct gfs_buf *b);

/* Exact size of the node's content (renders if it must). */
int gfs_node_size(struct gfs_archive *ar, struct gfs_node *n, uint64_t *size);
/* Read up to len bytes at off; returns bytes read or -errno. */
ssize_t gfs_node_read(struct gfs_archive *ar, struct gfs_node *n, void *buf, size_t len, uint64_t off);
/* Whole content of n into out (appended). */
int gfs_node_content(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out);
/* Edits.  These only touch node->edit and mark the node dirty. */
ssize_t gfs_node_write(struct gfs_archive *ar, struct gfs_node *n, const void *buf, size_t len, uint64_t off);
int gfs_node_truncate(struct gfs_archive *ar, struct gfs_node *n, uint64_t size);
/* A scratch file (memory only, never saved), empty, in dir. */
struct gfs_node *gfs_node_new_scratch(struct gfs_archive *ar, struct gfs_node *dir, const char *name);
/* Replace n's content with src's (rename of a scratch file over n). */
int gfs_node_take_content(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *src);
/* Drop cached renders of every node (after a commit or a model change). */
void gfs_tree_invalidate(struct gfs_archive *ar);
/*
 * Is name an editor scratch file?  Every dotfile, and the temporary names of
 * vim, emacs, sed, LibreOffice, Qt, and NAME.rejected.
 */
int gfs_is_scratch_name(const char *name);

/* ---- commit ---------------------------------------------------------------- */

/* Anything to write? (dirty or modified nodes, or a structural change) */
int gfs_archive_pending(struct gfs_archive *ar);
/*
 * Give every dirty node to its format's store(); then, if anything changed,
 * write the new archive to a temporary file beside it, fsync, rename over
 * the archive, fsync the directory.  Returns 0, -EINVAL (a bad edit, which
 * is dropped), -EIO (archive damaged and no force) or the I/O error.
 */
int gfs_archive_commit(struct gfs_archive *ar);
/*
 * The same, for the FUSE layer: nodes still open for writing are left out
 * of the commit (their writer has not finished), except `closing`, whose
 * last writer is closing it now, and except at unmount (all = 1).
 */
int gfs_archive_commit_ex(struct gfs_archive *ar, struct gfs_node *closing, int all);
/*
 * commit=unmount: parse the finished edits (closing's and those nobody
 * writes) into the model now, without writing the archive.  A bad edit
 * fails with -EINVAL like a commit would; good ones stay pending.
 */
int gfs_archive_store(struct gfs_archive *ar, struct gfs_node *closing);
/*
 * After the last writer of n closed: drop an edit buffer that is already
 * committed, so that n reads its content from the model again.
 */
void gfs_node_settle(struct gfs_archive *ar, struct gfs_node *n);
/* Remove temporary files an earlier, crashed commit left beside the archive. */
void gfs_archive_clean_stale(struct gfs_archive *ar);

/* Streaming writer for save(): buffers, counts, optional running CRC. */
int gfs_writer_put(struct gfs_writer *w, const void *data, size_t len);
/* Copy len bytes at off of the old archive into the new one. */
int gfs_writer_copy(struct gfs_writer *w, uint64_t off, uint64_t len);
uint64_t gfs_writer_tell(struct gfs_writer *w);
/* Overwrite already-written bytes at off (e.g. a CRC or size field). */
int gfs_writer_pwrite(struct gfs_writer *w, const void *data, size_t len, uint64_t off);
/* Write a node's current content (edit, render or span). */
int gfs_writer_node(struct gfs_writer *w, struct gfs_node *n);
/* The archive being saved. */
struct gfs_archive *gfs_writer_archive(struct gfs_writer *w);
/*
 * Save into a memory buffer instead of a file (fuzzers, unit tests, and
 * save-then-reload checks).  *out receives the new image.
 */
int gfs_archive_save_mem(struct gfs_archive *ar, struct gfs_buf *out);
/* CRC-32 of the file region [off, off+len) of the new file written so far. */
int gfs_writer_crc(struct gfs_writer *w, uint64_t off, uint64_t len, uint32_t *crc);

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
uint32_t gfs_crc32(uint32_t crc, const void *data, size_t len);

/* RGBA8 (4 bytes a pixel, straight alpha) to PNG and back. */
int gfs_png_encode(const uint8_t *rgba, uint32_t w, uint32_t h, struct gfs_buf *out);
/*
 * One byte a pixel, each an index into ncolors (at most 256) RGB8 entries,
 * to a palette PNG of 1, 2, 4 or 8 bits a pixel as ncolors needs: several
 * times less to compress than RGBA for drawn views.  An index past the
 * palette draws one of its colours (never reads outside it).
 */
int gfs_png_encode_indexed(const uint8_t *idx, uint32_t w, uint32_t h, const uint8_t *rgb,
			   unsigned ncolors, struct gfs_buf *out);
/*
 * Decode any PNG to RGBA8, ignoring its colour-management chunks (gAMA,
 * cHRM, sRGB, iCCP: games draw the stored values) and reading 16-bit
 * channels as sRGB.  Refuses images over max_w x max_h or over
 * GFS_PNG_MAX_PIXELS, and non-PNG data, with -EINVAL.  *rgba is malloc'd.
 */
#define GFS_PNG_MAX_PIXELS ((uint64_t)1 << 26)	/* 256 MiB of RGBA */
int gfs_png_decode(const uint8_t *png, size_t len, uint32_t max_w, uint32_t max_h,
		   uint8_t **rgba, uint32_t *w, uint32_t *h);

/* ---- text helpers for views ------------------------------------------------ */

/*
 * A tiny INI reader for store(): calls fn for each "key = value" line with
 * the current section ("" before any header).  Blank lines and lines
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
/* Copy in to out with control bytes and invalid UTF-8 written as \xNN. */
void gfs_escape(const char *in, char *out, size_t outlen);

/* ---- front-end helpers (used by ls/cat/extract and the FUSE glue) ---------- */

int gfs_cmd_ls(struct gfs_archive *ar, const char *path, FILE *out);
int gfs_cmd_cat(struct gfs_archive *ar, const char *path, int fd);
int gfs_cmd_extract(struct gfs_archive *ar, const char *dir);
int gfs_cmd_check(struct gfs_archive *ar, FILE *out);

/*
 * The fuzzers' and the replay's one step: load data as format fmt (NULL:
 * detect), render every node, save into memory, reload the saved bytes
 * (which must load), and free everything.  Returns 0, or -1 when a saved
 * archive does not load again (a bug); refusals of bad input are 0.
 */
int gfs_fuzz_one(const char *fmt, const uint8_t *data, size_t len);

#endif
