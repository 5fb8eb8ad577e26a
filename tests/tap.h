/* Minimal TAP output for the unit tests. */
#ifndef GFS_TAP_H
#define GFS_TAP_H
#include <stdio.h>
static int tap_n, tap_failed;
#define ok(cond, ...) do { int c_ = !!(cond); tap_n++; if (!c_) tap_failed++; \
	printf("%s %d - ", c_ ? "ok" : "not ok", tap_n); printf(__VA_ARGS__); printf("\n"); \
	if (!c_) printf("#   at %s:%d\n", __FILE__, __LINE__); } while (0)
#define done_testing() (printf("1..%d\n", tap_n), tap_failed ? 1 : 0)

/* A reproducible xorshift sequence for random tests; set tap_seed for another. */
static unsigned long long tap_seed = 0x9e3779b97f4a7c15ULL;

static inline unsigned rnd(void)
{
	tap_seed ^= tap_seed << 13;
	tap_seed ^= tap_seed >> 7;
	tap_seed ^= tap_seed << 17;
	return (unsigned)(tap_seed >> 11);
}
#endif
