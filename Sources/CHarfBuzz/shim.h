/* HarfBuzz's types; the library itself is opened by the first text a run lays out, not at
   start-up (SumiText's TextLibraries), and its functions are called through `sumi_hb_api`. */
#include "../CSumiRuntime/include/sumi_dl_table.h"
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ft.h>
#include <harfbuzz/hb-ot.h>

/* The HarfBuzz functions Sumi uses. */
#define SUMI_HB_FUNCTIONS(X) \
    X(hb_buffer_add_utf32) X(hb_buffer_create) X(hb_buffer_destroy) X(hb_buffer_get_glyph_infos) \
    X(hb_buffer_get_glyph_positions) X(hb_buffer_guess_segment_properties) X(hb_buffer_set_direction) X(hb_buffer_set_flags) \
    X(hb_buffer_set_language) X(hb_buffer_set_script) X(hb_face_destroy) X(hb_face_get_upem) \
    X(hb_feature_from_string) X(hb_font_create) X(hb_font_destroy) X(hb_font_get_glyph_extents) \
    X(hb_font_get_h_extents) X(hb_font_set_scale) X(hb_font_set_variations) X(hb_ft_face_create_referenced) \
    X(hb_language_from_string) X(hb_shape) X(hb_unicode_funcs_get_default) X(hb_unicode_script) \
    X(hb_variation_from_string)

#pragma clang assume_nonnull begin
SUMI_DL_TABLE(sumi_hb, SUMI_HB_FUNCTIONS)
#pragma clang assume_nonnull end
