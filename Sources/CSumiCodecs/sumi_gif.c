/* GIF input through giflib (see sumi_gif.h). For the first frame only the records up to its image
 * data are read: an animation's other frames cost nothing. A later frame is composited on the
 * canvas as Pillow shows it (sumi_gif_compose). */
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
    /* The frame's disposal method as its graphic control block gives it (0: none given), and how
     * many frames were read before it. */
    int disposal, index;
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

/* Names the frame being read in a message: "the first frame" keeps the first frame's messages. */
static void frame_name(const sumi_gif *g, char *name, size_t size) {
    if (g->index == 0) snprintf(name, size, "the first frame");
    else snprintf(name, size, "frame %d", g->index + 1);
}

/* Reads the records up to the next image descriptor, its graphic control block's transparent index
 * and disposal method with it. Returns 1 for a frame, 0 at the end of the file (a later frame: the
 * trailer, or the data ending where a record would begin, as Pillow counts), -1 on an error. */
static int next_frame(sumi_gif *g, sumi_gif_frame *frame) {
    if (!g->file) return -1;
    GifFileType *file = g->file;
    char name[40], what[80];
    frame_name(g, name, sizeof name);
    g->transparent_index = -1;
    g->disposal = 0;
    for (;;) {
        if (g->index > 0 && g->position >= g->size) return 0;
        GifRecordType type;
        snprintf(what, sizeof what, "before %s", name);
        if (sumi_libgif.DGifGetRecordType(file, &type) == GIF_ERROR) {
            /* Past the first frame, a byte that begins no record is passed over, as Pillow reads
             * (giflib has consumed it and changed nothing else). */
            if (g->index > 0 && file->Error == D_GIF_ERR_WRONG_RECORD) continue;
            return fail(g, file->Error, what);
        }
        if (type == TERMINATE_RECORD_TYPE) {
            if (g->index > 0) return 0;
            snprintf(g->message, sizeof g->message, "the GIF holds no image");
            return -1;
        }
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *block;
            if (sumi_libgif.DGifGetExtension(file, &code, &block) == GIF_ERROR) return fail(g, file->Error, "an extension");
            /* The graphic control block before the frame says which index is transparent and how
             * the frame is disposed of. */
            if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) {
                g->transparent_index = (block[1] & 1) ? block[4] : -1;
                g->disposal = (block[1] >> 2) & 7;
            }
            while (block)
                if (sumi_libgif.DGifGetExtensionNext(file, &block) == GIF_ERROR) return fail(g, file->Error, "an extension");
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        snprintf(what, sizeof what, "%s's descriptor", name);
        if (sumi_libgif.DGifGetImageDesc(file) == GIF_ERROR) return fail(g, file->Error, what);
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
        return 1;
    }
}

int sumi_gif_read_frame(sumi_gif *g, sumi_gif_frame *frame) {
    return next_frame(g, frame) == 1 ? 0 : -1;
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
    char name[40], where[64];
    frame_name(g, name, sizeof name);
    snprintf(where, sizeof where, "row %d of %s", y, name);
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

/* ---- A later frame, composited as Pillow shows it ---- */

/* Passes over the current frame's image data without decoding it. */
static int skip_frame(sumi_gif *g) {
    int code_size;
    GifByteType *block;
    char name[40], what[64];
    frame_name(g, name, sizeof name);
    snprintf(what, sizeof what, "the data of %s", name);
    if (sumi_libgif.DGifGetCode(g->file, &code_size, &block) == GIF_ERROR) return fail(g, g->file->Error, what);
    while (block)
        if (sumi_libgif.DGifGetCodeNext(g->file, &block) == GIF_ERROR) return fail(g, g->file->Error, what);
    return 0;
}

int sumi_gif_scan(sumi_gif *g, int wanted, sumi_gif_layout *layout) {
    sumi_gif_layout l = {0};
    for (;;) {
        sumi_gif_frame f;
        int found = next_frame(g, &f);
        if (found < 0) return -1;
        if (found == 0) break;
        l.frames++;
        g->index++;
        if (f.canvas_width > l.canvas_width) l.canvas_width = f.canvas_width;
        if (f.canvas_height > l.canvas_height) l.canvas_height = f.canvas_height;
        l.pixels += (uint64_t)f.width * (uint64_t)f.height;
        if (l.frames == wanted) break;
        if (skip_frame(g) != 0) return -1;
    }
    *layout = l;
    return 0;
}

/* Pillow reads a colour table whose entry i is grey i as no table: the frame is grey levels. */
static const ColorMapObject *needed_table(const ColorMapObject *map) {
    if (!map) return NULL;
    for (int i = 0; i < map->ColorCount; i++) {
        const GifColorType *c = &map->Colors[i];
        if (c->Red != i || c->Green != i || c->Blue != i) return map;
    }
    return NULL;
}

static uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | g << 8 | b << 16 | a << 24; }

/* Index `i` through `map` (grey levels without one; black past its end), opaque. */
static uint32_t table_colour(const ColorMapObject *map, int i) {
    if (!map) return rgba((uint32_t)i, (uint32_t)i, (uint32_t)i, 255);
    if (i >= map->ColorCount) return rgba(0, 0, 0, 255);
    const GifColorType *c = &map->Colors[i];
    return rgba(c->Red, c->Green, c->Blue, 255);
}

/* The canvas: words as Pillow holds its pixels (an RGB image's fourth byte kept, as Pillow's paste
 * keeps it), the part of it the frames so far cover (Pillow grows the canvas with them), and what
 * is to be done to the last frame's place before the next is drawn. */
typedef struct {
    uint32_t *pixels;
    int stride, width, height;
    int restore;             /* 0 nothing, 1 fill `fill`, 2 put back `saved` */
    uint32_t fill, *saved;
    int left, top, right, bottom;  /* the last frame's place */
} canvas;

static void fill_rect(canvas *c, int x0, int y0, int x1, int y1, uint32_t colour) {
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) c->pixels[(size_t)y * (size_t)c->stride + (size_t)x] = colour;
}

/* Puts back or fills the last frame's place, as its disposal method asked. */
static void dispose(canvas *c) {
    int w = c->right - c->left;
    if (c->restore == 1) fill_rect(c, c->left, c->top, c->right, c->bottom, c->fill);
    if (c->restore == 2)
        for (int y = c->top; y < c->bottom; y++)
            memcpy(c->pixels + (size_t)y * (size_t)c->stride + (size_t)c->left, c->saved + (size_t)(y - c->top) * (size_t)w,
                   (size_t)w * 4);
    free(c->saved);
    c->saved = NULL;
    c->restore = 0;
}

/* Keeps the frame's place as it is now; where the canvas does not reach yet, `outside` (Pillow's
 * crop past an image: zero bytes, index 0 on a grey canvas). */
static int save_place(canvas *c, sumi_gif *g, uint32_t outside) {
    int w = c->right - c->left, h = c->bottom - c->top;
    c->saved = malloc(((size_t)w * (size_t)h + 1) * 4);
    if (!c->saved) {
        snprintf(g->message, sizeof g->message, "out of memory");
        return -1;
    }
    for (int y = c->top; y < c->bottom; y++)
        for (int x = c->left; x < c->right; x++)
            c->saved[(size_t)(y - c->top) * (size_t)w + (size_t)(x - c->left)] =
                y < c->height && x < c->width ? c->pixels[(size_t)y * (size_t)c->stride + (size_t)x] : outside;
    c->restore = 2;
    return 0;
}

/* Grows the covered part to hold the frame at c->left...c->bottom, the new part `colour`. */
static void grow(canvas *c, uint32_t colour) {
    int w = c->right > c->width ? c->right : c->width, h = c->bottom > c->height ? c->bottom : c->height;
    fill_rect(c, c->width, 0, w, c->height, colour);
    fill_rect(c, 0, c->height, w, h, colour);
    c->width = w;
    c->height = h;
}

/* Decodes the current frame's rows (in four passes when interlaced) into the canvas at its place:
 * index i as colours[i], except `skip` (-1: none), which leaves the canvas as it was. */
static int draw_frame(sumi_gif *g, canvas *c, const uint32_t colours[256], int skip, GifPixelType *line) {
    static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
    const sumi_gif_frame *f = &g->frame;
    int passes = g->file->Image.Interlace ? 4 : 1;
    for (int pass = 0; pass < passes; pass++)
        for (int y = passes == 1 ? 0 : starts[pass]; y < f->height; y += passes == 1 ? 1 : steps[pass]) {
            if (read_line(g, line, y) != 0) return -1;
            uint32_t *row = c->pixels + (size_t)(f->top + y) * (size_t)c->stride + (size_t)f->left;
            for (int x = 0; x < f->width; x++)
                if (line[x] != skip) row[x] = colours[line[x]];
        }
    return 0;
}

int sumi_gif_compose(sumi_gif *g, int wanted, int canvas_width, int canvas_height, uint8_t *out, int *opaque) {
    if (!g->file) return -1;
    GifFileType *file = g->file;
    canvas c = {.pixels = (uint32_t *)(void *)out, .stride = canvas_width};
    GifPixelType *line = malloc((size_t)canvas_width + 1);
    if (!line) {
        snprintf(g->message, sizeof g->message, "out of memory");
        return -1;
    }
    const ColorMapObject *global = needed_table(file->SColorMap);
    int background = file->SColorMap ? file->SBackGroundColor : 0;
    /* Pillow keeps the first frame's mode: with a colour table, the canvas becomes RGB (RGBA when the
     * first frame has a transparent index) from the second frame on; without one (grey levels) it
     * stays indices, made transparent at the end where they are the first frame's transparent one. */
    int grey = 0, first_transparent = -1, has_alpha = 0, disposal = 0, result = 0;
    uint32_t colours[256];
    for (int k = 0; k < wanted && result == 0; k++) {
        sumi_gif_frame f;
        int found = next_frame(g, &f);
        if (found != 1) {
            if (found == 0) snprintf(g->message, sizeof g->message, "the GIF ends before frame %d", k + 1);
            result = -1;
            break;
        }
        int transparent = g->transparent_index;
        /* A disposal method is kept until a frame gives another (Pillow's reading). */
        if (g->disposal) disposal = g->disposal;
        const ColorMapObject *table = file->Image.ColorMap ? needed_table(file->Image.ColorMap) : global;
        if (k == 0) {
            grey = table == NULL;
            first_transparent = transparent;
            has_alpha = transparent >= 0;
        }
        for (int i = 0; i < 256; i++) {
            /* Grey levels: the index itself, clear where it is the first frame's transparent one. */
            colours[i] = grey ? rgba((uint32_t)i, (uint32_t)i, (uint32_t)i, i == first_transparent ? 0 : 255)
                              : table_colour(table, i);
        }
        if (k == 0 && !grey && transparent >= 0) colours[transparent] &= 0x00FFFFFFu;
        if (k > 0) dispose(&c);
        c.left = f.left;
        c.top = f.top;
        c.right = f.left + f.width;
        c.bottom = f.top + f.height;
        if (c.right > canvas_width || c.bottom > canvas_height) {
            snprintf(g->message, sizeof g->message, "frame %d lies outside the canvas", k + 1);
            result = -1;
            break;
        }
        /* What this frame's place becomes before the next frame (never for the wanted one). */
        if (k + 1 < wanted && disposal >= 2) {
            if (disposal == 2) {
                /* Pillow's "background": the transparent index first (a grey canvas: the first frame's),
                 * else the screen's background index. */
                int index = grey && first_transparent >= 0 ? first_transparent : transparent >= 0 ? transparent : background;
                c.restore = 1;
                if (grey || k == 0) {
                    c.fill = colours[index & 255];
                } else {
                    /* An index past the table is colour 0, as Pillow takes it. */
                    int i = table && index >= table->ColorCount ? 0 : index;
                    c.fill = table_colour(table, i) & (transparent >= 0 ? 0x00FFFFFFu : 0xFFFFFFFFu);
                }
            } else if (k == 0) {
                /* Nothing is before the first frame: its transparent index, if any, else left. */
                if (transparent >= 0) {
                    c.restore = 1;
                    c.fill = colours[transparent];
                }
            } else if (save_place(&c, g, grey ? colours[0] : 0) != 0) {
                result = -1;
                break;
            }
        }
        if (k == 0) {
            c.width = f.canvas_width;
            c.height = f.canvas_height;
            fill_rect(&c, 0, 0, c.width, c.height, colours[transparent >= 0 ? transparent : 0]);
            result = draw_frame(g, &c, colours, -1, line);
        } else {
            if (c.right > c.width || c.bottom > c.height) {
                if (grey) {
                    grow(&c, colours[0]);
                } else {
                    /* Pillow grows an RGB canvas with the frame's colour 0, or clear (RGBA) when the
                     * frame has a transparent index. */
                    grow(&c, transparent >= 0 ? 0 : table_colour(table, 0));
                    has_alpha = transparent >= 0;
                }
            }
            result = draw_frame(g, &c, colours, transparent, line);
        }
        g->index++;
    }
    free(line);
    free(c.saved);
    if (result != 0) return -1;
    /* Pillow's RGB canvas is opaque whatever its fourth bytes; otherwise premultiplied (alpha is 0 or 255). */
    size_t count = (size_t)canvas_width * (size_t)canvas_height;
    for (size_t i = 0; i < count; i++) {
        if (!has_alpha && !grey) c.pixels[i] |= 0xFF000000u;
        else if (c.pixels[i] >> 24 == 0) c.pixels[i] = 0;
    }
    *opaque = grey ? first_transparent < 0 : !has_alpha;
    return 0;
}
