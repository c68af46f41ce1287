#include "sumi_heif.h"
#include "sumi_dl.h"

#include <pthread.h>
#include <stdio.h>

static sumi_heif_api api;
static const sumi_heif_api *opened;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_library(void) {
#define SUMI_HEIF_NAME(name) "heif_" #name,
    static const char *const names[] = { SUMI_HEIF_FUNCTIONS(SUMI_HEIF_NAME) "heif_encoding_options_alloc",
                                         "heif_decoding_options_alloc", "heif_init" };
#undef SUMI_HEIF_NAME
    enum { count = sizeof names / sizeof names[0] };
    void *table[count];
    if (sumi_dl_open_table(SUMI_HEIF_LIBRARY, names, count, table, failure, sizeof failure) != 0) return;
    _Static_assert(sizeof api == (count - 1) * sizeof(void *), "one table entry per function");
    void **fields = (void **)&api;
    for (size_t i = 0; i + 1 < count; i++) fields[i] = table[i];
    __typeof__(heif_init) *init = (__typeof__(heif_init) *)table[count - 1];
    // The codec registry (and plugins, where the build has them) is set up once.
    struct heif_error status = init(NULL);
    if (status.code != heif_error_Ok) {
        snprintf(failure, sizeof failure, "%s could not be initialised: %s", SUMI_HEIF_LIBRARY,
                 status.message ? status.message : "unknown error");
        return;
    }
    opened = &api;
}

const sumi_heif_api *sumi_heif_open(const char **error) {
    pthread_once(&once, open_library);
    if (!opened) *error = failure;
    return opened;
}

void sumi_heif_expand_alpha(uint8_t *plane, size_t stride, int width, int height) {
    uint8_t table[256];
    for (int v = 0; v < 256; v++) {
        int full = ((v - 16) * 255 + 109) / 219;
        table[v] = (uint8_t)(v <= 16 ? 0 : full > 255 ? 255 : full);
    }
    for (int y = 0; y < height; y++) {
        uint8_t *row = plane + (size_t)y * stride;
        for (int x = 0; x < width; x++) row[4 * x + 3] = table[row[4 * x + 3]];
    }
}
