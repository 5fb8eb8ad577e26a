/*
 * The one table of format drivers.  Everything that names the formats
 * (the usage text, error messages, the man page's order, the fuzz target,
 * the replay) takes them from here; man/mkformats.sh reads this file.
 * The order is the one the documentation uses, and the bidding order for
 * equal bids (no two formats bid the same on one file today: the ones
 * without magic bid only with their own extension or apart).
 */
#include <errno.h>
#include <string.h>
#include "gamefs.h"

extern const struct gfs_format gfs_format_rpg;
extern const struct gfs_format gfs_format_reld;
extern const struct gfs_format gfs_format_tng;
extern const struct gfs_format gfs_format_tngsave;
extern const struct gfs_format gfs_format_zzt;
extern const struct gfs_format gfs_format_lay;

const struct gfs_format *const gfs_formats[] = {
	&gfs_format_rpg,
	&gfs_format_reld,
	&gfs_format_tng,
	&gfs_format_tngsave,
	&gfs_format_zzt,
	&gfs_format_lay,
	NULL,
};

const struct gfs_format *gfs_format_by_name(const char *name)
{
	for (size_t i = 0; gfs_formats[i]; i++)
		if (!strcmp(gfs_formats[i]->name, name))
			return gfs_formats[i];
	return NULL;
}

int gfs_format_names(struct gfs_buf *out, const char *sep)
{
	int r = 0;

	for (size_t i = 0; !r && gfs_formats[i]; i++) {
		if (i)
			r = gfs_buf_adds(out, sep);
		if (!r)
			r = gfs_buf_adds(out, gfs_formats[i]->name);
	}
	return r;
}

int gfs_opts_format_arg(struct gfs_opts *o, char *kv)
{
	char *eq = strchr(kv, '=');

	if (!eq)
		return 0;
	for (size_t i = 0; gfs_formats[i]; i++) {
		const struct gfs_format_option *opt = gfs_formats[i]->options;

		for (; opt && opt->key; opt++) {
			if (strlen(opt->key) != (size_t)(eq - kv) || strncmp(opt->key, kv, (size_t)(eq - kv)))
				continue;
			if (o->nfmtargs == GFS_MAX_FORMAT_ARGS)
				return -E2BIG;
			*eq = 0;
			o->fmtargs[o->nfmtargs].key = kv;
			o->fmtargs[o->nfmtargs++].value = eq + 1;
			return 1;
		}
	}
	return 0;
}
