#include "sumi_version.h"

#ifndef SUMI_VERSION
#error "SUMI_VERSION is defined by Package.swift from the VERSION file"
#endif

const char *sumi_version_string(void) { return SUMI_VERSION; }
