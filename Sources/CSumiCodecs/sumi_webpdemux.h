#ifndef SUMI_WEBPDEMUX_H
#define SUMI_WEBPDEMUX_H

/* libwebpdemux's types only: it is opened on the first animated WebP, not at start-up, and its
   functions are called through `sumi_webpdemux`, filled by `sumi_webpdemux_open`. */
#include <webp/demux.h>

#include "sumi_dl_table.h"

#define SUMI_WEBPDEMUX_LIBRARY "libwebpdemux.so.2"

/* WebPAnimDecoderOptionsInit and WebPAnimDecoderNew are inline wrappers of these. */
#define SUMI_WEBPDEMUX_FUNCTIONS(X) \
    X(WebPAnimDecoderOptionsInitInternal) X(WebPAnimDecoderNewInternal) X(WebPAnimDecoderGetInfo) \
    X(WebPAnimDecoderGetNext) X(WebPAnimDecoderDelete)

SUMI_DL_TABLE(sumi_webpdemux, SUMI_WEBPDEMUX_FUNCTIONS)

extern sumi_webpdemux_api sumi_webpdemux;

int sumi_webpdemux_open(const char **error);

#endif
