/*
 * rpg_npcdraw.c - the NPCs of map.png: every used instance of the map's .L
 * drawn as the engine draws it at rest, the first frame of its direction
 * (frame 2 x direction: up, right, down, left) of its type's walkabout set
 * in its type's palette (.N, or GLOBALNPCS1.N for pool 1: picture and
 * palette are the type's first two words), colour 0 clear, the frame's
 * bottom centre on its tile's (a 20 x 20 walkabout covers the tile).  An
 * instance whose type or walkabout the game lacks is not drawn.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rpg.h"

#define L_HDR		7
#define L_SLOTS		300
#define N_HDR		7
#define TILE		20
#define NPC_CACHE	32

/* A frame drawn before: its set, palette, frame. */
struct npc_seen {
	long set, pal;
	unsigned f;
	int ok;
	struct rpg_sprite sp;
};

/* Word i of .N lump l (records of rs bytes after its header) of type id, or 0x7fff0000 when there is none. */
static long npc_type_word(struct gfs_archive *ar, struct rpg_lump *l, unsigned rs, long id, unsigned i)
{
	uint8_t w[2];

	if (!l || id < 0 || 2 * i + 2 > rs ||
	    rpg_lump_range(ar, l, N_HDR + (uint64_t)id * rs + 2 * i, sizeof(w), w))
		return 0x7fff0000L;
	return (int16_t)gfs_le16(w);
}

int rpg_npcs_draw(struct gfs_archive *ar, long map, const uint8_t *lb, size_t llen, unsigned w, unsigned h,
		  void (*put)(void *ctx, size_t x, size_t y, uint8_t c), void *ctx)
{
	struct rpg_model *m = ar->priv;
	struct rpg_lump *local = rpg_map_lump(m, map, 'N', RPG_K_REC), *global = rpg_lump_named(m, "GLOBALNPCS1.N");
	unsigned rs = rpg_binsize(ar, 9, 30);
	int pools = llen >= L_HDR + 6 * 2 * L_SLOTS;
	struct npc_seen *seen = calloc(NPC_CACHE, sizeof(*seen));
	size_t nseen = 0;
	int r = 0;

	if (!seen)
		return -ENOMEM;
	rs = rs ? rs : 30;
	for (unsigned s = 0; s < L_SLOTS && llen >= L_HDR + 5 * 2 * L_SLOTS && !r; s++) {
#define LW(c) ((long)(int16_t)gfs_le16(lb + L_HDR + 2 * ((size_t)(c) * L_SLOTS + s)))
		long x = LW(0), y = LW(1) - 1, id = LW(2) - 1, dir = LW(3) & 3;
		struct rpg_lump *nl = pools && LW(5) ? global : local;
		long set = npc_type_word(ar, nl, rs, id, 0), pal = npc_type_word(ar, nl, rs, id, 1);
		struct npc_seen *f = NULL;
#undef LW

		if (id < 0 || x < 0 || y < 0 || x >= (long)w || y >= (long)h || set == 0x7fff0000L || set < 0)
			continue;
		for (size_t i = 0; i < nseen && !f; i++)
			if (seen[i].set == set && seen[i].pal == pal && seen[i].f == (unsigned)(2 * dir))
				f = &seen[i];
		if (!f) {	/* a full cache starts over */
			if (nseen == NPC_CACHE) {
				for (size_t i = 0; i < nseen; i++)
					free(seen[i].sp.px);
				memset(seen, 0, NPC_CACHE * sizeof(*seen));
				nseen = 0;
			}
			f = &seen[nseen++];
			f->set = set;
			f->pal = pal;
			f->f = (unsigned)(2 * dir);
			r = rpg_sprite_frame(ar, '4', set, pal, f->f, &f->sp);
			f->ok = !r;
			if (r == -ENOENT)
				r = 0;
		}
		if (!f->ok)
			continue;
		/* bottom centre on the tile's: the frame's pixels that fall on the map */
		for (unsigned py = 0; py < f->sp.h; py++)
			for (unsigned px = 0; px < f->sp.w; px++) {
				long mx = x * TILE + (TILE - (long)f->sp.w) / 2 + px;
				long my = (y + 1) * TILE - (long)f->sp.h + py;
				uint8_t c = f->sp.px[(size_t)py * f->sp.w + px];

				if (c && c < 16 && mx >= 0 && my >= 0 && mx < (long)w * TILE && my < (long)h * TILE)
					put(ctx, (size_t)mx, (size_t)my, f->sp.pal[c]);
			}
	}
	for (size_t i = 0; i < nseen; i++)
		free(seen[i].sp.px);
	free(seen);
	return r;
}
