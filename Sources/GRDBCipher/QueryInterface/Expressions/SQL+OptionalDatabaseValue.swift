extension SQL {
    /// SQL that is one value: `?` bound to it, or `NULL`.
    ///
    /// An optional `DatabaseValue` is both a value and an expression (see
    /// `Optional+QueryInterface.swift`): this overload picks the value side
    /// for it, which writes the same SQL.
    ///
    /// ```swift
    /// let dbValue: DatabaseValue? = 1.databaseValue
    /// let literal = SQL(dbValue)   // "?" with argument 1
    /// ```
    init(_ dbValue: DatabaseValue?) {
        self.init(bound: dbValue ?? .null)
    }
}
