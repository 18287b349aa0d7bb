import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

@Suite struct ValueObservationEncryptionTests {
    @Test(arguments: ObservedDatabaseKind.allCases)
    func anObservationSurvivesAKeyRotation(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer)
        recorder.wait(forCount: 2)
        switch writer {
        case let dbQueue as DatabaseQueue: try dbQueue.changePassphrase("rotated secret")
        case let dbPool as DatabasePool: try dbPool.changePassphrase("rotated secret")
        default: Issue.record("unexpected writer")
        }
        try insertRow(writer)
        try insertRow(writer)
        recorder.wait { $0.last == 3 }
        #expect(recorder.values.first == 0)
        #expect(recorder.values.last == 3)
        #expect(recorder.errors.isEmpty)
        // The values were read with the new key: the file opens with it.
        let reopened = try DatabaseQueue(path: dir.path("observed.sqlite"), configuration: keyed("rotated secret"))
        #expect(try reopened.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 3)
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func backupAndExportNotifyNothing(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        try insertRow(writer)
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: writer)
        recorder.wait(forCount: 1)
        let copy = try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyed("observed secret"))
        try writer.backup(to: copy)
        try writer.export(
            to: dir.path("export.sqlite"),
            encryption: .encrypted(key: .passphrase("export secret"), settings: .sqlcipher3))
        try writer.export(
            to: dir.path("export4.sqlite"),
            encryption: .encrypted(key: .passphrase("export secret")))
        try insertRow(writer)
        recorder.wait(forCount: 2)
        // A value for the backup or the exports would have repeated 1.
        #expect(recorder.values == [1, 2])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func observingAClosedDatabaseIsAnError(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        try writer.close()
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: writer)
        let error = recorder.waitForError()
        #expect(error is DatabaseError, "error: \(String(describing: error))")
        #expect(recorder.values.isEmpty)
        withExtendedLifetime(cancellable) {}
    }

    @Test func readersWithTheWrongKeyAreAnError() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("observed.sqlite")
        try makeEncryptedDatabaseWithDefaultSettings(at: path, passphrase: "right")
        // The writer gets the right key, the readers a wrong one.
        var config = Configuration()
        config.reusesDerivedKeys = false
        config.prepareDatabase { db in
            try db.usePassphrase(db.configuration.readonly ? "reader-passphrase" : "right")
        }
        let dbPool = try DatabasePool(path: path, configuration: config)
        let recorder = ObservationRecorder<Int>()
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM secret")!
        }
        let cancellable = recorder.start(observation, in: dbPool)
        let error = recorder.waitForError()
        #expect((error as? DatabaseError)?.resultCode == .SQLITE_NOTADB, "error: \(String(describing: error))")
        #expect(!String(describing: error).contains("reader-passphrase"))
        #expect(recorder.values.isEmpty)
        withExtendedLifetime(cancellable) {}
    }
}
