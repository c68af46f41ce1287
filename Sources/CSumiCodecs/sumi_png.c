/* libpng encoding of palette and grey layouts (the deep ones go to sumi_png_rows.c), palette
 * detection, and libpng's error callbacks; decoding is in sumi_png_decode.c. */
#include "sumi_codecs.h"
#include "sumi_pixels.h"
#include "sumi_png_errors.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sumi_png_calls.h"

/* ---- libpng callbacks ------------------------------------------------------------------------- */

void sumi_png_on_error(png_structp png, png_const_charp text) {
    char *message = png_get_error_ptr(png);
    if (message && message[0] == 0) snprintf(message, 256, "%s", text);
    png_longjmp(png, 1);
}

void sumi_png_on_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

/* ---- palette detection ----------------------------------------------------------------------- */

/* An image with at most 256 distinct pixels is written as a palette PNG: a quarter of the data to
 * compress, so both faster and far smaller on screenshots and diagrams. */
struct palette {
    uint32_t keys[1024];
    int16_t slots[1024]; /* palette index + 1, 0 = empty */
    uint32_t colors[256];
    int count;
};

static inline uint32_t load_pixel(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline int palette_slot(const struct palette *pal, uint32_t key) {
    uint32_t h = (key * 2654435761u) >> 22; /* 10 bits */
    while (pal->slots[h] && pal->keys[h] != key) h = (h + 1) & 1023;
    return (int)h;
}

/* Collects the distinct pixels; 0 when there are more than 256. */
static int build_palette(struct palette *pal, const uint8_t *rgba, int width, int height, size_t stride) {
    memset(pal->slots, 0, sizeof pal->slots);
    pal->count = 0;
    uint32_t last = 0;
    int have_last = 0;
    for (int y = 0; y < height; y++) {
        const uint8_t *row = rgba + (size_t)y * stride;
        for (int x = 0; x < width; x++) {
            uint32_t key = load_pixel(row + (size_t)x * 4);
            if (have_last && key == last) continue;
            last = key;
            have_last = 1;
            int h = palette_slot(pal, key);
            if (pal->slots[h]) continue;
            if (pal->count == 256) return 0;
            pal->keys[h] = key;
            pal->slots[h] = (int16_t)(pal->count + 1);
            pal->colors[pal->count++] = key;
        }
    }
    return pal->count;
}

/* Moves the colours with alpha below 255 to the front, so that tRNS lists only those. */
static int palette_order_by_alpha(struct palette *pal) {
    uint32_t ordered[256];
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < pal->count; i++) {
            int translucent = (pal->colors[i] >> 24) != 255; /* little-endian RGBA: alpha is the top byte */
            if (translucent == (pass == 0)) ordered[n++] = pal->colors[i];
        }
    int translucent_count = 0;
    for (int i = 0; i < pal->count; i++) {
        pal->colors[i] = ordered[i];
        pal->slots[palette_slot(pal, ordered[i])] = (int16_t)(i + 1);
        if ((ordered[i] >> 24) != 255) translucent_count = i + 1;
    }
    return translucent_count;
}

/* The smallest bit depth that holds `colors` palette indices. */
static int palette_depth(int colors) { return colors <= 2 ? 1 : colors <= 4 ? 2 : colors <= 16 ? 4 : 8; }

/* The bit depth at which every palette colour is an opaque grey that the depth represents exactly
 * (1: 0/255, 2: multiples of 85, 4: multiples of 17, 8: any grey); 0 when some colour is not. */
static int palette_grey_depth(const struct palette *pal) {
    int depth = 1;
    for (int i = 0; i < pal->count; i++) {
        const uint8_t *c = (const uint8_t *)&pal->colors[i];
        if (c[3] != 255 || c[0] != c[1] || c[1] != c[2]) return 0;
        int need = c[0] % 255 == 0 ? 1 : c[0] % 85 == 0 ? 2 : c[0] % 17 == 0 ? 4 : 8;
        if (need > depth) depth = need;
    }
    return depth;
}

/* Packs 8-bit samples (each < 2^depth) into a PNG row of `depth`-bit samples, most significant first. */
static void pack_row(const uint8_t *samples, int width, int depth, uint8_t *out) {
    if (depth == 8) {
        if (out != samples) memcpy(out, samples, (size_t)width);
        return;
    }
    int per_byte = 8 / depth;
    for (int x = 0, o = 0; x < width; o++) {
        unsigned byte = 0;
        for (int k = 0; k < per_byte; k++, x++) byte = (byte << depth) | (x < width ? samples[x] : 0u);
        out[o] = (uint8_t)byte;
    }
}

/* One row of palette indices (or grey samples when `grey_divisor` > 0: the grey value divided by
 * 255 / (2^depth - 1)), packed to `depth` bits. `scratch` holds `width` bytes. */
static void indexed_row(const struct palette *pal, const uint8_t *rgba, int width, int depth, int grey_divisor,
                        uint8_t *scratch, uint8_t *out) {
    if (grey_divisor > 0) {
        for (int x = 0; x < width; x++) scratch[x] = (uint8_t)(rgba[(size_t)x * 4] / grey_divisor);
    } else {
        uint32_t last = load_pixel(rgba) ^ 1u;
        uint8_t index = 0;
        for (int x = 0; x < width; x++) {
            uint32_t key = load_pixel(rgba + (size_t)x * 4);
            if (key != last) {
                last = key;
                index = (uint8_t)(pal->slots[palette_slot(pal, key)] - 1);
            }
            scratch[x] = index;
        }
    }
    pack_row(scratch, width, depth, out);
}

int sumi_palette_reduce(const uint8_t *rgba, int width, int height, size_t stride, uint8_t *colors,
                        uint8_t *indices) {
    struct palette *pal = malloc(sizeof *pal);
    if (!pal) return -1;
    int count = build_palette(pal, rgba, width, height, stride);
    for (int i = 0; i < count; i++) sumi_unpremultiply((const uint8_t *)&pal->colors[i], colors + 4 * i, 1);
    for (int y = 0; y < height && count > 0; y++)
        indexed_row(pal, rgba + (size_t)y * stride, width, 8, 0, indices + (size_t)y * (size_t)width,
                    indices + (size_t)y * (size_t)width);
    free(pal);
    return count;
}

struct sumi_palette {
    struct palette pal;
    uint32_t last;
    int have_last;
};

sumi_palette *sumi_palette_create(void) {
    sumi_palette *p = calloc(1, sizeof *p);
    return p;
}

void sumi_palette_destroy(sumi_palette *p) { free(p); }

int sumi_palette_number_row(sumi_palette *p, const uint8_t *rgba, int width, uint8_t *indices) {
    struct palette *pal = &p->pal;
    uint32_t last = p->last;
    int have_last = p->have_last;
    uint8_t index = have_last ? (uint8_t)(pal->slots[palette_slot(pal, last)] - 1) : 0;
    for (int x = 0; x < width; x++) {
        uint32_t key = load_pixel(rgba + (size_t)x * 4);
        if (!have_last || key != last) {
            int h = palette_slot(pal, key);
            if (!pal->slots[h]) {
                if (pal->count == 256) return -1;
                pal->keys[h] = key;
                pal->slots[h] = (int16_t)(pal->count + 1);
                pal->colors[pal->count++] = key;
            }
            index = (uint8_t)(pal->slots[h] - 1);
            last = key;
            have_last = 1;
        }
        indices[x] = index;
    }
    p->last = last;
    p->have_last = have_last;
    return 0;
}

int sumi_palette_count(const sumi_palette *p) { return p->pal.count; }

const uint32_t *sumi_palette_keys(const sumi_palette *p) { return p->pal.colors; }

/* ---- encoding ------------------------------------------------------------------------------ */

/* What an indexed encode owns; on the heap so its fields are reliable after a longjmp. */
struct png_encode_state {
    png_structp png;
    png_infop info;
    uint8_t *buffer;
    size_t size;
    size_t capacity;
    uint8_t *row;
    uint8_t *previous;
    uint8_t *scratch;
    struct palette *palette;
    char message[256];
};

static void write_output(png_structp png, png_bytep data, size_t length) {
    struct png_encode_state *s = png_get_io_ptr(png);
    if (s->capacity - s->size < length) {
        size_t capacity = s->capacity ? s->capacity : 1 << 16;
        while (capacity - s->size < length) capacity *= 2;
        uint8_t *grown = realloc(s->buffer, capacity);
        if (!grown) png_error(png, "out of memory");
        s->buffer = grown;
        s->capacity = capacity;
    }
    memcpy(s->buffer + s->size, data, length);
    s->size += length;
}

static void flush_output(png_structp png) { (void)png; }

/* Frees an encode's state and everything it owns (libpng's structures included). */
static void encode_state_free(struct png_encode_state *s) {
    if (s->png) png_destroy_write_struct(&s->png, s->info ? &s->info : NULL);
    free(s->buffer);
    free(s->row);
    free(s->previous);
    free(s->scratch);
    free(s->palette);
    free(s);
}

static int png_encode_fail(struct png_encode_state *s) {
    encode_state_free(s);
    return -1;
}

/* More than 256 distinct pixels: 8-bit grey + alpha when every pixel is grey (an opaque image
 * has at most 256 greys), else RGB when opaque, else RGBA; see sumi_png_rows.c. */
static int encode_deep(const uint8_t *rgba, int width, int height, size_t stride, int level, int opaque,
                       uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    int channels = !opaque && sumi_is_grey_rows(rgba, width, height, stride) ? 2 : opaque ? 3 : 4;
    sumi_png_rows *w = sumi_png_rows_begin(width, height, level, channels, error, error_size);
    if (!w) return -1;
    if (sumi_png_rows_write(w, rgba, height, stride, error, error_size) != 0) {
        sumi_png_rows_abort(w);
        return -1;
    }
    return sumi_png_rows_finish(w, out, out_size, error, error_size);
}

int sumi_png_encode(const uint8_t *rgba, int width, int height, size_t stride, int level, int opaque,
                    uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    level = level < 0 ? 0 : level > 9 ? 9 : level;
    if (sumi_png_libraries_open(error, error_size) != 0) return -1;
    struct palette *palette = malloc(sizeof *palette);
    if (!palette) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    int colors = build_palette(palette, rgba, width, height, stride);
    if (colors == 0) {
        free(palette);
        return encode_deep(rgba, width, height, stride, level, opaque, out, out_size, error, error_size);
    }
    struct png_encode_state *s = calloc(1, sizeof *s);
    if (!s) {
        free(palette);
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    s->palette = palette;
    s->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, s->message, sumi_png_on_error, sumi_png_on_warning);
    if (s->png) s->info = png_create_info_struct(s->png);
    if (!s->png || !s->info) {
        snprintf(error, error_size, "out of memory");
        return png_encode_fail(s);
    }
    if (setjmp(png_jmpbuf(s->png))) {
        snprintf(error, error_size, "%s", s->message[0] ? s->message : "PNG encoding failed");
        return png_encode_fail(s);
    }
    png_set_write_fn(s->png, s, write_output, flush_output);
    /* PNG allows 2^31-1 rows and columns; libpng's own default stops at a million (the run's pixel
       limits hold the size). */
    png_set_user_limits(s->png, 0x7fffffff, 0x7fffffff);
    png_set_compression_buffer_size(s->png, 1 << 17);
    s->row = malloc((size_t)width * 4);
    s->previous = calloc((size_t)width * 4, 1);
    s->scratch = malloc((size_t)width);
    if (!s->row || !s->previous || !s->scratch) png_error(s->png, "out of memory");

    /* At most 256 colours: palette, or grey when they are all opaque greys, at 1/2/4/8 bits. */
    int grey = palette_grey_depth(s->palette);
    int depth = palette_depth(colors), grey_divisor = 0, color_type = PNG_COLOR_TYPE_PALETTE;
    if (grey > 0 && grey <= depth) {
        depth = grey;
        grey_divisor = 255 / ((1 << depth) - 1);
        color_type = PNG_COLOR_TYPE_GRAY;
    }
    /* Palette indices and packed samples are a third of the data or less, and compress far better
     * with deflate's longer matches (level 8: 258-byte "nice" matches, 1024-long chains), at a
     * fraction of the time RGB takes: they are compressed four levels higher (default 4 -> 8).
     * 8-bit grey samples are not indices: libpng's minimum-sum choice over all five filters. */
    int indexed = color_type == PNG_COLOR_TYPE_PALETTE || depth < 8;
    png_set_compression_level(s->png, indexed && level > 0 ? (level + 4 > 9 ? 9 : level + 4) : level);
    png_set_IHDR(s->png, s->info, (png_uint_32)width, (png_uint_32)height, depth, color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        int translucent = palette_order_by_alpha(s->palette);
        png_color plte[256];
        png_byte trns[256];
        for (int i = 0; i < colors; i++) {
            uint8_t straight[4];
            sumi_unpremultiply((const uint8_t *)&s->palette->colors[i], straight, 1);
            plte[i].red = straight[0];
            plte[i].green = straight[1];
            plte[i].blue = straight[2];
            trns[i] = straight[3];
        }
        png_set_PLTE(s->png, s->info, plte, colors);
        if (translucent > 0) png_set_tRNS(s->png, s->info, trns, translucent, NULL);
    }
    /* Filters: None or Up chosen per row below for indexed data. */
    png_set_filter(s->png, PNG_FILTER_TYPE_BASE, level == 0 ? PNG_FILTER_NONE
                   : indexed ? (PNG_FILTER_NONE | PNG_FILTER_UP) : PNG_ALL_FILTERS);
    png_write_info(s->png, s->info);

    size_t packed = ((size_t)width * (size_t)depth + 7) / 8;
    for (int y = 0; y < height; y++) {
        indexed_row(s->palette, rgba + (size_t)y * stride, width, depth, grey_divisor, s->scratch, s->row);
        /* From the second row on (libpng sizes its buffers at the first for the filters set then). */
        if (indexed && level > 0 && y > 0)
            png_set_filter(s->png, PNG_FILTER_TYPE_BASE,
                           sumi_png_index_filter(s->row, s->previous, packed) == SUMI_FILTER_UP ? PNG_FILTER_UP
                                                                                               : PNG_FILTER_NONE);
        png_write_row(s->png, s->row);
        uint8_t *swap = s->previous;
        s->previous = s->row;
        s->row = swap;
    }
    png_write_end(s->png, NULL);
    *out = s->buffer;
    *out_size = s->size;
    s->buffer = NULL;
    encode_state_free(s);
    return 0;
}
