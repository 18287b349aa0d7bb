// faultfs: an LD_PRELOAD library of the crash-point tests (never part of a
// product). It counts the file-system calls that a process makes on the
// files of one folder, and can kill the process right after one of them, or
// make one of them fail.
//
//   FAULTFS_DIR=/abs/folder   only calls on paths under it (and on the
//                             descriptors opened there) count
//   FAULTFS_LOG=/abs/file     appends "<k> <call> <path>" for each counted call
//   FAULTFS_CRASH_AT=k        SIGKILL right after call k has run
//   FAULTFS_FAIL_AT=k         call k fails without running...
//   FAULTFS_ERRNO=EIO|ENOSPC|EMFILE   ...with this errno (default EIO)
//
// Counted: open, creat, openat (and their 64 and fortified forms), write,
// pwrite, writev, fsync, fdatasync, ftruncate, rename, renameat, link,
// linkat, unlink, unlinkat, mkdir, rmdir, fchmod, close.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FDS 4096

static char root[4096];
static size_t root_length;
static int log_fd = -1;
static long crash_at = -1, fail_at = -1;
static int fail_errno = EIO;
static long counter;
static char tracked[MAX_FDS];
static char fd_paths[MAX_FDS][256];
static int ready;

static void setup(void) {
    if (ready) return;
    ready = 1;
    const char *dir = getenv("FAULTFS_DIR");
    if (dir && *dir) {
        strncpy(root, dir, sizeof(root) - 2);
        root_length = strlen(root);
        if (root[root_length - 1] != '/') { root[root_length++] = '/'; root[root_length] = 0; }
    }
    const char *value;
    if ((value = getenv("FAULTFS_CRASH_AT"))) crash_at = atol(value);
    if ((value = getenv("FAULTFS_FAIL_AT"))) fail_at = atol(value);
    if ((value = getenv("FAULTFS_ERRNO"))) {
        if (!strcmp(value, "ENOSPC")) fail_errno = ENOSPC;
        else if (!strcmp(value, "EMFILE")) fail_errno = EMFILE;
        else fail_errno = EIO;
    }
    if ((value = getenv("FAULTFS_LOG"))) {
        int (*real_open)(const char *, int, ...) = dlsym(RTLD_NEXT, "open");
        log_fd = real_open(value, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    }
}

static int under_root(const char *path, int dirfd) {
    setup();
    if (!root_length || !path) return 0;
    if (path[0] == '/') return strncmp(path, root, root_length) == 0;
    if (dirfd >= 0 && dirfd < MAX_FDS && tracked[dirfd]) return 1;
    char cwd[4096];
    if (!getcwd(cwd, sizeof(cwd) - 1)) return 0;
    size_t length = strlen(cwd);
    cwd[length++] = '/';
    cwd[length] = 0;
    return strncmp(cwd, root, root_length) == 0 || (length + 1 == root_length && !strncmp(cwd, root, length));
}

static int fd_tracked(int fd) {
    setup();
    return fd >= 0 && fd < MAX_FDS && tracked[fd];
}

static const char *short_path(const char *path) {
    return (root_length && !strncmp(path, root, root_length)) ? path + root_length : path;
}

// Counts a call. Returns 1 if it must fail (errno set), 0 if it runs.
static int before(const char *call, const char *path) {
    long k = __atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST);
    if (log_fd >= 0) {
        char line[512];
        int n = snprintf(line, sizeof(line), "%ld %s %s\n", k, call, short_path(path ? path : "?"));
        if (n > 0) { ssize_t ignored = write(log_fd, line, (size_t)n); (void)ignored; }
    }
    if (k == fail_at) { errno = fail_errno; return 1; }
    return 0;
}

static void after(void) {
    if (counter == crash_at) {
        // Right after the call: its effect stays, nothing after it runs.
        kill(getpid(), SIGKILL);
    }
}

static void track(int fd, const char *path) {
    if (fd >= 0 && fd < MAX_FDS) {
        tracked[fd] = 1;
        strncpy(fd_paths[fd], short_path(path), sizeof(fd_paths[fd]) - 1);
    }
}

#define REAL(name, type) static __typeof__(type) real_##name; if (!real_##name) real_##name = (type)dlsym(RTLD_NEXT, #name)

#define OPEN_LIKE(name)                                                                   \
    int name(const char *path, int flags, ...) {                                          \
        mode_t mode = 0;                                                                  \
        if (flags & (O_CREAT | __O_TMPFILE)) { va_list a; va_start(a, flags); mode = va_arg(a, mode_t); va_end(a); } \
        REAL(name, int (*)(const char *, int, ...));                                      \
        if (!under_root(path, -1)) return real_##name(path, flags, mode);                 \
        if (before(#name, path)) return -1;                                               \
        int fd = real_##name(path, flags, mode);                                          \
        track(fd, path);                                                                  \
        after();                                                                          \
        return fd;                                                                        \
    }
OPEN_LIKE(open)
OPEN_LIKE(open64)

#define OPENAT_LIKE(name)                                                                 \
    int name(int dirfd, const char *path, int flags, ...) {                               \
        mode_t mode = 0;                                                                  \
        if (flags & (O_CREAT | __O_TMPFILE)) { va_list a; va_start(a, flags); mode = va_arg(a, mode_t); va_end(a); } \
        REAL(name, int (*)(int, const char *, int, ...));                                 \
        if (!under_root(path, dirfd)) return real_##name(dirfd, path, flags, mode);       \
        if (before(#name, path)) return -1;                                               \
        int fd = real_##name(dirfd, path, flags, mode);                                   \
        track(fd, path);                                                                  \
        after();                                                                          \
        return fd;                                                                        \
    }
OPENAT_LIKE(openat)
OPENAT_LIKE(openat64)

int __open_2(const char *path, int flags) { return open(path, flags); }
int __open64_2(const char *path, int flags) { return open64(path, flags); }
int creat(const char *path, mode_t mode) { return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode); }
int creat64(const char *path, mode_t mode) { return open64(path, O_CREAT | O_WRONLY | O_TRUNC, mode); }

#define FD_CALL(ret, name, params, args, fd)                                              \
    ret name params {                                                                     \
        REAL(name, ret (*) params);                                                       \
        if (!fd_tracked(fd)) return real_##name args;                                     \
        if (before(#name, fd_paths[fd])) return -1;                                       \
        ret result = real_##name args;                                                    \
        after();                                                                          \
        return result;                                                                    \
    }
FD_CALL(ssize_t, write, (int fd, const void *buf, size_t n), (fd, buf, n), fd)
FD_CALL(ssize_t, pwrite, (int fd, const void *buf, size_t n, off_t o), (fd, buf, n, o), fd)
FD_CALL(ssize_t, pwrite64, (int fd, const void *buf, size_t n, off64_t o), (fd, buf, n, o), fd)
FD_CALL(ssize_t, writev, (int fd, const struct iovec *v, int c), (fd, v, c), fd)
FD_CALL(int, fsync, (int fd), (fd), fd)
FD_CALL(int, fdatasync, (int fd), (fd), fd)
FD_CALL(int, ftruncate, (int fd, off_t l), (fd, l), fd)
FD_CALL(int, ftruncate64, (int fd, off64_t l), (fd, l), fd)
FD_CALL(int, fchmod, (int fd, mode_t m), (fd, m), fd)

int close(int fd) {
    REAL(close, int (*)(int));
    if (!fd_tracked(fd)) return real_close(fd);
    tracked[fd] = 0;
    if (before("close", fd_paths[fd])) { real_close(fd); errno = fail_errno; return -1; }
    int result = real_close(fd);
    after();
    return result;
}

#define PATH_CALL(name, params, args, path, dirfd)                                        \
    int name params {                                                                     \
        REAL(name, int (*) params);                                                       \
        if (!under_root(path, dirfd)) return real_##name args;                            \
        if (before(#name, path)) return -1;                                               \
        int result = real_##name args;                                                    \
        after();                                                                          \
        return result;                                                                    \
    }
PATH_CALL(rename, (const char *a, const char *b), (a, b), b, -1)
PATH_CALL(renameat, (int da, const char *a, int db, const char *b), (da, a, db, b), b, db)
PATH_CALL(renameat2, (int da, const char *a, int db, const char *b, unsigned f), (da, a, db, b, f), b, db)
PATH_CALL(link, (const char *a, const char *b), (a, b), b, -1)
PATH_CALL(linkat, (int da, const char *a, int db, const char *b, int f), (da, a, db, b, f), b, db)
PATH_CALL(unlink, (const char *a), (a), a, -1)
PATH_CALL(unlinkat, (int d, const char *a, int f), (d, a, f), a, d)
PATH_CALL(mkdir, (const char *a, mode_t m), (a, m), a, -1)
PATH_CALL(rmdir, (const char *a), (a), a, -1)
PATH_CALL(chmod, (const char *a, mode_t m), (a, m), a, -1)
