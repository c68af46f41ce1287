/* libwebp still-image decoding and lossy encoding. */
#include "sumi_codecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/encode.h>

int sumi_webp_probe(const uint8_t *data, size_t size, int *width, int *height, int *has_alpha) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) return -1;
    *width = features.width;
    *height = features.height;
    *has_alpha = features.has_alpha;
    return 0;
}

int sumi_webp_decode(const uint8_t *data, size_t size, uint8_t *out, int width, int height,
                     char *error, size_t error_size) {
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures(data, size, &features);
    if (status == VP8_STATUS_OK && features.has_animation) {
        snprintf(error, error_size, "animated WebP is not supported");
        return -1;
    }
    size_t bytes = (size_t)width * (size_t)height * 4;
    if (!WebPDecodeRGBAInto(data, size, out, bytes, width * 4)) {
        snprintf(error, error_size, "corrupt or truncated WebP data");
        return -1;
    }
    if (features.has_alpha) sumi_premultiply(out, (size_t)width * (size_t)height);
    return 0;
}

int sumi_webp_encode(const uint8_t *rgba, int width, int height, size_t stride, int quality,
                     uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    uint8_t *straight = malloc((size_t)width * (size_t)height * 4);
    if (!straight) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    for (int y = 0; y < height; y++) {
        sumi_unpremultiply(rgba + (size_t)y * stride, straight + (size_t)y * (size_t)width * 4, (size_t)width);
    }
    uint8_t *encoded = NULL;
    size_t size = WebPEncodeRGBA(straight, width, height, width * 4, (float)quality, &encoded);
    free(straight);
    if (size == 0 || !encoded) {
        snprintf(error, error_size, "WebP encoding failed (the image may exceed 16383x16383)");
        return -1;
    }
    /* Copy into a malloc'd buffer so every encoder's output is released by sumi_free. */
    uint8_t *copy = malloc(size);
    if (!copy) {
        WebPFree(encoded);
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    memcpy(copy, encoded, size);
    WebPFree(encoded);
    *out = copy;
    *out_size = size;
    return 0;
}
