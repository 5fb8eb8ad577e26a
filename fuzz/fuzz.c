/*
 * libFuzzer target: one per format, chosen at build time with
 * -DGFS_FUZZ_FORMAT="name".  Loads the input, renders every node, saves,
 * and reloads the saved bytes (gfs_fuzz_one aborts the run when a saved
 * archive does not load again).
 */
#include <stdlib.h>
#include "gamefs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (gfs_fuzz_one(GFS_FUZZ_FORMAT, data, size))
		abort();
	return 0;
}
