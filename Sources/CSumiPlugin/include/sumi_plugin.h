/*
 * sumi_plugin.h — the C ABI between Sumi and plugin libraries (version 2).
 *
 * A plugin is a shared library (.so) that exports ONE symbol, `sumi_plugin_init`. Everything else
 * travels through the structures below. The ABI is plain C so that a plugin never shares Swift types
 * (or a Swift copy of the core) with the host: a plugin written in Swift carries its own core, and
 * the two only ever exchange C structs, text and pixel buffers.
 *
 * VERSIONING
 *   - SUMI_PLUGIN_ABI_VERSION is bumped for any change an existing plugin could not survive. The host
 *     loads plugins of every version in SUMI_PLUGIN_ABI_OLDEST..SUMI_PLUGIN_ABI_VERSION: a version 1
 *     plugin (built with the version 1 header) keeps loading and running unchanged; its tables have
 *     the layouts `sumi_plugin_v1` and `sumi_stage_v1` below.
 *   - In every version, `sumi_plugin` starts with `uint32_t abi_version` followed by
 *     `uint32_t size`. The host reads `abi_version` FIRST and, if it is not a version it supports,
 *     reads nothing else from the plugin and refuses it (naming the plugin file and the versions).
 *   - The signature of `sumi_plugin_init` and those two first fields never change.
 *   - Every struct starts with (or, for sumi_plugin/sumi_host, has right after the version) a `size`
 *     field set to `sizeof` the struct by whoever fills it in. Later versions only APPEND fields; a
 *     reader never reads a field beyond the `size` the writer declared. Reserved fields must be zero.
 *   - Within version 2, fields are appended to `sumi_api`, `sumi_stage`, `sumi_format` and
 *     `sumi_plugin` without a version change (see "ABI changelog" in docs/plugins.md). A plugin
 *     tests for an api function appended after the first version 2 layout with
 *     `SUMI_API_HAS(api, name)` before calling it, and keeps working (without that function) on a
 *     host that lacks it; it must not refuse a host whose tables are LARGER than its header's.
 *
 * ARRAYS OF TABLES
 *   A struct that may grow is never stepped through at the reader's `sizeof`:
 *   - `stage_list`, `format_list` and `side_data_keys` (appended to sumi_plugin) are arrays of
 *     POINTERS, each table carrying its own `size`: stages of different layouts may be mixed.
 *     This is the form to use; `stages` and `formats` are then NULL.
 *   - The older `stages` and `formats` arrays of structs (DEPRECATED: superseded by the lists; they
 *     keep working) are stepped by the `size` the FIRST entry declares, and every entry must
 *     declare that same size (a plugin built with the first version 2 header has
 *     `SUMI_STAGE_V2_BASE_SIZE`-byte stages, one with the band callbacks full ones).
 *
 * DEPRECATED MEMBERS
 *   Members superseded by later ones stay in the ABI, where they are, and keep working for the
 *   plugins built with them: `sumi_plugin.stages` and `.formats` (use `stage_list`/`format_list`)
 *   and `sumi_api.get_side_data` (use `read_side_data`). They are marked SUMI_DEPRECATED, which is
 *   empty unless the plugin defines SUMI_PLUGIN_DEPRECATION_WARNINGS before including this header:
 *   then the compiler warns where a plugin uses one. The warning is opt-in so that a plugin built
 *   with -Werror against an earlier header keeps building unchanged against this one.
 *
 * ENTRY POINT
 *   int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out);   (declared below)
 *   Called once per process, on one thread, right after the library is loaded. `host` is valid only
 *   during the call, except `host->api`, which stays valid for the rest of the process (keep the
 *   pointer: every value, parameter and call accessor is in it). The plugin stores in `*out` a pointer
 *   to a `sumi_plugin` it owns, valid and unchanged for the rest of the process (typically a static
 *   constant). Returns SUMI_OK, or an error code with a message in `host->error` (then `*out` is
 *   ignored). The host never unloads a plugin library (dlclose is never called).
 *
 * VALUES (version 2)
 *   Everything that flows between stages is an opaque `sumi_value` of one kind: an IMAGE (pixels
 *   plus side data), a LAYER (a raster image or a vector "rasterise at this scale" callback, plus its
 *   placement), a LIST of images, or a FILE a writer stage wrote. Values belong to the host. Inputs
 *   are read-only and valid during the call. A plugin makes new values with the api's `new_*`
 *   functions during a call (`sumi_call`); they belong to that call until the plugin returns one of
 *   them as the result, and the call frees every other one when it ends. A result is always such a
 *   value: returning an input (or an image of an input list) fails the run, naming the stage.
 *
 * SIDE DATA
 *   What travels beside an image's pixels is read and written by key as bytes:
 *     "icc-profile"      the ICC profile (RGB), raw bytes
 *     "exif"             the EXIF block as a TIFF structure (II*\0 / MM\0*), no "Exif\0\0" prefix
 *     "xmp"              the XMP packet, UTF-8
 *     "exif-orientation" 2 bytes: the stored EXIF orientation 1..8, then 1 if applied to the pixels
 *     "capture-rects"    the rectangles of stitched captures: 4 little-endian doubles (x, y, w, h)
 *                        per capture, in capture order; a capture made unknown is four NaNs
 *     "source"           the source format and path: "FORMAT\0PATH" (UTF-8)
 *     "opaque"           1 byte, 1: every pixel is known to be opaque
 *   The result image of a stage first receives the side data of the image on its first input port,
 *   transformed by the descriptor's "effect" (see STAGES); the plugin then sets (or, with NULL bytes,
 *   removes) entries with `set_side_data`, which always wins. Unknown keys are refused.
 *   A plugin may add keys of its own (`side_data_keys` in sumi_plugin, each a `sumi_side_data_key`
 *   with its rule: kept or dropped when a stage changes pixel values, and when it moves pixels, as
 *   GStreamer's GstMeta tags say): their bytes are opaque to the host, travel with the image through
 *   every stage (built-in or plugin) under that rule, and are dropped by a stage that declares
 *   nothing ("effect": "unknown") unless both rules keep them. A key must not be a built-in one;
 *   two plugins may register one key only with the same rule.
 *   `get_side_data` (deprecated: see DEPRECATED MEMBERS) returns SUMI_ERROR_PROCESS for a key the
 *   image lacks (kept for the plugins built before); `read_side_data` tells SUMI_ERROR_NOT_FOUND
 *   apart from an error (which has a message).
 *
 * PARAMETERS (version 2)
 *   `create` receives the checked parameters (defaults filled in) as an opaque `sumi_params`, read with
 *   typed accessors (`param`, then `param_number`, `param_integer`, `param_color`, ... or `param_count`
 *   and `param_item` for lists). No JSON parsing in a plugin. The accessors return SUMI_OK or
 *   SUMI_ERROR_INVALID_PARAMETER when the parameter has another type (an "A|B" parameter: ask
 *   `param_type`). Colours are straight (not premultiplied) 8-bit RGBA.
 *   A `sumi_param` and the text `param_string`/`param_text` return live as long as the `sumi_params`
 *   they came from: until `create` returns. Copy what the instance keeps.
 *   A "path" parameter declares which way its file goes with "access": "reads" or "writes" in its
 *   descriptor; one without (every plugin built before) is checked both ways in a safe run
 *   (`sumi run --safe`): its file must be both an input and below the output folder. "safe-max": N
 *   caps a number (or a string's length) in a safe run; a number parameter not given then gets N.
 *
 * OWNERSHIP AND LIFETIME
 *   - Strings and structs reachable from `sumi_plugin` (names, descriptor JSON, stage and format
 *     tables) belong to the plugin and must live as long as the process.
 *   - Parameters, input values (their pixels included) and `sumi_call` belong to the host and are valid
 *     only during the call. Inputs are read-only.
 *   - An instance made by `create` belongs to the plugin; the host calls `destroy` exactly once for
 *     every successful `create`, after its last `process` call.
 *   - A vector layer's `user_data` belongs to the layer from `new_vector_layer` on: the host calls
 *     `free_user_data` (if not NULL) once, when the last copy of the layer is dropped, which may be
 *     long after the call that made it ended.
 *   - `sumi_error` is allocated (and zeroed) by the host; the plugin writes a NUL-terminated message
 *     into it (use sumi_error_set). Nothing in it needs freeing.
 *
 * THREADING
 *   - `create`, `process`, `destroy`, format `decode`/`encode` and layer `rasterize` callbacks may be
 *     called from any thread.
 *   - `process` may run concurrently on DIFFERENT instances (of the same or different stages): a
 *     stage must not keep mutable global state without its own locking.
 *   - The host never calls `process` concurrently on the SAME instance, and never calls `destroy`
 *     while a `process` on that instance is running.
 *   - A layer's `rasterize` may run concurrently with itself (two consumers of one layer): treat
 *     `user_data` as read-only after `new_vector_layer`.
 *   - A plugin's own threads (started during a call, finished before it returns) may call `warn`,
 *     `write_bytes`, `kind` and `image_pixels` of that call's values. Every other api function is
 *     called on the thread the host called the plugin on, during the call its values belong to.
 *   - api functions that take a `sumi_call` must be called during that call only. A pointer used
 *     after its call (or a pointer that never was a value) gets the function's error, not a crash.
 *
 * ERRORS
 *   Functions return SUMI_OK (0) or a sumi_status code and describe the problem in `sumi_error`.
 *   A plugin must never abort, exit or longjmp out of a call: bad input is an error, not a crash.
 *   SUMI_ERROR_INVALID_PARAMETER from `create` is shown like a built-in stage's parameter error
 *   (exit code 2); an error from `process` fails the run (exit code 1) with the plugin's message.
 *   The host checks what `process` returns against the descriptor (kind of the output port; for an
 *   "effect": "pixels" stage, the size of the input) and fails the run with a message otherwise.
 *
 * PIXELS
 *   One pixel format, SUMI_PIXEL_RGBA8_PREMULTIPLIED: 8 bits per channel, R, G, B, A in that byte
 *   order, colour premultiplied by alpha, rows top to bottom, `stride` bytes from one row to the next
 *   (stride >= width * 4).
 *
 * STAGES
 *   Each stage is described by JSON text with the same fields `sumi inspect STAGE --json` prints
 *   (minus "origin"):
 *     {"name": "pixelate", "summary": "...",
 *      "inputs": [{"name": "in", "type": "image"}], "output": "image",
 *      "params": [{"name": "block", "type": "integer", "required": false, "default": 8,
 *                  "summary": "...", "min": 1, "max": null, "values": null}],
 *      "effect": "pixels"}
 *   Parameter types are those of manifests (string, number, integer, bool, path, color, size, point,
 *   rect, paths, list<T>, A|B); "minExclusive": true makes "min" exclusive. Version 2 stages take
 *   0..n named inputs of any kinds ("type": "image", "layer", "images", "file" or "A|B") and produce
 *   one value of the declared "output" kind. `inputs[i]` of `process` is the value on the i-th port:
 *   an image given to a port that takes only layers arrives as a raster layer, to a port that takes
 *   only lists as a list of one. "effect" (`pixels`, `creates`, `geometry`, `unknown`, the default)
 *   says what becomes of the first input's side data (see SIDE DATA).
 *
 * BANDS (version 2, optional)
 *   A stage with one image input and an image output of the same size may set `band_begin`,
 *   `band_process` and `band_end`. When the pipeline streams (the stage's input comes from a stage
 *   that produces rows, e.g. `decode` of a JPEG or PNG, and its output goes to one consumer that
 *   reads rows, e.g. `encode`), the host calls, on one instance: `band_begin(width, height)` once,
 *   then `band_process` for consecutive bands top to bottom (each row exactly once), then
 *   `band_end`. Otherwise it calls `process` with the whole image, as for a stage without them; both
 *   paths must give the same pixels. In band mode the result carries the input's side data under
 *   the descriptor's "effect" (the plugin cannot set side data, warn or read other inputs).
 *   The band callbacks of one instance are called from one thread at a time, in order, never
 *   concurrently with its `process` or `destroy`; different instances may run at the same time.
 *   Bands are at most 16 rows; their height varies (the last one, and where the host's ring
 *   wraps), so a plugin must not assume a band size. A band error fails the run (exit 1) with
 *   the plugin's message and no output file is written.
 *
 * BANDS BESIDE OTHER INPUTS (appended within version 2; the host has SUMI_API_HAS(api, image_size))
 *   A stage whose first input is an image and whose output is an image of the same size may stream
 *   its first input while taking its other inputs whole (`blend`: the base by bands, the layers
 *   whole): it sets `band_start`, `band_process` and `band_end` (`band_begin` may then be NULL).
 *   `band_start` gets the other inputs and the result's side data (see `band_start`); bands come as
 *   in BANDS. `port_access` tells per instance how each port is read: SUMI_ACCESS_BANDS (port 0
 *   only, with band callbacks), SUMI_ACCESS_WHOLE, or SUMI_ACCESS_SHAPE — size and side data only
 *   (`place`'s base): the value `process` or `band_start` gets is an image without pixels, and the
 *   port does not keep its producer from streaming the pixels to another stage. A plugin sets
 *   these members only for a host with `image_size`, so an older host never sees a stage with
 *   `band_process` but no `band_begin`. The Swift SDK does this for every `BandStage`.
 *
 * FORMATS (version 2)
 *   A plugin may add decoders and encoders for image file formats (`sumi_format`): the built-in
 *   `decode` stage recognises the format by its magic bytes and calls `decode` (a folder input takes
 *   a file whose extension the format lists and whose bytes start with its magic); `encode` picks it
 *   by its `format` parameter (the format's `name`) or else the output's file extension, calls
 *   `encode`, then writes the bytes atomically. The image handed to `encode` carries the side data
 *   to write ("icc-profile", "exif", "xmp"), already prepared by encode's `profile` and `metadata`
 *   parameters; `quality` and the other encoder parameters are not passed. Magic bytes a built-in
 *   format already recognises stay the built-in's: the host warns and ignores the plugin's decoder.
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
#define SUMI_PLUGIN_ABI_VERSION 2u
/** The oldest ABI version the host still loads. */
#define SUMI_PLUGIN_ABI_OLDEST 1u

/** Marks the entry point as exported when a plugin is built with -fvisibility=hidden. */
#define SUMI_PLUGIN_EXPORT __attribute__((visibility("default")))

/** Marks a superseded member (see DEPRECATED MEMBERS): a warning only for a plugin that asks for it. */
#if defined(SUMI_PLUGIN_DEPRECATION_WARNINGS) && (defined(__GNUC__) || defined(__clang__))
#define SUMI_DEPRECATED(message) __attribute__((deprecated(message)))
#else
#define SUMI_DEPRECATED(message)
#endif

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
    SUMI_ERROR_INTERNAL = 5,
    /** Nothing under that name (`read_side_data` of a key the image does not carry); not a failure. */
    SUMI_ERROR_NOT_FOUND = 6
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

/** The pixels of an image: read-only for inputs (version 1 `process`, `image_pixels`). */
typedef struct sumi_image {
    uint32_t size;      /**< sizeof(sumi_image) */
    uint32_t format;    /**< SUMI_PIXEL_RGBA8_PREMULTIPLIED */
    int32_t width;
    int32_t height;
    int64_t stride;     /**< bytes from one row to the next, >= width * 4 */
    const uint8_t *pixels;
    void *reserved[4];
} sumi_image;

/**
 * A place for one image the host allocates: the result of a version 1 `process`, and of a vector
 * layer's `rasterize`.
 */
typedef struct sumi_output sumi_output;
struct sumi_output {
    uint32_t size;      /**< sizeof(sumi_output) */
    uint32_t format;    /**< the format the host expects: SUMI_PIXEL_RGBA8_PREMULTIPLIED */
    /**
     * Allocates the image (owned by the host) and returns its first row, or NULL if the size is not
     * acceptable (then return SUMI_ERROR_OUT_OF_MEMORY). `*stride` receives the row stride.
     */
    uint8_t *(*allocate)(sumi_output *self, int32_t width, int32_t height, int64_t *stride);
    /** Prints a warning next to the stage's place in the manifest (may be called any number of times). */
    void (*warn)(sumi_output *self, const char *message);
    /** The host's own data for the callbacks above. */
    void *host_data;
    void *reserved[4];
};

/* ---------------------------------------------------------------------------------------------- */
/* Version 2: values, parameters, calls                                                            */
/* ---------------------------------------------------------------------------------------------- */

/** A value flowing between stages (opaque, owned by the host). */
typedef struct sumi_value sumi_value;
/** The checked parameters of one `create` (opaque, owned by the host). */
typedef struct sumi_params sumi_params;
/** One parameter value (opaque, owned by the host, valid while its `sumi_params` is). */
typedef struct sumi_param sumi_param;
/** One `process`, `decode` or `encode` call (opaque, owned by the host). */
typedef struct sumi_call sumi_call;

/** The kinds of sumi_value. */
typedef enum sumi_kind {
    SUMI_KIND_IMAGE = 1,
    SUMI_KIND_LAYER = 2,
    SUMI_KIND_IMAGES = 3,
    SUMI_KIND_FILE = 4
} sumi_kind;

/** The types of sumi_param. */
typedef enum sumi_param_type {
    SUMI_PARAM_STRING = 1,
    SUMI_PARAM_NUMBER = 2,
    SUMI_PARAM_INTEGER = 3,
    SUMI_PARAM_BOOL = 4,
    SUMI_PARAM_PATH = 5,
    SUMI_PARAM_COLOR = 6,
    SUMI_PARAM_SIZE = 7,
    SUMI_PARAM_POINT = 8,
    SUMI_PARAM_RECT = 9,
    SUMI_PARAM_LIST = 10
} sumi_param_type;

/** A layer's content size (layout units) and placement on its base. */
typedef struct sumi_layer_info {
    uint32_t size;          /**< sizeof(sumi_layer_info), set by the caller */
    uint32_t is_vector;     /**< 1 for a vector layer (text, a plugin's `new_vector_layer`), 0 for a raster one */
    double width, height;   /**< content size in layout units (pixels at scale 1) */
    double x, y;            /**< placement: top-left in base pixels */
    double scale_x, scale_y;/**< placement: layout units to base pixels */
} sumi_layer_info;

/** What a file value describes (a writer's result). Strings are valid while the value is. */
typedef struct sumi_file_info {
    uint32_t size;          /**< sizeof(sumi_file_info), set by the caller */
    uint32_t reserved_flags;
    const char *path;
    const char *format;
    int64_t bytes;
    double width, height;
} sumi_file_info;

/**
 * Draws a vector layer at `scale_x`/`scale_y` (layout units → pixels) with its top-left shifted by
 * (`phase_x`, `phase_y`) in 0..<1: allocate `ceil(width * scale_x + phase_x)` ×
 * `ceil(height * scale_y + phase_y)` pixels through `output->allocate` and draw into them.
 */
typedef int32_t (*sumi_rasterize_fn)(void *user_data, double scale_x, double scale_y,
                                     double phase_x, double phase_y, sumi_output *output, sumi_error *error);

/**
 * The host's services, given in `sumi_host.api` (valid for the whole process). Functions that can
 * fail return a sumi_status (or NULL) and never abort.
 */
typedef struct sumi_api {
    uint32_t size;          /**< sizeof(sumi_api) */
    uint32_t reserved_flags;

    /* --- reading values --- */
    /** The kind of a value (a sumi_kind). */
    uint32_t (*kind)(const sumi_value *value);
    /** An image's pixels (read-only for inputs, writable for images from `new_image`). */
    int32_t (*image_pixels)(const sumi_value *image, sumi_image *out);
    /**
     * A side-data entry of an image by key (see SIDE DATA): `*bytes` and `*length` receive it
     * (valid while the image is). Returns SUMI_OK, or SUMI_ERROR_PROCESS when the image has none.
     * Deprecated: `read_side_data` tells a missing entry apart from an error.
     */
    int32_t (*get_side_data)(const sumi_value *image, const char *key, const uint8_t **bytes, size_t *length)
        SUMI_DEPRECATED("use read_side_data (test SUMI_API_HAS(api, read_side_data))");
    /** The number of images in a list (0 for another kind). */
    uint32_t (*list_count)(const sumi_value *list);
    /** The `index`-th image of a list, or NULL. */
    const sumi_value *(*list_item)(const sumi_value *list, uint32_t index);
    /** A layer's size and placement (`out->size` set by the caller). */
    int32_t (*layer_info)(const sumi_value *layer, sumi_layer_info *out);
    /**
     * Draws a layer at a scale (see sumi_rasterize_fn) into a new image of `call`, returned in
     * `*image`. A vector layer's own callback failing is an error with its message.
     */
    int32_t (*layer_rasterize)(sumi_call *call, const sumi_value *layer, double scale_x, double scale_y,
                               double phase_x, double phase_y, sumi_value **image, sumi_error *error);
    /** What a file value describes (`out->size` set by the caller). */
    int32_t (*file_info)(const sumi_value *file, sumi_file_info *out);

    /* --- making values (owned by the call until returned as its result) --- */
    /**
     * A new image, zeroed, with writable pixels (`*pixels`, `*stride`), or NULL when the size is not
     * acceptable (negative, or over the host's limit).
     */
    sumi_value *(*new_image)(sumi_call *call, int32_t width, int32_t height, uint8_t **pixels, int64_t *stride);
    /** Sets (or, with `bytes` NULL, removes) a side-data entry of an image from `new_image`. */
    int32_t (*set_side_data)(sumi_value *image, const char *key, const uint8_t *bytes, size_t length);
    /** A new, empty list of images. */
    sumi_value *(*new_list)(sumi_call *call);
    /** Appends an image (an input or one made in this call) to a list made in this call. */
    int32_t (*list_append)(sumi_value *list, const sumi_value *image);
    /** A raster layer showing `image` (an input or one made in this call), at identity placement. */
    sumi_value *(*new_raster_layer)(sumi_call *call, const sumi_value *image);
    /**
     * A vector layer of `width` × `height` layout units, drawn by `rasterize(user_data, ...)` whenever
     * a consumer needs it at some scale (see OWNERSHIP for `user_data`).
     */
    sumi_value *(*new_vector_layer)(sumi_call *call, double width, double height, sumi_rasterize_fn rasterize,
                                    void *user_data, void (*free_user_data)(void *user_data));
    /** Sets the placement of a layer made in this call. */
    int32_t (*set_placement)(sumi_value *layer, double x, double y, double scale_x, double scale_y);
    /**
     * Writes `bytes` to `path` atomically (a temporary file in the same folder, then renamed; `-` is
     * standard output) and returns the file value describing it in `*file`. For a stage's `process`
     * only (a format's `decode`/`encode` gets an error). In a safe run (`sumi run --safe`) a path
     * outside the output folder is refused with an error.
     */
    int32_t (*write_file)(sumi_call *call, const char *path, const char *format, const uint8_t *bytes,
                          size_t length, double width, double height, sumi_value **file, sumi_error *error);

    /* --- calls --- */
    /** Prints a warning next to the stage's place in the manifest. */
    void (*warn)(sumi_call *call, const char *message);
    /**
     * For a stage that produces an image (a decoder): given the full size, the smallest size every
     * consumer needs (`*width`, `*height`); returns 1 when a smaller image will do, else 0 (the full
     * size is needed, and `*width`/`*height` are the full size).
     */
    int32_t (*size_hint)(sumi_call *call, int32_t full_width, int32_t full_height, int32_t *width, int32_t *height);
    /** Appends encoded bytes to the output of a format's `encode` call. */
    int32_t (*write_bytes)(sumi_call *call, const uint8_t *bytes, size_t length);

    /* --- parameters --- */
    /** A parameter by name, or NULL when it has no value (an optional parameter without default). */
    const sumi_param *(*param)(const sumi_params *params, const char *name);
    /** Whether the manifest set the parameter explicitly (1) or it is a default (0). */
    int32_t (*param_given)(const sumi_params *params, const char *name);
    /** The type of a parameter value (a sumi_param_type). */
    uint32_t (*param_type)(const sumi_param *param);
    int32_t (*param_number)(const sumi_param *param, double *value);     /**< number or integer */
    int32_t (*param_integer)(const sumi_param *param, int64_t *value);
    int32_t (*param_bool)(const sumi_param *param, int32_t *value);
    /** A string or path (NUL-terminated, valid while the parameters are); NULL for other types. */
    const char *(*param_string)(const sumi_param *param);
    int32_t (*param_color)(const sumi_param *param, uint8_t rgba[4]);
    int32_t (*param_size)(const sumi_param *param, double *width, double *height);
    int32_t (*param_point)(const sumi_param *param, double *x, double *y);
    int32_t (*param_rect)(const sumi_param *param, double *x, double *y, double *width, double *height);
    /** The number of items of a list parameter (0 for another type). */
    uint32_t (*param_count)(const sumi_param *param);
    /** The `index`-th item of a list parameter, or NULL. */
    const sumi_param *(*param_item)(const sumi_param *param, uint32_t index);
    /** The value's text as Sumi prints it ("#ff0000", "390x260", "a,b" for lists). */
    const char *(*param_text)(const sumi_param *param);

    /* --- layers, continued --- */
    /**
     * A new layer of `call` with the content and placement of `layer` (an input, or one made in this
     * call), which `set_placement` may then move: how a stage like `place` positions a layer it was
     * given without drawing it.
     */
    sumi_value *(*new_layer_from)(sumi_call *call, const sumi_value *layer);

    /* --- appended within version 2: test with SUMI_API_HAS(api, name) before calling --- */
    /**
     * `get_side_data` with a status that tells absence apart: SUMI_OK, SUMI_ERROR_NOT_FOUND when the
     * image carries no such entry (`error` untouched), or SUMI_ERROR_PROCESS with a message (not an
     * image, an unknown key). Registered keys (`side_data_keys`) are read the same way.
     */
    int32_t (*read_side_data)(const sumi_value *image, const char *key, const uint8_t **bytes, size_t *length,
                              sumi_error *error);
    /** `set_side_data` with a message in `error` when it fails (which key, which rule). */
    int32_t (*write_side_data)(sumi_value *image, const char *key, const uint8_t *bytes, size_t length,
                               sumi_error *error);
    /** `list_append` with a message in `error` when it fails. */
    int32_t (*append_image)(sumi_value *list, const sumi_value *image, sumi_error *error);
    /**
     * The size of an image, also of one without pixels (a port read as a shape, the band port and
     * the result in `band_start`). A host that has it knows `port_access` and `band_start` (see
     * BANDS BESIDE OTHER INPUTS): a plugin sets those only when SUMI_API_HAS(api, image_size).
     */
    int32_t (*image_size)(const sumi_value *image, int32_t *width, int32_t *height);
} sumi_api;

/**
 * Whether the host's api has the function `member` (appended within version 2 after the first
 * layout): the table is long enough to hold it and it is set.
 */
#define SUMI_API_HAS(api, member)                                                                      \
    ((api) != NULL && (size_t)(api)->size >= offsetof(sumi_api, member) + sizeof((api)->member) &&     \
     (api)->member != NULL)

/** The size of the first version 2 `sumi_api` (up to `new_layer_from`): what every version 2 host has. */
#define SUMI_API_V2_BASE_SIZE (offsetof(sumi_api, new_layer_from) + sizeof(void (*)(void)))

/** One stage a version 2 plugin offers. */
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
     */
    int32_t (*create)(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error);
    /**
     * Runs the stage: `inputs[i]` is the value on the i-th input port of the descriptor (`input_count`
     * of them). Stores the result, a value made in `call`, in `*result`.
     */
    int32_t (*process)(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t input_count,
                       sumi_value **result, sumi_error *error);
    /** Frees an instance made by `create`. */
    void (*destroy)(void *instance);
    void *reserved[4];

    /* --- band processing (optional; version 2 tables with a smaller `size` end above) --- */
    /**
     * For a stage with one image input and an image output: processes the image band by band, so
     * the host need not hold it whole (see BANDS). All three are set, or all NULL (then `process`
     * always gets the whole image). `begin` receives the input's size and stores the output's in
     * `*out_width`/`*out_height` (the host sets them to the input's size first; band mode supports
     * only that size, another is an error).
     */
    int32_t (*band_begin)(void *instance, int32_t width, int32_t height, int32_t *out_width, int32_t *out_height,
                          sumi_error *error);
    /**
     * Rows `first_row ..< first_row + row_count` of the input at `in_rows` (read-only), to be written
     * as the same rows of the output at `out_rows`; both have `stride` bytes from one row to the next.
     * Bands come top to bottom, each row exactly once; a band's buffers are valid only during the call.
     */
    int32_t (*band_process)(void *instance, const uint8_t *in_rows, uint8_t *out_rows, int32_t first_row,
                            int32_t row_count, int64_t stride, sumi_error *error);
    /**
     * Called once after every successful `band_begin`: `completed` is 1 when every band was
     * processed (an error then fails the run), 0 when the run stopped early (free band state; the
     * error is ignored).
     */
    int32_t (*band_end)(void *instance, int32_t completed, sumi_error *error);

    /* --- appended within version 2: bands beside other inputs (see BANDS BESIDE OTHER INPUTS) --- */
    /**
     * How this instance reads the image on input port `port`: a sumi_port_access. Called after
     * `create`, before the instance runs; NULL means SUMI_ACCESS_BANDS for port 0 of a stage with
     * band callbacks and SUMI_ACCESS_WHOLE for every other port.
     */
    uint32_t (*port_access)(void *instance, uint32_t port);
    /**
     * `band_begin` for a stage whose first input comes by bands while its other inputs come whole
     * (`blend`: the base by bands, the layer whole). `inputs[0]` is the first port's image without
     * pixels (`image_size` and side data only); `inputs[i]` for the other ports are the values
     * `process` would get. `output` is the result image without pixels, as large as the first input
     * and carrying its side data under "effect": set_side_data/write_side_data on it set the
     * result's side data. `call` and its values (rasterised layers included) stay valid until
     * `band_end` returns; `warn` works through it. Then `band_process` and `band_end` as in BANDS.
     */
    int32_t (*band_start)(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t input_count,
                          sumi_value *output, sumi_error *error);
};

/** The size of a version 2 stage table without the band callbacks (the first version 2 layout). */
#define SUMI_STAGE_V2_BASE_SIZE offsetof(sumi_stage, band_begin)
/** The size of a version 2 stage table with the first band callbacks only (before `port_access`). */
#define SUMI_STAGE_V2_BANDS_SIZE offsetof(sumi_stage, port_access)

/** How a stage instance reads an image input (`port_access`). */
typedef enum sumi_port_access {
    /** The whole image, pixels included (the default). */
    SUMI_ACCESS_WHOLE = 0,
    /** By bands (port 0 of a stage with band callbacks only; elsewhere read as WHOLE). */
    SUMI_ACCESS_BANDS = 1,
    /** Size and side data only: an image without pixels (`image_pixels` fails on it). */
    SUMI_ACCESS_SHAPE = 2
} sumi_port_access;

/** Whether a stage table has the member `member` (appended later): its `size` covers it and it is set. */
#define SUMI_STAGE_HAS(stage, member)                                                                  \
    ((stage) != NULL && (size_t)(stage)->size >= offsetof(sumi_stage, member) + sizeof((stage)->member) && \
     (stage)->member != NULL)

/**
 * An image file format a plugin reads and/or writes. `decode` makes the image (`new_image`) of
 * encoded `bytes` and stores it in `*image`; `size_hint` tells it when a smaller image would do.
 * `encode` writes the encoded form of `image` with `write_bytes`. Either may be NULL.
 */
typedef struct sumi_format sumi_format;
struct sumi_format {
    uint32_t size;                  /**< sizeof(sumi_format) */
    uint32_t magic_length;          /**< bytes in `magic` (at least 2) */
    const char *name;               /**< e.g. "qoi": what `encode format=` accepts and reports name */
    /** File extensions, comma-separated, lower case, without dots: "ff,farbfeld" */
    const char *extensions;
    const uint8_t *magic;           /**< the bytes every file of the format starts with */
    void *user_data;                /**< the plugin's own data; the host ignores it */
    int32_t (*decode)(const sumi_format *format, sumi_call *call, const uint8_t *bytes, size_t length,
                      sumi_value **image, sumi_error *error);
    int32_t (*encode)(const sumi_format *format, sumi_call *call, const sumi_value *image, sumi_error *error);
    void *reserved[4];
};

/** The size of the first version 2 `sumi_format` (all of it so far). */
#define SUMI_FORMAT_V2_BASE_SIZE sizeof(sumi_format)

/** What becomes of a registered side-data entry when a stage changes an image (sumi_side_data_key). */
typedef enum sumi_side_data_rule {
    SUMI_SIDE_DATA_DROP = 0,
    SUMI_SIDE_DATA_KEEP = 1
} sumi_side_data_rule;

/**
 * A side-data key a plugin adds (see SIDE DATA): `name` (lower-case letters, digits, '-', '.', '/';
 * a prefix of the plugin's own, as "acme/tag", avoids clashes) and its rules.
 */
typedef struct sumi_side_data_key {
    uint32_t size;                  /**< sizeof(sumi_side_data_key) */
    uint32_t reserved_flags;        /**< zero */
    const char *name;
    uint32_t on_pixels;             /**< a sumi_side_data_rule when pixel values change ("effect": "pixels") */
    uint32_t on_geometry;           /**< a sumi_side_data_rule when pixels move ("effect": "geometry") */
    void *reserved[2];
} sumi_side_data_key;

/** What the host tells the plugin about itself. */
typedef struct sumi_host {
    uint32_t abi_version;           /**< SUMI_PLUGIN_ABI_VERSION of the host */
    uint32_t size;                  /**< sizeof(sumi_host) */
    const char *host_version;       /**< Sumi's version, e.g. "0.2.0" */
    void *reserved[4];
    /* version 2 */
    const sumi_api *api;            /**< the host's services, valid for the whole process */
    sumi_error *error;              /**< where `sumi_plugin_init` may describe why it failed */
} sumi_host;

/** What a version 2 plugin offers; owned by the plugin (see ENTRY POINT). */
typedef struct sumi_plugin {
    uint32_t abi_version;           /**< MUST be first: SUMI_PLUGIN_ABI_VERSION the plugin was built with */
    uint32_t size;                  /**< sizeof(sumi_plugin) */
    const char *name;               /**< e.g. "sepia-tools" */
    const char *version;            /**< e.g. "1.0.0" */
    const char *licence;            /**< SPDX identifier, e.g. "MIT" (may be NULL) */
    const char *description;        /**< one line (may be NULL) */
    uint32_t stage_count;
    uint32_t format_count;
    /** `stage_count` stages (see ARRAYS OF TABLES), or NULL. Deprecated: `stage_list`. */
    const sumi_stage *stages SUMI_DEPRECATED("use stage_list, an array of pointers to stage tables");
    /** `format_count` formats (see ARRAYS OF TABLES), or NULL. Deprecated: `format_list`. */
    const sumi_format *formats SUMI_DEPRECATED("use format_list, an array of pointers to format tables");
    void *reserved[4];

    /* --- appended within version 2 (read when `size` covers them; see ARRAYS OF TABLES) --- */
    /** `stage_count` pointers to stage tables, used instead of `stages` (then NULL). */
    const sumi_stage *const *stage_list;
    /** `format_count` pointers to format tables, used instead of `formats` (then NULL). */
    const sumi_format *const *format_list;
    uint32_t side_data_key_count;
    uint32_t reserved_count;        /**< zero */
    /** `side_data_key_count` pointers to the side-data keys the plugin adds (see SIDE DATA). */
    const sumi_side_data_key *const *side_data_keys;
} sumi_plugin;

/** The size of the first version 2 `sumi_plugin` (without the pointer arrays). */
#define SUMI_PLUGIN_V2_BASE_SIZE offsetof(sumi_plugin, stage_list)

/* ---------------------------------------------------------------------------------------------- */
/* Version 1 layouts, read by the host for plugins built with the version 1 header                 */
/* ---------------------------------------------------------------------------------------------- */

/** A version 1 stage: JSON parameters, images in, one image out. */
typedef struct sumi_stage_v1 sumi_stage_v1;
struct sumi_stage_v1 {
    uint32_t size;
    uint32_t reserved_flags;
    const char *descriptor_json;
    void *user_data;
    int32_t (*create)(const sumi_stage_v1 *stage, const char *params_json, const char *given_json,
                      void **instance, sumi_error *error);
    int32_t (*process)(void *instance, const sumi_image *inputs, uint32_t input_count,
                       sumi_output *output, sumi_error *error);
    void (*destroy)(void *instance);
    void *reserved[4];
};

/** A version 1 plugin table. */
typedef struct sumi_plugin_v1 {
    uint32_t abi_version;
    uint32_t size;
    const char *name;
    const char *version;
    uint32_t stage_count;
    uint32_t reserved_flags;
    const sumi_stage_v1 *stages;
    void *reserved[4];
} sumi_plugin_v1;

/**
 * The entry point every plugin exports (see ENTRY POINT). Declared here so that a definition with
 * another signature does not compile.
 */
SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out);

/** The entry point's type, for a host's dlsym. */
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
