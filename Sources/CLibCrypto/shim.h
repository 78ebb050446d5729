// The system's libcrypto (OpenSSL 3, Debian's libssl-dev): SHA-256, HMAC and ECDSA P-256 for
// LarderCloudKit's request signatures and asset digests.
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
