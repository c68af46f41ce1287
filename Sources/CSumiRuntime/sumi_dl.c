#include "sumi_dl.h"

#include <dlfcn.h>
#include <stdio.h>

int sumi_dl_open_table(const char *soname, const char *const *names, size_t count, void **table,
                       char *error, size_t error_size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *detail = dlerror();
        snprintf(error, error_size, "%s", detail ? detail : soname);
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        dlerror();
        table[i] = dlsym(library, names[i]);
        if (!table[i]) {
            snprintf(error, error_size, "%s has no function %s", soname, names[i]);
            dlclose(library);
            return -1;
        }
    }
    return 0;
}

int sumi_dl_open_library(struct sumi_dl_library *library, const char **error) {
    /* Once open, asking again is one atomic load (ICU is asked for every character laid out). */
    if (__atomic_load_n(&library->state, __ATOMIC_ACQUIRE) > 0) return 0;
    pthread_mutex_lock(&library->lock);
    if (library->state == 0) {
        int opened = sumi_dl_open_table(library->soname, library->names(), library->count, library->table,
                                        library->failure, sizeof library->failure) == 0;
        __atomic_store_n(&library->state, opened ? 1 : -1, __ATOMIC_RELEASE);
    }
    int state = library->state;
    pthread_mutex_unlock(&library->lock);
    if (state < 0) *error = library->failure;
    return state > 0 ? 0 : -1;
}

int sumi_dl_open_for(struct sumi_dl_library *library, const char *what, const char *package, char *error,
                     size_t error_size) {
    const char *why = NULL;
    if (sumi_dl_open_library(library, &why) == 0) return 0;
    snprintf(error, error_size, "%s needs %s (Debian package %s), which could not be loaded: %s", what, library->soname,
             package, why ? why : "unknown error");
    return -1;
}
