/*
 * Replays every saved fuzz input and past crasher through gfs_fuzz_one():
 *   replay DIR...   where each DIR is fuzz/corpus/FMT or fuzz/crashers/FMT
 * The format is the directory's name.  Exit 1 if any input fails.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gamefs.h"

static int replay_file(const char *fmt, const char *path)
{
	FILE *f = fopen(path, "rb");
	struct gfs_buf b = GFS_BUF_INIT;
	uint8_t chunk[65536];
	size_t n;
	int r;

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		gfs_buf_add(&b, chunk, n);
	fclose(f);
	r = gfs_fuzz_one(fmt, b.data ? b.data : (const uint8_t *)"", b.len);
	gfs_buf_release(&b);
	return r;
}

int main(int argc, char **argv)
{
	int bad = 0, total = 0;

	for (int i = 1; i < argc; i++) {
		const char *slash = strrchr(argv[i], '/');
		const char *fmt = slash ? slash + 1 : argv[i];
		DIR *d = opendir(argv[i]);
		struct dirent *e;

		if (!d)
			continue;
		if (!gfs_format_by_name(fmt) && !gfs_fuzz_codec(fmt))
			fmt = NULL;
		while ((e = readdir(d))) {
			char path[4096];
			struct stat st;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (stat(path, &st) || !S_ISREG(st.st_mode))
				continue;
			total++;
			if (replay_file(fmt, path)) {
				printf("FAIL %s\n", path);
				bad++;
			}
		}
		closedir(d);
	}
	printf("replayed %d inputs, %d failed\n", total, bad);
	return bad ? 1 : 0;
}
