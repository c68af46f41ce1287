/* libpng decoding with libpng's errors caught by setjmp: one row loop into a ring. */
#include "sumi_codecs.h"
#include "sumi_pixels.h"
#include "sumi_png_errors.h"
#include "sumi_png_inflate.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sumi_png_calls.h"

/* ---- decoding ------------------------------------------------------------------------------ */

struct sumi_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    int header_read;
    int width;
    int height;
    int has_alpha;
    int passes;
    int verified;
    /* For sumi_png_inflate_whole: the channels of an 8-bit RGB or RGBA image without tRNS, not
     * interlaced (0: any other PNG), and where its image data begins. */
    int plain_channels;
    size_t idat;
    char message[256];
    /* libpng's warnings about chunks it ignored, "; "-separated (those about colour-space chunks,
     * which the metadata reader interprets itself, left out). */
    char warnings[256];
};

/* A warning from libpng: kept when it says that something drawn was ignored (a tRNS before PLTE),
 * not for the colour-space chunks (iCCP, sRGB, cHRM, gAMA), which are read elsewhere. */
static void on_read_warning(png_structp png, png_const_charp text) {
    /* libpng warns only while it reads, through read_from_memory, whose I/O pointer is the decoder. */
    sumi_png_decoder *d = png_get_io_ptr(png);
    if (!d || !text) return;
    static const char *const quiet[] = { "iCCP", "sRGB", "cHRM", "gAMA" };
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++)
        if (strncmp(text, quiet[i], strlen(quiet[i])) == 0) return;
    size_t used = strlen(d->warnings);
    if (strstr(d->warnings, text) != NULL || used + 3 >= sizeof d->warnings) return;
    snprintf(d->warnings + used, sizeof d->warnings - used, "%s%s", used ? "; " : "", text);
}

static void read_from_memory(png_structp png, png_bytep out, size_t length) {
    sumi_png_decoder *d = png_get_io_ptr(png);
    if (d->size - d->offset < length) {
        snprintf(d->message, sizeof d->message, "truncated PNG data (premature end of file)");
        png_error(png, d->message);
    }
    memcpy(out, d->data + d->offset, length);
    d->offset += length;
}

sumi_png_decoder *sumi_png_decoder_create(const uint8_t *data, size_t size, int verified) {
    sumi_png_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->data = data;
    d->size = size;
    if (sumi_png_libraries_open(d->message, sizeof d->message) != 0) return d;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d->message, sumi_png_on_error, on_read_warning);
    if (d->png) d->info = png_create_info_struct(d->png);
    if (!d->png || !d->info) snprintf(d->message, sizeof d->message, "out of memory");
    /* Bytes already decoded once without error need not have their checksums computed again
     * (zlib's Adler-32 and the chunk CRCs: about a tenth of the decode). */
    else if (verified) {
        d->verified = 1;
        png_set_option(d->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
        png_set_crc_action(d->png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
    }
    return d;
}

void sumi_png_decoder_destroy(sumi_png_decoder *d) {
    if (!d) return;
    if (d->png) png_destroy_read_struct(&d->png, d->info ? &d->info : NULL, NULL);
    free(d);
}

const char *sumi_png_decoder_error(const sumi_png_decoder *d) { return d ? d->message : "out of memory"; }

const char *sumi_png_decoder_warnings(const sumi_png_decoder *d) { return d->warnings; }

int sumi_png_decoder_read_header(sumi_png_decoder *d, long long max_pixels, long long max_width, int *width,
                                 int *height, int *has_alpha) {
    if (!d->png || !d->info) return -1;
    if (setjmp(png_jmpbuf(d->png))) return -1;
    png_set_read_fn(d->png, d, read_from_memory);
    /* libpng's own limits are opened to its full range: the pixel count and the row width are
     * checked below against the run's limits, after the header and before png_read_update_info
     * allocates the row buffers (a 45,000,000x1 image's row is 180 MB). */
    png_set_user_limits(d->png, 0x7fffffff, 0x7fffffff);
    png_read_info(d->png, d->info);
    png_uint_32 w = 0, h = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(d->png, d->info, &w, &h, &depth, &color, &interlace, NULL, NULL);
    if ((unsigned long long)w * (unsigned long long)h > (unsigned long long)(max_pixels < 1 ? 1 : max_pixels)
        || (unsigned long long)w > (unsigned long long)(max_width < 1 ? 1 : max_width)) {
        *width = (int)w;
        *height = (int)h;
        return -2;
    }
    /* A tRNS libpng cancelled (out of place: before PLTE) stays "valid" with no entries: it is
     * ignored, as libpng ignores it, with its warning. */
    png_bytep trans_alpha = NULL;
    int trans_count = 0;
    png_color_16p trans_color = NULL;
    int trns = png_get_valid(d->png, d->info, PNG_INFO_tRNS) != 0
        && png_get_tRNS(d->png, d->info, &trans_alpha, &trans_count, &trans_color) != 0 && trans_count > 0;
    d->idat = d->offset;
    if (depth == 8 && !trns && interlace == PNG_INTERLACE_NONE)
        d->plain_channels = color == PNG_COLOR_TYPE_RGB ? 3 : color == PNG_COLOR_TYPE_RGB_ALPHA ? 4 : 0;
    d->has_alpha = (color & PNG_COLOR_MASK_ALPHA) != 0 || trns;

    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(d->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(d->png);
    if (trns) png_set_tRNS_to_alpha(d->png);
    if (depth == 16) png_set_scale_16(d->png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(d->png);
    if (!d->has_alpha) png_set_filler(d->png, 0xFF, PNG_FILLER_AFTER);
    d->passes = png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);
    if (png_get_rowbytes(d->png, d->info) != (size_t)w * 4) {
        snprintf(d->message, sizeof d->message, "libpng gave %zu bytes a row for %u pixels, not 4 a pixel (an internal error)",
                 (size_t)png_get_rowbytes(d->png, d->info), (unsigned)w);
        return -1;
    }
    d->width = (int)w;
    d->height = (int)h;
    d->header_read = 1;
    *width = d->width;
    *height = d->height;
    *has_alpha = d->has_alpha;
    return 0;
}

int sumi_png_decoder_is_interlaced(const sumi_png_decoder *d) { return d->passes > 1; }

/* The one decode loop. An interlaced image's earlier passes fill every row of a ring as tall as the
 * image first; its last pass (an image's only one otherwise) completes the rows in order. */
int sumi_png_decoder_decode_ring(sumi_png_decoder *d, const sumi_ring *ring) {
    if (!d->header_read) return -1;
    if (d->passes > 1 && ring->rows < d->height) {
        snprintf(d->message, sizeof d->message, "an interlaced PNG is decoded only whole");
        return -1;
    }
    if (setjmp(png_jmpbuf(d->png))) return -1;
    if (d->passes > 1 && ring->wait(ring->context, d->height) != 0) {
        snprintf(d->message, sizeof d->message, "stopped by a failure elsewhere in the pipeline");
        return -1;
    }
    /* A whole image of the common kind in one piece; any other, row by row through libpng. */
    if (d->plain_channels && d->passes == 1 && ring->rows >= d->height && ring->band >= d->height) {
        if (ring->wait(ring->context, d->height) != 0) {
            snprintf(d->message, sizeof d->message, "stopped by a failure elsewhere in the pipeline");
            return -1;
        }
        if (sumi_png_inflate_whole(d->data, d->size, d->idat, d->width, d->height, d->plain_channels, d->verified,
                                   ring) == 0) {
            ring->done(ring->context, d->height);
            return 0;
        }
    }
    for (int pass = 1; pass < d->passes; pass++)
        for (int y = 0; y < d->height; y++) png_read_row(d->png, ring->base + (size_t)y * ring->stride, NULL);
    /* Rows are reserved and published a band at a time, not one by one: a tall thin image (a
       1x100,000,000 PNG) would otherwise pay two lock rounds a pixel. */
    int band = ring->band > 0 ? ring->band : 1;
    for (int y = 0; y < d->height;) {
        int end = d->height - y > band ? y + band : d->height;
        if (ring->wait(ring->context, end) != 0) {
            snprintf(d->message, sizeof d->message, "stopped by a failure elsewhere in the pipeline");
            return -1;
        }
        for (; y < end; y++) {
            uint8_t *row = ring->base + (size_t)(y % ring->rows) * ring->stride;
            png_read_row(d->png, row, NULL);
            if (d->has_alpha) sumi_premultiply(row, (size_t)d->width);
        }
        ring->done(ring->context, end);
    }
    /* The chunks after the image data must be there too: a file cut after IDAT is truncated. */
    png_read_end(d->png, NULL);
    return 0;
}
