import Foundation
import GRDBCipher
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exports with a progress bar. `sqlcipher_export` reports nothing while it
/// copies, so the bar follows the size of the temporary file the library
/// writes beside the destination (`.<name>.export-p<pid>-…`, see the root
/// README) against the size of the source.
enum ExportRunner {
    static func export(
        from queue: DatabaseQueue, to output: OutputFile, encryption: DatabaseEncryption,
        bar: ProgressBar) throws
    {
        try run(from: queue, to: output, bar: bar) {
            try queue.export(to: output.path, encryption: encryption, replacingExistingFile: output.replace)
        }
    }

    /// Runs `body`, which exports `queue` to `output`, with a bar that
    /// follows the copy against the size of the source.
    static func run(from queue: DatabaseQueue, to output: OutputFile, bar: ProgressBar, _ body: () throws -> Void) throws {
        let expectedBytes = try queue.read { db in
            let pageCount = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return pageCount * pageSize
        }
        let placement = output.placement
        let folder = (placement as NSString).deletingLastPathComponent
        try withMonitor(
            bar: bar, expectedBytes: expectedBytes, folder: folder.isEmpty ? "." : folder,
            name: (placement as NSString).lastPathComponent, body)
    }

    /// Runs `body`, which exports or upgrades to `folder/name`, with a bar
    /// that follows the temporary file.
    static func withMonitor<T>(
        bar: ProgressBar, expectedBytes: Int64, folder: String, name: String, _ body: () throws -> T) throws -> T
    {
        let prefix = ".\(name).export-p\(getpid())-"
        let monitor = FileGrowthMonitor(bar: bar, expectedBytes: expectedBytes) {
            FileGrowthMonitor.size(ofFilesIn: folder, prefix: prefix)
        }
        do {
            let result = try body()
            monitor.stop(succeeded: true, detail: ByteCount.format(expectedBytes))
            return result
        } catch {
            monitor.stop(succeeded: false)
            throw error
        }
    }
}
