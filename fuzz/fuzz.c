/*
 * The libFuzzer target of every format: loads the input, renders every
 * node, saves, checks that the unedited save equals the input, and reloads
 * the saved bytes (gfs_fuzz_one() returns -1 on a bug: the run aborts).
 *
 * The format comes from the table at run time: GAMEFS_FUZZ_FORMAT=FMT, or
 * the program's name fuzz-FMT (a link to it); with neither, the input's
 * format is detected as a mount would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gamefs.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *fuzz_format;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *name = getenv("GAMEFS_FUZZ_FORMAT");

	if (!name && *argc > 0) {
		const char *slash = strrchr((*argv)[0], '/');
		const char *base = slash ? slash + 1 : (*argv)[0];

		if (!strncmp(base, "fuzz-", 5))
			name = base + 5;
	}
	if (name && name[0] && !gfs_format_by_name(name) && !gfs_fuzz_codec(name)) {
		struct gfs_buf names = GFS_BUF_INIT;

		gfs_format_names(&names, ", ");
		fprintf(stderr, "gamefs-fuzz: unknown format '%s' (%s)\n", name,
			names.data ? (char *)names.data : "");
		gfs_buf_release(&names);
		exit(2);
	}
	fuzz_format = name && name[0] ? name : NULL;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (gfs_fuzz_one(fuzz_format, data, size))
		abort();
	return 0;
}
