extension Database {
    /// The name of a collation, a string comparison used by SQLite
    /// (`COLLATE NOCASE`).
    ///
    /// Besides SQLite's own, every connection knows the collations of
    /// ``DatabaseCollation`` (`swiftCompare`, ...), by their
    /// ``DatabaseCollation/name``.
    public struct CollationName: RawRepresentable, Hashable, Sendable {
        /// The SQL name of the collation.
        public let rawValue: String

        /// A collation name from its SQL name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// SQLite's `BINARY` collation: compares bytes (`memcmp`).
        public static let binary = CollationName(rawValue: "BINARY")

        /// SQLite's `NOCASE` collation: ignores the case of ASCII letters.
        public static let nocase = CollationName(rawValue: "NOCASE")

        /// SQLite's `RTRIM` collation: ignores trailing spaces.
        public static let rtrim = CollationName(rawValue: "RTRIM")
    }

    /// The declared type of a column (`TEXT`, `INTEGER`, ...), which gives
    /// the column its type affinity.
    ///
    /// ```swift
    /// let type = Database.ColumnType.datetime
    /// try db.execute(sql: "CREATE TABLE event (date \(type.rawValue))")
    /// ```
    public struct ColumnType: RawRepresentable, Hashable, Sendable {
        /// The SQL of the type (`"TEXT"`).
        public let rawValue: String

        /// A column type from its SQL.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `TEXT`.
        public static let text = ColumnType(rawValue: "TEXT")

        /// `TEXT`, for JSON: SQLite's JSON functions reject blobs that are
        /// not JSONB, so JSON is best stored as text.
        public static let jsonText = ColumnType(rawValue: "TEXT")

        /// `BLOB`, for SQLite's binary JSON (JSONB).
        public static let jsonb = ColumnType(rawValue: "BLOB")

        /// `INTEGER`.
        public static let integer = ColumnType(rawValue: "INTEGER")

        /// `DOUBLE` (real affinity).
        public static let double = ColumnType(rawValue: "DOUBLE")

        /// `REAL`.
        public static let real = ColumnType(rawValue: "REAL")

        /// `NUMERIC`.
        public static let numeric = ColumnType(rawValue: "NUMERIC")

        /// `BOOLEAN` (numeric affinity).
        public static let boolean = ColumnType(rawValue: "BOOLEAN")

        /// `BLOB`.
        public static let blob = ColumnType(rawValue: "BLOB")

        /// `DATE` (numeric affinity).
        public static let date = ColumnType(rawValue: "DATE")

        /// `DATETIME` (numeric affinity).
        public static let datetime = ColumnType(rawValue: "DATETIME")

        /// `ANY`: no affinity in a table without `STRICT`, any value in a
        /// `STRICT` table.
        public static let any = ColumnType(rawValue: "ANY")
    }

    /// What SQLite does when a statement violates a constraint
    /// (`INSERT OR REPLACE`, `ON CONFLICT IGNORE`).
    public enum ConflictResolution: String, Sendable {
        /// `ROLLBACK`: fail, and roll back the whole transaction.
        case rollback = "ROLLBACK"

        /// `ABORT`: fail, and undo the changes of the statement (SQLite's default).
        case abort = "ABORT"

        /// `FAIL`: fail, and keep the changes the statement made before.
        case fail = "FAIL"

        /// `IGNORE`: skip the row, and go on.
        case ignore = "IGNORE"

        /// `REPLACE`: delete the rows in the way, and go on.
        case replace = "REPLACE"
    }

    /// What a foreign key does when the row it refers to is deleted or its
    /// key changes.
    public enum ForeignKeyAction: String, Sendable {
        /// `CASCADE`: delete or update the referring rows too.
        case cascade = "CASCADE"

        /// `RESTRICT`: fail at once.
        case restrict = "RESTRICT"

        /// `SET NULL`: set the foreign key columns to NULL.
        case setNull = "SET NULL"

        /// `SET DEFAULT`: set the foreign key columns to their default.
        case setDefault = "SET DEFAULT"
    }

    /// The storage class of a value, as SQLite stores it, or the type of a
    /// column of a `STRICT` table.
    public struct StorageClass: RawRepresentable, Hashable, Sendable {
        /// The SQL of the storage class (`"INTEGER"`).
        public let rawValue: String

        /// A storage class from its SQL.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `INTEGER`.
        public static let integer = StorageClass(rawValue: "INTEGER")

        /// `REAL`.
        public static let real = StorageClass(rawValue: "REAL")

        /// `TEXT`.
        public static let text = StorageClass(rawValue: "TEXT")

        /// `BLOB`.
        public static let blob = StorageClass(rawValue: "BLOB")
    }
}
