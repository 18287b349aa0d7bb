// The tables of Programs/Differential.swift, as the generator sees them: the record type that
// names each, and its columns by the kind of value they hold (so that most comparisons make
// sense to SQLite, although any would compile).

struct TableModel {
    enum Kind { case integer, real, text, boolean, date }

    var record: String
    var columns: [(name: String, kind: Kind)]

    func columns(of kinds: Set<Kind>) -> [String] {
        columns.filter { kinds.contains($0.kind) }.map(\.name)
    }

    static let reader = TableModel(record: "GenReader", columns: [
        ("id", .integer), ("teamId", .integer), ("name", .text), ("email", .text),
        ("age", .integer), ("score", .real), ("active", .boolean), ("deletedAt", .date),
    ])
    static let team = TableModel(record: "GenTeam", columns: [
        ("id", .integer), ("name", .text), ("city", .text),
    ])
    static let book = TableModel(record: "GenBook", columns: [
        ("id", .integer), ("readerId", .integer), ("title", .text), ("pages", .integer), ("rating", .real),
    ])
}

/// Where an expression is written: which table its columns belong to, and whether it is the
/// body of a closure whose `$0` is that table's record's `Columns`.
struct Scope {
    var table: TableModel
    var inClosure: Bool
    /// A `TableAlias` variable of a joined table, whose columns the expression may use too.
    var alias: (variable: String, table: TableModel)?

    static func direct(_ table: TableModel) -> Scope { Scope(table: table, inClosure: false) }
    static func closure(_ table: TableModel) -> Scope { Scope(table: table, inClosure: true) }

    func aliasing(_ variable: String, _ table: TableModel) -> Scope {
        var scope = self
        scope.alias = (variable, table)
        return scope
    }

    /// The scope of a subquery or a joined table: its own columns, no `$0`, no alias.
    static func inner(_ table: TableModel) -> Scope { .direct(table) }
}
