#ifndef SUMI_PIXBUF_H
#define SUMI_PIXBUF_H

// gdk-pixbuf (GIF, BMP and TIFF) with GObject and GIO behind it is opened on the first file that
// needs it, not at start-up; its functions are called through `sumi_pixbuf_api`. Its ABI is
// declared here (stable since gdk-pixbuf 2.0), so the build needs none of the GLib headers.

#include <stddef.h>
#include <stdint.h>

/// The shared library opened for GIF and BMP input and TIFF input and output.
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
} sumi_pixbuf_api;

/// GDK_COLORSPACE_RGB, the one colour space of gdk_pixbuf_new.
#define SUMI_PIXBUF_COLORSPACE_RGB 0

/// Opens gdk-pixbuf on first use (once, whichever thread asks first). Returns the table, or NULL
/// with `*error` set to why the library could not be used.
const sumi_pixbuf_api *_Nullable sumi_pixbuf_open(const char *_Nullable *_Nonnull error);

#endif
