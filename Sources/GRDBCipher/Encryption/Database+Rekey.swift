import CSQLCipher

// Key rotation that does not trust `sqlite3_rekey`.
//
// What SQLCipher 4.6.1 guarantees: `sqlite3_rekey_v2` re-encrypts every page
// in one write transaction, so the file on disk is either all old key or all
// new key. What it does not: it returns SQLITE_OK when beginning the
// transaction, writing a page or committing fails. After a failed commit the
// connection reads with the new key while the file still holds the old one,
// and the transaction may be left open; the next write through that
// connection mixes keys and the file opens with neither.
//
// What this file adds: the rotation runs inside an exclusive transaction of
// its own, so no other connection commits meanwhile, and it is judged by the
// state that matters. It succeeded only if the pager's data version moved
// (the re-encryption committed) and no transaction is left open; the
// connection then drops its cached pages and must read the file again with
// its new key.
// Otherwise the connection is rolled back, closed without another write, and
// reopened with the key that still opens the file, and the rotation throws.

extension Database {
    /// Re-encrypts the main database with `key`; see `changePassphrase`.
    func rekey(_ key: KeyMaterial) throws {
        // The rotation's own transaction is no transaction of the user's:
        // observers hear nothing of it (as with GRDB, which runs none).
        // Inside the user's transaction, they hear about that one.
        if isInsideTransaction {
            try rekeyUnobserved(key)
        } else {
            try withTransactionObservationSuspended { try rekeyUnobserved(key) }
        }
    }

    private func rekeyUnobserved(_ key: KeyMaterial) throws {
        let handle = try connection()
        guard !key.isEmpty else {
            throw DatabaseError.misuse("empty passphrase: SQLCipher cannot decrypt in place; export the database instead")
        }
        try KeyMaterial.checkLength(key.count)
        // A connection keyed with `PRAGMA key` in `prepareDatabase` is keyed too.
        if !isKeyed, try String.fetchOne(self, sql: "PRAGMA cipher_page_size") != nil {
            isKeyed = true
        }
        guard isKeyed else {
            throw DatabaseError.misuse(
                "the database is not encrypted: SQLCipher cannot encrypt a plaintext database in place; "
                    + "export it to an encrypted database instead")
        }
        guard sqlite3_db_readonly(handle, "main") != 1 else {
            throw DatabaseError(resultCode: .SQLITE_READONLY, message: "cannot change the passphrase of a read-only connection")
        }

        // Outside a transaction, take the write lock first: a busy lock fails
        // here, cleanly, and no other connection can commit until we are done.
        // Inside the caller's transaction (as GRDB allows), make sure it has
        // read the file, so that the data version is current.
        let ownsTransaction = !isInsideTransaction
        if ownsTransaction {
            try execute(sql: "BEGIN EXCLUSIVE TRANSACTION")
        } else if sqlite3_txn_state(handle, "main") == SQLITE_TXN_NONE {
            try execute(sql: "SELECT 1 FROM sqlite_master LIMIT 1")
        }
        let dataVersionBefore = dataVersion(handle)
        let code = sqlite3_rekey_v2(handle, "main", key.bytes.baseAddress, CInt(key.count))
        let committed = code == SQLITE_OK
            && sqlite3_txn_state(handle, "main") == SQLITE_TXN_NONE
            && dataVersion(handle) != dataVersionBefore
        guard committed else {
            // Never COMMIT here: after a failed commit, SQLCipher may already
            // read with the new key while the file holds the old one.
            let error = DatabaseError(
                resultCode: code == SQLITE_OK ? .SQLITE_IOERR : ResultCode(rawValue: code),
                message: "the passphrase change failed: SQLCipher could not re-encrypt the database (a full disk, "
                    + "an I/O error, or a lock held by another connection); nothing was changed, and the "
                    + "current passphrase still opens it")
            // SQLCipher logged the cause in its own log only, if at all.
            Self.log(error.extendedResultCode, error.message ?? "")
            try recoverFromFailedRekey()
            throw error
        }
        if ownsTransaction {
            // SQLCipher committed its own transaction: this ends ours, which is empty.
            try execute(sql: "COMMIT")
            try checkFileReadsWithNewKey(handle)
        }
        keyContext?.recordChange(from: keyPassphrase, to: key)
        keyPassphrase = key
        removeOldKeyLeftovers()
    }

    /// The pager's data version: it moves when a transaction commits.
    private func dataVersion(_ handle: OpaquePointer) -> UInt32 {
        var version: UInt32 = 0
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        return version
    }

    /// Drops the connection's cached pages and reads the schema again: the
    /// committed file must decrypt with the key the connection now reads with.
    private func checkFileReadsWithNewKey(_ handle: OpaquePointer) throws {
        sqlite3_db_release_memory(handle)
        do {
            try execute(sql: "SELECT count(*) FROM sqlite_master")
        } catch let error as DatabaseError {
            throw DatabaseError(
                resultCode: error.extendedResultCode,
                message: "SQLCipher reported the passphrase change as committed, but the file does not read with "
                    + "the new passphrase (\(error.message ?? "no message")); do not discard the old passphrase, "
                    + "and check the file with both")
        }
    }

    /// Undoes a failed rotation without writing through the broken
    /// connection again: rolls back, forbids writes to statements the user
    /// still holds, closes it, and reopens with the key that opens the file.
    private func recoverFromFailedRekey() throws {
        if let handle = sqliteConnection {
            if sqlite3_get_autocommit(handle) == 0 {
                sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            } else if sqlite3_txn_state(handle, "main") != SQLITE_TXN_NONE {
                // SQLCipher left its own transaction open: end it the only way SQL can.
                sqlite3_exec(handle, "BEGIN; ROLLBACK", nil, nil, nil)
            }
            sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil)
        }
        try reopen()
    }

    /// Removes what the old key encrypted beside the database once the new
    /// key is in place: WAL frames (a truncating checkpoint, retried after
    /// later accesses while a reader holds them) and a persisted journal.
    func removeOldKeyLeftovers() {
        guard let mode = try? journalMode() else { return }
        switch mode {
        case "wal":
            if !truncateWALWithoutWaiting() {
                keyContext?.setOldKeyFramesPending(true)
            }
        case "persist":
            // Leaving PERSIST deletes the journal, under SQLite's own locks.
            try? execute(sql: "PRAGMA journal_mode = DELETE")
            try? execute(sql: "PRAGMA journal_mode = PERSIST")
        default:
            break
        }
    }

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
        guard !configuration.readonly, let keyContext, keyContext.hasOldKeyFramesPending,
              sqliteConnection != nil, !isInsideTransaction else { return }
        if truncateWALWithoutWaiting() {
            keyContext.setOldKeyFramesPending(false)
        }
    }
}
