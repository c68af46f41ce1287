#include "sumi_codec_libraries.h"
#include "sumi_dl.h"
#include "sumi_lcms.h"

sumi_libjpeg_api sumi_libjpeg;
sumi_libgif_api sumi_libgif;
sumi_libwebp_api sumi_libwebp;
sumi_lcms_api sumi_lcms;

static struct sumi_dl_library libjpeg = SUMI_DL_LIBRARY(SUMI_LIBJPEG_LIBRARY, sumi_libjpeg_names, &sumi_libjpeg);
static struct sumi_dl_library libgif = SUMI_DL_LIBRARY(SUMI_LIBGIF_LIBRARY, sumi_libgif_names, &sumi_libgif);
static struct sumi_dl_library libwebp = SUMI_DL_LIBRARY(SUMI_LIBWEBP_LIBRARY, sumi_libwebp_names, &sumi_libwebp);
static struct sumi_dl_library lcms = SUMI_DL_LIBRARY(SUMI_LCMS_LIBRARY, sumi_lcms_names, &sumi_lcms);

int sumi_libjpeg_open(char *error, size_t error_size) {
    return sumi_dl_open_for(&libjpeg, "JPEG", SUMI_LIBJPEG_PACKAGE, error, error_size);
}

int sumi_libgif_open(char *error, size_t error_size) {
    return sumi_dl_open_for(&libgif, "GIF", SUMI_LIBGIF_PACKAGE, error, error_size);
}

int sumi_libwebp_open(char *error, size_t error_size) {
    return sumi_dl_open_for(&libwebp, "WebP", SUMI_LIBWEBP_PACKAGE, error, error_size);
}

int sumi_lcms_open(char *error, size_t error_size) {
    return sumi_dl_open_for(&lcms, "colour management", "liblcms2-2", error, error_size);
}
