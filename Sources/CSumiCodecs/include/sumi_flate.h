#ifndef SUMI_FLATE_H
#define SUMI_FLATE_H

/*
 * Filtered deflate: rows of samples PNG-filtered row by row (sumi_pixels.h) and compressed as one
 * zlib stream, the zlib strategy chosen per band of 16 rows, as the PNG writer's IDAT data and the
 * PDF writer's Flate images (`/Predictor 15`) both want it. Compressed bytes go to the caller's
 * sink as they are made, in pieces of at most 128 KiB; the bytes do not depend on how the caller
 * hands its rows over. zlib is the library opened on first use (sumi_zlib.h).
 *
 * Strategy: a band where more than a tenth of the filtered bytes are small residuals (1-4 either
 * way: photographic content, smooth or noisy, where deflate's matches of length 4-5 cost more than
 * the literals they replace) is compressed with Z_FILTERED, other bands (text and UI: zeros and
 * sharp edges, whose short exact repeats are worth keeping) with the default strategy; the strategy
 * changes only between bands that differ, as each change ends a deflate block. Levels below 4 and
 * palette indices keep the default strategy throughout.
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sumi_flate_options {
    size_t row_bytes;         /* samples in a row, without its filter-type byte */
    size_t bytes_per_pixel;   /* the distance Sub, Average and Paeth look left */
    int level;                /* zlib level, 0-9 */
    /* The level of Z_FILTERED bands at most: with that strategy deflate drops short matches and so
     * searches its hash chains at nearly every byte of photo-like residuals. */
    int filtered_level;
    /* The filter types tried for each row (sumi_png_filter_row), the first of equal costs winning. */
    uint8_t filters[5];
    int filter_count;
    /* Palette indices or packed samples: None or Up by runs (sumi_png_index_filter), no bands. */
    int indices;
    /* The zlib header's level field says "default" whatever `level` (78 9C). */
    int default_header;
} sumi_flate_options;

/* Receives compressed bytes; returns 0, or non-zero to stop the compression. */
typedef int (*sumi_flate_sink)(void *context, const uint8_t *bytes, size_t length);

typedef struct sumi_flate_rows sumi_flate_rows;

/* A compressor for rows as `options` says, handing its bytes to `sink` with `context`; NULL with a
 * message in `error` when zlib cannot be opened or memory is short. */
sumi_flate_rows *sumi_flate_rows_begin(const sumi_flate_options *options, sumi_flate_sink sink, void *context,
                                       char *error, size_t error_size);
/* Filters one row of `row_bytes` samples and compresses it (by bands). */
int sumi_flate_rows_add(sumi_flate_rows *rows, const uint8_t *samples, char *error, size_t error_size);
/* Compresses one row already filtered: its filter type, then `row_bytes` filtered bytes. */
int sumi_flate_rows_add_filtered(sumi_flate_rows *rows, const uint8_t *filtered, char *error, size_t error_size);
/* Compresses what is left and ends the stream (the sink has every byte on success). */
int sumi_flate_rows_finish(sumi_flate_rows *rows, char *error, size_t error_size);
/* Frees the compressor, finished or not. */
void sumi_flate_rows_free(sumi_flate_rows *rows);

#ifdef __cplusplus
}
#endif

#endif
