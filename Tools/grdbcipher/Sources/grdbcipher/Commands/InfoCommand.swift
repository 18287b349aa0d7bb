import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher info FILE`: what the file is, which settings open it, and its SQLite facts.
struct InfoCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show whether a file is encrypted, which SQLCipher settings open it, and its SQLite facts.",
        discussion: """
            Prints the file's size, whether it is encrypted and opens with the passphrase, the SQLCipher \
            version whose defaults open it (4, 3, 2 or 1, tried in turn unless cipher settings are given), \
            the cipher settings read back, page size and count, journal mode, user version and schema size. \
            A plaintext file needs no passphrase. Exit status 0 when the file opens, 3 when it does not.
            """)

    @Argument(help: "The database file.")
    var file: String

    @Flag(help: "Print a JSON object instead of text.")
    var json = false

    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup(title: "Cipher settings of the file") var cipher: CipherSettingsOptions

    func execute() throws {
        let input = try InputFile(file)
        var report = InfoReport(
            file: file, sizeBytes: input.size, encrypted: input.isEncrypted,
            library: ToolVersion.libraryDescription)
        let access: DatabaseAccess
        do {
            access = try DatabaseAccess.find(
                input, key: input.isEncrypted ? passphrase.key(forDatabaseAt: input.path) : nil, given: cipher.values)
        } catch let error as ToolError where error.status == .doesNotOpen {
            report.opens = false
            try print(report)
            throw error
        }
        report.opens = true
        report.cipherSettings = access.settingsDescription
        report.sqlcipherCompatibility = access.detectedCompatibility
        let queue = try access.openQueue(readonly: true)
        try queue.read { db in
            if let settings = try db.cipherSettings {
                report.cipherPageSize = settings.pageSize
                report.kdfIterations = settings.kdfIterations
                report.kdfAlgorithm = settings.kdfAlgorithm?.rawValue
                report.hmacAlgorithm = settings.hmacAlgorithm?.rawValue
                report.hmac = settings.usesHMAC
                report.plaintextHeaderSize = settings.plaintextHeaderSize
            }
            report.pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size")
            report.pageCount = try Int.fetchOne(db, sql: "PRAGMA page_count")
            report.journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode")
            report.userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version")
            report.tables = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            report.schemaObjects = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
        }
        try queue.close()
        try print(report)
    }

    private func print(_ report: InfoReport) throws {
        let text = json ? try report.json() : report.text()
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// What `info` prints, as text lines or a JSON object.
struct InfoReport: Encodable {
    var file: String
    var sizeBytes: Int64
    var encrypted: Bool
    var opens: Bool?
    var cipherSettings: String?
    var sqlcipherCompatibility: Int?
    var cipherPageSize: Int?
    var kdfIterations: Int?
    var kdfAlgorithm: String?
    var hmacAlgorithm: String?
    var hmac: Bool?
    var plaintextHeaderSize: Int?
    var pageSize: Int?
    var pageCount: Int?
    var journalMode: String?
    var userVersion: Int?
    var tables: Int?
    var schemaObjects: Int?
    var library: String

    init(file: String, sizeBytes: Int64, encrypted: Bool, library: String) {
        self.file = file
        self.sizeBytes = sizeBytes
        self.encrypted = encrypted
        self.library = library
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    func text() -> String {
        func yesNo(_ value: Bool?) -> String? { value.map { $0 ? "yes" : "no" } }
        let lines: [(String, String?)] = [
            ("file", file),
            ("size", "\(sizeBytes) bytes"),
            ("encrypted", yesNo(encrypted)),
            ("opens", yesNo(opens)),
            ("cipher settings", cipherSettings),
            ("cipher page size", cipherPageSize.map(String.init)),
            ("kdf iterations", kdfIterations.map(String.init)),
            ("kdf algorithm", kdfAlgorithm),
            ("hmac algorithm", hmacAlgorithm),
            ("hmac", yesNo(hmac)),
            ("plaintext header size", plaintextHeaderSize.map(String.init)),
            ("page size", pageSize.map(String.init)),
            ("page count", pageCount.map(String.init)),
            ("journal mode", journalMode),
            ("user version", userVersion.map(String.init)),
            ("tables", tables.map(String.init)),
            ("schema objects", schemaObjects.map(String.init)),
            ("library", library),
        ]
        let present = lines.compactMap { label, value in value.map { (label, $0) } }
        let width = present.map(\.0.count).max() ?? 0
        return present.map { label, value in
            label + ":" + String(repeating: " ", count: width - label.count + 1) + value
        }.joined(separator: "\n")
    }
}
