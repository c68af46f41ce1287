/*
 * A test plugin for bands beside other inputs (`band_start`, `port_access`, `image_size`), compiled
 * by the tests with `cc` against the current header (Sources/CSumiPlugin/include).
 *
 * Stages:
 *   band-mix    base (image, by bands), over (image, whole) → image ("effect": "pixels"): each byte
 *               the mean of base's and over's, rounded down. `band_start` checks that the base has
 *               no pixels but a size (image_size), keeps over's pixels, and sets "opaque" on the
 *               result. `process` (never called while the stage streams) fails.
 *   shape-size  base (image, read as a shape) → a 1x1 image ("effect": "creates"): (width, height,
 *               1 when image_pixels refused the base else 0, 255).
 */
#include <string.h>
#include "sumi_plugin.h"

static const sumi_api *api;

static const char mix_descriptor[] =
    "{\"name\": \"band-mix\", \"summary\": \"mean of two images\", \"effect\": \"pixels\","
    " \"inputs\": [{\"name\": \"base\", \"type\": \"image\"}, {\"name\": \"over\", \"type\": \"image\"}], \"output\": \"image\"}";
static const char shape_descriptor[] =
    "{\"name\": \"shape-size\", \"summary\": \"size of its base\", \"effect\": \"creates\","
    " \"inputs\": [{\"name\": \"base\", \"type\": \"image\"}], \"output\": \"image\"}";

typedef struct { const uint8_t *over; int64_t stride; int32_t width, height; } mix_state;

static int32_t create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
    (void)stage; (void)params; (void)error;
    static mix_state states[64];
    static int used;
    mix_state *s = &states[used++ % 64];
    memset(s, 0, sizeof *s);
    *instance = s;
    return SUMI_OK;
}

static void destroy(void *instance) { (void)instance; }

static int32_t mix_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                           sumi_value **result, sumi_error *error) {
    (void)instance; (void)call; (void)inputs; (void)count; (void)result;
    return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "band-mix runs by bands only");
}

static uint32_t mix_access(void *instance, uint32_t port) {
    (void)instance;
    return port == 0 ? SUMI_ACCESS_BANDS : SUMI_ACCESS_WHOLE;
}

static int32_t mix_start(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                         sumi_value *output, sumi_error *error) {
    (void)call;
    mix_state *s = instance;
    if (count != 2) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "band_start got %u inputs", count);
    sumi_image base = { .size = sizeof base }, over = { .size = sizeof over };
    if (api->image_pixels(inputs[0], &base) == SUMI_OK) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "the base has pixels");
    if (api->image_size(inputs[0], &s->width, &s->height) != SUMI_OK) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "no base size");
    if (api->image_pixels(inputs[1], &over) != SUMI_OK) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "over has no pixels");
    if (over.width != s->width || over.height != s->height)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "over is %dx%d, the base %dx%d", over.width, over.height, s->width, s->height);
    s->over = over.pixels;
    s->stride = over.stride;
    static const uint8_t opaque[] = { 1 };
    sumi_error refused = { .size = sizeof refused };
    if (api->write_side_data(output, "opaque", opaque, 1, &refused) != SUMI_OK)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "opaque refused: %s", refused.message);
    return SUMI_OK;
}

static int32_t mix_band(void *instance, const uint8_t *in_rows, uint8_t *out_rows, int32_t first_row, int32_t row_count,
                        int64_t stride, sumi_error *error) {
    mix_state *s = instance;
    if (!s->over || first_row < 0 || first_row + row_count > s->height)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "band %d+%d outside the image", first_row, row_count);
    for (int32_t r = 0; r < row_count; r++) {
        const uint8_t *a = in_rows + r * stride, *b = s->over + (first_row + r) * s->stride;
        uint8_t *o = out_rows + r * stride;
        for (int32_t i = 0; i < s->width * 4; i++) o[i] = (uint8_t)((a[i] + b[i]) / 2);
    }
    return SUMI_OK;
}

static int32_t mix_end(void *instance, int32_t completed, sumi_error *error) {
    (void)completed; (void)error;
    mix_state *s = instance;
    s->over = NULL;
    return SUMI_OK;
}

static uint32_t shape_access(void *instance, uint32_t port) {
    (void)instance; (void)port;
    return SUMI_ACCESS_SHAPE;
}

static int32_t shape_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                             sumi_value **result, sumi_error *error) {
    (void)instance;
    sumi_image base = { .size = sizeof base };
    int32_t width = 0, height = 0;
    if (count != 1 || api->image_size(inputs[0], &width, &height) != SUMI_OK)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "no base size");
    int refused = api->image_pixels(inputs[0], &base) != SUMI_OK;
    uint8_t *pixels = NULL;
    int64_t stride = 0;
    *result = api->new_image(call, 1, 1, &pixels, &stride);
    if (!*result) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "no image");
    pixels[0] = (uint8_t)width;
    pixels[1] = (uint8_t)height;
    pixels[2] = (uint8_t)refused;
    pixels[3] = 255;
    return SUMI_OK;
}

static const sumi_stage mix_stage = { .size = sizeof(sumi_stage), .descriptor_json = mix_descriptor, .create = create,
    .process = mix_process, .destroy = destroy, .band_process = mix_band, .band_end = mix_end,
    .port_access = mix_access, .band_start = mix_start };
static const sumi_stage shape_stage = { .size = sizeof(sumi_stage), .descriptor_json = shape_descriptor, .create = create,
    .process = shape_process, .destroy = destroy, .port_access = shape_access };
static const sumi_stage *const stage_list[] = { &mix_stage, &shape_stage };

static const sumi_plugin plugin = {
    .abi_version = SUMI_PLUGIN_ABI_VERSION, .size = sizeof(sumi_plugin), .name = "band-inputs", .version = "1.0.0",
    .stage_count = 2, .stage_list = stage_list,
};

SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
    if (!SUMI_API_HAS(host->api, image_size))
        return sumi_error_set(host->error, SUMI_ERROR_ABI, NULL, "needs a host with image_size (band_start)");
    api = host->api;
    *out = &plugin;
    return SUMI_OK;
}
