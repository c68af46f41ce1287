/*
 * A test plugin for what ABI version 2 gained after its first layout, compiled by the tests with `cc`
 * against the current header (Sources/CSumiPlugin/include).
 *
 * Its tables go through the lists of pointers (`stage_list`, `format_list`, `side_data_keys`), with
 * stage tables of two sizes (the first version 2 layout and the whole table). It registers the
 * side-data key "abi/tag" (kept when pixel values change, dropped when pixels move).
 *
 * Stages:
 *   abi-handles  in (image) → image: passes a bad handle to the api, as `mode` says, and fails
 *                with what the api returned: stale (its input of the previous call, kept), garbage
 *                (a pointer to the plugin's own data), ok (copies its input).
 *   abi-tag      in (image) → image ("effect": "pixels"): a copy carrying `key` = `value` (bytes of
 *                the text), set with write_side_data; an error carries the host's message.
 *   abi-read     in (image) → image 1x1 ("effect": "creates"): reads `key` with read_side_data;
 *                the pixel is (length, first byte, 0, 255) when present, (0, 0, 0, 255) when absent
 *                (SUMI_ERROR_NOT_FOUND), and an error carries the host's message.
 *   abi-write    no input → file: a "path" parameter named `target` with "access": "writes"
 *                (checked as a write by --safe though it is not called `path`).
 */
#include <string.h>
#include "sumi_plugin.h"

static const sumi_api *api;

#define IMAGE_IN "\"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\""

static const char handles_descriptor[] =
    "{\"name\": \"abi-handles\", \"summary\": \"passes bad handles\", " IMAGE_IN ","
    " \"params\": [{\"name\": \"mode\", \"type\": \"string\", \"default\": \"ok\", \"summary\": \"what to pass\","
    "              \"values\": [\"ok\", \"stale\", \"garbage\"]}]}";
static const char tag_descriptor[] =
    "{\"name\": \"abi-tag\", \"summary\": \"sets a side-data entry\", \"effect\": \"pixels\", " IMAGE_IN ","
    " \"params\": [{\"name\": \"key\", \"type\": \"string\", \"default\": \"abi/tag\", \"summary\": \"key\"},"
    "              {\"name\": \"value\", \"type\": \"string\", \"default\": \"tagged\", \"summary\": \"bytes\"}]}";
static const char read_descriptor[] =
    "{\"name\": \"abi-read\", \"summary\": \"reads a side-data entry\", \"effect\": \"creates\", " IMAGE_IN ","
    " \"params\": [{\"name\": \"key\", \"type\": \"string\", \"default\": \"abi/tag\", \"summary\": \"key\"}]}";
static const char write_descriptor[] =
    "{\"name\": \"abi-write\", \"summary\": \"writes a file\", \"output\": \"file\","
    " \"params\": [{\"name\": \"target\", \"type\": \"path\", \"access\": \"writes\", \"required\": true,"
    "              \"summary\": \"file to write\"}]}";

typedef struct { char mode[16]; char key[64]; char value[64]; char target[1024]; } state;

static void copy_param(const sumi_params *params, const char *name, char *into, size_t capacity) {
    const char *text = api->param_string(api->param(params, name));
    snprintf(into, capacity, "%s", text ? text : "");   /* param_string lives only during create */
}

static int32_t create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
    (void)stage; (void)error;
    static state states[64];
    static int used;
    state *s = &states[used++ % 64];
    memset(s, 0, sizeof *s);
    if (api->param(params, "mode")) copy_param(params, "mode", s->mode, sizeof s->mode);
    if (api->param(params, "key")) copy_param(params, "key", s->key, sizeof s->key);
    if (api->param(params, "value")) copy_param(params, "value", s->value, sizeof s->value);
    if (api->param(params, "target")) copy_param(params, "target", s->target, sizeof s->target);
    *instance = s;
    return SUMI_OK;
}

static void destroy(void *instance) { (void)instance; }

static sumi_value *copy_of(sumi_call *call, const sumi_value *input) {
    sumi_image in = { .size = sizeof in };
    if (api->image_pixels(input, &in) != SUMI_OK) return NULL;
    uint8_t *pixels; int64_t stride;
    sumi_value *out = api->new_image(call, in.width, in.height, &pixels, &stride);
    if (out == NULL) return NULL;
    for (int32_t y = 0; y < in.height; y++) memcpy(pixels + y * stride, in.pixels + y * in.stride, (size_t)in.width * 4);
    return out;
}

static const sumi_value *kept;      /* an input of an earlier call: stale once that call ended */
static const int not_a_value = 42;

static int32_t handles_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                               sumi_value **result, sumi_error *error) {
    (void)count;
    state *s = instance;
    const sumi_value *bad = NULL;
    if (strcmp(s->mode, "stale") == 0) bad = kept;
    if (strcmp(s->mode, "garbage") == 0) bad = (const sumi_value *)&not_a_value;
    kept = inputs[0];
    if (bad != NULL) {
        sumi_image image = { .size = sizeof image };
        int32_t pixels = api->image_pixels(bad, &image);
        uint32_t kind = api->kind(bad);
        sumi_error inner = { .size = sizeof inner };
        const uint8_t *bytes; size_t length;
        int32_t side = api->read_side_data(bad, "icc-profile", &bytes, &length, &inner);
        sumi_value *list = api->new_list(call);
        int32_t append = api->list_append(list, bad);
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "%s handle: image_pixels %d, kind %u, list_append %d, read_side_data %d (%s)",
                              s->mode, pixels, kind, append, side, inner.message);
    }
    *result = copy_of(call, inputs[0]);
    return *result ? SUMI_OK : sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "no copy");
}

static int32_t tag_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                           sumi_value **result, sumi_error *error) {
    (void)count;
    state *s = instance;
    if (!SUMI_API_HAS(api, write_side_data)) return sumi_error_set(error, SUMI_ERROR_ABI, NULL, "host lacks write_side_data");
    sumi_value *out = copy_of(call, inputs[0]);
    if (out == NULL) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "no copy");
    int32_t status = api->write_side_data(out, s->key, (const uint8_t *)s->value, strlen(s->value), error);
    if (status != SUMI_OK) return status;
    *result = out;
    return SUMI_OK;
}

static int32_t read_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                            sumi_value **result, sumi_error *error) {
    (void)count;
    state *s = instance;
    const uint8_t *bytes = NULL; size_t length = 0;
    int32_t status = api->read_side_data(inputs[0], s->key, &bytes, &length, error);
    if (status != SUMI_OK && status != SUMI_ERROR_NOT_FOUND) return status;
    uint8_t *pixels; int64_t stride;
    sumi_value *out = api->new_image(call, 1, 1, &pixels, &stride);
    if (out == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "no image");
    pixels[0] = status == SUMI_OK ? (uint8_t)length : 0;
    pixels[1] = status == SUMI_OK && length > 0 ? bytes[0] : 0;
    pixels[3] = 255;
    *result = out;
    return SUMI_OK;
}

static int32_t write_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                             sumi_value **result, sumi_error *error) {
    (void)inputs; (void)count;
    state *s = instance;
    static const uint8_t text[] = "abi-write\n";
    return api->write_file(call, s->target, "text", text, sizeof text - 1, 0, 0, result, error);
}

/* Tables of two sizes, mixed in one list: the first version 2 layout, and the whole table. */
static const sumi_stage handles_stage = { .size = SUMI_STAGE_V2_BASE_SIZE, .descriptor_json = handles_descriptor,
                                          .create = create, .process = handles_process, .destroy = destroy };
static const sumi_stage tag_stage = { .size = sizeof(sumi_stage), .descriptor_json = tag_descriptor,
                                      .create = create, .process = tag_process, .destroy = destroy };
static const sumi_stage read_stage = { .size = SUMI_STAGE_V2_BASE_SIZE, .descriptor_json = read_descriptor,
                                       .create = create, .process = read_process, .destroy = destroy };
static const sumi_stage write_stage = { .size = sizeof(sumi_stage), .descriptor_json = write_descriptor,
                                        .create = create, .process = write_process, .destroy = destroy };
static const sumi_stage *const stage_list[] = { &handles_stage, &tag_stage, &read_stage, &write_stage };

static const uint8_t abif_magic[] = { 'A', 'B', 'I', 'F' };
static int32_t abif_decode(const sumi_format *format, sumi_call *call, const uint8_t *bytes, size_t length,
                           sumi_value **image, sumi_error *error) {
    (void)format; (void)bytes; (void)length;
    uint8_t *pixels; int64_t stride;
    *image = api->new_image(call, 1, 1, &pixels, &stride);
    return *image ? SUMI_OK : sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "no image");
}
static const sumi_format abif = { .size = sizeof(sumi_format), .magic_length = 4, .name = "abif", .extensions = "abif",
                                  .magic = abif_magic, .decode = abif_decode };
static const sumi_format *const format_list[] = { &abif };

/* TEST_KEY_NAME and TEST_KEY_ON_GEOMETRY make variants the loader must refuse. */
#ifndef TEST_KEY_NAME
#define TEST_KEY_NAME "abi/tag"
#endif
#ifndef TEST_KEY_ON_GEOMETRY
#define TEST_KEY_ON_GEOMETRY SUMI_SIDE_DATA_DROP
#endif
static const sumi_side_data_key tag_key = { .size = sizeof(sumi_side_data_key), .name = TEST_KEY_NAME,
                                            .on_pixels = SUMI_SIDE_DATA_KEEP, .on_geometry = TEST_KEY_ON_GEOMETRY };
static const sumi_side_data_key *const keys[] = { &tag_key };

static const sumi_plugin plugin = {
    .abi_version = SUMI_PLUGIN_ABI_VERSION, .size = sizeof(sumi_plugin), .name = "abi-additions", .version = "1.0.0",
    .stage_count = 4, .format_count = 1, .stage_list = stage_list, .format_list = format_list,
    .side_data_key_count = 1, .side_data_keys = keys };

SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
    if (host == NULL || host->abi_version < 2 || host->api == NULL || host->api->size < SUMI_API_V2_BASE_SIZE) return SUMI_ERROR_ABI;
    api = host->api;
    if (!SUMI_API_HAS(api, read_side_data)) return sumi_error_set(host->error, SUMI_ERROR_ABI, NULL, "needs read_side_data");
    *out = &plugin;
    return SUMI_OK;
}
