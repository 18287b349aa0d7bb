// SQLCipher's key functions (sqlite3_key, sqlite3_rekey) are only declared when
// SQLITE_HAS_CODEC is defined. pkg-config puts SQLCipher's include folder first, so
// <sqlite3.h> is SQLCipher's header, not the system SQLite's.
#ifndef GRDBCIPHER_SHIM_H
#define GRDBCIPHER_SHIM_H
#define SQLITE_HAS_CODEC 1
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that Swift cannot import.
static inline sqlite3_destructor_type grdbcipher_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic: Swift cannot call it.
static inline int grdbcipher_db_config_int(sqlite3 *db, int option, int value) {
    return sqlite3_db_config(db, option, value, (int *)0);
}

// sqlite3_config and sqlite3_log are variadic: Swift cannot call them.
typedef void (*grdbcipher_log_callback)(void *context, int code, const char *message);
static inline int grdbcipher_config_log(grdbcipher_log_callback callback, void *context) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, context);
}
static inline void grdbcipher_log(int code, const char *message) {
    sqlite3_log(code, "%s", message);
}
#endif
