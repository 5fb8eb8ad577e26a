/*
 * tng_script.c - TirNanoG bytecode <-> assembly text (see tng_script.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gfs_strmap.h"
#include "tng_script.h"

/* How an opcode's argument bytes are read and written. */
enum tngs_arg {
	ARG_NONE,	/* no argument */
	ARG_SWITCH,	/* u8 n, n u24 addresses */
	ARG_ADDR,	/* u24 address */
	ARG_CMD,	/* u8 command, popping (opcode - 4) values */
	ARG_U8,		/* u8 number */
	ARG_U16,	/* u16 number */
	ARG_U24,	/* u24 number */
	ARG_U32,	/* u32 number */
	ARG_OBJ,	/* u16 object sprite index, category 2 */
	ARG_ATTR,	/* u24 attribute (its name's string offset) */
	ARG_REF,	/* u24 reference of the op's kind */
	ARG_TEXT,	/* u24 text index */
	ARG_MAP,	/* u24 map, u16 x, u16 y */
	ARG_SPR,	/* u8 category, u16 index */
};

struct tngs_op {
	const char *name;
	enum tngs_arg arg;
	enum tngs_ref ref;	/* ARG_REF */
};

#define OP(n, a) { n, a, 0 }
#define REF(n, k) { n, ARG_REF, k }
static const struct tngs_op ops[] = {
	OP("END", ARG_NONE), OP("SWITCH", ARG_SWITCH), OP("JMP", ARG_ADDR), OP("JZ", ARG_ADDR),
	OP("FNC0", ARG_CMD), OP("FNC1", ARG_CMD), OP("FNC2", ARG_CMD), OP("FNC3", ARG_CMD),
	OP("CNT0", ARG_NONE), OP("CNT1", ARG_OBJ), OP("SUM", ARG_ATTR),
	OP("CNTO0", ARG_NONE), OP("CNTO1", ARG_OBJ), OP("SUMO", ARG_ATTR),
	OP("RND", ARG_U32), OP("MIN", ARG_U8), OP("MAX", ARG_U8),
	OP("ADD", ARG_NONE), OP("SUB", ARG_NONE), OP("MUL", ARG_NONE), OP("DIV", ARG_NONE),
	OP("MOD", ARG_NONE), OP("EQ", ARG_NONE), OP("NE", ARG_NONE), OP("GE", ARG_NONE),
	OP("GT", ARG_NONE), OP("LE", ARG_NONE), OP("LT", ARG_NONE), OP("NOT", ARG_NONE),
	OP("OR", ARG_NONE), OP("AND", ARG_NONE),
	OP("POP", ARG_U8), OP("POPA", ARG_ATTR), OP("POPO", ARG_ATTR),
	OP("PUSH", ARG_U8), OP("PUSHA", ARG_ATTR), OP("PUSHO", ARG_ATTR),
	OP("PUSH8", ARG_U8), OP("PUSH16", ARG_U16), OP("PUSH24", ARG_U24), OP("PUSH32", ARG_U32),
	OP("PUSHMAP", ARG_MAP), OP("PUSHSPR", ARG_SPR),
	REF("PUSHMUS", TNGS_MUSIC), REF("PUSHSND", TNGS_SOUND), REF("PUSHSPC", TNGS_SPEECH),
	REF("PUSHCHR", TNGS_CHOOSER), REF("PUSHCUT", TNGS_CUTSCENE), REF("PUSHDLG", TNGS_DIALOG),
	REF("PUSHCFT", TNGS_CRAFT), REF("PUSHQST", TNGS_QUEST), OP("PUSHTXT", ARG_TEXT),
};
#define NOPS (sizeof ops / sizeof ops[0])

/* Argument bytes of each fixed-size argument kind (ARG_SWITCH varies). */
static const unsigned argbytes[] = {
	[ARG_NONE] = 0, [ARG_SWITCH] = 1, [ARG_ADDR] = 3, [ARG_CMD] = 1, [ARG_U8] = 1,
	[ARG_U16] = 2, [ARG_U24] = 3, [ARG_U32] = 4, [ARG_OBJ] = 2, [ARG_ATTR] = 3,
	[ARG_REF] = 3, [ARG_TEXT] = 3, [ARG_MAP] = 7, [ARG_SPR] = 3,
};

/* The command functions (ui_cmd.c's cmd_types) and how many values each pops. */
static const struct {
	const char *name;
	int arity;
} cmds[] = {
	[5] = { "exit", 0 }, [6] = { "delay", 1 }, [7] = { "music", 1 }, [8] = { "sound", 1 },
	[9] = { "speak", 1 }, [10] = { "chooser", 1 }, [11] = { "cutscn", 1 },
	[12] = { "dialog", 2 }, [13] = { "location", 3 }, [14] = { "quest", 2 },
	[15] = { "canim", 2 }, [16] = { "oanim", 2 }, [17] = { "npc", 3 }, [18] = { "actor", 1 },
	[19] = { "behave", 1 }, [20] = { "market", 0 }, [21] = { "south", 1 },
	[22] = { "southwest", 1 }, [23] = { "west", 1 }, [24] = { "northwest", 1 },
	[25] = { "north", 1 }, [26] = { "northeast", 1 }, [27] = { "east", 1 },
	[28] = { "southeast", 1 }, [29] = { "remove", 0 }, [30] = { "drop", 1 },
	[31] = { "delete", 2 }, [32] = { "add", 3 }, [33] = { "replace", 1 }, [34] = { "give", 2 },
	[35] = { "take", 2 }, [36] = { "event", 1 }, [37] = { "transport", 1 },
	[38] = { "scene", 3 }, [39] = { "waitnpc", 0 }, [40] = { "craft", 1 }, [41] = { "match", 3 },
	[42] = { "alert", 1 }, [43] = { "altitude", 1 },
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

/* Sprite categories: section type - 7. */
static const char *const sprcat[] = { "ui", "tiles", "chars", "portraits", "backs" };
#define NSPRCAT (sizeof sprcat / sizeof sprcat[0])
#define OBJ_CAT TNGS_OBJ_CAT

static const char *const refword[TNGS_NREFS] = {
	"music", "sound", "speech", "chooser", "cutscene", "dialog", "crafting ruleset",
	"quest", "text", "map", "attribute", "sprite", "movie", "font", "string",
};

const char *tngs_sprcat_name(unsigned cat)
{
	return cat < NSPRCAT ? sprcat[cat] : NULL;
}

int tngs_sprcat(const char *s)
{
	for (unsigned i = 0; i < NSPRCAT; i++)
		if (!strcmp(sprcat[i], s))
			return (int)i;
	return -1;
}

const char *tngs_cmd_name(unsigned cmd)
{
	return cmd < NCMDS ? cmds[cmd].name : NULL;
}

int tngs_cmd_arity(unsigned cmd)
{
	return cmd < NCMDS && cmds[cmd].name ? cmds[cmd].arity : -1;
}

static uint32_t rd(const uint8_t *p, unsigned n)
{
	uint32_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* Size of the instruction at code[pc], or 0 when it does not decode. */
static size_t insn_size(const uint8_t *code, size_t len, size_t pc)
{
	size_t need;

	if (pc >= len || code[pc] >= NOPS)
		return 0;
	need = 1 + argbytes[ops[code[pc]].arg];
	if (ops[code[pc]].arg == ARG_SWITCH && pc + 1 < len)
		need += (size_t)code[pc + 1] * 3;
	return pc + need <= len ? need : 0;
}

/* Marks instruction starts in starts[0..len] (len: the end); returns decoded bytes. */
static size_t mark_starts(const uint8_t *code, size_t len, uint8_t *starts)
{
	size_t pc = 0, n;

	while (pc < len && (n = insn_size(code, len, pc)) > 0) {
		starts[pc] = 1;
		pc += n;
	}
	starts[pc] = 1;		/* the end, or the first byte that does not decode */
	return pc;
}

/* Calls fn for each jump target of the decoded part. */
static void each_target(const uint8_t *code, size_t decoded,
			void (*fn)(void *ctx, uint32_t target), void *ctx)
{
	size_t pc = 0, n;

	while (pc < decoded) {
		n = insn_size(code, decoded, pc);
		if (ops[code[pc]].arg == ARG_ADDR)
			fn(ctx, rd(code + pc + 1, 3));
		else if (ops[code[pc]].arg == ARG_SWITCH)
			for (unsigned i = 0; i < code[pc + 1]; i++)
				fn(ctx, rd(code + pc + 2 + 3 * i, 3));
		pc += n;
	}
}

struct scan_ctx {
	const uint8_t *starts;
	size_t decoded;
	struct tngs_info *info;
};

static void scan_target(void *vctx, uint32_t t)
{
	struct scan_ctx *c = vctx;

	if ((t > c->decoded || !c->starts[t]) && !c->info->has_bad_target) {
		c->info->has_bad_target = 1;
		c->info->bad_target = t;
	}
}

void tngs_scan(const uint8_t *code, size_t len, struct tngs_info *info)
{
	uint8_t *starts = calloc(len + 1, 1);
	struct scan_ctx c = { starts, 0, info };
	size_t pc, n;

	memset(info, 0, sizeof *info);
	if (!starts)
		return;
	c.decoded = info->decoded = mark_starts(code, len, starts);
	for (pc = 0; pc < c.decoded; pc += n) {
		n = insn_size(code, len, pc);
		if (ops[code[pc]].arg == ARG_CMD && code[pc + 1] > info->maxcmd)
			info->maxcmd = code[pc + 1];
	}
	each_target(code, c.decoded, scan_target, &c);
	free(starts);
}

size_t tngs_refers(const uint8_t *code, size_t len, enum tngs_ref k, uint32_t v)
{
	size_t pc = 0, n;

	while ((n = insn_size(code, len, pc)) > 0) {
		const struct tngs_op *op = &ops[code[pc]];

		if (((op->arg == ARG_REF && op->ref == k) || (op->arg == ARG_MAP && k == TNGS_MAP) ||
		     (op->arg == ARG_ATTR && k == TNGS_ATTR)) && rd(code + pc + 1, 3) == v)
			return pc + 1;
		/* a sprite: v is category << 16 | index */
		if (op->arg == ARG_SPR && k == TNGS_SPRITE && ((uint32_t)code[pc + 1] << 16 | rd(code + pc + 2, 2)) == v)
			return pc + 1;
		pc += n;
	}
	return 0;
}

/* ---- disassembly ---- */

struct dis {
	const uint8_t *code;
	size_t len, decoded;
	uint8_t *starts;	/* [len + 1] instruction starts */
	uint32_t *label;	/* [len + 1] label number, 0 none */
	const struct tngs_names *nm;
	struct gfs_buf *out;
};

static void dis_target(void *vctx, uint32_t t)
{
	struct dis *d = vctx;

	if (t <= d->decoded && d->starts[t])
		d->label[t] = 1;
}

/* Can s be written as a bare token? */
static int bare_ok(const char *s)
{
	if (!*s || *s == '#' || *s == '@')
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f || *s == ',' || *s == ';' || *s == '"' ||
		    *s == '\\')
			return 0;
	return 1;
}

static int put_name(struct gfs_buf *out, const char *s)
{
	int rc = 0;

	if (bare_ok(s))
		return gfs_buf_adds(out, s);
	rc |= gfs_buf_addc(out, '"');
	for (; *s && !rc; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			rc |= gfs_buf_printf(out, "\\%c", c);
		else if (c < ' ' || c == 0x7f)
			rc |= gfs_buf_printf(out, "\\x%02x", c);
		else
			rc |= gfs_buf_addc(out, c);
	}
	return rc | gfs_buf_addc(out, '"');
}

/* The name of v when it leads back to v, else NULL. */
static const char *name_of(const struct tngs_names *nm, enum tngs_ref k, uint32_t v)
{
	const char *s;
	uint32_t back;

	if (!nm || !nm->name || !nm->find || !(s = nm->name(nm->ctx, k, v)) || !*s)
		return NULL;
	if (nm->find(nm->ctx, k, s, &back) != 0 || back != v)
		return NULL;
	return s;
}

static int exists(const struct tngs_names *nm, enum tngs_ref k, uint32_t v)
{
	return nm && nm->exists && nm->exists(nm->ctx, k, v);
}

static int put_ref(struct dis *d, enum tngs_ref k, uint32_t v)
{
	const char *s = name_of(d->nm, k, v);

	return s ? put_name(d->out, s) : gfs_buf_printf(d->out, "#%u", (unsigned)v);
}

static int put_sprite(struct dis *d, unsigned cat, unsigned idx)
{
	const char *raw = exists(d->nm, TNGS_SPRITE, (uint32_t)cat << 16 | idx) ? "" : "#";

	if (cat < NSPRCAT)
		return gfs_buf_printf(d->out, "%s%s/%u", raw, sprcat[cat], idx);
	return gfs_buf_printf(d->out, "%s%u/%u", raw, cat, idx);
}

static int put_addr(struct dis *d, uint32_t t)
{
	if (t <= d->decoded && d->label[t])
		return gfs_buf_printf(d->out, "L%u", (unsigned)d->label[t]);
	return gfs_buf_printf(d->out, "@%u", (unsigned)t);
}

/* A text shown in a comment: one line, at most 60 bytes, not cut inside a UTF-8 character. */
static int put_comment(struct gfs_buf *out, const char *s)
{
	size_t n = strlen(s), i;
	int rc;

	if (n > 60) {
		n = 60;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	rc = gfs_buf_adds(out, "\t; ");
	for (i = 0; i < n && !rc; i++)
		rc = gfs_buf_addc(out, (unsigned char)s[i] < ' ' ? ' ' : (unsigned char)s[i]);
	if (!rc && n < strlen(s))
		rc = gfs_buf_adds(out, "...");
	return rc;
}

static int dis_insn(struct dis *d, size_t pc)
{
	const uint8_t *p = d->code + pc + 1;
	const struct tngs_op *op = &ops[d->code[pc]];
	struct gfs_buf *out = d->out;
	int rc = gfs_buf_printf(out, "\t%s", op->name);
	const char *s;

	if (op->arg != ARG_NONE)
		rc |= gfs_buf_addc(out, ' ');
	switch (op->arg) {
	case ARG_NONE:
		break;
	case ARG_SWITCH:
		for (unsigned i = 0; i < p[0]; i++) {
			if (i)
				rc |= gfs_buf_addc(out, ' ');
			rc |= put_addr(d, rd(p + 1 + 3 * i, 3));
		}
		break;
	case ARG_ADDR:
		rc |= put_addr(d, rd(p, 3));
		break;
	case ARG_CMD: {
		int ar = tngs_cmd_arity(p[0]);

		if (ar == (int)(d->code[pc] - 4))
			rc |= gfs_buf_adds(out, cmds[p[0]].name);
		else
			rc |= gfs_buf_printf(out, "#%u", p[0]);
		break;
	}
	case ARG_U8: case ARG_U16: case ARG_U24: case ARG_U32:
		rc |= gfs_buf_add_dec(out, rd(p, argbytes[op->arg]));
		break;
	case ARG_OBJ:
		rc |= put_sprite(d, OBJ_CAT, rd(p, 2));
		break;
	case ARG_ATTR:
		rc |= put_ref(d, TNGS_ATTR, rd(p, 3));
		break;
	case ARG_REF:
		rc |= put_ref(d, op->ref, rd(p, 3));
		break;
	case ARG_TEXT:
		if (!exists(d->nm, TNGS_TEXT, rd(p, 3)))
			rc |= gfs_buf_addc(out, '#');
		rc |= gfs_buf_add_dec(out, rd(p, 3));
		if (d->nm && d->nm->name && (s = d->nm->name(d->nm->ctx, TNGS_TEXT, rd(p, 3))))
			rc |= put_comment(out, s);
		break;
	case ARG_MAP:
		rc |= put_ref(d, TNGS_MAP, rd(p, 3));
		rc |= gfs_buf_printf(out, " %u %u", (unsigned)rd(p + 3, 2), (unsigned)rd(p + 5, 2));
		break;
	case ARG_SPR:
		rc |= put_sprite(d, p[0], rd(p + 1, 2));
		break;
	}
	return rc | gfs_buf_addc(out, '\n');
}

/* Does every jump target of the instruction at pc start an instruction (or is it the end)? */
static int targets_ok(const struct dis *d, size_t pc)
{
	const uint8_t *p = d->code + pc + 1;
	unsigned n = ops[d->code[pc]].arg == ARG_ADDR ? 1 : ops[d->code[pc]].arg == ARG_SWITCH ? p[0] : 0;

	if (ops[d->code[pc]].arg == ARG_SWITCH)
		p++;
	for (unsigned i = 0; i < n; i++) {
		uint32_t t = rd(p + 3 * i, 3);

		if (t > d->decoded || !d->starts[t])
			return 0;
	}
	return 1;
}

/*
 * An instruction whose jump goes outside the script or into another
 * instruction: its bytes as one .byte line (the assembler takes no such
 * jump), the instruction it would be in a comment.
 */
static int dis_raw(struct dis *d, size_t pc, size_t n)
{
	struct gfs_buf insn = GFS_BUF_INIT, *out = d->out;
	int rc = gfs_buf_adds(out, "\t.byte");

	for (size_t i = 0; i < n; i++)
		rc |= gfs_buf_printf(out, " 0x%02x", d->code[pc + i]);
	d->out = &insn;
	rc |= dis_insn(d, pc);
	d->out = out;
	if (!rc && insn.len > 2)
		rc |= gfs_buf_printf(out, "\t; %.*s: %s\n", (int)(insn.len - 2), (const char *)insn.data + 1,
				     TNGS_BAD_JUMP);
	gfs_buf_release(&insn);
	return rc;
}

int tngs_disasm(const uint8_t *code, size_t len, const struct tngs_names *nm,
		struct gfs_buf *out)
{
	struct dis d = { code, len, 0, calloc(len + 1, 1), calloc(len + 1, sizeof(uint32_t)),
			 nm, out };
	uint32_t nlab = 0;
	size_t pc, i;
	int rc = 0;

	if (!d.starts || !d.label) {
		free(d.starts);
		free(d.label);
		return -ENOMEM;
	}
	d.decoded = mark_starts(code, len, d.starts);
	each_target(code, d.decoded, dis_target, &d);
	for (pc = 0; pc <= d.decoded; pc++)
		if (d.label[pc])
			d.label[pc] = ++nlab;
	for (pc = 0; pc < d.decoded && !rc; pc += insn_size(code, len, pc)) {
		if (d.label[pc])
			rc |= gfs_buf_printf(out, "L%u:\n", (unsigned)d.label[pc]);
		rc |= targets_ok(&d, pc) ? dis_insn(&d, pc) : dis_raw(&d, pc, insn_size(code, len, pc));
	}
	if (!rc && d.label[d.decoded])
		rc |= gfs_buf_printf(out, "L%u:\n", (unsigned)d.label[d.decoded]);
	for (i = d.decoded; i < len && !rc; i++)
		rc |= gfs_buf_printf(out, "%s0x%02x%s", (i - d.decoded) % 16 ? " " : "\t.byte ",
				     code[i], (i - d.decoded) % 16 == 15 || i + 1 == len ? "\n" : "");
	free(d.starts);
	free(d.label);
	return rc ? -ENOMEM : 0;
}

/* ---- assembly ---- */

#define MAXTOK 300

struct line {
	char *buf;		/* the line, unescaped in place */
	char *tok[MAXTOK];
	char quoted[MAXTOK];	/* the token was a "string": never a number, label or #raw */
	int ntok;
	char *label;		/* "NAME" of "NAME:", or NULL */
};

struct label {
	uint32_t addr;
	unsigned line;
};

/* Where a line's bytes start: the only addresses a jump may name (and the end). */
struct start {
	uint32_t addr;
	unsigned line;
};

struct as {
	const struct tngs_names *nm;
	struct label *labels;
	size_t nlabels, cap;
	struct start *starts;		/* lines with bytes, in address order (pass 0) */
	size_t nstarts, startcap;
	uint32_t end;			/* the script's length (pass 0) */
	struct gfs_strmap byname;	/* label name -> its index in labels + 1 */
	unsigned lineno;
	char *why;
	size_t whylen;
	unsigned maxcmd;
};

static int fail(struct as *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct as *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (a->why && a->whylen) {
		n = snprintf(a->why, a->whylen, "line %u: ", a->lineno);
		va_start(ap, fmt);
		if (n >= 0 && (size_t)n < a->whylen)
			vsnprintf(a->why + n, a->whylen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Splits one line (NUL-terminated, modified in place) into tokens. */
static int tokenize(struct as *a, struct line *l)
{
	char *p = l->buf, *w;

	l->ntok = 0;
	l->label = NULL;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r')
			p++;
		if (!*p || *p == ';')
			break;
		if (l->ntok == MAXTOK)
			return fail(a, "too many operands");
		l->quoted[l->ntok] = *p == '"';
		if (*p == '"') {
			l->tok[l->ntok++] = w = ++p;
			for (;;) {
				if (!*p)
					return fail(a, "unterminated string");
				if (*p == '"') {
					p++;
					break;
				}
				if (*p == '\\') {
					if (p[1] == '"' || p[1] == '\\') {
						*w++ = p[1];
						p += 2;
					} else if (p[1] == 'x' && hexval(p[2]) >= 0 && hexval(p[3]) >= 0) {
						*w++ = (char)(hexval(p[2]) << 4 | hexval(p[3]));
						p += 4;
					} else {
						return fail(a, "bad escape in string");
					}
				} else {
					*w++ = *p++;
				}
			}
			if (*p && *p != ' ' && *p != '\t' && *p != ',' && *p != ';' && *p != '\r')
				return fail(a, "text after a closing quote");
			if (*p == ';')
				*p = '\0';	/* ends the line: the comment starts here */
			else if (*p)
				p++;
			*w = '\0';
			if (!*l->tok[l->ntok - 1])
				return fail(a, "empty name");
			continue;
		}
		l->tok[l->ntok++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != ',' && *p != ';' && *p != '\r' && *p != '"')
			p++;
		if (*p == '"')
			return fail(a, "quote inside a word");
		if (*p == ';') {
			*p = '\0';
			break;
		}
		if (*p)
			*p++ = '\0';
	}
	if (l->ntok > 0 && !l->quoted[0]) {
		size_t n = strlen(l->tok[0]);

		if (n > 1 && l->tok[0][n - 1] == ':') {
			l->tok[0][n - 1] = '\0';
			l->label = l->tok[0];
			for (char *c = l->label; *c; c++)
				if (!(*c == '_' || (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
				      (c > l->label && *c >= '0' && *c <= '9')))
					return fail(a, "bad label name '%s'", l->label);
			l->ntok--;
			memmove(l->tok, l->tok + 1, (size_t)l->ntok * sizeof l->tok[0]);
			memmove(l->quoted, l->quoted + 1, (size_t)l->ntok);
		}
	}
	return 0;
}

/* A number: decimal or 0x hex, optionally negative. */
static int parse_num(const char *s, long long *v)
{
	int neg = 0, base = 10, d;
	unsigned long long x = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		d = hexval(*s);
		if (d < 0 || d >= base)
			return -1;
		x = x * (unsigned)base + (unsigned)d;
		if (x > 0xffffffffULL)
			return -1;
	}
	*v = neg ? -(long long)x : (long long)x;
	return 0;
}

/* A number of n bytes: 0 .. 2^(8n)-1, or negative in two's complement when sgn. */
static int num_arg(struct as *a, const char *s, unsigned n, int sgn, uint32_t *v)
{
	long long x, max = (1LL << (8 * n)) - 1;

	if (parse_num(s, &x) < 0)
		return fail(a, "'%s' is not a number", s);
	if (x > max || (x < 0 && (!sgn || x < -(max / 2) - 1)))
		return fail(a, "%s out of range %lld..%lld", s, sgn ? -(max / 2) - 1 : 0, max);
	*v = (uint32_t)(x & max);
	return 0;
}

static int ref_arg(struct as *a, enum tngs_ref k, const char *s, int quoted, uint32_t *v)
{
	if (*s == '#' && !quoted)
		return num_arg(a, s + 1, 3, 0, v);
	if (!a->nm || !a->nm->find || a->nm->find(a->nm->ctx, k, s, v) != 0)
		return fail(a, "no %s named '%s'", refword[k], s);
	if (*v > 0xffffff)
		return fail(a, "%s '%s' is out of reach", refword[k], s);
	return 0;
}

static int sprite_arg(struct as *a, const char *s, uint32_t *cat, uint32_t *idx)
{
	int raw = *s == '#';
	const char *slash;
	char catname[32];
	size_t n;

	s += raw;
	slash = strchr(s, '/');
	if (!slash || (n = (size_t)(slash - s)) == 0 || n >= sizeof catname)
		return fail(a, "sprite '%s' is not CATEGORY/INDEX", s);
	memcpy(catname, s, n);
	catname[n] = '\0';
	for (*cat = 0; *cat < NSPRCAT && strcmp(sprcat[*cat], catname); (*cat)++)
		;
	if (*cat == NSPRCAT && num_arg(a, catname, 1, 0, cat) < 0)
		return fail(a, "no sprite category '%s' (ui, tiles, chars, portraits, backs)", catname);
	if (num_arg(a, slash + 1, 2, 0, idx) < 0)
		return -EINVAL;
	if (!raw && a->nm && a->nm->exists &&
	    !a->nm->exists(a->nm->ctx, TNGS_SPRITE, *cat << 16 | *idx))
		return fail(a, "no sprite %s", s);
	return 0;
}

static const struct label *find_label(struct as *a, const char *name)
{
	size_t i;

	return gfs_strmap_get(&a->byname, name, strlen(name), &i) ? &a->labels[i - 1] : NULL;
}

/*
 * A jump to @N must land where a line's bytes start, or at the end: not
 * outside the script, not inside an instruction (issue 28).
 */
static int addr_ok(struct as *a, const char *s, uint32_t v)
{
	size_t lo = 0, hi = a->nstarts;

	if (v == a->end)
		return 0;
	if (v > a->end)
		return fail(a, "jump to %s: outside the script (%u bytes)", s, (unsigned)a->end);
	while (hi - lo > 1) {	/* the last line starting at or before v */
		size_t mid = lo + (hi - lo) / 2;

		if (a->starts[mid].addr <= v)
			lo = mid;
		else
			hi = mid;
	}
	if (a->nstarts && a->starts[lo].addr == v)
		return 0;
	return fail(a, "jump to %s: into the middle of line %u (%s)", s, a->nstarts ? a->starts[lo].line : 0,
		    "no instruction starts there");
}

static int addr_arg(struct as *a, const char *s, uint32_t *v)
{
	const struct label *l;
	int rc;

	if (*s == '@')
		return (rc = num_arg(a, s + 1, 3, 0, v)) ? rc : addr_ok(a, s, *v);
	if (!(l = find_label(a, s)))
		return fail(a, "label '%s' is not defined", s);
	*v = l->addr;
	return 0;
}

static int put_n(struct gfs_buf *out, uint32_t v, unsigned n)
{
	int rc = 0;

	while (n--) {
		rc |= gfs_buf_addc(out, (uint8_t)v);
		v >>= 8;
	}
	return rc;
}

static int find_op(const char *m)
{
	for (size_t i = 0; i < NOPS; i++)
		if (!strcasecmp(ops[i].name, m))
			return (int)i;
	return -1;
}

/* Bytes of the instruction or .byte line l (its operand count checked). */
static int line_size(struct as *a, const struct line *l, size_t *size)
{
	int op, want;

	if (l->ntok == 0) {
		*size = 0;
		return 0;
	}
	if (!strcasecmp(l->tok[0], ".byte")) {
		*size = (size_t)l->ntok - 1;
		return 0;
	}
	if ((op = find_op(l->tok[0])) < 0)
		return fail(a, "unknown mnemonic '%s'", l->tok[0]);
	if (ops[op].arg == ARG_SWITCH) {
		if (l->ntok - 1 > 255)
			return fail(a, "SWITCH has more than 255 targets");
		*size = 2 + 3 * (size_t)(l->ntok - 1);
		return 0;
	}
	want = ops[op].arg == ARG_NONE ? 0 : ops[op].arg == ARG_MAP ? 3 : 1;
	if (l->ntok - 1 != want)
		return fail(a, "%s takes %d operand%s, not %d", ops[op].name, want,
			    want == 1 ? "" : "s", l->ntok - 1);
	*size = 1 + argbytes[ops[op].arg];
	return 0;
}

static int emit(struct as *a, const struct line *l, struct gfs_buf *out)
{
	uint32_t v, x, y, cat;
	int op, rc = 0, i;

	if (l->ntok == 0)
		return 0;
	if (!strcasecmp(l->tok[0], ".byte")) {
		for (i = 1; i < l->ntok && !rc; i++)
			if (!(rc = num_arg(a, l->tok[i], 1, 0, &v)))
				rc = gfs_buf_addc(out, (uint8_t)v) ? -ENOMEM : 0;
		return rc;
	}
	op = find_op(l->tok[0]);
	if (gfs_buf_addc(out, (uint8_t)op))
		return -ENOMEM;
	switch (ops[op].arg) {
	case ARG_NONE:
		return 0;
	case ARG_SWITCH:
		rc = gfs_buf_addc(out, (uint8_t)(l->ntok - 1)) ? -ENOMEM : 0;
		for (i = 1; i < l->ntok && !rc; i++)
			if (!(rc = addr_arg(a, l->tok[i], &v)))
				rc = put_n(out, v, 3) ? -ENOMEM : 0;
		return rc;
	case ARG_ADDR:
		if ((rc = addr_arg(a, l->tok[1], &v)))
			return rc;
		return put_n(out, v, 3) ? -ENOMEM : 0;
	case ARG_CMD: {
		unsigned want = (unsigned)op - 4, c;

		if (l->tok[1][0] == '#') {
			if ((rc = num_arg(a, l->tok[1] + 1, 1, 0, &v)))
				return rc;
		} else {
			for (c = 0; c < NCMDS && !(cmds[c].name && !strcmp(cmds[c].name, l->tok[1])); c++)
				;
			if (c == NCMDS)
				return fail(a, "unknown command '%s'", l->tok[1]);
			if (cmds[c].arity != (int)want)
				return fail(a, "command '%s' takes %d stack value%s (FNC%d), not %u",
					    cmds[c].name, cmds[c].arity, cmds[c].arity == 1 ? "" : "s",
					    cmds[c].arity, want);
			v = c;
		}
		if (v > a->maxcmd)
			a->maxcmd = v;
		return gfs_buf_addc(out, (uint8_t)v) ? -ENOMEM : 0;
	}
	case ARG_U8: case ARG_U16: case ARG_U24: case ARG_U32:
		if ((rc = num_arg(a, l->tok[1], argbytes[ops[op].arg],
				  op >= 37 && op <= 40, &v)))	/* PUSH8..PUSH32 take negatives */
			return rc;
		return put_n(out, v, argbytes[ops[op].arg]) ? -ENOMEM : 0;
	case ARG_OBJ:
		if ((rc = sprite_arg(a, l->tok[1], &cat, &v)))
			return rc;
		if (cat != OBJ_CAT)
			return fail(a, "%s takes an object sprite (%s/N)", ops[op].name, sprcat[OBJ_CAT]);
		return put_n(out, v, 2) ? -ENOMEM : 0;
	case ARG_ATTR:
	case ARG_REF:
		if ((rc = ref_arg(a, ops[op].arg == ARG_ATTR ? TNGS_ATTR : ops[op].ref, l->tok[1],
				  l->quoted[1], &v)))
			return rc;
		return put_n(out, v, 3) ? -ENOMEM : 0;
	case ARG_TEXT: {
		int raw = l->tok[1][0] == '#';

		if ((rc = num_arg(a, l->tok[1] + raw, 3, 0, &v)))
			return rc;
		if (!raw && a->nm && a->nm->exists && !a->nm->exists(a->nm->ctx, TNGS_TEXT, v))
			return fail(a, "no text %u", (unsigned)v);
		return put_n(out, v, 3) ? -ENOMEM : 0;
	}
	case ARG_MAP:
		if ((rc = ref_arg(a, TNGS_MAP, l->tok[1], l->quoted[1], &v)) ||
		    (rc = num_arg(a, l->tok[2], 2, 0, &x)) || (rc = num_arg(a, l->tok[3], 2, 0, &y)))
			return rc;
		return put_n(out, v, 3) | put_n(out, x, 2) | put_n(out, y, 2) ? -ENOMEM : 0;
	case ARG_SPR:
		if ((rc = sprite_arg(a, l->tok[1], &cat, &v)))
			return rc;
		return put_n(out, cat, 1) | put_n(out, v, 2) ? -ENOMEM : 0;
	}
	return 0;
}

static int add_label(struct as *a, const char *name, uint32_t addr)
{
	struct label *lb;
	size_t *idx;
	int r;

	if (a->nlabels == a->cap) {
		size_t cap = a->cap * 2 + 16;

		if (!(lb = realloc(a->labels, cap * sizeof *lb)))
			return -ENOMEM;
		a->labels = lb;
		a->cap = cap;
	}
	if ((r = gfs_strmap_put(&a->byname, name, strlen(name), &idx)) < 0)
		return r;
	if (!r)
		return fail(a, "label '%s' is already defined on line %u", name, a->labels[*idx - 1].line);
	*idx = a->nlabels + 1;
	lb = &a->labels[a->nlabels];
	lb->addr = addr;
	lb->line = a->lineno;
	a->nlabels++;
	return 0;
}

static int add_start(struct as *a, uint32_t addr)
{
	if (a->nstarts == a->startcap) {
		size_t cap = a->startcap * 2 + 64;
		struct start *st = realloc(a->starts, cap * sizeof *st);

		if (!st)
			return -ENOMEM;
		a->starts = st;
		a->startcap = cap;
	}
	a->starts[a->nstarts].addr = addr;
	a->starts[a->nstarts++].line = a->lineno;
	return 0;
}

/* Runs pass (0: labels, sizes and line starts, 1: bytes) over every line of text. */
static int pass(struct as *a, const char *text, size_t len, int emit_pass, struct gfs_buf *out)
{
	struct line *l = malloc(sizeof *l);
	size_t pos = 0, addr = 0, size = 0;
	int rc = 0;

	if (!l)
		return -ENOMEM;
	a->lineno = 0;
	while (pos < len && !rc) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		a->lineno++;
		if (memchr(text + pos, '\0', n)) {
			rc = fail(a, "NUL byte in the text");
			break;
		}
		if (!(l->buf = malloc(n + 1))) {
			rc = -ENOMEM;
			break;
		}
		memcpy(l->buf, text + pos, n);
		l->buf[n] = '\0';
		pos += n + (nl != NULL);
		if (!(rc = tokenize(a, l)) && !(rc = line_size(a, l, &size))) {
			if (!emit_pass && l->label)
				rc = add_label(a, l->label, (uint32_t)addr);
			if (!rc && !emit_pass && size)
				rc = add_start(a, (uint32_t)addr);
			if (!rc && emit_pass)
				rc = emit(a, l, out);
			addr += size;
			if (!rc && addr > 0xffffff)
				rc = fail(a, "the script is longer than 16 MiB");
		}
		free(l->buf);
	}
	free(l);
	if (!rc && !emit_pass)
		a->end = (uint32_t)addr;
	return rc;
}

int tngs_asm(const char *text, size_t len, const struct tngs_names *nm, struct gfs_buf *out,
	     unsigned *maxcmd, char *why, size_t whylen)
{
	struct as a = { .nm = nm, .byname = GFS_STRMAP_INIT, .why = why, .whylen = whylen };
	size_t start = out->len;
	int rc;

	if (why && whylen)
		why[0] = '\0';
	rc = pass(&a, text, len, 0, NULL);
	if (!rc)
		rc = pass(&a, text, len, 1, out);
	gfs_strmap_release(&a.byname);
	free(a.labels);
	free(a.starts);
	if (rc)
		out->len = start;
	else if (maxcmd)
		*maxcmd = a.maxcmd;
	return rc;
}
