/// GRDB's name for the standard `SendableMetatype` protocol (Swift 6.2),
/// for code that spells constraints as GRDB does:
///
/// ```swift
/// func fetchAll<T: DatabaseValueConvertible & GRDBSendableMetatype>(_ type: T.Type, ...)
/// ```
public typealias GRDBSendableMetatype = SendableMetatype
