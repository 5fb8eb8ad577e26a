/*
 * Tiny archive writers for the demo and the tests' generated fixtures.
 * They write from the format documents, not through libgamefs's savers.
 */
#ifndef GFS_WRITERS_H
#define GFS_WRITERS_H
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/* One OHRRPGCE lump: name, then PDP-endian size, then data. */
int wr_rpg_lump(FILE *f, const char *name, const void *data, uint32_t size);

#endif
