/// The identifier of an SQLite schema: the main database, the temporary
/// database, or an attached database.
///
/// ```swift
/// let schemaID = DatabaseSchemaID.attached("archive")
/// try db.execute(sql: "SELECT * FROM \(schemaID.schemaTableName)")
/// ```
///
/// Related SQLite documentation: <https://sqlite.org/lang_naming.html>
public struct DatabaseSchemaID: Hashable, Sendable {
    private enum Kind: Hashable {
        case main
        case temp
        case attached(String)
    }

    private let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// The schema named `name` in `PRAGMA database_list`.
    init(name: String) {
        switch name {
        case "main": kind = .main
        case "temp": kind = .temp
        default: kind = .attached(name)
        }
    }

    /// The main database.
    public static let main = DatabaseSchemaID(.main)

    /// The temporary database (`TEMP` tables, views and triggers).
    public static let temp = DatabaseSchemaID(.temp)

    /// The database attached under this name (`ATTACH DATABASE ... AS name`).
    public static func attached(_ name: String) -> DatabaseSchemaID {
        DatabaseSchemaID(.attached(name))
    }

    /// The name of the schema, as written in SQL before a table name
    /// (`main` in `SELECT * FROM main.player`).
    public var name: String {
        switch kind {
        case .main: "main"
        case .temp: "temp"
        case .attached(let name): name
        }
    }

    /// The table that describes the schema: `sqlite_master`,
    /// `sqlite_temp_master`, or `name.sqlite_master` for an attached
    /// database.
    ///
    /// Related SQLite documentation: <https://sqlite.org/schematab.html>
    public var schemaTableName: String {
        switch kind {
        case .main: "sqlite_master"
        case .temp: "sqlite_temp_master"
        case .attached(let name): "\(name).sqlite_master"
        }
    }

    /// The schema name quoted for SQL, for pragmas (`PRAGMA "aux".table_xinfo(...)`).
    var quotedName: String {
        name.quotedDatabaseIdentifier
    }

    /// The name as GRDB writes it in the statements a user sees in traces
    /// (`PRAGMA main.foreign_key_check(...)`): `main` and `temp` bare, an
    /// attached database's name quoted.
    var pragmaName: String {
        switch kind {
        case .main, .temp: name
        case .attached: quotedName
        }
    }

    /// Whether `name` names this schema, compared as SQLite does (case-insensitively).
    func isNamed(_ name: String) -> Bool {
        self.name.lowercased() == name.lowercased()
    }
}

/// The identifier of an object of the database schema (a table, a view...):
/// its name and the schema that holds it.
///
/// ```swift
/// let table = DatabaseObjectID(name: "player", schemaID: .main)
/// ```
public struct DatabaseObjectID: Hashable, Sendable {
    /// The name of the object.
    public var name: String

    /// The schema that holds the object.
    public var schemaID: DatabaseSchemaID

    /// An object identifier from its name and its schema.
    public init(name: String, schemaID: DatabaseSchemaID) {
        self.name = name
        self.schemaID = schemaID
    }

    /// The qualified, quoted name of the object (`"main"."player"`).
    var quotedDatabaseIdentifier: String {
        "\(schemaID.quotedName).\(name.quotedDatabaseIdentifier)"
    }
}
