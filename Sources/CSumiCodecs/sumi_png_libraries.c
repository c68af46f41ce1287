/* libpng, zlib and libdeflate opened on first use (see sumi_png_libraries.h). */
#include "sumi_png_libraries.h"
#include "sumi_dl.h"

#include <stdio.h>

sumi_libpng_api sumi_libpng;
sumi_libdeflate_api sumi_libdeflate;
sumi_zlib_api sumi_zlib;

static struct sumi_dl_library libpng = SUMI_DL_LIBRARY(SUMI_LIBPNG_LIBRARY, sumi_libpng_names, &sumi_libpng);
static struct sumi_dl_library libdeflate = SUMI_DL_LIBRARY(SUMI_LIBDEFLATE_LIBRARY, sumi_libdeflate_names, &sumi_libdeflate);
static struct sumi_dl_library zlib = SUMI_DL_LIBRARY(SUMI_ZLIB_LIBRARY, sumi_zlib_names, &sumi_zlib);

/* "SONAME (Debian package P), which could not be loaded: why" into `error`, or 0 when it is open. */
static int open_named(struct sumi_dl_library *library, const char *package, char *error, size_t error_size) {
    const char *why = NULL;
    if (sumi_dl_open_library(library, &why) == 0) return 0;
    snprintf(error, error_size, "PNG needs %s (Debian package %s), which could not be loaded: %s", library->soname, package,
             why ? why : "unknown error");
    return -1;
}

int sumi_zlib_functions(const sumi_zlib_api **table, const char **error) {
    if (sumi_dl_open_library(&zlib, error) != 0) return -1;
    *table = &sumi_zlib;
    return 0;
}

int sumi_png_libraries_open(char *error, size_t error_size) {
    if (open_named(&zlib, "zlib1g", error, error_size) != 0) return -1;
    if (open_named(&libpng, "libpng16-16", error, error_size) != 0) return -1;
    return open_named(&libdeflate, "libdeflate0", error, error_size);
}
