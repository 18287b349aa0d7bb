/// A column of a table being created or altered, and its constraints.
///
/// You get one from ``TableDefinition/column(_:_:)`` or
/// ``TableAlteration/add(column:_:)``, and refine it with its methods, which
/// return the column so that calls chain:
///
/// ```swift
/// // CREATE TABLE "player" (
/// //   "id" INTEGER PRIMARY KEY AUTOINCREMENT,
/// //   "name" TEXT NOT NULL CHECK (LENGTH("name") > 0) COLLATE NOCASE,
/// //   "score" INTEGER NOT NULL DEFAULT 0,
/// //   "teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE
/// // ); CREATE INDEX "player_on_teamId" ON "player"("teamId")
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.column("name", .text).notNull().check { length($0) > 0 }.collate(.nocase)
///     t.column("score", .integer).notNull().defaults(to: 0)
///     t.column("teamId", .integer).references("team", onDelete: .cascade).indexed()
/// }
/// ```
///
/// The constraints are written in this order, whatever the order of the
/// calls: `PRIMARY KEY`, `NOT NULL`, `UNIQUE`, `CHECK`, `DEFAULT`, `COLLATE`,
/// `REFERENCES`, `GENERATED ALWAYS AS`.
public final class ColumnDefinition {
    /// Whether a generated column is computed when read or stored
    /// (<https://sqlite.org/gencol.html>).
    public enum GeneratedColumnQualification: Sendable {
        /// `VIRTUAL`: computed when the column is read (SQLite's default).
        case virtual
        /// `STORED`: computed when the row is written, and stored in it.
        case stored
    }

    /// How the column is indexed.
    enum Indexing {
        /// A `CREATE INDEX` statement after the table's.
        case index
        /// A `UNIQUE` constraint, with its conflict resolution.
        case unique(Database.ConflictResolution)
    }

    /// A `REFERENCES` clause.
    struct Reference {
        var table: String
        /// Nil for the primary key of `table`, looked up when the SQL is made.
        var column: String?
        var deleteAction: Database.ForeignKeyAction?
        var updateAction: Database.ForeignKeyAction?
        var isDeferred: Bool
    }

    /// The column name.
    let name: String
    /// The declared type; nil for a column without type.
    let type: Database.ColumnType?
    /// Set by ``primaryKey(onConflict:autoincrement:)``.
    var primaryKey: (conflictResolution: Database.ConflictResolution?, autoincrement: Bool)?
    /// Set by ``notNull(onConflict:)``.
    var notNullConflictResolution: Database.ConflictResolution?
    var indexing: Indexing?
    var checks: [SQLExpression] = []
    var defaultValue: SQLExpression?
    var collationName: String?
    var references: [Reference] = []
    var generated: (expression: SQLExpression, qualification: GeneratedColumnQualification)?

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

    /// Makes the column the primary key of the table: `PRIMARY KEY`.
    ///
    /// ```swift
    /// // "id" INTEGER PRIMARY KEY AUTOINCREMENT
    /// t.column("id", .integer).primaryKey(autoincrement: true)
    /// ```
    ///
    /// Prefer ``TableDefinition/autoIncrementedPrimaryKey(_:onConflict:)``
    /// and ``TableDefinition/primaryKey(_:_:onConflict:)``, which also make
    /// a non-integer key `NOT NULL`.
    ///
    /// - parameters:
    ///     - conflictResolution: The `ON CONFLICT` clause, if any
    ///       (<https://www.sqlite.org/lang_conflict.html>).
    ///     - autoincrement: Whether SQLite never reuses the id of a deleted
    ///       row (`AUTOINCREMENT`, for an `INTEGER` column only).
    /// - returns: The column, to refine it further.
    @discardableResult
    public func primaryKey(
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        autoincrement: Bool = false) -> Self
    {
        primaryKey = (conflictResolution, autoincrement)
        return self
    }

    /// Forbids NULL in the column: `NOT NULL`, or
    /// `NOT NULL ON CONFLICT ...` for a resolution other than `ABORT`.
    ///
    /// ```swift
    /// // "email" TEXT NOT NULL
    /// t.column("email", .text).notNull()
    /// ```
    ///
    /// - parameter conflictResolution: The `ON CONFLICT` clause, if any.
    /// - returns: The column, to refine it further.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = conflictResolution ?? .abort
        return self
    }

    /// Forbids two rows with the same value in the column: `UNIQUE`, or
    /// `UNIQUE ON CONFLICT ...` for a resolution other than `ABORT`.
    ///
    /// ```swift
    /// // "email" TEXT UNIQUE
    /// t.column("email", .text).unique()
    /// ```
    ///
    /// SQLite indexes a unique column: ``indexed()`` has no effect after it.
    ///
    /// - parameter conflictResolution: The `ON CONFLICT` clause, if any.
    /// - returns: The column, to refine it further.
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        indexing = .unique(conflictResolution ?? .abort)
        return self
    }

    /// Indexes the column, with an index named `<table>_on_<column>`
    /// created after the table, or after the column is added.
    ///
    /// ```swift
    /// // CREATE TABLE "player" ("score" INTEGER);
    /// // CREATE INDEX "player_on_score" ON "player"("score")
    /// try db.create(table: "player") { t in
    ///     t.column("score", .integer).indexed()
    /// }
    /// ```
    ///
    /// A column that is already ``unique(onConflict:)`` keeps its unique
    /// constraint and gets no other index.
    ///
    /// - returns: The column, to refine it further.
    @discardableResult
    public func indexed() -> Self {
        if indexing == nil {
            indexing = .index
        }
        return self
    }

    /// Adds a check constraint built from the column: `CHECK (...)`.
    ///
    /// ```swift
    /// // "name" TEXT CHECK (LENGTH("name") > 0)
    /// t.column("name", .text).check { length($0) > 0 }
    /// ```
    ///
    /// Values in the condition are written as SQL literals, since SQLite
    /// does not bind parameters in a schema.
    ///
    /// - parameter condition: A closure that gets the column and returns
    ///   the condition every row must meet.
    /// - returns: The column, to refine it further.
    @discardableResult
    public func check(_ condition: (Column) -> any SQLExpressible) -> Self {
        checks.append(condition(Column(name)).sqlExpression)
        return self
    }

    /// Adds a check constraint from raw SQL: `CHECK (...)`.
    ///
    /// ```swift
    /// // "score" INTEGER CHECK (score > 0)
    /// t.column("score", .integer).check(sql: "score > 0")
    /// ```
    ///
    /// - parameter sql: The condition every row must meet, as SQL.
    /// - returns: The column, to refine it further.
    @discardableResult
    public func check(sql: String) -> Self {
        checks.append(SQLExpression(literal: SQL(sql: sql)))
        return self
    }

    /// Sets the default value of the column: `DEFAULT ...`, with the value
    /// written as an SQL literal.
    ///
    /// ```swift
    /// // "name" TEXT DEFAULT 'O''Reilly'
    /// t.column("name", .text).defaults(to: "O'Reilly")
    ///
    /// // "isFavorite" BOOLEAN NOT NULL DEFAULT 0
    /// t.column("isFavorite", .boolean).notNull().defaults(to: false)
    /// ```
    ///
    /// - parameter value: The default value.
    /// - returns: The column, to refine it further.
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        defaultValue = value.sqlExpression
        return self
    }

    /// Sets the default value of the column from raw SQL: `DEFAULT ...`.
    ///
    /// ```swift
    /// // "creationDate" DATETIME DEFAULT CURRENT_TIMESTAMP
    /// t.column("creationDate", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
    /// ```
    ///
    /// - parameter sql: The default value, as SQL.
    /// - returns: The column, to refine it further.
    @discardableResult
    public func defaults(sql: String) -> Self {
        defaultValue = SQLExpression(literal: SQL(sql: sql))
        return self
    }

    /// Sets the collation of the column: `COLLATE ...`.
    ///
    /// ```swift
    /// // "name" TEXT COLLATE NOCASE
    /// t.column("name", .text).collate(.nocase)
    /// ```
    ///
    /// - parameter collation: One of SQLite's collations.
    /// - returns: The column, to refine it further.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        collationName = collation.rawValue
        return self
    }

    /// Sets a custom collation of the column: `COLLATE ...`.
    ///
    /// ```swift
    /// // "name" TEXT COLLATE swiftLocalizedCaseInsensitiveCompare
    /// t.column("name", .text).collate(.localizedCaseInsensitiveCompare)
    /// ```
    ///
    /// Every connection that uses the table must know the collation (the
    /// built-in ones of ``DatabaseCollation`` always are).
    ///
    /// - parameter collation: The collation.
    /// - returns: The column, to refine it further.
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        collationName = collation.name
        return self
    }

    /// Makes the column a generated column, computed from raw SQL:
    /// `GENERATED ALWAYS AS (...) VIRTUAL` or `STORED`.
    ///
    /// ```swift
    /// // "totalScore" INTEGER GENERATED ALWAYS AS (score + bonus) VIRTUAL
    /// t.column("totalScore", .integer).generatedAs(sql: "score + bonus")
    /// ```
    ///
    /// A generated column cannot be added with ``Database/alter(table:body:)``
    /// if it is `STORED` (an SQLite restriction).
    ///
    /// - parameters:
    ///     - sql: The expression that computes the column, as SQL.
    ///     - qualification: Whether the value is computed when read
    ///       (`.virtual`, the default) or stored (`.stored`).
    /// - returns: The column, to refine it further.
    @discardableResult
    public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generated = (SQLExpression(literal: SQL(sql: sql)), qualification)
        return self
    }

    /// Makes the column a generated column, computed from an expression:
    /// `GENERATED ALWAYS AS (...) VIRTUAL` or `STORED`.
    ///
    /// ```swift
    /// // "totalScore" INTEGER GENERATED ALWAYS AS ("score" + "bonus") VIRTUAL
    /// t.column("totalScore", .integer).generatedAs(Column("score") + Column("bonus"))
    /// ```
    ///
    /// - parameters:
    ///     - expression: The expression that computes the column. Values
    ///       in it are written as SQL literals.
    ///     - qualification: Whether the value is computed when read
    ///       (`.virtual`, the default) or stored (`.stored`).
    /// - returns: The column, to refine it further.
    @discardableResult
    public func generatedAs(
        _ expression: some SQLExpressible,
        _ qualification: GeneratedColumnQualification = .virtual) -> Self
    {
        generated = (expression.sqlExpression, qualification)
        return self
    }

    /// Makes the column a foreign key: `REFERENCES ...`.
    ///
    /// ```swift
    /// // "teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE
    /// t.column("teamId", .integer).references("team", onDelete: .cascade)
    /// ```
    ///
    /// When `column` is nil, the column refers to the primary key of
    /// `table`, which is looked up in the database when the statement is
    /// made (or is the primary key of the table being created, when the
    /// column refers to its own table).
    ///
    /// - parameters:
    ///     - table: The referenced table.
    ///     - column: The referenced column; nil for the primary key.
    ///     - deleteAction: What happens when the referenced row is deleted.
    ///     - updateAction: What happens when the referenced key changes.
    ///     - isDeferred: Whether the constraint is checked at the end of the
    ///       transaction only (`DEFERRABLE INITIALLY DEFERRED`).
    /// - returns: The column, to refine it further.
    @discardableResult
    public func references(
        _ table: String,
        column: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false) -> Self
    {
        references.append(Reference(
            table: table,
            column: column,
            deleteAction: deleteAction,
            updateAction: updateAction,
            isDeferred: isDeferred))
        return self
    }
}

// A definition is built by one closure, on one thread.
@available(*, unavailable)
extension ColumnDefinition: Sendable { }
