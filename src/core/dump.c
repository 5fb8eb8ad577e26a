/*
 * `gamefs dump`: the tree as one text for git's textconv (gitattributes(5),
 * "Performing text diffs of binary files").  git diffs the dumps of two
 * versions of a game, so the dump is a function of the archive's bytes
 * only: tree order, no times, no inode numbers, no file names of the
 * archive itself (git hands textconv a temporary copy).  A view that
 * cannot be produced is one line, and the walk goes on: textconv must
 * print something for a damaged archive too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gamefs.h"

/* Larger files are hashed in pieces and never shown as text. */
#define GFS_DUMP_TEXT_MAX (16u << 20)
#define GFS_DUMP_PIECE (1u << 20)

/* Text: valid UTF-8, no NUL and no control byte but tab, LF and CR. */
static int gfs_dump_is_text(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
			return 0;
	return gfs_utf8_valid(p, len);
}

static void gfs_dump_digest(FILE *out, uint64_t size, struct gfs_sha256 *s)
{
	uint8_t d[GFS_SHA256_LEN];

	gfs_sha256_final(s, d);
	fprintf(out, "%llu bytes, sha256 ", (unsigned long long)size);
	for (size_t i = 0; i < sizeof(d); i++)
		fprintf(out, "%02x", d[i]);
	fputc('\n', out);
}

/* A file too big to be text: hashed through reads of one piece at a time. */
static int gfs_dump_big(struct gfs_archive *ar, struct gfs_node *n, FILE *out)
{
	uint8_t *buf = malloc(GFS_DUMP_PIECE);
	struct gfs_sha256 s;
	uint64_t off = 0;
	ssize_t got;

	if (!buf)
		return -ENOMEM;
	gfs_sha256_init(&s);
	while ((got = gfs_node_read(ar, n, buf, GFS_DUMP_PIECE, off)) > 0) {
		gfs_sha256_update(&s, buf, (size_t)got);
		off += (uint64_t)got;
	}
	free(buf);
	if (got < 0)
		return (int)got;
	fputs("binary, ", out);
	gfs_dump_digest(out, off, &s);
	return 0;
}

static void gfs_dump_file(struct gfs_archive *ar, struct gfs_node *n, const char *path, FILE *out)
{
	struct gfs_buf b = GFS_BUF_INIT;
	uint64_t size;
	int r;

	fprintf(out, "=== %s%s", path, (n->mode & 0222) ? "" : " (read-only)");
	ar->err[0] = 0;
	r = gfs_node_size(ar, n, &size);
	if (!r && size > GFS_DUMP_TEXT_MAX) {
		fputs(": ", out);
		r = gfs_dump_big(ar, n, out);
	} else if (!r && !(r = gfs_node_content(ar, n, &b))) {
		if (b.len && gfs_dump_is_text(b.data, b.len)) {
			fputc('\n', out);
			fwrite(b.data, 1, b.len, out);
			if (b.data[b.len - 1] != '\n')
				fputs("\n\\ no newline at end of file\n", out);
		} else {
			struct gfs_sha256 s;

			gfs_sha256_init(&s);
			gfs_sha256_update(&s, b.data, b.len);
			fputs(b.len ? ": binary, " : ": empty, ", out);
			gfs_dump_digest(out, b.len, &s);
		}
	}
	if (r)
		fprintf(out, ": cannot be read: %s\n", ar->err[0] ? gfs_err_reason(ar) : strerror(-r));
	gfs_buf_release(&b);
	/* one file's render at a time in memory, as check does */
	gfs_buf_free(n->cache);
	n->cache = NULL;
}

static void gfs_dump_rec(struct gfs_archive *ar, struct gfs_node *n, FILE *out)
{
	struct gfs_buf p = GFS_BUF_INIT;
	int r;

	if (gfs_node_path(n, &p))
		return;
	if (!S_ISDIR(n->mode)) {
		gfs_dump_file(ar, n, p.data ? (char *)p.data : "", out);
		gfs_buf_release(&p);
		return;
	}
	ar->err[0] = 0;
	r = gfs_dir_ready(ar, n);
	if (r)
		fprintf(out, "=== %s/: cannot be listed: %s\n", p.data ? (char *)p.data : "",
			ar->err[0] ? gfs_err_reason(ar) : strerror(-r));
	else if (!n->nkids && n != ar->root)
		fprintf(out, "=== %s/ (empty directory)\n", p.data ? (char *)p.data : "");
	gfs_buf_release(&p);
	for (size_t i = 0; !r && i < n->nkids; i++)
		if (!(n->kids[i]->flags & GFS_NODE_SCRATCH))
			gfs_dump_rec(ar, n->kids[i], out);
}

int gfs_cmd_dump(struct gfs_archive *ar, FILE *out)
{
	fprintf(out, "gamefs dump: %s (%s)\n", ar->fmt->name, ar->fmt->description);
	if (ar->damaged || (ar->readonly && ar->ro_reason[0]))
		fprintf(out, "read-only: %s\n", ar->ro_reason[0] ? ar->ro_reason : "damaged");
	gfs_dump_rec(ar, ar->root, out);
	return fflush(out) || ferror(out) ? -EIO : 0;
}

int gfs_cmd_dump_unreadable(const char *path, const char *why, FILE *out)
{
	size_t plen = strlen(path);
	uint8_t *buf = malloc(GFS_DUMP_PIECE);
	struct gfs_sha256 s;
	uint64_t size = 0;
	ssize_t got = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	/* "PATH: format: at 0x..: reason": the temporary name is not the archive's */
	if (!strncmp(why, path, plen) && why[plen] == ':' && why[plen + 1] == ' ')
		why += plen + 2;
	fprintf(out, "gamefs dump: cannot read this archive: %s\n", why);
	if (fd >= 0 && buf) {
		gfs_sha256_init(&s);
		while ((got = read(fd, buf, GFS_DUMP_PIECE)) > 0) {
			gfs_sha256_update(&s, buf, (size_t)got);
			size += (uint64_t)got;
		}
	}
	if (got == 0) {
		fputs("=== the whole file: ", out);
		gfs_dump_digest(out, size, &s);
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return fflush(out) || ferror(out) ? -EIO : 0;
}
