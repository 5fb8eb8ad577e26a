/*
 * The freedesktop thumbnailer's core: which view pictures an archive (the
 * format's thumbnails list, gfs_driver.h) and how it becomes a thumbnail
 * (scaled down by area averaging, written as an RGBA PNG).  It reads only
 * the archive it was opened on (and a .lay's atlas when one lies beside
 * it), as GNOME's thumbnail sandbox requires, and writes only the output.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gamefs.h"

#define GFS_THUMB_MAX_SIDE 65535u	/* decode limit per side (pixels also capped by the codec) */

/*
 * The first node under dir matching the '/'-separated pattern (each
 * component an fnmatch(3) pattern), depth first in tree order.
 */
static struct gfs_node *gfs_thumb_find(struct gfs_archive *ar, struct gfs_node *dir, const char *pat)
{
	const char *slash = strchr(pat, '/');
	size_t clen = slash ? (size_t)(slash - pat) : strlen(pat);
	char comp[256];

	if (!S_ISDIR(dir->mode) || clen >= sizeof(comp) || gfs_dir_ready(ar, dir))
		return NULL;
	memcpy(comp, pat, clen);
	comp[clen] = 0;
	for (size_t i = 0; i < dir->nkids; i++) {
		struct gfs_node *k = dir->kids[i], *hit;

		if (fnmatch(comp, k->name, FNM_PERIOD))
			continue;
		if (!slash)
			hit = S_ISREG(k->mode) ? k : NULL;
		else
			hit = gfs_thumb_find(ar, k, slash + 1);
		if (hit)
			return hit;
	}
	return NULL;
}

/* Length [lo, lo + len) shares with [a, b). */
static uint64_t gfs_thumb_overlap(uint64_t lo, uint64_t len, uint64_t a, uint64_t b)
{
	uint64_t s = lo > a ? lo : a, e = lo + len < b ? lo + len : b;

	return e > s ? e - s : 0;
}

int gfs_thumb_scale(const uint8_t *src, uint32_t w, uint32_t h, uint32_t size,
		    uint8_t **dst, uint32_t *dw, uint32_t *dh)
{
	uint32_t ow = w, oh = h;
	uint8_t *out;

	if (!w || !h || !size)
		return -EINVAL;
	if (w > size || h > size) {
		/* the longer side becomes size, the other keeps the aspect (rounded, at least 1) */
		if (w >= h) {
			ow = size;
			oh = (uint32_t)(((uint64_t)h * size + w / 2) / w);
		} else {
			oh = size;
			ow = (uint32_t)(((uint64_t)w * size + h / 2) / h);
		}
		ow = ow ? ow : 1;
		oh = oh ? oh : 1;
	}
	out = malloc((size_t)ow * oh * 4);
	if (!out)
		return -ENOMEM;
	/*
	 * Exact area averaging: in units where a source pixel is oh (ow) long
	 * and an output pixel h (w), each source pixel weighs the length it
	 * shares with the output pixel, on each axis.
	 */
	for (uint32_t oy = 0; oy < oh; oy++) {
		uint64_t ylo = (uint64_t)oy * h, yhi = ylo + h;

		for (uint32_t ox = 0; ox < ow; ox++) {
			uint64_t xlo = (uint64_t)ox * w, xhi = xlo + w, sa = 0, sc[3] = { 0, 0, 0 };
			uint64_t total = (uint64_t)w * h;
			uint8_t *p = out + ((size_t)oy * ow + ox) * 4;

			for (uint32_t y = (uint32_t)(ylo / oh); y < h && (uint64_t)y * oh < yhi; y++) {
				uint64_t wy = gfs_thumb_overlap((uint64_t)y * oh, oh, ylo, yhi);
				const uint8_t *row = src + (size_t)y * w * 4;

				for (uint32_t x = (uint32_t)(xlo / ow); x < w && (uint64_t)x * ow < xhi; x++) {
					uint64_t wt = wy * gfs_thumb_overlap((uint64_t)x * ow, ow, xlo, xhi);
					const uint8_t *q = row + (size_t)x * 4;

					/* colours weighted by alpha, so transparent pixels lend no colour */
					sa += wt * q[3];
					for (int c = 0; c < 3; c++)
						sc[c] += wt * q[3] * q[c];
				}
			}
			for (int c = 0; c < 3; c++)
				p[c] = sa ? (uint8_t)((sc[c] + sa / 2) / sa) : 0;
			p[3] = (uint8_t)((sa + total / 2) / total);
		}
	}
	*dst = out;
	*dw = ow;
	*dh = oh;
	return 0;
}

/* The picture of one candidate view, decoded; -ENOENT when there is none. */
static int gfs_thumb_picture(struct gfs_archive *ar, uint8_t **rgba, uint32_t *w, uint32_t *h,
			     struct gfs_buf *path)
{
	const char *const *cand = ar->fmt->thumbnails;
	int r = -ENOENT;

	for (; cand && *cand; cand++) {
		struct gfs_node *n = gfs_thumb_find(ar, ar->root, *cand);
		struct gfs_buf png = GFS_BUF_INIT;

		if (!n)
			continue;
		r = gfs_node_content(ar, n, &png);
		if (!r)
			r = gfs_png_decode(png.data, png.len, GFS_THUMB_MAX_SIDE, GFS_THUMB_MAX_SIDE, rgba, w, h);
		gfs_buf_release(&png);
		if (!r) {
			gfs_buf_release(path);
			return gfs_node_path(n, path);
		}
		if (r == -ENOMEM)
			return r;
	}
	if (r == -ENOENT)
		return gfs_err(ar, -ENOENT, "no picture to make a thumbnail of");
	return gfs_err(ar, r, "no view of the archive renders as a picture");
}

int gfs_cmd_thumbnail(struct gfs_archive *ar, const char *out, unsigned size)
{
	struct gfs_buf path = GFS_BUF_INIT, png = GFS_BUF_INIT;
	uint8_t *rgba = NULL, *small = NULL;
	uint32_t w, h, sw, sh;
	FILE *f;
	int r;

	r = gfs_thumb_picture(ar, &rgba, &w, &h, &path);
	if (r)
		goto out;
	r = gfs_thumb_scale(rgba, w, h, size, &small, &sw, &sh);
	if (!r)
		r = gfs_png_encode(small, sw, sh, &png);
	if (r) {
		gfs_err(ar, r, "%s: cannot scale: %s", (char *)path.data, strerror(-r));
		goto out_png;
	}
	f = fopen(out, "wb");
	if (!f) {
		r = gfs_err(ar, -errno, "%s: %s", out, strerror(errno));
		goto out_png;
	}
	if (fwrite(png.data, 1, png.len, f) != png.len)
		r = errno ? -errno : -EIO;
	if (fclose(f) && !r)
		r = errno ? -errno : -EIO;
	if (r) {
		gfs_err(ar, r, "%s: %s", out, strerror(-r));
		unlink(out);
	}
out_png:
	gfs_buf_release(&png);
	free(small);
	free(rgba);
out:
	gfs_buf_release(&path);
	return r;
}
