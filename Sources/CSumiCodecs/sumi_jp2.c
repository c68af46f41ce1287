#include "sumi_jp2.h"
#include "sumi_openjp2.h"
#include "sumi_dl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

sumi_openjp2_api sumi_openjp2;
static struct sumi_dl_library library = SUMI_DL_LIBRARY(SUMI_OPENJP2_LIBRARY, sumi_openjp2_names, &sumi_openjp2);

int sumi_openjp2_open(const char **error) { return sumi_dl_open_library(&library, error); }
int sumi_jp2_library(const char **error) { return sumi_openjp2_open(error); }

struct sumi_jp2 {
    const uint8_t *data;
    size_t size;
    size_t position;
    opj_codec_t *codec;
    opj_stream_t *stream;
    opj_image_t *image;
    char error[512];
    char warning[256];
};

static void fail(sumi_jp2 *j, const char *format, ...) {
    if (j->error[0]) return;
    va_list list;
    va_start(list, format);
    vsnprintf(j->error, sizeof j->error, format, list);
    va_end(list);
}

/* libopenjp2's messages end in a newline. */
static void copy_message(char *to, size_t size, const char *message) {
    snprintf(to, size, "%s", message ? message : "");
    size_t n = strlen(to);
    while (n > 0 && (to[n - 1] == '\n' || to[n - 1] == ' ')) to[--n] = 0;
}

static void on_error(const char *message, void *user) {
    sumi_jp2 *j = user;
    if (!j->error[0]) copy_message(j->error, sizeof j->error, message);
}

static void on_warning(const char *message, void *user) {
    sumi_jp2 *j = user;
    copy_message(j->warning, sizeof j->warning, message);
}

static OPJ_SIZE_T on_read(void *buffer, OPJ_SIZE_T count, void *user) {
    sumi_jp2 *j = user;
    if (j->position >= j->size) return (OPJ_SIZE_T)-1;
    size_t n = j->size - j->position < count ? j->size - j->position : count;
    memcpy(buffer, j->data + j->position, n);
    j->position += n;
    return n;
}

static OPJ_OFF_T on_skip(OPJ_OFF_T count, void *user) {
    sumi_jp2 *j = user;
    if (count < 0) {
        if ((size_t)-count > j->position) return -1;
        j->position -= (size_t)-count;
        return count;
    }
    size_t n = j->size - j->position < (size_t)count ? j->size - j->position : (size_t)count;
    j->position += n;
    return (OPJ_OFF_T)n;
}

static OPJ_BOOL on_seek(OPJ_OFF_T to, void *user) {
    sumi_jp2 *j = user;
    if (to < 0 || (uint64_t)to > j->size) return OPJ_FALSE;
    j->position = (size_t)to;
    return OPJ_TRUE;
}

sumi_jp2 *sumi_jp2_open(const uint8_t *data, size_t size) {
    sumi_jp2 *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->data = data;
    j->size = size;
    const char *missing = NULL;
    if (sumi_openjp2_open(&missing) != 0) {
        fail(j, "JPEG 2000 needs libopenjp2 (" SUMI_OPENJP2_LIBRARY ", Debian package libopenjp2-7), which could not be loaded: %s", missing);
        return j;
    }
    static const uint8_t jp2_signature[] = {0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A};
    int is_jp2 = size >= sizeof jp2_signature && memcmp(data, jp2_signature, sizeof jp2_signature) == 0;
    j->codec = sumi_openjp2.opj_create_decompress(is_jp2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K);
    if (!j->codec) { fail(j, "cannot start a JPEG 2000 decoder"); return j; }
    sumi_openjp2.opj_set_error_handler(j->codec, on_error, j);
    sumi_openjp2.opj_set_warning_handler(j->codec, on_warning, j);
    opj_dparameters_t parameters;
    sumi_openjp2.opj_set_default_decoder_parameters(&parameters);
    if (!sumi_openjp2.opj_setup_decoder(j->codec, &parameters)) { fail(j, "cannot set up the JPEG 2000 decoder"); return j; }
    j->stream = sumi_openjp2.opj_stream_create(OPJ_J2K_STREAM_CHUNK_SIZE, OPJ_TRUE);
    if (!j->stream) { fail(j, "cannot start a JPEG 2000 stream"); return j; }
    sumi_openjp2.opj_stream_set_user_data(j->stream, j, NULL);
    sumi_openjp2.opj_stream_set_user_data_length(j->stream, size);
    sumi_openjp2.opj_stream_set_read_function(j->stream, on_read);
    sumi_openjp2.opj_stream_set_skip_function(j->stream, on_skip);
    sumi_openjp2.opj_stream_set_seek_function(j->stream, on_seek);
    if (!sumi_openjp2.opj_read_header(j->stream, j->codec, &j->image) || !j->image) {
        fail(j, "unreadable JPEG 2000 header");
        return j;
    }
    opj_image_t *image = j->image;
    if (image->numcomps < 1 || image->numcomps > 4 || !image->comps) {
        fail(j, "JPEG 2000 image with %u components (1 to 4 are read)", image->numcomps);
        return j;
    }
    if (image->color_space == OPJ_CLRSPC_CMYK || image->color_space == OPJ_CLRSPC_EYCC) {
        fail(j, "JPEG 2000 image in %s (sRGB, sYCC and grey are read)", image->color_space == OPJ_CLRSPC_CMYK ? "CMYK" : "e-YCC");
        return j;
    }
    for (OPJ_UINT32 c = 0; c < image->numcomps; c++) {
        opj_image_comp_t *comp = &image->comps[c];
        if (comp->prec < 1 || comp->prec > 31 || comp->dx < 1 || comp->dy < 1) {
            fail(j, "JPEG 2000 component %u has %u-bit samples at a spacing of %ux%u", c + 1, comp->prec, comp->dx, comp->dy);
            return j;
        }
    }
    if (image->x1 <= image->x0 || image->y1 <= image->y0 || image->x1 - image->x0 > 0x7fffffff || image->y1 - image->y0 > 0x7fffffff) {
        fail(j, "JPEG 2000 header gives an empty or oversized image");
    }
    return j;
}

const char *sumi_jp2_error(const sumi_jp2 *j) { return j->error[0] ? j->error : NULL; }
const char *sumi_jp2_warning(const sumi_jp2 *j) { return j->warning[0] ? j->warning : NULL; }
int sumi_jp2_width(const sumi_jp2 *j) { return j->image ? (int)(j->image->x1 - j->image->x0) : 0; }
int sumi_jp2_height(const sumi_jp2 *j) { return j->image ? (int)(j->image->y1 - j->image->y0) : 0; }

static int alpha_component(const opj_image_t *image) {
    for (OPJ_UINT32 c = 0; c < image->numcomps; c++) if (image->comps[c].alpha) return (int)c;
    if (image->numcomps == 2 || image->numcomps == 4) return (int)image->numcomps - 1;
    return -1;
}

int sumi_jp2_has_alpha(const sumi_jp2 *j) { return j->image && alpha_component(j->image) >= 0; }

/* A component's sample at image pixel (x, y), scaled to 8 bits. */
static inline int sample(const opj_image_comp_t *comp, OPJ_UINT32 x, OPJ_UINT32 y) {
    OPJ_UINT32 cx = x / comp->dx, cy = y / comp->dy;
    if (cx >= comp->w) cx = comp->w - 1;
    if (cy >= comp->h) cy = comp->h - 1;
    int64_t v = comp->data[(size_t)cy * comp->w + cx];
    int64_t max = ((int64_t)1 << comp->prec) - 1;
    if (comp->sgnd) v += (int64_t)1 << (comp->prec - 1);
    if (v < 0) v = 0;
    if (v > max) v = max;
    return (int)((v * 255 + max / 2) / max);
}

static inline uint8_t clamp8(double v) { return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)(v + 0.5); }

int sumi_jp2_decode(sumi_jp2 *j, uint8_t *rgba) {
    if (j->error[0] || !j->image) return -1;
    if (!sumi_openjp2.opj_decode(j->codec, j->stream, j->image) || !sumi_openjp2.opj_end_decompress(j->codec, j->stream)) {
        fail(j, "damaged JPEG 2000 data");
        return -1;
    }
    opj_image_t *image = j->image;
    for (OPJ_UINT32 c = 0; c < image->numcomps; c++) {
        if (!image->comps[c].data || image->comps[c].w == 0 || image->comps[c].h == 0) { fail(j, "JPEG 2000 component %u was not decoded", c + 1); return -1; }
    }
    OPJ_UINT32 width = image->x1 - image->x0, height = image->y1 - image->y0;
    int alpha = alpha_component(image);
    int colours = (int)image->numcomps - (alpha >= 0 ? 1 : 0);
    int sycc = image->color_space == OPJ_CLRSPC_SYCC && colours >= 3;
    for (OPJ_UINT32 y = 0; y < height; y++) {
        uint8_t *out = rgba + (size_t)y * width * 4;
        for (OPJ_UINT32 x = 0; x < width; x++, out += 4) {
            if (colours >= 3) {
                int a = sample(&image->comps[0], x, y), b = sample(&image->comps[1], x, y), c = sample(&image->comps[2], x, y);
                if (sycc) {
                    out[0] = clamp8(a + 1.402 * (c - 128));
                    out[1] = clamp8(a - 0.344136 * (b - 128) - 0.714136 * (c - 128));
                    out[2] = clamp8(a + 1.772 * (b - 128));
                } else {
                    out[0] = (uint8_t)a; out[1] = (uint8_t)b; out[2] = (uint8_t)c;
                }
            } else {
                out[0] = out[1] = out[2] = (uint8_t)sample(&image->comps[alpha == 0 ? 1 : 0], x, y);
            }
            out[3] = alpha >= 0 ? (uint8_t)sample(&image->comps[alpha], x, y) : 255;
        }
    }
    return 0;
}

void sumi_jp2_close(sumi_jp2 *j) {
    if (!j) return;
    if (j->image) sumi_openjp2.opj_image_destroy(j->image);
    if (j->stream) sumi_openjp2.opj_stream_destroy(j->stream);
    if (j->codec) sumi_openjp2.opj_destroy_codec(j->codec);
    free(j);
}
