/*
 * gamefs-mkdemo: write a small demo OHRRPGCE game with our own code, so the
 * README's first command has something to mount.
 *   gamefs-mkdemo OUT.rpg
 */
#include <stdio.h>
#include <string.h>
#include "writers.h"

int main(int argc, char **argv)
{
	static const char archinym[] = "ohrrpgce\r\ngamefs-mkdemo 1\r\n";
	static const char browse[] = "Demo Quest\r\nA tiny game made by gamefs-mkdemo to show gamefs.\r\n";
	static const char readme[] = "Edit me with any editor: the archive is rebuilt on close.\n";
	unsigned char gen[1000], pal[256 * 3], map[64 * 64];
	FILE *f;
	int r = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: gamefs-mkdemo OUT.rpg\n");
		return 2;
	}
	memset(gen, 0, sizeof(gen));
	gen[0] = 1;				/* one map */
	for (int i = 0; i < 256; i++) {
		pal[i * 3] = (unsigned char)i;
		pal[i * 3 + 1] = (unsigned char)(255 - i);
		pal[i * 3 + 2] = (unsigned char)(i * 7);
	}
	for (int i = 0; i < 64 * 64; i++)
		map[i] = (unsigned char)((i / 64 + i % 64) % 16);
	f = fopen(argv[1], "wb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	r |= wr_rpg_lump(f, "ARCHINYM.LMP", archinym, sizeof(archinym) - 1);
	r |= wr_rpg_lump(f, "BROWSE.TXT", browse, sizeof(browse) - 1);
	r |= wr_rpg_lump(f, "OHRRPGCE.GEN", gen, sizeof(gen));
	r |= wr_rpg_lump(f, "PALETTES.BIN", pal, sizeof(pal));
	r |= wr_rpg_lump(f, "OHRRPGCE.T00", map, sizeof(map));
	r |= wr_rpg_lump(f, "README.TXT", readme, sizeof(readme) - 1);
	r |= wr_rpg_lump(f, "EMPTY.BIN", "", 0);
	if (fclose(f) || r) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
