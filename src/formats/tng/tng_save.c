/*
 * tng_save.c - writing a TirNanoG game back.
 *
 * The asset area is rewritten in its old order: untouched assets (and any
 * bytes between them) are streamed from the old file, edited ones are
 * re-encoded in their old place, so map assets stay last.  Assets that
 * share or overlap bytes move together as one block; an edited one of them
 * is written right after its block.  Descriptors get the new offsets, the
 * section block is recompressed with its old wrapping (copied as it was
 * when nothing in it changed), then both CRCs are recomputed with the
 * conventions the file used.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "tng.h"

struct tng_op {
	uint64_t off, len;		/* copy of the old asset area */
	struct tng_asset *a;		/* or: the new bytes of a */
	uint32_t crc;			/* of the copied bytes */
};

struct tng_plan {
	struct tng_op *ops;
	size_t nops, cap;
	uint64_t npos;
};

static const struct gfs_buf *tng_new_bytes(struct tng_asset *a)
{
	return a->kind == TNG_A_STORED ? a->pending : a->enc;
}

/*
 * CRC of a new asset's bytes; a staged one (a big edit in a memfd) is read
 * from the file in pieces: through its mapping every page would join the
 * daemon's memory.
 */
static uint32_t tng_buf_crc32(uint32_t crc, const struct gfs_buf *b)
{
	uint8_t tmp[1 << 16];

	if (gfs_buf_fd(b) < 0)
		return tng_crc32(crc, b->data, b->len);
	for (size_t off = 0; off < b->len; off += sizeof(tmp))
		crc = tng_crc32(crc, tmp, gfs_buf_pread(b, tmp, sizeof(tmp), off));
	return crc;
}

static int tng_plan_add(struct tng_plan *p, uint64_t off, uint64_t len, struct tng_asset *a)
{
	/* a copy that continues the previous one extends it: few big copies */
	if (!a && p->nops && !p->ops[p->nops - 1].a &&
	    p->ops[p->nops - 1].off + p->ops[p->nops - 1].len == off) {
		p->ops[p->nops - 1].len += len;
		p->npos += len;
		return 0;
	}
	if (p->nops == p->cap) {
		size_t nc = p->cap ? 2 * p->cap : 64;
		struct tng_op *n = realloc(p->ops, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->ops = n;
		p->cap = nc;
	}
	p->ops[p->nops].off = off;
	p->ops[p->nops].len = len;
	p->ops[p->nops].a = a;
	p->nops++;
	if (a) {
		a->new_off = p->npos;
		a->new_len = tng_new_bytes(a)->len;
		p->npos += a->new_len;
	} else {
		p->npos += len;
	}
	return 0;
}

/* The new assets (no bytes in the file yet), maps after the others: maps come last. */
static int tng_flush_floating(struct tng *t, struct tng_plan *p)
{
	for (size_t k = 0; k < 2 * t->nassets; k++) {
		struct tng_asset *a = &t->assets[k % t->nassets];
		int r;

		if ((a->kind == TNG_A_MAP) != (k >= t->nassets))
			continue;
		if (a->len == 0 && a->pending && !a->gone && tng_new_bytes(a)->len) {
			r = tng_plan_add(p, 0, 0, a);
			if (r)
				return r;
		}
	}
	return 0;
}

/* Lay out the new asset area; sets new_off/new_len of every asset. */
static int tng_plan_assets(struct tng *t, struct tng_plan *p)
{
	size_t *ord, n = 0, i = 0;
	uint64_t prev = 0, area = t->fsize - t->base;
	int floated = 0, r = 0;

	for (size_t k = 0; k < t->nassets; k++) {
		struct tng_asset *a = &t->assets[k];

		a->new_off = a->off;
		a->new_len = a->pending ? tng_new_bytes(a)->len : a->len;
	}
	ord = tng_sorted_assets(t, &n);
	if (!ord)
		return -ENOMEM;
	while (i < n && !r) {
		size_t j = i + 1, npend = 0, nmap = 0, ngone = 0;
		uint64_t start = t->assets[ord[i]].off, end = start + t->assets[ord[i]].len;

		while (j < n && t->assets[ord[j]].off < end) {
			struct tng_asset *b = &t->assets[ord[j]];

			if (b->off + b->len > end)
				end = b->off + b->len;
			j++;
		}
		for (size_t k = i; k < j; k++) {
			ngone += t->assets[ord[k]].gone;
			npend += t->assets[ord[k]].pending != NULL;
			nmap += t->assets[ord[k]].kind == TNG_A_MAP ||
				t->secs[t->assets[ord[k]].sec].type == TNG_S_MAPS;
		}
		if (start > prev)
			r = tng_plan_add(p, prev, start - prev, NULL);
		if (!r && nmap && !floated) {
			floated = 1;
			r = tng_flush_floating(t, p);
		}
		if (!r && ngone == j - i) {
			;	/* removed assets: their bytes go */
		} else if (!r && npend == j - i) {
			for (size_t k = i; k < j && !r; k++)
				r = tng_plan_add(p, 0, 0, &t->assets[ord[k]]);
		} else if (!r) {
			uint64_t at = p->npos;

			r = tng_plan_add(p, start, end - start, NULL);
			for (size_t k = i; k < j && !r; k++) {
				struct tng_asset *a = &t->assets[ord[k]];

				if (!a->pending) {
					a->new_off = at + (a->off - start);
					a->new_len = a->len;
				}
			}
			for (size_t k = i; k < j && !r; k++)
				if (t->assets[ord[k]].pending)
					r = tng_plan_add(p, 0, 0, &t->assets[ord[k]]);
		}
		prev = end;
		i = j;
	}
	if (!r && !floated)
		r = tng_flush_floating(t, p);
	if (!r && area > prev)
		r = tng_plan_add(p, prev, area - prev, NULL);
	free(ord);
	return r;
}

/*
 * One pass over the old file: its CRC (field zeroed) into *whole, and the
 * CRC of each region the new file copies (the section block when it is
 * copied, and every copy op), so the new file's CRC is combined from them
 * instead of read back.
 */
struct tng_old_ctx {
	struct tng *t;
	struct tng_plan *p;
	uint32_t blockcrc, whole;
	size_t k;
};

static void tng_old_piece(void *arg, const uint8_t *buf, uint64_t off, size_t n)
{
	struct tng_old_ctx *c = arg;
	struct tng *t = c->t;
	uint64_t end = off + n;

	/* the section block region [64, base) */
	if (off < t->base && end > TNG_OFF_BLOCKLEN) {
		uint64_t s0 = off > TNG_OFF_BLOCKLEN ? off : TNG_OFF_BLOCKLEN;
		uint64_t e0 = end < t->base ? end : t->base;

		c->blockcrc = tng_crc32(c->blockcrc, buf + (s0 - off), (size_t)(e0 - s0));
	}
	/* copy regions, ascending and disjoint */
	while (c->k < c->p->nops) {
		struct tng_op *o = &c->p->ops[c->k];
		uint64_t s0 = t->base + o->off, e0 = s0 + o->len;

		if (o->a || !o->len || e0 <= off) {
			c->k++;
			continue;
		}
		if (s0 >= end)
			break;
		{
			uint64_t a0 = s0 > off ? s0 : off, b0 = e0 < end ? e0 : end;

			o->crc = tng_crc32(o->crc, buf + (a0 - off), (size_t)(b0 - a0));
		}
		if (e0 > end)
			break;
		c->k++;
	}
	c->whole = tng_crc32(c->whole, buf, n);
}

static int tng_scan_old(struct gfs_archive *ar, struct tng *t, struct tng_plan *p,
			uint32_t *blockcrc, uint32_t *whole, uint64_t *erroff)
{
	struct tng_old_ctx c = { t, p, 0, 0, 0 };
	int r;

	for (size_t i = 0; i < p->nops; i++)
		p->ops[i].crc = 0;
	r = tng_file_walk(ar, t->fsize, tng_old_piece, &c, erroff);
	*blockcrc = c.blockcrc;
	*whole = c.whole;
	return r;
}

/* The scan of the old file runs beside the writing of the new one. */
struct tng_scan {
	struct gfs_archive *ar;
	struct tng *t;
	struct tng_plan *p;
	uint32_t blockcrc, whole;
	uint64_t erroff;
	int r;
};

static void *tng_scan_thread(void *arg)
{
	struct tng_scan *sc = arg;

	sc->r = tng_scan_old(sc->ar, sc->t, sc->p, &sc->blockcrc, &sc->whole, &sc->erroff);
	return NULL;
}

/* The new inflated section block, with descriptors patched. */
static int tng_build_block(struct tng *t, struct gfs_buf *nb, uint32_t *secoff, int *same)
{
	int inplace = !t->secs_added, changed = t->secs_added, r;

	for (size_t i = 0; i < t->nsecs; i++)
		if (t->secs[i].edit) {
			changed = 1;
			if (t->secs[i].edit->len != t->secs[i].len)
				inplace = 0;
		}
	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *a = &t->assets[i];
		size_t len;
		const uint8_t *d = tng_sec_data(t, a->sec, &len);

		if (a->gone)
			continue;
		if (a->new_off != a->off || a->new_len != a->len)
			changed = 1;
		if (a->kind == TNG_A_SPRITE && a->pending && d[a->dpos + TNG_SPR_DIRS] != a->ndirs)
			changed = 1;
	}
	*same = !changed;
	if (!changed)
		return 0;
	if (inplace) {
		r = gfs_buf_add(nb, t->block.data, t->block.len);
		if (r)
			return r;
		for (size_t i = 0; i < t->nsecs; i++) {
			secoff[i] = t->secs[i].off;
			if (t->secs[i].edit)
				memcpy(nb->data + t->secs[i].off, t->secs[i].edit->data, t->secs[i].len);
		}
	} else {
		uint64_t pos = (uint64_t)t->nsecs * TNG_TABENT;

		r = gfs_buf_set_len(nb, (size_t)pos);
		for (size_t i = 0; i < t->nsecs && !r; i++) {
			size_t len;
			const uint8_t *d = tng_sec_data(t, i, &len);

			if (pos > 0xffffffffu)
				return -EFBIG;
			secoff[i] = (uint32_t)pos;
			gfs_put_u32le(nb->data + i * TNG_TABENT, (uint32_t)pos);
			gfs_put_u32le(nb->data + i * TNG_TABENT + 4,
				      (uint32_t)len | (uint32_t)t->secs[i].type << 24);
			r = gfs_buf_add(nb, d, len);
			pos += len;
		}
		if (r)
			return r;
	}
	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *a = &t->assets[i];
		uint8_t *d = nb->data + secoff[a->sec] + a->dpos;

		if (a->gone)
			continue;

		if (a->new_off != a->off || a->new_len != a->len) {
			gfs_put_u64le(d, a->new_off);
			gfs_put_u32le(d + TNG_DESC_LEN, (uint32_t)a->new_len);
		}
		if (a->kind == TNG_A_SPRITE && a->pending)
			d[TNG_SPR_DIRS] = a->ndirs;
	}
	return 0;
}

static void tng_scratch_release(struct tng *t)
{
	for (size_t i = 0; i < t->nassets; i++) {
		gfs_buf_free(t->assets[i].enc);
		t->assets[i].enc = NULL;
	}
	gfs_buf_free(t->new_block);
	t->new_block = NULL;
	free(t->new_secoff);
	t->new_secoff = NULL;
}

int tng_save(struct gfs_archive *ar, struct gfs_writer *w)
{
	struct tng *t = ar->priv;
	struct tng_plan p = { NULL, 0, 0, 0 };
	struct gfs_buf comp = GFS_BUF_INIT;
	uint8_t hdr[TNG_HDR_SIZE], c4[4], c8[8];
	uint64_t start = gfs_writer_tell(w), total;
	struct tng_scan sc;
	pthread_t tid;
	uint32_t crc, ncrc;
	int same = 0, threaded = 0, r;

	if (!t->secs)
		return gfs_err(ar, -EROFS, "an encrypted game cannot be written");
	tng_scratch_release(t);
	if (!t->sec_crc_ok && !ar->opts.force) {
		ar->damaged = 1;
		return gfs_err(ar, -EIO, "the archive has a bad section CRC; refusing to recompute it "
			       "(mount with -o force to write anyway)");
	}

	/* encode the edited compressed assets */
	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *a = &t->assets[i];
		int wrap;

		if (!a->pending || a->kind == TNG_A_STORED)
			continue;
		wrap = a->len ? tng_asset_wrap(ar, t, a) : GFS_ZLIB;
		a->enc = gfs_buf_new();
		if (!a->enc)
			return -ENOMEM;
		r = gfs_deflate(a->pending->data, a->pending->len, (enum gfs_zwrap)wrap, a->enc);
		if (r)
			return gfs_err(ar, r, "cannot deflate an edited asset");
		if (a->enc->len > 0xffffffffu)
			return gfs_err(ar, -EFBIG, "an edited asset is over 4 GiB compressed");
	}
	r = tng_plan_assets(t, &p);
	if (r)
		goto out;
	t->new_block = gfs_buf_new();
	t->new_secoff = calloc(t->nsecs ? t->nsecs : 1, sizeof(*t->new_secoff));
	if (!t->new_block || !t->new_secoff) {
		r = -ENOMEM;
		goto out;
	}
	r = tng_build_block(t, t->new_block, t->new_secoff, &same);
	if (r)
		goto out;
	memset(&sc, 0, sizeof(sc));
	sc.ar = ar;
	sc.t = t;
	sc.p = &p;
	gfs_check_wait(ar);	/* the pass over the old file, if still running */
	if (t->crctab && t->crctab->ok && t->crctab->fsize == t->fsize) {
		/* the CRCs of the copied spans from the pass's table: no second read */
		sc.whole = t->crctab->whole;
		sc.r = tng_crc_region(ar, t->crctab, TNG_OFF_BLOCKLEN, t->base - TNG_OFF_BLOCKLEN,
				      &sc.blockcrc);
		for (size_t i = 0; i < p.nops && !sc.r; i++)
			if (!p.ops[i].a && p.ops[i].len)
				sc.r = tng_crc_region(ar, t->crctab, t->base + p.ops[i].off, p.ops[i].len,
						      &p.ops[i].crc);
	} else {
		threaded = !pthread_create(&tid, NULL, tng_scan_thread, &sc);
		if (!threaded)
			tng_scan_thread(&sc);
	}

	memcpy(hdr, t->hdr, TNG_HDR_SIZE);
	memset(hdr + TNG_OFF_CRC, 0, 4);
	r = gfs_writer_put(w, hdr, TNG_HDR_SIZE);
	if (r)
		goto out;
	if (same) {
		gfs_buf_free(t->new_block);
		t->new_block = NULL;
		t->new_blocklen = t->blocklen;
		r = gfs_writer_copy(w, TNG_OFF_BLOCKLEN, 4 + (uint64_t)t->blocklen);
	} else {
		r = gfs_deflate(t->new_block->data, t->new_block->len, (enum gfs_zwrap)t->bwrap, &comp);
		if (r)
			goto out;
		if (comp.len > 0xffffffffu - 4) {
			r = gfs_err(ar, -EFBIG, "the section block is over 4 GiB compressed");
			goto out;
		}
		t->new_blocklen = (uint32_t)comp.len + 4;
		crc = t->crc_comp ? gfs_crc32(0, comp.data, comp.len) :
		      gfs_crc32(0, t->new_block->data, t->new_block->len);
		gfs_put_u32le(c4, t->new_blocklen);
		gfs_put_u32le(c8 + 4, crc);
		memcpy(c8, c4, 4);
		r = gfs_writer_put(w, c4, 4);
		if (!r)
			r = gfs_writer_put(w, comp.data, comp.len);
		if (!r)
			r = gfs_writer_put(w, c8 + 4, 4);
	}
	if (r)
		goto out;
	{
		uint64_t nbase = gfs_writer_tell(w);

		for (size_t i = 0; i < p.nops && !r; i++) {
			struct tng_op *o = &p.ops[i];

			if (o->a) {
				const struct gfs_buf *b = tng_new_bytes(o->a);

				if (b->len)
					r = gfs_writer_put_buf(w, b);
			} else if (o->len) {
				r = gfs_writer_copy(w, t->base + o->off, o->len);
			}
		}
		if (r)
			goto out;
		if (gfs_writer_tell(w) - nbase != p.npos) {
			r = gfs_err(ar, -EIO, "asset area is %llu bytes, planned %llu",
				    (unsigned long long)(gfs_writer_tell(w) - nbase),
				    (unsigned long long)p.npos);
			goto out;
		}
	}

	/* the old file's CRC, and the new one from the pieces */
	if (threaded) {
		pthread_join(tid, NULL);
		threaded = 0;
	}
	if (sc.r) {
		r = gfs_err_at(ar, sc.r, sc.erroff, "cannot read the archive");
		goto out;
	}
	t->hdr_crc_ok = sc.whole == gfs_le32(t->hdr + TNG_OFF_CRC);
	if (!t->hdr_crc_ok && !ar->opts.force) {
		ar->damaged = 1;
		r = gfs_err(ar, -EIO, "the archive has a bad header CRC; refusing to recompute it "
			    "(mount with -o force to write anyway)");
		goto out;
	}
	ncrc = gfs_crc32(0, hdr, TNG_HDR_SIZE);
	if (same) {
		ncrc = (uint32_t)crc32_combine(ncrc, sc.blockcrc, (z_off_t)(4 + (uint64_t)t->blocklen));
	} else {
		ncrc = gfs_crc32(ncrc, c8, 4);
		ncrc = tng_crc32(ncrc, comp.data, comp.len);
		ncrc = gfs_crc32(ncrc, c8 + 4, 4);
	}
	for (size_t i = 0; i < p.nops; i++) {
		struct tng_op *o = &p.ops[i];

		if (o->a)
			ncrc = tng_buf_crc32(ncrc, tng_new_bytes(o->a));
		else if (o->len)
			ncrc = (uint32_t)crc32_combine(ncrc, o->crc, (z_off_t)o->len);
	}
	total = gfs_writer_tell(w) - start;
	crc = ncrc;
	gfs_put_u32le(c4, crc);
	r = gfs_writer_pwrite(w, c4, 4, start + TNG_OFF_CRC);
	if (r)
		goto out;
	t->new_fsize = total;
	t->new_crc = crc;
out:
	if (threaded)
		pthread_join(tid, NULL);
	free(p.ops);
	gfs_buf_release(&comp);
	return r;
}

void tng_committed(struct gfs_archive *ar)
{
	struct tng *t = ar->priv;

	if (!t || !t->secs)
		return;
	if (t->new_block) {
		gfs_buf_release(&t->block);
		t->block = *t->new_block;
		free(t->new_block);
		t->new_block = NULL;
		for (size_t i = 0; i < t->nsecs; i++) {
			struct tng_sec *s = &t->secs[i];

			if (s->edit) {
				s->len = (uint32_t)s->edit->len;
				gfs_buf_free(s->edit);
				s->edit = NULL;
			}
			s->off = t->new_secoff[i];
		}
	}
	t->secs_added = 0;
	t->blocklen = t->new_blocklen;
	t->base = TNG_OFF_BLOCK + (uint64_t)t->blocklen;
	t->fsize = t->new_fsize;
	gfs_put_u32le(t->hdr + TNG_OFF_CRC, t->new_crc);
	t->hdr_edited = 0;
	t->hdr_crc_ok = 1;
	t->sec_crc_ok = 1;
	for (size_t i = 0; i < t->nassets; i++) {
		struct tng_asset *a = &t->assets[i];

		a->off = a->gone ? 0 : a->new_off;	/* a removed asset has no bytes any more */
		a->len = a->gone ? 0 : a->new_len;
		if (a->pending && a->kind != TNG_A_STORED && a->len == 0)
			a->wrap = GFS_ZLIB;
		gfs_buf_free(a->pending);
		a->pending = NULL;
		if (a->kind == TNG_A_STORED && a->node) {
			gfs_node_set_span(a->node, t->base + a->off, a->len);
		}
	}
	tng_scratch_release(t);
	/* the new file's pass: the verdict on what was written, the table for the next commit */
	if (tng_crc_schedule(ar, t))
		gfs_warn(ar, "cannot check the new file's CRC: %s", gfs_err_reason(ar));
}
