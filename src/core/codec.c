/* Bounded deflate/inflate, CRC-32 and PNG in/out (libpng; palette PNGs by its full API). */
#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "gamefs.h"
#include "gfs_codec.h"

uint32_t gfs_crc32(uint32_t crc, const void *data, size_t len)
{
	const uint8_t *p = data;

	if (!data)
		return (uint32_t)crc32(0L, Z_NULL, 0);
	while (len) {
		uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;

		crc = (uint32_t)crc32(crc, p, n);
		p += n;
		len -= n;
	}
	return crc;
}

int gfs_is_zlib(const uint8_t *p, size_t len)
{
	return len >= 2 && (p[0] & 0x0f) == Z_DEFLATED && (p[0] >> 4) <= 7 &&
	       ((unsigned)p[0] << 8 | p[1]) % 31 == 0;
}

/* PNG: signature, IHDR length (13, big-endian), "IHDR", width, height, ... its CRC */
#define GFS_PNG_SIG_LEN		8
#define GFS_PNG_IHDR_LEN	8
#define GFS_PNG_IHDR_TYPE	12
#define GFS_PNG_IHDR_W		16
#define GFS_PNG_IHDR_H		20

static uint32_t gfs_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int gfs_png_size(const uint8_t *p, size_t len, uint32_t *w, uint32_t *h)
{
	static const uint8_t sig[GFS_PNG_SIG_LEN] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

	if (len < GFS_PNG_HEAD_LEN || memcmp(p, sig, GFS_PNG_SIG_LEN) ||
	    gfs_be32(p + GFS_PNG_IHDR_LEN) != 13 || memcmp(p + GFS_PNG_IHDR_TYPE, "IHDR", 4))
		return -EINVAL;
	if (w)
		*w = gfs_be32(p + GFS_PNG_IHDR_W);
	if (h)
		*h = gfs_be32(p + GFS_PNG_IHDR_H);
	return 0;
}

static int gfs_inflate_as(const uint8_t *src, size_t len, size_t max, struct gfs_buf *out,
			  int window, size_t *used)
{
	z_stream z;
	size_t start = out->len;
	int zr, r = 0;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, window) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)(uintptr_t)src;
	do {
		size_t room;

		z.avail_in = len - (size_t)(z.next_in - src) > (1u << 30) ? (1u << 30)
			: (uInt)(len - (size_t)(z.next_in - src));
		if (out->len - start >= max) {
			/* at the cap: one more byte of output means too big */
			uint8_t probe;

			z.next_out = &probe;
			z.avail_out = 1;
			zr = inflate(&z, Z_NO_FLUSH);
			if (zr == Z_STREAM_END && z.avail_out == 1)
				break;
			r = -EBADMSG;
			break;
		}
		room = max - (out->len - start);
		if (room > 1u << 20)
			room = 1u << 20;
		if ((r = gfs_buf_grow(out, room)))
			break;
		z.next_out = out->data + out->len;
		z.avail_out = (uInt)room;
		zr = inflate(&z, Z_NO_FLUSH);
		out->len += room - z.avail_out;
		if (zr == Z_STREAM_END)
			break;
		if (zr != Z_OK || (z.avail_in == 0 && z.avail_out != 0)) {
			r = -EBADMSG;
			break;
		}
	} while (1);
	if (used)
		*used = (size_t)(z.next_in - src);
	inflateEnd(&z);
	if (r)
		gfs_buf_set_len(out, start);
	else if (out->data)
		out->data[out->len] = 0;
	return r;
}

int gfs_inflate(const uint8_t *src, size_t len, size_t max, struct gfs_buf *out,
		enum gfs_zwrap *wrap, size_t *used)
{
	int r;

	if (gfs_is_zlib(src, len)) {
		r = gfs_inflate_as(src, len, max, out, 15, used);
		if (!r) {
			if (wrap)
				*wrap = GFS_ZLIB;
			return 0;
		}
	}
	r = gfs_inflate_as(src, len, max, out, -15, used);
	if (!r && wrap)
		*wrap = GFS_ZRAW;
	return r;
}

int gfs_inflate_zgz(const uint8_t *src, size_t len, size_t max, struct gfs_buf *out)
{
	size_t used = 0;
	int r = gfs_inflate_as(src, len, max, out, 15 + 32, &used);

	return r ? r : used == len ? 0 : -EBADMSG;
}

int gfs_base64_decode(const char *s, size_t len, struct gfs_buf *out)
{
	uint32_t acc = 0;
	unsigned bits = 0, pad = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		unsigned v;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			continue;
		if (c == '=') {
			pad++;
			continue;
		}
		if (pad)
			return -EINVAL;	/* data after the padding */
		if (c >= 'A' && c <= 'Z')
			v = (unsigned)(c - 'A');
		else if (c >= 'a' && c <= 'z')
			v = (unsigned)(c - 'a') + 26;
		else if (c >= '0' && c <= '9')
			v = (unsigned)(c - '0') + 52;
		else if (c == '+')
			v = 62;
		else if (c == '/')
			v = 63;
		else
			return -EINVAL;
		acc = acc << 6 | v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (gfs_buf_addc(out, (uint8_t)(acc >> bits)))
				return -ENOMEM;
		}
	}
	/* what is left must be the zero bits of a padded end */
	if (pad > 2 || bits >= 6 || (acc & ((1u << bits) - 1)))
		return -EINVAL;
	return 0;
}

int gfs_deflate(const uint8_t *src, size_t len, enum gfs_zwrap wrap, struct gfs_buf *out)
{
	z_stream z;
	int zr, r = 0;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 9, Z_DEFLATED, wrap == GFS_ZLIB ? 15 : -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)(uintptr_t)src;
	z.avail_in = (uInt)len;
	if (len > (1u << 30)) {
		deflateEnd(&z);
		return -EFBIG;
	}
	do {
		if ((r = gfs_buf_grow(out, 65536)))
			break;
		z.next_out = out->data + out->len;
		z.avail_out = 65536;
		zr = deflate(&z, Z_FINISH);
		out->len += 65536 - z.avail_out;
		if (zr == Z_STREAM_ERROR) {
			r = -EIO;
			break;
		}
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	if (!r && out->data)
		out->data[out->len] = 0;
	return r;
}

/* Write img (format, size set) of pixels, with colormap if indexed, to out. */
static int gfs_png_write(png_image *img, const void *pixels, const void *colormap,
			 struct gfs_buf *out)
{
	png_alloc_size_t size;
	size_t start = out->len;
	int r;

	img->version = PNG_IMAGE_VERSION;
	img->flags = PNG_IMAGE_FLAG_FAST;	/* views are rendered on stat: speed first */
	/* one pass into a buffer of the worst-case size, not one to size and one to write */
	size = PNG_IMAGE_PNG_SIZE_MAX(*img);
	if (!img->width || !img->height || size > GFS_BUF_MAX)
		return -EINVAL;
	if ((r = gfs_buf_grow(out, size)))
		return r;
	if (!png_image_write_to_memory(img, out->data + start, &size, 0, pixels, 0, colormap)) {
		png_image_free(img);
		return -EINVAL;
	}
	out->len = start + size;
	out->data[out->len] = 0;
	return 0;
}

/* Stored (uncompressed) deflate blocks of at most 65535 bytes. */
#define GFS_STORED_BLOCK	65535u

uint64_t gfs_png_stored_size(uint32_t w, uint32_t h)
{
	uint64_t raw = (uint64_t)h * (1 + (uint64_t)w * 4);
	uint64_t blocks = raw ? (raw + GFS_STORED_BLOCK - 1) / GFS_STORED_BLOCK : 1;

	/* signature, IHDR, one IDAT (zlib header, blocks, Adler-32), IEND */
	return 8 + 25 + 12 + 2 + raw + 5 * blocks + 4 + 12;
}

static int gfs_png_chunk(struct gfs_buf *out, const char *type, const uint8_t *data, size_t len)
{
	uint8_t be[4] = { (uint8_t)(len >> 24), (uint8_t)(len >> 16), (uint8_t)(len >> 8), (uint8_t)len };
	uint32_t crc;
	int r = gfs_buf_add(out, be, 4);

	if (!r)
		r = gfs_buf_add(out, type, 4);
	if (!r && len)
		r = gfs_buf_add(out, data, len);
	crc = gfs_crc32(0, type, 4);
	if (len)
		crc = gfs_crc32(crc, data, len);
	be[0] = (uint8_t)(crc >> 24);
	be[1] = (uint8_t)(crc >> 16);
	be[2] = (uint8_t)(crc >> 8);
	be[3] = (uint8_t)crc;
	return r ? r : gfs_buf_add(out, be, 4);
}

/* The 4-byte big-endian v at p. */
static void gfs_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/*
 * A stored block (last: the final one) at p: its 5-byte header, then n
 * bytes from done on of the filtered rows (filter 0 before each row) of rgba.
 */
static void gfs_png_stored_block(const uint8_t *rgba, uint32_t w, uint64_t done, uint32_t n,
				 int last, uint8_t *p)
{
	size_t row = 1 + (size_t)w * 4, y = (size_t)(done / row), x = (size_t)(done % row);

	p[0] = (uint8_t)last;
	p[1] = (uint8_t)n;
	p[2] = (uint8_t)(n >> 8);
	p[3] = (uint8_t)~n;
	p[4] = (uint8_t)(~n >> 8);
	p += 5;
	while (n) {
		size_t take;

		if (x == 0) {
			*p++ = 0;
			n--;
			x = 1;
			continue;
		}
		take = row - x < n ? row - x : n;
		memcpy(p, rgba + y * (size_t)w * 4 + x - 1, take);
		p += take;
		n -= (uint32_t)take;
		x += take;
		if (x == row) {
			x = 0;
			y++;
		}
	}
}

int gfs_png_encode_stored(const uint8_t *rgba, uint32_t w, uint32_t h, struct gfs_buf *out)
{
	uint64_t raw = (uint64_t)h * (1 + (uint64_t)w * 4), done = 0, size = gfs_png_stored_size(w, h);
	uint8_t ihdr[13] = { (uint8_t)(w >> 24), (uint8_t)(w >> 16), (uint8_t)(w >> 8), (uint8_t)w,
			     (uint8_t)(h >> 24), (uint8_t)(h >> 16), (uint8_t)(h >> 8), (uint8_t)h,
			     8, 6, 0, 0, 0 };
	uLong adler = adler32(0, Z_NULL, 0);
	uint32_t crc;
	uint8_t *p, *idat;
	int r;

	if (!w || !h || size - 57 > 0x7fffffff)
		return -EINVAL;
	r = gfs_buf_add(out, "\x89PNG\r\n\x1a\n", 8);
	if (!r)
		r = gfs_png_chunk(out, "IHDR", ihdr, sizeof(ihdr));
	/* the IDAT written in place, in one buffer of the whole size: no copy, no regrowth */
	if (!r)
		r = gfs_buf_grow(out, (size_t)(size - 33));
	if (r)
		return r;
	idat = p = out->data + out->len;
	gfs_put_be32(p, (uint32_t)(size - 57));
	memcpy(p + 4, "IDAT\x78\x01", 6);
	crc = gfs_crc32(0, p + 4, 6);
	p += 10;
	/* block by block, each summed while it is still in the cache */
	do {
		uint32_t n = raw - done > GFS_STORED_BLOCK ? GFS_STORED_BLOCK : (uint32_t)(raw - done);

		gfs_png_stored_block(rgba, w, done, n, done + n == raw, p);
		adler = adler32(adler, p + 5, n);
		crc = gfs_crc32(crc, p, 5 + (size_t)n);
		p += 5 + (size_t)n;
		done += n;
	} while (done < raw);
	gfs_put_be32(p, (uint32_t)adler);
	crc = gfs_crc32(crc, p, 4);
	gfs_put_be32(p + 4, crc);
	p += 8;
	out->len += (size_t)(p - idat);
	return gfs_png_chunk(out, "IEND", NULL, 0);
}

/* signature, IHDR, IDAT's length and type, zlib header: what comes before the rows */
#define GFS_PNG_ROWS_HEAD	(8 + 25 + 8 + 2)

/* bytes of the whole file; a pixel is RGBA (ncolors 0) or an index into ncolors (1-256) */
static uint64_t gfs_png_rows_bytes(uint32_t w, uint32_t h, unsigned ncolors)
{
	uint64_t bpp = ncolors ? 1 : 4;

	if (!w || w > GFS_PNG_ROW_MAXW || ncolors > 256)
		return 0;
	/* each row: block header, filter byte, pixels; then Adler-32, IDAT's CRC, IEND */
	return GFS_PNG_ROWS_HEAD + (ncolors ? 12 + 3 * (uint64_t)ncolors : 0) +
	       (uint64_t)h * (6 + (uint64_t)w * bpp) + 4 + 4 + 12;
}

uint64_t gfs_png_rows_size(uint32_t w, uint32_t h)
{
	return gfs_png_rows_bytes(w, h, 0);
}

uint64_t gfs_png_rows_size_pal(uint32_t w, uint32_t h, unsigned ncolors)
{
	return ncolors ? gfs_png_rows_bytes(w, h, ncolors) : 0;
}

static int gfs_png_rows_start(struct gfs_buf *out, uint32_t w, uint32_t h, const uint8_t *rgb,
			      unsigned ncolors, struct gfs_png_rows *pr)
{
	uint64_t size = gfs_png_rows_bytes(w, h, ncolors);
	size_t plte = ncolors ? 12 + 3 * (size_t)ncolors : 0;
	uint32_t n = 1 + w * (ncolors ? 1 : 4);
	uint8_t *p;
	int r;

	if (!size || !h || size - plte - 57 > 0x7fffffff)
		return -EINVAL;
	/* the whole file at once: the rows' addresses stay put until gfs_png_rows_end */
	if ((r = gfs_buf_grow(out, (size_t)size)))
		return r;
	pr->start = out->len;
	pr->w = w;
	pr->h = h;
	pr->stride = 5 + (size_t)n;
	pr->idat = 33 + plte;
	p = out->data + pr->start;
	memcpy(p, "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16);
	gfs_put_be32(p + 16, w);
	gfs_put_be32(p + 20, h);
	memcpy(p + 24, ncolors ? "\x08\x03\0\0\0" : "\x08\x06\0\0\0", 5);
	gfs_put_be32(p + 29, gfs_crc32(0, p + 12, 17));
	if (ncolors) {
		gfs_put_be32(p + 33, 3 * ncolors);
		memcpy(p + 37, "PLTE", 4);
		memcpy(p + 41, rgb, 3 * (size_t)ncolors);
		gfs_put_be32(p + 41 + 3 * ncolors, gfs_crc32(0, p + 37, 4 + 3 * (size_t)ncolors));
	}
	p += pr->idat;
	gfs_put_be32(p, (uint32_t)(size - plte - 57));
	memcpy(p + 4, "IDAT\x78\x01", 6);
	p += 10;
	for (uint32_t y = 0; y < h; y++, p += pr->stride) {
		p[0] = y + 1 == h;
		p[1] = (uint8_t)n;
		p[2] = (uint8_t)(n >> 8);
		p[3] = (uint8_t)~n;
		p[4] = (uint8_t)(~n >> 8);
		memset(p + 5, 0, n);	/* filter 0, every pixel transparent (or index 0) */
	}
	pr->pix = out->data + pr->start + pr->idat + 10 + 6;
	out->len += (size_t)size;
	out->data[out->len] = 0;
	return 0;
}

int gfs_png_rows_begin(struct gfs_buf *out, uint32_t w, uint32_t h, struct gfs_png_rows *pr)
{
	return gfs_png_rows_start(out, w, h, NULL, 0, pr);
}

int gfs_png_rows_begin_pal(struct gfs_buf *out, uint32_t w, uint32_t h, const uint8_t *rgb,
			   unsigned ncolors, struct gfs_png_rows *pr)
{
	return ncolors ? gfs_png_rows_start(out, w, h, rgb, ncolors, pr) : -EINVAL;
}

void gfs_png_rows_end(struct gfs_buf *out, const struct gfs_png_rows *pr)
{
	uint8_t *idat = out->data + pr->start + pr->idat + 4, *p = idat + 6;
	uLong adler = adler32(0, Z_NULL, 0);
	uint32_t crc = gfs_crc32(0, idat, 6);

	/* row by row, each summed twice while it is still in the cache */
	for (uint32_t y = 0; y < pr->h; y++, p += pr->stride) {
		adler = adler32(adler, p + 5, (uInt)(pr->stride - 5));
		crc = gfs_crc32(crc, p, pr->stride);
	}
	gfs_put_be32(p, (uint32_t)adler);
	gfs_put_be32(p + 4, gfs_crc32(crc, p, 4));
	memcpy(p + 8, "\0\0\0\0IEND\xae\x42\x60\x82", 12);
}

int gfs_png_encode(const uint8_t *rgba, uint32_t w, uint32_t h, struct gfs_buf *out)
{
	png_image img;

	memset(&img, 0, sizeof(img));
	img.width = w;
	img.height = h;
	img.format = PNG_FORMAT_RGBA;
	return gfs_png_write(&img, rgba, NULL, out);
}

/* libpng's full API for palette images: rows go out packed, as they are. */
struct gfs_png_sink {
	struct gfs_buf *out;
	int err;
};

static void gfs_png_sink_write(png_structp png, png_bytep data, size_t len)
{
	struct gfs_png_sink *s = png_get_io_ptr(png);

	if (!s->err)
		s->err = gfs_buf_add(s->out, data, len);
}

static void gfs_png_sink_flush(png_structp png)
{
	(void)png;
}

static void gfs_png_fail(png_structp png, png_const_charp msg)
{
	(void)msg;
	png_longjmp(png, 1);
}

static void gfs_png_warn(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

/* One row of byte indices into depth-bit packed bytes (indices past n become 0). */
static void gfs_png_pack(const uint8_t *idx, uint32_t w, unsigned n, int depth, uint8_t *row)
{
	unsigned shift = 8, acc = 0;
	size_t o = 0;

	if (depth == 4 && n == 16) {	/* the common case: two pixels a byte, any index valid */
		for (uint32_t x = 0; x + 1 < w; x += 2)
			row[x / 2] = (uint8_t)((idx[x] & 15) << 4 | (idx[x + 1] & 15));
		if (w & 1)
			row[w / 2] = (uint8_t)((idx[w - 1] & 15) << 4);
		return;
	}
	if (depth == 4) {
		for (uint32_t x = 0; x + 1 < w; x += 2) {
			unsigned a = idx[x] < n ? idx[x] : 0, b = idx[x + 1] < n ? idx[x + 1] : 0;

			row[x / 2] = (uint8_t)(a << 4 | b);
		}
		if (w & 1)
			row[w / 2] = (uint8_t)((idx[w - 1] < n ? idx[w - 1] : 0) << 4);
		return;
	}
	for (uint32_t x = 0; x < w; x++) {
		unsigned v = idx[x] < n ? idx[x] : 0;

		shift -= (unsigned)depth;
		acc |= v << shift;
		if (!shift) {
			row[o++] = (uint8_t)acc;
			acc = 0;
			shift = 8;
		}
	}
	if (shift < 8)
		row[o] = (uint8_t)acc;
}

int gfs_png_encode_indexed(const uint8_t *idx, uint32_t w, uint32_t h, const uint8_t *rgb,
			   unsigned ncolors, struct gfs_buf *out)
{
	return gfs_png_encode_indexed_clear(idx, w, h, rgb, ncolors, 0, out);
}

int gfs_png_encode_indexed_clear(const uint8_t *idx, uint32_t w, uint32_t h, const uint8_t *rgb,
				 unsigned ncolors, unsigned nclear, struct gfs_buf *out)
{
	static const png_byte clear[256];	/* tRNS: alpha 0 for the first nclear entries */
	int depth = ncolors <= 2 ? 1 : ncolors <= 4 ? 2 : ncolors <= 16 ? 4 : 8;
	struct gfs_png_sink sink = { out, 0 };
	size_t start = out->len;
	png_color pal[256];
	png_structp png;
	png_infop info;
	uint8_t *row;

	if (!w || !h || !ncolors || ncolors > 256 || nclear > ncolors || (uint64_t)w * h > GFS_PNG_MAX_PIXELS)
		return -EINVAL;
	for (unsigned i = 0; i < ncolors; i++) {
		pal[i].red = rgb[3 * i];
		pal[i].green = rgb[3 * i + 1];
		pal[i].blue = rgb[3 * i + 2];
	}
	row = malloc(((size_t)w * (size_t)depth + 7) / 8);
	png = row ? png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, gfs_png_fail, gfs_png_warn)
		  : NULL;
	info = png ? png_create_info_struct(png) : NULL;
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		free(row);
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(row);
		out->len = start;
		if (out->data)
			out->data[start] = 0;
		return -EINVAL;	/* (sink is not read here: setjmp leaves it indeterminate) */
	}
	png_set_write_fn(png, &sink, gfs_png_sink_write, gfs_png_sink_flush);
	png_set_IHDR(png, info, w, h, depth, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_PLTE(png, info, pal, (int)ncolors);
	if (nclear)
		png_set_tRNS(png, info, clear, (int)nclear, NULL);
	/* views are rendered on stat: speed first (drawn images compress well anyway) */
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_set_compression_level(png, 1);
	png_write_info(png, info);
	for (uint32_t y = 0; y < h; y++) {
		gfs_png_pack(idx + (size_t)y * w, w, ncolors, depth, row);
		png_write_row(png, row);
	}
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	free(row);
	if (sink.err) {
		out->len = start;
		out->data[start] = 0;
		return sink.err;
	}
	return 0;
}

/* IHDR fields (after the chunk's length and type) */
#define GFS_PNG_IHDR_DATA	13	/* bytes of IHDR data */
#define GFS_PNG_IHDR_DEPTH	8
#define GFS_PNG_IHDR_CTYPE	9
#define GFS_PNG_IHDR_ILACE	12

/*
 * The bytes of filtered image data an IHDR declares (rows with their filter
 * byte, each Adam7 pass on its own); 0 when the header is not a valid one
 * or declares over GFS_PNG_MAX_PIXELS.
 */
static uint64_t gfs_png_raw_size(const uint8_t *ihdr)
{
	static const uint8_t pass[7][4] = {	/* x start, y start, x step, y step */
		{ 0, 0, 8, 8 }, { 4, 0, 8, 8 }, { 0, 4, 4, 8 }, { 2, 0, 4, 4 },
		{ 0, 2, 2, 4 }, { 1, 0, 2, 2 }, { 0, 1, 1, 2 },
	};
	uint32_t w = gfs_be32(ihdr), h = gfs_be32(ihdr + 4);
	unsigned depth = ihdr[GFS_PNG_IHDR_DEPTH], ctype = ihdr[GFS_PNG_IHDR_CTYPE];
	unsigned chans = ctype == 0 || ctype == 3 ? 1 : ctype == 4 ? 2 : ctype == 2 ? 3 : ctype == 6 ? 4 : 0;
	uint64_t bits, size = 0;

	if (!w || !h || !chans || (uint64_t)w * h > GFS_PNG_MAX_PIXELS || ihdr[GFS_PNG_IHDR_ILACE] > 1 ||
	    (depth != 1 && depth != 2 && depth != 4 && depth != 8 && depth != 16))
		return 0;
	bits = (uint64_t)chans * depth;
	if (!ihdr[GFS_PNG_IHDR_ILACE])
		return (uint64_t)h * (1 + ((uint64_t)w * bits + 7) / 8);
	for (int i = 0; i < 7; i++) {
		uint64_t pw = w > pass[i][0] ? (w - pass[i][0] + pass[i][2] - 1) / pass[i][2] : 0;
		uint64_t ph = h > pass[i][1] ? (h - pass[i][1] + pass[i][3] - 1) / pass[i][3] : 0;

		if (pw && ph)
			size += ph * (1 + (pw * bits + 7) / 8);
	}
	return size;
}

/*
 * Inflate the image data of one IDAT chunk into nothing, counting it: -EINVAL
 * as soon as it passes *left bytes (a stream of zeros declared as a tiny
 * image inflates no further than the image) or is broken.
 */
static int gfs_png_idat_count(z_stream *zs, const uint8_t *p, size_t n, uint64_t *left, int *ended)
{
	uint8_t sink[16384];

	zs->next_in = (Bytef *)(uintptr_t)p;
	zs->avail_in = (uInt)n;
	while (!*ended && (zs->avail_in || !zs->avail_out)) {
		int z;

		zs->next_out = sink;
		zs->avail_out = sizeof(sink);
		z = inflate(zs, Z_NO_FLUSH);
		if (sizeof(sink) - zs->avail_out > *left)
			return -EINVAL;
		*left -= sizeof(sink) - zs->avail_out;
		if (z == Z_STREAM_END)
			*ended = 1;
		else if (z == Z_BUF_ERROR && !zs->avail_in)
			break;
		else if (z != Z_OK)
			return -EINVAL;
	}
	return 0;
}

/*
 * Copy of a PNG without its colour-management chunks: games ignore gAMA,
 * cHRM, sRGB and iCCP, and libpng's simplified API would otherwise convert
 * the pixels through them (and treat 16-bit data without them as linear).
 * The image data is inflated once on the way, capped at what the header
 * declares, so that libpng never inflates more than the image (issue 28:
 * an IDAT of 1 GiB of zeros was inflated whole).
 */
static int gfs_png_strip(const uint8_t *png, size_t len, struct gfs_buf *out)
{
	static const char *const drop[] = { "gAMA", "cHRM", "sRGB", "iCCP" };
	struct gfs_rd r;
	const uint8_t *p;
	z_stream zs;
	uint64_t left = 0;
	int rc, zinit = 0, ended = 0;

	memset(&zs, 0, sizeof(zs));
	gfs_rd_init(&r, png, len, 0);
	rc = gfs_rd_ptr(&r, &p, 8) ? -EINVAL : gfs_buf_grow(out, len);
	if (!rc)
		rc = gfs_buf_add(out, p, 8);
	while (!rc && gfs_rd_left(&r)) {
		uint8_t hd[8];
		uint32_t n;
		int keep = 1;

		if (gfs_rd_bytes(&r, hd, 8)) {
			rc = -EINVAL;
			break;
		}
		n = (uint32_t)hd[0] << 24 | (uint32_t)hd[1] << 16 | (uint32_t)hd[2] << 8 | hd[3];
		if (n > gfs_rd_left(&r) || gfs_rd_left(&r) - n < 4 || gfs_rd_ptr(&r, &p, (size_t)n + 4)) {
			rc = -EINVAL;
			break;
		}
		if (!memcmp(hd + 4, "IHDR", 4)) {
			if (zinit || n != GFS_PNG_IHDR_DATA || !(left = gfs_png_raw_size(p))) {
				rc = -EINVAL;
				break;
			}
			if (inflateInit(&zs) != Z_OK) {
				rc = -ENOMEM;
				break;
			}
			zinit = 1;
		} else if (!memcmp(hd + 4, "IDAT", 4)) {
			if (!zinit || (rc = gfs_png_idat_count(&zs, p, n, &left, &ended)))
				break;
		}
		for (size_t k = 0; k < sizeof(drop) / sizeof(drop[0]); k++)
			if (!memcmp(hd + 4, drop[k], 4))
				keep = 0;
		if (keep && !(rc = gfs_buf_add(out, hd, 8)))
			rc = gfs_buf_add(out, p, (size_t)n + 4);
		if (!memcmp(hd + 4, "IEND", 4))
			break;
	}
	if (!rc && !zinit)
		rc = -EINVAL;
	if (zinit)
		inflateEnd(&zs);
	return rc;
}

/*
 * Open a PNG for libpng's simplified reader (its colour-management chunks
 * dropped, b holding the bytes read): -EINVAL when it is no PNG or is
 * empty, over max_w x max_h or over GFS_PNG_MAX_PIXELS.
 */
static int gfs_png_open(const uint8_t *png, size_t len, uint32_t max_w, uint32_t max_h, struct gfs_buf *b,
			png_image *img)
{
	int rc;

	if (len < 8 || png_sig_cmp((png_const_bytep)png, 0, 8))
		return -EINVAL;
	if ((rc = gfs_png_strip(png, len, b)))
		return rc;
	memset(img, 0, sizeof(*img));
	img->version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_memory(img, b->data, b->len))
		return -EINVAL;
	if (!img->width || !img->height || img->width > max_w || img->height > max_h ||
	    (uint64_t)img->width * img->height > GFS_PNG_MAX_PIXELS) {
		png_image_free(img);
		return -EINVAL;
	}
	return 0;
}

/* The pixels of an opened image, bpp bytes each (and its colour map), into *out. */
static int gfs_png_finish(png_image *img, size_t bpp, void *colormap, uint8_t **out)
{
	uint8_t *px = malloc((size_t)img->width * img->height * bpp);

	if (!px || !png_image_finish_read(img, NULL, px, 0, colormap)) {
		free(px);
		png_image_free(img);
		return px ? -EINVAL : -ENOMEM;
	}
	*out = px;
	return 0;
}

int gfs_png_decode(const uint8_t *png, size_t len, uint32_t max_w, uint32_t max_h,
		   uint8_t **rgba, uint32_t *w, uint32_t *h)
{
	struct gfs_buf b = GFS_BUF_INIT;
	png_image img;
	int rc;

	*rgba = NULL;
	if ((rc = gfs_png_open(png, len, max_w, max_h, &b, &img)))
		goto out;
	img.format = PNG_FORMAT_RGBA;
	img.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
	if ((rc = gfs_png_finish(&img, 4, NULL, rgba)))
		goto out;
	*w = img.width;
	*h = img.height;
out:
	gfs_buf_release(&b);
	return rc;
}

int gfs_png_decode_index(const uint8_t *png, size_t len, uint32_t max_w, uint32_t max_h, uint8_t **idx,
			 uint8_t *rgba, unsigned *ncolors, uint32_t *w, uint32_t *h)
{
	struct gfs_buf b = GFS_BUF_INIT;
	png_image img;
	int rc;

	*idx = NULL;
	if ((rc = gfs_png_open(png, len, max_w, max_h, &b, &img)))
		goto out;
	if (!(img.format & PNG_FORMAT_FLAG_COLORMAP) || img.colormap_entries > 256) {
		png_image_free(&img);
		rc = -ENOENT;
		goto out;
	}
	img.format = PNG_FORMAT_RGBA_COLORMAP;
	*ncolors = img.colormap_entries;
	if ((rc = gfs_png_finish(&img, 1, rgba, idx)))
		goto out;
	*w = img.width;
	*h = img.height;
out:
	gfs_buf_release(&b);
	return rc;
}
