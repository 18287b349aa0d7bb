/// The columns that link two tables, for associations whose foreign key
/// the database schema does not define, or defines several times.
///
/// ```swift
/// struct Book: TableRecord {
///     static let authorForeignKey = ForeignKey(["authorId"])
///     static let translatorForeignKey = ForeignKey(["translatorId"])
///     static let author = belongsTo(Person.self, key: "author", using: authorForeignKey)
///     static let translator = belongsTo(Person.self, key: "translator", using: translatorForeignKey)
/// }
/// ```
///
/// A foreign key always goes from the table that holds its columns: the
/// `hasMany` and `hasOne` associations of the other table reuse it.
public struct ForeignKey: Equatable, Sendable {
    /// The columns of the table at the origin of the foreign key.
    var originColumns: [String]
    /// The columns of the destination table; nil for the destination's
    /// primary key, or the columns of a matching foreign key of the schema.
    var destinationColumns: [String]?

    /// A foreign key from the origin columns to the destination columns.
    ///
    /// - parameter originColumns: The columns of the origin table.
    /// - parameter destinationColumns: The columns of the destination
    ///   table; nil for its primary key.
    public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
        self.originColumns = originColumns
        self.destinationColumns = destinationColumns
    }

    /// A foreign key from the origin columns to the destination columns.
    ///
    /// ```swift
    /// ForeignKey([Columns.authorId], to: [Person.Columns.id])
    /// ```
    public init(_ originColumns: [any ColumnExpression], to destinationColumns: [any ColumnExpression]? = nil) {
        self.init(originColumns.map(\.name), to: destinationColumns?.map(\.name))
    }
}
