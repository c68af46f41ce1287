#include "sumi_runtime.h"

#include <limits.h>

#if defined(__GLIBC__)
#include <malloc.h>

/* mallopt(parameter, bytes); 1 when glibc took it. */
static int set_bytes(int parameter, size_t bytes) {
    if (bytes > INT_MAX) return 0;
    return mallopt(parameter, (int)bytes) == 1;
}

int sumi_runtime_set_mmap_threshold(size_t bytes) { return set_bytes(M_MMAP_THRESHOLD, bytes); }
int sumi_runtime_set_trim_threshold(size_t bytes) { return set_bytes(M_TRIM_THRESHOLD, bytes); }
#else
/* Another C library: nothing changes. */
int sumi_runtime_set_mmap_threshold(size_t bytes) { (void)bytes; return 0; }
int sumi_runtime_set_trim_threshold(size_t bytes) { (void)bytes; return 0; }
#endif
