import CSQLCipher

/// Reads the first bytes of a database file through SQLite's own file layer.
///
/// Opening and closing a file with `open`/`close` releases every POSIX lock
/// this process holds on it, SQLite's included: another process could then
/// think it is alone, checkpoint and delete the WAL that a pool of this
/// process still writes to. SQLite's Unix layer knows this, and keeps such a
/// descriptor open until the process's last lock on the file is gone.
enum DatabaseFileHeader {
    /// Up to `count` bytes from the start of the file (fewer for a shorter
    /// file), or nil when the file cannot be opened.
    static func read(atPath path: String, count: Int) -> [UInt8]? {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else { return nil }
        var filePointer: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &filePointer) == SQLITE_OK,
              let file = filePointer, let methods = file.pointee.pMethods,
              let fileSize = methods.pointee.xFileSize, let read = methods.pointee.xRead else { return nil }
        var size: sqlite3_int64 = 0
        guard fileSize(file, &size) == SQLITE_OK else { return nil }
        let length = Int(min(Int64(count), size))
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: length)
        guard read(file, &bytes, CInt(length), 0) == SQLITE_OK else { return nil }
        return bytes
    }
}
