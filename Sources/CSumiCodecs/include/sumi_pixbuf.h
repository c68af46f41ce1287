#ifndef SUMI_PIXBUF_H
#define SUMI_PIXBUF_H

// gdk-pixbuf (TIFF output, and input of the formats its installed loaders read beyond Sumi's own:
// ICO, TGA, XPM, ...) with GObject and GIO behind it is opened on the first file that needs it,
// not at start-up; its functions are called through `sumi_pixbuf_api`. Its ABI is
// declared here (stable since gdk-pixbuf 2.0), so the build needs none of the GLib headers.

#include <stddef.h>
#include <stdint.h>

/// The shared library opened for TIFF output and the other formats its loaders read.
#define SUMI_PIXBUF_LIBRARY "libgdk_pixbuf-2.0.so.0"

typedef struct sumi_pixbuf sumi_pixbuf;               // GdkPixbuf
typedef struct sumi_pixbuf_loader sumi_pixbuf_loader; // GdkPixbufLoader

/// GLib's GError.
typedef struct sumi_gerror {
    uint32_t domain;
    int code;
    char *_Nullable message;
} sumi_gerror;

/// The gdk-pixbuf, GObject and GLib functions Sumi uses (gboolean is int, gsize is size_t).
typedef struct sumi_pixbuf_api {
    sumi_pixbuf_loader *_Nullable (*_Nonnull loader_new_with_type)(const char *_Nonnull type,
                                                                   sumi_gerror *_Nullable *_Nullable error);
    int (*_Nonnull loader_write)(sumi_pixbuf_loader *_Nonnull loader, const uint8_t *_Nullable bytes, size_t count,
                                 sumi_gerror *_Nullable *_Nullable error);
    int (*_Nonnull loader_close)(sumi_pixbuf_loader *_Nonnull loader, sumi_gerror *_Nullable *_Nullable error);
    sumi_pixbuf *_Nullable (*_Nonnull loader_get_pixbuf)(sumi_pixbuf_loader *_Nonnull loader);
    sumi_pixbuf *_Nullable (*_Nonnull new_pixbuf)(int colorspace, int has_alpha, int bits_per_sample, int width,
                                                 int height);
    int (*_Nonnull get_width)(const sumi_pixbuf *_Nonnull pixbuf);
    int (*_Nonnull get_height)(const sumi_pixbuf *_Nonnull pixbuf);
    int (*_Nonnull get_n_channels)(const sumi_pixbuf *_Nonnull pixbuf);
    int (*_Nonnull get_rowstride)(const sumi_pixbuf *_Nonnull pixbuf);
    int (*_Nonnull get_bits_per_sample)(const sumi_pixbuf *_Nonnull pixbuf);
    int (*_Nonnull get_has_alpha)(const sumi_pixbuf *_Nonnull pixbuf);
    const uint8_t *_Nullable (*_Nonnull read_pixels)(const sumi_pixbuf *_Nonnull pixbuf);
    uint8_t *_Nullable (*_Nonnull get_pixels)(const sumi_pixbuf *_Nonnull pixbuf);
    int (*_Nonnull save_to_bufferv)(sumi_pixbuf *_Nonnull pixbuf, char *_Nullable *_Nonnull buffer,
                                    size_t *_Nonnull size, const char *_Nonnull type,
                                    char *_Nullable *_Nullable keys, char *_Nullable *_Nullable values,
                                    sumi_gerror *_Nullable *_Nullable error);
    void (*_Nonnull object_unref)(void *_Nonnull object);
    void (*_Nonnull error_free)(sumi_gerror *_Nonnull error);
    void (*_Nonnull free)(void *_Nullable memory);
    char *_Nullable (*_Nonnull base64_encode)(const uint8_t *_Nullable bytes, size_t count);
    /// A GSList of GdkPixbufFormat (the list freed with slist_free, not the formats).
    struct sumi_gslist *_Nullable (*_Nonnull get_formats)(void);
    void (*_Nonnull slist_free)(struct sumi_gslist *_Nullable list);
    void (*_Nonnull strfreev)(char *_Nullable *_Nullable strings);
    char *_Nullable *_Nullable (*_Nonnull format_get_extensions)(void *_Nonnull format);
    int (*_Nonnull format_is_writable)(void *_Nonnull format);
    void (*_Nonnull loader_set_size)(sumi_pixbuf_loader *_Nonnull loader, int width, int height);
    unsigned long (*_Nonnull signal_connect_data)(void *_Nonnull instance, const char *_Nonnull signal,
                                                  void (*_Nonnull handler)(void), void *_Nullable data,
                                                  void *_Nullable destroy, int flags);
    unsigned (*_Nonnull log_set_handler)(const char *_Nullable domain, int levels,
                                         void (*_Nonnull handler)(const char *_Nullable, int, const char *_Nullable,
                                                                  void *_Nullable),
                                         void *_Nullable data);
} sumi_pixbuf_api;

/// GLib's singly linked list.
typedef struct sumi_gslist {
    void *_Nullable data;
    struct sumi_gslist *_Nullable next;
} sumi_gslist;

/// One format gdk-pixbuf's installed loaders read.
typedef struct sumi_pixbuf_format {
    char name[32];
    char description[96];
    /// File extensions, separated by spaces.
    char extensions[96];
    int writable;
} sumi_pixbuf_format;

/// Fills up to `capacity` formats of the installed, enabled loaders; returns how many there are
/// (-1 when gdk-pixbuf cannot be opened).
int sumi_pixbuf_list_formats(sumi_pixbuf_format *_Nonnull formats, int capacity);

/// The loader whose signature best matches the first `size` bytes, as gdk-pixbuf itself picks it
/// (copied into `name`); returns 0, or -1 when none matches or gdk-pixbuf cannot be opened.
int sumi_pixbuf_sniff(const uint8_t *_Nonnull bytes, size_t size, char *_Nonnull name, size_t name_size);

/// The size a loader announces before it allocates its image; when it is more than `max_pixels`,
/// the loader is told to stop (the size set to 0 x 0, gdk-pixbuf's convention for "do not
/// allocate") and `refused` is set.
typedef struct sumi_pixbuf_size_limit {
    long long max_pixels;
    int width, height;
    int refused;
} sumi_pixbuf_size_limit;

/// Watches `loader`'s size-prepared signal with `limit`, which must outlive the loader's writes.
void sumi_pixbuf_limit_size(sumi_pixbuf_loader *_Nonnull loader, sumi_pixbuf_size_limit *_Nonnull limit);

/// GDK_COLORSPACE_RGB, the one colour space of gdk_pixbuf_new.
#define SUMI_PIXBUF_COLORSPACE_RGB 0

/// Opens gdk-pixbuf on first use (once, whichever thread asks first). Returns the table, or NULL
/// with `*error` set to why the library could not be used.
const sumi_pixbuf_api *_Nullable sumi_pixbuf_open(const char *_Nullable *_Nonnull error);

#endif
