/// The changes that ``Database/alter(table:body:)`` makes to a table.
///
/// ```swift
/// // ALTER TABLE "player" ADD COLUMN "bonus" INTEGER;
/// // ALTER TABLE "player" RENAME COLUMN "url" TO "homeURL";
/// // ALTER TABLE "player" DROP COLUMN "age"
/// try db.alter(table: "player") { t in   // t is a TableAlteration
///     t.add(column: "bonus", .integer)
///     t.rename(column: "url", to: "homeURL")
///     t.drop(column: "age")
/// }
/// ```
///
/// Each change is one `ALTER TABLE` statement, run in the order of the calls
/// (<https://www.sqlite.org/lang_altertable.html>).
public final class TableAlteration {
    /// One change.
    enum Change {
        case add(ColumnDefinition)
        case addLiteral(SQL)
        case rename(column: String, to: String)
        case drop(column: String)
    }

    let name: String
    var changes: [Change] = []

    init(name: String) {
        self.name = name
    }

    /// Adds a column: `ALTER TABLE ... ADD COLUMN ...`.
    ///
    /// ```swift
    /// // ALTER TABLE "player" ADD COLUMN "bonus" INTEGER NOT NULL DEFAULT 0
    /// try db.alter(table: "player") { t in
    ///     t.add(column: "bonus", .integer).notNull().defaults(to: 0)
    /// }
    /// ```
    ///
    /// An ``ColumnDefinition/indexed()`` column gets its index created right
    /// after it is added. SQLite restricts what an added column can be: no
    /// primary key, no unique constraint, a default value if it is not null,
    /// and so on; it throws an error otherwise.
    ///
    /// - parameters:
    ///     - name: The column name.
    ///     - type: The column type; nil for a column without type.
    /// - returns: The column, to refine it with constraints.
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        changes.append(.add(column))
        return column
    }

    /// Adds a column defined by raw SQL.
    ///
    /// ```swift
    /// // ALTER TABLE "player" ADD COLUMN bonus INTEGER
    /// try db.alter(table: "player") { t in
    ///     t.addColumn(sql: "bonus INTEGER")
    /// }
    /// ```
    ///
    /// - parameter sql: The column definition, as SQL.
    public func addColumn(sql: String) {
        changes.append(.addLiteral(SQL(sql: sql)))
    }

    /// Adds a column defined by an SQL literal, whose values are written as
    /// SQL literals.
    ///
    /// ```swift
    /// // ALTER TABLE "player" ADD COLUMN name TEXT DEFAULT 'Anonymous'
    /// let defaultName = "Anonymous"
    /// try db.alter(table: "player") { t in
    ///     t.addColumn(literal: "name TEXT DEFAULT \(defaultName)")
    /// }
    /// ```
    ///
    /// - parameter literal: The column definition.
    public func addColumn(literal: SQL) {
        changes.append(.addLiteral(literal))
    }

    /// Renames a column: `ALTER TABLE ... RENAME COLUMN ... TO ...`.
    ///
    /// ```swift
    /// try db.alter(table: "player") { t in
    ///     t.rename(column: "url", to: "homeURL")
    /// }
    /// ```
    ///
    /// SQLite also renames the column in the indexes, triggers and views
    /// that use it.
    ///
    /// - parameters:
    ///     - name: The current column name.
    ///     - newName: The new column name.
    public func rename(column name: String, to newName: String) {
        changes.append(.rename(column: name, to: newName))
    }

    /// Drops a column: `ALTER TABLE ... DROP COLUMN ...`.
    ///
    /// ```swift
    /// try db.alter(table: "player") { t in
    ///     t.drop(column: "age")
    /// }
    /// ```
    ///
    /// SQLite refuses to drop a column that is part of a key, an index, a
    /// constraint or a view, and throws an error.
    ///
    /// - parameter name: The column name.
    public func drop(column name: String) {
        changes.append(.drop(column: name))
    }
}

// An alteration is built by one closure, on one thread.
@available(*, unavailable)
extension TableAlteration: Sendable { }
