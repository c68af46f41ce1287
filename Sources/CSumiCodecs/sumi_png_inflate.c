/* The common PNG decoded in one piece: 8-bit RGB or RGBA, not interlaced, no tRNS, read whole.
 * libdeflate inflates the joined image data in one call (about twice zlib's speed, the larger part
 * of a PNG's decode) and the rows are unfiltered here; every other PNG, and every file this path
 * finds anything unusual in, is decoded by libpng, which then gives libpng's own messages. */
#include "sumi_png_inflate.h"
#include "sumi_codecs.h"
#include "sumi_pixels.h"

#include <stdlib.h>
#include <string.h>

#include "sumi_png_calls.h"

static uint32_t load_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* A chunk's type letters: the fifth bit of the first is clear for a critical chunk. */
static int is_critical(const uint8_t *type) { return (type[0] & 0x20) == 0; }

/* Whether the chunk at `at` (its length field) lies wholly inside the file and, unless `verified`,
 * carries the CRC of its type and data. */
static int chunk_fits(const uint8_t *data, size_t size, size_t at, int verified, uint32_t *length) {
    if (size < 12 || at > size - 12) return 0;
    uint32_t n = load_be32(data + at);
    if (n > 0x7fffffffu || n > size - 12 - at) return 0;
    if (!verified && libdeflate_crc32(0, data + at + 4, (size_t)n + 4) != load_be32(data + at + 8 + n)) return 0;
    *length = n;
    return 1;
}

/* The PNG filters undone for one row of `n` bytes at `bpp` bytes a pixel (3 or 4), from the filtered
 * bytes `in` and the previous row's result `prior` (zeros above the first row) into `out`. */
static int unfilter(int filter, const uint8_t *in, const uint8_t *prior, uint8_t *out, size_t n, size_t bpp) {
    size_t i;
    switch (filter) {
    case 0:
        memcpy(out, in, n);
        return 1;
    case 1:
        memcpy(out, in, bpp);
        for (i = bpp; i < n; i++) out[i] = (uint8_t)(in[i] + out[i - bpp]);
        return 1;
    case 2:
        for (i = 0; i < n; i++) out[i] = (uint8_t)(in[i] + prior[i]);
        return 1;
    case 3:
        for (i = 0; i < bpp; i++) out[i] = (uint8_t)(in[i] + (prior[i] >> 1));
        for (; i < n; i++) out[i] = (uint8_t)(in[i] + ((out[i - bpp] + prior[i]) >> 1));
        return 1;
    case 4:
        for (i = 0; i < bpp; i++) out[i] = (uint8_t)(in[i] + prior[i]);
        for (; i < n; i++) {
            int a = out[i - bpp], b = prior[i], c = prior[i - bpp];
            int pa = b - c, pb = a - c;
            int pc = pa + pb;
            pa = pa < 0 ? -pa : pa;
            pb = pb < 0 ? -pb : pb;
            pc = pc < 0 ? -pc : pc;
            int predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
            out[i] = (uint8_t)(in[i] + predictor);
        }
        return 1;
    default:
        return 0;
    }
}

/* The raw bytes (a filter byte and the row's samples, per row) an RGBA image's rows need beside the
 * image: up to a phone's full-page screenshot (1440x3200: 18 MB); a larger RGBA image is left to
 * libpng's row loop rather than held about twice. */
#define SEPARATE_RAW_LIMIT ((size_t)24 << 20)

int sumi_png_inflate_whole(const uint8_t *data, size_t size, size_t idat, int width, int height, int channels,
                           int verified, const sumi_ring *ring) {
    if (width <= 0 || height <= 0 || (channels != 3 && channels != 4)) return 1;
    if (ring->rows < height || ring->stride < (size_t)width * 4) return 1;
    /* `idat` is where libpng stopped: just past the first IDAT chunk's length and type. */
    if (idat < 8 || idat > size || memcmp(data + idat - 4, "IDAT", 4) != 0) return 1;

    /* The IDAT chunks, then the chunks after them up to IEND: all whole, with their CRCs. */
    size_t at = idat - 8, first = at, joined_size = 0;
    int count = 0;
    uint32_t n = 0;
    while (chunk_fits(data, size, at, verified, &n) && memcmp(data + at + 4, "IDAT", 4) == 0) {
        joined_size += n;
        count++;
        at += 12 + (size_t)n;
    }
    int ended = 0;
    while (chunk_fits(data, size, at, verified, &n)) {
        const uint8_t *type = data + at + 4;
        if (memcmp(type, "IEND", 4) == 0) { ended = 1; break; }
        if (is_critical(type)) return 1;
        at += 12 + (size_t)n;
    }
    if (!ended || count == 0 || joined_size < 2) return 1;

    size_t row_bytes = (size_t)width * (size_t)channels;
    size_t raw_size = (row_bytes + 1) * (size_t)height;
    if (raw_size / (size_t)height != row_bytes + 1) return 1;
    size_t image_size = ring->stride * (size_t)height;

    /* RGB's filtered rows are shorter than the RGBA rows they become: they are inflated into the
     * end of the image's own buffer and read ahead of the rows written from its start (row y's
     * pixels end at or before row y + 1's filtered bytes begin). RGBA's take a buffer of their own. */
    uint8_t *separate = NULL, *raw;
    if (raw_size <= image_size) {
        raw = ring->base + (image_size - raw_size);
    } else {
        if (raw_size > SEPARATE_RAW_LIMIT || !(separate = malloc(raw_size))) return 1;
        raw = separate;
    }
    uint8_t *joined = NULL;
    const uint8_t *compressed = data + first + 8;
    if (count > 1) {
        if (!(joined = malloc(joined_size))) { free(separate); return 1; }
        size_t filled = 0;
        for (size_t c = first; filled < joined_size; ) {
            uint32_t length = load_be32(data + c);
            memcpy(joined + filled, data + c + 8, length);
            filled += length;
            c += 12 + (size_t)length;
        }
        compressed = joined;
    }
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    enum libdeflate_result inflated = LIBDEFLATE_BAD_DATA;
    if (inflater) {
        /* The whole stream and exactly the image's bytes, its Adler-32 checked. */
        size_t used = 0;
        inflated = libdeflate_zlib_decompress_ex(inflater, compressed, joined_size, raw, raw_size, &used, NULL);
        if (inflated == LIBDEFLATE_SUCCESS && used != joined_size) inflated = LIBDEFLATE_BAD_DATA;
        libdeflate_free_decompressor(inflater);
    }
    free(joined);
    uint8_t *rows = inflated == LIBDEFLATE_SUCCESS ? calloc(2, row_bytes) : NULL;
    if (!rows) { free(separate); return 1; }

    uint8_t *prior = rows, *current = rows + row_bytes;
    int ok = 1;
    for (int y = 0; y < height && ok; y++) {
        const uint8_t *in = raw + (size_t)y * (row_bytes + 1);
        ok = unfilter(in[0], in + 1, prior, current, row_bytes, (size_t)channels);
        sumi_import_rows(current, row_bytes, channels, 0, width, 1, ring->base + (size_t)y * ring->stride);
        uint8_t *swap = prior;
        prior = current;
        current = swap;
    }
    free(rows);
    free(separate);
    return ok ? 0 : 1;
}
