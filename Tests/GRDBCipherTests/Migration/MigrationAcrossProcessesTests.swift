import Foundation
import Testing
@testable import GRDBCipher

/// Migrations run by successive processes, as successive versions of a
/// server boot on the same encrypted file: `GRDBCipherFaultChild migrate`
/// registers the first N steps of a five-step history (its Migrate.swift).
@Suite("Migrations across process restarts")
struct MigrationAcrossProcessesTests {
    static let kdfIterations = FaultFixture.cheapKDFIterations
    static let identifiers = ["createAuthor", "createBook", "addAuthorCountry", "requireAuthorName", "indexBookTitle"]

    /// Runs the child to its end; its output lines.
    func migrateInChild(path: String, steps: Int) throws -> [String] {
        let child = try ChildProcess(
            ["migrate", "--path", path, "--key", "restart secret", "--steps", "\(steps)"]
                + FaultFixture.kdfArguments(Self.kdfIterations))
        child.closeStdin()
        let status = child.waitUntilExit()
        #expect(status == 0, "\(child.transcript)")
        return child.output
    }

    func openQueue(_ path: String) throws -> DatabaseQueue {
        try DatabaseQueue(
            path: path, configuration: FaultFixture.configuration("restart secret", kdfIterations: Self.kdfIterations))
    }

    @Test func eachRestartRunsOnlyTheNewStep() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("restarts.sqlite")
        for steps in 1...Self.identifiers.count {
            let output = try migrateInChild(path: path, steps: steps)
            // Only the step this version added runs; the others were applied
            // by earlier processes.
            #expect(output == [
                "RAN \(Self.identifiers[steps - 1])",
                "DONE \(Self.identifiers.prefix(steps).joined(separator: ","))",
            ])
        }
        // A sixth boot with the same binary runs nothing.
        #expect(try migrateInChild(path: path, steps: Self.identifiers.count) == [
            "DONE \(Self.identifiers.joined(separator: ","))",
        ])
        let dbQueue = try openQueue(path)
        try dbQueue.read { db throws in
            #expect(try schemaNames(db) == [
                "index book_on_authorId", "index book_on_title", "table author", "table book", "table grdb_migrations",
            ])
            #expect(try db.columns(in: "author").map(\.name) == ["id", "name", "country"])
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try String.fetchAll(db, sql: """
                SELECT book.title || '/' || author.country FROM book JOIN author ON author.id = book.authorId ORDER BY book.id
                """) == ["Moby-Dick/US", "Vingt mille lieues/FR"])
        }
    }

    @Test func aProcessKilledInsideAMigrationLeavesTheSchemaBeforeIt() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("killed.sqlite")
        _ = try migrateInChild(path: path, steps: 2)

        // The table recreation has dropped `author` and renamed its copy when
        // the process dies, before the migration commits.
        let child = try ChildProcess(
            ["migrate", "--path", path, "--key", "restart secret", "--steps", "5", "--hold-in", "requireAuthorName"]
                + FaultFixture.kdfArguments(Self.kdfIterations))
        #expect(child.waitForLine(prefix: "HOLDING") == "HOLDING requireAuthorName", "\(child.transcript)")
        #expect(child.output == ["RAN addAuthorCountry", "HOLDING requireAuthorName"])
        child.kill9()
        _ = child.waitUntilExit()

        let dbQueue = try openQueue(path)
        try dbQueue.read { db throws in
            // Nothing of the killed migration, nor of the one it committed
            // before it, is half there: addAuthorCountry committed alone.
            #expect(try recordedMigrations(db) == ["addAuthorCountry", "createAuthor", "createBook"])
            #expect(try db.columns(in: "author").map(\.name) == ["id", "name", "country"])
            #expect(try db.columns(in: "author").first { $0.name == "name" }?.isNotNull == false)
            #expect(try !db.tableExists("new_author"))
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
        }
        try dbQueue.close()

        // The next boot applies what is left.
        #expect(try migrateInChild(path: path, steps: 5) == [
            "RAN requireAuthorName", "RAN indexBookTitle", "DONE \(Self.identifiers.joined(separator: ","))",
        ])
        try openQueue(path).read { db throws in
            #expect(try db.columns(in: "author").first { $0.name == "name" }?.isNotNull == true)
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        }
    }
}
