#include "sumi_pixbuf.h"
#include "sumi_dl.h"

#include <pthread.h>

static sumi_pixbuf_api api;
static const sumi_pixbuf_api *opened;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_library(void) {
    // In the order of the fields of sumi_pixbuf_api; GObject and GLib are found through
    // gdk-pixbuf's own dependencies.
    static const char *const names[] = {
        "gdk_pixbuf_loader_new_with_type", "gdk_pixbuf_loader_write", "gdk_pixbuf_loader_close",
        "gdk_pixbuf_loader_get_pixbuf", "gdk_pixbuf_new", "gdk_pixbuf_get_width", "gdk_pixbuf_get_height",
        "gdk_pixbuf_get_n_channels", "gdk_pixbuf_get_rowstride", "gdk_pixbuf_get_bits_per_sample",
        "gdk_pixbuf_get_has_alpha", "gdk_pixbuf_read_pixels", "gdk_pixbuf_get_pixels",
        "gdk_pixbuf_save_to_bufferv", "g_object_unref", "g_error_free", "g_free", "g_base64_encode",
    };
    _Static_assert(sizeof api == sizeof names / sizeof names[0] * sizeof(void *), "one name per field");
    if (sumi_dl_open_table(SUMI_PIXBUF_LIBRARY, names, sizeof names / sizeof names[0], (void **)&api,
                           failure, sizeof failure) == 0) {
        opened = &api;
    }
}

const sumi_pixbuf_api *sumi_pixbuf_open(const char **error) {
    pthread_once(&once, open_library);
    if (!opened) *error = failure;
    return opened;
}
