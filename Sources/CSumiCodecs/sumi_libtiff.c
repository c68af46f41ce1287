#include "sumi_libtiff.h"
#include "sumi_dl.h"

sumi_libtiff_api sumi_libtiff;
static struct sumi_dl_library library = SUMI_DL_LIBRARY(SUMI_LIBTIFF_LIBRARY, sumi_libtiff_names, &sumi_libtiff);

int sumi_libtiff_open(const char **error) { return sumi_dl_open_library(&library, error); }
