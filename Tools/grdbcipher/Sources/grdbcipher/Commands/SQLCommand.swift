import ArgumentParser
import Foundation
import GRDBCipher

/// The output formats of `sql`.
enum RowFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, list, line, quote
}

/// `grdbcipher sql FILE STATEMENT`: runs one statement and prints its rows.
struct SQLCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run one SQL statement and print its rows as a table or JSON.",
        discussion: """
            The statement runs outside any explicit transaction, so it may write (unless --readonly) and \
            commits at once. Values for ? placeholders come from --arg, in order, bound as text (SQLite's \
            column affinity converts them in comparisons). Formats: table (default), json (an array of \
            objects, blobs in base64), list (values separated by |), line (column = value), quote (SQL \
            literals). A plaintext file needs no passphrase.
            """)

    @Argument(help: "The database file (it must exist).")
    var file: String

    @Argument(help: "One SQL statement.")
    var statement: String

    @Option(name: .customLong("arg"), help: ArgumentHelp("A value for the next ? placeholder.", valueName: "value"))
    var arguments: [String] = []

    @Option(help: "Output format.")
    var format: RowFormat = .table

    @Flag(help: "Print column names first (list and quote formats).")
    var header = false

    @Flag(help: "Open the file read-only: a statement that writes fails.")
    var readonly = false

    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup(title: "Cipher settings of the file") var cipher: CipherSettingsOptions

    func execute() throws {
        let input = try InputFile(file)
        let access = try DatabaseAccess.find(input, key: input.isEncrypted ? passphrase.key(forDatabaseAt: input.path) : nil, given: cipher.values)
        let queue = try access.openQueue(readonly: readonly)
        let request = SQLRequest<Row>(sql: statement, arguments: StatementArguments(arguments))
        let output = StandardOutputStream()
        do {
            if readonly {
                try queue.read { db in try dump(request, db, output) }
            } else {
                try queue.writeWithoutTransaction { db in try dump(request, db, output) }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_MISUSE {
            throw ToolError(.usage, error.message ?? "bad statement")
        }
        try queue.close()
    }

    private func dump(_ request: SQLRequest<Row>, _ db: Database, _ output: StandardOutputStream) throws {
        switch format {
        case .table: try db.dumpRequest(request, format: TableDumpFormat(), to: output)
        case .json: try db.dumpRequest(request, format: .json(), to: output)
        case .list: try db.dumpRequest(request, format: .list(header: header, nullValue: "NULL"), to: output)
        case .line: try db.dumpRequest(request, format: .line(nullValue: "NULL"), to: output)
        case .quote: try db.dumpRequest(request, format: .quote(header: header), to: output)
        }
    }
}

/// Standard output as a text stream, written as it comes.
struct StandardOutputStream: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardOutput.write(Data(string.utf8))
    }
}
