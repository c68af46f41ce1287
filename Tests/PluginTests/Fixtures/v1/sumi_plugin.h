/*
 * sumi_plugin.h — the C ABI between Sumi and plugin libraries.
 *
 * A plugin is a shared library (.so) that exports ONE symbol, `sumi_plugin_init`. Everything else
 * travels through the structures below. The ABI is plain C so that a plugin never shares Swift types
 * (or a Swift copy of the core) with the host: a plugin written in Swift carries its own core, and
 * the two only ever exchange C structs, JSON text and pixel buffers.
 *
 * VERSIONING
 *   - SUMI_PLUGIN_ABI_VERSION is bumped for any change an existing plugin could not survive.
 *   - In every version, `sumi_plugin` starts with `uint32_t abi_version` followed by
 *     `uint32_t size`. The host reads `abi_version` FIRST and, if it is not a version it supports,
 *     reads nothing else from the plugin and refuses it (naming the plugin file and both versions).
 *   - The signature of `sumi_plugin_init` and those two first fields never change, so any host can
 *     call any plugin's entry point and read its version safely.
 *   - Every struct starts with (or, for sumi_plugin, has right after the version) a `size` field set to
 *     `sizeof` the struct by whoever fills it in. Later versions only APPEND fields; a reader never
 *     reads a field that lies beyond the `size` the writer declared. Reserved fields must be zero.
 *
 * ENTRY POINT
 *   int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out);
 *   Called once per process, on one thread, right after the library is loaded. `host` is valid only
 *   during the call (copy what you need from it). The plugin stores in
 *   `*out` a pointer to a `sumi_plugin` that it owns and that stays valid and unchanged for the rest
 *   of the process (typically a static constant). Returns SUMI_OK, or an error code (then `*out` is
 *   ignored). The host never unloads a plugin library (dlclose is never called).
 *
 * OWNERSHIP AND LIFETIME
 *   - Strings and structs reachable from `sumi_plugin` (names, descriptor JSON, stage table) belong to
 *     the plugin and must live as long as the process.
 *   - `params_json`/`given_json` passed to `create`, and the input images passed to `process`
 *     (their pixels included), belong to the host and are valid only during that call. Inputs are
 *     read-only.
 *   - The OUTPUT image is allocated by the HOST: during `process`, the plugin calls
 *     `output->allocate(output, width, height, &stride)` once it knows the size and writes every
 *     pixel of the returned buffer. The host owns that buffer and frees it; the plugin must not keep
 *     the pointer after `process` returns. Calling `allocate` again replaces the earlier buffer.
 *   - An instance made by `create` belongs to the plugin; the host calls `destroy` exactly once for
 *     every successful `create`, after its last `process` call.
 *   - `sumi_error` is allocated (and zeroed) by the host; the plugin writes a NUL-terminated message
 *     into it (use sumi_error_set). Nothing in it needs freeing.
 *
 * THREADING
 *   - `create`, `process` and `destroy` may be called from any thread.
 *   - `process` may run concurrently on DIFFERENT instances (of the same or different stages): a
 *     stage must not keep mutable global state without its own locking.
 *   - The host never calls `process` concurrently on the SAME instance, and never calls `destroy`
 *     while a `process` on that instance is running.
 *
 * ERRORS
 *   Functions return SUMI_OK (0) or a sumi_status code and describe the problem in `sumi_error`.
 *   A plugin must never abort, exit or longjmp out of a call: bad input is an error, not a crash.
 *   SUMI_ERROR_INVALID_PARAMETER from `create` is shown like a built-in stage's parameter error
 *   (exit code 2); an error from `process` fails the run (exit code 1) with the plugin's message.
 *
 * PIXELS
 *   Version 1 knows one pixel format, SUMI_PIXEL_RGBA8_PREMULTIPLIED: 8 bits per channel, R, G, B, A
 *   in that byte order, colour premultiplied by alpha, rows top to bottom, `stride` bytes from one row
 *   to the next (stride >= width * 4).
 *
 * STAGES
 *   Each stage is described by JSON text with the same fields `sumi inspect STAGE --json` prints
 *   (minus "origin"):
 *     {"name": "pixelate", "summary": "...",
 *      "inputs": [{"name": "in", "type": "image"}], "output": "image",
 *      "params": [{"name": "block", "type": "integer", "required": false, "default": 8,
 *                  "summary": "...", "min": 1, "max": null, "values": null}]}
 *   Parameter types are those of manifests (string, number, integer, bool, path, color, size, point,
 *   rect, paths, list<T>, A|B); "minExclusive": true makes "min" exclusive. Version 1 stages take
 *   0..n inputs, each one image ("type": "image"), and produce one image ("output": "image").
 *   The host checks parameters against this description (type, range, enumeration, defaults) before
 *   calling `create`, so `params_json` holds every parameter that has a value, already valid:
 *     {"block": 8}
 *   Numbers are JSON numbers, bools JSON booleans, everything else (colour, size, ...) the text form
 *   Sumi prints ("#ff0000", "390x260", "0,0", "0,0,10,10"); lists are JSON arrays.
 */
#ifndef SUMI_PLUGIN_H
#define SUMI_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI version this header describes. */
#define SUMI_PLUGIN_ABI_VERSION 1u

/** Marks the entry point as exported when a plugin is built with -fvisibility=hidden. */
#define SUMI_PLUGIN_EXPORT __attribute__((visibility("default")))

/** Return codes. */
typedef enum sumi_status {
    SUMI_OK = 0,
    /** A parameter value the stage cannot use (set `parameter` in sumi_error). */
    SUMI_ERROR_INVALID_PARAMETER = 1,
    /** The input could not be processed (bad data, unsupported size, ...). */
    SUMI_ERROR_PROCESS = 2,
    /** The plugin cannot work with this host (e.g. the host's ABI version is too old). */
    SUMI_ERROR_ABI = 3,
    /** Memory could not be allocated. */
    SUMI_ERROR_OUT_OF_MEMORY = 4,
    /** Anything else. */
    SUMI_ERROR_INTERNAL = 5
} sumi_status;

/** The pixel formats of sumi_image.format. */
#define SUMI_PIXEL_RGBA8_PREMULTIPLIED 1u

#define SUMI_ERROR_PARAMETER_CAPACITY 64
#define SUMI_ERROR_MESSAGE_CAPACITY 1024

/** An error description, allocated and zeroed by the host, filled in by the plugin. */
typedef struct sumi_error {
    uint32_t size;      /**< sizeof(sumi_error), set by the host */
    int32_t code;       /**< the sumi_status also returned by the call */
    /** The parameter concerned (empty if none), NUL-terminated. */
    char parameter[SUMI_ERROR_PARAMETER_CAPACITY];
    /** What went wrong, one line, NUL-terminated, no trailing period needed. */
    char message[SUMI_ERROR_MESSAGE_CAPACITY];
} sumi_error;

/** A read-only image passed to `process`. */
typedef struct sumi_image {
    uint32_t size;      /**< sizeof(sumi_image) */
    uint32_t format;    /**< SUMI_PIXEL_RGBA8_PREMULTIPLIED */
    int32_t width;
    int32_t height;
    int64_t stride;     /**< bytes from one row to the next, >= width * 4 */
    const uint8_t *pixels;
    void *reserved[4];
} sumi_image;

/** Where `process` puts its result; filled in by the host. */
typedef struct sumi_output sumi_output;
struct sumi_output {
    uint32_t size;      /**< sizeof(sumi_output) */
    uint32_t format;    /**< the format the host expects: SUMI_PIXEL_RGBA8_PREMULTIPLIED */
    /**
     * Allocates the output image (owned by the host) and returns its first row, or NULL if the size
     * is not acceptable (then return SUMI_ERROR_OUT_OF_MEMORY). `*stride` receives the row stride.
     */
    uint8_t *(*allocate)(sumi_output *self, int32_t width, int32_t height, int64_t *stride);
    /** Prints a warning next to the stage's place in the manifest (may be called any number of times). */
    void (*warn)(sumi_output *self, const char *message);
    /** The host's own data for the callbacks above. */
    void *host_data;
    void *reserved[4];
};

/** One stage a plugin offers. */
typedef struct sumi_stage sumi_stage;
struct sumi_stage {
    uint32_t size;                  /**< sizeof(sumi_stage) */
    uint32_t reserved_flags;        /**< zero */
    /** The stage's description as JSON text (see STAGES above). */
    const char *descriptor_json;
    /** The plugin's own data for this stage (passed back through `stage`); the host ignores it. */
    void *user_data;
    /**
     * Makes an instance from checked parameters. On success stores it in `*instance` (may be NULL if
     * the stage needs no state) and returns SUMI_OK.
     * `given_json` is a JSON array of the parameter names the manifest set explicitly (the others in
     * `params_json` are defaults).
     */
    int32_t (*create)(const sumi_stage *stage, const char *params_json, const char *given_json,
                      void **instance, sumi_error *error);
    /**
     * Runs the stage: `inputs[i]` is the image on the i-th input port of the descriptor
     * (`input_count` of them). The result goes to `output` (see OWNERSHIP).
     */
    int32_t (*process)(void *instance, const sumi_image *inputs, uint32_t input_count,
                       sumi_output *output, sumi_error *error);
    /** Frees an instance made by `create`. */
    void (*destroy)(void *instance);
    void *reserved[4];
};

/** What the host tells the plugin about itself. */
typedef struct sumi_host {
    uint32_t abi_version;           /**< SUMI_PLUGIN_ABI_VERSION of the host */
    uint32_t size;                  /**< sizeof(sumi_host) */
    const char *host_version;       /**< Sumi's version, e.g. "1.0.0" */
    void *reserved[4];
} sumi_host;

/** What a plugin offers; owned by the plugin (see ENTRY POINT). */
typedef struct sumi_plugin {
    uint32_t abi_version;           /**< MUST be first: SUMI_PLUGIN_ABI_VERSION the plugin was built with */
    uint32_t size;                  /**< sizeof(sumi_plugin) */
    const char *name;               /**< e.g. "sepia-tools" */
    const char *version;            /**< e.g. "1.0.0" */
    uint32_t stage_count;
    uint32_t reserved_flags;        /**< zero */
    const sumi_stage *stages;       /**< `stage_count` stages */
    void *reserved[4];
} sumi_plugin;

/** The entry point every plugin exports. */
typedef int32_t (*sumi_plugin_init_fn)(const sumi_host *host, const sumi_plugin **out);

/** The name of the entry point, for dlsym. */
#define SUMI_PLUGIN_INIT_SYMBOL "sumi_plugin_init"

/**
 * Fills in `error` (if not NULL) and returns `code`, so a plugin can write
 * `return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "image too small: %dx%d", w, h);`
 */
static inline int32_t sumi_error_set(sumi_error *error, int32_t code, const char *parameter,
                                     const char *format, ...) __attribute__((format(printf, 4, 5)));

static inline int32_t sumi_error_set(sumi_error *error, int32_t code, const char *parameter,
                                     const char *format, ...) {
    if (error == NULL || error->size < sizeof(sumi_error)) return code;
    error->code = code;
    snprintf(error->parameter, sizeof error->parameter, "%s", parameter ? parameter : "");
    va_list args;
    va_start(args, format);
    vsnprintf(error->message, sizeof error->message, format, args);
    va_end(args);
    return code;
}

#ifdef __cplusplus
}
#endif

#endif /* SUMI_PLUGIN_H */
