/* FreeType's types; the library itself is opened with the other text libraries by the first text a
   run lays out, not at start-up (SumiText's TextLibraries), and its functions are called through
   `sumi_ft_api`. Its headers are below /usr/include/freetype2 (the targets importing this module
   add that folder to their search path). */
#include "../CSumiRuntime/include/sumi_dl_table.h"
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

/* The FreeType functions Sumi uses. */
#define SUMI_FT_FUNCTIONS(X) \
    X(FT_Init_FreeType) X(FT_Done_FreeType) X(FT_New_Face) X(FT_Done_Face) X(FT_Select_Size) \
    X(FT_Load_Glyph) X(FT_Get_Glyph) X(FT_Done_Glyph) X(FT_Glyph_StrokeBorder) X(FT_Outline_Translate) \
    X(FT_Outline_Transform) X(FT_Outline_Get_CBox) X(FT_Outline_Get_Bitmap) X(FT_Stroker_New) \
    X(FT_Stroker_Set) X(FT_Stroker_Done) X(FT_Get_MM_Var) X(FT_Done_MM_Var) X(FT_Set_Var_Design_Coordinates)

#pragma clang assume_nonnull begin
SUMI_DL_TABLE(sumi_ft, SUMI_FT_FUNCTIONS)
#pragma clang assume_nonnull end
