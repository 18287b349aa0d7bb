import Dispatch
import Foundation
import GRDBCipher
import GRDBCipherS3

/// The replica a command names: `file:///path`, a plain path, or
/// `s3://bucket/prefix` (with the standard `AWS_*` variables).
enum ReplicaLocation {
    /// The store of `location`.
    ///
    /// - throws: A ``ToolError``: (usage) for a scheme the tool cannot reach
    ///   or missing `AWS_*` settings, (missing input) for a folder that does
    ///   not exist.
    static func store(_ location: String) throws -> any ReplicaStore {
        if location.hasPrefix("s3://") {
            do {
                return try S3ReplicaStore(url: location)
            } catch let error as ReplicaError {
                throw ToolError(.usage, "\(error) (s3:// replicas need AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, "
                    + "and AWS_REGION or AWS_ENDPOINT_URL for a store other than AWS)")
            }
        }
        var path = location
        if location.hasPrefix("file://") {
            path = String(location.dropFirst("file://".count))
        } else if let scheme = location.range(of: "://") {
            throw ToolError(
                .usage, "replicas at \(location[..<scheme.lowerBound]):// are not supported: give file:///path, s3://bucket/prefix or a folder")
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

    /// The replica at `location`, opened with the key the options give: a
    /// passphrase or raw key (`--passphrase-file`, `GRDBCIPHER_PASSPHRASE`),
    /// else a key-encryption key (`GRDBCIPHER_KEK_FILE`,
    /// `GRDBCIPHER_KEK_COMMAND`) for the replica of an enveloped database,
    /// else a prompt.
    static func replica(_ location: String, passphrase: PassphraseOptions) throws -> (replica: DatabaseReplica, enveloped: Bool) {
        let store = try store(location)
        let environment = ProcessInfo.processInfo.environment
        if passphrase.passphraseFile == nil, !passphrase.rawKey, environment[Passphrase.environmentVariable] == nil,
           environment[KeyEncryptionKeySource.fileVariable] != nil || environment[KeyEncryptionKeySource.commandVariable] != nil
        {
            return (DatabaseReplica(store: store, keyEncryptionKey: try KeyEncryptionKeySource.current()), true)
        }
        return (DatabaseReplica(store: store, key: try passphrase.key()), false)
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
        case .failure(let error as DatabaseEnvelopeError):
            throw KeyEncryptionKeySource.toolError(error)
        case .failure(let error):
            throw error
        }
    }
}

private final class ResultBox<T: Sendable>: @unchecked Sendable {
    // Safe: written by the task before it signals, read after the wait.
    var result: Result<T, any Error>?
}
