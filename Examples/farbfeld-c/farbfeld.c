/*
 * farbfeld: a Sumi plugin (ABI version 2) in plain C that adds a decoder for farbfeld images
 * (https://tools.suckless.org/farbfeld/: "farbfeld", width and height as 32-bit big-endian, then
 * 16-bit big-endian straight RGBA). It is registered by its magic bytes, so the built-in `decode`
 * reads .ff files. When every consumer only needs a smaller image (the host's size hint), it
 * averages whole blocks of pixels while decoding, as a JPEG decoder scales by DCT.
 *
 *   cc -shared -fPIC -O2 -fvisibility=hidden -I<sumi>/Sources/CSumiPlugin/include -o libfarbfeld.so farbfeld.c
 */
#include <stdlib.h>
#include <string.h>
#include "sumi_plugin.h"

static const sumi_api *api;

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

static int32_t decode(const sumi_format *format, sumi_call *call, const uint8_t *bytes, size_t length,
                      sumi_value **result, sumi_error *error) {
    (void)format;
    if (length < 16) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "truncated farbfeld header (%zu bytes)", length);
    uint32_t width = be32(bytes + 8), height = be32(bytes + 12);
    if (width == 0 || height == 0 || width > 65535 || height > 65535)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "unsupported farbfeld size %ux%u", width, height);
    if ((length - 16) / 8 / width < height)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "truncated farbfeld data: %ux%u needs %llu bytes, got %zu",
                              width, height, (unsigned long long)width * height * 8 + 16, length);
    /* The largest whole factor that still gives every consumer what it needs. */
    int32_t wanted_w = (int32_t)width, wanted_h = (int32_t)height;
    uint32_t factor = 1;
    if (api->size_hint(call, (int32_t)width, (int32_t)height, &wanted_w, &wanted_h))
        while (factor < 8 && width / (factor * 2) >= (uint32_t)wanted_w && height / (factor * 2) >= (uint32_t)wanted_h) factor *= 2;
    uint32_t out_w = (width + factor - 1) / factor, out_h = (height + factor - 1) / factor;
    uint8_t *pixels;
    int64_t stride;
    sumi_value *image = api->new_image(call, (int32_t)out_w, (int32_t)out_h, &pixels, &stride);
    if (image == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "cannot allocate %ux%u", out_w, out_h);
    for (uint32_t oy = 0; oy < out_h; oy++) {
        for (uint32_t ox = 0; ox < out_w; ox++) {
            uint64_t sum[4] = {0, 0, 0, 0}, n = 0;
            for (uint32_t y = oy * factor; y < (oy + 1) * factor && y < height; y++)
                for (uint32_t x = ox * factor; x < (ox + 1) * factor && x < width; x++, n++) {
                    const uint8_t *p = bytes + 16 + ((size_t)y * width + x) * 8;
                    uint32_t a = (uint32_t)p[6] << 8 | p[7];
                    for (int c = 0; c < 3; c++) sum[c] += (((uint32_t)p[c * 2] << 8 | p[c * 2 + 1]) * a + 32767) / 65535;
                    sum[3] += a;
                }
            uint8_t *dst = pixels + oy * stride + ox * 4;
            /* 16 → 8 bits: v * 255 / 65535, rounded (premultiplied) */
            for (int c = 0; c < 4; c++) dst[c] = (uint8_t)((sum[c] / n * 255 + 32767) / 65535);
        }
    }
    if (factor > 1) api->warn(call, "decoded at a reduced size (the consumers need less)");
    *result = image;
    return SUMI_OK;
}

static const uint8_t magic[] = {'f', 'a', 'r', 'b', 'f', 'e', 'l', 'd'};

static const sumi_format formats[] = {{
    .size = sizeof(sumi_format), .name = "farbfeld", .extensions = "ff,farbfeld",
    .magic = magic, .magic_length = sizeof magic, .decode = decode,
}};

static const sumi_plugin plugin = {
    .abi_version = SUMI_PLUGIN_ABI_VERSION, .size = sizeof(sumi_plugin),
    .name = "farbfeld", .version = "1.0.0", .licence = "MIT", .description = "Reads farbfeld images",
    .format_count = 1, .formats = formats,
};

SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
    if (host == NULL || host->abi_version < SUMI_PLUGIN_ABI_VERSION || host->size < sizeof(sumi_host) || host->api == NULL)
        return SUMI_ERROR_ABI;
    api = host->api;
    *out = &plugin;
    return SUMI_OK;
}
