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

/// Opens the regular path `path` (relative, no "..") for reading beneath the folder `dirfd` without
/// following any symbolic link on the way or at the end: openat2 with RESOLVE_BENEATH and
/// RESOLVE_NO_SYMLINKS, or, where the kernel or a sandbox lacks openat2 (ENOSYS, EPERM), a walk
/// that opens one component at a time with O_NOFOLLOW (`*walked` is then 1). Returns the
/// descriptor (close-on-exec), or -1 with errno (ENOENT for anything outside or through a link).
int sumi_open_beneath(int dirfd, const char *path, int *walked);

/// prctl(PR_SET_NO_NEW_PRIVS): this process and its children can gain no privilege through
/// execve (setuid files, file capabilities). 0, or -1 with errno.
int sumi_no_new_privileges(void);

#endif
