#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_BITMAP_H
#include FT_GLYPH_H
#include FT_STROKER_H
#include FT_MULTIPLE_MASTERS_H
#include FT_TRUETYPE_TABLES_H

/* Load flags and pixel modes that are macros Swift cannot import. */
static inline FT_Int32 sumi_ft_load_outline_flags(void) { return FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP; }
static inline FT_Int32 sumi_ft_load_color_flags(void) { return FT_LOAD_COLOR; }
