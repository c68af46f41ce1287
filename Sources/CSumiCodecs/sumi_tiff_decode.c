/* The pixels of a TIFF file's first directory (see sumi_tiff.h): rows of strips (a few at a time,
 * each plane of separate planes through its own handle) or rows of tiles are read into a band of
 * stored samples as the rows reach them, each row converted to premultiplied RGBA into a ring (a stream's, the whole
 * image, or a chunk whose rows are then put at their oriented places). */
#include "sumi_tiff_layout.h"
#include "sumi_codecs.h"
#include "sumi_pixels.h"
#include "sumi_lcms.h"

#include <stdlib.h>
#include <string.h>

/* Rows converted before they are put at their oriented places. */
enum { CHUNK_ROWS = 64 };

/* Refuses a strip or tile (`strile`) that starts past the end of the file before libtiff reads it:
 * libtiff would report "got <file size - offset> bytes" with the difference negative and printed
 * unsigned (18446744071562133626). `what` and `x`, `y` name it in the message. */
static int check_start(sumi_tiff *t, uint32_t strile, const char *what, uint32_t x, uint32_t y) {
    uint64_t offset = sumi_libtiff.TIFFGetStrileOffset(t->tif, strile);
    if (offset <= t->size || sumi_libtiff.TIFFGetStrileByteCount(t->tif, strile) == 0) return 0;
    if (x == UINT32_MAX)
        sumi_tiff_fail(t, "the %s at row %u starts at byte %llu, past the end of the file (%zu bytes)", what, y,
                       (unsigned long long)offset, t->size);
    else
        sumi_tiff_fail(t, "the %s at %u,%u starts at byte %llu, past the end of the file (%zu bytes)", what, x, y,
                       (unsigned long long)offset, t->size);
    return -1;
}

static int read_band(sumi_tiff *t, sumi_tiff_band *b, uint32_t y0, uint32_t rows) {
    for (int p = 0; p < b->planes; p++) {
        uint8_t *plane = b->raw + (size_t)p * b->rows * b->row_bytes;
        /* A codec that only warns of damage (a CCITT line of the wrong length) leaves the rest of
         * its strip unwritten: zeros there, as tiff2rgba and Pillow give (white for min-is-white),
         * never the band before's bytes. */
        memset(plane, 0, (size_t)b->rows * b->row_bytes);
        if (b->scanlines) {
            sumi_tiff *file = p == 0 ? t : b->plane_files[p];
            for (uint32_t r = 0; r < rows; r++)
                if (((y0 + r) % b->strip_rows == 0
                     && check_start(t, sumi_libtiff.TIFFComputeStrip(t->tif, y0 + r, (uint16_t)p), "strip", UINT32_MAX, y0 + r) != 0)
                    || sumi_libtiff.TIFFReadScanline(file->tif, plane + r * b->row_bytes, y0 + r, (uint16_t)p) < 0) {
                    /* A plane's own handle collected libtiff's reason. */
                    if (file != t && file->message[0]) sumi_tiff_fail(t, "%s", file->message);
                    sumi_tiff_fail(t, "row %u is cut off or unreadable", y0 + r);
                    return -1;
                }
            continue;
        }
        if (!b->tiled) {
            tmsize_t want = (tmsize_t)(rows * b->row_bytes);
            uint32_t strip = sumi_libtiff.TIFFComputeStrip(t->tif, y0, (uint16_t)p);
            if (check_start(t, strip, "strip", UINT32_MAX, y0) != 0) return -1;
            tmsize_t got = sumi_libtiff.TIFFReadEncodedStrip(t->tif, strip, plane, want);
            if (got < want) {
                sumi_tiff_fail(t, "the strip at row %u is cut off or unreadable", y0);
                return -1;
            }
            continue;
        }
        for (uint32_t x = 0, column = 0; x < t->width; x += b->tile_width, column++) {
            uint32_t tile = sumi_libtiff.TIFFComputeTile(t->tif, x, y0, 0, (uint16_t)p);
            if (check_start(t, tile, "tile", x, y0) != 0) return -1;
            /* A tile as wide as the image (no tile buffer) is read straight into the band. */
            uint8_t *into = b->tile ? b->tile : plane;
            tmsize_t want = b->tile ? (tmsize_t)b->tile_size : (tmsize_t)(b->rows * b->row_bytes);
            if (b->tile) memset(b->tile, 0, b->tile_size);
            if (sumi_libtiff.TIFFReadEncodedTile(t->tif, tile, into, want) < want) {
                sumi_tiff_fail(t, "the tile at %u,%u is cut off or unreadable", x, y0);
                return -1;
            }
            if (!b->tile) continue;
            for (uint32_t r = 0; r < rows; r++)
                memcpy(plane + r * b->row_bytes + column * b->tile_row_bytes, b->tile + r * b->tile_row_bytes,
                       b->tile_row_bytes);
        }
    }
    return 0;
}

/* The layouts libtiff's RGBA interface reads, in stored order (premultiplied RGBA on a
 * little-endian machine). */
static int decode_through_rgba(sumi_tiff *t, uint8_t *out, int orientation) {
    TIFFRGBAImage image;
    char reason[1024] = "";
    /* Stop at libtiff's first error (a damaged CCITT strip): what it could not decode would be
     * whatever the raster held, never pixels to pass on silently. */
    int quiet_before = t->message[0] == 0;
    if (!sumi_libtiff.TIFFRGBAImageBegin(&image, t->tif, 1, reason)) {
        sumi_tiff_fail(t, "%s", reason[0] ? reason : "unsupported TIFF layout");
        return -1;
    }
    image.req_orientation = image.orientation; /* no flips: orientation is applied below */
    uint8_t *raster = orientation == 1 ? out : malloc((size_t)t->width * t->height * 4);
    int ok = raster && sumi_libtiff.TIFFRGBAImageGet(&image, (uint32_t *)raster, t->width, t->height);
    sumi_libtiff.TIFFRGBAImageEnd(&image);
    if (quiet_before && t->message[0]) ok = 0; /* libtiff reported an error on the way */
    if (ok && orientation != 1) sumi_orient_rows(raster, (int)t->height, 0, (int)t->width, (int)t->height, out, orientation);
    if (raster != out) free(raster);
    if (!ok) sumi_tiff_fail(t, raster ? "unreadable image data" : "out of memory");
    return ok ? 0 : -1;
}

static int plan_band(sumi_tiff *t, sumi_tiff_band *b) {
    b->planes = t->planar == PLANARCONFIG_SEPARATE ? t->used : 1;
    b->tiled = sumi_libtiff.TIFFIsTiled(t->tif);
    if (b->tiled) {
        uint32_t tile_height = 0;
        sumi_libtiff.TIFFGetField(t->tif, TIFFTAG_TILEWIDTH, &b->tile_width);
        sumi_libtiff.TIFFGetField(t->tif, TIFFTAG_TILELENGTH, &tile_height);
        uint64_t row_bits = (uint64_t)b->tile_width * (t->planar == PLANARCONFIG_SEPARATE ? 1 : t->samples) * t->bits;
        b->tile_row_bytes = (size_t)sumi_libtiff.TIFFTileRowSize64(t->tif);
        b->tile_size = (size_t)sumi_libtiff.TIFFTileSize64(t->tif);
        if (b->tile_width == 0 || tile_height == 0 || row_bits % 8 || b->tile_row_bytes * 8 != row_bits
            || b->tile_size < b->tile_row_bytes * tile_height) {
            sumi_tiff_fail(t, "unsupported tile layout (%ux%u tiles)", b->tile_width, tile_height);
            return -1;
        }
        b->rows = tile_height;
        b->row_bytes = b->tile_row_bytes * ((t->width + b->tile_width - 1) / b->tile_width);
    } else {
        uint32_t rows_per_strip = t->height;
        sumi_libtiff.TIFFGetFieldDefaulted(t->tif, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
        b->rows = rows_per_strip == 0 || rows_per_strip > t->height ? t->height : rows_per_strip;
        b->strip_rows = b->rows;
        b->row_bytes = (size_t)sumi_libtiff.TIFFScanlineSize64(t->tif);
        /* Rows are read in order through libtiff's scanline interface, so a file stored as one
         * strip (of each plane) needs a few rows of buffer, not a second copy of the image. */
        b->scanlines = 1;
        b->rows = t->height < CHUNK_ROWS ? t->height : CHUNK_ROWS;
        for (int p = 1; p < b->planes; p++) {
            sumi_tiff *file = b->plane_files[p] = sumi_tiff_open(t->data, t->size, t->max_allocation);
            if (!file || !file->tif) {
                sumi_tiff_fail(t, "%s", file && file->message[0] ? file->message : "out of memory");
                return -1;
            }
        }
    }
    uint64_t bytes = (uint64_t)b->planes * b->rows * b->row_bytes;
    if (b->row_bytes == 0 || (double)b->planes * b->rows * b->row_bytes > (double)t->max_allocation) {
        sumi_tiff_fail(t, "a strip or row of tiles of %llu bytes is more than the memory limit",
                       (unsigned long long)bytes);
        return -1;
    }
    /* Tiles narrower than the image are read into a tile buffer and copied to their columns of
     * the band; one as wide as the image needs no buffer of its own (one copy of a large tile). */
    int buffered = b->tiled && b->tile_width < t->width;
    b->raw = malloc((size_t)b->planes * b->rows * b->row_bytes);
    b->tile = buffered ? malloc(b->tile_size) : NULL;
    if (!b->raw || (buffered && !b->tile)) {
        sumi_tiff_fail(t, "out of memory");
        return -1;
    }
    return 0;
}

/* What a decode needs besides the file: the band of stored samples and the colour conversion. */
typedef struct decoding {
    sumi_tiff_band b;
    sumi_tiff_converter c;
    uint8_t *palette;
} decoding;

static void end_decoding(decoding *d) {
    for (int p = 1; p < SUMI_TIFF_MAX_USED; p++) sumi_tiff_close(d->b.plane_files[p]);
    free(d->b.raw);
    free(d->b.tile);
    free(d->palette);
    free(d->c.lab_row);
    free(d->c.rgb_row);
    if (d->c.lab) sumi_lcms.cmsDeleteTransform(d->c.lab);
}

static int begin_decoding(sumi_tiff *t, decoding *d) {
    if (plan_band(t, &d->b) != 0) return -1;
    if (t->photometric == PHOTOMETRIC_PALETTE) {
        if (!(d->palette = malloc(((size_t)3) << t->bits))) {
            sumi_tiff_fail(t, "out of memory");
            return -1;
        }
        sumi_tiff_palette8(t, d->palette);
        d->c.palette = d->palette;
    }
    if (t->photometric == PHOTOMETRIC_CIELAB || t->photometric == PHOTOMETRIC_ICCLAB) {
        if (t->bits != 8 && t->bits != 16) {
            sumi_tiff_fail(t, "%u-bit Lab samples", t->bits);
            return -1;
        }
        char missing[600];
        if (sumi_lcms_open(missing, sizeof missing) != 0) {
            sumi_tiff_fail(t, "%s", missing);
            return -1;
        }
        cmsHPROFILE lab = sumi_lcms.cmsCreateLab4Profile(NULL), srgb = sumi_lcms.cmsCreate_sRGBProfile();
        if (lab && srgb)
            d->c.lab = sumi_lcms.cmsCreateTransform(lab, TYPE_Lab_DBL, srgb, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC,
                                                    cmsFLAGS_NOCACHE);
        if (lab) sumi_lcms.cmsCloseProfile(lab);
        if (srgb) sumi_lcms.cmsCloseProfile(srgb);
        d->c.lab_row = malloc((size_t)t->width * 3 * sizeof(double));
        d->c.rgb_row = malloc((size_t)t->width * 3);
        if (!d->c.lab || !d->c.lab_row || !d->c.rgb_row) {
            sumi_tiff_fail(t, "could not set up the Lab to sRGB conversion");
            return -1;
        }
    }
    return 0;
}

/* The stored rows, upright, into `ring`: each strip (a few rows at a time for one plane, through
 * libtiff's scanline interface) or row of tiles is read when the rows reach it, and its rows are
 * converted straight into the ring in bands that never wrap around the ring's end. */
static int decode_rows(sumi_tiff *t, decoding *d, const sumi_ring *ring) {
    uint32_t band_start = 0, band_end = 0;
    int errors_before = t->errors;
    for (uint32_t y = 0; y < t->height;) {
        if (y >= band_end) {
            band_start = y;
            band_end = t->height - y < d->b.rows ? t->height : y + d->b.rows;
            int read = read_band(t, &d->b, band_start, band_end - band_start);
            /* An error the codec reported while reading (a bad CCITT code word, a JPEG strip its
             * library cannot finish) leaves rows it could not decode: refused, never passed on as
             * pixels (libtiff's warnings, a line of the wrong length, are not errors). */
            if (read != 0 && t->errors == errors_before) return -1;
            if (t->errors > errors_before) {
                snprintf(t->message, sizeof t->message, "damaged image data in the rows from %u (libtiff: %s)", band_start,
                         t->last_error);
                return -1;
            }
        }
        uint32_t n = band_end - y, room = (uint32_t)ring->rows - y % (uint32_t)ring->rows;
        if (n > (uint32_t)ring->band) n = (uint32_t)ring->band;
        if (n > room) n = room;
        if (ring->wait(ring->context, (int)(y + n)) != 0) {
            sumi_tiff_fail(t, "stopped by a failure elsewhere in the pipeline");
            return -1;
        }
        uint8_t *first = ring->base + (size_t)(y % (uint32_t)ring->rows) * ring->stride;
        for (uint32_t r = 0; r < n; r++) sumi_tiff_convert_row(t, &d->b, &d->c, y - band_start + r, first + r * ring->stride);
        ring->done(ring->context, (int)(y + n));
        y += n;
    }
    return 0;
}

int sumi_tiff_decode_ring(sumi_tiff *t, const sumi_ring *ring) {
    if (!t->tif || t->width == 0) return -1;
    if (t->through_rgba) {
        /* libtiff's RGBA interface fills a whole raster. */
        if (ring->rows < (int)t->height) {
            sumi_tiff_fail(t, "this TIFF layout is decoded only whole");
            return -1;
        }
        if (ring->wait(ring->context, (int)t->height) != 0) {
            sumi_tiff_fail(t, "stopped by a failure elsewhere in the pipeline");
            return -1;
        }
        if (decode_through_rgba(t, ring->base, 1) != 0) return -1;
        ring->done(ring->context, (int)t->height);
        return 0;
    }
    decoding d = {0};
    int result = begin_decoding(t, &d) == 0 ? decode_rows(t, &d, ring) : -1;
    end_decoding(&d);
    return result;
}

/* Turns the rows a ring over a chunk buffer hands on into their places in the oriented image. */
typedef struct orienting {
    uint8_t *chunk, *out;
    int rows, done, width, height, orientation;
} orienting;

static int orienting_wait(void *context, int through) {
    (void)context, (void)through;
    return 0;
}

static void orienting_done(void *context, int through) {
    orienting *o = context;
    /* decode_rows never hands on a band that wraps around the chunk's end. */
    sumi_orient_rows(o->chunk + (size_t)(o->done % o->rows) * (size_t)o->width * 4, through - o->done, o->done, o->width,
                     o->height, o->out, o->orientation);
    o->done = through;
}

int sumi_tiff_decode(sumi_tiff *t, uint8_t *out, int orientation) {
    if (!t->tif || t->width == 0) return -1;
    if (orientation < 1 || orientation > 8) orientation = 1;
    size_t row_rgba = (size_t)t->width * 4;
    if (orientation == 1) {
        sumi_ring whole = sumi_whole_ring(out, row_rgba, (int)t->height, (int)t->height);
        return sumi_tiff_decode_ring(t, &whole);
    }
    if (t->through_rgba) return decode_through_rgba(t, out, orientation);
    /* Turned: rows go through a chunk of CHUNK_ROWS, each band put at its place as it is done. */
    orienting o = {malloc(row_rgba * CHUNK_ROWS), out, CHUNK_ROWS, 0, (int)t->width, (int)t->height, orientation};
    if (!o.chunk) {
        sumi_tiff_fail(t, "out of memory");
        return -1;
    }
    sumi_ring chunk = {o.chunk, row_rgba, CHUNK_ROWS, CHUNK_ROWS, orienting_wait, orienting_done, &o};
    int result = sumi_tiff_decode_ring(t, &chunk);
    free(o.chunk);
    return result;
}
