/* libjpeg-turbo decoding and encoding with errors (and corrupt-data warnings) caught by setjmp. */
#include "sumi_codecs.h"
#include "sumi_pixels.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

#include "sumi_codec_libraries.h"

/* The error manager: libjpeg calls error_exit (and emit_message) and we jump back to the caller. */
struct sumi_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 80];
    /* Whether a damaged file is refused (`decode strict=true`) rather than read as libjpeg reads it. */
    int strict;
    /* The first warning that the pixels are not all the file's (when not strict); "" when none. */
    char warning[JMSG_LENGTH_MAX + 80];
};

/* Warnings that mean some pixels are not the file's (libjpeg warns, fills what is missing with grey
   and goes on, as djpeg and Pillow do): kept for the caller to report, or an error when strict. */
static int warning_is_fatal(int code) {
    switch (code) {
    case JWRN_JPEG_EOF:
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_BOGUS_PROGRESSION:
        return 1;
    default:
        return 0;
    }
}

static void describe(j_common_ptr cinfo, char *buffer, size_t size) {
    char text[JMSG_LENGTH_MAX];
    cinfo->err->format_message(cinfo, text);
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
        snprintf(buffer, size, "truncated JPEG data (premature end of file)");
    } else {
        snprintf(buffer, size, "%s", text);
    }
}

static void on_error_exit(j_common_ptr cinfo) {
    struct sumi_jpeg_error *err = (struct sumi_jpeg_error *)cinfo->err;
    describe(cinfo, err->message, sizeof err->message);
    longjmp(err->jump, 1);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    struct sumi_jpeg_error *err = (struct sumi_jpeg_error *)cinfo->err;
    if (level < 0) {
        cinfo->err->num_warnings++;
        if (warning_is_fatal(cinfo->err->msg_code)) {
            if (err->strict) {
                describe(cinfo, err->message, sizeof err->message);
                longjmp(err->jump, 1);
            }
            if (err->warning[0] == 0) describe(cinfo, err->warning, sizeof err->warning);
        }
    }
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void install_errors(struct sumi_jpeg_error *err) {
    sumi_libjpeg.jpeg_std_error(&err->manager);
    err->manager.error_exit = on_error_exit;
    err->manager.emit_message = on_emit_message;
    err->manager.output_message = on_output_message;
    err->message[0] = 0;
    err->warning[0] = 0;
}

/* ---- decoding ------------------------------------------------------------------------------ */

struct sumi_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct sumi_jpeg_error err;
    struct jpeg_progress_mgr progress;
    const uint8_t *data;
    size_t size;
    int created;
    int header_read;
    int cmyk;
    int inverted_cmyk;
    uint8_t *strip;
};

/* Called by libjpeg while it reads the data: stops a file with more than SUMI_JPEG_MAX_SCANS scans
 * (as djpeg -maxscans does) before the next scan's pass over the whole image. */
static void on_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->input_scan_number > SUMI_JPEG_MAX_SCANS) {
        struct sumi_jpeg_error *err = (struct sumi_jpeg_error *)cinfo->err;
        snprintf(err->message, sizeof err->message, "JPEG data has more than %d scans (a limit against hostile files)",
                 SUMI_JPEG_MAX_SCANS);
        longjmp(err->jump, 1);
    }
}

sumi_jpeg_decoder *sumi_jpeg_decoder_create(const uint8_t *data, size_t size) {
    sumi_jpeg_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->data = data;
    d->size = size;
    /* Without libjpeg the decoder is never created: its message is the reason, reported by
       read_header. */
    if (sumi_libjpeg_open(d->err.message, sizeof d->err.message) != 0) return d;
    install_errors(&d->err);
    d->cinfo.err = &d->err.manager;
    if (setjmp(d->err.jump)) {
        return d; /* the message is kept; read_header reports it */
    }
    sumi_libjpeg.jpeg_CreateDecompress(&d->cinfo, JPEG_LIB_VERSION, sizeof d->cinfo);
    d->created = 1;
    d->progress.progress_monitor = on_progress;
    d->cinfo.progress = &d->progress;
    return d;
}

void sumi_jpeg_decoder_destroy(sumi_jpeg_decoder *d) {
    if (!d) return;
    if (d->created) sumi_libjpeg.jpeg_destroy_decompress(&d->cinfo);
    free(d->strip);
    free(d);
}

const char *sumi_jpeg_decoder_error(const sumi_jpeg_decoder *d) {
    return d ? d->err.message : "out of memory";
}

void sumi_jpeg_decoder_set_strict(sumi_jpeg_decoder *d, int strict) { d->err.strict = strict; }

const char *sumi_jpeg_decoder_warning(const sumi_jpeg_decoder *d) { return d->err.warning; }

int sumi_jpeg_decoder_read_header(sumi_jpeg_decoder *d, int *width, int *height, int *components) {
    if (!d->created) return -1;
    if (setjmp(d->err.jump)) return -1;
    if (d->size > (size_t)(unsigned long)-1) {
        snprintf(d->err.message, sizeof d->err.message, "JPEG data too large");
        return -1;
    }
    sumi_libjpeg.jpeg_mem_src(&d->cinfo, d->data, (unsigned long)d->size);
    sumi_libjpeg.jpeg_read_header(&d->cinfo, TRUE);
    d->header_read = 1;
    J_COLOR_SPACE space = d->cinfo.jpeg_color_space;
    d->cmyk = space == JCS_CMYK || space == JCS_YCCK;
    d->inverted_cmyk = d->cmyk && d->cinfo.saw_Adobe_marker;
    d->cinfo.out_color_space = d->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    *width = (int)d->cinfo.image_width;
    *height = (int)d->cinfo.image_height;
    *components = d->cinfo.num_components;
    return 0;
}

int sumi_jpeg_decoder_set_scale(sumi_jpeg_decoder *d, int scale_num, int *out_width, int *out_height) {
    if (!d->header_read) return -1;
    if (setjmp(d->err.jump)) return -1;
    d->cinfo.scale_num = (unsigned)(scale_num < 1 ? 1 : scale_num > 16 ? 16 : scale_num);
    d->cinfo.scale_denom = 8;
    sumi_libjpeg.jpeg_calc_output_dimensions(&d->cinfo);
    *out_width = (int)d->cinfo.output_width;
    *out_height = (int)d->cinfo.output_height;
    return 0;
}

/* Converts CMYK (as libjpeg returns it) to opaque RGBA in place. */
static void cmyk_to_rgba(uint8_t *p, size_t count, int inverted) {
    for (size_t i = 0; i < count; i++, p += 4) {
        unsigned c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        p[0] = (uint8_t)((c * k + 127) / 255);
        p[1] = (uint8_t)((m * k + 127) / 255);
        p[2] = (uint8_t)((y * k + 127) / 255);
        p[3] = 255;
    }
}

enum { STREAM_BAND = 16, MOST_BAND = 64 };

/* The one decode loop: upright rows into `ring`, in bands of at most `most` rows (at most
 * MOST_BAND) and ring->band. Streams take `sumi_ring_band`'s bands. */
static int decode_bands(sumi_jpeg_decoder *d, const sumi_ring *ring, int most) {
    if (!d->header_read) return -1;
    if (setjmp(d->err.jump)) return -1;
    sumi_libjpeg.jpeg_start_decompress(&d->cinfo);
    int h = (int)d->cinfo.output_height;
    if (most > MOST_BAND) most = MOST_BAND;
    const int band = ring->band < 1 ? 1 : ring->band < most ? ring->band : most;
    JSAMPROW rows[MOST_BAND];
    while (d->cinfo.output_scanline < d->cinfo.output_height) {
        int y0 = (int)d->cinfo.output_scanline;
        int want = h - y0 < band ? h - y0 : band;
        if (ring->wait(ring->context, y0 + want) != 0) {
            snprintf(d->err.message, sizeof d->err.message, "stopped by a failure elsewhere in the pipeline");
            return -1;
        }
        for (int j = 0; j < want; j++) rows[j] = ring->base + (size_t)((y0 + j) % ring->rows) * ring->stride;
        int got = 0;
        while (got < want) {
            JDIMENSION n = sumi_libjpeg.jpeg_read_scanlines(&d->cinfo, rows + got, (JDIMENSION)(want - got));
            if (n == 0) break;
            got += (int)n;
        }
        if (got == 0) {
            snprintf(d->err.message, sizeof d->err.message, "truncated JPEG data (no scanlines)");
            return -1;
        }
        if (d->cmyk) {
            for (int j = 0; j < got; j++) cmyk_to_rgba(rows[j], (size_t)d->cinfo.output_width, d->inverted_cmyk);
        }
        ring->done(ring->context, y0 + got);
    }
    sumi_libjpeg.jpeg_finish_decompress(&d->cinfo);
    return 0;
}

int sumi_jpeg_decoder_decode_ring(sumi_jpeg_decoder *d, const sumi_ring *ring) {
    return decode_bands(d, ring, sumi_ring_band(ring, ring->stride, MOST_BAND));
}

/* A whole decode with a rotation or flip: upright rows go to a ring of `rows` rows, and each band
 * is put in its place in `out` as soon as it is done. */
struct oriented_output {
    uint8_t *strip;
    int rows, next, width, height, orientation;
    uint8_t *out;
};

static void oriented_done(void *context, int through) {
    struct oriented_output *o = context;
    while (o->next < through) {
        int at = o->next % o->rows;
        int count = through - o->next < o->rows - at ? through - o->next : o->rows - at;
        sumi_orient_rows(o->strip + (size_t)at * (size_t)o->width * 4, count, o->next, o->width, o->height, o->out,
                         o->orientation);
        o->next += count;
    }
}

int sumi_jpeg_decoder_decode(sumi_jpeg_decoder *d, uint8_t *out, int orientation) {
    if (!d->header_read) return -1;
    if (orientation < 1 || orientation > 8) orientation = 1;
    if (setjmp(d->err.jump)) return -1;
    sumi_libjpeg.jpeg_calc_output_dimensions(&d->cinfo);
    int w = (int)d->cinfo.output_width, h = (int)d->cinfo.output_height;
    size_t row_bytes = (size_t)w * 4;
    if (orientation == 1) {
        const sumi_ring ring = sumi_whole_ring(out, row_bytes, h, h);
        return decode_bands(d, &ring, STREAM_BAND);
    }
    /* Rotations write each band as columns: taller bands mean longer runs in each output row. */
    const int strip_rows = orientation >= 5 ? 64 : 16;
    d->strip = malloc(row_bytes * (size_t)strip_rows);
    if (!d->strip) {
        snprintf(d->err.message, sizeof d->err.message, "out of memory");
        return -1;
    }
    struct oriented_output oriented = {d->strip, strip_rows, 0, w, h, orientation, out};
    sumi_ring ring = sumi_whole_ring(d->strip, row_bytes, strip_rows, strip_rows);
    ring.done = oriented_done;
    ring.context = &oriented;
    return decode_bands(d, &ring, strip_rows);
}

/* ---- encoding ------------------------------------------------------------------------------ */

/*
 * A growable memory destination that we own (libjpeg's jpeg_mem_dest frees and replaces its buffer as
 * it grows without telling the caller, so after an error mid-encode the caller cannot know which
 * buffer to free).
 */
struct memory_destination {
    struct jpeg_destination_mgr pub;
    unsigned char *data;
    size_t capacity;
    size_t size;
    struct sumi_jpeg_error *err;
};

static void memory_init(j_compress_ptr cinfo) {
    struct memory_destination *d = (struct memory_destination *)cinfo->dest;
    d->capacity = 1 << 20;
    d->data = malloc(d->capacity);
    if (!d->data) {
        snprintf(d->err->message, sizeof d->err->message, "out of memory");
        longjmp(d->err->jump, 1);
    }
    d->pub.next_output_byte = d->data;
    d->pub.free_in_buffer = d->capacity;
}

static boolean memory_grow(j_compress_ptr cinfo) {
    struct memory_destination *d = (struct memory_destination *)cinfo->dest;
    unsigned char *grown = realloc(d->data, d->capacity * 2);
    if (!grown) {
        snprintf(d->err->message, sizeof d->err->message, "out of memory");
        longjmp(d->err->jump, 1);
    }
    d->data = grown;
    d->pub.next_output_byte = d->data + d->capacity;
    d->pub.free_in_buffer = d->capacity;
    d->capacity *= 2;
    return TRUE;
}

static void memory_term(j_compress_ptr cinfo) {
    struct memory_destination *d = (struct memory_destination *)cinfo->dest;
    d->size = d->capacity - d->pub.free_in_buffer;
}

/* What an encode owns; on the heap so its fields are reliable after a longjmp. */
struct jpeg_encode_state {
    struct jpeg_compress_struct cinfo;
    struct sumi_jpeg_error err;
    struct memory_destination memory;
    int created;
    uint8_t *row;
};

/* Sets the encoder's parameters and starts it. Errors
 * jump to `s->err.jump`, which the caller has set. */
static void start_compress(struct jpeg_encode_state *s, int width, int height, int quality, int optimize,
                           int flatten) {
    s->cinfo.image_width = (JDIMENSION)width;
    s->cinfo.image_height = (JDIMENSION)height;
    s->cinfo.input_components = flatten ? 3 : 4;
    s->cinfo.in_color_space = flatten ? JCS_RGB : JCS_EXT_RGBA;
    sumi_libjpeg.jpeg_set_defaults(&s->cinfo);
    sumi_libjpeg.jpeg_set_quality(&s->cinfo, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    s->cinfo.optimize_coding = (optimize & SUMI_JPEG_OPTIMIZE) ? TRUE : FALSE;
    /* 4:2:0 chroma subsampling (the library default for YCbCr, stated here on purpose), or 4:4:4. */
    int full = (optimize & SUMI_JPEG_FULL_CHROMA) != 0;
    s->cinfo.comp_info[0].h_samp_factor = full ? 1 : 2;
    s->cinfo.comp_info[0].v_samp_factor = full ? 1 : 2;
    if (optimize & SUMI_JPEG_PROGRESSIVE) sumi_libjpeg.jpeg_simple_progression(&s->cinfo);
    sumi_libjpeg.jpeg_start_compress(&s->cinfo, TRUE);
    if (flatten) {
        s->row = malloc((size_t)width * 3);
        if (!s->row) {
            snprintf(s->err.message, sizeof s->err.message, "out of memory");
            longjmp(s->err.jump, 1);
        }
    }
}

static void release(struct jpeg_encode_state *s) {
    if (s->created) sumi_libjpeg.jpeg_destroy_compress(&s->cinfo);
    free(s->row);
    free(s);
}

int sumi_jpeg_encode_ring(const sumi_ring *ring, int width, int height, int quality, int optimize, int flatten,
                          uint8_t bg_r, uint8_t bg_g, uint8_t bg_b,
                          uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    if (sumi_libjpeg_open(error, error_size) != 0) return -1;
    struct jpeg_encode_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    install_errors(&s->err);
    s->cinfo.err = &s->err.manager;
    if (setjmp(s->err.jump)) {
        snprintf(error, error_size, "%s", s->err.message);
        free(s->memory.data);
        release(s);
        return -1;
    }
    sumi_libjpeg.jpeg_CreateCompress(&s->cinfo, JPEG_LIB_VERSION, sizeof s->cinfo);
    s->created = 1;
    s->memory.pub.init_destination = memory_init;
    s->memory.pub.empty_output_buffer = memory_grow;
    s->memory.pub.term_destination = memory_term;
    s->memory.err = &s->err;
    s->cinfo.dest = &s->memory.pub;
    start_compress(s, width, height, quality, optimize, flatten);
    /* Whole iMCU row bands (16 rows at 4:2:0), released as soon as libjpeg has copied them. */
    const int band = sumi_ring_band(ring, ring->stride, MOST_BAND);
    while (s->cinfo.next_scanline < s->cinfo.image_height) {
        int y0 = (int)s->cinfo.next_scanline;
        int end = y0 + band < height ? y0 + band : height;
        if (ring->wait(ring->context, end) != 0) {
            snprintf(s->err.message, sizeof s->err.message, "the image being encoded was not produced");
            longjmp(s->err.jump, 1);
        }
        for (int y = y0; y < end; y++) {
            const uint8_t *src = ring->base + (size_t)(y % ring->rows) * ring->stride;
            JSAMPROW row;
            if (flatten) {
                sumi_flatten_row(src, s->row, width, bg_r, bg_g, bg_b, 0);
                row = s->row;
            } else {
                row = (JSAMPROW)src;
            }
            sumi_libjpeg.jpeg_write_scanlines(&s->cinfo, &row, 1);
        }
        ring->done(ring->context, end);
    }
    sumi_libjpeg.jpeg_finish_compress(&s->cinfo);
    *out = s->memory.data;
    *out_size = s->memory.size;
    release(s);
    return 0;
}

int sumi_jpeg_encode(const uint8_t *rgba, int width, int height, size_t stride, int quality,
                     int optimize, int flatten, uint8_t bg_r, uint8_t bg_g, uint8_t bg_b,
                     uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    const int rows = height > 0 ? height : 1;
    const sumi_ring ring = sumi_whole_ring((uint8_t *)rgba, stride, rows, rows);
    return sumi_jpeg_encode_ring(&ring, width, height, quality, optimize, flatten, bg_r, bg_g, bg_b,
                                 out, out_size, error, error_size);
}
