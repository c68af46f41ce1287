#ifndef SUMI_OPENJP2_H
#define SUMI_OPENJP2_H

/* OpenJPEG's types only: libopenjp2 is opened on the first JPEG 2000 file, not at start-up (the
   package recommends it rather than depending on it), and its functions are called through
   `sumi_openjp2`, filled by `sumi_openjp2_open`. */
#include <openjpeg-2.5/openjpeg.h>

#include "sumi_dl_table.h"

/* The shared library opened for JPEG 2000 (Debian's libopenjp2-7). */
#define SUMI_OPENJP2_LIBRARY "libopenjp2.so.7"

#define SUMI_OPENJP2_FUNCTIONS(X) \
    X(opj_create_decompress) X(opj_destroy_codec) X(opj_set_default_decoder_parameters) X(opj_setup_decoder) \
    X(opj_set_error_handler) X(opj_set_warning_handler) X(opj_stream_create) X(opj_stream_destroy) \
    X(opj_stream_set_read_function) X(opj_stream_set_skip_function) X(opj_stream_set_seek_function) \
    X(opj_stream_set_user_data) X(opj_stream_set_user_data_length) X(opj_read_header) X(opj_decode) \
    X(opj_end_decompress) X(opj_image_destroy) X(opj_codec_set_threads)

SUMI_DL_TABLE(sumi_openjp2, SUMI_OPENJP2_FUNCTIONS)

extern sumi_openjp2_api sumi_openjp2;

/* Opens libopenjp2 (once). Returns 0, or -1 with a message naming the library in `*error`. */
int sumi_openjp2_open(const char **error);

#endif
