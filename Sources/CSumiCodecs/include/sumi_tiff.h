#ifndef SUMI_TIFF_H
#define SUMI_TIFF_H

// TIFF input through libtiff: the first directory of a classic or BigTIFF file held in memory,
// decoded into 8-bit premultiplied RGBA. libtiff reports errors through varargs handlers, which
// Swift cannot write; each open file collects its first error message here instead.

#include <stddef.h>
#include <stdint.h>

#include "sumi_codecs.h"

typedef struct sumi_tiff sumi_tiff;

/// What the first directory holds (after libtiff's defaults).
typedef struct sumi_tiff_info {
    uint32_t width, height;
    uint16_t bits_per_sample, samples_per_pixel, sample_format, photometric, planar_config;
    uint16_t compression;
    /// The stored Orientation tag (1-8; 1 when absent or out of range).
    uint16_t orientation;
    /// Whether the decoded pixels carry alpha (an associated or unassociated extra sample).
    int has_alpha;
    /// Whether the layout is decoded only whole (through libtiff's RGBA interface, which fills a
    /// whole raster): not into a ring shorter than the image.
    int whole_only;
} sumi_tiff_info;

/// Whether libtiff, opened on the first TIFF file rather than at start-up, can be loaded: 0, or -1
/// with a message naming the library in `*error`.
int sumi_tiff_library(const char *_Nullable *_Nonnull error);

/// Opens `size` bytes at `data` (which must outlive the handle) and reads the first directory.
/// `max_allocation` bounds any one allocation libtiff makes. NULL only when out of memory;
/// otherwise check `sumi_tiff_read_info`.
sumi_tiff *_Nullable sumi_tiff_open(const uint8_t *_Nonnull data, size_t size, int64_t max_allocation);
void sumi_tiff_close(sumi_tiff *_Nullable tiff);
/// The first error libtiff or the decoder reported, on one line ("" when none).
const char *_Nonnull sumi_tiff_error(const sumi_tiff *_Nonnull tiff);

/// Fills `info`. Returns 0, or -1 when the file could not be opened or its layout is one Sumi does
/// not decode (the reason in `sumi_tiff_error`).
int sumi_tiff_read_info(sumi_tiff *_Nonnull tiff, sumi_tiff_info *_Nonnull info);

/// Decodes into `out`: width * height * 4 bytes of premultiplied RGBA, with `orientation` (1-8)
/// applied (5-8: the output is height wide and width high). Integer samples of n bits become
/// round(v * 255 / (2^n - 1)) (signed ones the same, negative values 0); float samples are taken as 0.0-1.0 (or SMinSampleValue to
/// SMaxSampleValue when given) and clamped; CIELab and ICCLab are converted from Lab D50 to sRGB
/// with lcms2; CMYK as (255 - C)(255 - K) / 255. Returns 0, or -1 with the reason in `sumi_tiff_error`.
/// This is sumi_tiff_decode_ring's loop over the whole image (upright), or over a few rows at a
/// time put at their oriented places.
int sumi_tiff_decode(sumi_tiff *_Nonnull tiff, uint8_t *_Nonnull out, int orientation);

/// Decodes upright rows (the stored orientation) into `ring`, as sumi_tiff_decode converts them,
/// in bands of at most the ring's: strips are read a few rows at a time through libtiff's scanline
/// interface (each of separate planes through a handle of its own), a row of tiles when the rows
/// reach it, so only those rows and the ring take memory. A `whole_only` layout needs a ring as tall as the image.
int sumi_tiff_decode_ring(sumi_tiff *_Nonnull tiff, const sumi_ring *_Nonnull ring);

#endif
