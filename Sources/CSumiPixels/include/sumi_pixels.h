#ifndef SUMI_PIXELS_H
#define SUMI_PIXELS_H

/*
 * Pixel kernels any stage family may call: conversions between straight and premultiplied RGBA,
 * orientation, and PNG's row filters (RFC 2083 §6) with the choice of filter per row, which the PNG
 * writer and the PDF writer's Flate images share. Plain loops over caller-owned memory: no library,
 * no allocation, no state.
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Premultiplied RGBA ------------------------------------------------------------------- */

/* Premultiplies `count` straight RGBA pixels in place. */
void sumi_premultiply(uint8_t *rgba, size_t count);
/* Un-premultiplies `count` pixels from `src` into `dst` (may be the same buffer). */
void sumi_unpremultiply(const uint8_t *src, uint8_t *dst, size_t count);
/* Whether every alpha byte of `count` pixels is 255. */
int sumi_is_opaque(const uint8_t *rgba, size_t count);
/* Whether every one of `width` premultiplied RGBA pixels of each of `rows` rows (`stride` bytes
 * apart) has equal red, green and blue; stops at the first that does not. */
int sumi_is_grey_rows(const uint8_t *rgba, int width, int rows, size_t stride);
/* The same for one row. */
int sumi_is_grey(const uint8_t *rgba, int width);
/* Straight RGB (3 bytes a pixel, premultiplication undone as sumi_unpremultiply does) of `count`
 * premultiplied RGBA pixels. */
void sumi_straight_rgb(const uint8_t *rgba, uint8_t *rgb, size_t count);
/*
 * Copies rows of RGB (channels 3) or RGBA (channels 4) with `src_stride` bytes a row into tightly
 * packed premultiplied RGBA. RGBA is premultiplied on the way unless `premultiplied` says it already
 * is (then colour is clamped to alpha).
 */
void sumi_import_rows(const uint8_t *src, size_t src_stride, int channels, int premultiplied,
                      int width, int height, uint8_t *dst);
/* Composes premultiplied RGBA over an opaque colour into packed RGB or BGR (`bgr` set) bytes. */
void sumi_flatten_row(const uint8_t *rgba, uint8_t *dst, int width, uint8_t bg_r, uint8_t bg_g,
                      uint8_t bg_b, int bgr);
/* Writes `rows` RGBA rows (each `width` pixels, stored row `y0` first) of an image `width` x
 * `height` to their places in `out` after applying EXIF/TIFF `orientation` (1-8; 5-8: `out` is
 * `height` wide and `width` high). */
void sumi_orient_rows(const uint8_t *rows_rgba, int rows, int y0, int width, int height, uint8_t *out,
                      int orientation);

/* ---- PNG row filters ---------------------------------------------------------------------- */

/* PNG's filter types. */
enum { SUMI_FILTER_NONE = 0, SUMI_FILTER_SUB = 1, SUMI_FILTER_UP = 2, SUMI_FILTER_AVERAGE = 3, SUMI_FILTER_PAETH = 4 };

/*
 * Filters the `n` bytes of `row` (`up`: the row above, zeros above the first; `bpp` bytes a pixel)
 * with the one of the `count` filter types in `candidates` whose filtered bytes have the smallest
 * sum of magnitudes read as signed (libpng's heuristic); the first of equal sums wins, so the
 * candidates' order breaks ties, and a sum of zero ends the search. Writes the type to out[0] and
 * the filtered bytes to out[1...n]; returns the type. An empty row is None.
 */
int sumi_png_filter_row(const uint8_t *row, const uint8_t *up, size_t n, size_t bpp, const uint8_t *candidates,
                        int count, uint8_t *out);

/*
 * The filter for a row of palette indices or packed samples, whose values have no order for the
 * sum of magnitudes to weigh: None or Up, whichever leaves fewer runs of equal bytes (what
 * deflate's matches feed on; identical rows become all zeros under Up), ties to None.
 */
int sumi_png_index_filter(const uint8_t *row, const uint8_t *up, size_t n);

/* Writes `row` filtered with `type` to out[1...n] and the type to out[0]. */
void sumi_png_apply_filter(int type, const uint8_t *row, const uint8_t *up, size_t n, size_t bpp, uint8_t *out);

/* How many of the `n` filtered bytes are small residuals: 1-4 either way (photo grain and
 * gradients, where deflate's short matches cost more than they save). */
size_t sumi_png_small_residuals(const uint8_t *filtered, size_t n);

#ifdef __cplusplus
}
#endif

#endif
