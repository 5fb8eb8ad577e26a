/*
 * zzt_text.c - code page 437 to UTF-8 and back, for names, messages and
 * ZZT-OOP code.  The mapping is a bijection over all 256 bytes: the control
 * range shows as the glyphs a PC draws for it (0x01 is U+263A), 0x00 as
 * U+2400 and 0x7f as U+2302, so every byte survives a round trip through a
 * text editor.  The generated font table reuses it to find glyphs.
 */
#include "formats/zzt/zzt.h"
#include "gfs_record.h"

int zzt_cp437_put(struct gfs_buf *out, uint8_t c)
{
	return gfs_utf8_put(out, c >= 0x20 && c < 0x7f ? c : zzt_cp437[c]);
}

int zzt_cp437_from(uint32_t cp)
{
	return gfs_charset_byte(zzt_cp437, cp);
}
