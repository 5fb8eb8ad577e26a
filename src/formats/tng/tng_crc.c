/*
 * tng_crc.c - CRC-32 (zlib's polynomial and conventions) for the whole-file
 * passes of big games: folded with PCLMULQDQ where the CPU has it (about
 * 3x zlib's crc32 here), zlib's otherwise and for the last bytes.
 * The folding follows Intel's "Fast CRC Computation for Generic Polynomials
 * Using PCLMULQDQ Instruction" with the constants of the reflected
 * polynomial 0xedb88320 (as in Chromium's zlib, crc32_simd.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>
#include "gfs_codec.h"
#include "tng.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define TNG_CRC_FOLD 1

/* The CRC state (not inverted) of len bytes, len >= 64 and a multiple of 16. */
__attribute__((target("pclmul,sse4.1")))
static uint32_t tng_crc_fold(const unsigned char *buf, size_t len, uint32_t crc)
{
	static const uint64_t __attribute__((aligned(16))) k1k2[] = { 0x0154442bd4, 0x01c6e41596 };
	static const uint64_t __attribute__((aligned(16))) k3k4[] = { 0x01751997d0, 0x00ccaa009e };
	static const uint64_t __attribute__((aligned(16))) k5k0[] = { 0x0163cd6124, 0x0000000000 };
	static const uint64_t __attribute__((aligned(16))) poly[] = { 0x01db710641, 0x01f7011641 };
	__m128i x0, x1, x2, x3, x4, x5, x6, x7, x8, y5, y6, y7, y8;

	x1 = _mm_loadu_si128((const __m128i *)(buf + 0x00));
	x2 = _mm_loadu_si128((const __m128i *)(buf + 0x10));
	x3 = _mm_loadu_si128((const __m128i *)(buf + 0x20));
	x4 = _mm_loadu_si128((const __m128i *)(buf + 0x30));
	x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
	x0 = _mm_load_si128((const __m128i *)k1k2);
	buf += 64;
	len -= 64;
	while (len >= 64) {
		x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
		x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
		x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
		x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
		x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
		x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
		x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
		x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
		y5 = _mm_loadu_si128((const __m128i *)(buf + 0x00));
		y6 = _mm_loadu_si128((const __m128i *)(buf + 0x10));
		y7 = _mm_loadu_si128((const __m128i *)(buf + 0x20));
		y8 = _mm_loadu_si128((const __m128i *)(buf + 0x30));
		x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), y5);
		x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), y6);
		x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), y7);
		x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), y8);
		buf += 64;
		len -= 64;
	}
	x0 = _mm_load_si128((const __m128i *)k3k4);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);
	while (len >= 16) {
		x2 = _mm_loadu_si128((const __m128i *)buf);
		x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
		x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
		buf += 16;
		len -= 16;
	}
	x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
	x3 = _mm_setr_epi32(~0, 0, ~0, 0);
	x1 = _mm_srli_si128(x1, 8);
	x1 = _mm_xor_si128(x1, x2);
	x0 = _mm_loadl_epi64((const __m128i *)k5k0);
	x2 = _mm_srli_si128(x1, 4);
	x1 = _mm_and_si128(x1, x3);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	x0 = _mm_load_si128((const __m128i *)poly);
	x2 = _mm_and_si128(x1, x3);
	x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
	x2 = _mm_and_si128(x2, x3);
	x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	return (uint32_t)_mm_extract_epi32(x1, 1);
}

#endif

uint32_t tng_crc32(uint32_t crc, const uint8_t *p, size_t len)
{
#ifdef TNG_CRC_FOLD
	static int have = -1;

	if (!len)
		return crc;	/* zlib's crc32() would take a NULL p as "start over" */
	if (have < 0)
		have = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
	if (have && len >= 64) {
		size_t n = len & ~(size_t)15;

		crc = ~tng_crc_fold(p, n, ~crc);
		p += n;
		len -= n;
	}
#else
	if (!len)
		return crc;
#endif
	return gfs_crc32(crc, p, len);
}

/* ---- the whole-file pass ------------------------------------------------------ */

struct tng_crctab *tng_crctab_new(const struct tng *t)
{
	struct tng_crctab *tab = calloc(1, sizeof(*tab));

	if (!tab)
		return NULL;
	tab->fsize = t->fsize;
	tab->stored = gfs_le32(t->hdr + TNG_OFF_CRC);
	tab->n = (size_t)((t->fsize + TNG_TAB_CHUNK - 1) / TNG_TAB_CHUNK);
	tab->crc = malloc((tab->n ? tab->n : 1) * sizeof(*tab->crc));
	if (!tab->crc) {
		free(tab);
		return NULL;
	}
	return tab;
}

void tng_crctab_free(struct tng_crctab *tab)
{
	if (tab)
		free(tab->crc);
	free(tab);
}

int tng_file_walk(struct gfs_archive *ar, uint64_t fsize, tng_walk_fn fn, void *arg,
		  uint64_t *erroff)
{
	uint8_t *buf = malloc(TNG_CHUNK);
	uint64_t off = 0;
	int r = 0;

	if (!buf)
		return -ENOMEM;
	while (off < fsize && !r) {
		size_t n = fsize - off < TNG_CHUNK ? (size_t)(fsize - off) : TNG_CHUNK;

		if (gfs_check_stopping(ar)) {
			r = -ECANCELED;
			break;
		}
		r = gfs_pread(ar, buf, n, off);
		if (r) {
			*erroff = off;
			break;
		}
		for (uint64_t q = TNG_OFF_CRC; q < TNG_OFF_CRC + 4; q++)
			if (q >= off && q < off + n)
				buf[q - off] = 0;
		fn(arg, buf, off, n);
		off += n;
	}
	free(buf);
	return r;
}

struct tng_scan_ctx {
	struct tng_crctab *tab;
	uint32_t whole;
	size_t k;
};

static void tng_scan_piece(void *arg, const uint8_t *buf, uint64_t off, size_t n)
{
	struct tng_scan_ctx *sc = arg;

	(void)off;
	for (size_t at = 0; at < n; at += TNG_TAB_CHUNK, sc->k++) {
		size_t m = n - at < TNG_TAB_CHUNK ? n - at : (size_t)TNG_TAB_CHUNK;

		sc->tab->crc[sc->k] = tng_crc32(0, buf + at, m);
		sc->whole = (uint32_t)crc32_combine64(sc->whole, sc->tab->crc[sc->k], (z_off64_t)m);
	}
}

int tng_crc_scan(struct gfs_archive *ar, void *arg, char *why, size_t whylen)
{
	struct tng_crctab *tab = arg;
	struct tng_scan_ctx sc = { tab, 0, 0 };
	uint64_t erroff = 0;
	int r;

	tab->ok = 0;
	r = tng_file_walk(ar, tab->fsize, tng_scan_piece, &sc, &erroff);
	if (r) {
		if (r != -ECANCELED && r != -ENOMEM)
			snprintf(why, whylen, "cannot read the archive at 0x%llx to check its CRC",
				 (unsigned long long)erroff);
		return r;
	}
	tab->whole = sc.whole;
	tab->ok = 1;
	if (sc.whole != tab->stored) {
		snprintf(why, whylen, "header CRC 0x%08x does not match the file (0x%08x)",
			 tab->stored, sc.whole);
		return 1;
	}
	return 0;
}

int tng_crc_region(struct gfs_archive *ar, const struct tng_crctab *tab, uint64_t off, uint64_t len,
		   uint32_t *crc)
{
	uint8_t *buf = NULL;
	uint32_t c = 0;
	int r = 0;

	if (!tab->ok || off > tab->fsize || len > tab->fsize - off)
		return -EINVAL;
	while (len && !r) {
		uint64_t k = off / TNG_TAB_CHUNK, cs = k * TNG_TAB_CHUNK;
		uint64_t ce = cs + TNG_TAB_CHUNK < tab->fsize ? cs + TNG_TAB_CHUNK : tab->fsize;
		size_t n;

		if (off == cs && len >= ce - cs && k > 0) {	/* a whole chunk: its CRC */
			c = (uint32_t)crc32_combine64(c, tab->crc[k], (z_off64_t)(ce - cs));
			off = ce;
			len -= ce - cs;
			continue;
		}
		n = (size_t)(len < ce - off ? len : ce - off);	/* part of one: read it */
		if (!buf && !(buf = malloc((size_t)TNG_TAB_CHUNK)))
			return -ENOMEM;
		r = gfs_pread(ar, buf, n, off);
		if (!r)
			c = tng_crc32(c, buf, n);
		off += n;
		len -= n;
	}
	free(buf);
	*crc = c;
	return r;
}

int tng_crc_schedule(struct gfs_archive *ar, struct tng *t)
{
	char why[200];
	int v;

	tng_crctab_free(t->crctab);
	t->crctab = tng_crctab_new(t);
	if (!t->crctab)
		return -ENOMEM;
	if (t->fsize > TNG_CRC_NOW_MAX)
		return gfs_check_later(ar, tng_crc_scan, t->crctab);
	why[0] = 0;
	v = tng_crc_scan(ar, t->crctab, why, sizeof(why));
	if (v < 0)
		return gfs_err(ar, v, "%s", why[0] ? why : "cannot read the archive");
	t->hdr_crc_ok = v == 0;
	if (v) {
		ar->damaged = 1;
		gfs_warn(ar, "%s", why);
	}
	return 0;
}
