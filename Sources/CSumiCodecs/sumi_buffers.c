/* The codecs' buffers: what an encoder hands over is freed by sumi_free; a whole image is a ring. */
#include "sumi_codecs.h"

#include <stdlib.h>

void sumi_free(void *pointer) { free(pointer); }

/* A whole image is a ring as tall as the image whose rows are all there: nothing to wait for. */
static int whole_image_wait(void *context, int through) {
    (void)context;
    (void)through;
    return 0;
}

static void whole_image_done(void *context, int through) {
    (void)context;
    (void)through;
}

sumi_ring sumi_whole_ring(uint8_t *base, size_t stride, int rows, int band) {
    const sumi_ring ring = {base, stride, rows > 0 ? rows : 1, band > 0 ? band : 1, whole_image_wait, whole_image_done,
                            NULL};
    return ring;
}
