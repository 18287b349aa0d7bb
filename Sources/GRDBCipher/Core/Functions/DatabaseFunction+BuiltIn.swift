import Foundation

extension DatabaseFunction {
    /// `swiftCapitalizedString(x)`: `String.capitalized`; NULL for a value
    /// that is not text (a blob is read as UTF-8).
    ///
    /// Every connection has it, as in GRDB:
    ///
    /// ```swift
    /// try String.fetchOne(db, sql: "SELECT swiftCapitalizedString('hello world')") // "Hello World"
    /// ```
    public static let capitalize = stringFunction("swiftCapitalizedString") { $0.capitalized }

    /// `swiftLowercaseString(x)`: `String.lowercased()`, for all of Unicode
    /// (SQLite's `lower()` only knows ASCII); NULL for a value that is not text.
    ///
    /// Every connection has it, as in GRDB.
    public static let lowercase = stringFunction("swiftLowercaseString") { $0.lowercased() }

    /// `swiftUppercaseString(x)`: `String.uppercased()`, for all of Unicode
    /// (SQLite's `upper()` only knows ASCII); NULL for a value that is not text.
    ///
    /// Every connection has it, as in GRDB.
    public static let uppercase = stringFunction("swiftUppercaseString") { $0.uppercased() }

    /// `swiftLocalizedCapitalizedString(x)`: `String.localizedCapitalized`,
    /// in the current locale; NULL for a value that is not text.
    ///
    /// Every connection has it, as in GRDB.
    public static let localizedCapitalize = stringFunction("swiftLocalizedCapitalizedString") {
        $0.localizedCapitalized
    }

    /// `swiftLocalizedLowercaseString(x)`: `String.localizedLowercase`, in
    /// the current locale; NULL for a value that is not text.
    ///
    /// Every connection has it, as in GRDB.
    public static let localizedLowercase = stringFunction("swiftLocalizedLowercaseString") {
        $0.localizedLowercase
    }

    /// `swiftLocalizedUppercaseString(x)`: `String.localizedUppercase`, in
    /// the current locale; NULL for a value that is not text.
    ///
    /// Every connection has it, as in GRDB.
    public static let localizedUppercase = stringFunction("swiftLocalizedUppercaseString") {
        $0.localizedUppercase
    }

    /// The functions added to every connection when it opens, under GRDB's
    /// names, so that SQL written for GRDB (views, triggers, queries) runs.
    static let builtIn: [DatabaseFunction] = [
        .capitalize, .lowercase, .uppercase,
        .localizedCapitalize, .localizedLowercase, .localizedUppercase,
    ]

    /// A pure one-argument function of a string.
    private static func stringFunction(
        _ name: String,
        _ transform: @escaping @Sendable (String) -> String) -> DatabaseFunction
    {
        DatabaseFunction(name, argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(transform)
        }
    }
}
