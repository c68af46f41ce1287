/*
 * contact-sheet: a Sumi plugin (ABI version 2) in plain C that reduces a list of images to one — a
 * grid of thumbnails, each scaled to fit its cell (box filter, aspect kept) and centred.
 *
 *   cc -shared -fPIC -O2 -fvisibility=hidden -I<sumi>/Sources/CSumiPlugin/include \
 *      -o libcontact-sheet.so contact_sheet.c
 */
#include <stdlib.h>
#include <string.h>
#include "sumi_plugin.h"

static const sumi_api *api;

static const char descriptor[] =
    "{\"name\": \"contact-sheet\", \"summary\": \"Lays a list of images out as a grid of thumbnails\","
    " \"inputs\": [{\"name\": \"in\", \"type\": \"images\"}], \"output\": \"image\", \"effect\": \"creates\","
    " \"params\": ["
    "  {\"name\": \"columns\", \"type\": \"integer\", \"default\": 4, \"min\": 1, \"max\": 64,"
    "   \"summary\": \"thumbnails a row\"},"
    "  {\"name\": \"cell\", \"type\": \"size\", \"default\": \"128x128\", \"summary\": \"the size of a cell, in pixels\"},"
    "  {\"name\": \"gap\", \"type\": \"integer\", \"default\": 4, \"min\": 0, \"max\": 1000,"
    "   \"summary\": \"space between cells and around the grid, in pixels\"},"
    "  {\"name\": \"background\", \"type\": \"color\", \"default\": \"#ffffff\", \"summary\": \"colour behind the thumbnails\"}]}";

typedef struct sheet {
    int columns, cell_width, cell_height, gap;
    uint8_t background[4]; /* premultiplied */
} sheet;

static int32_t create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
    (void)stage;
    int64_t columns = 4, gap = 4;
    double cw = 128, ch = 128;
    uint8_t rgba[4] = {255, 255, 255, 255};
    api->param_integer(api->param(params, "columns"), &columns);
    api->param_integer(api->param(params, "gap"), &gap);
    api->param_size(api->param(params, "cell"), &cw, &ch);
    api->param_color(api->param(params, "background"), rgba);
    if (cw < 1 || ch < 1 || cw > 4096 || ch > 4096)
        return sumi_error_set(error, SUMI_ERROR_INVALID_PARAMETER, "cell", "expected a cell of 1x1 to 4096x4096 pixels, got %gx%g", cw, ch);
    sheet *s = calloc(1, sizeof *s);
    if (s == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    s->columns = (int)columns;
    s->gap = (int)gap;
    s->cell_width = (int)cw;
    s->cell_height = (int)ch;
    for (int c = 0; c < 3; c++) s->background[c] = (uint8_t)((rgba[c] * rgba[3] + 127) / 255);
    s->background[3] = rgba[3];
    *instance = s;
    return SUMI_OK;
}

/* Box-filters `in` into the w x h rectangle at (x, y) of `out`. */
static void draw_thumbnail(const sumi_image *in, uint8_t *out, int64_t stride, int x, int y, int w, int h) {
    for (int ty = 0; ty < h; ty++) {
        int y0 = (int)((int64_t)ty * in->height / h), y1 = (int)((int64_t)(ty + 1) * in->height / h);
        if (y1 <= y0) y1 = y0 + 1;
        for (int tx = 0; tx < w; tx++) {
            int x0 = (int)((int64_t)tx * in->width / w), x1 = (int)((int64_t)(tx + 1) * in->width / w);
            if (x1 <= x0) x1 = x0 + 1;
            uint64_t sum[4] = {0, 0, 0, 0}, n = 0;
            for (int sy = y0; sy < y1; sy++) {
                const uint8_t *row = in->pixels + sy * in->stride;
                for (int sx = x0; sx < x1; sx++, n++)
                    for (int c = 0; c < 4; c++) sum[c] += row[sx * 4 + c];
            }
            uint8_t *dst = out + (y + ty) * stride + (int64_t)(x + tx) * 4;
            uint8_t src[4];
            for (int c = 0; c < 4; c++) src[c] = (uint8_t)((sum[c] + n / 2) / n);
            /* premultiplied "over" onto the background */
            for (int c = 0; c < 4; c++) dst[c] = (uint8_t)(src[c] + (dst[c] * (255 - src[3]) + 127) / 255);
        }
    }
}

static int32_t process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t input_count,
                       sumi_value **result, sumi_error *error) {
    const sheet *s = instance;
    if (input_count != 1 || api->kind(inputs[0]) != SUMI_KIND_IMAGES)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "expected a list of images");
    uint32_t count = api->list_count(inputs[0]);
    if (count == 0) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "the list of images is empty");
    int columns = (int)count < s->columns ? (int)count : s->columns;
    int rows = (int)((count + (uint32_t)columns - 1) / (uint32_t)columns);
    int64_t width = (int64_t)columns * (s->cell_width + s->gap) + s->gap;
    int64_t height = (int64_t)rows * (s->cell_height + s->gap) + s->gap;
    if (width > 32768 || height > 32768)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "a sheet of %lldx%lld pixels is too large", (long long)width, (long long)height);
    uint8_t *pixels;
    int64_t stride;
    sumi_value *out = api->new_image(call, (int32_t)width, (int32_t)height, &pixels, &stride);
    if (out == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "cannot allocate %lldx%lld", (long long)width, (long long)height);
    for (int64_t y = 0; y < height; y++)
        for (int64_t x = 0; x < width; x++) memcpy(pixels + y * stride + x * 4, s->background, 4);
    for (uint32_t i = 0; i < count; i++) {
        sumi_image image = { .size = sizeof image };
        if (api->image_pixels(api->list_item(inputs[0], i), &image) != SUMI_OK || image.width < 1 || image.height < 1)
            return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "image %u of the list is empty", i + 1);
        /* fit the cell, keeping the aspect ratio */
        int w = s->cell_width, h = (int)((int64_t)image.height * s->cell_width / image.width);
        if (h > s->cell_height) { h = s->cell_height; w = (int)((int64_t)image.width * s->cell_height / image.height); }
        if (w < 1) w = 1;
        if (h < 1) h = 1;
        int column = (int)(i % (uint32_t)columns), row = (int)(i / (uint32_t)columns);
        int x = s->gap + column * (s->cell_width + s->gap) + (s->cell_width - w) / 2;
        int y = s->gap + row * (s->cell_height + s->gap) + (s->cell_height - h) / 2;
        draw_thumbnail(&image, pixels, stride, x, y, w, h);
    }
    if (s->background[3] == 255) api->set_side_data(out, "opaque", (const uint8_t *)"\1", 1);
    *result = out;
    return SUMI_OK;
}

static void destroy(void *instance) { free(instance); }

static const sumi_stage stages[] = {{
    .size = sizeof(sumi_stage), .descriptor_json = descriptor,
    .create = create, .process = process, .destroy = destroy,
}};

static const sumi_plugin plugin = {
    .abi_version = SUMI_PLUGIN_ABI_VERSION, .size = sizeof(sumi_plugin),
    .name = "contact-sheet", .version = "1.0.0", .licence = "MIT",
    .description = "A grid of thumbnails from a list of images",
    .stage_count = 1, .stages = stages,
};

SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
    if (host == NULL || host->abi_version < SUMI_PLUGIN_ABI_VERSION || host->size < sizeof(sumi_host) || host->api == NULL)
        return SUMI_ERROR_ABI;
    api = host->api;
    *out = &plugin;
    return SUMI_OK;
}
