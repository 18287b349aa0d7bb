/// The columns and constraints of a table being created by
/// ``Database/create(table:options:body:)``.
///
/// ```swift
/// // CREATE TABLE "player" (
/// //   "id" INTEGER PRIMARY KEY AUTOINCREMENT,
/// //   "name" TEXT NOT NULL,
/// //   "score" INTEGER
/// // )
/// try db.create(table: "player") { t in   // t is a TableDefinition
///     t.autoIncrementedPrimaryKey("id")
///     t.column("name", .text).notNull()
///     t.column("score", .integer)
/// }
/// ```
///
/// Columns are written in the order they are defined, then the table
/// constraints: `PRIMARY KEY`, `UNIQUE`, `FOREIGN KEY`, `CHECK`, and the
/// raw ones of ``constraint(sql:)``. The indexes of indexed columns and
/// foreign keys are created right after the table, in the same call.
public final class TableDefinition {
    /// A column, or something that makes columns, in definition order.
    enum Item {
        case column(ColumnDefinition)
        case literalColumn(SQL)
        case belongsTo(ForeignKeyDefinition)
        case foreignKey(TableForeignKey)
    }

    /// A column of a `PRIMARY KEY` or `UNIQUE` table constraint.
    enum KeyMember {
        case name(String)
        case column(ColumnDefinition)
        case belongsTo(ForeignKeyDefinition)
    }

    /// A `PRIMARY KEY (...)` or `UNIQUE (...)` table constraint.
    struct KeyConstraint {
        var members: [KeyMember]
        var conflictResolution: Database.ConflictResolution?
    }

    let name: String
    let options: TableOptions
    var items: [Item] = []
    var primaryKeyConstraint: KeyConstraint?
    var uniqueKeyConstraints: [KeyConstraint] = []
    var checkConstraints: [SQLExpression] = []
    var literalConstraints: [SQL] = []
    /// Whether the columns being defined belong to the primary key
    /// (inside ``primaryKey(onConflict:body:)``).
    private var definesPrimaryKey = false

    init(name: String, options: TableOptions) {
        self.name = name
        self.options = options
    }

    /// Appends an auto-incremented integer primary key column:
    /// `INTEGER PRIMARY KEY AUTOINCREMENT`.
    ///
    /// ```swift
    /// // CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT)
    /// try db.create(table: "player") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    /// }
    /// ```
    ///
    /// SQLite generates the id of an inserted row that has none, and never
    /// reuses the id of a deleted row.
    ///
    /// - parameters:
    ///     - name: The column name.
    ///     - conflictResolution: The `ON CONFLICT` clause, if any.
    /// - returns: The column, to refine it further.
    @discardableResult
    public func autoIncrementedPrimaryKey(
        _ name: String,
        onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition
    {
        column(name, .integer).primaryKey(onConflict: conflictResolution, autoincrement: true)
    }

    /// Appends a primary key column. A key that is not `INTEGER` is also
    /// `NOT NULL`, since SQLite would otherwise accept NULL in it
    /// (<https://www.sqlite.org/quirks.html#primary_keys_can_sometimes_contain_nulls>).
    ///
    /// ```swift
    /// // CREATE TABLE "country" ("isoCode" TEXT PRIMARY KEY NOT NULL)
    /// try db.create(table: "country") { t in
    ///     t.primaryKey("isoCode", .text)
    /// }
    /// ```
    ///
    /// - parameters:
    ///     - name: The column name.
    ///     - type: The column type.
    ///     - conflictResolution: The `ON CONFLICT` clause, if any.
    /// - returns: The column, to refine it further.
    @discardableResult
    public func primaryKey(
        _ name: String,
        _ type: Database.ColumnType,
        onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition
    {
        let column = column(name, type).primaryKey(onConflict: conflictResolution)
        // An INTEGER PRIMARY KEY is the rowid, which is never NULL.
        return type == .integer ? column : column.notNull()
    }

    /// Defines a primary key made of the columns and foreign keys that
    /// `body` defines: they are `NOT NULL`, and listed in a
    /// `PRIMARY KEY (...)` table constraint.
    ///
    /// ```swift
    /// // CREATE TABLE "passport" (
    /// //   "citizenId" INTEGER NOT NULL,
    /// //   "countryCode" TEXT NOT NULL,
    /// //   "issueDate" DATE NOT NULL,
    /// //   PRIMARY KEY ("citizenId", "countryCode")
    /// // )
    /// try db.create(table: "passport") { t in
    ///     t.primaryKey {
    ///         t.column("citizenId", .integer)
    ///         t.column("countryCode", .text)
    ///     }
    ///     t.column("issueDate", .date).notNull()
    /// }
    /// ```
    ///
    /// A table has one primary key: defining a second one is a programmer
    /// error that traps.
    ///
    /// - parameters:
    ///     - conflictResolution: The `ON CONFLICT` clause, if any.
    ///     - body: A closure that defines the primary key columns.
    public func primaryKey(
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        body: () throws -> Void) rethrows
    {
        precondition(primaryKeyConstraint == nil, "can't define several primary keys")
        primaryKeyConstraint = KeyConstraint(members: [], conflictResolution: conflictResolution)
        let wasDefiningPrimaryKey = definesPrimaryKey
        definesPrimaryKey = true
        defer { definesPrimaryKey = wasDefiningPrimaryKey }
        try body()
    }

    /// Appends a column.
    ///
    /// ```swift
    /// // CREATE TABLE "player" ("name" TEXT, "extra")
    /// try db.create(table: "player") { t in
    ///     t.column("name", .text)
    ///     t.column("extra")
    /// }
    /// ```
    ///
    /// - parameters:
    ///     - name: The column name.
    ///     - type: The column type; nil for a column without type.
    /// - returns: The column, to refine it with constraints.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        items.append(.column(column))
        if definesPrimaryKey {
            column.notNull()
            primaryKeyConstraint?.members.append(.column(column))
        }
        return column
    }

    /// Appends a column defined by raw SQL.
    ///
    /// ```swift
    /// // CREATE TABLE "player" (name TEXT)
    /// try db.create(table: "player") { t in
    ///     t.column(sql: "name TEXT")
    /// }
    /// ```
    ///
    /// - parameter sql: The column definition, as SQL.
    public func column(sql: String) {
        column(literal: SQL(sql: sql))
    }

    /// Appends a column defined by an SQL literal, whose values are written
    /// as SQL literals.
    ///
    /// ```swift
    /// // CREATE TABLE "player" (name TEXT DEFAULT 'Anonymous')
    /// let defaultName = "Anonymous"
    /// try db.create(table: "player") { t in
    ///     t.column(literal: "name TEXT DEFAULT \(defaultName)")
    /// }
    /// ```
    ///
    /// A primary key column cannot be defined this way: doing it inside
    /// ``primaryKey(onConflict:body:)`` traps.
    ///
    /// - parameter literal: The column definition.
    public func column(literal: SQL) {
        precondition(!definesPrimaryKey, "Primary key columns can not be defined with raw SQL")
        items.append(.literalColumn(literal))
    }

    /// Adds a `PRIMARY KEY (...)` table constraint on existing columns.
    ///
    /// ```swift
    /// // CREATE TABLE "citizenship" (
    /// //   "citizenId" INTEGER NOT NULL,
    /// //   "countryCode" TEXT NOT NULL,
    /// //   PRIMARY KEY ("citizenId", "countryCode")
    /// // )
    /// try db.create(table: "citizenship") { t in
    ///     t.column("citizenId", .integer).notNull()
    ///     t.column("countryCode", .text).notNull()
    ///     t.primaryKey(["citizenId", "countryCode"])
    /// }
    /// ```
    ///
    /// Make the columns `NOT NULL` yourself: SQLite accepts NULL in a
    /// primary key that is not `INTEGER`. A table has one primary key:
    /// defining a second one traps.
    ///
    /// - parameters:
    ///     - columns: The primary key columns.
    ///     - conflictResolution: The `ON CONFLICT` clause, if any.
    public func primaryKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        precondition(primaryKeyConstraint == nil, "can't define several primary keys")
        primaryKeyConstraint = KeyConstraint(members: columns.map { .name($0) }, conflictResolution: conflictResolution)
    }

    /// Adds a `UNIQUE (...)` table constraint.
    ///
    /// ```swift
    /// // CREATE TABLE "place" (
    /// //   "latitude" DOUBLE,
    /// //   "longitude" DOUBLE,
    /// //   UNIQUE ("latitude", "longitude") ON CONFLICT REPLACE
    /// // )
    /// try db.create(table: "place") { t in
    ///     t.column("latitude", .double)
    ///     t.column("longitude", .double)
    ///     t.uniqueKey(["latitude", "longitude"], onConflict: .replace)
    /// }
    /// ```
    ///
    /// - parameters:
    ///     - columns: The columns whose values must be unique together.
    ///     - conflictResolution: The `ON CONFLICT` clause, if any.
    public func uniqueKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        uniqueKeyConstraints.append(KeyConstraint(members: columns.map { .name($0) }, conflictResolution: conflictResolution))
    }

    /// Adds a `FOREIGN KEY (...) REFERENCES ...` table constraint.
    ///
    /// ```swift
    /// // CREATE TABLE "passport" (
    /// //   "citizenId" INTEGER NOT NULL,
    /// //   "countryCode" TEXT NOT NULL,
    /// //   FOREIGN KEY ("citizenId", "countryCode") REFERENCES "citizenship"("citizenId", "countryCode") ON DELETE CASCADE
    /// // )
    /// try db.create(table: "passport") { t in
    ///     t.column("citizenId", .integer).notNull()
    ///     t.column("countryCode", .text).notNull()
    ///     t.foreignKey(["citizenId", "countryCode"], references: "citizenship", onDelete: .cascade)
    /// }
    /// ```
    ///
    /// - parameters:
    ///     - columns: The foreign key columns.
    ///     - table: The referenced table.
    ///     - destinationColumns: The referenced columns; nil for the
    ///       primary key of `table`, looked up in the database when the
    ///       statement is made.
    ///     - deleteAction: What happens when the referenced row is deleted.
    ///     - updateAction: What happens when the referenced key changes.
    ///     - isDeferred: Whether the constraint is checked at the end of the
    ///       transaction only (`DEFERRABLE INITIALLY DEFERRED`).
    public func foreignKey(
        _ columns: [String],
        references table: String,
        columns destinationColumns: [String]? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false)
    {
        items.append(.foreignKey(TableForeignKey(
            columns: columns,
            table: table,
            destinationColumns: destinationColumns,
            deleteAction: deleteAction,
            updateAction: updateAction,
            isDeferred: isDeferred)))
    }

    /// Appends the columns of a foreign key to another table, named after
    /// `name` and the primary key of that table, their index, and their
    /// `REFERENCES` constraint.
    ///
    /// The referenced table is `table`, or else the table named `name`, or
    /// else its English plural (`"team"` finds `"teams"`). A referenced
    /// primary key `id` makes a column `<name>Id`, `code` makes
    /// `<name>Code`, and so on for each column of a composite key (which
    /// gets a `FOREIGN KEY` table constraint); a table without primary key
    /// makes `<name>Id`, which refers to its `rowid`. The table being
    /// created can refer to itself.
    ///
    /// ```swift
    /// try db.create(table: "team") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    /// }
    /// try db.create(table: "country") { t in
    ///     t.primaryKey("code", .text)
    /// }
    /// // CREATE TABLE "player" (
    /// //   "id" INTEGER PRIMARY KEY AUTOINCREMENT,
    /// //   "teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE,
    /// //   "countryCode" TEXT NOT NULL REFERENCES "country"("code"),
    /// //   "captainId" INTEGER REFERENCES "player"("id")
    /// // );
    /// // CREATE INDEX "player_on_teamId" ON "player"("teamId");
    /// // CREATE INDEX "player_on_countryCode" ON "player"("countryCode");
    /// // CREATE INDEX "player_on_captainId" ON "player"("captainId")
    /// try db.create(table: "player") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.belongsTo("team", onDelete: .cascade)
    ///     t.belongsTo("country").notNull()
    ///     t.belongsTo("captain", inTable: "player")
    /// }
    /// ```
    ///
    /// - parameters:
    ///     - name: The prefix of the columns, and the referenced table when
    ///       `table` is nil.
    ///     - table: The referenced table.
    ///     - deleteAction: What happens when the referenced row is deleted.
    ///     - updateAction: What happens when the referenced key changes.
    ///     - isDeferred: Whether the constraint is checked at the end of the
    ///       transaction only (`DEFERRABLE INITIALLY DEFERRED`).
    ///     - indexed: Whether the columns are indexed (the default). The
    ///       columns of a primary key are never indexed apart.
    /// - returns: The foreign key, to make it `NOT NULL` or unique.
    @discardableResult
    public func belongsTo(
        _ name: String,
        inTable table: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false,
        indexed: Bool = true) -> ForeignKeyDefinition
    {
        let foreignKey = ForeignKeyDefinition(
            name: name,
            table: table,
            deleteAction: deleteAction,
            updateAction: updateAction,
            isDeferred: isDeferred,
            isIndexed: indexed && !definesPrimaryKey)
        items.append(.belongsTo(foreignKey))
        if definesPrimaryKey {
            foreignKey.notNull()
            primaryKeyConstraint?.members.append(.belongsTo(foreignKey))
        }
        return foreignKey
    }

    /// Adds a `CHECK (...)` table constraint.
    ///
    /// ```swift
    /// // CREATE TABLE "player" (
    /// //   "personalPhone" TEXT,
    /// //   "workPhone" TEXT,
    /// //   CHECK (("personalPhone" IS NOT NULL) OR ("workPhone" IS NOT NULL))
    /// // )
    /// try db.create(table: "player") { t in
    ///     t.column("personalPhone", .text)
    ///     t.column("workPhone", .text)
    ///     t.check(Column("personalPhone") != nil || Column("workPhone") != nil)
    /// }
    /// ```
    ///
    /// Values in the condition are written as SQL literals.
    ///
    /// - parameter condition: The condition every row must meet.
    public func check(_ condition: some SQLSpecificExpressible) {
        checkConstraints.append(condition.sqlExpression)
    }

    /// Adds a `CHECK (...)` table constraint from any value: prefer the
    /// `check(_:)` that takes an expression (a column, an operation).
    ///
    /// - parameter condition: The condition every row must meet.
    @available(*, deprecated)
    public func check(_ condition: some SQLExpressible) {
        checkConstraints.append(condition.sqlExpression)
    }

    /// Adds a `CHECK (...)` table constraint from raw SQL.
    ///
    /// ```swift
    /// // CREATE TABLE "player" (..., CHECK (personalPhone IS NOT NULL OR workPhone IS NOT NULL))
    /// t.check(sql: "personalPhone IS NOT NULL OR workPhone IS NOT NULL")
    /// ```
    ///
    /// - parameter sql: The condition every row must meet, as SQL.
    public func check(sql: String) {
        checkConstraints.append(SQLExpression(literal: SQL(sql: sql)))
    }

    /// Appends a table constraint from raw SQL, written after the others.
    ///
    /// ```swift
    /// // CREATE TABLE "player" ("score" INTEGER, CHECK (score >= 0))
    /// try db.create(table: "player") { t in
    ///     t.column("score", .integer)
    ///     t.constraint(sql: "CHECK (score >= 0)")
    /// }
    /// ```
    ///
    /// - parameter sql: The constraint, as SQL.
    public func constraint(sql: String) {
        literalConstraints.append(SQL(sql: sql))
    }

    /// Appends a table constraint from an SQL literal, whose values are
    /// written as SQL literals.
    ///
    /// ```swift
    /// // CREATE TABLE "player" ("score" INTEGER, CHECK (score >= 0))
    /// let minScore = 0
    /// try db.create(table: "player") { t in
    ///     t.column("score", .integer)
    ///     t.constraint(literal: "CHECK (score >= \(minScore))")
    /// }
    /// ```
    ///
    /// - parameter literal: The constraint.
    public func constraint(literal: SQL) {
        literalConstraints.append(literal)
    }
}

/// A `FOREIGN KEY (...) REFERENCES ...` table constraint.
struct TableForeignKey {
    var columns: [String]
    var table: String
    /// Nil for the primary key of `table`, looked up when the SQL is made.
    var destinationColumns: [String]?
    var deleteAction: Database.ForeignKeyAction?
    var updateAction: Database.ForeignKeyAction?
    var isDeferred: Bool
}

// A definition is built by one closure, on one thread.
@available(*, unavailable)
extension TableDefinition: Sendable { }
