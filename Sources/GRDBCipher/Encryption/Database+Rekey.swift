import CSQLCipher

// Key rotation that trusts neither `sqlite3_rekey` nor the rotating
// connection.
//
// What SQLCipher 4.6.1 guarantees: `sqlite3_rekey_v2` re-encrypts every page
// in one write transaction, so the file is either all old key or all new
// key. What it does not: it returns SQLITE_OK whatever failed. It keys the
// connection's writes with the new key before it starts, and its reads only
// after it commits; when reading or writing a page fails (a full disk), it
// rolls back and leaves the connection reading with the old key and writing
// with the new one, and its pager may even look as if a transaction
// committed. The next write through that connection mixes keys, and the file
// then opens with neither.
//
// So the outcome is decided outside the rotating connection: once SQLCipher
// is done and its transaction ended (never committed by us), a connection
// opened afresh with the new key must read every page of the file (see
// `FileKeyProof`). Only then does the rotation succeed; the rotating
// connection, which SQLCipher switched to the new key for reads and writes
// on commit, must read the file again from disk. Otherwise the rotating
// connection is closed without another write and reopened with the key that
// still opens the file, and the rotation throws.

extension Database {
    /// Re-encrypts the main database with `key`; see `changePassphrase`.
    /// It runs under the file's ``KeyChangeLock``, which it takes unless the
    /// caller holds it (`held`): a queue or a pool takes it before any
    /// database access, so that it never waits for the lock while holding
    /// the database.
    func rekey(_ key: KeyMaterial, held: KeyChangeLock.Held? = nil) throws {
        try KeyChangeLock.runIfFile(forDatabaseAt: path, usesURI: usesURI, operation: "change the key of", held: held) {
            // The rotation's own transaction is no transaction of the user's:
            // observers hear nothing of it (as with GRDB, which runs none).
            // Inside the user's transaction, they hear about that one.
            // A replicator of the file stops reading the WAL meanwhile.
            try KeyChangeObservers.announcing(forDatabaseAt: path) {
                if isInsideTransaction {
                    try rekeyUnobserved(key)
                } else {
                    try withTransactionObservationSuspended { try rekeyUnobserved(key) }
                }
            }
        }
    }

    private func rekeyUnobserved(_ key: KeyMaterial) throws {
        let handle = try connection()
        guard !key.isEmpty else {
            throw DatabaseError.misuse("empty passphrase: SQLCipher cannot decrypt in place; export the database instead")
        }
        try KeyMaterial.checkLength(key.count)
        // A connection keyed with `PRAGMA key` in `prepareDatabase` is keyed too.
        if !cipherState.isKeyed, try String.fetchOne(self, sql: "PRAGMA cipher_page_size") != nil {
            cipherState.isKeyed = true
        }
        guard cipherState.isKeyed else {
            throw DatabaseError.misuse(
                "the database is not encrypted: SQLCipher cannot encrypt a plaintext database in place; "
                    + "export it to an encrypted database instead")
        }
        guard sqlite3_db_readonly(handle, "main") != 1 else {
            throw DatabaseError(resultCode: .SQLITE_READONLY, message: "cannot change the passphrase of a read-only connection")
        }

        // A plaintext header keeps the salt out of the file: only a raw key
        // with its salt can open it again, whoever set the header.
        var headerSettings = configuration.cipherSettings
        headerSettings.plaintextHeaderSize = try Int.fetchOne(self, sql: "PRAGMA cipher_plaintext_header_size")
        try headerSettings.check(key: key)

        // Outside a transaction, take the write lock first: a busy lock fails
        // here, cleanly, and no other connection can commit until we are done.
        // Inside the caller's transaction (as GRDB allows), make sure it has
        // read the file.
        let ownsTransaction = !isInsideTransaction
        if ownsTransaction {
            try execute(sql: "BEGIN EXCLUSIVE TRANSACTION")
        } else if sqlite3_txn_state(handle, "main") == SQLITE_TXN_NONE {
            try execute(sql: "SELECT 1 FROM sqlite_master LIMIT 1")
        }
        // The settings the proof needs, whoever set them (configuration,
        // `PRAGMA` statements in `prepareDatabase`).
        let settings = (try? String.fetchAll(self, sql: "PRAGMA cipher_settings")) ?? []
        let oldKey = cipherState.passphrase
        // Its lock keeps every other connection out: the proof must wait
        // until the rotating connection closes.
        let locksFileAlone = !isInMemory && (try? String.fetchOne(self, sql: "PRAGMA main.locking_mode")) == "exclusive"
        let code = sqlite3_rekey_v2(handle, "main", key.bytes.baseAddress, CInt(key.count))
        endRotationTransaction(handle, ownsTransaction: ownsTransaction)
        if !locksFileAlone, case .reads = proveFileReads(with: key, settings: settings) {
            cipherState.keyContext?.recordChange(from: oldKey, to: key)
            cipherState.passphrase = key
            if ownsTransaction {
                try checkFileReadsWithNewKey(handle)
            }
            removeOldKeyLeftovers()
            return
        }

        // Not proven. The rotating connection may hold what the proof needs
        // (its lock in `locking_mode = EXCLUSIVE`, the last file
        // descriptors): it closes, without another write, and the file is
        // judged again. From now on it only reopens with a key that reads.
        let wasInsideTransaction = isInsideTransaction
        closeAfterRotation()
        let proof = proveFileReads(with: key, settings: settings)
        if case .reads = proof {
            cipherState.keyContext?.recordChange(from: oldKey, to: key)
            try reopenClosedConnection(wasInsideTransaction: wasInsideTransaction)
            removeOldKeyLeftovers()
            return
        }
        let cause: DatabaseError
        switch proof {
        case let .refused(error), let .failed(error): cause = error
        case .reads: preconditionFailure("handled above")
        }
        let resultCode = code != SQLITE_OK ? ResultCode(rawValue: code)
            : cause.resultCode == .SQLITE_NOTADB ? .SQLITE_IOERR : cause.extendedResultCode
        let failure = DatabaseError(
            resultCode: resultCode,
            message: "the passphrase change failed: SQLCipher could not re-encrypt the database (a full disk, "
                + "an I/O error, or a lock held by another connection); nothing was changed, and the "
                + "current passphrase still opens it")
        if let oldKey, case .reads = proveFileReads(with: oldKey, settings: settings) {
            // SQLCipher logged the cause in its own log only, if at all.
            Self.log(failure.extendedResultCode, failure.message ?? "")
            try reopenClosedConnection(wasInsideTransaction: wasInsideTransaction)
            throw failure
        }

        // Neither key could be proven (a resource is missing): the connection
        // opens with whichever key reads the file, and counts the rotation as
        // done only if the new key reads every page. If neither opens it, it
        // stays closed, and the next access tries again.
        let opensWithOldKey: Bool
        do {
            try reopenClosedConnection(wasInsideTransaction: wasInsideTransaction)
            opensWithOldKey = true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            opensWithOldKey = false
            cipherState.keyContext?.recordChange(from: oldKey, to: key)
            if (try? reopenClosedConnection(wasInsideTransaction: wasInsideTransaction)) != nil,
               let handle = sqliteConnection, FileKeyProof.readEveryPage(handle) == nil
            {
                removeOldKeyLeftovers()
                return
            }
        } catch {
            opensWithOldKey = false
        }
        if opensWithOldKey {
            // A new connection read the file with the old key.
            Self.log(failure.extendedResultCode, failure.message ?? "")
            throw failure
        }
        let unverified = DatabaseError(
            resultCode: cause.extendedResultCode,
            message: "the passphrase change could not be verified: neither passphrase could be proven to read the "
                + "database (\(cause.message ?? "no message")); keep both, and check the file with each once the "
                + "cause is gone")
        Self.log(unverified.extendedResultCode, unverified.message ?? "")
        throw unverified
    }

    /// Closes the rotating connection without another write: what SQLCipher
    /// left open is rolled back, and statements the user still holds cannot
    /// write. The next access reopens it, if the rotation does not.
    private func closeAfterRotation() {
        if let handle = sqliteConnection {
            if sqlite3_get_autocommit(handle) == 0 {
                sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            } else if sqlite3_txn_state(handle, "main") != SQLITE_TXN_NONE {
                // SQLCipher left its own transaction open: end it the only way SQL can.
                sqlite3_exec(handle, "BEGIN; ROLLBACK", nil, nil, nil)
            }
            sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil)
        }
        closeEvenIfBusy()
        needsReopen = true
    }

    /// Ends the transaction of the rotation without committing anything
    /// SQLCipher left behind: what it committed stays, what it did not is
    /// rolled back. Inside the caller's transaction, only a transaction that
    /// SQLCipher left open is rolled back, with the caller's.
    private func endRotationTransaction(_ handle: OpaquePointer, ownsTransaction: Bool) {
        if sqlite3_txn_state(handle, "main") == SQLITE_TXN_WRITE {
            if sqlite3_get_autocommit(handle) == 0 {
                sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            } else {
                // SQLCipher left its own transaction open: end it the only way SQL can.
                sqlite3_exec(handle, "BEGIN; ROLLBACK", nil, nil, nil)
            }
        } else if ownsTransaction && sqlite3_get_autocommit(handle) == 0 {
            // Our BEGIN: SQLCipher committed its own transaction inside it,
            // and this one holds nothing to write.
            try? execute(sql: "ROLLBACK")
        }
    }

    /// Whether a connection opened afresh reads every page of the file with
    /// `key`. An in-memory database has no file, and its only connection
    /// is all there is to tell.
    private func proveFileReads(with key: KeyMaterial, settings: [String]) -> FileKeyProof {
        if isInMemory { return .reads }
        let derivedKey = derivedProofKey(for: key)
        let proof = FileKeyProof.check(path: path, key: derivedKey ?? key, settings: settings, usesURI: usesURI)
        if derivedKey != nil, case .refused = proof {
            // The derivation may not match the file's settings: the key itself decides.
            return FileKeyProof.check(path: path, key: key, settings: settings, usesURI: usesURI)
        }
        return proof
    }

    /// Whether the database lives in memory (or in a temporary file that
    /// only this connection sees): no other connection can read it.
    private var isInMemory: Bool {
        path.isEmpty || path == ":memory:" || (usesURI && path.contains("mode=memory"))
    }

    /// In a pool whose connection opened with a raw key it derived itself,
    /// the raw key derived once for the new passphrase and the file's salt:
    /// the proof and the readers opened next share one key derivation.
    private func derivedProofKey(for key: KeyMaterial) -> KeyMaterial? {
        guard cipherState.derivedKeyAttempt != nil, let keyContext = cipherState.keyContext, !key.isRawKeySpecification,
              let salt = KeyDerivation.salt(ofDatabaseAt: path), keyContext.allowsDerivedKeys(salt: salt)
        else { return nil }
        return keyContext.rawKey(for: key, salt: salt, settings: configuration.cipherSettings)
    }

    /// Drops the connection's cached pages and reads the schema again: the
    /// committed file must decrypt with the key the connection now reads
    /// with. If it does not, the connection reopens with the new key.
    private func checkFileReadsWithNewKey(_ handle: OpaquePointer) throws {
        sqlite3_db_release_memory(handle)
        do {
            try execute(sql: "SELECT count(*) FROM sqlite_master")
        } catch {
            try reopen()
        }
    }

    /// Removes what the old key encrypted beside the database once the new
    /// key is in place: WAL frames (a truncating checkpoint, retried after
    /// later accesses while a reader holds them) and a persisted journal.
    func removeOldKeyLeftovers() {
        guard let mode = try? journalMode() else { return }
        switch mode {
        case "wal":
            if !truncateWALWithoutWaiting() {
                cipherState.keyContext?.setOldKeyFramesPending(true)
            }
        case "persist":
            // Leaving PERSIST deletes the journal, under SQLite's own locks.
            try? execute(sql: "PRAGMA journal_mode = DELETE")
            try? execute(sql: "PRAGMA journal_mode = PERSIST")
        default:
            break
        }
    }
}
