// Erasing and vacuuming, on every writer.

extension DatabaseWriter {
    /// Deletes every table, view, index and trigger, once no read runs. The
    /// file keeps its key (SQLCipher cannot back up an empty database over
    /// an encrypted one, so the objects are dropped one by one, foreign keys
    /// off, in one transaction).
    ///
    /// - throws: A ``DatabaseError``.
    public func erase() throws {
        try barrierWriteWithoutTransaction { try $0.erase() }
    }

    /// The async twin of ``erase()``.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError``.
    public func erase() async throws {
        try await barrierWriteWithoutTransaction { try $0.erase() }
    }

    /// Rebuilds the database file (`VACUUM`), which gives back the space of
    /// deleted rows.
    ///
    /// - throws: A ``DatabaseError``.
    public func vacuum() throws {
        try writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
    }

    /// The async twin of ``vacuum()``.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError``.
    public func vacuum() async throws {
        try await writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
    }

    /// Writes a compacted copy of the database to a new file (`VACUUM
    /// INTO`). The copy of an encrypted database is encrypted with the same
    /// key and cipher settings: open it as you open this one.
    ///
    /// - throws: A ``DatabaseError``, for example if the file exists.
    public func vacuum(into filePath: String) throws {
        try writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
    }

    /// The async twin of ``vacuum(into:)``.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError``.
    public func vacuum(into filePath: String) async throws {
        try await writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
    }
}

extension Database {
    /// Drops every schema object but SQLite's own, foreign keys off.
    func erase() throws {
        let foreignKeys = try Bool.fetchOne(self, sql: "PRAGMA foreign_keys") ?? false
        if foreignKeys { try execute(sql: "PRAGMA foreign_keys = OFF") }
        defer { if foreignKeys { try? execute(sql: "PRAGMA foreign_keys = ON") } }
        try inTransaction {
            // Dropping a table drops its indexes and triggers: fetch again each time.
            while let row = try Row.fetchOne(
                self, sql: "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' LIMIT 1")
            {
                let type: String = row["type"]
                let name: String = row["name"]
                try execute(sql: "DROP \(type.uppercased()) \(name.quotedDatabaseIdentifier)")
            }
            return .commit
        }
    }
}
