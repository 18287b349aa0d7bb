/// A name for a table in SQL, whose columns can be used in expressions,
/// selections and orderings: the base class of ``TableAlias``.
///
/// Aliases are compared by identity: two aliases with the same name are
/// still two aliases.
public class TableAliasBase: @unchecked Sendable, Hashable {
    // Safe: every stored property is a constant.

    /// The name given by the user, always used in SQL; nil for an anonymous
    /// alias, whose name is the name of the table it aliases.
    let userName: String?

    /// The table, when the alias was created for it (`columnsOf:`); nil for
    /// user aliases, whose table is the request they alias.
    let tableName: String?

    /// The alias this one stands for, for the aliases that an association
    /// condition receives (see ``TableRecord/association(to:on:)``).
    let proxied: TableAliasBase?

    init(name: String?, tableName: String? = nil) {
        self.userName = name
        self.tableName = tableName
        self.proxied = nil
    }

    init(proxying alias: TableAliasBase) {
        self.userName = nil
        self.tableName = nil
        self.proxied = alias.identity
    }

    /// The alias that names the table: the proxied alias, or this one.
    var identity: TableAliasBase { proxied ?? self }

    /// Whether two aliases are the same alias.
    public static func == (lhs: TableAliasBase, rhs: TableAliasBase) -> Bool {
        lhs === rhs
    }

    /// Hashes the identity of the alias.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// A selection of the aliased table: `"alias".*`, `"alias"."column"`.
    ///
    /// ```swift
    /// let alias = TableAlias(name: "p")
    /// let request = Player.aliased(alias).select(alias[AllColumns()])
    /// // SELECT "p".* FROM "player" "p"
    /// ```
    public subscript(_ selectable: some SQLSelectable) -> SQLSelection {
        SQLSelection(.qualified(selectable.sqlSelection, self))
    }

    /// An expression over the columns of the aliased table.
    ///
    /// ```swift
    /// let alias = TableAlias(name: "p")
    /// let request = Player.aliased(alias).filter(alias[Column("score")] > 1000)
    /// // SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?
    /// ```
    public subscript(_ expression: some SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm) -> SQLExpression {
        SQLExpression(.qualified(expression.sqlExpression, self))
    }

    /// An ordering over the columns of the aliased table.
    ///
    /// ```swift
    /// let request = Player.aliased(alias).order(alias[Column("score").desc])
    /// ```
    public subscript(_ ordering: some SQLOrderingTerm) -> SQLOrdering {
        SQLOrdering(.qualified(ordering.sqlOrdering, self))
    }
}

/// A name for a table in a request, whose columns can be used in
/// expressions, selections and orderings, including those of subqueries.
///
/// An alias given a name always uses it; an anonymous alias is named after
/// its table, and its columns are only qualified when needed (in a subquery
/// that refers to the enclosing request):
///
/// ```swift
/// // SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?
/// let p = TableAlias(name: "p")
/// let request = Player.aliased(p).filter(p[Column("score")] > 1000)
/// ```
///
/// Upserts give one, named `excluded`, to their `doUpdate` closure: it
/// refers to the values that failed to insert.
///
/// ```swift
/// try message.upsertAndFetch(db) { excluded in
///     [Column("date").set(to: excluded["date"])]   // "date" = "excluded"."date"
/// }
/// ```
@dynamicMemberLookup
public final class TableAlias<RowDecoder>: TableAliasBase, @unchecked Sendable {
    // Safe: immutable, as its base class.

    /// An alias, anonymous unless given a name.
    ///
    /// ```swift
    /// let alias = TableAlias(name: "p")
    /// ```
    public init(name: String? = nil) where RowDecoder == Void {
        super.init(name: name)
    }

    /// An alias for a record type, anonymous unless given a name. Its
    /// columns are available as properties: `alias.score`.
    ///
    /// ```swift
    /// let alias = TableAlias<Player>(name: "p")
    /// ```
    public init(name: String? = nil, for record: RowDecoder.Type = RowDecoder.self) {
        super.init(name: name)
    }

    /// An alias that stands for another one.
    override init(proxying alias: TableAliasBase) {
        super.init(proxying: alias)
    }
}

extension TableAlias {
    /// Whether the aliased table has a row: true when a joined row was
    /// found, false when an optional join found none.
    ///
    /// The test is on the rowid of the table (its `INTEGER PRIMARY KEY`
    /// column if any), on the primary key of a `WITHOUT ROWID` table, or on
    /// all the columns of a view.
    ///
    /// ```swift
    /// // Books without author:
    /// // SELECT "book".* FROM "book"
    /// // LEFT JOIN "author" ON "author"."id" = "book"."authorId"
    /// // WHERE "author"."id" IS NULL
    /// let authorAlias = TableAlias<Author>()
    /// let request = Book
    ///     .joining(optional: Book.author.aliased(authorAlias))
    ///     .filter(!authorAlias.exists)
    /// ```
    public var exists: SQLExpression {
        SQLExpression(.qualifiedExists(self, negated: false))
    }
}
