#ifndef SUMI_TIFF_LAYOUT_H
#define SUMI_TIFF_LAYOUT_H

/* The state shared by sumi_tiff.c (opening, the layout) and sumi_tiff_decode.c (the pixels). */
#include "sumi_tiff.h"

#include <stdio.h>
#include <tiffio.h>

/* The most samples of a pixel the decoder reads (colours, then alpha). */
#define SUMI_TIFF_MAX_USED 8

struct sumi_tiff {
    const uint8_t *data;
    size_t size;
    uint64_t position;
    TIFF *tif;
    char message[256];
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

/* Records the first problem (later ones are consequences). */
void sumi_tiff_fail(sumi_tiff *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
