/*
 * gfs_xml.h - a small, strict, bounded XML reader (for TMX maps written
 * back by Tiled or by hand).
 *
 * Reads UTF-8 XML 1.0 into a tree: elements with their attributes and the
 * character data directly inside them.  Takes an optional BOM, the <?xml?>
 * declaration and other processing instructions (skipped), comments,
 * CDATA sections, the five predefined entities and numeric character
 * references.  Refuses a DOCTYPE (so no entity of any kind is defined or
 * fetched), any other entity, mismatched or unclosed tags, a duplicate
 * attribute, text outside the root, more than GFS_XML_MAX_DEPTH levels,
 * GFS_XML_MAX_NODES elements or GFS_XML_MAX_SIZE bytes: -EINVAL and why,
 * with the line.  Time and memory are linear in the input: the tree lives
 * in one arena (mem), which gfs_xml_free() frees at once.
 */
#ifndef GFS_XML_H
#define GFS_XML_H

#include <stddef.h>
#include <stdint.h>

#define GFS_XML_MAX_SIZE	((size_t)64 << 20)
#define GFS_XML_MAX_DEPTH	64
#define GFS_XML_MAX_NODES	((size_t)1 << 20)
#define GFS_XML_MAX_ATTRS	256

struct gfs_xml_attr {
	char *name;
	char *value;		/* references decoded, NUL-terminated */
};

struct gfs_xml_el {
	char *name;
	struct gfs_xml_attr *attrs;
	size_t nattrs;
	char *text;		/* the character data directly inside, decoded (never NULL) */
	size_t textlen;
	unsigned line;		/* of its start tag */
	struct gfs_xml_el *parent, *kid, *next;	/* first child, next sibling */
};

struct gfs_xml_chunk;

struct gfs_xml {
	struct gfs_xml_el *root;
	size_t nodes;
	struct gfs_xml_chunk *mem;	/* every byte of the tree (private to xml.c) */
};

int gfs_xml_parse(const uint8_t *p, size_t len, struct gfs_xml *x, char *why, size_t whylen);
void gfs_xml_free(struct gfs_xml *x);
/* The value of attribute name of e, or NULL. */
const char *gfs_xml_attr(const struct gfs_xml_el *e, const char *name);

#endif
