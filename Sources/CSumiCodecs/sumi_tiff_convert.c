/* A TIFF's stored samples as 8-bit premultiplied RGBA (see sumi_tiff.h for the rules): one row of
 * a band of stored samples at a time, for sumi_tiff_decode.c's loop. */
#include "sumi_tiff_layout.h"
#include "sumi_codecs.h"
#include "sumi_pixels.h"
#include "sumi_lcms.h"

#include <math.h>
#include <string.h>

/* Sample `index` of a row as an unsigned integer (16 and 32 bits already in native byte order). */
static uint32_t raw_sample(const uint8_t *row, size_t index, int bits) {
    switch (bits) {
    case 8: return row[index];
    case 16: { uint16_t v; memcpy(&v, row + index * 2, 2); return v; }
    case 32: { uint32_t v; memcpy(&v, row + index * 4, 4); return v; }
    default: {
        size_t bit = index * (size_t)bits;
        uint32_t v = 0;
        for (int i = 0; i < bits; i++, bit++) v = v << 1 | ((row[bit >> 3] >> (7 - (bit & 7))) & 1u);
        return v;
    }
    }
}

static double float_sample(const uint8_t *row, size_t index, int bits) {
    if (bits == 64) { double v; memcpy(&v, row + index * 8, 8); return v; }
    if (bits == 32) { float v; memcpy(&v, row + index * 4, 4); return v; }
    uint32_t h = raw_sample(row, index, 16); /* IEEE half */
    int exponent = (int)(h >> 10 & 31);
    double mantissa = (double)(h & 1023);
    double v = exponent == 0 ? ldexp(mantissa, -24) : exponent == 31 ? (mantissa != 0 ? NAN : INFINITY)
                                                                     : ldexp(mantissa + 1024, exponent - 25);
    return h & 0x8000 ? -v : v;
}

/* One sample as 8 bits: integers rounded from their full range, floats from low...high, clamped. */
static uint8_t sample8(const sumi_tiff *t, const uint8_t *row, size_t index) {
    if (t->format == SAMPLEFORMAT_IEEEFP) {
        double v = (float_sample(row, index, t->bits) - t->low) / (t->high - t->low);
        if (!(v > 0)) return 0; /* NaN too */
        return v >= 1 ? 255 : (uint8_t)lround(v * 255);
    }
    uint32_t v = raw_sample(row, index, t->bits);
    /* Signed: negative values are black, the others on the unsigned scale of their width (so a
     * signed 16-bit sample reads as Pillow's I;16S scaled by 255/65535). */
    if (t->format == SAMPLEFORMAT_INT && (v >> (t->bits - 1) & 1u)) return 0;
    if (t->lut) return t->lut[v];
    return (uint8_t)(((uint64_t)v * 255 + 0x7FFFFFFFull) / 0xFFFFFFFFull);
}

static uint8_t muldiv255(unsigned a, unsigned b) {
    unsigned v = a * b + 128;
    return (uint8_t)((v + (v >> 8)) >> 8);
}

/* Palette colours at 8 bits: 16-bit entries rounded, unless every entry is below 256 (a colour map
 * some writers store at 8 bits, read as libtiff's RGBA interface reads it). */
void sumi_tiff_palette8(const sumi_tiff *t, uint8_t *colours) {
    size_t count = (size_t)1 << t->bits;
    int eight = 1;
    for (size_t i = 0; i < count && eight; i++) eight = t->red[i] < 256 && t->green[i] < 256 && t->blue[i] < 256;
    const uint16_t *maps[3] = {t->red, t->green, t->blue};
    for (size_t i = 0; i < count; i++)
        for (int c = 0; c < 3; c++)
            colours[i * 3 + c] = eight ? (uint8_t)maps[c][i] : (uint8_t)(((uint32_t)maps[c][i] * 255 + 32767) / 65535);
}

void sumi_tiff_convert_row(const sumi_tiff *t, const sumi_tiff_band *b, const sumi_tiff_converter *c, uint32_t r,
                           uint8_t *out) {
    const uint8_t *rows[SUMI_TIFF_MAX_USED] = {0};
    for (int p = 0; p < b->planes; p++) rows[p] = b->raw + ((size_t)p * b->rows + r) * b->row_bytes;
    /* Separate planes by the file's layout, not by how many planes are read: with an unspecified
     * extra sample only the first plane is read, and its rows hold one sample a pixel (indexing
     * them as interleaved read past the row, and past the band on its last row). */
    int separate = t->planar == PLANARCONFIG_SEPARATE;
    for (uint32_t x = 0; x < t->width; x++) {
        #define SAMPLE_AT(s) (separate ? rows[s] : rows[0]), (separate ? (size_t)x : (size_t)x * t->samples + (s))
        uint8_t *o = out + (size_t)x * 4;
        switch (t->photometric) {
        case PHOTOMETRIC_MINISBLACK: case PHOTOMETRIC_MINISWHITE: {
            uint8_t g = sample8(t, SAMPLE_AT(0));
            if (t->photometric == PHOTOMETRIC_MINISWHITE) g = (uint8_t)(255 - g);
            o[0] = o[1] = o[2] = g;
            break;
        }
        case PHOTOMETRIC_PALETTE: {
            const uint8_t *colour = c->palette + raw_sample(SAMPLE_AT(0), t->bits) * 3;
            memcpy(o, colour, 3);
            break;
        }
        case PHOTOMETRIC_SEPARATED: {
            unsigned ink[4], white = 255u - sample8(t, SAMPLE_AT(3));
            for (int s = 0; s < 3; s++) ink[s] = sample8(t, SAMPLE_AT(s));
            for (int s = 0; s < 3; s++) o[s] = (uint8_t)(white - muldiv255(ink[s], white));
            break;
        }
        case PHOTOMETRIC_CIELAB: case PHOTOMETRIC_ICCLAB: {
            double most = t->bits == 8 ? 255 : 65535, scale = t->bits == 8 ? 1 : 256;
            double *lab = c->lab_row + (size_t)x * 3;
            uint32_t l = raw_sample(SAMPLE_AT(0), t->bits), a = raw_sample(SAMPLE_AT(1), t->bits),
                     bb = raw_sample(SAMPLE_AT(2), t->bits);
            if (t->photometric == PHOTOMETRIC_CIELAB) {
                lab[0] = l * 100.0 / most;
                lab[1] = (t->bits == 8 ? (int8_t)a : (int16_t)a) / scale;
                lab[2] = (t->bits == 8 ? (int8_t)bb : (int16_t)bb) / scale;
            } else {
                lab[0] = l * 100.0 / (t->bits == 8 ? 255 : 65280);
                lab[1] = a / scale - 128;
                lab[2] = bb / scale - 128;
            }
            break;
        }
        default: /* RGB */
            for (int s = 0; s < 3; s++) o[s] = sample8(t, SAMPLE_AT(s));
        }
        o[3] = t->alpha >= 0 ? sample8(t, SAMPLE_AT(t->alpha)) : 255;
        #undef SAMPLE_AT
    }
    if (c->lab) {
        sumi_lcms.cmsDoTransform(c->lab, c->lab_row, c->rgb_row, t->width);
        for (uint32_t x = 0; x < t->width; x++) memcpy(out + (size_t)x * 4, c->rgb_row + (size_t)x * 3, 3);
    }
    if (t->alpha < 0) return;
    if (!t->associated) {
        sumi_premultiply(out, t->width);
        return;
    }
    for (uint32_t x = 0; x < t->width; x++) {
        uint8_t *o = out + (size_t)x * 4;
        for (int s = 0; s < 3; s++) if (o[s] > o[3]) o[s] = o[3];
    }
}

