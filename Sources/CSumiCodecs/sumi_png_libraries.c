/* libpng, zlib and libdeflate opened on first use (see sumi_png_libraries.h). */
#include "sumi_png_libraries.h"
#include "sumi_dl.h"

sumi_libpng_api sumi_libpng;
sumi_libdeflate_api sumi_libdeflate;
sumi_zlib_api sumi_zlib;

static struct sumi_dl_library libpng = SUMI_DL_LIBRARY(SUMI_LIBPNG_LIBRARY, sumi_libpng_names, &sumi_libpng);
static struct sumi_dl_library libdeflate = SUMI_DL_LIBRARY(SUMI_LIBDEFLATE_LIBRARY, sumi_libdeflate_names, &sumi_libdeflate);
static struct sumi_dl_library zlib = SUMI_DL_LIBRARY(SUMI_ZLIB_LIBRARY, sumi_zlib_names, &sumi_zlib);

int sumi_zlib_open(char *error, size_t error_size) {
    return sumi_dl_open_for(&zlib, "Flate compression", "zlib1g", error, error_size);
}

int sumi_png_libraries_open(char *error, size_t error_size) {
    if (sumi_dl_open_for(&zlib, "PNG", "zlib1g", error, error_size) != 0) return -1;
    if (sumi_dl_open_for(&libpng, "PNG", "libpng16-16", error, error_size) != 0) return -1;
    return sumi_dl_open_for(&libdeflate, "PNG", "libdeflate0", error, error_size);
}
