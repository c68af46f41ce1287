/* The C shims call libpng, zlib and libdeflate by name through their tables (private; included
 * after sumi_png_libraries.h and every other header, in .c files only). */
#ifndef SUMI_PNG_CALLS_H
#define SUMI_PNG_CALLS_H

#include "sumi_png_libraries.h"

#define png_create_read_struct sumi_libpng.png_create_read_struct
#define png_create_write_struct sumi_libpng.png_create_write_struct
#define png_create_info_struct sumi_libpng.png_create_info_struct
#define png_destroy_read_struct sumi_libpng.png_destroy_read_struct
#define png_destroy_write_struct sumi_libpng.png_destroy_write_struct
#define png_set_longjmp_fn sumi_libpng.png_set_longjmp_fn
#define png_longjmp sumi_libpng.png_longjmp
#define png_error sumi_libpng.png_error
#define png_get_error_ptr sumi_libpng.png_get_error_ptr
#define png_get_io_ptr sumi_libpng.png_get_io_ptr
#define png_set_read_fn sumi_libpng.png_set_read_fn
#define png_set_write_fn sumi_libpng.png_set_write_fn
#define png_set_user_limits sumi_libpng.png_set_user_limits
#define png_set_option sumi_libpng.png_set_option
#define png_set_crc_action sumi_libpng.png_set_crc_action
#define png_read_info sumi_libpng.png_read_info
#define png_get_IHDR sumi_libpng.png_get_IHDR
#define png_get_valid sumi_libpng.png_get_valid
#define png_get_tRNS sumi_libpng.png_get_tRNS
#define png_set_palette_to_rgb sumi_libpng.png_set_palette_to_rgb
#define png_set_expand_gray_1_2_4_to_8 sumi_libpng.png_set_expand_gray_1_2_4_to_8
#define png_set_tRNS_to_alpha sumi_libpng.png_set_tRNS_to_alpha
#define png_set_scale_16 sumi_libpng.png_set_scale_16
#define png_set_gray_to_rgb sumi_libpng.png_set_gray_to_rgb
#define png_set_filler sumi_libpng.png_set_filler
#define png_set_interlace_handling sumi_libpng.png_set_interlace_handling
#define png_read_update_info sumi_libpng.png_read_update_info
#define png_get_rowbytes sumi_libpng.png_get_rowbytes
#define png_read_row sumi_libpng.png_read_row
#define png_read_end sumi_libpng.png_read_end
#define png_set_compression_buffer_size sumi_libpng.png_set_compression_buffer_size
#define png_set_compression_level sumi_libpng.png_set_compression_level
#define png_set_IHDR sumi_libpng.png_set_IHDR
#define png_set_PLTE sumi_libpng.png_set_PLTE
#define png_set_tRNS sumi_libpng.png_set_tRNS
#define png_set_filter sumi_libpng.png_set_filter
#define png_write_info sumi_libpng.png_write_info
#define png_write_row sumi_libpng.png_write_row
#define png_write_end sumi_libpng.png_write_end

#define deflateInit2_ sumi_zlib.deflateInit2_
#define deflate sumi_zlib.deflate
#define deflateEnd sumi_zlib.deflateEnd
#define deflateParams sumi_zlib.deflateParams
#define deflateSetDictionary sumi_zlib.deflateSetDictionary
#define deflateBound sumi_zlib.deflateBound
#define inflateInit_ sumi_zlib.inflateInit_
#define inflate sumi_zlib.inflate
#define inflateEnd sumi_zlib.inflateEnd
#define compress2 sumi_zlib.compress2
#define compressBound sumi_zlib.compressBound
#define uncompress sumi_zlib.uncompress
#define crc32 sumi_zlib.crc32
#define adler32_z sumi_zlib.adler32_z
#define adler32_combine sumi_zlib.adler32_combine

#define libdeflate_alloc_decompressor sumi_libdeflate.libdeflate_alloc_decompressor
#define libdeflate_free_decompressor sumi_libdeflate.libdeflate_free_decompressor
#define libdeflate_zlib_decompress_ex sumi_libdeflate.libdeflate_zlib_decompress_ex
#define libdeflate_crc32 sumi_libdeflate.libdeflate_crc32

#endif
