/* The resampler's two passes over premultiplied RGBA with 16-bit fixed-point weights (14 fraction
 * bits), for SumiKit's Resampler: the same integer arithmetic as its scalar loops, so the same
 * bytes. SSE2 (every x86-64) where the compiler targets it, plain C elsewhere. */
#ifndef SUMI_RESAMPLE_H
#define SUMI_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of scratch `sumi_resample_row` needs for a source row `source_width` pixels wide. */
size_t sumi_resample_row_scratch(size_t source_width);

/* The horizontal pass over one row: destination pixel x is the sum over k < counts[x] of source
 * pixel starts[x] + k times weights[x * taps + k], rounded, clamped to 0...255 and the colour
 * channels to the alpha. `scratch` holds `sumi_resample_row_scratch(source_width)` bytes, aligned
 * to 16. */
void sumi_resample_row(const uint8_t *source, size_t source_width, uint8_t *destination,
                       size_t destination_width, const int32_t *starts, const int32_t *counts,
                       size_t taps, const int16_t *weights, void *scratch);

/* The vertical pass for one output row: byte i of `destination` is the sum over k < count of byte
 * i of rows[k] times weights[k], rounded and clamped as above; `row_bytes` is a multiple of 4. */
void sumi_resample_columns(const uint8_t *const *rows, size_t count, const int16_t *weights,
                           uint8_t *destination, size_t row_bytes);

#endif
