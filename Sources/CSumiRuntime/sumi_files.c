#define _GNU_SOURCE
#include "sumi_runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__linux__) && defined(SYS_openat2)
#include <linux/openat2.h>
#define SUMI_HAVE_OPENAT2 1
#endif

/* The walk for kernels (or sandboxes) without openat2: one component at a time, each opened
   relative to the last without following a symbolic link; ".." and empty names are refused. */
static int open_by_walk(int dirfd, const char *path) {
    char name[NAME_MAX + 1];
    int current = dirfd, owned = 0;
    const char *p = path;
    for (;;) {
        const char *slash = strchr(p, '/');
        size_t length = slash ? (size_t)(slash - p) : strlen(p);
        if (length == 0 || length > NAME_MAX || (length == 2 && p[0] == '.' && p[1] == '.')) {
            if (owned) close(current);
            errno = length > NAME_MAX ? ENAMETOOLONG : ENOENT;
            return -1;
        }
        memcpy(name, p, length);
        name[length] = 0;
        int last = slash == NULL;
        int next = openat(current, name, last ? (O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)
                                               : (O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW));
        int saved = errno;
        if (owned) close(current);
        if (next < 0) {
            errno = saved;
            return -1;
        }
        if (last) return next;
        current = next;
        owned = 1;
        p = slash + 1;
    }
}

int sumi_open_beneath(int dirfd, const char *path, int *walked) {
    if (walked) *walked = 0;
    if (path == NULL || path[0] == 0 || path[0] == '/') {
        errno = ENOENT;
        return -1;
    }
#ifdef SUMI_HAVE_OPENAT2
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
    if (fd >= 0) return (int)fd;
    /* ENOSYS: an older kernel; EPERM: a seccomp filter that does not know the call. */
    if (errno != ENOSYS && errno != EPERM) {
        /* Refused beneath-resolution (EXDEV) or a link on the way (ELOOP): not found, as the walk says. */
        if (errno == EXDEV || errno == ELOOP) errno = ENOENT;
        return -1;
    }
#endif
    if (walked) *walked = 1;
    int fd2 = open_by_walk(dirfd, path);
    if (fd2 < 0 && errno == ELOOP) errno = ENOENT;
    return fd2;
}

int sumi_no_new_privileges(void) {
#ifdef PR_SET_NO_NEW_PRIVS
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}
