#ifndef SUMI_CODEC_LIBRARIES_H
#define SUMI_CODEC_LIBRARIES_H

/* libjpeg-turbo, giflib and libwebp are opened by the first image that needs them, not at start-up
   (`sumi --version`, `sumi validate` or a PNG run map none of them); the shims call them through
   these tables (opened by `sumi_libjpeg_open` and the like, sumi_codecs.h). A table is filled once, by whichever thread asks first (`sumi_dl_open_library`); a
   library that cannot be loaded is an error naming it and its Debian package. Inline wrappers of
   the headers (WebPGetFeatures, jpeg_create_decompress) are not used: their table entries are the
   functions they wrap. */
#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>
#include <gif_lib.h>
#include <webp/decode.h>
#include <webp/encode.h>

#include "sumi_codecs.h"
#include "sumi_dl_table.h"

#define SUMI_LIBJPEG_LIBRARY "libjpeg.so.62"
#define SUMI_LIBJPEG_PACKAGE "libjpeg62-turbo"
#define SUMI_LIBJPEG_FUNCTIONS(X) \
    X(jpeg_std_error) X(jpeg_CreateDecompress) X(jpeg_CreateCompress) X(jpeg_destroy_decompress) \
    X(jpeg_destroy_compress) X(jpeg_mem_src) X(jpeg_read_header) X(jpeg_calc_output_dimensions) \
    X(jpeg_start_decompress) X(jpeg_read_scanlines) X(jpeg_finish_decompress) X(jpeg_set_defaults) \
    X(jpeg_set_quality) X(jpeg_simple_progression) X(jpeg_start_compress) X(jpeg_write_scanlines) \
    X(jpeg_finish_compress)
SUMI_DL_TABLE(sumi_libjpeg, SUMI_LIBJPEG_FUNCTIONS)
extern sumi_libjpeg_api sumi_libjpeg;

#define SUMI_LIBGIF_LIBRARY "libgif.so.7"
#define SUMI_LIBGIF_PACKAGE "libgif7"
#define SUMI_LIBGIF_FUNCTIONS(X) \
    X(DGifOpen) X(DGifCloseFile) X(DGifGetRecordType) X(DGifGetExtension) X(DGifGetExtensionNext) \
    X(DGifGetImageDesc) X(DGifGetLine) X(DGifGetCode) X(DGifGetCodeNext) X(GifErrorString)
SUMI_DL_TABLE(sumi_libgif, SUMI_LIBGIF_FUNCTIONS)
extern sumi_libgif_api sumi_libgif;

#define SUMI_LIBWEBP_LIBRARY "libwebp.so.7"
#define SUMI_LIBWEBP_PACKAGE "libwebp7"
#define SUMI_LIBWEBP_FUNCTIONS(X) \
    X(WebPGetFeaturesInternal) X(WebPINewRGB) X(WebPIUpdate) X(WebPIDecGetRGB) X(WebPIDelete) \
    X(WebPEncodeRGBA) X(WebPFree)
SUMI_DL_TABLE(sumi_libwebp, SUMI_LIBWEBP_FUNCTIONS)
extern sumi_libwebp_api sumi_libwebp;

/* libwebp's features of a bitstream (the header's inline WebPGetFeatures, through the table). */
static inline VP8StatusCode sumi_webp_features(const uint8_t *data, size_t size, WebPBitstreamFeatures *features) {
    return sumi_libwebp.WebPGetFeaturesInternal(data, size, features, WEBP_DECODER_ABI_VERSION);
}

#endif
