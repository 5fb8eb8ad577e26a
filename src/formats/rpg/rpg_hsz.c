/*
 * A compiled HamsterSpeak script (one <id>.HSZ or <id>.HSX lump of an HSP)
 * as HamsterSpeak text (specs/ohrrpgce-lumps.md section 6; the engine's
 * scripting.bas, scrconst.bi and HSpeak's hspeak.exw for the layout).
 *
 * The lump: a header of int16 fields (its own length first, then the
 * number of variables, of arguments, the format, the string table's byte
 * offset (int32 from a 12-byte header), parent script, nesting depth,
 * nonlocals, string table length in words, flags, the variable-name
 * table's word offset), then code words: int32 from format 1, int16 in
 * format 0 (.HSX).  A node is kind, id and, for flow, math, command and
 * script calls, an argument count and that many word offsets of the
 * argument nodes; numbers and variables are only kind and id.  The root is
 * a do() at word 0.  Strings (of $N="...") are int32 length + bytes in the
 * string table, the node holding their word offset in it.
 *
 * Hostile bytes never crash or hang: every offset is checked, nesting is
 * bounded, so are the nodes visited (shared subtrees are legal, cycles
 * are not) and the text; the first fault ends the text with a comment.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpg_hsz.h"

#define HSZ_DEPTH_MAX	200		/* the engine nests at most 4 scripts; HSpeak ~100 levels */
#define HSZ_VARS_MAX	256
#define HSZ_FORMAT_MAX	3
#define HSZ_CODE_MAX	(64u << 20)	/* bytes of code we decompile */
#define HSZ_TEXT_MAX	(64u << 20)	/* bytes of text one script gives at most */

enum { K_STOP, K_NUM, K_FLOW, K_GLOBAL, K_LOCAL, K_MATH, K_FUNC, K_SCRIPT, K_NONLOCAL };
enum { F_DO = 0, F_RETURN = 3, F_IF, F_THEN, F_ELSE, F_FOR, F_WHILE = 10, F_BREAK, F_CONTINUE, F_EXIT,
       F_EXITRET, F_SWITCH };
enum { M_SETVAR = 16, M_INC, M_DEC };

/* flow names as HamsterSpeak spells them (scrconst.bi, hspeak.exw) */
static const char *const hsz_flow[] = { "do", "begin", "end", "return", "if", "then", "else", "for", NULL,
					NULL, "while", "break", "continue", "exit script", "exit returning",
					"switch" };
/* math: the infix operator and its precedence (hamsterspeak.hsd "define operator"), else the function */
static const struct { const char *op; int prec; const char *fn; } hsz_math[] = {
	{ NULL, 0, "random" }, { " ^ ", 20, "exponent" }, { ",mod,", 30, "modulus" }, { " / ", 30, "divide" },
	{ " * ", 30, "multiply" }, { " -- ", 40, "subtract" }, { " + ", 40, "add" }, { ",xor,", 60, "xor" },
	{ ",or,", 60, "or" }, { ",and,", 60, "and" }, { " == ", 50, "equal" }, { " <> ", 50, "notequal" },
	{ " < ", 50, "lessthan" }, { " > ", 50, "greaterthan" }, { " <= ", 50, "lessthanorequalto" },
	{ " >= ", 50, "greaterthanorequalto" }, { " := ", 80, "setvariable" }, { " += ", 80, "increment" },
	{ " -= ", 80, "decrement" }, { NULL, 0, "not" }, { " && ", 65, "logand" }, { " || ", 70, "logor" },
	{ " ^^ ", 70, "logxor" }, { NULL, 0, "abs" }, { NULL, 0, "sign" }, { NULL, 0, "sqrt" },
};
#define HSZ_NMATH ((long)(sizeof(hsz_math) / sizeof(hsz_math[0])))

struct hsz {
	const struct hsz_script *s;
	const uint8_t *data;
	size_t len;
	struct gfs_buf *out;
	size_t start;			/* out->len when we began */
	int32_t *w;			/* the code words */
	long n, hl, fmt, vars, args, parent, nonlocals;
	long st, stlen;			/* string table: word offset in the code, length in words; st < 0 none */
	long vname[HSZ_VARS_MAX];	/* byte offset of each local's name in data, -1 none */
	long vnlen[HSZ_VARS_MAX];
	unsigned long budget;		/* nodes left to visit */
	int r;				/* -ENOMEM */
	int stopped;
};

/* ---- text out ---------------------------------------------------------------- */

static void hsz_put(struct hsz *d, const char *s)
{
	if (d->stopped || d->r)
		return;
	if (d->out->len - d->start > HSZ_TEXT_MAX) {
		d->r = gfs_buf_adds(d->out, "\n# gamefs: decompiling stopped: the text passed 64 MiB\n");
		d->stopped = 1;
		return;
	}
	d->r = gfs_buf_adds(d->out, s);
}

static void hsz_putf(struct hsz *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void hsz_putf(struct hsz *d, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	hsz_put(d, tmp);
}

/* The first fault: the text ends here with a comment saying where and why. */
static void hsz_stop(struct hsz *d, long at, const char *why)
{
	if (d->stopped || d->r)
		return;
	hsz_putf(d, "\n# gamefs: decompiling stopped at code word %ld: %s\n", at, why);
	d->stopped = 1;
}

/* Has decompiling stopped, or does node p lie too deep (then it stops)? */
static int hsz_halted(struct hsz *d, long p, int depth)
{
	if (depth > HSZ_DEPTH_MAX)
		hsz_stop(d, p, "nested deeper than 200 (a cycle?)");
	return d->stopped || d->r;
}

static void hsz_indent(struct hsz *d, int lvl)
{
	for (int i = 0; i < lvl; i++)
		hsz_put(d, "  ");
}

/* A name from the game: printable ASCII, HamsterSpeak's separators and # as _; 0 when empty */
static int hsz_put_name(struct hsz *d, const uint8_t *p, size_t n)
{
	char tmp[64];
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < sizeof(tmp); i++)
		tmp[k++] = p[i] < 0x20 || p[i] >= 0x7f || strchr(",()#\"$", p[i]) ? '_' : (char)p[i];
	tmp[k] = 0;
	hsz_put(d, tmp);
	return n > 0;
}

static int hsz_put_given(struct hsz *d, const char *name)
{
	return name && hsz_put_name(d, (const uint8_t *)name, strlen(name));
}

/* ---- the code ---------------------------------------------------------------- */

static long hsz_hdr16(const struct hsz *d, size_t at)
{
	return (long)d->hl >= (long)at + 2 && at + 2 <= d->len ? (int16_t)gfs_le16(d->data + at) : 0;
}

static long hsz_hdr32(const struct hsz *d, size_t at)
{
	return (long)d->hl >= (long)at + 4 && at + 4 <= d->len ? (int32_t)gfs_le32(d->data + at) : 0;
}

/* Node at p: kind, id and (for calls) argc, all inside the code; 0 or hsz_stop(). */
static int hsz_node(struct hsz *d, long p, long *kind, long *id, long *argc)
{
	if (p < 0 || p + 1 >= d->n) {
		hsz_stop(d, p, "a node offset past the end of the code");
		return -1;
	}
	if (!d->budget--) {
		hsz_stop(d, p, "more nodes than the code can hold without a cycle");
		return -1;
	}
	*kind = d->w[p];
	*id = d->w[p + 1];
	*argc = 0;
	switch (*kind) {
	case K_NUM: case K_GLOBAL: case K_LOCAL: case K_NONLOCAL:
		return 0;
	case K_FLOW: case K_MATH: case K_FUNC: case K_SCRIPT:
		if (p + 2 >= d->n || d->w[p + 2] < 0 || d->w[p + 2] > d->n - p - 3) {
			hsz_stop(d, p, "an argument count past the end of the code");
			return -1;
		}
		*argc = d->w[p + 2];
		return 0;
	}
	{
		char why[64];

		snprintf(why, sizeof(why), "unknown node kind %ld", *kind);
		hsz_stop(d, p, why);
	}
	return -1;
}

static long hsz_arg(const struct hsz *d, long p, long i)
{
	return d->w[p + 3 + i];
}

/* Is node p a number (*v its value)? Leaves no trace when it is not. */
static int hsz_is_num(const struct hsz *d, long p, long *v)
{
	if (p < 0 || p + 1 >= d->n || d->w[p] != K_NUM)
		return 0;
	*v = d->w[p + 1];
	return 1;
}

/* Is node p flow of that id (any, id < 0)? */
static int hsz_is_flow(const struct hsz *d, long p, long id)
{
	return p >= 0 && p + 2 < d->n && d->w[p] == K_FLOW && (id < 0 || d->w[p + 1] == id);
}

/* ---- names --------------------------------------------------------------------- */

static void hsz_local_name(struct hsz *d, long v)
{
	if (v >= 0 && v < HSZ_VARS_MAX && d->vname[v] >= 0 && d->vnlen[v] > 0)
		hsz_put_name(d, d->data + d->vname[v], (size_t)d->vnlen[v]);
	else if (d->args < 0)
		hsz_putf(d, "local%ld", v);
	else if (v < d->args)
		hsz_putf(d, "arg%ld", v);
	else
		hsz_putf(d, "var%ld", v - d->args);
}

static void hsz_var_name(struct hsz *d, long kind, long v)
{
	if (kind == K_GLOBAL) {
		if (!(d->s->global_name && hsz_put_given(d, d->s->global_name(d->s->ctx, v))))
			hsz_putf(d, "global%ld", v);
	} else if (kind == K_LOCAL && v < 256) {
		hsz_local_name(d, v);
	} else {
		hsz_putf(d, "nonlocal%ld_%ld", v >> 8, v & 255);
	}
}

/* The variable of setvariable, increment, decrement, for: global id, or -1 - local */
static void hsz_math_var(struct hsz *d, long v)
{
	if (v >= 0)
		hsz_var_name(d, K_GLOBAL, v);
	else
		hsz_var_name(d, -1 - v >= 256 ? K_NONLOCAL : K_LOCAL, -1 - v);
}

/* A string of the string table at word off: 1 when shown */
static int hsz_string_lit(struct hsz *d, long off)
{
	long at, n;

	if (d->st < 0 || off < 0 || off >= d->stlen)
		return 0;
	at = d->st + off;
	n = d->w[at];
	if (n < 0 || n > 4 * (d->stlen - off - 1) || (size_t)(d->hl + 4 * (at + 1) + n) > d->len)
		return 0;
	hsz_put(d, "\"");
	for (long i = 0; i < n; i++) {
		uint8_t c = d->data[d->hl + 4 * (at + 1) + i];

		if (c == '"' || c == '\\')
			hsz_putf(d, "\\%c", c);
		else if (c == '\n')
			hsz_put(d, "\\n");
		else if (c < 0x20 || c >= 0x7f)
			hsz_putf(d, "\\x%02X", c);
		else
			hsz_putf(d, "%c", c);
	}
	hsz_put(d, "\"");
	return 1;
}

/* Does argument i of command id hold a string table offset? */
static int hsz_string_arg(long id, long i)
{
	switch (id) {
	case 251: case 252:	/* set / append string from table ($N="..." / $N+"...") */
		return i == 1;
	case 466: case 736:	/* trace value internal, show value internal ("x", x ...) */
		return i % 2 == 0;
	case 659:		/* _asserteq(x, y, string id, string) */
		return i == 3;
	}
	return 0;
}

/* ---- expressions ------------------------------------------------------------- */

static void hsz_expr(struct hsz *d, long p, int depth);
static void hsz_stmt(struct hsz *d, long p, int depth, int lvl);

static void hsz_args_list(struct hsz *d, long p, long argc, long from, long cmd, int depth)
{
	hsz_put(d, "(");
	for (long i = from; i < argc && !d->stopped; i++) {
		long v;

		if (i > from)
			hsz_put(d, ", ");
		if (!(cmd >= 0 && hsz_string_arg(cmd, i) && hsz_is_num(d, hsz_arg(d, p, i), &v) && hsz_string_lit(d, v)))
			hsz_expr(d, hsz_arg(d, p, i), depth + 1);
	}
	hsz_put(d, ")");
}

static void hsz_call(struct hsz *d, long p, long argc, int depth)
{
	if (argc)
		hsz_args_list(d, p, argc, 0, -1, depth);
}

/* The precedence of node p when it is an infix operation, else 0. */
static int hsz_infix(const struct hsz *d, long p)
{
	long id;

	if (p < 0 || p + 2 >= d->n || d->w[p] != K_MATH || d->w[p + 2] != 2)
		return 0;
	id = d->w[p + 1];
	return id >= 0 && id < HSZ_NMATH && hsz_math[id].op ? hsz_math[id].prec : 0;
}

/* an infix operand: in brackets unless it binds tighter than its operator */
static void hsz_operand(struct hsz *d, long p, int prec, int depth)
{
	int c = hsz_infix(d, p), br = c && c >= prec;

	if (br)
		hsz_put(d, "(");
	hsz_expr(d, p, depth + 1);
	if (br)
		hsz_put(d, ")");
}

static void hsz_math_expr(struct hsz *d, long p, long id, long argc, int depth)
{
	long v;

	if (id >= 0 && id < HSZ_NMATH) {
		if (hsz_math[id].op && argc == 2) {
			if (id >= M_SETVAR && id <= M_DEC && hsz_is_num(d, hsz_arg(d, p, 0), &v))
				hsz_math_var(d, v);
			else
				hsz_operand(d, hsz_arg(d, p, 0), hsz_math[id].prec, depth);
			hsz_put(d, hsz_math[id].op);
			hsz_operand(d, hsz_arg(d, p, 1), hsz_math[id].prec + (id >= M_SETVAR && id <= M_DEC), depth);
			return;
		}
		hsz_put(d, hsz_math[id].fn);
	} else {
		hsz_putf(d, "math%ld", id);
	}
	hsz_args_list(d, p, argc, 0, -1, depth);
}

static void hsz_command(struct hsz *d, long p, long id, long argc, int depth)
{
	long v, sid;
	const char *nm;
	size_t nl;

	if ((id == 251 || id == 252) && argc == 2 && hsz_is_num(d, hsz_arg(d, p, 0), &sid) &&
	    hsz_is_num(d, hsz_arg(d, p, 1), &v)) {
		size_t at = d->out->len;

		hsz_putf(d, "$%ld%s", sid, id == 251 ? "=" : "+");
		if (hsz_string_lit(d, v))
			return;
		if (!d->r && !d->stopped)
			d->r = gfs_buf_set_len(d->out, at);	/* no such string: the plain call */
	}
	if (!(d->s->command_name && hsz_put_given(d, d->s->command_name(d->s->ctx, id))) &&
	    !((nl = rpg_hsz_cmd_name(id, &nm)) && hsz_put_name(d, (const uint8_t *)nm, nl)))
		hsz_putf(d, "cmd%ld", id);
	if (argc)
		hsz_args_list(d, p, argc, 0, id, depth);
}

static void hsz_expr(struct hsz *d, long p, int depth)
{
	long kind, id, argc;

	if (hsz_halted(d, p, depth))
		return;
	if (hsz_node(d, p, &kind, &id, &argc))
		return;
	switch (kind) {
	case K_NUM:
		hsz_putf(d, "%ld", id);
		break;
	case K_GLOBAL: case K_LOCAL: case K_NONLOCAL:
		hsz_var_name(d, kind, id);
		break;
	case K_MATH:
		hsz_math_expr(d, p, id, argc, depth);
		break;
	case K_FUNC:
		hsz_command(d, p, id, argc, depth);
		break;
	case K_SCRIPT:
		if (!(d->s->script_name && hsz_put_given(d, d->s->script_name(d->s->ctx, id))))
			hsz_putf(d, "script%ld", id);
		hsz_call(d, p, argc, depth);
		break;
	default:	/* flow inside an expression: the call form */
		if (id >= 0 && id < (long)(sizeof(hsz_flow) / sizeof(hsz_flow[0])) && hsz_flow[id])
			hsz_put(d, hsz_flow[id]);
		else
			hsz_putf(d, "flow%ld", id);
		hsz_args_list(d, p, argc, 0, -1, depth);
	}
}

/* ---- statements -------------------------------------------------------------- */

/* ", begin", the statements of block node p (do, then, else), "end" */
static void hsz_block(struct hsz *d, long p, int depth, int lvl)
{
	long kind, id, argc;

	if (hsz_node(d, p, &kind, &id, &argc))
		return;
	hsz_put(d, ", begin\n");
	for (long i = 0; i < argc && !d->stopped && !d->r; i++)
		hsz_stmt(d, hsz_arg(d, p, i), depth + 1, lvl + 1);
	hsz_indent(d, lvl);
	hsz_put(d, "end");
}

static void hsz_paren(struct hsz *d, long p, int depth)
{
	hsz_put(d, " (");
	hsz_expr(d, p, depth + 1);
	hsz_put(d, ")");
}

static void hsz_switch_stmt(struct hsz *d, long p, long argc, int depth, int lvl)
{
	long vals = 0;

	hsz_put(d, "switch");
	if (argc < 1) {
		hsz_put(d, " ()");
		return;
	}
	hsz_paren(d, hsz_arg(d, p, 0), depth);
	hsz_put(d, " do, begin\n");
	for (long i = 1; i < argc && !d->stopped; i++) {
		long a = hsz_arg(d, p, i), kind, id, n;

		if (!hsz_is_flow(d, a, F_DO)) {
			if (!vals++) {
				hsz_indent(d, lvl + 1);
				hsz_put(d, "case (");
			} else {
				hsz_put(d, ", ");
			}
			hsz_expr(d, a, depth + 1);
			continue;
		}
		if (!vals) {
			/* the last do is the default, the else: shown when it does something */
			if (hsz_node(d, a, &kind, &id, &n) || !n)
				continue;
			hsz_indent(d, lvl + 1);
			hsz_put(d, "case (else");
		} else if (i == argc - 1) {
			hsz_put(d, ", else");	/* the last do runs when no case matched */
		}
		hsz_put(d, ") do");
		hsz_block(d, a, depth + 1, lvl + 1);
		hsz_put(d, "\n");
		vals = 0;
	}
	if (vals)
		hsz_put(d, ") do, begin end\n");
	hsz_indent(d, lvl);
	hsz_put(d, "end");
}

/* if (cond, then (...), else (...)) as HSpeak compiles it */
static int hsz_if_shape(const struct hsz *d, long p)
{
	long argc;

	if (!hsz_is_flow(d, p, F_IF))
		return 0;
	argc = d->w[p + 2];
	return argc >= 2 && argc <= 3 && p + 3 + argc <= d->n && hsz_is_flow(d, hsz_arg(d, p, 1), F_THEN) &&
	       (argc == 2 || hsz_is_flow(d, hsz_arg(d, p, 2), F_ELSE));
}

/* if, then elseif for each else holding only an if, else when it does something */
static void hsz_if_stmt(struct hsz *d, long p, int depth, int lvl)
{
	hsz_put(d, "if");
	for (;;) {
		long e, kind, id, argc;

		hsz_paren(d, hsz_arg(d, p, 0), depth);
		hsz_put(d, " then");
		hsz_block(d, hsz_arg(d, p, 1), depth + 1, lvl);
		if (d->w[p + 2] < 3 || d->stopped)
			return;
		e = hsz_arg(d, p, 2);
		if (hsz_node(d, e, &kind, &id, &argc) || !argc)
			return;	/* an empty else (HSpeak's when there is none) is left out */
		if (argc != 1 || !hsz_if_shape(d, hsz_arg(d, e, 0)) || ++depth > HSZ_DEPTH_MAX) {
			hsz_put(d, "\n");
			hsz_indent(d, lvl);
			hsz_put(d, "else");
			hsz_block(d, e, depth + 1, lvl);
			return;
		}
		p = hsz_arg(d, e, 0);
		hsz_put(d, "\n");
		hsz_indent(d, lvl);
		hsz_put(d, "elseif");
	}
}

static void hsz_flow_stmt(struct hsz *d, long p, long id, long argc, int depth, int lvl)
{
	long v;

	switch (id) {
	case F_DO: case F_THEN: case F_ELSE:
		hsz_put(d, hsz_flow[id]);
		hsz_block(d, p, depth, lvl);
		return;
	case F_IF:
		if (hsz_if_shape(d, p)) {
			hsz_if_stmt(d, p, depth, lvl);
			return;
		}
		break;
	case F_WHILE:
		if (argc == 2 && hsz_is_flow(d, hsz_arg(d, p, 1), F_DO)) {
			hsz_put(d, "while");
			hsz_paren(d, hsz_arg(d, p, 0), depth);
			hsz_put(d, " do");
			hsz_block(d, hsz_arg(d, p, 1), depth + 1, lvl);
			return;
		}
		break;
	case F_FOR:
		if (argc == 5 && hsz_is_flow(d, hsz_arg(d, p, 4), F_DO)) {
			hsz_put(d, "for (");
			if (hsz_is_num(d, hsz_arg(d, p, 0), &v))
				hsz_math_var(d, v);
			else
				hsz_expr(d, hsz_arg(d, p, 0), depth + 1);
			for (long i = 1; i < 4; i++) {
				if (i == 3 && hsz_is_num(d, hsz_arg(d, p, 3), &v) && v == 1)
					break;
				hsz_put(d, ", ");
				hsz_expr(d, hsz_arg(d, p, i), depth + 1);
			}
			hsz_put(d, ") do");
			hsz_block(d, hsz_arg(d, p, 4), depth + 1, lvl);
			return;
		}
		break;
	case F_BREAK: case F_CONTINUE:
		hsz_put(d, hsz_flow[id]);
		if (!(argc == 1 && hsz_is_num(d, hsz_arg(d, p, 0), &v) && v == 1))
			hsz_args_list(d, p, argc, 0, -1, depth);
		return;
	case F_EXIT:
		hsz_put(d, hsz_flow[id]);
		return;
	case F_SWITCH:
		hsz_switch_stmt(d, p, argc, depth, lvl);
		return;
	}
	hsz_expr(d, p, depth);
}

static void hsz_stmt(struct hsz *d, long p, int depth, int lvl)
{
	long kind, id, argc;

	if (hsz_halted(d, p, depth))
		return;
	hsz_indent(d, lvl);
	if (hsz_is_flow(d, p, -1)) {
		if (hsz_node(d, p, &kind, &id, &argc))
			return;
		d->budget++;	/* flow_stmt's parts count themselves */
		hsz_flow_stmt(d, p, id, argc, depth + 1, lvl);
	} else {
		hsz_expr(d, p, depth + 1);
	}
	hsz_put(d, "\n");
}

/* ---- the script ---------------------------------------------------------------- */

/* The variable-name table at word vn of the code: a 32-bit string per local. */
static void hsz_var_names(struct hsz *d, long vn)
{
	for (long i = 0; i < HSZ_VARS_MAX; i++)
		d->vname[i] = -1;
	if (vn <= 0 || d->fmt < 1)
		return;
	for (long i = 0; i < d->vars && vn < d->n; i++) {
		long n = d->w[vn];

		if (n < 0 || n > 4 * (d->n - vn - 1) || (size_t)(d->hl + 4 * (vn + 1) + n) > d->len)
			return;
		d->vname[i] = d->hl + 4 * (vn + 1);
		d->vnlen[i] = n;
		vn += 1 + (n + 3) / 4;
	}
}

static int hsz_header(struct hsz *d)
{
	long ws, vn;

	if (d->len < 4) {
		hsz_put(d, "\n# gamefs: decompiling stopped: shorter than a script header\n");
		return -1;
	}
	d->hl = (int16_t)gfs_le16(d->data);
	if (d->hl < 4 || (size_t)d->hl > d->len) {
		hsz_putf(d, "\n# gamefs: decompiling stopped: a header length of %ld in %zu bytes\n", d->hl, d->len);
		return -1;
	}
	d->vars = hsz_hdr16(d, 2);
	d->vars = d->vars < 0 ? 0 : d->vars > HSZ_VARS_MAX ? HSZ_VARS_MAX : d->vars;
	d->args = d->hl >= 6 ? hsz_hdr16(d, 4) : d->s->argc;
	d->args = d->args > d->vars ? d->vars : d->args;
	d->fmt = hsz_hdr16(d, 6);
	if (d->fmt < 0 || d->fmt > HSZ_FORMAT_MAX || (d->fmt == 0 && d->hl > 8)) {
		hsz_putf(d, "\n# gamefs: decompiling stopped: script format %ld with a %ld-byte header"
			 " is none the engine reads\n", d->fmt, d->hl);
		return -1;
	}
	if (d->len - (size_t)d->hl > HSZ_CODE_MAX) {
		hsz_put(d, "\n# gamefs: decompiling stopped: more than 64 MiB of code\n");
		return -1;
	}
	hsz_putf(d, " (format %ld)\n", d->fmt);
	ws = d->fmt >= 1 ? 4 : 2;
	d->n = (long)((d->len - (size_t)d->hl + (size_t)ws - 1) / (size_t)ws);
	d->st = d->hl >= 12 ? hsz_hdr32(d, 8) : hsz_hdr16(d, 8);
	d->parent = hsz_hdr16(d, 12);
	d->nonlocals = hsz_hdr16(d, 16);
	d->stlen = hsz_hdr32(d, 18);
	vn = hsz_hdr32(d, 24);
	if (!d->st || (d->st - d->hl) % 4 || d->st < d->hl) {
		d->st = -1;
	} else {
		d->st = (d->st - d->hl) / 4;
		if (d->hl < 22)
			d->stlen = d->n - d->st;
		if (d->stlen < 0 || d->st + d->stlen > d->n) {
			hsz_put(d, "# gamefs: the string table is past the end of the code: strings shown as numbers\n");
			d->st = -1;
		}
	}
	d->w = malloc(((size_t)d->n + 1) * sizeof(*d->w));
	if (!d->w)
		return d->r = -ENOMEM;
	for (long i = 0; i < d->n; i++) {
		uint8_t b[4] = { 0, 0, 0, 0 };
		size_t at = (size_t)d->hl + (size_t)i * (size_t)ws;

		memcpy(b, d->data + at, d->len - at < (size_t)ws ? d->len - at : (size_t)ws);
		d->w[i] = ws == 4 ? (int32_t)gfs_le32(b) : (int16_t)gfs_le16(b);
	}
	hsz_var_names(d, vn);
	return 0;
}

int rpg_hsz_decompile(const uint8_t *data, size_t len, const struct hsz_script *s, struct gfs_buf *out)
{
	struct hsz *d = calloc(1, sizeof(*d));
	long kind, id, argc;
	int r;

	if (!d)
		return -ENOMEM;
	d->s = s;
	d->data = data;
	d->len = len;
	d->out = out;
	d->start = out->len;
	hsz_putf(d, "# script %ld", s->id);
	if (s->name && *s->name) {
		hsz_put(d, ", ");
		hsz_put_given(d, s->name);
	}
	hsz_putf(d, ": decompiled by gamefs from %s, read-only", s->lump ? s->lump : "its lump");
	if (!hsz_header(d)) {
		d->budget = 16ul * (unsigned long)d->n + 4096;
		if (d->parent) {
			hsz_put(d, "# a subscript of ");
			if (!(s->script_name && hsz_put_given(d, s->script_name(s->ctx, d->parent))))
				hsz_putf(d, "script%ld", d->parent);
			hsz_putf(d, " (%ld nonlocals)\n", d->nonlocals);
		}
		hsz_put(d, s->trigger == 1 ? "plotscript, " : "script, ");
		if (!hsz_put_given(d, s->name))
			hsz_putf(d, "script%ld", s->id);
		for (long i = 0; i < (d->args < 0 ? 0 : d->args); i++) {
			hsz_put(d, ", ");
			hsz_local_name(d, i);
			if (i < s->ndefaults && s->defaults[i])	/* 0 is also "none" */
				hsz_putf(d, "=%ld", s->defaults[i]);
		}
		hsz_put(d, ", begin\n");
		if (d->vars > (d->args < 0 ? 0 : d->args)) {
			hsz_put(d, "  variable (");
			for (long i = d->args < 0 ? 0 : d->args; i < d->vars; i++) {
				if (i > (d->args < 0 ? 0 : d->args))
					hsz_put(d, ", ");
				hsz_local_name(d, i);
			}
			hsz_put(d, ")\n");
		}
		if (!hsz_node(d, 0, &kind, &id, &argc) && !(kind == K_FLOW && id == F_DO))
			hsz_stop(d, 0, "the script does not start with do()");
		for (long i = 0; i < argc && !d->stopped && !d->r; i++)
			hsz_stmt(d, hsz_arg(d, 0, i), 1, 1);
		hsz_put(d, "end\n");
	}
	r = d->r;
	free(d->w);
	free(d);
	return r;
}
