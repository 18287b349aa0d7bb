#if canImport(Testing)
import Testing

/// Gives each test it applies to a ``TemporaryEncryptedDatabase`` of its own,
/// removed when the test ends; the test reads it from
/// ``TemporaryEncryptedDatabase/current``.
///
/// ```swift
/// @Test(.temporaryEncryptedDatabase)
/// func savesPlayers() throws {
///     let database = try TemporaryEncryptedDatabase.current
///     let dbQueue = try database.makeQueue()
///     ...
/// }
/// ```
///
/// On a suite, every test of the suite (and each case of a parameterized
/// test) gets its own database.
public struct TemporaryEncryptedDatabaseTrait: TestTrait, SuiteTrait, TestScoping {
    /// The key of the databases; nil: a new random raw key for each.
    let key: TestKey?

    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    /// A scope for each test case, none for a suite as a whole.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function` with a new database as ``TemporaryEncryptedDatabase/current``,
    /// then removes the database.
    ///
    /// - throws: What `function` throws, or a `CocoaError` if the directory cannot be created.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws
    {
        let database = try TemporaryEncryptedDatabase(key: key ?? .insecureRandomRawKey())
        defer { database.remove() }
        try await TemporaryEncryptedDatabase.$scoped.withValue(database) {
            try await function()
        }
    }
}

extension Trait where Self == TemporaryEncryptedDatabaseTrait {
    /// A ``TemporaryEncryptedDatabase`` for the test, keyed with a new random
    /// raw key: see ``TemporaryEncryptedDatabaseTrait``.
    public static var temporaryEncryptedDatabase: Self {
        TemporaryEncryptedDatabaseTrait(key: nil)
    }

    /// A ``TemporaryEncryptedDatabase`` for the test, keyed with `key`: see
    /// ``TemporaryEncryptedDatabaseTrait``.
    ///
    /// ```swift
    /// @Test(.temporaryEncryptedDatabase(key: .insecureFastPassphrase("test")))
    /// ```
    public static func temporaryEncryptedDatabase(key: TestKey) -> Self {
        TemporaryEncryptedDatabaseTrait(key: key)
    }
}

extension TemporaryEncryptedDatabase {
    /// The database of the running test, set by the trait.
    @TaskLocal static var scoped: TemporaryEncryptedDatabase?

    /// The database that the ``Testing/Trait/temporaryEncryptedDatabase``
    /// trait made for the running test (and tasks it starts).
    ///
    /// - throws: A ``EncryptionCheck/Failure`` outside of a test that has the trait.
    public static var current: TemporaryEncryptedDatabase {
        get throws {
            guard let scoped else {
                throw EncryptionCheck.Failure(
                    "no temporary encrypted database: add the trait to the test, as in "
                        + "@Test(.temporaryEncryptedDatabase), or to its suite")
            }
            return scoped
        }
    }
}
#endif
