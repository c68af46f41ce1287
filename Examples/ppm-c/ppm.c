/*
 * ppm: a Sumi plugin (ABI version 2) in plain C that writes binary PPM (P6) files, two ways:
 *   - a writer stage, `write-ppm path=out.ppm background=#ffffff`, whose result is the file it wrote;
 *   - an encoder for the format "ppm" (extension .ppm), so the built-in `encode path=out.ppm` works.
 * PPM has no alpha: translucent pixels are flattened onto the background (white for the encoder).
 *
 *   cc -shared -fPIC -O2 -fvisibility=hidden -I<sumi>/Sources/CSumiPlugin/include -o libppm.so ppm.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sumi_plugin.h"

static const sumi_api *api;

/* P6 bytes of a premultiplied RGBA image flattened onto `background` (straight RGB); malloc'ed. */
static uint8_t *ppm_bytes(const sumi_image *image, const uint8_t background[3], size_t *length) {
    char header[64];
    int header_length = snprintf(header, sizeof header, "P6\n%d %d\n255\n", image->width, image->height);
    size_t total = (size_t)header_length + (size_t)image->width * (size_t)image->height * 3;
    uint8_t *bytes = malloc(total);
    if (bytes == NULL) return NULL;
    memcpy(bytes, header, (size_t)header_length);
    uint8_t *out = bytes + header_length;
    for (int32_t y = 0; y < image->height; y++) {
        const uint8_t *row = image->pixels + y * image->stride;
        for (int32_t x = 0; x < image->width; x++, out += 3) {
            const uint8_t *p = row + x * 4;
            for (int c = 0; c < 3; c++) out[c] = (uint8_t)(p[c] + (background[c] * (255 - p[3]) + 127) / 255);
        }
    }
    *length = total;
    return bytes;
}

/* --- the write-ppm stage --- */

static const char descriptor[] =
    "{\"name\": \"write-ppm\", \"summary\": \"Writes an image as a binary PPM (P6) file\","
    " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"file\","
    " \"params\": ["
    "  {\"name\": \"path\", \"type\": \"path\", \"access\": \"writes\", \"required\": true, \"summary\": \"file to write (- for standard output)\"},"
    "  {\"name\": \"background\", \"type\": \"color\", \"default\": \"#ffffff\","
    "   \"summary\": \"colour translucent pixels are flattened onto\"}]}";

typedef struct writer {
    char *path;
    uint8_t background[3];
} writer;

static int32_t create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
    (void)stage;
    const char *path = api->param_string(api->param(params, "path"));
    uint8_t rgba[4] = {255, 255, 255, 255};
    api->param_color(api->param(params, "background"), rgba);
    if (path == NULL || path[0] == '\0') return sumi_error_set(error, SUMI_ERROR_INVALID_PARAMETER, "path", "expected a file");
    if (rgba[3] != 255)
        return sumi_error_set(error, SUMI_ERROR_INVALID_PARAMETER, "background", "expected an opaque colour (PPM has no alpha)");
    writer *w = calloc(1, sizeof *w);
    if (w == NULL || (w->path = strdup(path)) == NULL) {
        free(w);
        return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    }
    memcpy(w->background, rgba, 3);
    *instance = w;
    return SUMI_OK;
}

static int32_t process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t input_count,
                       sumi_value **result, sumi_error *error) {
    const writer *w = instance;
    sumi_image image = { .size = sizeof image };
    if (input_count != 1 || api->image_pixels(inputs[0], &image) != SUMI_OK)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "expected an image");
    size_t length = 0;
    uint8_t *bytes = ppm_bytes(&image, w->background, &length);
    if (bytes == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    int32_t status = api->write_file(call, w->path, "ppm", bytes, length, image.width, image.height, result, error);
    free(bytes);
    return status;
}

static void destroy(void *instance) {
    writer *w = instance;
    if (w != NULL) free(w->path);
    free(w);
}

/* --- the ppm format (encoder) --- */

static int32_t encode(const sumi_format *format, sumi_call *call, const sumi_value *value, sumi_error *error) {
    (void)format;
    static const uint8_t white[3] = {255, 255, 255};
    sumi_image image = { .size = sizeof image };
    if (api->image_pixels(value, &image) != SUMI_OK) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "expected an image");
    size_t length = 0;
    uint8_t *bytes = ppm_bytes(&image, white, &length);
    if (bytes == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    int32_t status = api->write_bytes(call, bytes, length);
    free(bytes);
    return status;
}

static const sumi_stage stages[] = {{
    .size = sizeof(sumi_stage), .descriptor_json = descriptor,
    .create = create, .process = process, .destroy = destroy,
}};

static const sumi_format formats[] = {{
    .size = sizeof(sumi_format), .name = "ppm", .extensions = "ppm", .encode = encode,
}};

static const sumi_plugin plugin = {
    .abi_version = SUMI_PLUGIN_ABI_VERSION, .size = sizeof(sumi_plugin),
    .name = "ppm", .version = "1.0.0", .licence = "MIT", .description = "Writes binary PPM (P6) files",
    .stage_count = 1, .stages = stages, .format_count = 1, .formats = formats,
};

SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
    if (host == NULL || host->abi_version < SUMI_PLUGIN_ABI_VERSION || host->size < sizeof(sumi_host) || host->api == NULL)
        return SUMI_ERROR_ABI;
    api = host->api;
    *out = &plugin;
    return SUMI_OK;
}
