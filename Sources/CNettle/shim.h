// Nettle (Debian nettle-dev): SHA-256, HMAC-SHA256 and MD5. Nettle's short names are macros for
// the nettle_-prefixed functions, which are what Swift sees.
#include <nettle/sha2.h>
#include <nettle/hmac.h>
#include <nettle/md5.h>
