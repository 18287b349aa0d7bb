import CSQLCipher

extension DatabaseCollation: Identifiable {
    /// The identity of a collation for SQLite: its name, compared without
    /// regard to ASCII case, as SQLite compares collation names.
    public struct ID: Hashable, Sendable {
        let name: String

        /// One hash for all: equal names may differ in case, and a hash of
        /// the lowercased name would not follow SQLite's comparison of
        /// non-ASCII bytes. Collations are few; this costs nothing.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(0)
        }

        /// Whether SQLite sees the same collation name.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            sqlite3_stricmp(lhs.name, rhs.name) == 0
        }
    }

    /// The identity of the collation: its name, whatever its case.
    ///
    /// ```swift
    /// DatabaseCollation("nocase2") { ... }.id == DatabaseCollation("NOCASE2") { ... }.id // true
    /// ```
    public var id: ID { ID(name: name) }
}

extension DatabaseFunction: Identifiable {
    /// The identity of a function for SQLite: its name and its number of
    /// arguments (-1 for a variadic function).
    public struct ID: Hashable, Sendable {
        let name: String
        let nArg: CInt
    }

    /// The identity of the function: two functions with the same name and
    /// number of arguments replace each other in a connection.
    public var id: ID { ID(name: name, nArg: argumentCount.map { CInt($0) } ?? -1) }
}
