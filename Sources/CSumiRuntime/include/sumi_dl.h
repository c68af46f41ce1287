#ifndef SUMI_DL_H
#define SUMI_DL_H

#include <stddef.h>

/// Opens the shared library `soname` (dlopen, RTLD_NOW | RTLD_LOCAL, never closed) and looks up
/// `count` functions by `names` into `table`, in order. Returns 0, or -1 with a message naming the
/// library (and the missing function) in `error`. Used for libraries that only some runs need, so
/// that start-up does not pay for loading and relocating them.
int sumi_dl_open_table(const char *soname, const char *const *names, size_t count, void **table,
                       char *error, size_t error_size);

#endif
