#include "sumi_pixbuf.h"
#include "sumi_dl.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static sumi_pixbuf_api api;
static const sumi_pixbuf_api *opened;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void ignore_log(const char *domain, int level, const char *message, void *data) {
    (void)domain, (void)level, (void)message, (void)data;
}

static void open_library(void) {
    // In the order of the fields of sumi_pixbuf_api; GObject and GLib are found through
    // gdk-pixbuf's own dependencies.
    static const char *const names[] = {
        "gdk_pixbuf_loader_new_with_type", "gdk_pixbuf_loader_write", "gdk_pixbuf_loader_close",
        "gdk_pixbuf_loader_get_pixbuf", "gdk_pixbuf_new", "gdk_pixbuf_get_width", "gdk_pixbuf_get_height",
        "gdk_pixbuf_get_n_channels", "gdk_pixbuf_get_rowstride", "gdk_pixbuf_get_bits_per_sample",
        "gdk_pixbuf_get_has_alpha", "gdk_pixbuf_read_pixels", "gdk_pixbuf_get_pixels",
        "gdk_pixbuf_save_to_bufferv", "g_object_unref", "g_error_free", "g_free", "g_base64_encode",
        "gdk_pixbuf_get_formats", "g_slist_free", "g_strfreev", "gdk_pixbuf_format_get_extensions",
        "gdk_pixbuf_format_is_writable", "gdk_pixbuf_loader_set_size", "g_signal_connect_data", "g_log_set_handler",
    };
    _Static_assert(sizeof api == sizeof names / sizeof names[0] * sizeof(void *), "one name per field");
    if (sumi_dl_open_table(SUMI_PIXBUF_LIBRARY, names, sizeof names / sizeof names[0], (void **)&api,
                           failure, sizeof failure) == 0) {
        /* Loaders' warnings ("loader 'tga' didn't set an error on failure") would be a second
         * line under Sumi's own error: the failure is reported through the GError or our checks. */
        api.log_set_handler("GdkPixbuf", 16 | 32 | 64 | 128, ignore_log, NULL);
        opened = &api;
    }
}

const sumi_pixbuf_api *sumi_pixbuf_open(const char **error) {
    pthread_once(&once, open_library);
    if (!opened) *error = failure;
    return opened;
}

/* GdkPixbufFormat and GdkPixbufModulePattern as gdk-pixbuf-io.h declares them (stable since 2.2). */
typedef struct {
    char *prefix;
    char *mask;
    int relevance;
} module_pattern;

typedef struct {
    char *name;
    module_pattern *signature;
    char *domain;
    char *description;
    char **mime_types;
    char **extensions;
    uint32_t flags;
    int disabled;
    char *license;
} module_format;

int sumi_pixbuf_list_formats(sumi_pixbuf_format *formats, int capacity) {
    const char *error = NULL;
    const sumi_pixbuf_api *gdk = sumi_pixbuf_open(&error);
    if (!gdk) return -1;
    sumi_gslist *list = gdk->get_formats();
    int count = 0;
    for (sumi_gslist *item = list; item; item = item->next) {
        module_format *format = item->data;
        if (!format || !format->name || format->disabled) continue;
        if (count < capacity) {
            sumi_pixbuf_format *out = &formats[count];
            memset(out, 0, sizeof *out);
            snprintf(out->name, sizeof out->name, "%s", format->name);
            snprintf(out->description, sizeof out->description, "%s", format->description ? format->description : "");
            char **extensions = gdk->format_get_extensions(format);
            size_t used = 0;
            for (char **e = extensions; e && *e && used < sizeof out->extensions; e++)
                used += (size_t)snprintf(out->extensions + used, sizeof out->extensions - used, "%s%s", used ? " " : "", *e);
            gdk->strfreev(extensions);
            out->writable = gdk->format_is_writable(format) != 0;
        }
        count++;
    }
    gdk->slist_free(list);
    return count;
}

/* How well `pattern` matches (gdk-pixbuf's format_check): mask ' ' the byte equals, '!' differs,
 * 'z' is zero, 'n' is not, 'x' anything; a leading '*' lets the pattern start anywhere. */
static int pattern_score(const module_pattern *pattern, const uint8_t *bytes, size_t size) {
    const uint8_t *prefix = (const uint8_t *)pattern->prefix;
    const char *mask = pattern->mask;
    int anchored = 1;
    if (mask && mask[0] == '*') {
        prefix++;
        mask++;
        anchored = 0;
    }
    for (size_t i = 0; i < size; i++) {
        size_t j = 0;
        for (; i + j < size && prefix[j] != 0; j++) {
            char m = mask ? mask[j] : ' ';
            uint8_t b = bytes[i + j];
            if ((m == ' ' && b != prefix[j]) || (m == '!' && b == prefix[j]) || (m == 'z' && b != 0) || (m == 'n' && b == 0))
                break;
        }
        if (prefix[j] == 0) return pattern->relevance;
        if (anchored) break;
    }
    return 0;
}

int sumi_pixbuf_sniff(const uint8_t *bytes, size_t size, char *name, size_t name_size) {
    const char *error = NULL;
    const sumi_pixbuf_api *gdk = sumi_pixbuf_open(&error);
    if (!gdk) return -1;
    sumi_gslist *list = gdk->get_formats();
    int best = 0;
    for (sumi_gslist *item = list; item; item = item->next) {
        module_format *format = item->data;
        if (!format || !format->name || format->disabled || !format->signature) continue;
        for (module_pattern *pattern = format->signature; pattern->prefix; pattern++) {
            int score = pattern_score(pattern, bytes, size);
            if (score > best) {
                best = score;
                snprintf(name, name_size, "%s", format->name);
            }
        }
    }
    gdk->slist_free(list);
    return best > 0 ? 0 : -1;
}

static void on_size_prepared(sumi_pixbuf_loader *loader, int width, int height, void *data) {
    sumi_pixbuf_size_limit *limit = data;
    limit->width = width;
    limit->height = height;
    if (width <= 0 || height <= 0 || (long long)width * (long long)height > limit->max_pixels) {
        limit->refused = 1;
        api.loader_set_size(loader, 0, 0);
    }
}

void sumi_pixbuf_limit_size(sumi_pixbuf_loader *loader, sumi_pixbuf_size_limit *limit) {
    api.signal_connect_data(loader, "size-prepared", (void (*)(void))on_size_prepared, limit, NULL, 0);
}
