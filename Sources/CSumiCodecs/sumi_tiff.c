/* TIFF input through libtiff (see sumi_tiff.h).
 *
 * libtiff's RGBA interface (TIFFReadRGBAImage) is used only for the layouts Sumi does not read
 * itself (subsampled YCbCr without JPEG, LogLuv, ITULab, old-style JPEG): it truncates 16-bit
 * samples (v >> 8) instead of rounding, has no 12-bit, float or 16-bit CMYK path, converts CIELab
 * with its own display model rather than a colour-managed one, and applies no rotation. Everything
 * else is read here strip by strip (or one row of tiles at a time) and converted sample by sample. */
#include "sumi_tiff_layout.h"

#include <errno.h>
#include <lcms2.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sumi_libtiff.h"


void sumi_tiff_fail(sumi_tiff *t, const char *format, ...) {
    if (t->message[0]) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(t->message, sizeof t->message, format, arguments);
    va_end(arguments);
}

/* Writes the numbers in `message` that are negative values libtiff printed unsigned (a size
 * difference that went below zero shows as 18446744071562133626) as the signed values they are. */
static void sign_wrapped_numbers(char *message, size_t size) {
    char out[sizeof ((sumi_tiff *)0)->message];
    size_t n = 0;
    for (const char *c = message; *c && n + 1 < sizeof out;) {
        if (*c >= '0' && *c <= '9' && (c == message || c[-1] < '0' || c[-1] > '9')) {
            char *end;
            errno = 0;
            unsigned long long value = strtoull(c, &end, 10);
            if (errno == 0 && end - c >= 19 && value > (unsigned long long)INT64_MAX) {
                int written = snprintf(out + n, sizeof out - n, "%lld", (long long)(int64_t)value);
                if (written > 0) n += (size_t)written < sizeof out - n ? (size_t)written : sizeof out - n - 1;
                c = end;
                continue;
            }
        }
        out[n++] = *c++;
    }
    out[n] = 0;
    snprintf(message, size, "%s", out);
}

static int on_error(TIFF *tif, void *user, const char *module, const char *format, va_list arguments) {
    (void)tif;
    (void)module;
    sumi_tiff *t = user;
    vsnprintf(t->last_error, sizeof t->last_error, format, arguments);
    for (char *c = t->last_error; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
    sign_wrapped_numbers(t->last_error, sizeof t->last_error);
    t->errors++;
    if (!t->message[0]) snprintf(t->message, sizeof t->message, "%s", t->last_error);
    return 1;
}

static int on_warning(TIFF *tif, void *user, const char *module, const char *format, va_list arguments) {
    (void)tif, (void)module, (void)arguments;
    /* The one warning that changes the reading: the file has more samples than its colours and no
     * ExtraSamples tag, and libtiff made one up (unspecified). */
    if (strstr(format, "Defining non-color channels as ExtraSamples")) ((sumi_tiff *)user)->extra_made_up = 1;
    return 1;
}

/* Errors libtiff reports without a file (no handle yet) must not reach standard error. */
static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;
static void quiet_global_handlers(void) {
    sumi_libtiff.TIFFSetErrorHandler(NULL);
    sumi_libtiff.TIFFSetWarningHandler(NULL);
}

static tmsize_t read_memory(thandle_t handle, void *buffer, tmsize_t count) {
    sumi_tiff *t = handle;
    if (count <= 0 || t->position >= t->size) return 0;
    size_t left = t->size - (size_t)t->position;
    size_t n = (size_t)count < left ? (size_t)count : left;
    memcpy(buffer, t->data + t->position, n);
    t->position += n;
    return (tmsize_t)n;
}

static tmsize_t write_nothing(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle, (void)buffer, (void)count;
    return 0;
}

static toff_t seek_memory(thandle_t handle, toff_t offset, int whence) {
    sumi_tiff *t = handle;
    uint64_t base = whence == SEEK_CUR ? t->position : whence == SEEK_END ? t->size : 0;
    t->position = base + offset; /* past the end reads nothing */
    return t->position;
}

static int close_nothing(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t memory_size(thandle_t handle) { return ((sumi_tiff *)handle)->size; }

static int map_memory(thandle_t handle, void **base, toff_t *size) {
    sumi_tiff *t = handle;
    *base = (void *)t->data;
    *size = t->size;
    return 1;
}

static void unmap_nothing(thandle_t handle, void *base, toff_t size) { (void)handle, (void)base, (void)size; }

int sumi_tiff_library(const char **error) { return sumi_libtiff_open(error); }

sumi_tiff *sumi_tiff_open(const uint8_t *data, size_t size, int64_t max_allocation) {
    sumi_tiff *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->data = data;
    t->size = size;
    t->alpha = -1;
    t->max_allocation = max_allocation;
    const char *missing = NULL;
    if (sumi_libtiff_open(&missing) != 0) {
        sumi_tiff_fail(t, "TIFF needs libtiff (" SUMI_LIBTIFF_LIBRARY ", Debian package libtiff6), which could not be loaded: %s", missing);
        return t;
    }
    pthread_once(&quiet_once, quiet_global_handlers);
    TIFFOpenOptions *options = sumi_libtiff.TIFFOpenOptionsAlloc();
    if (!options) {
        free(t);
        return NULL;
    }
    sumi_libtiff.TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, t);
    sumi_libtiff.TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, t);
    sumi_libtiff.TIFFOpenOptionsSetMaxSingleMemAlloc(options, max_allocation > 0 ? max_allocation : 0);
    t->tif = sumi_libtiff.TIFFClientOpenExt("TIFF", "r", t, read_memory, write_nothing, seek_memory, close_nothing, memory_size,
                               map_memory, unmap_nothing, options);
    sumi_libtiff.TIFFOpenOptionsFree(options);
    if (!t->tif) sumi_tiff_fail(t, "not a readable TIFF file");
    return t;
}

void sumi_tiff_close(sumi_tiff *t) {
    if (!t) return;
    if (t->tif) sumi_libtiff.TIFFClose(t->tif);
    free(t->lut);
    free(t);
}

const char *sumi_tiff_error(const sumi_tiff *t) { return t->message; }

/* Whether Sumi reads the layout itself (else libtiff's RGBA interface does). */
static int reads_itself(sumi_tiff *t) {
    switch (t->photometric) {
    case PHOTOMETRIC_MINISWHITE: case PHOTOMETRIC_MINISBLACK: case PHOTOMETRIC_RGB: case PHOTOMETRIC_PALETTE:
    case PHOTOMETRIC_SEPARATED: case PHOTOMETRIC_CIELAB: case PHOTOMETRIC_ICCLAB:
        return t->compression != COMPRESSION_OJPEG;
    case PHOTOMETRIC_YCBCR:
        /* libjpeg converts JPEG-compressed YCbCr to RGB itself. */
        return t->compression == COMPRESSION_JPEG && t->planar == PLANARCONFIG_CONTIG;
    default:
        return 0;
    }
}

static int read_layout(sumi_tiff *t) {
    TIFF *tif = t->tif;
    uint16_t *extra_kinds = NULL, extra = 0;
    if (!sumi_libtiff.TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &t->width) || !sumi_libtiff.TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &t->height)) {
        sumi_tiff_fail(t, "no image size");
        return -1;
    }
    sumi_libtiff.TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &t->bits);
    sumi_libtiff.TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &t->samples);
    sumi_libtiff.TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &t->format);
    sumi_libtiff.TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &t->planar);
    sumi_libtiff.TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &t->compression);
    sumi_libtiff.TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extra, &extra_kinds);
    if (!sumi_libtiff.TIFFGetFieldDefaulted(tif, TIFFTAG_ORIENTATION, &t->orientation) || t->orientation < 1 || t->orientation > 8)
        t->orientation = 1;
    if (!sumi_libtiff.TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &t->ink_set)) t->ink_set = INKSET_CMYK;
    if (!sumi_libtiff.TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &t->photometric))
        t->photometric = t->samples - extra >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    if (t->samples < 1 || extra >= t->samples) {
        sumi_tiff_fail(t, "%u samples per pixel with %u extra samples", t->samples, extra);
        return -1;
    }
    t->colours = (uint16_t)(t->samples - extra);
    /* An extra sample declared unspecified is padding (as Pillow reads RGBX); one the file does not
     * declare at all is unassociated alpha (Pillow's RGBA and LA "missing ExtraSamples"). */
    int kind = extra == 0 ? -1 : t->extra_made_up ? EXTRASAMPLE_UNASSALPHA : extra_kinds[0];
    if (kind == EXTRASAMPLE_ASSOCALPHA || kind == EXTRASAMPLE_UNASSALPHA) {
        t->alpha = t->colours;
        t->associated = kind == EXTRASAMPLE_ASSOCALPHA;
    }
    t->through_rgba = !reads_itself(t);
    if (t->through_rgba) {
        char reason[1024] = "";
        if (!sumi_libtiff.TIFFRGBAImageOK(tif, reason)) {
            sumi_tiff_fail(t, "%s", reason[0] ? reason : "unsupported TIFF layout");
            return -1;
        }
        return 0;
    }
    if (t->photometric == PHOTOMETRIC_YCBCR) {
        sumi_libtiff.TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
        t->photometric = PHOTOMETRIC_RGB;
    }
    int needed = t->photometric == PHOTOMETRIC_RGB || t->photometric == PHOTOMETRIC_CIELAB
                         || t->photometric == PHOTOMETRIC_ICCLAB ? 3
                 : t->photometric == PHOTOMETRIC_SEPARATED ? 4 : 1;
    if (t->colours < needed) {
        sumi_tiff_fail(t, "photometric interpretation %u with %u colour samples", t->photometric, t->colours);
        return -1;
    }
    t->used = t->alpha >= 0 ? t->alpha + 1 : needed;
    if (t->used > SUMI_TIFF_MAX_USED) {
        sumi_tiff_fail(t, "alpha in sample %d", t->alpha);
        return -1;
    }
    if (t->photometric == PHOTOMETRIC_SEPARATED && t->ink_set != INKSET_CMYK) {
        sumi_tiff_fail(t, "separated inks other than CMYK (InkSet %u)", t->ink_set);
        return -1;
    }
    int bits_ok;
    switch (t->format) {
    case SAMPLEFORMAT_UINT: case SAMPLEFORMAT_INT: bits_ok = (t->bits >= 1 && t->bits <= 16) || t->bits == 32; break;
    case SAMPLEFORMAT_IEEEFP: bits_ok = t->bits == 16 || t->bits == 32 || t->bits == 64; break;
    default: bits_ok = 0;
    }
    if (!bits_ok || (t->photometric == PHOTOMETRIC_PALETTE && (t->format != SAMPLEFORMAT_UINT || t->bits > 16))) {
        sumi_tiff_fail(t, "unsupported sample layout (%u-bit, sample format %u)", t->bits, t->format);
        return -1;
    }
    if (t->photometric == PHOTOMETRIC_PALETTE
        && !sumi_libtiff.TIFFGetField(tif, TIFFTAG_COLORMAP, &t->red, &t->green, &t->blue)) {
        sumi_tiff_fail(t, "a palette image without a colour map");
        return -1;
    }
    t->low = 0;
    t->high = 1;
    if (t->format == SAMPLEFORMAT_IEEEFP) {
        double low, high;
        if (sumi_libtiff.TIFFGetField(tif, TIFFTAG_SMINSAMPLEVALUE, &low) && sumi_libtiff.TIFFGetField(tif, TIFFTAG_SMAXSAMPLEVALUE, &high)
            && isfinite(low) && isfinite(high) && high > low) {
            t->low = low;
            t->high = high;
        }
    }
    if (t->format != SAMPLEFORMAT_IEEEFP && t->bits <= 16) {
        uint32_t count = 1u << t->bits, most = count - 1;
        t->lut = malloc(count);
        if (!t->lut) {
            sumi_tiff_fail(t, "out of memory");
            return -1;
        }
        for (uint32_t v = 0; v < count; v++) t->lut[v] = (uint8_t)((v * 255u + most / 2) / most);
    }
    return 0;
}

int sumi_tiff_read_info(sumi_tiff *t, sumi_tiff_info *info) {
    if (!t->tif || read_layout(t) != 0) return -1;
    info->width = t->width;
    info->height = t->height;
    info->bits_per_sample = t->bits;
    info->samples_per_pixel = t->samples;
    info->sample_format = t->format;
    info->photometric = t->photometric;
    info->planar_config = t->planar;
    info->compression = t->compression;
    info->orientation = t->orientation;
    info->has_alpha = t->alpha >= 0 || (t->through_rgba && t->samples > t->colours);
    info->whole_only = t->through_rgba;
    return 0;
}
