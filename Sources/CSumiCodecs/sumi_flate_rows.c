/*
 * Filtered deflate (sumi_flate.h). Bands start at fixed rows, and zlib's output depends only on its
 * input and the points where the strategy changes, so the bytes do not depend on how rows arrive.
 */
#include "sumi_flate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sumi_pixels.h"
#include "sumi_png_calls.h"

enum { BAND_ROWS = 16, OUT_BYTES = 1 << 17 };

struct sumi_flate_rows {
    sumi_flate_options options;
    sumi_flate_sink sink;
    void *context;
    int bands;               /* whether the strategy is chosen per band */
    size_t rows;             /* rows added */
    uint8_t *previous;       /* the row above the next one (zeros above the first) */
    uint8_t *band;           /* the band's filtered rows */
    size_t band_size;        /* bytes in `band` */
    size_t band_small;       /* small residuals among them */
    int strategy;
    z_stream z;
    int z_ready;
    int handed;              /* whether the sink has had bytes */
    uint8_t *out;            /* zlib's output not yet handed to the sink */
};

/* Hands what zlib produced to the sink and gives zlib the whole buffer again. */
static int hand_over(sumi_flate_rows *f) {
    size_t produced = OUT_BYTES - f->z.avail_out;
    if (produced) {
        if (!f->handed && f->options.default_header && produced >= 2) f->out[1] = 0x9C;
        f->handed = 1;
        if (f->sink(f->context, f->out, produced) != 0) return -1;
    }
    f->z.next_out = f->out;
    f->z.avail_out = OUT_BYTES;
    return 0;
}

/* Feeds `length` bytes (or none, ending the stream when `flush` is Z_FINISH) to zlib, in pieces
 * zlib's 32-bit counts can hold. */
static int compress_bytes(sumi_flate_rows *f, const uint8_t *data, size_t length, int flush) {
    const size_t piece = (size_t)1 << 30;
    while (length > piece) {
        if (compress_bytes(f, data, piece, Z_NO_FLUSH) != 0) return -1;
        data += piece;
        length -= piece;
    }
    f->z.next_in = (Bytef *)(uintptr_t)data;
    f->z.avail_in = (uInt)length;
    for (;;) {
        int status = deflate(&f->z, flush);
        if (status == Z_STREAM_ERROR) return -1;
        if (f->z.avail_out == 0 && hand_over(f) != 0) return -1;
        if (flush == Z_FINISH ? status == Z_STREAM_END : f->z.avail_in == 0 && f->z.avail_out > 0) return 0;
    }
}

/* Compresses the band's rows with the strategy its content asks for. */
static int flush_band(sumi_flate_rows *f) {
    if (f->band_size == 0) return 0;
    int strategy = f->band_small * 10 > f->band_size ? Z_FILTERED : Z_DEFAULT_STRATEGY;
    if (f->bands && strategy != f->strategy) {
        int level = f->options.level;
        if (strategy == Z_FILTERED && level > f->options.filtered_level) level = f->options.filtered_level;
        /* deflateParams ends the current block first, and needs room for it. */
        int status;
        while ((status = deflateParams(&f->z, level, strategy)) == Z_BUF_ERROR)
            if (f->z.avail_out == OUT_BYTES || hand_over(f) != 0) return -1;
        if (status != Z_OK) return -1;
        f->strategy = strategy;
    }
    if (compress_bytes(f, f->band, f->band_size, Z_NO_FLUSH) != 0) return -1;
    f->band_size = 0;
    f->band_small = 0;
    return 0;
}

/* Counts the band's newest row and compresses the band when it is full. */
static int row_added(sumi_flate_rows *f, char *error, size_t error_size) {
    size_t n = f->options.row_bytes;
    if (f->bands) f->band_small += sumi_png_small_residuals(f->band + f->band_size + 1, n);
    f->band_size += n + 1;
    f->rows++;
    if (f->rows % BAND_ROWS == 0 && flush_band(f) != 0) {
        snprintf(error, error_size, "Flate compression failed");
        return -1;
    }
    return 0;
}

void sumi_flate_rows_free(sumi_flate_rows *f) {
    if (!f) return;
    if (f->z_ready) deflateEnd(&f->z);
    free(f->previous);
    free(f->band);
    free(f->out);
    free(f);
}

sumi_flate_rows *sumi_flate_rows_begin(const sumi_flate_options *options, sumi_flate_sink sink, void *context,
                                       char *error, size_t error_size) {
    if (sumi_zlib_open(error, error_size) != 0) return NULL;
    if (!options->indices && (options->filter_count < 1 || options->filter_count > 5)) {
        snprintf(error, error_size, "Flate rows need 1 to 5 filter types, not %d", options->filter_count);
        return NULL;
    }
    sumi_flate_rows *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    f->options = *options;
    f->options.level = options->level < 0 ? 0 : options->level > 9 ? 9 : options->level;
    f->sink = sink;
    f->context = context;
    f->bands = !options->indices && f->options.level >= 4;
    size_t n = options->row_bytes;
    f->previous = calloc(n + 1, 1);
    f->band = malloc((n + 1) * BAND_ROWS);
    f->out = malloc(OUT_BYTES);
    f->strategy = Z_DEFAULT_STRATEGY;
    if (!f->previous || !f->band || !f->out
        || deflateInit2(&f->z, f->options.level, Z_DEFLATED, 15, 8, f->strategy) != Z_OK) {
        snprintf(error, error_size, "out of memory");
        sumi_flate_rows_free(f);
        return NULL;
    }
    f->z_ready = 1;
    f->z.next_out = f->out;
    f->z.avail_out = OUT_BYTES;
    return f;
}

int sumi_flate_rows_add(sumi_flate_rows *f, const uint8_t *samples, char *error, size_t error_size) {
    size_t n = f->options.row_bytes;
    uint8_t *dest = f->band + f->band_size;
    if (f->options.indices)
        sumi_png_apply_filter(sumi_png_index_filter(samples, f->previous, n), samples, f->previous, n, 1, dest);
    else
        sumi_png_filter_row(samples, f->previous, n, f->options.bytes_per_pixel, f->options.filters,
                            f->options.filter_count, dest);
    memcpy(f->previous, samples, n);
    return row_added(f, error, error_size);
}

int sumi_flate_rows_add_filtered(sumi_flate_rows *f, const uint8_t *filtered, char *error, size_t error_size) {
    memcpy(f->band + f->band_size, filtered, f->options.row_bytes + 1);
    return row_added(f, error, error_size);
}

int sumi_flate_rows_finish(sumi_flate_rows *f, char *error, size_t error_size) {
    if (flush_band(f) != 0 || compress_bytes(f, NULL, 0, Z_FINISH) != 0 || hand_over(f) != 0) {
        snprintf(error, error_size, "Flate compression failed");
        return -1;
    }
    return 0;
}
