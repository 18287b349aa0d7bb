/// The key of an association: the name of its scope in fetched rows, and
/// of the property it feeds in a decoded record.
///
/// By default it is the destination table name, singularized for a to-one
/// association ("author") and pluralized for a to-many one ("books"). A key
/// given with `key:` is used as written; one given with `forKey(_:)` is
/// written for the cardinality of the association that received it.
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
}
