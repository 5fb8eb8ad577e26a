/*
 * tng_crc.c - CRC-32 (zlib's polynomial and conventions) for the whole-file
 * passes of big games: folded with PCLMULQDQ where the CPU has it (about
 * 3x zlib's crc32 here), zlib's otherwise and for the last bytes.
 * The folding follows Intel's "Fast CRC Computation for Generic Polynomials
 * Using PCLMULQDQ Instruction" with the constants of the reflected
 * polynomial 0xedb88320 (as in Chromium's zlib, crc32_simd.c).
 */
#include <stddef.h>
#include <stdint.h>
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
