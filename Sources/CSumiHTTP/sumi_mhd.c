#include "sumi_mhd.h"
#include "sumi_dl.h"

sumi_mhd_api sumi_mhd;
static struct sumi_dl_library library = SUMI_DL_LIBRARY(SUMI_MHD_LIBRARY, sumi_mhd_names, &sumi_mhd);

int sumi_mhd_open(const char **error) { return sumi_dl_open_library(&library, error); }
