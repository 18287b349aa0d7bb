// The raw SQLite C API of SQLCipher, for the benchmark baseline.
#ifndef GRDBCIPHER_BENCH_SHIM_H
#define GRDBCIPHER_BENCH_SHIM_H
#define SQLITE_HAS_CODEC 1
#include <sqlite3.h>
static inline sqlite3_destructor_type bench_transient(void) { return SQLITE_TRANSIENT; }
#endif
