/* Compile-time checks of the invariants the ABI promises to keep across versions. */
#include "sumi_plugin.h"

_Static_assert(offsetof(sumi_plugin, abi_version) == 0, "sumi_plugin must start with abi_version");
_Static_assert(offsetof(sumi_plugin, size) == 4, "sumi_plugin.size must follow abi_version");
_Static_assert(offsetof(sumi_plugin_v1, abi_version) == 0, "sumi_plugin_v1 must start with abi_version");
_Static_assert(offsetof(sumi_plugin_v1, size) == 4, "sumi_plugin_v1.size must follow abi_version");
_Static_assert(offsetof(sumi_host, abi_version) == 0, "sumi_host must start with abi_version");
_Static_assert(offsetof(sumi_error, size) == 0, "sumi_error must start with size");
_Static_assert(offsetof(sumi_image, size) == 0, "sumi_image must start with size");
_Static_assert(offsetof(sumi_output, size) == 0, "sumi_output must start with size");
_Static_assert(offsetof(sumi_stage, size) == 0, "sumi_stage must start with size");
_Static_assert(offsetof(sumi_stage_v1, size) == 0, "sumi_stage_v1 must start with size");
_Static_assert(offsetof(sumi_format, size) == 0, "sumi_format must start with size");
_Static_assert(offsetof(sumi_api, size) == 0, "sumi_api must start with size");
/* Version 2 only appends to sumi_host: the version 1 prefix keeps its layout. */
_Static_assert(offsetof(sumi_host, api) == 8 + sizeof(void *) * 5, "sumi_host v2 fields follow the v1 layout");
/* The band callbacks were appended to sumi_stage: the first version 2 layout is their offset. */
_Static_assert(SUMI_STAGE_V2_BASE_SIZE == 8 + sizeof(void *) * 9, "sumi_stage band fields follow the first v2 layout");
/* port_access and band_start were appended after the band callbacks. */
_Static_assert(SUMI_STAGE_V2_BANDS_SIZE == 8 + sizeof(void *) * 12, "sumi_stage additions follow the band callbacks");
