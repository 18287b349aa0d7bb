// OpenSSL's libcrypto, which SQLCipher itself links: GRDBCipher uses its PBKDF2
// to derive a database key once and share it between the connections of a pool,
// and its AES-256-GCM, scrypt and random bytes for key envelopes.
#ifndef GRDBCIPHER_LIBCRYPTO_SHIM_H
#define GRDBCIPHER_LIBCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/rand.h>
#endif
