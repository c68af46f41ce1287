#include "sumi_mhd.h"
#include "sumi_dl.h"

#include <pthread.h>

sumi_mhd_api sumi_mhd;
static int opened;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_library(void) {
#define SUMI_MHD_NAME(name) "MHD_" #name,
    static const char *const names[] = { SUMI_MHD_FUNCTIONS(SUMI_MHD_NAME) };
#undef SUMI_MHD_NAME
    enum { count = sizeof names / sizeof names[0] };
    _Static_assert(sizeof sumi_mhd == count * sizeof(void *), "one table entry per function");
    if (sumi_dl_open_table(SUMI_MHD_LIBRARY, names, count, (void **)&sumi_mhd, failure, sizeof failure) == 0) opened = 1;
}

int sumi_mhd_open(const char **error) {
    pthread_once(&once, open_library);
    if (!opened) *error = failure;
    return opened ? 0 : -1;
}
