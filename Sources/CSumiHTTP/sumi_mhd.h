#ifndef SUMI_MHD_H
#define SUMI_MHD_H

/* libmicrohttpd's types only: the library itself (with GnuTLS and the eight libraries behind it)
   is opened when `sumi serve` starts, not by every command, and its functions are called through
   `sumi_mhd`, filled by `sumi_mhd_open`. */
#include <microhttpd.h>

#include "sumi_dl_table.h"

/* The shared library opened for the service (Debian's libmicrohttpd12). */
#define SUMI_MHD_LIBRARY "libmicrohttpd.so.12"

/* The libmicrohttpd functions the shim uses. */
#define SUMI_MHD_FUNCTIONS(X) \
    X(MHD_start_daemon) X(MHD_stop_daemon) X(MHD_quiesce_daemon) X(MHD_get_daemon_info) \
    X(MHD_suspend_connection) X(MHD_resume_connection) X(MHD_get_connection_info) \
    X(MHD_lookup_connection_value) X(MHD_get_connection_values) \
    X(MHD_create_post_processor) X(MHD_post_process) X(MHD_destroy_post_processor) \
    X(MHD_create_response_from_buffer) X(MHD_create_response_from_callback) X(MHD_add_response_header) \
    X(MHD_get_response_header) X(MHD_queue_response) X(MHD_destroy_response)

SUMI_DL_TABLE(sumi_mhd, SUMI_MHD_FUNCTIONS)

/* libmicrohttpd's functions once `sumi_mhd_open` succeeded. */
extern sumi_mhd_api sumi_mhd;

/* Opens libmicrohttpd (once). Returns 0, or -1 with a message naming the library in `*error`. */
int sumi_mhd_open(const char **error);

#endif
