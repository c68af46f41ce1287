#ifndef SUMI_ZLIB_H
#define SUMI_ZLIB_H

/* zlib's types and function table only: the library is opened by the first PNG or Flate stream a
   run reads or writes, not at start-up, and its functions are called through a table filled by
   name, in Swift by `ZlibLibrary` (SumiKit's `FunctionTable` over `sumi_dl_open_table`), in the C
   shims through sumi_png_calls.h. */
#include <zlib.h>

#include "sumi_dl_table.h"

/* The shared library opened for zlib (Debian's zlib1g). */
#define SUMI_ZLIB_LIBRARY "libz.so.1"

/* The zlib functions Sumi uses (deflateInit2 and inflateInit are macros over the `_` ones). */
#define SUMI_ZLIB_FUNCTIONS(X) \
    X(deflateInit2_) X(deflate) X(deflateEnd) X(deflateParams) X(deflateSetDictionary) X(deflateBound) \
    X(inflateInit_) X(inflate) X(inflateEnd) X(compress2) X(compressBound) X(uncompress) \
    X(crc32) X(adler32_z) X(adler32_combine)

/* The table's pointers are non-null for Swift; the names function the macro also declares is not
   annotated (completeness is not asked of it). */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
#pragma clang assume_nonnull begin
SUMI_DL_TABLE(sumi_zlib, SUMI_ZLIB_FUNCTIONS)
#pragma clang assume_nonnull end
#pragma clang diagnostic pop

#endif
