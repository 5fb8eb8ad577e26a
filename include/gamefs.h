/*
 * gamefs.h - the front ends' API of libgamefs (the FUSE glue, the offline
 * commands ls/cat/extract/check, the unit tests, the fuzzers and replay).
 *
 * An archive is opened with gfs_archive_open(), which picks a format driver
 * by content (or opts->format) and lets it parse the file into its own
 * model and build a tree of struct gfs_node.  Front ends only ever see
 * nodes: they read, write, truncate and look them up here, and commit the
 * archive.  Formats are written against gfs_driver.h and never include
 * this header.
 *
 * The core and the front ends include this header, which makes the
 * GFS_CORE_ONLY fields of gfs_driver.h's structs usable: the front ends
 * keep a node's open counts and read its inode number and flags.
 *
 * Ownership: the archive owns every node and every buffer hanging off one.
 * Functions that can fail return 0 or a negative errno; on failure they
 * leave a one-line message in ar->err.
 */
#ifndef GAMEFS_H
#define GAMEFS_H

#ifdef GFS_DRIVER_H
#ifndef GFS_CORE_SIDE
#error "gamefs.h after gfs_driver.h: include gamefs.h first (formats include gfs_driver.h only)"
#endif
#endif
#ifndef GFS_CORE_SIDE
#define GFS_CORE_SIDE 1
#endif
#include "gfs_driver.h"

#define GFS_NODE_SCRATCH  0x1u	/* editor scratch file: memory only, never saved */
#define GFS_NODE_SPAN     0x2u	/* content is span_off/span_len of the archive */
#define GFS_NODE_CHUNK    0x4u	/* lives in a load-time chunk, not its own allocation */
#define GFS_NODE_LAZY     0x8u	/* directory whose files ops->populate makes when first used */
#define GFS_NODE_BROKEN   0x10u	/* render failed; not tried again until the model changes (core only) */
#define GFS_NODE_UNSAVED  0x20u	/* NAME.rejected of a commit that failed: kept at unmount (core only) */

/* ---- formats ------------------------------------------------------------- */

extern const struct gfs_format *const gfs_formats[];	/* NULL-terminated, bidding order */

const struct gfs_format *gfs_format_by_name(const char *name);
/* "rpg, tng, ..." (sep ", ") or "rpg|tng|..." (sep "|"): every format in the table. */
int gfs_format_names(struct gfs_buf *out, const char *sep);
/*
 * If kv ("KEY=VALUE") is a mount option some format takes, add it to
 * o->fmtargs (pointing into kv, which must outlive o) and return 1;
 * 0 when no format takes KEY; -E2BIG when there are too many.
 */
int gfs_opts_format_arg(struct gfs_opts *o, char *kv);

/* ---- archives ------------------------------------------------------------ */

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

/*
 * Take the writer's lock on the archive (held for the archive's lifetime and
 * moved to each new file a commit writes): -EBUSY, with a message, when
 * another gamefs has it mounted for writing.
 */
int gfs_archive_lock(struct gfs_archive *ar);

/*
 * Run checks given to gfs_check_later() in a background thread from now on
 * (a mount, after it became a daemon: a thread does not survive the fork),
 * starting the pending one.  gfs_archive_poll_checks() takes a finished
 * check's verdict without waiting (every FUSE operation calls it).
 */
void gfs_archive_start_checks(struct gfs_archive *ar);
void gfs_archive_poll_checks(struct gfs_archive *ar);

/* Where warnings of archives without their own ar->log go (default stderr). */
void gfs_set_log(void (*fn)(const char *msg));

/* ---- the tree ------------------------------------------------------------ */

/* Read up to len bytes at off; returns bytes read or -errno. */
ssize_t gfs_node_read(struct gfs_archive *ar, struct gfs_node *n, void *buf, size_t len, uint64_t off);
/* Edits.  These only touch node->edit and mark the node dirty. */
ssize_t gfs_node_write(struct gfs_archive *ar, struct gfs_node *n, const void *buf, size_t len, uint64_t off);
int gfs_node_truncate(struct gfs_archive *ar, struct gfs_node *n, uint64_t size);
/* A scratch file (memory only, never saved), empty, in dir. */
struct gfs_node *gfs_node_new_scratch(struct gfs_archive *ar, struct gfs_node *dir, const char *name);
/* Replace n's content with src's (rename of a scratch file over n). */
int gfs_node_take_content(struct gfs_archive *ar, struct gfs_node *n, struct gfs_node *src);
void gfs_node_free(struct gfs_archive *ar, struct gfs_node *n);
/* Free the load-time node memory; after the tree is gone (archive close). */
void gfs_tree_release(struct gfs_archive *ar);
/*
 * Is name an editor scratch file?  Every dotfile, and the temporary names of
 * vim, emacs, sed, LibreOffice, Qt, and NAME.rejected.
 */
int gfs_is_scratch_name(const char *name);
/* ... or, in dir, a QSaveFile name NAME.xxxxxx beside the file NAME */
int gfs_is_scratch_in(struct gfs_archive *ar, struct gfs_node *dir, const char *name);

/* ---- commit ---------------------------------------------------------------- */

/* Anything to write? (dirty or modified nodes, or a structural change) */
int gfs_archive_pending(struct gfs_archive *ar);
/*
 * Give every dirty node to its format's store(); then, if anything changed,
 * write the new archive (and the new companion files) to temporary files
 * beside them, fsync, rename over the old ones, fsync the directories.
 * Returns 0, -EINVAL (a bad edit, which is dropped), -EIO (archive damaged
 * and no force) or the I/O error.
 */
int gfs_archive_commit(struct gfs_archive *ar);
/*
 * The same, for the FUSE layer: nodes still open for writing are left out
 * of the commit (their writer has not finished), except `closing`, whose
 * last writer is closing it now, and except at unmount (all = 1).  A
 * commit that fails during the mount (all = 0: EBUSY, ENOSPC, EIO...)
 * keeps each edit it held as NAME.rejected and gives every view its last
 * good content back; the last one (all = 1) leaves the edits in place for
 * gfs_archive_keep_unsaved().
 */
int gfs_archive_commit_ex(struct gfs_archive *ar, struct gfs_node *closing, int all);
/*
 * After a last commit that failed: every edit it did not write (and every
 * NAME.rejected) into a new folder beside the archive, ARCHIVE.unsaved (or
 * ARCHIVE.unsaved-N), by its path in the tree.  where gets the folder
 * (removed again when nothing was kept), *kept the count of files.
 * Returns 0 or the first error.
 */
int gfs_archive_keep_unsaved(struct gfs_archive *ar, char *where, size_t len, size_t *kept);
/*
 * At unmount: commit what is pending.  When that fails, or an edit a
 * commit refused during the mount is still only NAME.rejected, every such
 * file is kept beside the archive (gfs_archive_keep_unsaved).  Returns 0,
 * or the error with msg saying what failed and where the files are.
 */
int gfs_archive_finish(struct gfs_archive *ar, char *msg, size_t len);
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
/*
 * Remove temporary files an earlier, killed commit left beside the archive,
 * beside each companion file and of the backup.  Called by a writable mount.
 */
void gfs_archive_clean_stale(struct gfs_archive *ar);

/* ---- front-end helpers (used by ls/cat/extract and the FUSE glue) ---------- */

int gfs_cmd_ls(struct gfs_archive *ar, const char *path, FILE *out);
int gfs_cmd_cat(struct gfs_archive *ar, const char *path, int fd);
int gfs_cmd_extract(struct gfs_archive *ar, const char *dir);
int gfs_cmd_check(struct gfs_archive *ar, FILE *out);
/*
 * The whole tree as one deterministic text, for git's textconv: every
 * directory walked in tree order, each file under a "=== PATH" header;
 * text views (UTF-8, no NUL or control bytes but tab, LF, CR) as they are,
 * every other file as its size and SHA-256; a view that cannot be produced
 * as one line saying why, and the walk goes on.  No paths of the archive
 * file, times or inode numbers: the same archive gives the same bytes.
 * Returns 0, or -errno when out could not be written.
 */
int gfs_cmd_dump(struct gfs_archive *ar, FILE *out);
/*
 * The dump of an archive that could not be opened: why (with the file's
 * name cut off, as textconv hands out temporary names) and the whole
 * file's size and SHA-256, so that git still sees it change.
 */
int gfs_cmd_dump_unreadable(const char *path, const char *why, FILE *out);
/*
 * Apply the extracted tree at dir to an archive opened writable: every file
 * of dir is compared with the view it was extracted from; files that differ
 * are written as a mount's close writes them (gfs_edit_*), one after the
 * other in tree order, each parsed into the model at once; files the tree
 * does not have are created where the format creates them (else refused).
 * Read-only views and editor scratch files are never applied (a changed
 * read-only view is reported on msgs).  Nothing is written unless every
 * file was taken; then one commit.  Every refusal is reported on msgs as
 * "PATH: reason".  Returns 0 (written, or nothing to write: the archive
 * is not touched), -EINVAL (a file refused, nothing written) or -errno.
 * *napplied gets the number of files applied.
 */
int gfs_cmd_pack(struct gfs_archive *ar, const char *dir, FILE *msgs, size_t *napplied);

/* ---- edits as a mount makes them (src/core/edit.c) -------------------------- */

/* May n be written?  0, -EROFS (archive read-only), -EACCES (read-only view), -EISDIR. */
int gfs_edit_may_write(struct gfs_archive *ar, struct gfs_node *n);
/*
 * A new file name in dir, as a mount's create() makes it: an editor scratch
 * name is a memory-only file; anything else goes to the format's create()
 * (-EPERM when the format has none, its refusal in ar->err otherwise).
 * The new node's mtime is now.
 */
int gfs_edit_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		    struct gfs_node **out);
/* A new directory, as a mount's mkdir() makes it (-EPERM without the format's mkdir). */
int gfs_edit_mkdir(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		   struct gfs_node **out);
/* Replace n's whole content (an open with O_TRUNC and one write): n becomes dirty. */
int gfs_edit_replace(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len);
/*
 * The rules of a mount's other operations (DESIGN.md sections 2 and 3),
 * for every front end.  Those that change the tree return <0 (refused,
 * the tree as it was, the format's reason in ar->err), 0 (done, nothing
 * to write) or 1 (done: the archive changed, gfs_edit_commit() it).
 */
/* As gfs_edit_create; how GFS_EDIT_EXCL (an O_EXCL create, cp): the new file is empty
 * even when the format hands back a view that renders something. */
#define GFS_EDIT_EXCL 1u
int gfs_edit_create_how(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
			unsigned how, struct gfs_node **out);
/* unlink: a scratch file goes (1 when edits are pending), an archive's file through its format */
int gfs_edit_unlink(struct gfs_archive *ar, struct gfs_node *n);
int gfs_edit_rmdir(struct gfs_archive *ar, struct gfs_node *n);
/* truncate(2): 1 when n is closed (truncate(1)): an edit of its own, to commit */
int gfs_edit_truncate(struct gfs_archive *ar, struct gfs_node *n, int64_t size);
/*
 * rename(2) of src to name in dir, over dst (the node there now, or NULL):
 * a scratch file renamed over a file of the archive replaces its content
 * in place (same name, same position), as does a file of the archive
 * renamed over another; a file renamed to a scratch name (an editor's
 * backup, mv f f~) stays and the backup gets a copy; anything else is the
 * format's rename.  *closing: the node whose content was replaced (commit it).
 */
int gfs_edit_rename(struct gfs_archive *ar, struct gfs_node *src, struct gfs_node *dir,
		    const char *name, struct gfs_node *dst, struct gfs_node **closing);
/*
 * A file detached while open (removed, renamed over) is removed for good:
 * a scratch file goes; one of the archive through its format (1), or it
 * stays with a warning when the format cannot remove it (0).
 */
int gfs_edit_remove_detached(struct gfs_archive *ar, struct gfs_node *n);
/*
 * Write what an edit changed, as the mount's commit mode says: commit=close
 * stores and writes now (closing: the node whose last writer closes);
 * commit=unmount parses closing's edit now (a bad one fails, EINVAL) and
 * writes at unmount.  Nothing on a read-only archive.
 */
int gfs_edit_commit(struct gfs_archive *ar, struct gfs_node *closing);
/* Is n drawn by its format (a render)? */
int gfs_node_is_render(const struct gfs_node *n);
/* Does n read as bytes of the archive file, unchanged (no render, no edit)? */
int gfs_node_is_stored(const struct gfs_node *n);
/* A file whose bytes a change of the model may change: a render or an edit, no scratch file. */
int gfs_node_is_view(const struct gfs_node *n);

/* ---- SHA-256 (src/core/sha256.c) ------------------------------------------- */

#define GFS_SHA256_LEN 32
struct gfs_sha256 {
	uint32_t h[8];
	uint64_t len;
	uint8_t buf[64];
	size_t fill;
};
void gfs_sha256_init(struct gfs_sha256 *s);
void gfs_sha256_update(struct gfs_sha256 *s, const void *data, size_t len);
void gfs_sha256_final(struct gfs_sha256 *s, uint8_t out[GFS_SHA256_LEN]);

/*
 * The freedesktop thumbnailer: the first of the format's thumbnails views
 * (gfs_driver.h) that renders as a PNG, scaled to fit size x size by
 * gfs_thumb_scale(), written to the PNG file out (removed again on a
 * failure).  -ENOENT when the archive has no such view.
 */
int gfs_cmd_thumbnail(struct gfs_archive *ar, const char *out, unsigned size);
/*
 * RGBA8 src (w x h) scaled down to fit size x size, aspect kept (the short
 * side rounded, at least 1): each pixel the alpha-weighted mean of the
 * source pixels its box covers.  A picture that fits is copied as it is.
 * *dst is malloc'd, *dw x *dh.
 */
int gfs_thumb_scale(const uint8_t *src, uint32_t w, uint32_t h, uint32_t size,
		    uint8_t **dst, uint32_t *dw, uint32_t *dh);

/*
 * The fuzzers' and the replay's one step: load data as format fmt (NULL:
 * detect), render every node, save into memory, reload the saved bytes
 * (which must load), then write every editable view back with the content
 * it renders and save again, and free everything.  An archive that loads
 * writable and undamaged must save back byte for byte, both times, and no
 * view written back unchanged may be refused.  Returns 0, or -1 on a bug
 * (a save that differs from its input, that does not load again, or a
 * refused unchanged view); refusals of bad input are 0.
 */
int gfs_fuzz_one(const char *fmt, const uint8_t *data, size_t len);
/* Is name a core codec fuzzed on its own ("xml", "layout") rather than a format? */
int gfs_fuzz_codec(const char *name);

#endif
