/* GIF input through giflib (see sumi_gif.h). Only the records up to the first frame's image data
 * are read: an animation's other frames cost nothing. */
#include "sumi_gif.h"

#include "sumi_codec_libraries.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sumi_gif {
    const uint8_t *data;
    size_t size, position;
    GifFileType *file;
    int error;
    char message[600];
    sumi_gif_frame frame;
    int transparent_index, frame_read;
};

static int read_memory(GifFileType *file, GifByteType *buffer, int count) {
    sumi_gif *g = file->UserData;
    size_t left = g->size - g->position;
    size_t n = count < 0 ? 0 : (size_t)count < left ? (size_t)count : left;
    memcpy(buffer, g->data + g->position, n);
    g->position += n;
    return (int)n;
}

static int fail(sumi_gif *g, int code, const char *what) {
    const char *reason = sumi_libgif.GifErrorString(code);
    if (!g->message[0]) {
        /* giflib also says "read failed" for what it does not read (an LZW code size above 8). */
        if ((code == D_GIF_ERR_READ_FAILED && g->position >= g->size) || code == D_GIF_ERR_EOF_TOO_SOON)
            snprintf(g->message, sizeof g->message, "truncated GIF data (%s)", what);
        else
            snprintf(g->message, sizeof g->message, "corrupt GIF data: %s (%s)", reason ? reason : "unreadable", what);
    }
    return -1;
}

sumi_gif *sumi_gif_open(const uint8_t *data, size_t size) {
    sumi_gif *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->data = data;
    g->size = size;
    g->transparent_index = -1;
    /* Without giflib nothing is opened: the first read reports the message. */
    if (sumi_libgif_open(g->message, sizeof g->message) != 0) return g;
    g->file = sumi_libgif.DGifOpen(g, read_memory, &g->error);
    if (!g->file) fail(g, g->error, "the header");
    return g;
}

void sumi_gif_close(sumi_gif *g) {
    if (!g) return;
    if (g->file) sumi_libgif.DGifCloseFile(g->file, &g->error);
    free(g);
}

const char *sumi_gif_error(const sumi_gif *g) { return g->message; }

int sumi_gif_read_frame(sumi_gif *g, sumi_gif_frame *frame) {
    if (!g->file) return -1;
    GifFileType *file = g->file;
    for (;;) {
        GifRecordType type;
        if (sumi_libgif.DGifGetRecordType(file, &type) == GIF_ERROR) return fail(g, file->Error, "before the first frame");
        if (type == TERMINATE_RECORD_TYPE) {
            snprintf(g->message, sizeof g->message, "the GIF holds no image");
            return -1;
        }
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *block;
            if (sumi_libgif.DGifGetExtension(file, &code, &block) == GIF_ERROR) return fail(g, file->Error, "an extension");
            /* The graphic control block before the frame says which index is transparent. */
            if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4)
                g->transparent_index = (block[1] & 1) ? block[4] : -1;
            while (block)
                if (sumi_libgif.DGifGetExtensionNext(file, &block) == GIF_ERROR) return fail(g, file->Error, "an extension");
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (sumi_libgif.DGifGetImageDesc(file) == GIF_ERROR) return fail(g, file->Error, "the first frame's descriptor");
        GifImageDesc *d = &file->Image;
        sumi_gif_frame f = {0};
        f.left = d->Left;
        f.top = d->Top;
        f.width = d->Width;
        f.height = d->Height;
        f.screen_width = file->SWidth;
        f.screen_height = file->SHeight;
        f.canvas_width = file->SWidth > f.left + f.width ? file->SWidth : f.left + f.width;
        f.canvas_height = file->SHeight > f.top + f.height ? file->SHeight : f.top + f.height;
        f.has_transparency = g->transparent_index >= 0;
        g->frame = f;
        g->frame_read = 1;
        *frame = f;
        return 0;
    }
}

/* The frame's colours as little-endian RGBA words: the local table, else the global one, else grey
 * levels; the transparent index clear. */
static void frame_colours(const sumi_gif *g, uint32_t colours[256]) {
    const GifFileType *file = g->file;
    const ColorMapObject *map = file->Image.ColorMap ? file->Image.ColorMap : file->SColorMap;
    for (int i = 0; i < 256; i++) {
        uint32_t r = (uint32_t)i, gr = (uint32_t)i, b = (uint32_t)i;
        if (map) {
            if (i < map->ColorCount) {
                r = map->Colors[i].Red;
                gr = map->Colors[i].Green;
                b = map->Colors[i].Blue;
            } else {
                r = gr = b = 0;
            }
        }
        colours[i] = r | gr << 8 | b << 16 | 0xFF000000u;
    }
    if (g->transparent_index >= 0) colours[g->transparent_index & 255] = 0;
}

/* Reads the frame's next stored row of indices (`y`: its place, for the message). */
static int read_line(sumi_gif *g, GifPixelType *line, int y) {
    if (sumi_libgif.DGifGetLine(g->file, line, g->frame.width) != GIF_ERROR) return 0;
    char where[64];
    snprintf(where, sizeof where, "row %d of the first frame", y);
    return fail(g, g->file->Error, where);
}

/* Interlaced rows arrive in four passes: every 8th from 0, every 8th from 4, every 4th from 2, then
 * every 2nd from 1. The first three passes hold the even rows: their indices (a byte a pixel, half
 * the frame) are read first, row y at y / 2; the last pass's odd rows then come in order, each
 * just before the even row below it is wanted. */
static uint8_t *read_even_rows(sumi_gif *g) {
    static const int starts[3] = {0, 4, 2}, steps[3] = {8, 8, 4};
    const sumi_gif_frame *f = &g->frame;
    size_t size = (size_t)f->width * (size_t)((f->height + 1) / 2);
    uint8_t *even = malloc(size > 0 ? size : 1);
    if (!even) {
        snprintf(g->message, sizeof g->message, "out of memory");
        return NULL;
    }
    for (int pass = 0; pass < 3; pass++)
        for (int y = starts[pass]; y < f->height; y += steps[pass])
            if (read_line(g, even + (size_t)(y / 2) * (size_t)f->width, y) != 0) {
                free(even);
                return NULL;
            }
    return even;
}

/* One canvas row into `row`: the background, and the frame's row of indices `line` (NULL for a
 * row the frame does not cross) in colour. */
static void put_row(const sumi_gif *g, const uint32_t colours[256], uint32_t background, const GifPixelType *line,
                    uint32_t *row) {
    const sumi_gif_frame *f = &g->frame;
    for (int x = 0; x < f->canvas_width; x++) row[x] = background;
    if (!line) return;
    for (int x = 0; x < f->width; x++) row[f->left + x] = colours[line[x]];
}

int sumi_gif_decode_ring(sumi_gif *g, const sumi_ring *ring) {
    if (!g->frame_read) return -1;
    const sumi_gif_frame *f = &g->frame;
    uint32_t colours[256];
    frame_colours(g, colours);
    uint32_t background = f->has_transparency ? 0 : colours[0];
    int interlaced = g->file->Image.Interlace;
    uint8_t *even = interlaced ? read_even_rows(g) : NULL;
    GifPixelType *line = malloc(f->width > 0 ? (size_t)f->width : 1);
    if ((interlaced && !even) || !line) {
        if (!g->message[0]) snprintf(g->message, sizeof g->message, "out of memory");
        free(even);
        free(line);
        return -1;
    }
    int result = 0;
    /* Rows are reserved and handed on in bands (the ring's), not one by one. */
    for (int y0 = 0; y0 < f->canvas_height && result == 0; y0 += ring->band) {
        int y1 = y0 + ring->band < f->canvas_height ? y0 + ring->band : f->canvas_height;
        if (ring->wait(ring->context, y1) != 0) {
            snprintf(g->message, sizeof g->message, "stopped by a failure elsewhere in the pipeline");
            result = -1;
            break;
        }
        for (int y = y0; y < y1 && result == 0; y++) {
            int frame_y = y - f->top;
            const GifPixelType *source = NULL;
            if (frame_y >= 0 && frame_y < f->height) {
                if (interlaced && frame_y % 2 == 0) {
                    source = even + (size_t)(frame_y / 2) * (size_t)f->width;
                } else if ((result = read_line(g, line, frame_y)) == 0) {
                    source = line;
                }
            }
            put_row(g, colours, background, source, (uint32_t *)(ring->base + (size_t)(y % ring->rows) * ring->stride));
        }
        if (result == 0) ring->done(ring->context, y1);
    }
    free(even);
    free(line);
    return result;
}
