/*
 * unit-tngs.c - unit tests of the TirNanoG script codec (TAP): a script
 * using every opcode and every command assembles to the bytes the document
 * describes and disassembles back to the same text; random bytecode
 * survives disassembly and reassembly byte-exact, with names and without;
 * edits move jump addresses; every kind of bad text is EINVAL naming its line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tng/tng_script.h"
#include "../tap.h"

/* A small game's names: value -> name per kind. */
static const struct {
	enum tngs_ref kind;
	uint32_t v;
	const char *name;
} names[] = {
	{ TNGS_SOUND, 10, "door" }, { TNGS_SOUND, 20, "bell ring" }, { TNGS_SOUND, 30, "#hash" },
	{ TNGS_SOUND, 35, "door" },	/* a second "door": 35 has no name that leads back */
	{ TNGS_MUSIC, 40, "theme" }, { TNGS_SPEECH, 41, "hello" }, { TNGS_CHOOSER, 42, "class" },
	{ TNGS_CUTSCENE, 43, "intro" }, { TNGS_DIALOG, 44, "greet" }, { TNGS_CRAFT, 45, "forge" },
	{ TNGS_QUEST, 46, "rescue" }, { TNGS_MAP, 50, "meadow" }, { TNGS_ATTR, 60, "hp" },
	{ TNGS_ATTR, 61, "gold" },
};
static const char *const texts[] = { "", "Hello there", "Line\nbreak", "x" };

#include "names.h"

static int t_exists(void *ctx, enum tngs_ref k, uint32_t v)
{
	(void)ctx;
	if (k == TNGS_TEXT)
		return v < 4;
	if (k == TNGS_SPRITE)
		return ((v >> 16) == 2 && (v & 0xffff) < 10) || ((v >> 16) == 1 && (v & 0xffff) < 4);
	return 0;
}

static const struct tngs_names nm = { t_name, t_find, t_exists, NULL };

/* Every opcode, every command; the canonical text the disassembler writes. */
static const char every[] =
	"L1:\n"
	"\tSWITCH L2 L3 L1\n"
	"\tJMP L2\n"
	"\tJZ L3\n"
	"L2:\n"
	"\tFNC0 exit\n\tFNC1 delay\n\tFNC1 music\n\tFNC1 sound\n\tFNC1 speak\n\tFNC1 chooser\n"
	"\tFNC1 cutscn\n\tFNC2 dialog\n\tFNC3 location\n\tFNC2 quest\n\tFNC2 canim\n"
	"\tFNC2 oanim\n\tFNC3 npc\n\tFNC1 actor\n\tFNC1 behave\n\tFNC0 market\n\tFNC1 south\n"
	"\tFNC1 southwest\n\tFNC1 west\n\tFNC1 northwest\n\tFNC1 north\n\tFNC1 northeast\n"
	"\tFNC1 east\n\tFNC1 southeast\n\tFNC0 remove\n\tFNC1 drop\n\tFNC2 delete\n\tFNC3 add\n"
	"\tFNC1 replace\n\tFNC2 give\n\tFNC2 take\n\tFNC1 event\n\tFNC1 transport\n"
	"\tFNC3 scene\n\tFNC0 waitnpc\n\tFNC1 craft\n\tFNC3 match\n\tFNC1 alert\n"
	"\tFNC1 altitude\n\tFNC2 #99\n"
	"\tCNT0\n\tCNT1 chars/3\n\tSUM hp\n\tCNTO0\n\tCNTO1 #chars/300\n\tSUMO gold\n"
	"\tRND 100\n\tMIN 3\n\tMAX 2\n\tADD\n\tSUB\n\tMUL\n\tDIV\n\tMOD\n\tEQ\n\tNE\n\tGE\n"
	"\tGT\n\tLE\n\tLT\n\tNOT\n\tOR\n\tAND\n\tPOP 1\n\tPOPA hp\n\tPOPO #77\n\tPUSH 1\n"
	"\tPUSHA gold\n\tPUSHO hp\n\tPUSH8 255\n\tPUSH16 65535\n\tPUSH24 70000\n"
	"\tPUSH32 4294967295\n\tPUSHMAP meadow 10 4\n\tPUSHSPR tiles/2\n\tPUSHSPR #9/1\n"
	"\tPUSHMUS theme\n\tPUSHSND door\n\tPUSHSND \"bell ring\"\n\tPUSHSND \"#hash\"\n"
	"\tPUSHSND #35\n\tPUSHSPC hello\n\tPUSHCHR class\n\tPUSHCUT intro\n\tPUSHDLG greet\n"
	"\tPUSHCFT forge\n\tPUSHQST rescue\n\tPUSHTXT 1\t; Hello there\n"
	"\tPUSHTXT 2\t; Line break\n\tPUSHTXT #9\n"
	"\t.byte 0x02 0x02 0x00 0x00\t; JMP @2: " TNGS_BAD_JUMP "\n"
	"L3:\n"
	"\tEND\n";

static int bytes_equal(const struct gfs_buf *b, const uint8_t *p, size_t n)
{
	return b->len == n && (n == 0 || !memcmp(b->data, p, n));
}

static void test_every(void)
{
	struct gfs_buf bin = GFS_BUF_INIT, txt = GFS_BUF_INIT;
	char why[200];
	unsigned maxcmd = 0;
	int rc;

	rc = tngs_asm(every, strlen(every), &nm, &bin, &maxcmd, why, sizeof why);
	ok(rc == 0, "every opcode and command assembles (%s)", why);
	ok(maxcmd == 99, "highest command used is 99 (got %u)", maxcmd);
	/* SWITCH n=3 L2 L3 L1 (11 bytes), JMP L2 (4), JZ L3 (4): L2 is 19 */
	ok(bin.len > 20 && bin.data[0] == 1 && bin.data[1] == 3 && bin.data[2] == 19 &&
	   bin.data[3] == 0 && bin.data[4] == 0 && bin.data[8] == 0 && bin.data[9] == 0 &&
	   bin.data[10] == 0 && bin.data[11] == 2 && bin.data[12] == 19 && bin.data[15] == 3 &&
	   bin.data[19] == 4 && bin.data[20] == 5, "SWITCH, JMP and FNC0 bytes as the document says");
	ok(bin.len > 0 && bin.data[bin.len - 1] == 0, "END is the last byte");
	rc = tngs_disasm(bin.data, bin.len, &nm, &txt);
	ok(rc == 0 && txt.len == strlen(every) && !memcmp(txt.data, every, txt.len),
	   "disassembly gives back the canonical text");
	if (txt.len != strlen(every) || memcmp(txt.data, every, txt.len))
		printf("# got:\n%s", txt.data ? (char *)txt.data : "");
	{
		struct tngs_info info;

		tngs_scan(bin.data, bin.len, &info);
		ok(info.decoded == bin.len && info.maxcmd == 99 && info.has_bad_target &&
		   info.bad_target == 2, "scan: all decodes, max command 99, @2 is not an instruction start");
	}
	gfs_buf_release(&bin);
	gfs_buf_release(&txt);
}

/* asm(disasm(code)) == code for random code, with and without names. */
static void test_random(void)
{
	int bad = 0, n;
	uint8_t code[80];
	struct gfs_buf txt = GFS_BUF_INIT, bin = GFS_BUF_INIT;
	char why[200];

	for (n = 0; n < 100000 && bad < 5; n++) {
		size_t len = rnd() % sizeof code, i;
		const struct tngs_names *names_used = n & 1 ? &nm : NULL;

		for (i = 0; i < len; i++) {
			unsigned r = rnd();

			/* mostly valid opcodes, small addresses, and the names above */
			code[i] = r % 4 == 0 ? (uint8_t)(rnd() % 52) :
				  r % 4 == 1 ? (uint8_t)(rnd() % len) :
				  r % 4 == 2 ? (uint8_t)(10 * (rnd() % 7)) : (uint8_t)rnd();
		}
		txt.len = bin.len = 0;
		if (tngs_disasm(code, len, names_used, &txt) != 0 ||
		    tngs_asm((char *)txt.data, txt.len, names_used, &bin, NULL, why, sizeof why) != 0 ||
		    !bytes_equal(&bin, code, len)) {
			if (!bad++)
				printf("# case %d (%s): %s\n%s", n, names_used ? "names" : "numbers", why,
				       txt.data ? (char *)txt.data : "");
		}
	}
	ok(bad == 0, "100000 random scripts survive disassembly and reassembly (%d differ)", bad);
	gfs_buf_release(&txt);
	gfs_buf_release(&bin);
}

static void test_edit(void)
{
	const char *src = "\tPUSHA hp\n\tJZ done\n\tPUSHSND door\n\tFNC1 sound\ndone:\n\tEND\n";
	const char *grown = "\tPUSHA hp\n\tJZ done\n\tPUSHSND door\n\tFNC1 sound\n"
			    "\tPUSH8 50\n\tFNC1 delay\ndone:\n\tEND\n";
	struct gfs_buf a = GFS_BUF_INIT, b = GFS_BUF_INIT;
	char why[200];
	unsigned maxcmd;

	ok(tngs_asm(src, strlen(src), &nm, &a, &maxcmd, why, sizeof why) == 0 && a.len == 15 &&
	   a.data[5] == 14 && maxcmd == 8, "a label is the address of what follows it (%s)", why);
	ok(tngs_asm(grown, strlen(grown), &nm, &b, &maxcmd, why, sizeof why) == 0 && b.len == 19 &&
	   b.data[5] == 18 && maxcmd == 8, "inserted lines move the jump (JZ to 18)");
	a.len = 0;
	src = "pushsnd door\r\n fnc1 sound ; play it\r\n";
	ok(tngs_asm(src, strlen(src), &nm, &a, NULL, why,
		    sizeof why) == 0 && a.len == 6 && a.data[0] == 44 && a.data[1] == 10 &&
	   a.data[4] == 5 && a.data[5] == 8, "lower case, CRLF and comments are accepted");
	a.len = 0;
	src = "\tPUSH8 -1\n\tPUSH16, -2\n";
	ok(tngs_asm(src, strlen(src), &nm, &a, NULL, why, sizeof why) == 0 &&
	   a.len == 5 && a.data[1] == 0xff && a.data[3] == 0xfe && a.data[4] == 0xff,
	   "negative constants are two's complement");
	a.len = 0;
	src = "\tJMP @4\n\tJZ @8\n\t.byte 0 0\n\tEND\n";
	ok(tngs_asm(src, strlen(src), &nm, &a, NULL, why, sizeof why) == 0 && a.len == 11 &&
	   a.data[1] == 4 && a.data[5] == 8, "@N at a line's start, a .byte line's included (%s)", why);
	a.len = 0;
	src = "\tJMP @11\n\tJZ @8\n\t.byte 0 0\n\tEND\n";
	ok(tngs_asm(src, strlen(src), &nm, &a, NULL, why, sizeof why) == 0 && a.len == 11 &&
	   a.data[1] == 11, "@N at the end of the script (%s)", why);
	gfs_buf_release(&a);
	gfs_buf_release(&b);
}

static void test_errors(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "\tPUSH8 1\n\tFOO 3\n", "line 2: unknown mnemonic 'FOO'" },
		{ "\tJMP nowhere\n", "line 1: label 'nowhere' is not defined" },
		{ "a:\n\tEND\na:\n", "line 3: label 'a' is already defined on line 1" },
		{ "\tPUSHSND gong\n", "line 1: no sound named 'gong'" },
		{ "\tPUSHMAP forest 1 2\n", "line 1: no map named 'forest'" },
		{ "\tPUSHA mana\n", "line 1: no attribute named 'mana'" },
		{ "\tFNC1 dialog\n", "line 1: command 'dialog' takes 2 stack values (FNC2), not 1" },
		{ "\tFNC0 fly\n", "line 1: unknown command 'fly'" },
		{ "\tPUSH8 256\n", "line 1: 256 out of range -128..255" },
		{ "\tPUSH8 -129\n", "line 1: -129 out of range -128..255" },
		{ "\tPOP x\n", "line 1: 'x' is not a number" },
		{ "\tPUSHTXT 7\n", "line 1: no text 7" },
		{ "\tPUSHSPR chars/10\n", "line 1: no sprite chars/10" },
		{ "\tPUSHSPR monsters/1\n", "line 1: no sprite category 'monsters' (ui, tiles, chars, portraits, backs)" },
		{ "\tCNT1 tiles/1\n", "line 1: CNT1 takes an object sprite (chars/N)" },
		{ "\tADD 1\n", "line 1: ADD takes 0 operands, not 1" },
		{ "\tPUSHMAP meadow 1\n", "line 1: PUSHMAP takes 3 operands, not 2" },
		{ "\tPUSHSND \"door\n", "line 1: unterminated string" },
		{ "\t.byte 0x100\n", "line 1: 0x100 out of range 0..255" },
		{ "1x:\n", "line 1: bad label name '1x'" },
		/* jumps must land on a line's first byte or the end (issue 28) */
		{ "\tEND\n\tJMP @16777215\n", "line 2: jump to @16777215: outside the script (5 bytes)" },
		{ "\tPUSH8 1\n\tJZ @1\n\tEND\n", "line 2: jump to @1: into the middle of line 1 (no instruction starts there)" },
		{ "\tSWITCH @0 @11 @4\n\tEND\n", "line 1: jump to @4: into the middle of line 1 (no instruction starts there)" },
		{ "\t.byte 0 0 0\n\tJMP @2\n", "line 2: jump to @2: into the middle of line 1 (no instruction starts there)" },
	};
	struct gfs_buf out = GFS_BUF_INIT;
	char why[200];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc;

		gfs_buf_adds(&out, "keep");
		rc = tngs_asm(bad[i].text, strlen(bad[i].text), &nm, &out, NULL, why, sizeof why);
		ok(rc == -EINVAL && !strcmp(why, bad[i].why) && out.len == 4,
		   "refused: %s (got %d \"%s\")", bad[i].why, rc, why);
		out.len = 0;
	}
	gfs_buf_release(&out);
}

int main(void)
{
	tap_seed = 0x2545f4914f6cdd1dULL;
	test_every();
	test_random();
	test_edit();
	test_errors();
	return done_testing();
}
