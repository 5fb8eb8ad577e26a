/* Minimal TAP output for the unit tests. */
#ifndef GFS_TAP_H
#define GFS_TAP_H
#include <stdio.h>
static int tap_n, tap_failed;
#define ok(cond, ...) do { int c_ = !!(cond); tap_n++; if (!c_) tap_failed++; \
	printf("%s %d - ", c_ ? "ok" : "not ok", tap_n); printf(__VA_ARGS__); printf("\n"); \
	if (!c_) printf("#   at %s:%d\n", __FILE__, __LINE__); } while (0)
#define done_testing() (printf("1..%d\n", tap_n), tap_failed ? 1 : 0)
#endif
