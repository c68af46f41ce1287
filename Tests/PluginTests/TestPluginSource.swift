/// A configurable C test plugin. Defines: TEST_ABI (reported ABI version), TEST_STAGE (stage name),
/// TEST_FAIL (process always fails), TEST_NO_OUTPUT (process never allocates its output),
/// TEST_BAD_DESCRIPTOR (a descriptor with an unknown parameter type), TEST_REFUSE_HOST (the entry point
/// refuses the host's ABI version), TEST_DETECT_OVERLAP (process fails if another process call on the
/// same instance is running).
/// Without TEST_FAIL the stage inverts colours (premultiplied: c' = a - c), warns once, and its
/// `create` refuses `"refuse": true` with a parameter error.
enum TestPluginSource {
    static let text = #"""
    #include <stdlib.h>
    #include <string.h>
    #include <unistd.h>
    #include "sumi_plugin.h"

    #ifndef TEST_ABI
    #define TEST_ABI SUMI_PLUGIN_ABI_VERSION
    #endif
    #ifndef TEST_STAGE
    #define TEST_STAGE "probe"
    #endif

    static const char descriptor[] =
    #ifdef TEST_BAD_DESCRIPTOR
        "{\"name\": \"broken\", \"output\": \"image\", \"params\": [{\"name\": \"x\", \"type\": \"colour\"}]}";
    #else
        "{\"name\": \"" TEST_STAGE "\", \"summary\": \"test stage\","
        " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\","
        " \"params\": [{\"name\": \"refuse\", \"type\": \"bool\", \"default\": false, \"summary\": \"refuse in create\"}]}";
    #endif

    static int32_t probe_create(const sumi_stage *stage, const char *params, const char *given,
                                void **instance, sumi_error *error) {
        (void)stage; (void)given;
        if (strstr(params, "\"refuse\": true") != NULL)
            return sumi_error_set(error, SUMI_ERROR_INVALID_PARAMETER, "refuse", "refused by the plugin");
    #ifdef TEST_DETECT_OVERLAP
        *instance = calloc(1, sizeof(int));
    #else
        *instance = NULL;
    #endif
        return SUMI_OK;
    }

    static int32_t probe_process(void *instance, const sumi_image *inputs, uint32_t count,
                                 sumi_output *output, sumi_error *error) {
        (void)instance;
    #ifdef TEST_DETECT_OVERLAP
        int *running = instance;
        if (__atomic_add_fetch(running, 1, __ATOMIC_SEQ_CST) != 1) {
            __atomic_sub_fetch(running, 1, __ATOMIC_SEQ_CST);
            return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "process overlapped on one instance");
        }
        usleep(2000);
        __atomic_sub_fetch(running, 1, __ATOMIC_SEQ_CST);
    #endif
    #ifdef TEST_FAIL
        return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "the probe always fails (%u input, %dx%d)",
                              count, inputs[0].width, inputs[0].height);
    #elif defined(TEST_NO_OUTPUT)
        (void)inputs; (void)count; (void)output; (void)error;
        return SUMI_OK;
    #else
        (void)count; (void)error;
        const sumi_image *in = &inputs[0];
        int64_t stride = 0;
        uint8_t *out = output->allocate(output, in->width, in->height, &stride);
        if (out == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "no memory");
        output->warn(output, "probe warning");
        for (int32_t y = 0; y < in->height; y++) {
            const uint8_t *s = in->pixels + y * in->stride;
            uint8_t *d = out + y * stride;
            for (int32_t x = 0; x < in->width; x++) {
                uint8_t a = s[x * 4 + 3];
                for (int c = 0; c < 3; c++) d[x * 4 + c] = (uint8_t)(a - s[x * 4 + c]);
                d[x * 4 + 3] = a;
            }
        }
        return SUMI_OK;
    #endif
    }

    static void probe_destroy(void *instance) { free(instance); }

    static const sumi_stage stages[] = {{
        .size = sizeof(sumi_stage), .descriptor_json = descriptor,
        .create = probe_create, .process = probe_process, .destroy = probe_destroy,
    }};

    static const sumi_plugin plugin = {
        .abi_version = TEST_ABI, .size = sizeof(sumi_plugin), .name = "probe", .version = "0.1",
        .stage_count = 1, .stages = stages,
    };

    SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
        (void)host;
    #ifdef TEST_REFUSE_HOST
        return SUMI_ERROR_ABI;
    #endif
        *out = &plugin;
        return SUMI_OK;
    }
    """#
}
