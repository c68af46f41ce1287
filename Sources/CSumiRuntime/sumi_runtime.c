#include "sumi_runtime.h"

#include <limits.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* mallopt(parameter, bytes); 1 when glibc took it, 0 otherwise (another C library: nothing changes). */
static int set_bytes(int parameter, size_t bytes) {
#if defined(__GLIBC__)
    if (bytes > INT_MAX) return 0;
    return mallopt(parameter, (int)bytes) == 1;
#else
    (void)parameter;
    (void)bytes;
    return 0;
#endif
}

int sumi_runtime_set_mmap_threshold(size_t bytes) {
#if defined(__GLIBC__)
    return set_bytes(M_MMAP_THRESHOLD, bytes);
#else
    return set_bytes(0, bytes);
#endif
}

int sumi_runtime_set_trim_threshold(size_t bytes) {
#if defined(__GLIBC__)
    return set_bytes(M_TRIM_THRESHOLD, bytes);
#else
    return set_bytes(0, bytes);
#endif
}
