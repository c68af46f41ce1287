#ifndef SUMI_TIFF_LAYOUT_H
#define SUMI_TIFF_LAYOUT_H

/* The state shared by sumi_tiff.c (opening, the layout) and sumi_tiff_decode.c (the pixels). */
#include "sumi_tiff.h"

#include <stdio.h>
#include "sumi_libtiff.h"

/* The most samples of a pixel the decoder reads (colours, then alpha). */
#define SUMI_TIFF_MAX_USED 8

struct sumi_tiff {
    const uint8_t *data;
    size_t size;
    uint64_t position;
    TIFF *tif;
    char message[256];
    int errors;              /* how many errors libtiff has reported on this file */
    char last_error[256];    /* the latest of them */
    int64_t max_allocation; /* the largest buffer one file may ask for */
    /* The layout, read by sumi_tiff_read_info. */
    uint32_t width, height;
    uint16_t bits, samples, format, photometric, planar, compression, orientation, ink_set;
    uint16_t colours;      /* colour samples before the extra ones */
    int alpha;             /* index of the alpha sample, or -1 */
    int used;              /* samples of a pixel the decoder reads (the first ones) */
    int associated;        /* alpha already multiplied in */
    int through_rgba;      /* decoded by libtiff's RGBA interface */
    int extra_made_up;     /* libtiff defined extra samples the file does not declare */
    double low, high;      /* the range float samples map from */
    uint16_t *red, *green, *blue;
    uint8_t *lut;          /* integer sample -> 8 bits, for up to 16 bits */
};

/* One strip, or one row of tiles, of stored samples: `planes` planes of `rows` rows each. */
typedef struct sumi_tiff_band {
    uint8_t *raw;
    size_t row_bytes;   /* one row of one plane */
    uint32_t rows;      /* rows a full band holds */
    int planes;
    int tiled;
    int scanlines;      /* strips read a row at a time (libtiff decodes as it goes) */
    /* Separate planes read a row at a time: a handle of the same file for each plane after the
     * first, since libtiff decodes one strip at a time per handle and would start a plane's strip
     * over at every switch between planes. */
    sumi_tiff *plane_files[SUMI_TIFF_MAX_USED];
    uint32_t strip_rows; /* rows a strip holds (strips only) */
    uint32_t tile_width;
    uint8_t *tile;
    size_t tile_size, tile_row_bytes;
} sumi_tiff_band;

/* What converts samples to RGBA besides the layout: the palette at 8 bits, Lab to sRGB. */
typedef struct sumi_tiff_converter {
    const uint8_t *palette;
    void *lab;          /* cmsHTRANSFORM, Lab D50 doubles to RGB 8 */
    double *lab_row;
    uint8_t *rgb_row;
} sumi_tiff_converter;

/* Palette colours at 8 bits into `colours` (3 bytes an entry, 2^bits entries). */
void sumi_tiff_palette8(const sumi_tiff *t, uint8_t *colours);
/* Converts stored row `r` of the band to premultiplied RGBA. */
void sumi_tiff_convert_row(const sumi_tiff *t, const sumi_tiff_band *b, const sumi_tiff_converter *c, uint32_t r,
                           uint8_t *out);

/* Records the first problem (later ones are consequences). */
void sumi_tiff_fail(sumi_tiff *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
