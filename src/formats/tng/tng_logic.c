/*
 * tng_logic.c - the game logic of a TirNanoG game as text: every script as
 * assembly, with references resolved by name against the model.
 *
 * Startup scripts (section 24) and default actions (section 26) are script
 * assets, the whole inflated asset bytecode: <kind>/<NNNN>.tngs.  NPCs and
 * objects carry event handlers, quests and cutscenes one script each
 * (tng_handlers.c finds them): <kind>/<record>.<handler>.tngs beside
 * <kind>/<record>.ini, the record's other fields (tng_records.c); handler
 * files are created and removed here, and records created: a new NAME.ini
 * in a record directory is a new record named NAME (removing one:
 * tng_asset_unlink() in tng_media.c, beside the media's).  Records without scripts (choosers,
 * spawners, dialogs, crafting) are <kind>/<record>.ini alone, and sections
 * 16-21 and 33 sections/<NN>-<kind>.ini; section 25 is
 * attributes/attributes.ini with each attribute's script as
 * attributes/<name>.on_change.tngs or .expression.tngs.  An edited script
 * or INI is parsed and its record put back together, re-deflated at commit
 * like any record.  `check` and the media code walk every script through
 * each_script() (tng_walk.c), which finds what names a medium too.
 * <record> is the record's name where it makes a file name, else its
 * number (tng_rec_stem()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tng.h"
#include "tng_script.h"

/*
 * The last line of every script view: a script cut short (a writer killed
 * half way through saving it) still assembles, so a text without this line
 * is refused.  A comment, so any assembler reads it as nothing.
 */
#define SCRIPT_END "; end"

/* The assembly text of code, names resolved against the game, and the end line. */
int tng_script_text(struct gfs_archive *ar, struct tng *t, const uint8_t *code, size_t len,
		       struct gfs_buf *out)
{
	struct tng_namectx nc;
	struct tngs_names nm;
	int r;

	tng_names(ar, t, &nc, &nm);
	r = tngs_disasm(code, len, &nm, out);
	tng_names_release(&nc);
	return r ? r : gfs_buf_adds(out, SCRIPT_END "\n");
}

/* Is the last line of text that is not blank the end line?  *line gets the text's last line number. */
static int script_ended(const char *text, size_t len, unsigned *line)
{
	size_t e = len, b;

	*line = 0;
	for (size_t i = 0; i < len; i++)
		*line += text[i] == '\n';
	if (len && text[len - 1] != '\n')
		++*line;
	while (e && (text[e - 1] == '\n' || text[e - 1] == '\r' || text[e - 1] == ' ' || text[e - 1] == '\t'))
		e--;
	for (b = e; b && text[b - 1] != '\n'; b--)
		;
	while (b < e && (text[b] == ' ' || text[b] == '\t'))
		b++;
	return e - b == strlen(SCRIPT_END) && !memcmp(text + b, SCRIPT_END, e - b);
}

/*
 * Assemble the text of node n into code; -EINVAL naming the file and line.
 * Header byte 43 names the highest command any script uses: it is raised.
 */
static int script_code(struct gfs_archive *ar, struct gfs_node *n, struct tng *t,
		       const char *text, size_t len, struct gfs_buf *code)
{
	struct tng_namectx nc;
	struct tngs_names nm;
	unsigned maxcmd = 0, last;
	char why[256];
	int r;

	if (!script_ended(text, len, &last))
		return gfs_err(ar, -EINVAL, "%s/%s: line %u: no \"" SCRIPT_END "\" line: the file looks cut short "
			       "(a script ends with the line \"" SCRIPT_END "\")", n->parent->name, n->name, last);
	tng_names(ar, t, &nc, &nm);
	r = tngs_asm(text, len, &nm, code, &maxcmd, why, sizeof why);
	tng_names_release(&nc);
	if (r == -EINVAL)
		return gfs_err(ar, -EINVAL, "%s/%s: %s", n->parent->name, n->name, why);
	if (!r && code->len > TNG_ZASSET_MAX)
		return gfs_err(ar, -EINVAL, "%s/%s: %zu bytes of bytecode is over the %zu-byte limit",
			       n->parent->name, n->name, code->len, TNG_ZASSET_MAX);
	if (!r && maxcmd > t->hdr[TNG_OFF_MAXCMD]) {
		t->hdr[TNG_OFF_MAXCMD] = (uint8_t)maxcmd;
		t->hdr_edited = 1;
	}
	return r;
}

static int tng_script_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf code = GFS_BUF_INIT;
	int r = tng_asset_content(ar, ref->t, &ref->t->assets[ref->asset], TNG_ZASSET_MAX, &code);

	if (!r)
		r = tng_script_text(ar, ref->t, code.data, code.len, out);
	gfs_buf_release(&code);
	return r;
}

static int tng_script_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			    size_t len)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf *nb = gfs_buf_new();
	int r = nb ? script_code(ar, n, ref->t, (const char *)data, len, nb) : -ENOMEM;

	if (r) {
		gfs_buf_free(nb);
		return r;
	}
	tng_set_pending(ar, n, nb);
	return 0;
}

const struct gfs_node_ops tng_script_ops = {
	.render = tng_script_render,
	.store = tng_script_store,
	.free = tng_ref_free,
};

/* ---- records with scripts inside: <kind>/<record>.bin + <kind>/<record>.<handler>.tngs ---- */

enum tng_rkind tng_rkind_of(const struct tng *t, const struct tng_asset *a)
{
	return a->kind == TNG_A_ZBIN ? tng_kind_of(t->secs[a->sec].type)->script : TNG_R_NONE;
}

/* The current record of a node's asset, split (both released by the caller). */
static int rec_load(struct gfs_archive *ar, struct tng_ref *ref, struct gfs_buf *rec,
		    struct tng_split *s)
{
	struct tng_asset *a = &ref->t->assets[ref->asset];
	int r = tng_asset_content(ar, ref->t, a, TNG_ZASSET_MAX, rec);

	if (!r)
		r = tng_split(tng_rkind_of(ref->t, a), rec->data, rec->len, s);
	return r == -EBADMSG ? -EIO : r;
}

/* 0 when a record of len bytes fits an asset, else -EINVAL said for view. */
static int rec_fits(struct gfs_archive *ar, const char *view, size_t len)
{
	if (len <= TNG_ZASSET_MAX)
		return 0;
	return gfs_err(ar, -EINVAL, "%s: the record would be %zu bytes, over the %zu-byte limit",
		       view, len, TNG_ZASSET_MAX);
}

/* Put the record back together with these parts and adopt it as n's asset's content. */
static int rec_store(struct gfs_archive *ar, struct gfs_node *n, struct tng_ref *ref,
		     const uint8_t *pre, size_t prelen, const struct tng_hand *h, size_t nh,
		     const uint8_t *tail, size_t taillen)
{
	struct tng_asset *a = &ref->t->assets[ref->asset];
	struct gfs_buf *nb = gfs_buf_new();
	int r = nb ? tng_join(tng_rkind_of(ref->t, a), pre, prelen, h, nh, tail, taillen, nb) : -ENOMEM;

	if (!r)
		r = rec_fits(ar, n->name, nb->len);
	if (r) {
		gfs_buf_free(nb);
		return r;
	}
	/* the pending content is the asset's, whichever of its nodes stored it */
	{
		struct gfs_node *main = a->node ? a->node : n;

		tng_set_pending(ar, main, nb);
	}
	return 0;
}

/* What record INI views say when their record no longer decodes. */
static int rec_gone(struct gfs_archive *ar, struct gfs_node *n)
{
	return gfs_err(ar, -EIO, "%s/%s: the record no longer decodes", n->parent->name, n->name);
}

/*
 * The record of an INI view and where its bytes before the scripts end
 * (*prelen; all of it for a record without scripts); s is released by the
 * caller (empty for a record without scripts).
 */
static int recini_load(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *rec,
		       struct tng_split *s, size_t *prelen)
{
	struct tng_ref *ref = n->priv;
	struct tng_asset *a = &ref->t->assets[ref->asset];
	int r;

	memset(s, 0, sizeof(*s));
	if (tng_rkind_of(ref->t, a) != TNG_R_NONE) {
		if ((r = rec_load(ar, ref, rec, s)))
			return r == -EIO ? rec_gone(ar, n) : r;
		*prelen = s->pre;
		return 0;
	}
	r = tng_asset_content(ar, ref->t, a, TNG_ZASSET_MAX, rec);
	*prelen = rec->len;
	return r;
}

static int tng_recini_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf rec = GFS_BUF_INIT;
	struct tng_namectx nc;
	struct tngs_names nm;
	struct tng_split s;
	size_t pre;
	int r;

	if (ref->asset == TNG_NEW_ASSET)	/* created, nothing stored yet */
		return 0;
	if (!(r = recini_load(ar, n, &rec, &s, &pre))) {
		tng_names(ar, ref->t, &nc, &nm);
		r = tng_rec_render(ref->t->secs[ref->sec].type, ref->t->hdr[TNG_OFF_TRANSPORTS],
				   rec.data, pre, &nm, out);
		tng_names_release(&nc);
		if (r == -EBADMSG)
			r = rec_gone(ar, n);
	}
	tng_split_release(&s);
	gfs_buf_release(&rec);
	return r;
}

static int record_adopt(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len);

static int tng_recini_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			    size_t len)
{
	struct tng_ref *ref = n->priv;
	struct tng_asset *a;
	enum tng_rkind k;
	struct gfs_buf rec = GFS_BUF_INIT, *nb, view = GFS_BUF_INIT;
	struct tng_namectx nc;
	struct tngs_names nm;
	struct tng_split s;
	size_t pre;
	int r;

	if (ref->asset == TNG_NEW_ASSET)
		return record_adopt(ar, n, data, len);
	a = &ref->t->assets[ref->asset];
	k = tng_rkind_of(ref->t, a);
	nb = gfs_buf_new();
	r = nb ? recini_load(ar, n, &rec, &s, &pre) : -ENOMEM;

	if (!nb) {
		memset(&s, 0, sizeof(s));
	} else if (!r) {
		r = gfs_buf_printf(&view, "%s/%s", n->parent->name, n->name);
		tng_names(ar, ref->t, &nc, &nm);
		if (!r)
			r = tng_rec_parse(ar, (const char *)view.data, ref->t->secs[ref->sec].type,
					  ref->t->hdr[TNG_OFF_TRANSPORTS], rec.data, pre, data, len, &nm, nb);
		tng_names_release(&nc);
	}
	if (!r && k != TNG_R_NONE) {
		/* the table and the scripts' places agree on where the scripts start */
		if (tng_rec_prefix(k, nb->data, nb->len) != nb->len)
			r = gfs_err(ar, -EINVAL, "%s: the counts do not match the record", view.data);
		else
			r = rec_store(ar, n, ref, nb->data, nb->len, s.h, s.nh, rec.data + s.tail,
				      rec.len - s.tail);
	} else if (!r && !(r = rec_fits(ar, (const char *)view.data, nb->len))) {
		tng_set_pending(ar, n, nb);
		nb = NULL;
	}
	gfs_buf_free(nb);
	gfs_buf_release(&view);
	tng_split_release(&s);
	gfs_buf_release(&rec);
	return r;
}

const struct gfs_node_ops tng_recini_ops = {
	.render = tng_recini_render,
	.store = tng_recini_store,
	.free = tng_ref_free,
};

/* ---- sections as INI: sections/NN-kind.ini, attributes/attributes.ini and scripts ---- */

static int tng_secini_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	struct tng_namectx nc;
	struct tngs_names nm;
	size_t len;
	const uint8_t *d = tng_sec_data(ref->t, ref->sec, &len);
	int r;

	tng_names(ar, ref->t, &nc, &nm);
	r = tng_rec_render(ref->t->secs[ref->sec].type, ref->t->hdr[TNG_OFF_TRANSPORTS], d, len, &nm,
			   out);
	tng_names_release(&nc);
	return r == -EBADMSG ? gfs_err(ar, -EIO, "%s: the section no longer decodes", n->name) : r;
}

/* Section si's data becomes nb (taken) unless it is what the section holds. */
static void sec_replace(struct tng *t, size_t si, struct gfs_buf *nb)
{
	size_t len;
	const uint8_t *d = tng_sec_data(t, si, &len);

	if (len == nb->len && (!len || !memcmp(d, nb->data, len))) {
		gfs_buf_free(nb);
		return;
	}
	gfs_buf_free(t->secs[si].edit);
	t->secs[si].edit = nb;
	t->secs[si].raw_bad = 0;
}

static int attr_script_nodes(struct gfs_archive *ar, struct tng *t, size_t si, struct gfs_node *dir);

static int tng_secini_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			    size_t len)
{
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	unsigned type = t->secs[ref->sec].type;
	struct gfs_buf *nb = gfs_buf_new(), view = GFS_BUF_INIT;
	struct tng_namectx nc;
	struct tngs_names nm;
	size_t slen;
	const uint8_t *d = tng_sec_data(t, ref->sec, &slen);
	int r = nb ? gfs_buf_printf(&view, "%s/%s", n->parent->name, n->name) : -ENOMEM;

	if (!r) {
		tng_names(ar, t, &nc, &nm);
		r = tng_rec_parse(ar, (const char *)view.data, type, t->hdr[TNG_OFF_TRANSPORTS], d, slen,
				  data, len, &nm, nb);
		tng_names_release(&nc);
	}
	if (!r && nb->len > 0xffffff)
		r = gfs_err(ar, -EINVAL, "%s: the section would be %zu bytes, over the 16 MiB limit",
			    view.data, nb->len);
	gfs_buf_release(&view);
	if (r) {
		gfs_buf_free(nb);
		return r;
	}
	sec_replace(t, ref->sec, nb);
	if (type == TNG_S_ATTRS && (r = attr_script_nodes(ar, t, ref->sec, n->parent)))
		return r;
	gfs_tree_invalidate(ar);
	return 0;
}

const struct gfs_node_ops tng_secini_ops = {
	.render = tng_secini_render,
	.store = tng_secini_store,
	.free = tng_ref_free,
};

static int tng_ascript_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	size_t len, cn;
	const uint8_t *d = tng_sec_data(ref->t, ref->sec, &len), *code;
	uint32_t name;

	if (tng_attr_script(d, len, (size_t)ref->sub, &name, &code, &cn) <= 0)
		return gfs_err(ar, -EIO, "%s: the attribute no longer has a script", n->name);
	return tng_script_text(ar, ref->t, code, cn, out);
}

static int tng_ascript_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			     size_t len)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf code = GFS_BUF_INIT, *nb = gfs_buf_new();
	size_t slen;
	const uint8_t *d = tng_sec_data(ref->t, ref->sec, &slen);
	int r = nb ? script_code(ar, n, ref->t, (const char *)data, len, &code) : -ENOMEM;

	if (!r)
		r = tng_attr_set_script(d, slen, (size_t)ref->sub, code.data, code.len, nb);
	if (r == -E2BIG)
		r = gfs_err(ar, -EINVAL, "%s/%s: %zu bytes of bytecode is more than the attribute's "
			    "length field holds", n->parent->name, n->name, code.len);
	else if (r == -ENOENT || r == -EBADMSG)
		r = gfs_err(ar, -EIO, "%s: the attribute no longer has a script", n->name);
	if (!r && nb->len > 0xffffff)
		r = gfs_err(ar, -EINVAL, "%s/%s: the section would be over the 16 MiB limit",
			    n->parent->name, n->name);
	gfs_buf_release(&code);
	if (r) {
		gfs_buf_free(nb);
		return r;
	}
	sec_replace(ref->t, ref->sec, nb);
	return 0;
}

const struct gfs_node_ops tng_ascript_ops = {
	.render = tng_ascript_render,
	.store = tng_ascript_store,
	.free = tng_ref_free,
};

/* "NAME.on_change.tngs" or "NAME.expression.tngs" of attribute k (of kind sk), NULL: no memory. */
static char *attr_script_name(struct tng *t, struct gfs_node *dir, size_t k, uint32_t nameoff,
			      int sk)
{
	size_t n = 0;
	const char *s = nameoff ? tng_string_at(t, nameoff, &n) : NULL;
	struct gfs_buf b = GFS_BUF_INIT;
	char *u = NULL;

	if (s && n && n < 200)
		gfs_buf_printf(&b, "%.*s.%s.tngs", (int)n, s, sk == 1 ? "on_change" : "expression");
	else
		gfs_buf_printf(&b, "%04zu.%s.tngs", k, sk == 1 ? "on_change" : "expression");
	if (b.data)
		u = gfs_unique_name(dir, (const char *)b.data);
	gfs_buf_release(&b);
	return u;
}

/* The script files of section si's attributes in dir (made anew: attributes may have changed). */
static int attr_script_nodes(struct gfs_archive *ar, struct tng *t, size_t si, struct gfs_node *dir)
{
	size_t len, cnt;
	const uint8_t *d = tng_sec_data(t, si, &len);
	int r = 0;

	for (size_t i = dir->nkids; i-- > 0;)
		if (gfs_node_get_ops(dir->kids[i]) == &tng_ascript_ops)
			gfs_node_remove(ar, dir->kids[i]);
	if (tng_attr_count(d, len, &cnt))
		return 0;
	for (size_t k = 0; k < cnt && !r; k++) {
		const uint8_t *code;
		size_t cn;
		uint32_t nameoff;
		int sk = tng_attr_script(d, len, k, &nameoff, &code, &cn);
		struct tng_ref *ref;
		char *name;

		if (sk <= 0)
			continue;
		name = attr_script_name(t, dir, k, nameoff, sk);
		ref = name ? tng_ref_new(t, (size_t)-1, si, (int)k) : NULL;
		if (!ref || !gfs_node_new_file(ar, dir, name, 0644, &tng_ascript_ops, ref)) {
			tng_ref_release(ref);
			r = -ENOMEM;
		}
		free(name);
	}
	return r;
}

int tng_logic_section(struct gfs_archive *ar, struct tng *t, size_t si)
{
	struct tng_sec *s = &t->secs[si];
	const struct tng_kind *k = tng_kind_of(s->type);
	size_t len;
	const uint8_t *d = tng_sec_data(t, si, &len);
	struct gfs_node *dir;
	struct tng_ref *ref;
	char name[64], *u;

	if (!tng_rec_known(s->type) || !tng_rec_decodes(s->type, t->hdr[TNG_OFF_TRANSPORTS], d, len))
		return 1;
	if (s->type == TNG_S_ATTRS) {
		u = gfs_unique_name(ar->root, k->name);
		dir = u ? gfs_node_new_dir(ar, ar->root, u) : NULL;
		free(u);
		snprintf(name, sizeof name, "%s.ini", k->name);
	} else {
		dir = gfs_node_child(ar, ar->root, "sections");
		if (!dir || !S_ISDIR(dir->mode))
			dir = gfs_node_new_dir(ar, ar->root, "sections");
		snprintf(name, sizeof name, "%02u-%s.ini", s->type, k->name);
	}
	if (!dir)
		return -ENOMEM;
	u = gfs_unique_name(dir, name);
	ref = u ? tng_ref_new(t, (size_t)-1, si, 0) : NULL;
	if (!ref || !gfs_node_new_file(ar, dir, u, 0644, &tng_secini_ops, ref)) {
		tng_ref_release(ref);
		free(u);
		return -ENOMEM;
	}
	free(u);
	return s->type == TNG_S_ATTRS ? attr_script_nodes(ar, t, si, dir) : 0;
}

/* Index in s of the handler a node shows, or -1. */
static long find_handler(enum tng_rkind k, const struct tng_split *s, int sub)
{
	unsigned occ = 0;

	if (!tng_rkind_lists(k))
		return s->nh ? 0 : -1;
	for (size_t i = 0; i < s->nh; i++)
		if (s->h[i].type == HTYPE(sub) && occ++ == HOCC(sub))
			return (long)i;
	return -1;
}

static int tng_hscript_render(struct gfs_archive *ar, struct gfs_node *n, struct gfs_buf *out)
{
	struct tng_ref *ref = n->priv;
	enum tng_rkind k = tng_rkind_of(ref->t, &ref->t->assets[ref->asset]);
	struct gfs_buf rec = GFS_BUF_INIT;
	struct tng_split s;
	long i;
	int r = rec_load(ar, ref, &rec, &s);

	if (r) {
		gfs_buf_release(&rec);
		return r;
	}
	if ((i = find_handler(k, &s, ref->sub)) < 0)
		r = -EIO;
	else if (tng_rkind_lists(k) && s.h[i].param)
		r = gfs_buf_printf(out, ".param %u\n", (unsigned)s.h[i].param);
	if (!r)
		r = tng_script_text(ar, ref->t, s.h[i].code, s.h[i].len, out);
	tng_split_release(&s);
	gfs_buf_release(&rec);
	return r;
}

/*
 * A leading ".param N" line (event handlers) gives the handler's parameter;
 * it is blanked in copy so the assembler's line numbers stay the file's.
 */
static int take_param(char *copy, size_t len, uint32_t *param, char *why, size_t whylen)
{
	size_t i = 0, end;
	unsigned long v = 0;

	while (i < len && (copy[i] == ' ' || copy[i] == '\t'))
		i++;
	if (len - i < 6 || memcmp(copy + i, ".param", 6))
		return 0;
	for (end = i; end < len && copy[end] != '\n'; end++)
		;
	i += 6;
	while (i < end && (copy[i] == ' ' || copy[i] == '\t'))
		i++;
	if (i == end || copy[i] < '0' || copy[i] > '9')
		goto bad;
	while (i < end && copy[i] >= '0' && copy[i] <= '9' && v <= 0xffffff)
		v = v * 10 + (unsigned long)(copy[i++] - '0');
	while (i < end && (copy[i] == ' ' || copy[i] == '\t' || copy[i] == '\r'))
		i++;
	if (v > 0xffffff || (i < end && copy[i] != ';'))
		goto bad;
	*param = (uint32_t)v;
	memset(copy, ' ', end);
	return 0;
bad:
	snprintf(why, whylen, "line 1: .param takes a number 0..16777215");
	return -EINVAL;
}

static int tng_hscript_store(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data,
			     size_t len)
{
	struct tng_ref *ref = n->priv;
	enum tng_rkind k = tng_rkind_of(ref->t, &ref->t->assets[ref->asset]);
	struct gfs_buf rec = GFS_BUF_INIT, code = GFS_BUF_INIT;
	char *copy = malloc(len + 1), why[128];
	struct tng_split s = { 0 };
	uint32_t param = 0;
	long i = -1;
	int r = copy ? rec_load(ar, ref, &rec, &s) : -ENOMEM;

	if (!r && (i = find_handler(k, &s, ref->sub)) < 0)
		r = -EIO;
	if (!r) {
		memcpy(copy, data, len);
		copy[len] = '\0';
		param = s.h[i].param;
		if (tng_rkind_lists(k) && take_param(copy, len, &param, why, sizeof why))
			r = gfs_err(ar, -EINVAL, "%s/%s: %s", n->parent->name, n->name, why);
	}
	if (!r)
		r = script_code(ar, n, ref->t, copy, len, &code);
	if (!r) {
		s.h[i].param = param;
		s.h[i].code = code.data;
		s.h[i].len = code.len;
		r = rec_store(ar, n, ref, rec.data, s.pre, s.h, s.nh, rec.data + s.tail,
			      rec.len - s.tail);
	}
	free(copy);
	tng_split_release(&s);
	gfs_buf_release(&rec);
	gfs_buf_release(&code);
	return r;
}

const struct gfs_node_ops tng_hscript_ops = {
	.render = tng_hscript_render,
	.store = tng_hscript_store,
	.free = tng_ref_free,
};

static struct gfs_node *hscript_node(struct gfs_archive *ar, struct tng *t, size_t ai,
				     struct gfs_node *dir, int sub)
{
	struct tng_asset *a = &t->assets[ai];
	struct tng_ref *ref = tng_ref_new(t, ai, a->sec, sub);
	struct gfs_node *n;
	char stem[TNG_STEM_MAX + 8], name[TNG_STEM_MAX + 64];

	if (!ref)
		return NULL;
	tng_rec_stem(t, a, stem, sizeof stem);
	tng_hscript_name(tng_rkind_of(t, a), stem, sub, name, sizeof name);
	n = gfs_node_new_file(ar, dir, name, 0644, &tng_hscript_ops, ref);
	if (!n)
		tng_ref_release(ref);
	return n;
}

int tng_logic_nodes(struct gfs_archive *ar, struct tng *t, size_t ai, struct gfs_node *dir)
{
	struct tng_asset *a = &t->assets[ai];
	enum tng_rkind k = tng_rkind_of(t, a);
	unsigned type = t->secs[a->sec].type;
	struct gfs_buf rec = GFS_BUF_INIT;
	struct tng_split s;
	struct tng_ref *ref;
	unsigned occ[256] = { 0 };
	char name[TNG_STEM_MAX + 8];
	int r;

	if (k == TNG_R_WHOLE || !tng_rec_known(type))
		return 1;
	/* listing a directory inflates its records: a bomb costs at most TNG_SPLIT_MAX here */
	r = tng_asset_content(ar, t, a, TNG_SPLIT_MAX, &rec);
	memset(&s, 0, sizeof(s));
	if (!r && k != TNG_R_NONE)
		r = tng_split(k, rec.data, rec.len, &s);
	else if (!r)
		s.pre = s.tail = rec.len;
	/* a record with bytes past its scripts, or bytes no key shows: whole, as bytes */
	if (!r && (s.tail != rec.len ||
		   !tng_rec_decodes(type, t->hdr[TNG_OFF_TRANSPORTS], rec.data, s.pre)))
		r = 1;
	gfs_buf_release(&rec);
	if (r) {
		tng_split_release(&s);
		return r == -ENOMEM ? r : 1;	/* does not split: shown whole, as bytes */
	}
	tng_rec_stem(t, a, name, sizeof name - 4);
	strcat(name, ".ini");
	ref = tng_ref_new(t, ai, a->sec, 0);
	a->node = ref ? gfs_node_new_file(ar, dir, name, 0644, &tng_recini_ops, ref) : NULL;
	if (!a->node) {
		tng_ref_release(ref);
		r = -ENOMEM;
	}
	for (size_t i = 0; i < s.nh && !r; i++) {
		int sub = tng_rkind_lists(k) ? HSUB(s.h[i].type, occ[s.h[i].type]++) : 0;

		if (!hscript_node(ar, t, ai, dir, sub))
			r = -ENOMEM;
	}
	tng_split_release(&s);
	return r;
}

/* The asset of the record in dir whose files are named stem[0..sl), with scripts in lists; -1: none. */
static long record_in(struct tng *t, struct gfs_node *dir, const char *stem, size_t sl)
{
	char mine[TNG_STEM_MAX + 8];

	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *a = &t->assets[i];

		if (!a->node || a->node->parent != dir || gfs_node_get_ops(a->node) != &tng_recini_ops ||
		    !tng_rkind_lists(tng_rkind_of(t, a)))
			continue;
		tng_rec_stem(t, a, mine, sizeof mine);
		if (strlen(mine) == sl && !memcmp(mine, stem, sl))
			return (long)i;
	}
	return -1;
}

/* ---- records made: <kind>/NAME.ini copied in or saved new ---- */

/*
 * The section a new NAME.ini in dir becomes a record of: the last section
 * of the kind dir shows, for kinds whose records have an INI view (startup
 * scripts and default actions are whole scripts); -1 none.
 */
long tng_record_section(struct gfs_archive *ar, const struct tng *t, const struct gfs_node *dir)
{
	long si = -1;

	if (dir->parent != ar->root)
		return -1;
	for (size_t i = 0; i < t->nsecs; i++) {
		const struct tng_kind *k = tng_kind_of(t->secs[i].type);

		if (k->view == TNG_V_ZBIN && k->rec && k->script != TNG_R_WHOLE &&
		    !strcmp(k->name, dir->name))
			si = (long)i;
	}
	return si;
}

/* Another record of section si's kind than skip named s[0..n) (a file may show it by number)? */
const struct tng_asset *tng_record_named(struct tng *t, size_t si, const struct tng_asset *skip,
					 const char *s, size_t n)
{
	for (size_t i = 0; i < t->nassets; i++) {
		const struct tng_asset *b = &t->assets[i];
		const char *bs;
		size_t bn;

		if (b != skip && !b->gone && b->nameoff &&
		    t->secs[b->sec].type == t->secs[si].type &&
		    (bs = tng_string_at(t, b->nameoff, &bn)) && bn == n && !memcmp(bs, s, n))
			return b;
	}
	return NULL;
}

/*
 * The record name of a new file NAME.ini of section si into stem, or
 * -EINVAL/-EEXIST said; of a kind without names (objects, keyed by their
 * sprite), NAME is the next record number NNNN and stem is "".
 */
static int record_stem(struct gfs_archive *ar, struct tng *t, size_t si, const char *name,
		       char *stem, size_t stemlen)
{
	size_t n = strlen(name);
	char want[16];

	if (tng_kind_of(t->secs[si].type)->index_field) {
		snprintf(want, sizeof want, "%04u.ini", tng_numbered_next(t, si));
		if (strcmp(name, want))
			return gfs_err(ar, -EINVAL, "%s: %s are numbered: the next is %s", name,
				       tng_kind_of(t->secs[si].type)->name, want);
		stem[0] = '\0';
		return 0;
	}
	if (n < 5 || strcmp(name + n - 4, ".ini") || !tng_stem_ok(name, n - 4) || n - 4 >= stemlen)
		return gfs_err(ar, -EINVAL, "%s: a new record is NAME.ini, NAME its name: at most %d "
			       "printable ASCII bytes, no blank, '.', '/' or '\\', not all digits",
			       name, TNG_STEM_MAX);
	if (tng_record_named(t, si, NULL, name, n - 4))
		return gfs_err(ar, -EEXIST, "%s: a record of %s is named %.*s already", name,
			       tng_kind_of(t->secs[si].type)->name, (int)(n - 4), name);
	memcpy(stem, name, n - 4);
	stem[n - 4] = '\0';
	return 0;
}

/*
 * A new NAME.ini is a node only; its record and its name in section 0 are
 * made when its first content is stored (record_adopt), so a refused INI
 * leaves the game as it was.
 */
static int record_create(struct gfs_archive *ar, struct tng *t, size_t si, struct gfs_node *dir,
			 const char *name, struct gfs_node **out)
{
	char stem[TNG_STEM_MAX + 1];
	struct tng_ref *ref;
	int r;

	if ((r = record_stem(ar, t, si, name, stem, sizeof stem)))
		return r;
	ref = tng_ref_new(t, TNG_NEW_ASSET, si, 0);
	*out = ref ? gfs_node_new_file(ar, dir, name, 0644, &tng_recini_ops, ref) : NULL;
	if (!*out) {
		tng_ref_release(ref);
		return -ENOMEM;
	}
	return 0;
}

/* The smallest descriptor value (an object's sprite index) no record of section si's kind has. */
static int record_free_index(const struct tng *t, size_t si, uint32_t *v)
{
	size_t n = tng_numbered_next(t, si);
	uint8_t *used = calloc(n + 1, 1);

	if (!used)
		return -ENOMEM;
	for (size_t i = 0; i < t->nassets; i++) {
		const struct tng_asset *b = &t->assets[i];

		if (!b->gone && t->secs[b->sec].type == t->secs[si].type && b->nameoff <= n)
			used[b->nameoff] = 1;
	}
	for (*v = 0; used[*v]; ++*v)
		;
	free(used);
	return 0;
}

/*
 * The first content of a created NAME.ini: parsed with nothing under it, its
 * record made with no event handlers (an NPC, an object) or an empty script
 * (a quest's on_complete, a cutscene's script: STEM.*.tngs appears beside).
 */
static int record_adopt(struct gfs_archive *ar, struct gfs_node *n, const uint8_t *data, size_t len)
{
	static const uint8_t end = 0;
	struct tng_ref *ref = n->priv;
	struct tng *t = ref->t;
	unsigned type = t->secs[ref->sec].type;
	enum tng_rkind k = tng_kind_of(type)->script;
	struct tng_hand h = { 0, 0, &end, 1 };
	struct gfs_buf rec = GFS_BUF_INIT, view = GFS_BUF_INIT, *nb;
	struct tng_namectx nc;
	struct tngs_names nm;
	char stem[TNG_STEM_MAX + 1];
	uint32_t off;
	size_t ai;
	int r;

	if (!len)	/* created, not written yet (cp, an editor's first open) */
		return 0;
	if (!(nb = gfs_buf_new()))
		return -ENOMEM;
	r = record_stem(ar, t, ref->sec, n->name, stem, sizeof stem);
	r = r ? r : gfs_buf_printf(&view, "%s/%s", n->parent->name, n->name);
	/* the INI over a blank record: every field it does not set stays 0, every sprite none */
	if (!r) {
		tng_names(ar, t, &nc, &nm);
		r = tng_rec_parse_new(ar, (const char *)view.data, type, t->hdr[TNG_OFF_TRANSPORTS], data, len,
				      &nm, &rec);
		tng_names_release(&nc);
	}
	if (!r && k != TNG_R_NONE && tng_rec_prefix(k, rec.data, rec.len) != rec.len)
		r = gfs_err(ar, -EINVAL, "%s: the counts do not match the record", view.data);
	else if (!r)
		r = k != TNG_R_NONE ? tng_join(k, rec.data, rec.len, &h, !tng_rkind_lists(k), NULL, 0, nb) :
				      gfs_buf_add(nb, rec.data, rec.len);
	if (!r)
		r = rec_fits(ar, (const char *)view.data, nb->len);
	if (!r && !stem[0])	/* an object: the first sprite index no other object has */
		r = record_free_index(t, ref->sec, &off);
	else if (!r)
		r = tng_string_add(t, stem, &off);
	if (!r && (r = tng_asset_new(t, ref->sec, off, &ai)))
		r = r == -EFBIG ? gfs_err(ar, r, "%s: the section block is full", view.data) : r;
	gfs_buf_release(&rec);
	gfs_buf_release(&view);
	if (r) {
		gfs_buf_free(nb);
		return r;
	}
	t->assets[ai].kind = TNG_A_ZBIN;
	t->assets[ai].named = stem[0] != '\0';	/* a plain word no other record of its kind has */
	t->assets[ai].node = n;
	ref->asset = ai;
	tng_keep_pending(n, nb);
	if (k != TNG_R_NONE && !tng_rkind_lists(k) && !hscript_node(ar, t, ai, n->parent, 0))
		return -ENOMEM;
	ar->changed = 1;
	gfs_tree_invalidate(ar);
	return 0;
}

/* Creating STEM.<handler>.tngs beside STEM.ini adds an event handler (END until written);
 * a new NAME.ini in a record directory is a new record (record_create). */
int tng_logic_create(struct gfs_archive *ar, struct gfs_node *dir, const char *name,
		     struct gfs_node **out)
{
	struct tng *t = ar->priv;
	size_t len = strlen(name), i, sl;
	const char *dot = strchr(name, '.');
	struct gfs_buf rec = GFS_BUF_INIT;
	struct tng_split s;
	struct tng_hand *h;
	static const uint8_t end = 0;
	struct tng_ref ref = { t, 0, 0, 0, 0 };
	long ai = -1, si = tng_record_section(ar, t, dir);
	int type, r;

	if (si >= 0 && len > 4 && !strcmp(name + len - 4, ".ini"))
		return record_create(ar, t, (size_t)si, dir, name, out);
	sl = dot ? (size_t)(dot - name) : len;
	if (!dot || len < sl + 7 || strcmp(name + len - 5, ".tngs") ||
	    (ai = record_in(t, dir, name, sl)) < 0)
		return gfs_err(ar, -EPERM, "%s: only media (in fonts, music, sounds, movies, speech), "
			       "NAME.ini in a record directory and RECORD.<handler>.tngs beside an NPC's "
			       "or object's RECORD.ini can be created", name);
	dot++;
	len -= sl + 1;
	if ((type = tng_handler_type(dot, len - 5)) < 0)
		return gfs_err(ar, -EINVAL, "%s: no event handler '%.*s' (on_click, on_touch, "
			       "on_leave, on_approach, on_action1-9, on_using1-3, on_timer, on_sell, "
			       "on_buy)", name, (int)(len - 5), dot);
	ref.asset = (size_t)ai;
	ref.sec = t->assets[ai].sec;
	if ((r = rec_load(ar, &ref, &rec, &s)))
		return r;
	for (i = 0; i < s.nh && s.h[i].type != type; i++)
		;
	if (i < s.nh || s.nh == 255) {
		r = gfs_err(ar, -EEXIST, "%s: the record already has %s", name,
			    i < s.nh ? "this handler" : "255 handlers");
	} else if (!(h = realloc(s.h, (s.nh + 1) * sizeof(*h)))) {
		r = -ENOMEM;
	} else {
		s.h = h;
		s.h[s.nh++] = (struct tng_hand){ (uint8_t)type, 0, &end, 1 };
		r = rec_store(ar, t->assets[ai].node, &ref, rec.data, s.pre, s.h, s.nh,
			      rec.data + s.tail, rec.len - s.tail);
	}
	tng_split_release(&s);
	gfs_buf_release(&rec);
	if (r)
		return r;
	if (!(*out = hscript_node(ar, t, (size_t)ai, dir, HSUB(type, 0))))
		return -ENOMEM;
	gfs_tree_invalidate(ar);
	return 0;
}

/* Removing RECORD.<handler>.tngs removes that event handler. */
int tng_logic_unlink(struct gfs_archive *ar, struct gfs_node *n)
{
	struct tng_ref *ref = n->priv;
	struct gfs_buf rec = GFS_BUF_INIT;
	struct tng_split s;
	enum tng_rkind k;
	long i;
	int r;

	if (gfs_node_get_ops(n) != &tng_hscript_ops ||
	    !tng_rkind_lists(k = tng_rkind_of(ref->t, &ref->t->assets[ref->asset])))
		return gfs_err(ar, -EPERM, "%s: only media, records (NAME.ini) and event handlers "
			       "(RECORD.on_*.tngs) can be removed", n->name);
	if ((r = rec_load(ar, ref, &rec, &s)))
		return r;
	if ((i = find_handler(k, &s, ref->sub)) < 0) {
		r = -EIO;
	} else {
		memmove(&s.h[i], &s.h[i + 1], (s.nh - (size_t)i - 1) * sizeof(*s.h));
		r = rec_store(ar, n, ref, rec.data, s.pre, s.h, s.nh - 1, rec.data + s.tail,
			      rec.len - s.tail);
	}
	tng_split_release(&s);
	gfs_buf_release(&rec);
	if (r)
		return r;
	/* later handlers of the same type are one earlier now */
	for (size_t j = 0; j < n->parent->nkids; j++) {
		struct gfs_node *o = n->parent->kids[j];
		struct tng_ref *or = o->priv;

		if (o != n && gfs_node_get_ops(o) == &tng_hscript_ops && or->asset == ref->asset &&
		    HTYPE(or->sub) == HTYPE(ref->sub) && HOCC(or->sub) > HOCC(ref->sub))
			or->sub -= 1 << 8;
	}
	ar->changed = 1;
	gfs_node_remove(ar, n);
	gfs_tree_invalidate(ar);
	return 0;
}
