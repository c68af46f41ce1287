#ifndef SUMI_DL_H
#define SUMI_DL_H

#include <pthread.h>
#include <stddef.h>

#include "sumi_dl_table.h"

/// Opens the shared library `soname` (dlopen, RTLD_NOW | RTLD_LOCAL, never closed) and looks up
/// `count` functions by `names` into `table`, in order. Returns 0, or -1 with a message naming the
/// library (and the missing function) in `error`. Used for libraries that only some runs need, so
/// that start-up does not pay for loading and relocating them.
int sumi_dl_open_table(const char *soname, const char *const *names, size_t count, void **table,
                       char *error, size_t error_size);

/// A library a C shim opens on first use: its soname and function table (see sumi_dl_table.h),
/// opened once by `sumi_dl_open_library`, whichever thread asks first.
struct sumi_dl_library {
    const char *soname;
    const char *const *(*names)(void);
    size_t count;
    void **table;
    pthread_mutex_t lock;
    int state;          /* 0: not tried yet; 1: open; -1: failed (`failure` says why) */
    char failure[512];
};

/// A `struct sumi_dl_library` for `soname` filling `*table` (a NAME_api from SUMI_DL_TABLE) with
/// the functions `names()` (its NAME_names) lists.
#define SUMI_DL_LIBRARY(soname, names, table) \
    { (soname), (names), sizeof *(table) / sizeof(void *), (void **)(table), PTHREAD_MUTEX_INITIALIZER, 0, "" }

/// Opens `library` the first time it is asked for. Returns 0, or -1 with a message naming the
/// library in `*error` (each later call answers the same).
int sumi_dl_open_library(struct sumi_dl_library *library, const char **error);

/// `sumi_dl_open_library`, with the message for a user when it fails: "WHAT needs SONAME (Debian
/// package PACKAGE), which could not be loaded: why" in `error`. Returns 0 or -1.
int sumi_dl_open_for(struct sumi_dl_library *library, const char *what, const char *package, char *error,
                     size_t error_size);

#endif
