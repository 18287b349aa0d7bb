import Foundation

extension EncryptionCheck {
    /// Checks that the database at `path`, and its `-wal`, `-shm` and
    /// `-journal` when they exist, show no plaintext: the file does not start
    /// with SQLite's header (`SQLite format 3`), none of the files holds that
    /// text anywhere, nor any of `plaintextMarkers` (as UTF-8). Pick markers
    /// your app wrote: an email address, a name, a token.
    ///
    /// A file encrypted with a plaintext header (`CipherSettings.plaintextHeaderSize`)
    /// starts with SQLite's header, and fails this check.
    ///
    /// ```swift
    /// try EncryptionCheck.fileIsEncrypted(path, plaintextMarkers: ["alice@example.com"])
    /// ```
    ///
    /// - throws: A ``Failure`` that names each file and what was found in it
    ///   (and where), or says that the file is missing or empty.
    public static func fileIsEncrypted(_ path: String, plaintextMarkers: [String] = []) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure("\(path) does not exist: there is nothing to check")
        }
        let snapshot = try FileSnapshot.database(path)
        let main = snapshot.files[name(path)] ?? Data()
        guard !main.isEmpty else {
            throw Failure("\(path) is empty: nothing was written to it yet")
        }
        var findings: [String] = []
        if main.prefix(sqliteHeader.count) == sqliteHeader {
            findings.append("\(name(path)) starts with SQLite's plaintext header (\"SQLite format 3\"): it is not encrypted")
        }
        let needles = [("SQLite's header", Data("SQLite format 3".utf8))]
            + plaintextMarkers.filter { !$0.isEmpty }.map { ("the marker \"\($0)\"", Data($0.utf8)) }
        for fileName in snapshot.files.keys.sorted() {
            let bytes = snapshot.files[fileName]!
            for (label, needle) in needles {
                // The header at offset 0 of the main file is reported above.
                let start = fileName == name(path) && label == "SQLite's header" ? 1 : 0
                guard bytes.count > start, let range = bytes[start...].range(of: needle) else { continue }
                findings.append("\(fileName) holds \(label) in plaintext at byte \(range.lowerBound)")
            }
        }
        guard findings.isEmpty else {
            throw Failure(findings.joined(separator: "; ") + " (files checked: \(snapshot.listing))")
        }
    }

    /// Checks that the directory at `path` holds exactly the files named
    /// `names` (hidden files count; subdirectories count as entries).
    ///
    /// ```swift
    /// try EncryptionCheck.directory(directory.path, holdsExactly: ["db.sqlite"])
    /// ```
    ///
    /// - throws: A ``Failure`` that lists what the directory holds, with
    ///   sizes, and the names that are missing or unexpected.
    public static func directory(_ path: String, holdsExactly names: some Sequence<String>) throws {
        let expected = Set(names)
        let found: [String: Int64]
        do {
            // Names and sizes only: nothing is opened (see `FileBytes`).
            found = try Dictionary(uniqueKeysWithValues: FileManager.default.contentsOfDirectory(atPath: path).map { name in
                let attributes = try? FileManager.default.attributesOfItem(atPath: (path as NSString).appendingPathComponent(name))
                return (name, (attributes?[.size] as? NSNumber)?.int64Value ?? 0)
            })
        } catch {
            throw Failure("cannot read the directory \(path): \(error)")
        }
        guard Set(found.keys) != expected else { return }
        func listed(_ names: [String]) -> String {
            names.map { "\($0) (\(found[$0]!) bytes)" }.joined(separator: ", ")
        }
        var parts = ["\(path) holds " + (found.isEmpty ? "no file" : listed(found.keys.sorted()))]
        let unexpected = Set(found.keys).subtracting(expected).sorted()
        if !unexpected.isEmpty {
            parts.append("unexpected: " + listed(unexpected))
        }
        let missing = expected.subtracting(found.keys).sorted()
        if !missing.isEmpty {
            parts.append("missing: " + missing.joined(separator: ", "))
        }
        throw Failure(parts.joined(separator: "; "))
    }

    /// Checks that the files of `snapshot` are as they were: the same names,
    /// the same bytes.
    ///
    /// ```swift
    /// let before = try FileSnapshot.directory(directory.path)
    /// ...
    /// try EncryptionCheck.unchanged(since: before)
    /// ```
    ///
    /// - throws: A ``Failure`` that lists what changed, appeared or
    ///   disappeared, with sizes.
    public static func unchanged(since snapshot: FileSnapshot) throws {
        let now: FileSnapshot
        do {
            now = try snapshot.current()
        } catch {
            throw Failure("cannot read the files again: \(error)")
        }
        let differences = now.differences(from: snapshot)
        guard differences.isEmpty else {
            throw Failure(differences.joined(separator: "; ") + " (before: \(snapshot.listing))")
        }
    }
}
