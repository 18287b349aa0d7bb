import CSQLCipher

extension Database {
    /// The kinds of WAL checkpoint (see SQLite's `sqlite3_wal_checkpoint_v2`).
    public enum CheckpointMode: CInt, Sendable {
        /// Copy what can be copied without waiting for readers or writers.
        case passive = 0
        /// Wait for writers, then copy everything.
        case full = 1
        /// Like `.full`, then wait for readers so the WAL restarts from its beginning.
        case restart = 2
        /// Like `.restart`, then truncate the WAL file to zero bytes.
        case truncate = 3
    }

    /// Runs a WAL checkpoint.
    ///
    /// - parameters:
    ///   - kind: The kind of checkpoint. Default `.passive`.
    ///   - dbName: The schema name ("main"), or nil for all attached databases.
    /// - returns: The number of frames in the WAL and the number checkpointed.
    /// - throws: A ``DatabaseError``; `SQLITE_BUSY` when a `.full`, `.restart`
    ///   or `.truncate` checkpoint could not complete.
    @discardableResult
    public func checkpoint(_ kind: CheckpointMode = .passive, on dbName: String? = "main") throws
        -> (walFrameCount: Int, checkpointedFrameCount: Int)
    {
        let handle = try connection()
        var walFrameCount: CInt = -1
        var checkpointedFrameCount: CInt = -1
        let code = sqlite3_wal_checkpoint_v2(handle, dbName, kind.rawValue, &walFrameCount, &checkpointedFrameCount)
        guard code == SQLITE_OK else {
            throw DatabaseError.fromConnection(handle, code: code)
        }
        return (Int(walFrameCount), Int(checkpointedFrameCount))
    }

    /// Frees as much memory as possible (caches of this connection).
    public func releaseMemory() {
        guard let sqliteConnection else { return }
        sqlite3_db_release_memory(sqliteConnection)
        clearSchemaCache()
    }
}
