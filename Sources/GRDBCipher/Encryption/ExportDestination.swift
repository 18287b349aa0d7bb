import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file an export writes: first a temporary file in the same folder,
/// which is opened with the destination's key, checked, and only then moved
/// into place, so that the destination is never a partial copy.
struct ExportDestination {
    let path: String
    let replacingExistingFile: Bool
    /// The key the copy is written and checked with, nil for plaintext.
    let key: KeyMaterial?
    let settings: CipherSettings
    /// The permission bits of the new file, nil for SQLite's default.
    let filePermissions: Int?
    /// The owner of the file that the copy replaces.
    let replacedOwner: FileSystem.Owner?

    /// What the source reports once the temporary file is written.
    struct Source {
        /// Whether the source uses WAL, which the export does not carry over.
        var usesWAL: Bool
        /// The number of schema objects, which the copy must have too.
        var schemaObjectCount: Int
    }

    /// Checks the destination before any work: its folder must exist, and
    /// the file must not, unless it may be replaced.
    /// `replacesSource` is for an in-place operation: the copy replaces the
    /// file it is made from (`path`, a real path), under the lock of the
    /// operation's connection (see `ExclusiveConnection`).
    init(
        path: String, encryption: DatabaseEncryption, replacingExistingFile: Bool, sourcePath: String,
        filePermissions: Int? = nil, replacesSource: Bool = false) throws
    {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else {
            throw DatabaseError.misuse("an export needs a file path, not \(path.isEmpty ? "an empty path" : path)")
        }
        let shownPath = path
        var path = path
        if replacingExistingFile {
            // A file that is replaced is the real one, and has one name only:
            // see `InPlaceTarget`. A new file is made with link(2), which
            // refuses a path that exists, a symbolic link included.
            path = try InPlaceTarget.resolveIfPresent(path, operation: "export to")
            if !replacesSource, FileIdentity(path: path) != nil {
                try InPlaceTarget.checkSingleLink(path, shownPath: shownPath, operation: "replace")
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isDirectory),
              isDirectory.boolValue else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot export to \(path): its folder does not exist")
        }
        if !replacesSource, let identity = FileIdentity(path: path), identity == FileIdentity(path: sourcePath) {
            throw DatabaseError.misuse("cannot export a database onto its own file")
        }
        if !replacingExistingFile, Self.exists(path) {
            throw Self.alreadyExists(path)
        }
        self.path = path
        self.replacingExistingFile = replacingExistingFile
        if let filePermissions { try FileSystem.checkPermissions(filePermissions) }
        // A file that is replaced keeps its permissions and its owner: a
        // service's 0600 database stays the service's.
        var replacedPermissions: Int?
        var info = stat()
        if replacingExistingFile, stat(path, &info) == 0 {
            replacedPermissions = Int(info.st_mode) & 0o777
            replacedOwner = FileSystem.Owner(ofFileAt: path)
        } else {
            replacedOwner = nil
        }
        let filePermissions = filePermissions ?? replacedPermissions
        switch encryption {
        case .plaintext:
            key = nil
            settings = CipherSettings()
            // Decrypted data is for its owner only, unless told otherwise.
            self.filePermissions = filePermissions ?? 0o600
        case let .encrypted(key, settings):
            try settings.validate()
            guard !key.material.isEmpty else {
                throw DatabaseError.misuse("empty passphrase: export with .plaintext to write an unencrypted copy")
            }
            try KeyMaterial.checkLength(key.material.count)
            try settings.check(key: key.material)
            // The user's own key: the check of the copy then proves that it
            // opens as the user will open it.
            self.key = key.material
            self.settings = settings
            self.filePermissions = filePermissions
        }
    }

    /// Runs `produce` with a temporary path to write, then checks the result
    /// and moves it into place, with `moveIntoPlace` when given (an in-place
    /// operation renames under its own lock). On any error the temporary
    /// files are removed.
    func write(moveIntoPlace mover: ((String) throws -> Void)? = nil, _ produce: (String) throws -> Source) throws {
        AbandonedFiles.remove(besideDatabaseAt: path)
        let temporaryPath = AbandonedFiles.temporaryCopyPath(for: path)
        do {
            // SQLite writes into an existing empty file as into a new database,
            // and gives its journal and WAL the same permissions.
            if let filePermissions {
                try FileSystem.createEmptyFile(atPath: temporaryPath, permissions: filePermissions)
                replacedOwner?.apply(toFileAt: temporaryPath)
            }
            let source = try produce(temporaryPath)
            try verify(temporaryPath, source: source)
            // A checkpoint that failed as the check closed the copy keeps
            // pages in its WAL, which the rename would leave behind.
            unlink(temporaryPath + "-shm")
            for suffix in ["-wal", "-journal", "-shm"] where FileIdentity(path: temporaryPath + suffix) != nil {
                throw DatabaseError(
                    resultCode: .SQLITE_IOERR,
                    message: "cannot complete the copy for \(path): its \(suffix) file remains (a failed checkpoint or removal)")
            }
            if let mover {
                try mover(temporaryPath)
            } else {
                try moveIntoPlace(temporaryPath)
            }
        } catch {
            Self.removeDatabaseFiles(temporaryPath)
            throw error
        }
    }

    /// Opens the copy as a user will, with its key and settings, checks it
    /// holds the source's schema, and restores WAL mode.
    private func verify(_ temporaryPath: String, source: Source) throws {
        var configuration = Configuration()
        configuration.label = "GRDBCipher.export"
        configuration.journalMode = source.usesWAL ? .wal : .default
        if let key {
            configuration.key = DatabaseKey(material: key)
            configuration.cipherSettings = settings
        }
        let db = try Database(path: temporaryPath, description: "GRDBCipher.export", configuration: configuration)
        defer { db.closeEvenIfBusy() }
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? -1
        guard count == source.schemaObjectCount else {
            throw DatabaseError(
                resultCode: .SQLITE_CORRUPT,
                message: "the exported copy has \(count) schema objects instead of \(source.schemaObjectCount)")
        }
        // Every page decrypts and authenticates with the copy's key, as a
        // rotation's proof reads them (see `FileKeyProof`).
        if let error = FileKeyProof.readEveryPage(try db.connection()) {
            throw error
        }
        try db.close()
    }

    private func moveIntoPlace(_ temporaryPath: String) throws {
        if replacingExistingFile {
            try DatabaseFile.replace(atPath: path, with: temporaryPath)
        } else {
            try FileDurability.syncFile(atPath: temporaryPath)
            // Never overwrite a destination that appeared meanwhile.
            switch try FileSystem.renameWithoutReplacing(temporaryPath, to: path) {
            case .renamed:
                try FileDurability.syncDirectory(containing: path)
                return
            case .destinationExists:
                throw Self.alreadyExists(path)
            case .unsupported:
                break
            }
            // link(2) fails if the destination exists too.
            if link(temporaryPath, path) == 0 {
                unlink(temporaryPath)
                try FileDurability.syncDirectory(containing: path)
                return
            }
            switch errno {
            case EEXIST:
                throw Self.alreadyExists(path)
            case EPERM, EOPNOTSUPP, ENOSYS:
                // A file system without hard links: check, then rename. Only
                // a file created in between these two calls could be replaced.
                if Self.exists(path) { throw Self.alreadyExists(path) }
                guard rename(temporaryPath, path) == 0 else {
                    throw FileSystem.systemError("cannot move the exported copy to \(path)")
                }
                try FileDurability.syncDirectory(containing: path)
            default:
                throw FileSystem.systemError("cannot move the exported copy to \(path)")
            }
        }
    }

    /// A WAL or a journal without its database would be applied to a new
    /// file at the same path: they count as the database existing.
    private static func exists(_ path: String) -> Bool {
        ["", "-wal", "-journal"].contains { FileIdentity(path: path + $0) != nil }
    }

    private static func alreadyExists(_ path: String) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_CANTOPEN,
            message: "cannot export to \(path): the file exists (pass replacingExistingFile: true to replace it)")
    }

    /// Removes a database file and the files SQLite keeps beside it.
    static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            unlink(path + suffix)
        }
    }
}
