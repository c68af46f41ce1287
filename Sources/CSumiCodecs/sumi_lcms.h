#ifndef SUMI_LCMS_H
#define SUMI_LCMS_H

/* Little CMS for the TIFF shim's Lab conversion, opened on the first Lab TIFF (the Swift side opens
   its own table, SumiCodecs' `Lcms`; both from the one list in CLcms2's shim.h). */
#include <stddef.h>

#include "../CLcms2/shim.h"

extern sumi_lcms_api sumi_lcms;

/* Opens liblcms2 (once). Returns 0, or -1 with a message naming it and its package in `error`. */
int sumi_lcms_open(char *error, size_t error_size);

#endif
