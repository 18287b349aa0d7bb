// OpenSSL's scrypt, for the reference derivation of EnvelopeCost.
#ifndef ENVELOPE_COST_LIBCRYPTO_SHIM_H
#define ENVELOPE_COST_LIBCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
