#ifndef SUMI_HEIF_H
#define SUMI_HEIF_H

// libheif's types only: the library itself (with x265, libaom, dav1d and libde265 behind it) is
// opened on the first HEIF or AVIF file, not at start-up, and its functions are called through
// `sumi_heif_api`.
#include <libheif/heif.h>

/// The shared library opened for HEIF and AVIF.
#define SUMI_HEIF_LIBRARY "libheif.so.1"

/// The libheif functions Sumi uses, by name without the `heif_` prefix.
#define SUMI_HEIF_FUNCTIONS(X) \
    X(context_alloc) X(context_free) X(context_read_from_memory_without_copy) \
    X(context_get_number_of_top_level_images) \
    X(context_get_primary_image_handle) X(context_get_encoder_for_format) X(context_encode_image) \
    X(context_add_exif_metadata) X(context_add_XMP_metadata) X(context_write) \
    X(image_handle_release) X(image_handle_get_width) X(image_handle_get_height) \
    X(image_handle_has_alpha_channel) X(image_handle_is_premultiplied_alpha) \
    X(image_handle_get_color_profile_type) X(image_handle_get_raw_color_profile_size) \
    X(image_handle_get_raw_color_profile) X(image_handle_get_nclx_color_profile) \
    X(image_handle_get_number_of_metadata_blocks) X(image_handle_get_list_of_metadata_block_IDs) \
    X(image_handle_get_metadata_content_type) X(image_handle_get_metadata_size) X(image_handle_get_metadata) \
    X(nclx_color_profile_free) X(decode_image) \
    X(image_create) X(image_release) X(image_add_plane) X(image_get_plane) X(image_get_plane_readonly) \
    X(image_get_width) X(image_get_height) X(image_get_bits_per_pixel_range) X(image_set_raw_color_profile) \
    X(encoder_release) X(encoder_set_lossy_quality) X(encoding_options_free) X(decoding_options_free) \
    X(have_decoder_for_format) X(have_encoder_for_format)

/// libheif's functions, looked up once by `sumi_heif_open`.
typedef struct sumi_heif_api {
#define SUMI_HEIF_FIELD(name) __typeof__(heif_##name) *_Nonnull name;
    SUMI_HEIF_FUNCTIONS(SUMI_HEIF_FIELD)
#undef SUMI_HEIF_FIELD
    // Declared without a prototype in heif.h, so spelled out.
    struct heif_encoding_options *_Nonnull (*_Nonnull encoding_options_alloc)(void);
    struct heif_decoding_options *_Nonnull (*_Nonnull decoding_options_alloc)(void);
} sumi_heif_api;

/// Opens libheif on first use (once, whichever thread asks first) and runs `heif_init`. Returns
/// the table, or NULL with `*error` set to why the library could not be used.
const sumi_heif_api *_Nullable sumi_heif_open(const char *_Nullable *_Nonnull error);

/// Expands the alpha of interleaved 8-bit RGBA rows from limited range (16…235) to full range.
void sumi_heif_expand_alpha(uint8_t *_Nonnull plane, size_t stride, int width, int height);

#endif
