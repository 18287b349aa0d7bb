import Foundation

/// Where a replica lives: a folder, or S3-compatible object storage.
///
/// A store holds named objects, written whole and never rewritten: the
/// replicator writes each name once. The store is not trusted: what it
/// serves is authenticated at restore, and it only ever receives
/// SQLCipher's ciphertext and authenticated metadata.
public protocol ReplicaStore: Sendable {
    /// Writes an object, whole: a reader sees all of it or nothing.
    func write(_ data: Data, to name: String) async throws

    /// The bytes of an object, or nil when there is none of that name.
    func read(_ name: String) async throws -> Data?

    /// The names of the objects whose name starts with `prefix`.
    func names(withPrefix prefix: String) async throws -> [String]

    /// Deletes an object; deleting a missing object is no error.
    func delete(_ name: String) async throws
}
