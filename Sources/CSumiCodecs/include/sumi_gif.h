#ifndef SUMI_GIF_H
#define SUMI_GIF_H

// GIF input through giflib: the first frame of a file held in memory, or a later frame composited
// on its canvas, as Pillow shows them.

#include <stddef.h>
#include <stdint.h>

#include "sumi_codecs.h"

typedef struct sumi_gif sumi_gif;

/// The first frame and the canvas it is drawn on: the logical screen, grown to hold the frame.
typedef struct sumi_gif_frame {
    int screen_width, screen_height;
    int canvas_width, canvas_height;
    int left, top, width, height;
    /// Whether the frame has a transparent colour index.
    int has_transparency;
} sumi_gif_frame;

/// Opens `size` bytes at `data` (which must outlive the handle). NULL only when out of memory.
sumi_gif *_Nullable sumi_gif_open(const uint8_t *_Nonnull data, size_t size);
void sumi_gif_close(sumi_gif *_Nullable gif);
/// Why the last call failed, on one line.
const char *_Nonnull sumi_gif_error(const sumi_gif *_Nonnull gif);

/// Reads the records up to the first image descriptor. Returns 0, or -1 (`sumi_gif_error`).
int sumi_gif_read_frame(sumi_gif *_Nonnull gif, sumi_gif_frame *_Nonnull frame);

/// Decodes the first frame's canvas into `ring` (canvas_width wide, canvas_height rows), premultiplied
/// RGBA, in bands of the ring's: the frame's local colour table, else the global one, else grey
/// levels (index i is grey i); indices past the table are black. Outside the frame the canvas is
/// transparent when the frame has a transparent index, else colour 0 of the table. Rows flow as
/// giflib decodes them; of an interlaced frame, whose rows come in four passes, the even rows'
/// indices (the first three passes: a byte a pixel, half the frame) are read first, then the odd
/// rows flow. Returns 0, or -1 for corrupt or truncated data (`sumi_gif_error`).
int sumi_gif_decode_ring(sumi_gif *_Nonnull gif, const sumi_ring *_Nonnull ring);
/// A whole canvas is this over a ring as tall as the canvas.

/// The frames of a GIF up to one asked for, read from their descriptors without decoding a pixel.
typedef struct sumi_gif_layout {
    /// Frames read: the one asked for, or every frame of a file that has fewer.
    int frames;
    /// The canvas the last of them is drawn on: the logical screen, grown to hold every frame read.
    int canvas_width, canvas_height;
    /// The pixels of the frames read, together (what compositing the last of them decodes).
    uint64_t pixels;
} sumi_gif_layout;

/// Reads the frames' descriptors up to frame `wanted` (from 1) or the end of the file, skipping
/// their image data. Returns 0, or -1 (`sumi_gif_error`). On a fresh handle.
int sumi_gif_scan(sumi_gif *_Nonnull gif, int wanted, sumi_gif_layout *_Nonnull layout);

/// Frame `wanted` (from 1; the file has that many, `sumi_gif_scan`) composited as Pillow's
/// `seek(wanted - 1)` and `convert("RGBA")` show it, into `out` (canvas_width x canvas_height
/// premultiplied RGBA words, the size `sumi_gif_scan` gave): every frame before it decoded and drawn
/// at its place over the canvas (its transparent index leaving the canvas as it was), each then
/// disposed of as its graphic control block says (a method kept until another is given): 0 and 1
/// left, 2 its place filled with its transparent index (clear) or else the screen's background
/// colour, 3 and above its place put back as it was before it. The canvas grows to hold a frame that
/// lies past it. A first frame without a colour table (or with grey levels as its table) keeps the
/// canvas grey levels, clear where they are the first frame's transparent index. `opaque`: set when
/// no pixel can be clear. Returns 0, or -1 (`sumi_gif_error`). On a fresh handle.
int sumi_gif_compose(sumi_gif *_Nonnull gif, int wanted, int canvas_width, int canvas_height, uint8_t *_Nonnull out,
                     int *_Nonnull opaque);

#endif
