/* libpng, zlib and libdeflate for the PNG shims (private): their types, their function tables
 * (opened on first use, not linked: start-up maps none of them) and `sumi_png_libraries_open`. */
#ifndef SUMI_PNG_LIBRARIES_H
#define SUMI_PNG_LIBRARIES_H

#include <stddef.h>

#include <libdeflate.h>
#include <png.h>

#include "sumi_dl_table.h"
#include "sumi_zlib.h"

/* The shared libraries opened for PNG (Debian's libpng16-16 and libdeflate0). */
#define SUMI_LIBPNG_LIBRARY "libpng16.so.16"
#define SUMI_LIBDEFLATE_LIBRARY "libdeflate.so.0"

/* The libpng functions Sumi uses (png_jmpbuf is a macro over png_set_longjmp_fn). */
#define SUMI_LIBPNG_FUNCTIONS(X) \
    X(png_create_read_struct) X(png_create_write_struct) X(png_create_info_struct) X(png_destroy_read_struct) \
    X(png_destroy_write_struct) X(png_set_longjmp_fn) X(png_longjmp) X(png_error) X(png_get_error_ptr) \
    X(png_get_io_ptr) X(png_set_read_fn) X(png_set_write_fn) X(png_set_user_limits) X(png_set_option) \
    X(png_set_crc_action) X(png_read_info) X(png_get_IHDR) X(png_get_valid) X(png_get_tRNS) \
    X(png_set_palette_to_rgb) X(png_set_expand_gray_1_2_4_to_8) X(png_set_tRNS_to_alpha) X(png_set_scale_16) \
    X(png_set_gray_to_rgb) X(png_set_filler) X(png_set_interlace_handling) X(png_read_update_info) \
    X(png_get_rowbytes) X(png_read_row) X(png_read_end) X(png_set_compression_buffer_size) \
    X(png_set_compression_level) X(png_set_IHDR) X(png_set_PLTE) X(png_set_tRNS) X(png_set_filter) \
    X(png_write_info) X(png_write_row) X(png_write_end)

/* The libdeflate functions Sumi uses. */
#define SUMI_LIBDEFLATE_FUNCTIONS(X) \
    X(libdeflate_alloc_decompressor) X(libdeflate_free_decompressor) X(libdeflate_zlib_decompress_ex) \
    X(libdeflate_crc32)

SUMI_DL_TABLE(sumi_libpng, SUMI_LIBPNG_FUNCTIONS)
SUMI_DL_TABLE(sumi_libdeflate, SUMI_LIBDEFLATE_FUNCTIONS)

/* The functions, once `sumi_png_libraries_open` succeeded. */
extern sumi_libpng_api sumi_libpng;
extern sumi_libdeflate_api sumi_libdeflate;
extern sumi_zlib_api sumi_zlib;

/* Opens libpng, zlib and libdeflate (once each). Returns 0, or -1 with a message naming the library
 * that could not be loaded and its Debian package in `error` ("PNG needs libpng16.so.16 (Debian
 * package libpng16-16), which could not be loaded: ..."). */
int sumi_png_libraries_open(char *error, size_t error_size);
/* Opens zlib alone (once), for Flate streams that are not PNG; the message as above ("Flate
 * compression needs libz.so.1 ..."). */
int sumi_zlib_open(char *error, size_t error_size);

#endif
