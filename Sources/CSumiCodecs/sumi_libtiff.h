#ifndef SUMI_LIBTIFF_H
#define SUMI_LIBTIFF_H

/* libtiff's types only: the library itself (with zstd, xz, LERC, JBIG-KIT and the C++ runtime
   behind it) is opened on the first TIFF file, not at start-up, and its functions are called
   through `sumi_libtiff`, filled by `sumi_libtiff_open`. */
#include <tiffio.h>

#include "sumi_dl_table.h"

/* The shared library opened for TIFF (Debian's libtiff6). */
#define SUMI_LIBTIFF_LIBRARY "libtiff.so.6"

/* The libtiff functions Sumi uses. */
#define SUMI_LIBTIFF_FUNCTIONS(X) \
    X(TIFFClientOpenExt) X(TIFFClose) X(TIFFSetErrorHandler) X(TIFFSetWarningHandler) \
    X(TIFFOpenOptionsAlloc) X(TIFFOpenOptionsFree) X(TIFFOpenOptionsSetErrorHandlerExtR) X(TIFFOpenOptionsSetWarningHandlerExtR) \
    X(TIFFOpenOptionsSetMaxSingleMemAlloc) X(TIFFGetField) X(TIFFGetFieldDefaulted) X(TIFFSetField) \
    X(TIFFIsTiled) X(TIFFComputeStrip) X(TIFFComputeTile) X(TIFFGetStrileOffset) \
    X(TIFFGetStrileByteCount) X(TIFFReadScanline) X(TIFFReadEncodedStrip) X(TIFFReadEncodedTile) \
    X(TIFFRGBAImageOK) X(TIFFRGBAImageBegin) X(TIFFRGBAImageGet) X(TIFFRGBAImageEnd) \
    X(TIFFTileRowSize64) X(TIFFTileSize64) X(TIFFScanlineSize64)

SUMI_DL_TABLE(sumi_libtiff, SUMI_LIBTIFF_FUNCTIONS)

/* libtiff's functions once `sumi_libtiff_open` succeeded. */
extern sumi_libtiff_api sumi_libtiff;

/* Opens libtiff (once). Returns 0, or -1 with a message naming the library in `*error`. */
int sumi_libtiff_open(const char **error);

#endif
