extension Database {
    /// The journal mode of the main database ("wal", "delete", ...).
    func journalMode() throws -> String {
        try String.fetchOne(self, sql: "PRAGMA main.journal_mode")?.lowercased() ?? ""
    }
}
