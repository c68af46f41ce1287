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
