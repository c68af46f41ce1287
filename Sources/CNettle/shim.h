// Nettle (Debian nettle-dev): SHA-256, HMAC-SHA256 and MD5. Nettle's short names are macros for
// the nettle_-prefixed functions, which are what Swift sees. libnettle is opened by the first digest
// a run takes (SumiCrypto's `Nettle`), not at start-up, and called through `sumi_nettle_api`.
#include "../CSumiRuntime/include/sumi_dl_table.h"
#include <nettle/sha2.h>
#include <nettle/hmac.h>
#include <nettle/md5.h>

#define SUMI_NETTLE_LIBRARY "libnettle.so.8"
#define SUMI_NETTLE_FUNCTIONS(X) \
    X(nettle_sha256_init) X(nettle_sha256_update) X(nettle_sha256_digest) X(nettle_hmac_sha256_set_key) \
    X(nettle_hmac_sha256_update) X(nettle_hmac_sha256_digest) X(nettle_md5_init) X(nettle_md5_update) \
    X(nettle_md5_digest)

#pragma clang assume_nonnull begin
SUMI_DL_TABLE(sumi_nettle, SUMI_NETTLE_FUNCTIONS)
#pragma clang assume_nonnull end
