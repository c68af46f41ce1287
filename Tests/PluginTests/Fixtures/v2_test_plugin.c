/*
 * A version 2 test plugin for Tests/PluginTests, compiled by the tests with `cc`.
 *
 * Stages:
 *   v2-probe   base (image) + over (layer) + list (images) → image ("effect": "pixels"): copies base,
 *              writes what it read (every typed parameter, the list length, the layer's size, the base's
 *              ICC profile length) into the result's "xmp" side data and sets "capture-rects".
 *   v2-disc    no input → a vector layer: a disc of `radius` layout units, drawn at any scale;
 *              `fail-above` makes drawing fail at scales above it.
 *   v2-misbehave  in (image) → image ("effect": "pixels"), misbehaving as `mode` says:
 *              wrong-kind (returns a list), wrong-size, no-output, foreign (returns a dangling pointer),
 *              return-input (returns its input), fail (an error with a message), ok.
 *   v2-write   (with TEST_WRITER) in (image) → file: writes "v2-write\n" with `write_file` to `target`, a
 *              string parameter (so no check before the run sees it as a path).
 * Defines for broken variants: TEST_DUPLICATE_PORTS, TEST_PIXELS_LAYER (effect pixels on a layer
 * output), TEST_UNKNOWN_KIND, TEST_CLAIM_PNG (a format with PNG's magic), TEST_INIT_FAIL,
 * TEST_NAME_SUFFIX (stage names get a suffix, so two copies can be registered in one registry), TEST_WRITER
 * (adds v2-write), TEST_ENCODER (a format "probe-enc", .probeenc, whose encoder writes the lengths of the
 * icc-profile, exif and xmp side data it was handed; with TEST_ENCODER_WRITES it first tries write_file).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sumi_plugin.h"

#ifndef TEST_NAME_SUFFIX
#define TEST_NAME_SUFFIX ""
#endif

static const sumi_api *api;

static const char probe_descriptor[] =
    "{\"name\": \"v2-probe" TEST_NAME_SUFFIX "\", \"summary\": \"reads everything\", \"effect\": \"pixels\","
    " \"inputs\": [{\"name\": \"base\", \"type\": \"image\"}, {\"name\": \"over\", \"type\": \"layer\"},"
    "              {\"name\": \"list\", \"type\": \"images\"}], \"output\": \"image\","
    " \"params\": [{\"name\": \"n\", \"type\": \"number\", \"default\": 1.5, \"summary\": \"a number\"},"
    "  {\"name\": \"i\", \"type\": \"integer\", \"default\": 3, \"summary\": \"an integer\"},"
    "  {\"name\": \"b\", \"type\": \"bool\", \"default\": true, \"summary\": \"a bool\"},"
    "  {\"name\": \"s\", \"type\": \"string\", \"default\": \"hi\", \"summary\": \"a string\"},"
    "  {\"name\": \"p\", \"type\": \"path\", \"default\": \"/tmp/x\", \"summary\": \"a path\"},"
    "  {\"name\": \"c\", \"type\": \"color\", \"default\": \"#102030\", \"summary\": \"a colour\"},"
    "  {\"name\": \"z\", \"type\": \"size\", \"default\": \"30x40\", \"summary\": \"a size\"},"
    "  {\"name\": \"pt\", \"type\": \"point\", \"default\": \"5,6\", \"summary\": \"a point\"},"
    "  {\"name\": \"r\", \"type\": \"rect\", \"default\": \"1,2,3,4\", \"summary\": \"a rect\"},"
    "  {\"name\": \"li\", \"type\": \"list<integer>\", \"default\": [7, 8, 9], \"summary\": \"a list\"},"
    "  {\"name\": \"either\", \"type\": \"integer|string\", \"default\": \"auto\", \"summary\": \"a union\"}]}";

static int32_t probe_create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
    (void)stage;
    char *text = malloc(1024);
    if (text == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    double n = 0, zw = 0, zh = 0, px = 0, py = 0, rx = 0, ry = 0, rw = 0, rh = 0;
    int64_t i = 0, first = 0;
    int32_t b = 0;
    uint8_t c[4] = {0, 0, 0, 0};
    api->param_number(api->param(params, "n"), &n);
    api->param_integer(api->param(params, "i"), &i);
    api->param_bool(api->param(params, "b"), &b);
    api->param_size(api->param(params, "z"), &zw, &zh);
    api->param_point(api->param(params, "pt"), &px, &py);
    api->param_rect(api->param(params, "r"), &rx, &ry, &rw, &rh);
    api->param_color(api->param(params, "c"), c);
    const sumi_param *list = api->param(params, "li");
    api->param_integer(api->param_item(list, 0), &first);
    const sumi_param *either = api->param(params, "either");
    int64_t wrong = 0;
    int32_t wrong_status = api->param_integer(api->param(params, "s"), &wrong);
    snprintf(text, 1024, "n=%g i=%lld b=%d s=%s p=%s c=%u,%u,%u,%u z=%gx%g pt=%g,%g r=%g,%g,%g,%g li=%u:%lld "
             "either=%u:%s given-i=%d wrong-type=%d",
             n, (long long)i, b, api->param_string(api->param(params, "s")), api->param_string(api->param(params, "p")),
             c[0], c[1], c[2], c[3], zw, zh, px, py, rx, ry, rw, rh, api->param_count(list), (long long)first,
             api->param_type(either), api->param_text(either), api->param_given(params, "i"), wrong_status);
    *instance = text;
    return SUMI_OK;
}

static int32_t probe_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                             sumi_value **result, sumi_error *error) {
    if (count != 3) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "expected 3 inputs, got %u", count);
    sumi_image base = { .size = sizeof base };
    if (api->kind(inputs[0]) != SUMI_KIND_IMAGE || api->image_pixels(inputs[0], &base) != SUMI_OK)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "base is not an image");
    sumi_layer_info layer = { .size = sizeof layer };
    if (api->kind(inputs[1]) != SUMI_KIND_LAYER || api->layer_info(inputs[1], &layer) != SUMI_OK)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "over is not a layer");
    if (api->kind(inputs[2]) != SUMI_KIND_IMAGES) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "list is not a list");
    const uint8_t *icc = NULL;
    size_t icc_length = 0;
    if (api->get_side_data(inputs[0], "icc-profile", &icc, &icc_length) != SUMI_OK) icc_length = 0;
    uint8_t *pixels;
    int64_t stride;
    sumi_value *out = api->new_image(call, base.width, base.height, &pixels, &stride);
    if (out == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "no memory");
    for (int32_t y = 0; y < base.height; y++) memcpy(pixels + y * stride, base.pixels + y * base.stride, (size_t)base.width * 4);
    char text[1400];
    int length = snprintf(text, sizeof text, "%s list=%u layer=%gx%g vector=%u icc=%zu", (const char *)instance,
                          api->list_count(inputs[2]), layer.width, layer.height, layer.is_vector, icc_length);
    api->set_side_data(out, "xmp", (const uint8_t *)text, (size_t)length);
    double rects[4] = {1, 2, 3, 4};
    api->set_side_data(out, "capture-rects", (const uint8_t *)rects, sizeof rects);
    if (api->set_side_data(out, "no-such-key", (const uint8_t *)"x", 1) == SUMI_OK)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "an unknown side-data key was accepted");
    *result = out;
    return SUMI_OK;
}

/* --- v2-disc: a vector layer --- */

static const char disc_descriptor[] =
    "{\"name\": \"v2-disc" TEST_NAME_SUFFIX "\", \"summary\": \"a disc as a vector layer\", \"inputs\": [], \"output\": \"layer\","
    " \"params\": [{\"name\": \"radius\", \"type\": \"number\", \"default\": 10, \"min\": 1, \"summary\": \"radius\"},"
    "  {\"name\": \"fail-above\", \"type\": \"number\", \"default\": 1000, \"summary\": \"drawing fails above this scale\"}]}";

typedef struct disc { double radius, fail_above; } disc;

static int32_t disc_create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
    (void)stage;
    disc *d = malloc(sizeof *d);
    if (d == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "no memory");
    api->param_number(api->param(params, "radius"), &d->radius);
    api->param_number(api->param(params, "fail-above"), &d->fail_above);
    *instance = d;
    return SUMI_OK;
}

static int disc_layers_alive;

static int32_t disc_rasterize(void *user_data, double sx, double sy, double phx, double phy, sumi_output *output, sumi_error *error) {
    const disc *d = user_data;
    if (sx > d->fail_above) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "cannot draw above scale %g", d->fail_above);
    int32_t w = (int32_t)ceil(2 * d->radius * sx + phx), h = (int32_t)ceil(2 * d->radius * sy + phy);
    int64_t stride = 0;
    uint8_t *pixels = output->allocate(output, w, h, &stride);
    if (pixels == NULL) return SUMI_ERROR_OUT_OF_MEMORY;
    /* 4x4 supersampled coverage of the ellipse, centre at (r*sx + phx, r*sy + phy) */
    double cx = d->radius * sx + phx, cy = d->radius * sy + phy, rx = d->radius * sx, ry = d->radius * sy;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int inside = 0;
            for (int s = 0; s < 16; s++) {
                double u = (x + (s % 4 + 0.5) / 4 - cx) / rx, v = (y + (s / 4 + 0.5) / 4 - cy) / ry;
                inside += u * u + v * v <= 1;
            }
            uint8_t a = (uint8_t)((inside * 255 + 8) / 16);
            uint8_t *p = pixels + y * stride + x * 4;
            p[0] = 0; p[1] = 0; p[2] = a; p[3] = a; /* blue */
        }
    return SUMI_OK;
}

static void disc_free(void *user_data) { free(user_data); __atomic_sub_fetch(&disc_layers_alive, 1, __ATOMIC_SEQ_CST); }

/* For the tests: how many disc layers have not been freed yet. */
SUMI_PLUGIN_EXPORT int test_disc_layers_alive(void) { return __atomic_load_n(&disc_layers_alive, __ATOMIC_SEQ_CST); }

static int32_t disc_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                            sumi_value **result, sumi_error *error) {
    (void)inputs; (void)count;
    const disc *d = instance;
    disc *copy = malloc(sizeof *copy);
    if (copy == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "no memory");
    *copy = *d;
    __atomic_add_fetch(&disc_layers_alive, 1, __ATOMIC_SEQ_CST);
    sumi_value *layer = api->new_vector_layer(call, 2 * d->radius, 2 * d->radius, disc_rasterize, copy, disc_free);
    if (layer == NULL) {
        disc_free(copy);
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "no layer");
    }
    *result = layer;
    return SUMI_OK;
}

/* --- v2-misbehave --- */

static const char misbehave_descriptor[] =
    "{\"name\": \"v2-misbehave" TEST_NAME_SUFFIX "\", \"summary\": \"breaks the rules on request\", \"effect\": \"pixels\","
    " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\","
    " \"params\": [{\"name\": \"mode\", \"type\": \"string\", \"default\": \"ok\","
    "   \"values\": [\"ok\", \"wrong-kind\", \"wrong-size\", \"no-output\", \"foreign\", \"return-input\", \"fail\"], \"summary\": \"how\"}]}";

static int32_t misbehave_create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
    (void)stage; (void)error;
    *instance = strdup(api->param_string(api->param(params, "mode")));
    return SUMI_OK;
}

static int32_t misbehave_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                                 sumi_value **result, sumi_error *error) {
    (void)count;
    const char *mode = instance;
    sumi_image in = { .size = sizeof in };
    api->image_pixels(inputs[0], &in);
    if (strcmp(mode, "fail") == 0) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "the input is too dull");
    if (strcmp(mode, "no-output") == 0) return SUMI_OK;
    if (strcmp(mode, "foreign") == 0) { static int junk; *result = (sumi_value *)&junk; return SUMI_OK; }
    if (strcmp(mode, "return-input") == 0) { *result = (sumi_value *)inputs[0]; return SUMI_OK; }
    if (strcmp(mode, "wrong-kind") == 0) {
        sumi_value *list = api->new_list(call);
        api->list_append(list, inputs[0]);
        *result = list;
        return SUMI_OK;
    }
    int32_t w = strcmp(mode, "wrong-size") == 0 ? in.width + 1 : in.width;
    uint8_t *pixels;
    int64_t stride;
    *result = api->new_image(call, w, in.height, &pixels, &stride);
    return *result ? SUMI_OK : SUMI_ERROR_OUT_OF_MEMORY;
}

static void free_instance(void *instance) { free(instance); }

#ifdef TEST_WRITER
static const char write_descriptor[] =
    "{\"name\": \"v2-write" TEST_NAME_SUFFIX "\", \"summary\": \"writes a file it names at run time\","
    " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"file\","
    " \"params\": [{\"name\": \"target\", \"type\": \"string\", \"required\": true, \"summary\": \"where\"}]}";

static int32_t write_create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
    (void)stage; (void)error;
    *instance = strdup(api->param_string(api->param(params, "target")));
    return SUMI_OK;
}

static int32_t write_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                             sumi_value **result, sumi_error *error) {
    (void)inputs; (void)count;
    static const char text[] = "v2-write\n";
    return api->write_file(call, instance, "txt", (const uint8_t *)text, sizeof text - 1, 0, 0, result, error);
}
#endif

#if defined(TEST_DUPLICATE_PORTS)
#define EXTRA_DESCRIPTOR "{\"name\": \"v2-lying\", \"summary\": \"two ports named in\", \"output\": \"image\"," \
    " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}, {\"name\": \"in\", \"type\": \"layer\"}], \"params\": []}"
#elif defined(TEST_PIXELS_LAYER)
#define EXTRA_DESCRIPTOR "{\"name\": \"v2-lying\", \"summary\": \"pixels effect on a layer\", \"output\": \"layer\"," \
    " \"effect\": \"pixels\", \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"params\": []}"
#elif defined(TEST_UNKNOWN_KIND)
#define EXTRA_DESCRIPTOR "{\"name\": \"v2-lying\", \"summary\": \"an unknown kind\", \"output\": \"vector\"," \
    " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"params\": []}"
#endif

#if defined(TEST_FIRST_V2_LAYOUT)
/* A plugin built with the first version 2 header, before the band callbacks were appended: its
   stage table, and so its array stride, is SUMI_STAGE_V2_BASE_SIZE bytes. */
typedef struct first_v2_stage {
    uint32_t size;
    uint32_t reserved_flags;
    const char *descriptor_json;
    void *user_data;
    int32_t (*create)(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error);
    int32_t (*process)(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t input_count,
                       sumi_value **result, sumi_error *error);
    void (*destroy)(void *instance);
    void *reserved[4];
} first_v2_stage;
_Static_assert(sizeof(first_v2_stage) == SUMI_STAGE_V2_BASE_SIZE, "the first version 2 stage layout");
#define STAGE_TYPE first_v2_stage
#else
#define STAGE_TYPE sumi_stage
#endif

#if defined(TEST_PARTIAL_BANDS)
static int32_t half_band_begin(void *instance, int32_t w, int32_t h, int32_t *ow, int32_t *oh, sumi_error *error) {
    (void)instance; (void)w; (void)h; (void)ow; (void)oh; (void)error;
    return SUMI_OK;
}
#define BANDS , .band_begin = half_band_begin
#elif defined(TEST_BANDS_ON_LAYER)
static int32_t any_band_begin(void *instance, int32_t w, int32_t h, int32_t *ow, int32_t *oh, sumi_error *error) {
    (void)instance; (void)w; (void)h; (void)ow; (void)oh; (void)error;
    return SUMI_OK;
}
static int32_t any_band_process(void *instance, const uint8_t *in, uint8_t *out, int32_t first, int32_t rows,
                                int64_t stride, sumi_error *error) {
    (void)instance; (void)in; (void)out; (void)first; (void)rows; (void)stride; (void)error;
    return SUMI_OK;
}
static int32_t any_band_end(void *instance, int32_t completed, sumi_error *error) {
    (void)instance; (void)completed; (void)error;
    return SUMI_OK;
}
#define BANDS , .band_begin = any_band_begin, .band_process = any_band_process, .band_end = any_band_end
#else
#define BANDS
#endif

static const STAGE_TYPE stages[] = {
    { .size = sizeof(STAGE_TYPE), .descriptor_json = probe_descriptor,
      .create = probe_create, .process = probe_process, .destroy = free_instance },
    { .size = sizeof(STAGE_TYPE), .descriptor_json = disc_descriptor,
      .create = disc_create, .process = disc_process, .destroy = free_instance BANDS },
    { .size = sizeof(STAGE_TYPE), .descriptor_json = misbehave_descriptor,
      .create = misbehave_create, .process = misbehave_process, .destroy = free_instance },
#ifdef TEST_WRITER
    { .size = sizeof(STAGE_TYPE), .descriptor_json = write_descriptor,
      .create = write_create, .process = write_process, .destroy = free_instance },
#endif
#ifdef EXTRA_DESCRIPTOR
    { .size = sizeof(sumi_stage), .descriptor_json = EXTRA_DESCRIPTOR,
      .create = misbehave_create, .process = misbehave_process, .destroy = free_instance },
#endif
};

#ifdef TEST_CLAIM_PNG
static const uint8_t png_magic[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
static int32_t claim_decode(const sumi_format *format, sumi_call *call, const uint8_t *bytes, size_t length,
                            sumi_value **image, sumi_error *error) {
    (void)format; (void)call; (void)bytes; (void)length; (void)image;
    return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "the claiming decoder must never run");
}
static const sumi_format formats[] = {{ .size = sizeof(sumi_format), .name = "not-png", .extensions = "notpng",
    .magic = png_magic, .magic_length = sizeof png_magic, .decode = claim_decode }};
#define FORMAT_COUNT 1
#define FORMATS formats
#elif defined(TEST_ENCODER)
/* An encoder that writes what it was handed: the lengths of the image's side data. */
static int32_t probe_encode(const sumi_format *format, sumi_call *call, const sumi_value *image, sumi_error *error) {
    (void)format;
#ifdef TEST_ENCODER_WRITES
    sumi_value *file = NULL;
    int32_t status = api->write_file(call, "probe-side-file.txt", "txt", (const uint8_t *)"x", 1, 0, 0, &file, error);
    if (status != SUMI_OK) return status;
#endif
    static const char *const keys[] = {"icc-profile", "exif", "xmp"};
    char text[128];
    int used = 0;
    for (int i = 0; i < 3; i++) {
        const uint8_t *bytes = NULL;
        size_t length = 0;
        if (api->get_side_data(image, keys[i], &bytes, &length) != SUMI_OK) length = 0;
        used += snprintf(text + used, sizeof text - (size_t)used, "%s=%zu%s", keys[i], length, i < 2 ? " " : "\n");
    }
    if (api->write_bytes(call, (const uint8_t *)text, (size_t)used) != SUMI_OK)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "write_bytes failed");
    return SUMI_OK;
}
static const sumi_format formats[] = {{ .size = sizeof(sumi_format), .name = "probe-enc", .extensions = "probeenc",
    .encode = probe_encode }};
#define FORMAT_COUNT 1
#define FORMATS formats
#else
#define FORMAT_COUNT 0
#define FORMATS NULL
#endif

static const sumi_plugin plugin = {
    .abi_version = SUMI_PLUGIN_ABI_VERSION, .size = sizeof(sumi_plugin),
    .name = "v2-test", .version = "2.0.1", .licence = "Apache-2.0", .description = "exercises ABI version 2",
    .stage_count = sizeof stages / sizeof stages[0], .stages = (const sumi_stage *)stages,
    .format_count = FORMAT_COUNT, .formats = FORMATS,
};

SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
    if (host == NULL || host->abi_version < SUMI_PLUGIN_ABI_VERSION || host->size < sizeof(sumi_host) || host->api == NULL)
        return SUMI_ERROR_ABI;
#ifdef TEST_INIT_FAIL
    return sumi_error_set(host->error, SUMI_ERROR_INTERNAL, NULL, "the licence file is missing");
#endif
    api = host->api;
    *out = &plugin;
    return SUMI_OK;
}
