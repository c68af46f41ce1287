/* libwebp still-image decoding and lossy encoding. */
#include "sumi_codecs.h"
#include "sumi_pixels.h"
#include "sumi_codec_libraries.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int sumi_webp_probe(const uint8_t *data, size_t size, int *width, int *height, int *has_alpha, char *error,
                    size_t error_size) {
    if (sumi_libwebp_open(error, error_size) != 0) return -1;
    WebPBitstreamFeatures features;
    if (sumi_webp_features(data, size, &features) != VP8_STATUS_OK) {
        snprintf(error, error_size, "corrupt WebP header");
        return -1;
    }
    *width = features.width;
    *height = features.height;
    *has_alpha = features.has_alpha;
    return 0;
}

int sumi_webp_decode_ring(const uint8_t *data, size_t size, int width, int height, int has_alpha,
                          const sumi_ring *ring, char *error, size_t error_size) {
    if (sumi_libwebp_open(error, error_size) != 0) return -1;
    WebPBitstreamFeatures features;
    if (sumi_webp_features(data, size, &features) == VP8_STATUS_OK && features.has_animation) {
        snprintf(error, error_size, "animated WebP is not supported");
        return -1;
    }
    /* libwebp's incremental decoder writes rows in order into one whole-image buffer. A ring as
     * tall as the image whose band is the whole image (a whole decode) is that buffer, and all the
     * data goes in at once.
     * Otherwise the buffer is reserved, not used: each row is copied into the ring as soon as
     * libwebp has finished it, and the pages below are handed back, so only the rows in progress
     * take memory (libwebp never reads its output back). */
    size_t stride = (size_t)width * 4, bytes = stride * (size_t)height;
    int direct = ring->rows >= height && ring->band >= height && ring->stride == stride;
    uint8_t *buffer = direct ? ring->base
                    : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (buffer == MAP_FAILED) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    if (direct && ring->wait(ring->context, height) != 0) {
        snprintf(error, error_size, "stopped by a failure elsewhere in the pipeline");
        return -1;
    }
    WebPIDecoder *decoder = sumi_libwebp.WebPINewRGB(MODE_RGBA, buffer, bytes, (int)stride);
    if (!decoder) {
        if (!direct) munmap(buffer, bytes);
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE), given_back = 0, fed = 0;
    int emitted = 0, result = 0;
    for (;;) {
        size_t chunk = direct ? size - fed : size - fed < 65536 ? size - fed : 65536;
        fed += chunk;
        VP8StatusCode status = sumi_libwebp.WebPIUpdate(decoder, data, fed);
        int last = 0;
        if (!sumi_libwebp.WebPIDecGetRGB(decoder, &last, NULL, NULL, NULL)) last = emitted;
        if (last > height) last = height;
        for (; emitted < last; emitted++) {
            if (ring->wait(ring->context, emitted + 1) != 0) {
                snprintf(error, error_size, "stopped by a failure elsewhere in the pipeline");
                result = -1;
                goto done;
            }
            uint8_t *row = ring->base + (size_t)(emitted % ring->rows) * ring->stride;
            if (!direct) memcpy(row, buffer + (size_t)emitted * stride, stride);
            if (has_alpha) sumi_premultiply(row, (size_t)width);
            ring->done(ring->context, emitted + 1);
        }
        size_t below = (size_t)emitted * stride / page * page;
        if (!direct && below > given_back) {
            madvise(buffer + given_back, below - given_back, MADV_DONTNEED);
            given_back = below;
        }
        if (status == VP8_STATUS_OK) break;
        if (status != VP8_STATUS_SUSPENDED || chunk == 0) {
            snprintf(error, error_size, "corrupt or truncated WebP data");
            result = -1;
            goto done;
        }
    }
    if (emitted != height) {
        snprintf(error, error_size, "corrupt or truncated WebP data");
        result = -1;
    }
done:
    sumi_libwebp.WebPIDelete(decoder);
    if (!direct) munmap(buffer, bytes);
    return result;
}

int sumi_webp_encode(const uint8_t *rgba, int width, int height, size_t stride, int quality,
                     uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    if (sumi_libwebp_open(error, error_size) != 0) return -1;
    uint8_t *straight = malloc((size_t)width * (size_t)height * 4);
    if (!straight) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    for (int y = 0; y < height; y++) {
        sumi_unpremultiply(rgba + (size_t)y * stride, straight + (size_t)y * (size_t)width * 4, (size_t)width);
    }
    uint8_t *encoded = NULL;
    size_t size = sumi_libwebp.WebPEncodeRGBA(straight, width, height, width * 4, (float)quality, &encoded);
    free(straight);
    if (size == 0 || !encoded) {
        snprintf(error, error_size, "WebP encoding failed (the image may exceed 16383x16383)");
        return -1;
    }
    /* Copy into a malloc'd buffer so every encoder's output is released by sumi_free. */
    uint8_t *copy = malloc(size);
    if (!copy) {
        sumi_libwebp.WebPFree(encoded);
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    memcpy(copy, encoded, size);
    sumi_libwebp.WebPFree(encoded);
    *out = copy;
    *out_size = size;
    return 0;
}
