// The C interface of SQLCipher, as GRDBCipher imports it (module CSQLCipher).
#ifndef GRDBCIPHER_SHIM_H
#define GRDBCIPHER_SHIM_H

// SQLCipher's key functions (sqlite3_key, sqlite3_rekey) are only declared when
// SQLITE_HAS_CODEC is defined.
#define SQLITE_HAS_CODEC 1

// SQLCipher installs its sqlite3.h in a folder of its own, `<include>/sqlcipher`
// (Debian, Ubuntu, Homebrew and SQLCipher's own `make install` alike), and its
// pkg-config file adds that folder to the search path. The header itself defines
// no macro that plain SQLite's lacks (its extra declarations sit behind
// SQLITE_HAS_CODEC, which we define), so the folder is what tells them apart:
// `<../sqlcipher/sqlite3.h>` resolves only through a search folder named
// `sqlcipher` (the one pkg-config gave), and `<sqlcipher/sqlite3.h>` finds it
// under a default include folder when pkg-config gave none. A bare <sqlite3.h>
// could be the system SQLite's, and would fail later with "cannot find
// 'sqlite3_key_v2' in scope", naming no package.
#if defined(__has_include)
#  if __has_include(<../sqlcipher/sqlite3.h>)
#    include <../sqlcipher/sqlite3.h>
#    define GRDBCIPHER_SQLCIPHER_HEADER 1
#  elif __has_include(<sqlcipher/sqlite3.h>)
#    include <sqlcipher/sqlite3.h>
#    define GRDBCIPHER_SQLCIPHER_HEADER 1
#  endif
#endif

#if !defined(GRDBCIPHER_SQLCIPHER_HEADER) && defined(__has_include)
#  if __has_include(<sqlite3.h>)
#    error "GRDBCipher needs SQLCipher's sqlite3.h, but only plain SQLite's was found (libsqlite3-dev is not enough). Install libsqlcipher-dev 4.5 or newer and pkg-config (Debian 12: from bookworm-backports; Debian 13, Ubuntu 24.04: from the main archive), or on macOS: brew install sqlcipher pkg-config."
#  else
#    error "GRDBCipher needs SQLCipher's sqlite3.h, and none was found. Install libsqlcipher-dev 4.5 or newer and pkg-config (Debian 12: from bookworm-backports; Debian 13, Ubuntu 24.04: from the main archive), or on macOS: brew install sqlcipher pkg-config."
#  endif
#elif !defined(GRDBCIPHER_SQLCIPHER_HEADER)
#  error "GRDBCipher needs SQLCipher's sqlite3.h, and this compiler cannot tell where it is (no __has_include). Use clang or GCC 5 or newer."
#elif SQLITE_VERSION_NUMBER < 3039000
#  error "GRDBCipher needs SQLCipher 4.5 or newer (on SQLite 3.39 or newer), and the SQLCipher header found is older (Debian 12's main archive has SQLCipher 3.4.1). Install libsqlcipher-dev from bookworm-backports (Debian 12) or from the main archive (Debian 13, Ubuntu 24.04), or on macOS: brew upgrade sqlcipher."
#endif

#if defined(GRDBCIPHER_SQLCIPHER_HEADER)

// rename(2) that refuses to replace an existing file, atomically: no moment
// where both names reach the file (as link(2) then unlink(2) leaves after a
// crash). Returns 0, or -1 with errno: EEXIST, or EINVAL, ENOSYS or
// EOPNOTSUPP where the system or the file system cannot. glibc's wrapper,
// not a raw system call, so that test interposers see it.
#if defined(__linux__)
#include <fcntl.h>
extern int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);
static inline int grdbcipher_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, 1 /* RENAME_NOREPLACE */);
}
#elif defined(__APPLE__)
#include <stdio.h>
static inline int grdbcipher_rename_noreplace(const char *from, const char *to) {
    return renamex_np(from, to, RENAME_EXCL);
}
#else
#include <errno.h>
static inline int grdbcipher_rename_noreplace(const char *from, const char *to) {
    (void)from; (void)to;
    errno = ENOSYS;
    return -1;
}
#endif

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
#endif
