/*
 * pixelate — a Sumi plugin in plain C.
 *
 * Build:  cc -shared -fPIC -O2 -fvisibility=hidden -I<sumi>/Sources/CSumiPlugin/include \
 *            -o libpixelate.so pixelate.c
 *
 * One stage, "pixelate": image -> image of the same size, each `block` x `block` square replaced by
 * its average colour (averaging premultiplied values is exactly right for premultiplied pixels).
 */
#include <stdlib.h>
#include <string.h>
#include "sumi_plugin.h"

static const char pixelate_descriptor[] =
    "{\"name\": \"pixelate\","
    " \"summary\": \"Replaces each block of pixels by its average colour\","
    " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}],"
    " \"output\": \"image\","
    " \"effect\": \"pixels\","
    " \"params\": [{\"name\": \"block\", \"type\": \"integer\", \"required\": false, \"default\": 8,"
    "              \"summary\": \"side of a block, in pixels\", \"min\": 1, \"max\": null, \"values\": null}]}";

typedef struct pixelate_instance {
    long block;
} pixelate_instance;

/*
 * Reads the integer member `key` of the flat JSON object the host passes (`{"block": 8}`).
 * Enough for the host's own compact output; a plugin with richer parameters would use a JSON parser.
 */
static int json_integer(const char *json, const char *key, long *value) {
    size_t key_length = strlen(key);
    for (const char *p = json; (p = strchr(p, '"')) != NULL; p++) {
        if (strncmp(p + 1, key, key_length) != 0 || p[1 + key_length] != '"') continue;
        const char *colon = p + 2 + key_length;
        while (*colon == ' ') colon++;
        if (*colon != ':') continue;
        char *end = NULL;
        long parsed = strtol(colon + 1, &end, 10);
        if (end == colon + 1) return 0;
        *value = parsed;
        return 1;
    }
    return 0;
}

static int32_t pixelate_create(const sumi_stage *stage, const char *params_json, const char *given_json,
                               void **instance, sumi_error *error) {
    (void)stage;
    (void)given_json;
    long block = 8;
    if (params_json != NULL && !json_integer(params_json, "block", &block)) block = 8;
    if (block < 1) {
        return sumi_error_set(error, SUMI_ERROR_INVALID_PARAMETER, "block", "expected an integer >= 1, got %ld", block);
    }
    pixelate_instance *made = malloc(sizeof *made);
    if (made == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    made->block = block;
    *instance = made;
    return SUMI_OK;
}

static int32_t pixelate_process(void *instance, const sumi_image *inputs, uint32_t input_count,
                                sumi_output *output, sumi_error *error) {
    const pixelate_instance *self = instance;
    if (self == NULL || input_count != 1 || inputs == NULL) {
        return sumi_error_set(error, SUMI_ERROR_INTERNAL, NULL, "pixelate expects one input image");
    }
    const sumi_image *in = &inputs[0];
    if (in->format != SUMI_PIXEL_RGBA8_PREMULTIPLIED) {
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "unsupported pixel format %u", in->format);
    }
    int64_t out_stride = 0;
    uint8_t *out = output->allocate(output, in->width, in->height, &out_stride);
    if (out == NULL) {
        return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "cannot allocate a %dx%d image",
                              in->width, in->height);
    }
    const long block = self->block;
    for (long y0 = 0; y0 < in->height; y0 += block) {
        long y1 = y0 + block < in->height ? y0 + block : in->height;
        for (long x0 = 0; x0 < in->width; x0 += block) {
            long x1 = x0 + block < in->width ? x0 + block : in->width;
            uint64_t sum[4] = {0, 0, 0, 0};
            for (long y = y0; y < y1; y++) {
                const uint8_t *row = in->pixels + y * in->stride;
                for (long x = x0; x < x1; x++)
                    for (int c = 0; c < 4; c++) sum[c] += row[x * 4 + c];
            }
            uint64_t count = (uint64_t)((y1 - y0) * (x1 - x0));
            uint8_t mean[4];
            for (int c = 0; c < 4; c++) mean[c] = (uint8_t)((sum[c] + count / 2) / count);
            for (long y = y0; y < y1; y++) {
                uint8_t *row = out + y * out_stride;
                for (long x = x0; x < x1; x++) memcpy(row + x * 4, mean, 4);
            }
        }
    }
    return SUMI_OK;
}

static void pixelate_destroy(void *instance) { free(instance); }

static const sumi_stage pixelate_stages[] = {{
    .size = sizeof(sumi_stage),
    .descriptor_json = pixelate_descriptor,
    .create = pixelate_create,
    .process = pixelate_process,
    .destroy = pixelate_destroy,
}};

static const sumi_plugin pixelate_plugin = {
    .abi_version = SUMI_PLUGIN_ABI_VERSION,
    .size = sizeof(sumi_plugin),
    .name = "pixelate",
    .version = "1.0.0",
    .stage_count = 1,
    .stages = pixelate_stages,
};

SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
    if (out == NULL) return SUMI_ERROR_INTERNAL;
    if (host != NULL && host->abi_version < SUMI_PLUGIN_ABI_VERSION) return SUMI_ERROR_ABI;
    *out = &pixelate_plugin;
    return SUMI_OK;
}
