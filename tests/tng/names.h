/*
 * names.h - the name callbacks of struct tngs_names for the tng unit tests,
 * over the including file's tables: names[] (kind, value, name) and the
 * four texts[].  Include it after them.
 */
static const char *t_name(void *ctx, enum tngs_ref k, uint32_t v)
{
	(void)ctx;
	if (k == TNGS_TEXT)
		return v < sizeof texts / sizeof texts[0] ? texts[v] : NULL;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].kind == k && names[i].v == v)
			return names[i].name;
	return NULL;
}

static int t_find(void *ctx, enum tngs_ref k, const char *s, uint32_t *v)
{
	(void)ctx;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].kind == k && !strcmp(names[i].name, s)) {
			*v = names[i].v;
			return 0;
		}
	return -1;
}
