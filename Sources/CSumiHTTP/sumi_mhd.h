#ifndef SUMI_MHD_H
#define SUMI_MHD_H

/* libmicrohttpd's types only: the library itself (with GnuTLS and the eight libraries behind it)
   is opened when `sumi serve` starts, not by every command, and its functions are called through
   `sumi_mhd`, filled by `sumi_mhd_open`. */
#include <microhttpd.h>
#include <stddef.h>

/* The shared library opened for the service (Debian's libmicrohttpd12). */
#define SUMI_MHD_LIBRARY "libmicrohttpd.so.12"

/* The libmicrohttpd functions the shim uses, by name without the `MHD_` prefix. */
#define SUMI_MHD_FUNCTIONS(X) \
    X(start_daemon) X(stop_daemon) X(quiesce_daemon) X(get_daemon_info) \
    X(suspend_connection) X(resume_connection) X(get_connection_info) \
    X(lookup_connection_value) X(get_connection_values) \
    X(create_post_processor) X(post_process) X(destroy_post_processor) \
    X(create_response_from_buffer) X(create_response_from_callback) X(add_response_header) \
    X(get_response_header) X(queue_response) X(destroy_response)

typedef struct sumi_mhd_api {
#define SUMI_MHD_FIELD(name) __typeof__(MHD_##name) *name;
    SUMI_MHD_FUNCTIONS(SUMI_MHD_FIELD)
#undef SUMI_MHD_FIELD
} sumi_mhd_api;

/* libmicrohttpd's functions once `sumi_mhd_open` succeeded. */
extern sumi_mhd_api sumi_mhd;

/* Opens libmicrohttpd (once, whichever thread asks first). Returns 0, or -1 with a message naming
   the library in `*error`. */
int sumi_mhd_open(const char **error);

#endif
