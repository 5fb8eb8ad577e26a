/* Small text helpers shared by the views: INI and integers (UTF-8 in utf8.c). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "gamefs.h"

int gfs_parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return -EINVAL;
	errno = 0;
	if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ||
	    (s[0] == '-' && s[1] == '0' && (s[2] == 'x' || s[2] == 'X')))
		v = strtoll(s, &end, 16);
	else
		v = strtoll(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	while (*end == ' ' || *end == '\t' || *end == '\r')
		end++;
	if (*end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int gfs_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static char *gfs_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = 0;
	return s;
}

void gfs_skip_bom(const uint8_t **data, size_t *len)
{
	if (*len >= 3 && !memcmp(*data, "\xef\xbb\xbf", 3)) {
		*data += 3;
		*len -= 3;
	}
}

char *gfs_next_word(char **p, const char *seps)
{
	char *s = *p + strspn(*p, seps), *e;

	if (!*s) {
		*p = s;
		return NULL;
	}
	e = s + strcspn(s, seps);
	if (*e)
		*e++ = 0;
	*p = e;
	return s;
}

int gfs_ini_parse(struct gfs_archive *ar, const char *view, const uint8_t *data, size_t len,
		  int (*fn)(void *ctx, const char *section, const char *key,
			    const char *value, unsigned line),
		  void *ctx)
{
	char *copy, *p, *section;
	unsigned line = 0;
	int r = 0;

	gfs_skip_bom(&data, &len);
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	if (!gfs_utf8_valid(data, len)) {
		free(copy);
		return gfs_err(ar, -EINVAL, "%s: not UTF-8 text", view);
	}
	memcpy(copy, data, len);
	copy[len] = 0;
	if (memchr(data, 0, len)) {
		free(copy);
		return gfs_err(ar, -EINVAL, "%s: NUL byte in text", view);
	}
	section = calloc(1, len + 1);
	if (!section) {
		free(copy);
		return -ENOMEM;
	}
	for (p = copy; p && *p && !r;) {
		char *nl = strchr(p, '\n'), *s, *eq;

		if (nl)
			*nl = 0;
		line++;
		s = gfs_trim(p);
		p = nl ? nl + 1 : NULL;
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');

			if (!e || e[1]) {
				r = gfs_err(ar, -EINVAL, "%s: line %u: bad section header", view, line);
				break;
			}
			*e = 0;
			strcpy(section, gfs_trim(s + 1));
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			r = gfs_err(ar, -EINVAL, "%s: line %u: want key = value", view, line);
			break;
		}
		*eq = 0;
		r = fn(ctx, section, gfs_trim(s), gfs_trim(eq + 1), line);
		if (r && !strstr(ar->err, view))
			gfs_err(ar, r, "%s: line %u: bad value for %s", view, line, gfs_trim(s));
	}
	free(section);
	free(copy);
	return r;
}
