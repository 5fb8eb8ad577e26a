/*
 * gfs_codec.h - small byte codecs the formats share: the RLE of 16-bit
 * cells (TirNanoG maps, TirNanoG save layers) and the sniffs that tell a
 * zlib stream or a PNG file by its first bytes.  One copy each, here.
 */
#ifndef GFS_CODEC_H
#define GFS_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include "gfs_buf.h"

/*
 * RLE of little-endian u16 values, in packets that start with a byte n:
 * bit 7 set, the next u16 stands for (n & 127) + 1 equal values; clear,
 * (n & 127) + 1 literal u16 values follow.
 *
 * gfs_rle16_decode() decodes p[0..len) into out[0..max) (out NULL: only
 * count).  *count gets the values decoded, *at the byte offset where the
 * decoding stopped: len on success, else the packet that failed.  Returns
 * 0, -EBADMSG when a packet is cut short, -EFBIG when the values would
 * exceed max.  Nothing is allocated.
 */
int gfs_rle16_decode(const uint8_t *p, size_t len, uint16_t *out, size_t max,
		     size_t *count, size_t *at);
/*
 * Append the RLE of v[0..n) to out: runs of two or more equal values as
 * one repeat packet, anything else as literal packets of up to 128 values
 * that end where a run begins.  Deterministic, so an unchanged grid
 * encodes to the bytes the games write.
 */
int gfs_rle16_encode(const uint16_t *v, size_t n, struct gfs_buf *out);

/* Does p start like a zlib stream (RFC 1950 CMF/FLG: deflate, window <= 32K, check bits)? */
int gfs_is_zlib(const uint8_t *p, size_t len);

/*
 * Does p start like a PNG (signature, then a 13-byte IHDR chunk)?  0 and
 * its width and height (either pointer may be NULL), else -EINVAL.
 */
#define GFS_PNG_HEAD_LEN 33	/* the bytes gfs_png_size() looks at */
int gfs_png_size(const uint8_t *p, size_t len, uint32_t *w, uint32_t *h);

#endif
