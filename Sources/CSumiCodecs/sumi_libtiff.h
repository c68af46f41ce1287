#ifndef SUMI_LIBTIFF_H
#define SUMI_LIBTIFF_H

/* libtiff's types only: the library itself (with zstd, xz, LERC, JBIG-KIT and the C++ runtime
   behind it) is opened on the first TIFF file, not at start-up, and its functions are called
   through `sumi_libtiff`, filled by `sumi_libtiff_open`. */
#include <tiffio.h>

/* The shared library opened for TIFF (Debian's libtiff6). */
#define SUMI_LIBTIFF_LIBRARY "libtiff.so.6"

/* The libtiff functions Sumi uses, by name without the `TIFF` prefix. */
#define SUMI_LIBTIFF_FUNCTIONS(X) \
    X(ClientOpenExt) X(Close) X(SetErrorHandler) X(SetWarningHandler) \
    X(OpenOptionsAlloc) X(OpenOptionsFree) X(OpenOptionsSetErrorHandlerExtR) \
    X(OpenOptionsSetWarningHandlerExtR) X(OpenOptionsSetMaxSingleMemAlloc) \
    X(GetField) X(GetFieldDefaulted) X(SetField) X(IsTiled) X(ComputeStrip) X(ComputeTile) \
    X(GetStrileOffset) X(GetStrileByteCount) X(ReadScanline) X(ReadEncodedStrip) X(ReadEncodedTile) \
    X(RGBAImageOK) X(RGBAImageBegin) X(RGBAImageGet) X(RGBAImageEnd) X(TileRowSize64) X(TileSize64) X(ScanlineSize64)

typedef struct sumi_libtiff_api {
#define SUMI_LIBTIFF_FIELD(name) __typeof__(TIFF##name) *name;
    SUMI_LIBTIFF_FUNCTIONS(SUMI_LIBTIFF_FIELD)
#undef SUMI_LIBTIFF_FIELD
} sumi_libtiff_api;

/* libtiff's functions once `sumi_libtiff_open` succeeded. */
extern sumi_libtiff_api sumi_libtiff;

/* Opens libtiff (once, whichever thread asks first). Returns 0, or -1 with a message naming the
   library in `*error`. */
int sumi_libtiff_open(const char **error);

#endif
