/// The key of an association: the name of its scope in fetched rows, and
/// of the property it feeds in a decoded record.
///
/// By default it is the destination table name, singularized where the
/// association is joined (`including(required:)`, `including(optional:)`,
/// `joining`: "author", and "book" for `Author.books`) and pluralized where
/// it is prefetched (`including(all:)`: "books"). A key given with `key:`
/// or `forKey(_:)` is used as written where the association's own
/// cardinality is used, and inflected elsewhere: `hasMany(Book.self, key:
/// "writings")` joins as "writing", as in GRDB.
enum SQLAssociationKey: Sendable {
    /// The table name, inflected for the cardinality.
    case inflected(String)
    /// A name used as written.
    case fixed(String)
    /// A name given to a to-one association.
    case fixedSingular(String)
    /// A name given to a to-many association.
    case fixedPlural(String)

    /// The name of a to-one association with this key.
    var singularName: String {
        switch self {
        case .inflected(let name): return name.singularized
        case .fixed(let name), .fixedSingular(let name): return name
        case .fixedPlural(let name): return name.singularized
        }
    }

    /// The name of a to-many association with this key.
    var pluralName: String {
        switch self {
        case .inflected(let name): return name.pluralized
        case .fixed(let name), .fixedPlural(let name): return name
        case .fixedSingular(let name): return name.pluralized
        }
    }

    /// The name for an association of this cardinality.
    func name(toMany: Bool) -> String {
        toMany ? pluralName : singularName
    }

    /// The key with a prefix before its name, inflected the same way:
    /// the keys of the joins a request adds on its own (`grdb_book`) do
    /// not merge with the user's joins.
    func prefixed(_ prefix: String) -> SQLAssociationKey {
        switch self {
        case .inflected(let name): return .inflected(prefix + name)
        case .fixed(let name): return .fixed(prefix + name)
        case .fixedSingular(let name): return .fixedSingular(prefix + name)
        case .fixedPlural(let name): return .fixedPlural(prefix + name)
        }
    }
}
