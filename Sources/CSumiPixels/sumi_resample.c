/* The resampler's hot loops (see sumi_resample.h). A pixel times a weight is an 8-bit value times
 * a 16-bit weight; two such products are added in 32 bits (SSE2's pmaddwd) before the 32-bit
 * running sum. Integer sums do not depend on their order, and they wrap as the scalar loops' do, so
 * the bytes equal the scalar loops' exactly. */
#include "sumi_resample.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { PRECISION_BITS = 14 };

size_t sumi_resample_row_scratch(size_t source_width) { return (source_width + 1) * 16; }

#if defined(__SSE2__)

/* Rounds and clamps the sums of two pixels (a, b: each r g b a in 32 bits) to eight bytes:
 * saturated to 16 bits, colour bounded by the pixel's alpha, saturated to 0...255. Clamping and
 * the bound commute, since both keep order. */
static inline __m128i pixels16(__m128i a, __m128i b) {
    const __m128i half = _mm_set1_epi32(1 << (PRECISION_BITS - 1));
    a = _mm_srai_epi32(_mm_add_epi32(a, half), PRECISION_BITS);
    b = _mm_srai_epi32(_mm_add_epi32(b, half), PRECISION_BITS);
    __m128i v = _mm_packs_epi32(a, b);
    __m128i alpha = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xFF), 0xFF);
    return _mm_min_epi16(v, alpha);
}

void sumi_resample_row(const uint8_t *source, size_t source_width, uint8_t *destination,
                       size_t destination_width, const int32_t *starts, const int32_t *counts,
                       size_t taps, const int16_t *weights, void *scratch) {
    const __m128i zero = _mm_setzero_si128();
    /* pairs[j]: pixel j's channels interleaved with pixel j + 1's (r_j r_j+1 g_j g_j+1 ...) in 16
     * bits, the last pixel's with zeros: then two taps of a destination pixel are one pmaddwd. */
    __m128i *pairs = scratch;
    size_t j = 0;
    for (; j + 1 < source_width; j++) {
        __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)(source + 4 * j));
        pairs[j] = _mm_unpacklo_epi8(_mm_unpacklo_epi8(v, _mm_srli_si128(v, 4)), zero);
    }
    if (source_width > 0) {
        int32_t last;
        memcpy(&last, source + 4 * j, 4);
        pairs[j] = _mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128(last), zero), zero);
    }
    for (size_t x = 0; x < destination_width; x++) {
        const int16_t *w = weights + x * taps;
        const __m128i *p = pairs + starts[x];
        size_t n = (size_t)counts[x], k = 0;
        __m128i sums = zero;
        for (; k + 1 < n; k += 2) {
            __m128i pair = _mm_set1_epi32((int32_t)((uint32_t)(uint16_t)w[k] | (uint32_t)(uint16_t)w[k + 1] << 16));
            sums = _mm_add_epi32(sums, _mm_madd_epi16(_mm_load_si128(p + k), pair));
        }
        /* An odd last tap: the following pixel in its pair is weighed 0. */
        if (k < n) sums = _mm_add_epi32(sums, _mm_madd_epi16(_mm_load_si128(p + k), _mm_set1_epi32((uint16_t)w[k])));
        __m128i v = pixels16(sums, sums);
        int32_t out = _mm_cvtsi128_si32(_mm_packus_epi16(v, v));
        memcpy(destination + 4 * x, &out, 4);
    }
}

void sumi_resample_columns(const uint8_t *const *rows, size_t count, const int16_t *weights,
                           uint8_t *destination, size_t row_bytes) {
    const __m128i zero = _mm_setzero_si128();
    size_t i = 0;
    /* Sixteen bytes (four pixels) at a time, every row's taps summed in registers: two rows a
     * pmaddwd, an odd last row paired with itself at weight 0. */
    for (; i + 16 <= row_bytes; i += 16) {
        __m128i s0 = zero, s1 = zero, s2 = zero, s3 = zero;
        for (size_t k = 0; k < count; k += 2) {
            int second = k + 1 < count;
            __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(rows[k] + i));
            __m128i b = second ? _mm_loadu_si128((const __m128i *)(const void *)(rows[k + 1] + i)) : a;
            __m128i pair = _mm_set1_epi32((int32_t)((uint32_t)(uint16_t)weights[k]
                                                    | (uint32_t)(uint16_t)(second ? weights[k + 1] : 0) << 16));
            __m128i low = _mm_unpacklo_epi8(a, b), high = _mm_unpackhi_epi8(a, b);
            s0 = _mm_add_epi32(s0, _mm_madd_epi16(_mm_unpacklo_epi8(low, zero), pair));
            s1 = _mm_add_epi32(s1, _mm_madd_epi16(_mm_unpackhi_epi8(low, zero), pair));
            s2 = _mm_add_epi32(s2, _mm_madd_epi16(_mm_unpacklo_epi8(high, zero), pair));
            s3 = _mm_add_epi32(s3, _mm_madd_epi16(_mm_unpackhi_epi8(high, zero), pair));
        }
        _mm_storeu_si128((__m128i *)(void *)(destination + i), _mm_packus_epi16(pixels16(s0, s1), pixels16(s2, s3)));
    }
    for (; i < row_bytes; i += 4) {
        __m128i s = zero;
        for (size_t k = 0; k < count; k++) {
            int32_t px;
            memcpy(&px, rows[k] + i, 4);
            __m128i v = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(px), zero), zero);
            s = _mm_add_epi32(s, _mm_madd_epi16(v, _mm_set1_epi32((uint16_t)weights[k])));
        }
        __m128i v = pixels16(s, s);
        int32_t out = _mm_cvtsi128_si32(_mm_packus_epi16(v, v));
        memcpy(destination + i, &out, 4);
    }
}

#else

static inline uint8_t clamp_byte(int32_t sum) {
    int32_t v = (int32_t)((uint32_t)sum + (1u << (PRECISION_BITS - 1))) >> PRECISION_BITS;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* One premultiplied pixel from its four sums (colour kept at or below alpha). */
static inline void store_pixel(uint8_t *out, const int32_t sums[4]) {
    uint8_t a = clamp_byte(sums[3]);
    for (int c = 0; c < 3; c++) {
        uint8_t v = clamp_byte(sums[c]);
        out[c] = v < a ? v : a;
    }
    out[3] = a;
}

void sumi_resample_row(const uint8_t *source, size_t source_width, uint8_t *destination,
                       size_t destination_width, const int32_t *starts, const int32_t *counts,
                       size_t taps, const int16_t *weights, void *scratch) {
    (void)source_width;
    (void)scratch;
    for (size_t x = 0; x < destination_width; x++) {
        const int16_t *w = weights + x * taps;
        const uint8_t *p = source + 4 * (size_t)starts[x];
        uint32_t sums[4] = {0, 0, 0, 0};
        for (int32_t k = 0; k < counts[x]; k++, p += 4)
            for (int c = 0; c < 4; c++) sums[c] += (uint32_t)((int32_t)p[c] * w[k]);
        int32_t s[4] = {(int32_t)sums[0], (int32_t)sums[1], (int32_t)sums[2], (int32_t)sums[3]};
        store_pixel(destination + 4 * x, s);
    }
}

void sumi_resample_columns(const uint8_t *const *rows, size_t count, const int16_t *weights,
                           uint8_t *destination, size_t row_bytes) {
    for (size_t i = 0; i < row_bytes; i += 4) {
        uint32_t sums[4] = {0, 0, 0, 0};
        for (size_t k = 0; k < count; k++)
            for (int c = 0; c < 4; c++) sums[c] += (uint32_t)((int32_t)rows[k][i + c] * weights[k]);
        int32_t s[4] = {(int32_t)sums[0], (int32_t)sums[1], (int32_t)sums[2], (int32_t)sums[3]};
        store_pixel(destination + i, s);
    }
}

#endif
