/*
 * Thin C shims over libjpeg-turbo, libpng and libwebp for Sumi's codecs.
 *
 * The libraries report fatal errors through callbacks that must not return (libjpeg's error_exit,
 * libpng's error function), which Swift cannot express: these shims catch them with setjmp/longjmp
 * and return an error code plus a message instead. Nothing here exits the process or prints.
 *
 * Pixels are 8-bit RGBA, premultiplied alpha, rows top to bottom (Sumi's Image layout), unless a
 * function says otherwise. Functions return 0 on success and -1 on failure.
 */
#ifndef SUMI_CODECS_H
#define SUMI_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Libraries opened on first use -------------------------------------------------------- */

/* libjpeg-turbo, giflib and libwebp are opened by the first image that needs them, not at start-up;
 * the shims open them themselves. Each call opens the library once and returns 0, or -1 with
 * "FORMAT needs LIBRARY (Debian package P), which could not be loaded: why" in `error` (what
 * `sumi formats` asks). */
int sumi_libjpeg_open(char *error, size_t error_size);
int sumi_libgif_open(char *error, size_t error_size);
int sumi_libwebp_open(char *error, size_t error_size);

/* ---- JPEG decoding ---------------------------------------------------------------------- */

/* A JPEG decompression over a caller-owned byte buffer that must outlive the decoder. */
typedef struct sumi_jpeg_decoder sumi_jpeg_decoder;

/* Creates a decoder over `data` (not copied). NULL only when memory is exhausted. */
sumi_jpeg_decoder *sumi_jpeg_decoder_create(const uint8_t *data, size_t size);
/* Frees everything the decoder owns. NULL is allowed. */
void sumi_jpeg_decoder_destroy(sumi_jpeg_decoder *decoder);
/* The last error message ("" when none). */
const char *sumi_jpeg_decoder_error(const sumi_jpeg_decoder *decoder);
/* Strict (1): damaged entropy data (a truncated file, a bad Huffman code, a lost marker, a bogus
   progression) is an error. Not strict (0, the default): the image is decoded as libjpeg reads it,
   what is missing filled with grey, and the first such warning kept (sumi_jpeg_decoder_warning). */
void sumi_jpeg_decoder_set_strict(sumi_jpeg_decoder *decoder, int strict);
/* The first warning that some pixels are not the file's ("" when none). */
const char *sumi_jpeg_decoder_warning(const sumi_jpeg_decoder *decoder);

/*
 * The most scans a JPEG may have. Each scan of a progressive (or arithmetic-coded) JPEG passes over
 * the whole image, so a small hostile file with thousands of scans costs minutes (`djpeg -maxscans`
 * guards against the same). Encoders' scan scripts use about 10; 100 leaves ample room.
 */
#define SUMI_JPEG_MAX_SCANS 100

/* Reads the header only: stored size and colour components. No pixel memory is allocated. */
int sumi_jpeg_decoder_read_header(sumi_jpeg_decoder *decoder, int *width, int *height, int *components);

/* Chooses DCT-domain scaling by `scale_num`/8 (1...16) and reports the stored output size. */
int sumi_jpeg_decoder_set_scale(sumi_jpeg_decoder *decoder, int scale_num, int *out_width, int *out_height);

/*
 * Decodes into `out`, which holds out_width * out_height * 4 bytes, applying EXIF `orientation`
 * (1-8) on the way: for 5-8 the written image is out_height wide and out_width high. Truncated or
 * corrupt entropy data is an error when strict, else a warning. This is sumi_jpeg_decoder_decode_ring's loop
 * over `out` (upright) or over a strip whose bands are turned into place as they are done.
 */
int sumi_jpeg_decoder_decode(sumi_jpeg_decoder *decoder, uint8_t *out, int orientation);

/*
 * A bounded ring of rows shared with another thread (Sumi's RowStream): row y is at
 * base + (y % rows) * stride. `wait(context, through)` blocks until rows below `through` may be used
 * (written by a producer, read by a consumer) and returns 0, or -1 when the other side failed;
 * `done(context, through)` hands rows below `through` on (a producer publishes, a consumer releases).
 */
typedef struct sumi_ring {
    uint8_t *base;
    size_t stride;
    /* The ring's size in rows: row y lives at base + (y % rows) * stride. */
    int rows;
    /* The largest band either side may wait for past what the other side handed over (the
     * stream's capacity, at most `rows`): a shim's bands are never taller. */
    int band;
    int (*wait)(void *context, int through);
    void (*done)(void *context, int through);
    void *context;
} sumi_ring;

/*
 * The rows of a band a shim waits for and hands on at a time: about SUMI_BAND_BYTES of rows, in
 * whole 16-row steps (a JPEG iMCU row at 4:2:0), at least 16, at most `most` and the ring's band.
 * Wide rows keep 16-row bands, still in cache when the next stage reads them (a 24 MP decode in
 * 48-row bands cost 1.6x the CPU); narrow ones change hands in taller bands, each of which wakes
 * the thread on the other side once (a 750-pixel-wide decode: 48 rows a band, not 16). The same
 * rule as SumiKit's RowStream.band(rowBytes:).
 */
enum { SUMI_BAND_BYTES = 256 * 1024 };
static inline int sumi_ring_band(const sumi_ring *ring, size_t row_bytes, int most) {
    size_t fit = row_bytes ? SUMI_BAND_BYTES / row_bytes / 16 * 16 : 16;
    int band = fit < 16 ? 16 : fit > (size_t)most ? most : (int)fit;
    if (band > ring->band) band = ring->band;
    return band < 1 ? 1 : band;
}

/* A ring over a whole image already in memory (`rows` tall): waiting and handing over do nothing,
 * so a shim's one ring loop also serves whole-image calls. */
sumi_ring sumi_whole_ring(uint8_t *base, size_t stride, int rows, int band);

/* Decodes upright rows (orientation 1) into `ring`, band by band, at the scale set before. The
 * whole decode (sumi_jpeg_decoder_decode) is this loop over a whole-image ring. */
int sumi_jpeg_decoder_decode_ring(sumi_jpeg_decoder *decoder, const sumi_ring *ring);

/* ---- JPEG encoding ---------------------------------------------------------------------- */

/* Flags for the `optimize` argument of the JPEG encoders (0 and 1 keep their old meaning). */
#define SUMI_JPEG_OPTIMIZE 1    /* optimised Huffman tables */
#define SUMI_JPEG_FULL_CHROMA 2 /* 4:4:4: chroma at full resolution instead of 4:2:0 */
#define SUMI_JPEG_PROGRESSIVE 4 /* progressive scans (libjpeg's simple progression): the same
                                 * coefficients as baseline in fewer bytes */

/*
 * Encodes premultiplied RGBA as baseline JPEG, 4:2:0 (4:4:4 with SUMI_JPEG_FULL_CHROMA in
 * `optimize`), at `quality` (1-100), reading rows from `ring`
 * as they arrive and releasing each band once libjpeg has taken it. When `flatten` is set the pixels
 * are composed over the opaque colour (bg_r, bg_g, bg_b) row by row; otherwise alpha is ignored. The
 * data goes into a malloc'd buffer returned in *out / *out_size (free it with sumi_free). `error`
 * receives a message on failure.
 */
int sumi_jpeg_encode_ring(const sumi_ring *ring, int width, int height, int quality, int optimize, int flatten,
                          uint8_t bg_r, uint8_t bg_g, uint8_t bg_b,
                          uint8_t **out, size_t *out_size, char *error, size_t error_size);

/* sumi_jpeg_encode_ring over a whole image in memory (a ring as tall as the image). */
int sumi_jpeg_encode(const uint8_t *rgba, int width, int height, size_t stride, int quality,
                     int optimize, int flatten, uint8_t bg_r, uint8_t bg_g, uint8_t bg_b,
                     uint8_t **out, size_t *out_size, char *error, size_t error_size);

/* ---- PNG -------------------------------------------------------------------------------- */

/* A PNG decompression over a caller-owned byte buffer that must outlive the decoder. */
typedef struct sumi_png_decoder sumi_png_decoder;

/* verified: the same bytes were decoded before without error; checksums are not computed again. */
sumi_png_decoder *sumi_png_decoder_create(const uint8_t *data, size_t size, int verified);
void sumi_png_decoder_destroy(sumi_png_decoder *decoder);
const char *sumi_png_decoder_error(const sumi_png_decoder *decoder);
/* What libpng warned of so far that changes what is drawn (a chunk it ignored), "; "-separated;
   "" when nothing. */
const char *sumi_png_decoder_warnings(const sumi_png_decoder *decoder);
/*
 * Reads the chunks up to the image data: size, and whether the image can carry transparency.
 * Returns -2 (with the size filled in) when the image has more than `max_pixels` pixels or rows
 * wider than `max_width`: refused before libpng allocates its row buffers.
 */
int sumi_png_decoder_read_header(sumi_png_decoder *decoder, long long max_pixels, long long max_width, int *width,
                                 int *height, int *has_alpha);
/* Whether the image is interlaced (its rows are then only final after the last pass). */
int sumi_png_decoder_is_interlaced(const sumi_png_decoder *decoder);

/* Decodes row by row into `ring` (any bit depth and colour type to premultiplied 8-bit RGBA), then
 * checks the trailer. A whole image is a sumi_whole_ring as tall as the image, the only ring an
 * interlaced image can be decoded into. */
int sumi_png_decoder_decode_ring(sumi_png_decoder *decoder, const sumi_ring *ring);

/*
 * Encodes premultiplied RGBA as PNG with zlib `level` (0-9) into *out / *out_size (free()), in the
 * smallest lossless layout: palette or grey at 1-8 bits for at most 256 colours (libpng), else
 * through sumi_png_rows: grey + alpha, RGB when `opaque`, or straight RGBA.
 */
int sumi_png_encode(const uint8_t *rgba, int width, int height, size_t stride, int level, int opaque,
                    uint8_t **out, size_t *out_size, char *error, size_t error_size);

/* An 8-bit PNG written as its rows come, for an image known (before its last row) to take an
 * 8-bit layout of `channels`: 2 grey + alpha, 3 RGB, 4 straight RGBA. Rows are premultiplied RGBA
 * whatever the layout; the bytes are those sumi_png_encode makes of the whole image (filters and
 * zlib strategy chosen per row and per band of 16 rows, whatever the rows per call). `finish`
 * (which hands over the bytes, to free()) or `abort` frees the writer. */
typedef struct sumi_png_rows sumi_png_rows;
sumi_png_rows *sumi_png_rows_begin(int width, int height, int level, int channels, char *error, size_t error_size);
int sumi_png_rows_write(sumi_png_rows *writer, const uint8_t *rgba, int rows, size_t stride, char *error,
                        size_t error_size);
int sumi_png_rows_finish(sumi_png_rows *writer, uint8_t **out, size_t *out_size, char *error, size_t error_size);
void sumi_png_rows_abort(sumi_png_rows *writer);

/*
 * When premultiplied RGBA has at most 256 distinct pixels: writes them un-premultiplied (straight
 * RGBA, 4 bytes each) to `colors` (room for 256), one index per pixel to `indices` (width * height
 * bytes, rows packed) and returns how many; 0 when there are more (it stops at the 257th), -1 when
 * out of memory.
 */
int sumi_palette_reduce(const uint8_t *rgba, int width, int height, size_t stride, uint8_t *colors,
                        uint8_t *indices);

/* A palette built row by row: the distinct pixels (premultiplied RGBA as loaded, little-endian
 * keys) numbered in order of first appearance, as sumi_palette_reduce numbers them before ordering. */
typedef struct sumi_palette sumi_palette;
sumi_palette *sumi_palette_create(void);
void sumi_palette_destroy(sumi_palette *palette);
/* Each pixel's index into `indices` (width bytes); -1 at the 257th distinct pixel (the palette
 * keeps the 256 before, indices are then unusable). */
int sumi_palette_number_row(sumi_palette *palette, const uint8_t *rgba, int width, uint8_t *indices);
int sumi_palette_count(const sumi_palette *palette);
/* The palette's keys, count of them, in order of first appearance. */
const uint32_t *sumi_palette_keys(const sumi_palette *palette);

/* ---- WebP ------------------------------------------------------------------------------- */

/* Reads the WebP header: canvas size and whether it has alpha; -1 with the reason in `error` (a
 * corrupt header, or libwebp that could not be loaded). */
int sumi_webp_probe(const uint8_t *data, size_t size, int *width, int *height, int *has_alpha, char *error,
                    size_t error_size);
/* Whether a WebP file is an animation. */
int sumi_webp_is_animated(const uint8_t *data, size_t size);
/* An animation's canvas size and frame count (libwebpdemux, opened on first use). 0, or -1 with a
 * message in `error`. */
int sumi_webp_animation_info(const uint8_t *data, size_t size, int *width, int *height, int *frames,
                             char *error, size_t error_size);
/* Frame `index` (from 0) composited on the canvas, premultiplied RGBA, into `rgba` (`bytes` =
 * width x height x 4). 0, or -1 with a message in `error`. */
int sumi_webp_animation_frame(const uint8_t *data, size_t size, int index, uint8_t *rgba, size_t bytes,
                              char *error, size_t error_size);
/* Decodes a still WebP, premultiplied, into `ring` as libwebp finishes its rows (only the rows in
 * progress take memory); the header must have been probed (width, height, has_alpha). A whole
 * image is a sumi_whole_ring as tall as the image: libwebp then writes into it directly. */
int sumi_webp_decode_ring(const uint8_t *data, size_t size, int width, int height, int has_alpha,
                          const sumi_ring *ring, char *error, size_t error_size);
/* Encodes lossy WebP at `quality` (alpha kept). *out is freed with sumi_free. */
int sumi_webp_encode(const uint8_t *rgba, int width, int height, size_t stride, int quality,
                     uint8_t **out, size_t *out_size, char *error, size_t error_size);

/* Frees a buffer returned by an encoder. */
void sumi_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
