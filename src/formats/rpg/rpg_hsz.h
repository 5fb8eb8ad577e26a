/*
 * rpg_hsz.h - compiled HamsterSpeak (one <id>.HSZ / <id>.HSX lump of an HSP)
 * back to HamsterSpeak text, for the read-only scripts/<name>.hss views.
 *
 *   rpg_hsz.c       the decompiler: header, node tree, text
 *   rpg_hsz_cmds.c  the engine's published command names (plotscr.hsd)
 *   rpg_hsp.c       the HSP around it: names of scripts, commands, globals
 */
#ifndef GFS_RPG_HSZ_H
#define GFS_RPG_HSZ_H

#include "gfs_driver.h"

/* What the HSP says about a script, and where the decompiler finds names. */
struct hsz_script {
	long id;
	const char *name;	/* from SCRIPTS.BIN / SCRIPTS.TXT, NULL when unknown */
	int trigger;		/* 1 plotscript, 0 script, -1 unknown */
	long argc;		/* from SCRIPTS.TXT / .BIN, -1 unknown (format 0 headers lack it) */
	const char *lump;	/* the lump it comes from ("5.HSZ") */
	const long *defaults;	/* the arguments' defaults (SCRIPTS.TXT; 0 also for none) */
	long ndefaults;
	/* names: NULL (or an empty string) when the game does not give one */
	const char *(*script_name)(void *ctx, long id);
	const char *(*command_name)(void *ctx, long id);
	const char *(*global_name)(void *ctx, long id);
	void *ctx;
};

/*
 * The HamsterSpeak text of the HSZ/HSX bytes data[0..len) appended to out.
 * Damaged bytecode (offsets past the end, unknown node kinds, cycles, too
 * deep a nesting) gives the text up to there and a comment saying where
 * decompiling stopped.  0, or -ENOMEM.
 */
int rpg_hsz_decompile(const uint8_t *data, size_t len, const struct hsz_script *s, struct gfs_buf *out);

/* The name plotscr.hsd gives command id at *name: its length, or 0 (none). */
size_t rpg_hsz_cmd_name(long id, const char **name);

#endif
