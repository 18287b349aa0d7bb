import CSQLCipher
import Foundation

/// A custom string comparison for `ORDER BY`, indexes and `COLLATE` clauses.
///
/// ```swift
/// let collation = DatabaseCollation("length") { lhs, rhs in
///     lhs.count < rhs.count ? .orderedAscending : (lhs.count == rhs.count ? .orderedSame : .orderedDescending)
/// }
/// db.add(collation: collation)
/// try db.execute(sql: "CREATE TABLE word (text TEXT COLLATE length)")
/// ```
public final class DatabaseCollation: Sendable {
    /// The SQL name of the collation.
    public let name: String

    let function: @Sendable (String, String) -> ComparisonResult

    /// Creates a collation.
    ///
    /// - parameters:
    ///   - name: The SQL name.
    ///   - function: Compares two strings. It must define a total order.
    public init(_ name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.function = function
    }

    /// Compares by Unicode scalar values, like Swift's `<` on strings.
    public static let unicodeCompare = DatabaseCollation("swiftCompare") { lhs, rhs in
        lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
    }

    /// Compares with `String.caseInsensitiveCompare`.
    public static let caseInsensitiveCompare = DatabaseCollation("swiftCaseInsensitiveCompare") {
        $0.caseInsensitiveCompare($1)
    }

    /// Compares with `String.localizedCaseInsensitiveCompare`, in the current locale.
    public static let localizedCaseInsensitiveCompare = DatabaseCollation("swiftLocalizedCaseInsensitiveCompare") {
        $0.localizedCaseInsensitiveCompare($1)
    }

    /// Compares with `String.localizedCompare`, in the current locale.
    public static let localizedCompare = DatabaseCollation("swiftLocalizedCompare") {
        $0.localizedCompare($1)
    }

    /// Compares with `String.localizedStandardCompare`, as file browsers sort names.
    public static let localizedStandardCompare = DatabaseCollation("swiftLocalizedStandardCompare") {
        $0.localizedStandardCompare($1)
    }
}

extension DatabaseCollation {
    /// The built-in collations, added to every connection under GRDB's names,
    /// so that schemas written by GRDB apps (`COLLATE swiftCompare`, ...) work.
    static let builtIn: [DatabaseCollation] = [
        .unicodeCompare, .caseInsensitiveCompare, .localizedCaseInsensitiveCompare,
        .localizedCompare, .localizedStandardCompare,
    ]
}

extension Database {
    /// Adds or replaces a collation on this connection.
    ///
    /// To add it to every connection of a queue or pool, add it from
    /// ``Configuration/prepareDatabase(_:)``.
    public func add(collation: DatabaseCollation) {
        guard let sqliteConnection else { return }
        addedCollations[collation.name] = collation
        let context = Unmanaged.passRetained(collation).toOpaque()
        let code = sqlite3_create_collation_v2(
            sqliteConnection, collation.name, SQLITE_UTF8, context,
            { context, lhsCount, lhsBytes, rhsCount, rhsBytes in
                let collation = Unmanaged<DatabaseCollation>.fromOpaque(context!).takeUnretainedValue()
                let lhs = String(decoding: UnsafeRawBufferPointer(start: lhsBytes, count: Int(lhsCount)), as: UTF8.self)
                let rhs = String(decoding: UnsafeRawBufferPointer(start: rhsBytes, count: Int(rhsCount)), as: UTF8.self)
                switch collation.function(lhs, rhs) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            },
            { context in
                Unmanaged<DatabaseCollation>.fromOpaque(context!).release()
            })
        // SQLite calls the destructor itself when registration fails.
        precondition(code == SQLITE_OK, "could not add collation \(collation.name): \(String(cString: sqlite3_errstr(code)))")
    }

    /// Removes a collation from this connection.
    public func remove(collation: DatabaseCollation) {
        guard let sqliteConnection else { return }
        addedCollations[collation.name] = nil
        sqlite3_create_collation_v2(sqliteConnection, collation.name, SQLITE_UTF8, nil, nil, nil)
    }
}
