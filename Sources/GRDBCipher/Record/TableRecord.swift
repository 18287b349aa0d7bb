/// A type that is stored in a database table, and builds requests on it.
///
/// ```swift
/// struct Player: TableRecord {
///     // The table is "player" by default.
///     enum Columns {
///         static let name = Column("name")
///         static let score = Column("score")
///     }
/// }
///
/// let count = try Player.fetchCount(db)                       // SELECT COUNT(*) FROM "player"
/// let request = Player.filter(Player.Columns.score > 1000)    // a QueryInterfaceRequest<Player>
/// ```
public protocol TableRecord: SendableMetatype {
    /// A type that defines the columns of the table, for the query
    /// interface: usually a nested `enum Columns` of ``Column`` constants.
    associatedtype Columns = Never

    /// What the query interface offers as the record's components; by
    /// default, `Columns.self`.
    associatedtype DatabaseComponents = Columns.Type

    /// The name of the table.
    ///
    /// By default, derived from the type name: `Player` → `player`,
    /// `PostalAddress` → `postalAddress`, `HTTPRequest` → `httpRequest`,
    /// `TOEFL` → `toefl`.
    static var databaseTableName: String { get }

    /// The columns a request of this type selects; by default,
    /// `[.allColumns]` (`SELECT *`).
    ///
    /// Declare it as a computed `static var` of type `[any SQLSelectable]`,
    /// as in GRDB.
    static var databaseSelection: [any SQLSelectable] { get }

    /// The value that provides database components to the query interface.
    static var databaseComponents: DatabaseComponents { get }
}

extension TableRecord {
    /// The name derived from the type name (see ``databaseTableName``).
    public static var databaseTableName: String {
        DefaultTableNames.name(of: Self.self)
    }

    /// `[.allColumns]`: `SELECT *`.
    public static var databaseSelection: [any SQLSelectable] {
        allColumnsSelection
    }
}

extension TableRecord where DatabaseComponents == Columns.Type {
    /// `Columns.self`.
    public static var databaseComponents: DatabaseComponents {
        Columns.self
    }
}

/// The default selection, built once: every request of a record type
/// asks for it, and an array literal would allocate it each time.
// Safe: an immutable array whose only element is a Sendable value.
nonisolated(unsafe) private let allColumnsSelection: [any SQLSelectable] = [AllColumns()]

/// The default table name of a type: its name without generic arguments,
/// with the leading capitals lowercased (all of them when the whole name is
/// capitals, all but the last when a lowercase letter follows them).
func defaultDatabaseTableName(forTypeName fullName: String) -> String {
    let typeName = String(fullName.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    let capitals = typeName.prefix { $0.isUppercase }
    switch capitals.count {
    case 0:
        return typeName
    case typeName.count:
        return typeName.lowercased()
    case 1:
        return capitals.lowercased() + typeName.dropFirst()
    default:
        return capitals.dropLast().lowercased() + typeName.dropFirst(capitals.count - 1)
    }
}

/// The default table names computed so far: deriving one from the type name
/// costs more than a record insert's bookkeeping, and inserts ask for it
/// every time.
enum DefaultTableNames {
    private static let cache = LockedValue<[ObjectIdentifier: String]>([:])

    static func name(of type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let name = cache.withLock({ $0[id] }) { return name }
        let name = defaultDatabaseTableName(forTypeName: String(describing: type))
        cache.withLock { $0[id] = name }
        return name
    }
}
