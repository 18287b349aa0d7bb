import CSQLCipher

// WAL frames written with a previous key: a rotation that a reader kept from
// truncating the WAL leaves them, and the connection removes them at the end
// of a later access.

extension Database {
    /// Runs a truncating checkpoint that gives up at once if a reader or
    /// another writer is in the way. Returns whether the WAL is now empty.
    func truncateWALWithoutWaiting() -> Bool {
        guard let handle = sqliteConnection, !isInsideTransaction else { return false }
        sqlite3_busy_timeout(handle, 0)
        defer { setUpBusyMode(handle) }
        var walFrameCount: CInt = -1
        var checkpointedFrameCount: CInt = -1
        let code = sqlite3_wal_checkpoint_v2(
            handle, "main", SQLITE_CHECKPOINT_TRUNCATE, &walFrameCount, &checkpointedFrameCount)
        return code == SQLITE_OK && walFrameCount == 0
    }

    /// At the end of an access on a writable connection: retries removing
    /// the old key's WAL frames, if a reader kept them after a rotation.
    func retryRemovingOldKeyFrames() {
        // Readers first: they never truncate, and need not take the lock.
        guard !configuration.readonly, let keyContext = cipherState.keyContext, keyContext.hasOldKeyFramesPending,
              sqliteConnection != nil, !isInsideTransaction else { return }
        if truncateWALWithoutWaiting() {
            keyContext.setOldKeyFramesPending(false)
        }
    }
}
