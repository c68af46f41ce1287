#ifndef SUMI_JP2_H
#define SUMI_JP2_H

#include <stddef.h>
#include <stdint.h>

/* JPEG 2000 (a JP2 file or a bare J2K codestream) through libopenjp2, opened on first use: the
   header is read first (`sumi_jp2_open`: the size, so the caller checks its limits before any
   pixel memory), then the pixels are decoded into the caller's buffer as straight 8-bit RGBA. */
typedef struct sumi_jp2 sumi_jp2;

/* Whether libopenjp2 can be opened: 0, or -1 with a message in `*error`. */
int sumi_jp2_library(const char **error);

/* Reads the header of `size` bytes at `data` (kept by the caller until `sumi_jp2_close`). Always
   returns a handle; `sumi_jp2_error` is non-NULL when reading failed. */
sumi_jp2 *sumi_jp2_open(const uint8_t *data, size_t size);
const char *sumi_jp2_error(const sumi_jp2 *jp2);
/* The image's size, and whether it has an alpha channel. */
int sumi_jp2_width(const sumi_jp2 *jp2);
int sumi_jp2_height(const sumi_jp2 *jp2);
int sumi_jp2_has_alpha(const sumi_jp2 *jp2);
/* The last warning libopenjp2 gave, or NULL. */
const char *sumi_jp2_warning(const sumi_jp2 *jp2);
/* Decodes every pixel into `rgba` (width x height x 4 bytes, straight). 0, or -1 (see the error). */
int sumi_jp2_decode(sumi_jp2 *jp2, uint8_t *rgba);
void sumi_jp2_close(sumi_jp2 *jp2);

#endif
