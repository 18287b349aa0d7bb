import Dispatch
import Foundation
import GRDBCipher

/// The replica a command names: `file:///path`, or a plain path.
enum ReplicaLocation {
    /// The store of `location`.
    ///
    /// - throws: A ``ToolError`` (usage) for a scheme the tool cannot reach,
    ///   (missing input) for a folder that does not exist.
    static func store(_ location: String) throws -> FolderReplicaStore {
        var path = location
        if location.hasPrefix("file://") {
            path = String(location.dropFirst("file://".count))
        } else if let scheme = location.range(of: "://") {
            throw ToolError(
                .usage, "replicas at \(location[..<scheme.lowerBound]):// are not supported: give file:///path or a folder")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ToolError(.missingInput, "no replica at \(location)")
        }
        do {
            return try FolderReplicaStore(path: path)
        } catch {
            throw ToolError(.missingInput, "\(error)")
        }
    }

    /// Runs async work from a synchronous command, and maps replica errors
    /// to exit statuses.
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do {
                box.result = .success(try await work())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        switch box.result! {
        case .success(let value):
            return value
        case .failure(let error as ReplicaError):
            switch error {
            case .wrongKey: throw ToolError(.doesNotOpen, error.description)
            case .outputExists: throw ToolError(.refused, error.description)
            case .altered, .incomplete, .verificationFailed: throw ToolError(.damaged, error.description)
            default: throw ToolError(.failure, error.description)
            }
        case .failure(let error):
            throw error
        }
    }
}

private final class ResultBox<T: Sendable>: @unchecked Sendable {
    // Safe: written by the task before it signals, read after the wait.
    var result: Result<T, any Error>?
}
