/* Conversions between straight and premultiplied RGBA, and orientation. */
#include "sumi_pixels.h"

#include <string.h>

static inline uint8_t mul_div_255(unsigned c, unsigned a) {
    unsigned t = c * a + 128;
    return (uint8_t)((t + (t >> 8)) >> 8);
}

void sumi_premultiply(uint8_t *p, size_t count) {
    for (size_t i = 0; i < count; i++, p += 4) {
        unsigned a = p[3];
        if (a == 255) continue;
        if (a == 0) { p[0] = p[1] = p[2] = 0; continue; }
        p[0] = mul_div_255(p[0], a);
        p[1] = mul_div_255(p[1], a);
        p[2] = mul_div_255(p[2], a);
    }
}

void sumi_unpremultiply(const uint8_t *src, uint8_t *dst, size_t count) {
    for (size_t i = 0; i < count; i++, src += 4, dst += 4) {
        unsigned a = src[3];
        if (a == 255) {
            if (dst != src) memcpy(dst, src, 4);
            continue;
        }
        if (a == 0) { dst[0] = dst[1] = dst[2] = dst[3] = 0; continue; }
        unsigned half = a / 2;
        unsigned r = (src[0] * 255u + half) / a, g = (src[1] * 255u + half) / a, b = (src[2] * 255u + half) / a;
        dst[0] = (uint8_t)(r > 255 ? 255 : r);
        dst[1] = (uint8_t)(g > 255 ? 255 : g);
        dst[2] = (uint8_t)(b > 255 ? 255 : b);
        dst[3] = (uint8_t)a;
    }
}

void sumi_straight_rgb(const uint8_t *src, uint8_t *dst, size_t count) {
    size_t i = 0;
    while (i < count) {
        /* Eight opaque pixels at a time: a plain repack, which the compiler vectorises. */
        if (i + 8 <= count) {
            const uint8_t *s = src + i * 4;
            unsigned alpha = 255;
            for (int k = 0; k < 8; k++) alpha &= s[k * 4 + 3];
            if (alpha == 255) {
                uint8_t *d = dst + i * 3;
                for (int k = 0; k < 8; k++) {
                    d[k * 3] = s[k * 4];
                    d[k * 3 + 1] = s[k * 4 + 1];
                    d[k * 3 + 2] = s[k * 4 + 2];
                }
                i += 8;
                continue;
            }
        }
        uint8_t straight[4];
        sumi_unpremultiply(src + i * 4, straight, 1);
        memcpy(dst + i * 3, straight, 3);
        i++;
    }
}

int sumi_is_opaque(const uint8_t *rgba, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (rgba[i * 4 + 3] != 255) return 0;
    }
    return 1;
}

int sumi_is_grey_rows(const uint8_t *rgba, int width, int rows, size_t stride) {
    for (int y = 0; y < rows; y++) {
        const uint8_t *p = rgba + (size_t)y * stride;
        for (int x = 0; x < width; x++, p += 4)
            if (p[0] != p[1] || p[1] != p[2]) return 0;
    }
    return 1;
}

int sumi_is_grey(const uint8_t *rgba, int width) { return sumi_is_grey_rows(rgba, width, 1, (size_t)width * 4); }

/* Opaque RGB to RGBA: each pixel read as four bytes (its three and the next one's first, so not the
 * last pixel) with the fourth set to 255, one load and one store a pixel. */
static void rgb_to_rgba(const uint8_t *restrict s, uint8_t *restrict d, size_t count) {
    size_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; x + 1 < count; x++) {
        uint32_t v;
        memcpy(&v, s + 3 * x, 4);
        v |= 0xFF000000u;
        memcpy(d + 4 * x, &v, 4);
    }
#endif
    for (; x < count; x++) {
        d[4 * x] = s[3 * x];
        d[4 * x + 1] = s[3 * x + 1];
        d[4 * x + 2] = s[3 * x + 2];
        d[4 * x + 3] = 255;
    }
}

void sumi_import_rows(const uint8_t *src, size_t src_stride, int channels, int premultiplied,
                      int width, int height, uint8_t *dst) {
    for (int y = 0; y < height; y++) {
        const uint8_t *s = src + (size_t)y * src_stride;
        uint8_t *d = dst + (size_t)y * (size_t)width * 4;
        if (channels == 4) {
            memcpy(d, s, (size_t)width * 4);
            if (!premultiplied) {
                sumi_premultiply(d, (size_t)width);
                continue;
            }
            for (int x = 0; x < width; x++, d += 4) {
                if (d[0] > d[3]) d[0] = d[3];
                if (d[1] > d[3]) d[1] = d[3];
                if (d[2] > d[3]) d[2] = d[3];
            }
        } else {
            rgb_to_rgba(s, d, (size_t)width);
        }
    }
}

void sumi_flatten_row(const uint8_t *p, uint8_t *dst, int width, uint8_t bg_r, uint8_t bg_g,
                      uint8_t bg_b, int bgr) {
    for (int x = 0; x < width; x++, p += 4, dst += 3) {
        unsigned inv = 255u - p[3];
        unsigned r = p[0] + mul_div_255(bg_r, inv);
        unsigned g = p[1] + mul_div_255(bg_g, inv);
        unsigned b = p[2] + mul_div_255(bg_b, inv);
        r = r > 255 ? 255 : r; g = g > 255 ? 255 : g; b = b > 255 ? 255 : b;
        if (bgr) { dst[0] = (uint8_t)b; dst[1] = (uint8_t)g; dst[2] = (uint8_t)r; }
        else { dst[0] = (uint8_t)r; dst[1] = (uint8_t)g; dst[2] = (uint8_t)b; }
    }
}

void sumi_orient_rows(const uint8_t *strip, int rows, int y0, int w, int h, uint8_t *out, int orientation) {
    const uint32_t *src = (const uint32_t *)strip;
    uint32_t *dst = (uint32_t *)out;
    for (int j = 0; j < rows; j++) {
        int y = y0 + j;
        const uint32_t *row = src + (size_t)j * (size_t)w;
        switch (orientation) {
        case 2: { /* mirror horizontally */
            uint32_t *d = dst + (size_t)y * (size_t)w;
            for (int x = 0; x < w; x++) d[w - 1 - x] = row[x];
            break;
        }
        case 3: { /* rotate 180 */
            uint32_t *d = dst + (size_t)(h - 1 - y) * (size_t)w;
            for (int x = 0; x < w; x++) d[w - 1 - x] = row[x];
            break;
        }
        case 4: /* mirror vertically */
            memcpy(dst + (size_t)(h - 1 - y) * (size_t)w, row, (size_t)w * 4);
            break;
        case 1: /* upright */
            memcpy(dst + (size_t)y * (size_t)w, row, (size_t)w * 4);
            break;
        default: break;
        }
    }
    if (orientation < 5) return;
    /* The output is h wide and w high; each stored row becomes a column. Walk the strip in tiles
     * of 16 columns so reads stay in cache and each output row receives `rows` neighbouring pixels. */
    size_t ow = (size_t)h;
    for (int xb = 0; xb < w; xb += 16) {
        int xe = xb + 16 < w ? xb + 16 : w;
        for (int x = xb; x < xe; x++) {
            int oy = (orientation == 5 || orientation == 6) ? x : w - 1 - x;
            uint32_t *d = dst + (size_t)oy * ow;
            const uint32_t *s = src + x;
            if (orientation == 5 || orientation == 8) {
                uint32_t *o = d + y0;
                for (int j = 0; j < rows; j++) o[j] = s[(size_t)j * (size_t)w];
            } else {
                uint32_t *o = d + (h - 1 - y0);
                for (int j = 0; j < rows; j++) o[-j] = s[(size_t)j * (size_t)w];
            }
        }
    }
}
