/* The table of format drivers, in bidding order for equal bids. */
#include <string.h>
#include "gamefs.h"

const struct gfs_format *const gfs_formats[] = {
	&gfs_format_tng,
	&gfs_format_tngsave,
	&gfs_format_zzt,
	&gfs_format_lay,
	&gfs_format_rpg,
	NULL,
};

const struct gfs_format *gfs_format_by_name(const char *name)
{
	for (size_t i = 0; gfs_formats[i]; i++)
		if (!strcmp(gfs_formats[i]->name, name))
			return gfs_formats[i];
	return NULL;
}
