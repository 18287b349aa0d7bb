// Copies of a database file into memory or into a private temporary file.

extension DatabaseQueue {
    /// Opens the file at `path` read-only and copies it into a new private
    /// in-memory database, which the returned queue owns. The file is not
    /// changed by later writes. With a key in `configuration`, the file
    /// opens with it, and the copy is keyed with it too (SQLCipher encrypts
    /// the pages of a keyed in-memory database).
    ///
    /// With `configuration.readonly`, the copy refuses writes (`PRAGMA
    /// query_only`: an in-memory database cannot be opened read-only).
    ///
    /// - throws: A ``DatabaseError``, if the file cannot be opened or read.
    public static func inMemoryCopy(
        fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue
    {
        try copy(fromPath: path, configuration: configuration) { try DatabaseQueue(configuration: $0) }
    }

    /// Opens the file at `path` read-only and copies it into a private
    /// temporary file that SQLite deletes when the returned queue closes.
    /// With a key in `configuration`, the copy is encrypted with it too, so
    /// no decrypted copy of the data reaches the disk.
    ///
    /// - throws: A ``DatabaseError``, if the file cannot be opened or read.
    public static func temporaryCopy(
        fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue
    {
        // An empty path is SQLite's private temporary database.
        try copy(fromPath: path, configuration: configuration) { try DatabaseQueue(path: "", configuration: $0) }
    }

    private static func copy(
        fromPath path: String, configuration: Configuration,
        makeCopy: (Configuration) throws -> DatabaseQueue) throws -> DatabaseQueue
    {
        var sourceConfiguration = configuration
        sourceConfiguration.readonly = true
        let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)
        defer { try? source.close() }
        var copyConfiguration = configuration
        copyConfiguration.readonly = false
        let copy = try makeCopy(copyConfiguration)
        try source.backup(to: copy)
        if configuration.readonly {
            // For good: no matching end.
            try copy.inDatabase { try $0.beginReadOnly() }
        }
        return copy
    }
}
