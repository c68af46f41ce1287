#include "sumi_runtime.h"

#include <limits.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int sumi_runtime_set_mmap_threshold(size_t bytes) {
#if defined(__GLIBC__)
    if (bytes > INT_MAX) return 0;
    return mallopt(M_MMAP_THRESHOLD, (int)bytes) == 1;
#else
    (void)bytes;
    return 0;
#endif
}

int sumi_runtime_set_trim_threshold(size_t bytes) {
#if defined(__GLIBC__)
    if (bytes > INT_MAX) return 0;
    return mallopt(M_TRIM_THRESHOLD, (int)bytes) == 1;
#else
    (void)bytes;
    return 0;
#endif
}
