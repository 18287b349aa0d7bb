import CSQLCipher

extension Database {
    /// The schema name of an export destination while it is attached.
    static let exportSchema = "grdbcipher_export"

    /// Copies the content of the main database into a new file with
    /// `sqlcipher_export`, in one transaction, so that it holds one stable
    /// state. The destination must not exist.
    ///
    /// - parameters:
    ///   - key: The destination's key, or nil for a plaintext copy.
    ///   - settings: The destination's cipher settings.
    ///   - cancellation: Asked before and during the copy; when it says
    ///     stop, the copy is rolled back and `CancellationError` is thrown.
    /// - returns: The number of schema objects in the exported state.
    func exportContent(
        to path: String, key: KeyMaterial?, settings: CipherSettings, cancellation: CopyCancellation?) throws -> Int
    {
        // The copy writes into the attached destination, in a transaction
        // of its own: transaction observers of this connection hear nothing.
        try withTransactionObservationSuspended {
            try exportContentUnobserved(to: path, key: key, settings: settings, cancellation: cancellation)
        }
    }

    private func exportContentUnobserved(
        to path: String, key: KeyMaterial?, settings: CipherSettings, cancellation: CopyCancellation?) throws -> Int
    {
        if cancellation?.isCancelled() == true { throw CancellationError() }
        let handle = try connection()
        guard !isInsideTransaction else {
            throw DatabaseError.misuse("cannot export from inside a transaction")
        }
        guard sqlite3_db_readonly(handle, "main") != 1 else {
            throw DatabaseError.misuse("cannot export from a read-only connection, which would attach the destination read-only")
        }
        if let key, !key.isRawKeySpecification { try settings.checkKeyDerivationForNewDatabase() }
        let settingsPragmas = key == nil ? [] : try settings.pragmas(schema: Self.exportSchema)
        try attachExportDestination(path: path, key: key)
        defer { try? execute(sql: "DETACH DATABASE \(Self.exportSchema)") }
        for pragma in settingsPragmas {
            try execute(sql: pragma)
        }
        var schemaObjectCount = 0
        try inTransaction(.deferred) {
            schemaObjectCount = try Int.fetchOne(self, sql: "SELECT COUNT(*) FROM main.sqlite_master") ?? 0
            // `sqlcipher_export` copies schema and rows, not these header fields.
            let userVersion = try Int.fetchOne(self, sql: "PRAGMA main.user_version") ?? 0
            let applicationID = try Int.fetchOne(self, sql: "PRAGMA main.application_id") ?? 0
            do {
                try CopyCancellation.whileRunning(on: handle, asking: cancellation) {
                    try execute(sql: "SELECT sqlcipher_export('\(Self.exportSchema)')")
                }
            } catch let error as DatabaseError {
                // An interrupted copy fails with a generic error too; when a
                // write is interrupted, SQLite has rolled back the transaction
                // already, which `inTransaction` accepts.
                if cancellation?.didInterrupt == true { throw CancellationError() }
                // SQLCipher reports any failure of the copy as a bare "SQL logic error".
                throw DatabaseError(
                    resultCode: error.extendedResultCode,
                    message: "the export failed while copying the database (\(error.message ?? "no message")); "
                        + "a damaged page in the source fails this way: cipherIntegrityCheck() checks the source",
                    sql: error.sql)
            }
            try execute(sql: "PRAGMA \(Self.exportSchema).user_version = \(userVersion)")
            try execute(sql: "PRAGMA \(Self.exportSchema).application_id = \(applicationID)")
            return .commit
        }
        return schemaObjectCount
    }

    /// Attaches the destination with its key bound as an argument, so that
    /// the key is never part of SQL text; an empty key attaches plaintext.
    private func attachExportDestination(path: String, key: KeyMaterial?) throws {
        let handle = try connection()
        let sql = "ATTACH DATABASE ?1 AS \(Self.exportSchema) KEY ?2"
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError.fromConnection(handle, code: code, sql: sql)
        }
        sqlite3_bind_text(statement, 1, path, -1, grdbcipher_transient())
        if let key {
            // SQLITE_STATIC (nil): the key outlives the statement, and is not copied.
            key.bytes.withMemoryRebound(to: CChar.self) { bytes in
                _ = sqlite3_bind_text(statement, 2, bytes.baseAddress, CInt(bytes.count), nil)
            }
        } else {
            // Copied (SQLITE_TRANSIENT): the literal's pointer only lives for the call.
            sqlite3_bind_text(statement, 2, "", 0, grdbcipher_transient())
        }
        code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError.fromConnection(handle, code: code, sql: sql)
        }
    }

    /// Runs `body` with a writable in-memory copy of the database, keyed and
    /// set up like this connection, for connections that cannot export
    /// themselves because they are read-only.
    func withWritableMemoryCopy<T>(_ body: (Database) throws -> T) throws -> T {
        var copyConfiguration = configuration
        copyConfiguration.readonly = false
        copyConfiguration.journalMode = .default
        let copy = try Database(path: ":memory:", description: "GRDBCipher.export", configuration: copyConfiguration)
        defer { copy.closeEvenIfBusy() }
        try backup(to: copy)
        return try body(copy)
    }
}
