import Foundation
import GRDBCipherTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files a command writes before the result is in place: a destination
/// that appears meanwhile is never overwritten, and what a killed command
/// left behind is removed by the next one.
@Suite struct TemporaryFileTests {
    /// No process has this identifier: it is above any system's limit.
    static let deadProcess = 2_147_483_646

    @Test func aBackupNeverOverwritesAFileThatAppearedDuringIt() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, rows: 50)
        let out = directory.path("out.sqlite")
        // The tool reads the passphrase after it checked OUT: through a
        // FIFO, whose opening tells the test that the tool got there.
        let fifo = directory.path("passphrase")
        #expect(mkfifo(fifo, 0o600) == 0)
        let backup = try RunningProcess.tool(["backup", path, out, "--passphrase-file", fifo])
        let descriptor = try openForWriting(fifo)
        // OUT appears now, with a WAL of its own.
        let precious = Data("someone else's file".utf8)
        try precious.write(to: URL(fileURLWithPath: out))
        try precious.write(to: URL(fileURLWithPath: out + "-wal"))
        _ = (Secrets.right + "\n").withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
        let result = backup.waitUntilExit()

        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("appeared"), "\(result)")
        #expect(try fileBytes(out) == precious)
        #expect(try fileBytes(out + "-wal") == precious)
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite", "out.sqlite", "out.sqlite-wal", "passphrase"])
    }

    /// Opens the FIFO for writing, which waits until the tool opens it for
    /// reading. A tool that never does fails the test instead of hanging it.
    private func openForWriting(_ fifo: String) throws -> CInt {
        final class Opening: @unchecked Sendable {   // safe: written before `done` is signalled, read after
            var descriptor: CInt = -1
            let done = DispatchSemaphore(value: 0)
        }
        let opening = Opening()
        Thread {
            opening.descriptor = open(fifo, O_WRONLY)
            opening.done.signal()
        }.start()
        if opening.done.wait(timeout: .now() + 120) == .timedOut {
            // Let the thread go: a reader of our own opens the other end.
            let reader = open(fifo, O_RDONLY | O_NONBLOCK)
            opening.done.wait()
            close(opening.descriptor)
            close(reader)
            Issue.record("the tool never opened its passphrase file")
            throw CancellationError()
        }
        try #require(opening.descriptor >= 0)
        return opening.descriptor
    }

    @Test func aBackupRemovesWhatAKilledBackupLeftBehind() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let abandoned = ".out.sqlite.backup-p\(Self.deadProcess)-0A1B"
        let alive = ".out.sqlite.backup-p\(getpid())-2C3D"
        for name in [abandoned, abandoned + "-journal", alive] {
            try Data("partial copy".utf8).write(to: URL(fileURLWithPath: directory.path(name)))
        }

        let result = try Tool.run(["backup", path, directory.path("out.sqlite")], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        // The files of a process that is gone are removed, the others stay.
        expectDirectory(directory.url.path, holdsExactly: [alive, "db.sqlite", "out.sqlite"])
    }

    @Test func anInPlaceRekeyRemovesWhatAKilledRekeyLeftBehind() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let abandoned = [".db.sqlite.rekey-p\(Self.deadProcess)-0A1B", ".db.sqlite.export-p\(Self.deadProcess)-2C3D"]
        for name in abandoned + abandoned.map({ $0 + "-journal" }) {
            try Data("partial copy".utf8).write(to: URL(fileURLWithPath: directory.path(name)))
        }

        let result = try Tool.run(
            ["rekey", path, "--keep-passphrase", "--kdf-iterations", "20000"], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }
}
