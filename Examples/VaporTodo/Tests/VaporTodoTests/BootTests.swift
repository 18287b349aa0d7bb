import Foundation
import GRDBCipher
import Testing
import Vapor
import VaporTesting
import VaporTodoApp

/// What `configure(_:)` does before the application serves: the passphrase
/// from its file, the pool open and migrated, or a clear refusal.
@Suite struct BootTests {
    @Test func theSchemaIsMigratedBeforeTheFirstRequest() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            let (hasTable, applied) = try await app.grdb.read { db in
                (try db.tableExists("todo"), try TodoDatabase.migrator.appliedMigrations(db))
            }
            #expect(hasTable)
            #expect(applied == ["createTodo"])
        }
    }

    @Test func theWriterWaitsForLocks() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            guard case .timeout(let seconds) = app.grdb.configuration.busyMode else {
                Issue.record("busyMode is \(app.grdb.configuration.busyMode), not a timeout")
                return
            }
            #expect(seconds == 5)
        }
    }

    @Test(arguments: ["", "\n", "\r\n"])
    func anEmptyPassphraseFileIsRefused(content: String) async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try files.writePassphrase(content)
        let error = await #expect(throws: BootError.self) {
            try await withTodoApp(files) { _ in Issue.record("the application booted with an empty passphrase") }
        }
        guard case .emptyPassphraseFile(let path) = error else {
            Issue.record("expected emptyPassphraseFile, got \(String(describing: error))")
            return
        }
        #expect(path == files.passphrasePath)
        #expect(!FileManager.default.fileExists(atPath: files.databasePath), "a database was created without a key")
    }

    @Test func aMissingPassphraseFileIsRefused() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try FileManager.default.removeItem(atPath: files.passphrasePath)
        let error = await #expect(throws: BootError.self) {
            try await withTodoApp(files) { _ in }
        }
        let description = error.map(String.init(describing:)) ?? ""
        #expect(description.contains("cannot read the passphrase file \(files.passphrasePath)"), "\(description)")
    }

    @Test func withoutThePassphraseFileVariableTheApplicationDoesNotBoot() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        var environment = files.environment
        environment[BootSettings.passphraseFileVariable] = nil
        // A variable that holds the passphrase itself is not read.
        environment["VAPORTODO_PASSPHRASE"] = testPassphrase
        let error = await #expect(throws: BootError.self) {
            try await withApp(configure: { app in try await configure(app, environment: environment) }) { _ in }
        }
        let description = error.map(String.init(describing:)) ?? ""
        #expect(description.contains("VAPORTODO_PASSPHRASE_FILE is not set"), "\(description)")
    }

    @Test func onlyOneFinalLineBreakIsRemoved() throws {
        let files = try TestFiles()
        defer { files.remove() }
        try files.writePassphrase("secret\n")
        #expect(try BootSettings.readPassphrase(fromFile: files.passphrasePath) == "secret")
        try files.writePassphrase("secret\r\n")
        #expect(try BootSettings.readPassphrase(fromFile: files.passphrasePath) == "secret")
        try files.writePassphrase("secret\n\n")
        #expect(try BootSettings.readPassphrase(fromFile: files.passphrasePath) == "secret\n")
        try files.writePassphrase(" secret ")
        #expect(try BootSettings.readPassphrase(fromFile: files.passphrasePath) == " secret ")
    }

    @Test func aWrongPassphraseFailsTheBootWithTheKeyMistakeAndLeavesTheFileUntouched() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            try await app.testing().test(.POST, "todos", headers: jsonHeaders, body: json(#"{"title": "kept"}"#))
        }
        let before = try snapshot(files.databasePath)
        try files.writePassphrase("not the passphrase\n")

        let error = await #expect(throws: BootError.self) {
            try await withTodoApp(files) { _ in Issue.record("the application booted with a wrong passphrase") }
        }
        #expect(error?.isKeyMistake == true)
        #expect(error?.databaseError?.resultCode == .SQLITE_NOTADB)
        let description = error.map(String.init(describing:)) ?? ""
        #expect(description.contains("wrong passphrase"), "the error tells the key mistake: \(description)")
        #expect(!description.contains("not the passphrase"), "the error shows the passphrase: \(description)")
        #expect(try snapshot(files.databasePath) == before, "the database or its WAL was modified")
    }

    @Test func theSettingsNeverShowThePassphrase() {
        let settings = BootSettings(databasePath: "/var/lib/todos.sqlite", passphrase: "hunter2 hunter2")
        var dumped = ""
        dump(settings, to: &dumped)
        for text in [String(describing: settings), String(reflecting: settings), dumped] {
            #expect(!text.contains("hunter2"), "\(text)")
        }
    }
}

/// The bytes of a database file and of its WAL (nil when there is none).
private func snapshot(_ path: String) throws -> [Data?] {
    try [path, path + "-wal"].map { file in
        FileManager.default.fileExists(atPath: file) ? try Data(contentsOf: URL(fileURLWithPath: file)) : nil
    }
}
