/* The PNG decoder's one-piece path for the common PNG (private to the shim). */
#ifndef SUMI_PNG_INFLATE_H
#define SUMI_PNG_INFLATE_H

#include <stddef.h>
#include <stdint.h>

#include "sumi_codecs.h"

/*
 * Decodes the 8-bit, non-interlaced RGB (channels 3) or RGBA (channels 4) PNG `data` into `ring`
 * (which must hold the whole image) as premultiplied RGBA, when everything from its image data to
 * IEND is whole and well-formed: the IDAT chunks from `idat` on (just past the first one's length
 * and type, where libpng's header read stopped), their CRCs unless `verified`, one zlib stream of
 * exactly the image's filtered rows with its Adler-32, known filters, and no critical chunk after.
 * Returns 0 when the image is in the ring, 1 when it declined: the caller then decodes with libpng
 * from the start of the image data, overwriting whatever this wrote.
 */
int sumi_png_inflate_whole(const uint8_t *data, size_t size, size_t idat, int width, int height, int channels,
                           int verified, const sumi_ring *ring);

#endif
