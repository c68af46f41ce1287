#include "sumi_libtiff.h"
#include "sumi_dl.h"

#include <pthread.h>

sumi_libtiff_api sumi_libtiff;
static int opened;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_library(void) {
#define SUMI_LIBTIFF_NAME(name) "TIFF" #name,
    static const char *const names[] = { SUMI_LIBTIFF_FUNCTIONS(SUMI_LIBTIFF_NAME) };
#undef SUMI_LIBTIFF_NAME
    enum { count = sizeof names / sizeof names[0] };
    _Static_assert(sizeof sumi_libtiff == count * sizeof(void *), "one table entry per function");
    if (sumi_dl_open_table(SUMI_LIBTIFF_LIBRARY, names, count, (void **)&sumi_libtiff, failure, sizeof failure) == 0) opened = 1;
}

int sumi_libtiff_open(const char **error) {
    pthread_once(&once, open_library);
    if (!opened) *error = failure;
    return opened ? 0 : -1;
}
