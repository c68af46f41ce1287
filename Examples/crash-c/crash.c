/*
 * crash — a Sumi plugin (ABI version 2) that brings its process down on request.
 *
 * One stage, "crash": image -> the same image, unless `mode` asks it to fail the hard way, as a
 * buggy codec or plugin would: "segv" writes through a null pointer (SIGSEGV), "abort" calls abort()
 * (SIGABRT). `sumi serve` runs pipelines in worker processes so that such a crash costs one request
 * (answered 500) and one worker (replaced), never the server; `make test-serve` checks exactly that.
 *
 * A second stage, "hold": image -> the same image once the file `until` exists (or `seconds` have
 * passed). It sleeps while it waits, so a test can keep a run in flight for as long as it needs,
 * then let it finish, without spending the machine's CPU on a slow pipeline.
 */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "sumi_plugin.h"

static const sumi_api *api;

static const char crash_descriptor[] =
    "{\"name\": \"crash\", \"summary\": \"Passes the image through, or crashes the process on request\","
    " \"effect\": \"pixels\", \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\","
    " \"params\": [{\"name\": \"mode\", \"type\": \"string\", \"default\": \"none\", \"values\": [\"none\", \"segv\", \"abort\"],"
    "              \"summary\": \"none: pass through; segv: a null-pointer write; abort: abort()\"}]}";

enum crash_mode { CRASH_NONE, CRASH_SEGV, CRASH_ABORT };

static int32_t crash_create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
    (void)stage;
    enum crash_mode *mode = malloc(sizeof *mode);
    if (mode == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    const char *given = api->param_string(api->param(params, "mode"));
    *mode = given && strcmp(given, "segv") == 0 ? CRASH_SEGV : given && strcmp(given, "abort") == 0 ? CRASH_ABORT : CRASH_NONE;
    *instance = mode;
    return SUMI_OK;
}

/* The input image copied into a new image of the call. */
static int32_t pass_through(sumi_call *call, const sumi_value *input, sumi_value **result, sumi_error *error) {
    sumi_image in = { .size = sizeof in };
    if (api->image_pixels(input, &in) != SUMI_OK)
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "cannot read the input's pixels");
    uint8_t *pixels = NULL;
    int64_t stride = 0;
    *result = api->new_image(call, in.width, in.height, &pixels, &stride);
    if (*result == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "cannot allocate a %dx%d image", in.width, in.height);
    for (int32_t y = 0; y < in.height; y++) memcpy(pixels + y * stride, in.pixels + y * in.stride, (size_t)in.width * 4);
    return SUMI_OK;
}

static int32_t crash_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                             sumi_value **result, sumi_error *error) {
    const enum crash_mode *mode = instance;
    if (count != 1) return sumi_error_set(error, SUMI_ERROR_INTERNAL, NULL, "crash expects one input image");
    if (*mode == CRASH_SEGV) {
        volatile uint8_t *nowhere = NULL;
        *nowhere = 1;
        raise(SIGSEGV); /* in case the write above was not fatal */
    }
    if (*mode == CRASH_ABORT) abort();
    return pass_through(call, inputs[0], result, error);
}

static const char hold_descriptor[] =
    "{\"name\": \"hold\", \"summary\": \"Passes the image through once a file exists\","
    " \"effect\": \"pixels\", \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\","
    " \"params\": [{\"name\": \"until\", \"type\": \"string\", \"required\": true,"
    "              \"summary\": \"the file whose existence lets the image through\"},"
    "             {\"name\": \"seconds\", \"type\": \"integer\", \"default\": 600, \"min\": 0, \"max\": 3600,"
    "              \"summary\": \"the longest wait; then the image passes anyway\"}]}";

struct hold { char *until; int64_t seconds; };

static int32_t hold_create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
    (void)stage;
    struct hold *hold = calloc(1, sizeof *hold);
    const char *until = api->param_string(api->param(params, "until"));
    if (hold == NULL || until == NULL || (hold->until = strdup(until)) == NULL) {
        free(hold);
        return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    }
    hold->seconds = 600;
    api->param_integer(api->param(params, "seconds"), &hold->seconds);
    *instance = hold;
    return SUMI_OK;
}

static int32_t hold_process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                            sumi_value **result, sumi_error *error) {
    const struct hold *hold = instance;
    if (count != 1) return sumi_error_set(error, SUMI_ERROR_INTERNAL, NULL, "hold expects one input image");
    const struct timespec tick = { .tv_sec = 0, .tv_nsec = 5000000 };
    for (int64_t waited = 0; waited < hold->seconds * 200 && access(hold->until, F_OK) != 0; waited++) nanosleep(&tick, NULL);
    return pass_through(call, inputs[0], result, error);
}

static void hold_destroy(void *instance) {
    struct hold *hold = instance;
    if (hold != NULL) free(hold->until);
    free(hold);
}

static void crash_destroy(void *instance) { free(instance); }

static const sumi_stage crash_stages[] = {{
    .size = sizeof(sumi_stage), .descriptor_json = crash_descriptor,
    .create = crash_create, .process = crash_process, .destroy = crash_destroy,
}, {
    .size = sizeof(sumi_stage), .descriptor_json = hold_descriptor,
    .create = hold_create, .process = hold_process, .destroy = hold_destroy,
}};

static const sumi_plugin crash_plugin = {
    .abi_version = SUMI_PLUGIN_ABI_VERSION, .size = sizeof(sumi_plugin),
    .name = "crash", .version = "1.0.0", .licence = "Apache-2.0",
    .description = "a stage that crashes its process on request, one that holds a run until a file exists (for testing isolation)",
    .stage_count = 2, .stages = crash_stages,
};

SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
    if (host == NULL || host->abi_version < SUMI_PLUGIN_ABI_VERSION || host->size < sizeof(sumi_host) || host->api == NULL)
        return SUMI_ERROR_ABI;
    api = host->api;
    *out = &crash_plugin;
    return SUMI_OK;
}
