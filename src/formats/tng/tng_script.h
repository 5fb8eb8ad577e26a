/*
 * tng_script.h - the TirNanoG script codec: bytecode <-> assembly text.
 *
 * A script (an event handler, an on-change handler or expression, a
 * default action, a startup or cutscene script...) is a string of
 * variable-length instructions, an opcode byte and its arguments
 * (tng-game-format.txt, "script assets").  Its text form is one instruction
 * per line, the document's mnemonics, labels for jump and switch targets,
 * commands by name with their stack arity, references by name:
 *
 *	L1:	PUSHSND door		; a sound, by its name in section 0
 *		FNC1 sound		; FNCn: the command pops n stack values
 *		PUSHMAP meadow 10 4	; a map by name, x and y
 *		PUSHSPR chars/12	; sprite category and index
 *		PUSHTXT 3		; "the text, as a comment"
 *		JZ L1
 *		SWITCH L1 L2		; n targets
 *
 * `#N` is a reference by number (what the disassembler writes when a value
 * has no name that leads back to it) and `@N` a jump to byte address N,
 * which must be where a line's bytes start or the end of the script.
 * Bytes that do not decode are kept as `.byte` lines, and so is an
 * instruction whose jump goes outside the script or into another
 * instruction (with the instruction in a comment ending in TNGS_BAD_JUMP):
 * the assembler refuses such a jump.  So the text of any bytecode assembles
 * back to the same bytes; an edited text is assembled with its jump
 * addresses recomputed.
 *
 * This file knows no archive: names come through struct tngs_names, which
 * the model fills in.
 */
#ifndef TNG_SCRIPT_H
#define TNG_SCRIPT_H

#include <stddef.h>
#include <stdint.h>
#include "gfs_buf.h"

/* How the disassembler's comment on a .byte line names a jump no instruction takes. */
#define TNGS_BAD_JUMP "a jump outside the script or into an instruction"

/* What a reference operand names. */
enum tngs_ref {
	TNGS_MUSIC, TNGS_SOUND, TNGS_SPEECH, TNGS_CHOOSER, TNGS_CUTSCENE, TNGS_DIALOG,
	TNGS_CRAFT, TNGS_QUEST, TNGS_TEXT, TNGS_MAP, TNGS_ATTR, TNGS_SPRITE,
	/* named by records only (no opcode pushes them): a movie, a font, any string of section 0 */
	TNGS_MOVIE, TNGS_FONT, TNGS_STRING, TNGS_NREFS
};

/*
 * Names of references.  Every callback may be NULL (then values are shown
 * and taken as numbers and not checked).
 *   name(kind, v)	the name of value v, or NULL; for TNGS_TEXT the text
 *			(shown as a comment only).
 *   find(kind, s, &v)	the value named s: 0, or -1 when none.
 *   exists(kind, v)	does value v refer to something (a text index, a
 *			sprite: v = category << 16 | index)?
 */
struct tngs_names {
	const char *(*name)(void *ctx, enum tngs_ref kind, uint32_t v);
	int (*find)(void *ctx, enum tngs_ref kind, const char *s, uint32_t *v);
	int (*exists)(void *ctx, enum tngs_ref kind, uint32_t v);
	void *ctx;
};

/* What a scan of bytecode found. */
struct tngs_info {
	size_t decoded;		/* bytes that decode as whole instructions */
	unsigned maxcmd;	/* highest FNC command number, 0 if none */
	size_t bad_target;	/* address of the first jump that misses an instruction start */
	int has_bad_target;
};

/* Scan code: how far it decodes, its highest command, its jump targets. */
void tngs_scan(const uint8_t *code, size_t len, struct tngs_info *info);

/* The assembly text of code, appended to out.  0 or -ENOMEM. */
int tngs_disasm(const uint8_t *code, size_t len, const struct tngs_names *nm,
		struct gfs_buf *out);

/*
 * Assemble text into out (appended).  0, or -EINVAL with "line N: why" in
 * why; *maxcmd gets the highest command number used (0 if none).
 */
int tngs_asm(const char *text, size_t len, const struct tngs_names *nm, struct gfs_buf *out,
	     unsigned *maxcmd, char *why, size_t whylen);

/*
 * Where code first names v as a kind k reference (a push of that kind, a
 * map of PUSHMAP, an attribute of SUM/POPA/PUSHA...): its byte offset + 1,
 * or 0 when it does not.
 */
size_t tngs_refers(const uint8_t *code, size_t len, enum tngs_ref k, uint32_t v);

/* Sprite category cat's name (ui, tiles, chars, portraits, backs), or NULL; the category named s, or -1. */
const char *tngs_sprcat_name(unsigned cat);
int tngs_sprcat(const char *s);
#define TNGS_OBJ_CAT 2		/* the category of a bare object sprite index */

/* The name of command cmd, or NULL; its stack arity (a map counts 2). */
const char *tngs_cmd_name(unsigned cmd);
int tngs_cmd_arity(unsigned cmd);

#endif
