#ifndef SUMI_RUNTIME_H
#define SUMI_RUNTIME_H

#include <stddef.h>

/// Sets glibc's mmap threshold, so every allocation of `bytes` or more is mapped on its own and
/// returned to the system when freed (mallopt M_MMAP_THRESHOLD, which Swift's Glibc module leaves
/// out). Returns 1 when the allocator took it, 0 otherwise (another C library: nothing changes).
int sumi_runtime_set_mmap_threshold(size_t bytes);

/// Lets up to `bytes` of freed memory stay at the top of glibc's heaps instead of being given back
/// at once (mallopt M_TRIM_THRESHOLD). Returns 1 when the allocator took it, 0 otherwise.
int sumi_runtime_set_trim_threshold(size_t bytes);

#endif
