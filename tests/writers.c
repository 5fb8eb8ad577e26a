#include <string.h>
#include "writers.h"

int wr_rpg_lump(FILE *f, const char *name, const void *data, uint32_t size)
{
	unsigned char sz[4] = {
		(unsigned char)(size >> 16), (unsigned char)(size >> 24),
		(unsigned char)size, (unsigned char)(size >> 8),
	};

	if (fwrite(name, 1, strlen(name) + 1, f) != strlen(name) + 1 || fwrite(sz, 1, 4, f) != 4)
		return -1;
	return size && fwrite(data, 1, size, f) != size ? -1 : 0;
}
