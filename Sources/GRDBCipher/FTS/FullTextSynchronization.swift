/// The parts of the triggers that keep an external content full-text table
/// (FTS4 or FTS5) in step with its content table. The triggers are named
/// `__<fts table>_<suffix>`, as GRDB names them, so that GRDB and
/// GRDBCipher drop each other's triggers.
struct FullTextSynchronization {
    /// The quoted full-text table.
    let fts: String
    private let ftsTable: String
    private let contentTable: String
    private let columns: [String]
    private let rowIDColumn: String
    private let ifNotExists: Bool
    private let db: Database

    init(
        _ db: Database,
        engine: String,
        ftsTable: String,
        contentTable: String,
        columns: [String],
        configuration: VirtualTableConfiguration) throws
    {
        // A temp table cannot be the target of triggers on a main table.
        precondition(!configuration.temporary, "Temporary external content \(engine) tables are not supported.")
        self.db = db
        self.ftsTable = ftsTable
        self.fts = ftsTable.quotedDatabaseIdentifier
        self.contentTable = contentTable
        self.columns = columns
        self.rowIDColumn = try db.primaryKey(contentTable).rowIDColumn ?? Column.rowID.name
        self.ifNotExists = configuration.ifNotExists
    }

    /// `CREATE TRIGGER [IF NOT EXISTS] "__fts_suffix" timing ON "content"`.
    func createTrigger(suffix: String, _ timing: String) -> String {
        let name = "__\(ftsTable)_\(suffix)".quotedDatabaseIdentifier
        return "CREATE TRIGGER \(ifNotExists ? "IF NOT EXISTS " : "")\(name) \(timing) ON \(contentTable.quotedDatabaseIdentifier)"
    }

    /// `old."id"`: the content row's rowid in a trigger.
    func rowID(of row: String) -> String {
        "\(row).\(rowIDColumn.quotedDatabaseIdentifier)"
    }

    /// `"docid", "title", ...`: the columns a trigger writes into the
    /// full-text table.
    func ftsColumns(rowID: String) -> String {
        ([rowID] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    }

    /// `new."id", new."title", ...`: the content row's values in a trigger.
    func values(of row: String) -> String {
        ([rowIDColumn] + columns).map { "\(row).\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
    }

    /// Indexes the rows the content table already has.
    func rebuild() throws {
        try db.execute(sql: "INSERT INTO \(fts)(\(fts)) VALUES('rebuild')")
    }
}
