extension Database {
    /// Prepares the statements of `sqlLiteral` one after the other, binds each
    /// its share of the arguments, and calls `body` with it, before preparing
    /// the next one: a statement may use a table that the previous one created.
    ///
    /// Arguments are shared as in ``execute(sql:arguments:)``: positional
    /// values are consumed in order, and unused ones are an error.
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid or the arguments do
    ///   not fit, or the error of `body`.
    func forEachStatement(in sqlLiteral: SQL, _ body: (Statement) throws -> Void) throws {
        let statements = try allStatements(literal: sqlLiteral)
        while let statement = try statements.next() {
            try body(statement)
        }
    }
}
