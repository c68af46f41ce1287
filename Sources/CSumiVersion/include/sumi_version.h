#ifndef SUMI_VERSION_H
#define SUMI_VERSION_H

/* Sumi's version, from the VERSION file at the top of the source tree (Package.swift passes it in). */
const char *sumi_version_string(void);

#endif
