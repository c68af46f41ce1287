/*
 * PNG's row filters and the choice among them. The cost loops count every byte (no early exit) in
 * blocks whose sums fit 16-bit lanes, so that the compiler makes them wide vector loops.
 */
#include "sumi_pixels.h"

/* A filtered byte's weight in the heuristic: its distance from zero read as signed, written as
 * min(v, -v) so the cost loops below vectorise (SSE2's pminub). */
static inline uint8_t magnitude(uint8_t v) {
    uint8_t negated = (uint8_t)-v;
    return v < negated ? v : negated;
}

/* Paeth's predictor in 16-bit arithmetic (vectorised in the cost loop): pa = |b - c|, pb = |a - c|,
 * pc = |a + b - 2c|, ties to a, then b. */
static inline uint8_t paeth(int16_t a, int16_t b, int16_t c) {
    int16_t pa = (int16_t)(b - c), pb = (int16_t)(a - c), pc = (int16_t)(a + b - 2 * c);
    pa = pa < 0 ? (int16_t)-pa : pa;
    pb = pb < 0 ? (int16_t)-pb : pb;
    pc = pc < 0 ? (int16_t)-pc : pc;
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* PNG filter `type` of byte i of `row` (above it `up`), i >= bpp. */
#define FILTERED(type, row, up, i, bpp)                                                                 \
    (uint8_t)((type) == 0 ? row[i]                                                                      \
              : (type) == 1 ? row[i] - row[i - bpp]                                                     \
              : (type) == 2 ? row[i] - up[i]                                                            \
              : (type) == 3 ? row[i] - ((row[i - bpp] + up[i]) >> 1)                                    \
                            : row[i] - paeth(row[i - bpp], up[i], up[i - bpp]))
/* The same for the first pixel's bytes, which have nothing to their left (a = c = 0). */
#define FILTERED_FIRST(type, row, up, i)                                                                \
    (uint8_t)((type) == 0 || (type) == 1 ? row[i]                                                       \
              : (type) == 3 ? row[i] - (up[i] >> 1)                                                     \
                            : row[i] - up[i])

/* The heuristic's cost of filter `type` for `row` (above it `up`): the sum of the filtered bytes'
 * magnitudes, in blocks of 256 whose sums (at most 256 * 128) fit 16-bit lanes. */
static size_t filter_cost(int type, const uint8_t *restrict row, const uint8_t *restrict up, size_t n, size_t bpp) {
    size_t lead = bpp < n ? bpp : n, sum = 0;
    for (size_t i = 0; i < lead; i++) sum += magnitude(FILTERED_FIRST(type, row, up, i));
    for (size_t start = lead; start < n;) {
        size_t end = n - start > 256 ? start + 256 : n;
        uint16_t block = 0;
        switch (type) {
#define COST_LOOP(t)                                                                                    \
    case t:                                                                                             \
        for (size_t i = start; i < end; i++) block = (uint16_t)(block + magnitude(FILTERED(t, row, up, i, bpp))); \
        break;
        COST_LOOP(0) COST_LOOP(1) COST_LOOP(2) COST_LOOP(3) COST_LOOP(4)
#undef COST_LOOP
        }
        sum += block;
        start = end;
    }
    return sum;
}

void sumi_png_apply_filter(int type, const uint8_t *restrict row, const uint8_t *restrict up, size_t n, size_t bpp,
                           uint8_t *restrict out) {
    uint8_t *restrict o = out + 1;
    size_t lead = bpp < n ? bpp : n;
    out[0] = (uint8_t)type;
    for (size_t i = 0; i < lead; i++) o[i] = FILTERED_FIRST(type, row, up, i);
    switch (type) {
#define WRITE_LOOP(t)                                                                                   \
    case t:                                                                                             \
        for (size_t i = lead; i < n; i++) o[i] = FILTERED(t, row, up, i, bpp);                         \
        break;
        WRITE_LOOP(0) WRITE_LOOP(1) WRITE_LOOP(2) WRITE_LOOP(3) WRITE_LOOP(4)
#undef WRITE_LOOP
    }
}

int sumi_png_filter_row(const uint8_t *row, const uint8_t *up, size_t n, size_t bpp, const uint8_t *candidates,
                        int count, uint8_t *out) {
    int best = n > 0 && count > 0 ? candidates[0] : SUMI_FILTER_NONE;
    if (n > 0 && count > 1) {
        size_t best_cost = filter_cost(best, row, up, n, bpp);
        for (int k = 1; k < count && best_cost > 0; k++) {
            size_t cost = filter_cost(candidates[k], row, up, n, bpp);
            if (cost < best_cost) {
                best_cost = cost;
                best = candidates[k];
            }
        }
    }
    sumi_png_apply_filter(best, row, up, n, bpp, out);
    return best;
}

int sumi_png_index_filter(const uint8_t *row, const uint8_t *up, size_t n) {
    if (n == 0) return SUMI_FILTER_NONE;
    size_t none_runs = 0, up_runs = 0;
    uint8_t last_up = (uint8_t)(row[0] - up[0]);
    for (size_t i = 1; i < n; i++) {
        none_runs += row[i] != row[i - 1];
        uint8_t u = (uint8_t)(row[i] - up[i]);
        up_runs += u != last_up;
        last_up = u;
    }
    return up_runs < none_runs ? SUMI_FILTER_UP : SUMI_FILTER_NONE;
}

size_t sumi_png_small_residuals(const uint8_t *filtered, size_t n) {
    size_t count = 0;
    for (size_t start = 0; start < n; start += 256) {
        size_t end = n - start > 256 ? start + 256 : n;
        uint16_t block = 0;
        for (size_t i = start; i < end; i++)
            block = (uint16_t)(block + ((uint8_t)(filtered[i] + 4) <= 8 && filtered[i] != 0));
        count += block;
    }
    return count;
}
