/* Animated WebP: one frame of the animation, composited on its canvas as libwebpdemux's animation
   decoder draws it (blending and disposal applied). libwebpdemux is opened on first use. */
#include "sumi_codecs.h"
#include "sumi_codec_libraries.h"
#include "sumi_webpdemux.h"
#include "sumi_dl.h"

#include <stdio.h>
#include <string.h>


sumi_webpdemux_api sumi_webpdemux;
static struct sumi_dl_library library = SUMI_DL_LIBRARY(SUMI_WEBPDEMUX_LIBRARY, sumi_webpdemux_names, &sumi_webpdemux);

int sumi_webpdemux_open(const char **error) { return sumi_dl_open_library(&library, error); }

int sumi_webp_is_animated(const uint8_t *data, size_t size) {
    char unused[8];
    if (sumi_libwebp_open(unused, sizeof unused) != 0) return 0; /* the still decoder reports it */
    WebPBitstreamFeatures features;
    return sumi_webp_features(data, size, &features) == VP8_STATUS_OK && features.has_animation;
}

static WebPAnimDecoder *open_animation(const uint8_t *data, size_t size, char *error, size_t error_size) {
    const char *missing = NULL;
    if (sumi_webpdemux_open(&missing) != 0) {
        snprintf(error, error_size, "animated WebP needs libwebpdemux (" SUMI_WEBPDEMUX_LIBRARY
                 ", Debian package libwebpdemux2), which could not be loaded: %s", missing);
        return NULL;
    }
    WebPAnimDecoderOptions options;
    if (!sumi_webpdemux.WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION)) {
        snprintf(error, error_size, "libwebpdemux refused its options (a version mismatch)");
        return NULL;
    }
    options.color_mode = MODE_rgbA;   /* premultiplied RGBA, as Sumi's images are */
    options.use_threads = 0;
    WebPData webp = { data, size };
    WebPAnimDecoder *decoder = sumi_webpdemux.WebPAnimDecoderNewInternal(&webp, &options, WEBP_DEMUX_ABI_VERSION);
    if (!decoder) snprintf(error, error_size, "corrupt animated WebP (its frames cannot be read)");
    return decoder;
}

int sumi_webp_animation_info(const uint8_t *data, size_t size, int *width, int *height, int *frames,
                             char *error, size_t error_size) {
    WebPAnimDecoder *decoder = open_animation(data, size, error, error_size);
    if (!decoder) return -1;
    WebPAnimInfo info;
    int ok = sumi_webpdemux.WebPAnimDecoderGetInfo(decoder, &info);
    if (ok) {
        *width = (int)info.canvas_width;
        *height = (int)info.canvas_height;
        *frames = (int)info.frame_count;
    } else {
        snprintf(error, error_size, "corrupt animated WebP header");
    }
    sumi_webpdemux.WebPAnimDecoderDelete(decoder);
    return ok ? 0 : -1;
}

int sumi_webp_animation_frame(const uint8_t *data, size_t size, int index, uint8_t *rgba, size_t bytes,
                              char *error, size_t error_size) {
    WebPAnimDecoder *decoder = open_animation(data, size, error, error_size);
    if (!decoder) return -1;
    uint8_t *canvas = NULL;
    int timestamp = 0, status = 0;
    for (int i = 0; i <= index; i++) {
        if (!sumi_webpdemux.WebPAnimDecoderGetNext(decoder, &canvas, &timestamp)) {
            snprintf(error, error_size, "corrupt animated WebP (frame %d cannot be decoded)", i + 1);
            status = -1;
            break;
        }
    }
    if (status == 0) memcpy(rgba, canvas, bytes);
    sumi_webpdemux.WebPAnimDecoderDelete(decoder);
    return status;
}
