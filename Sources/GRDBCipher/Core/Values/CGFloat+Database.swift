import Foundation

/// `CGFloat` is stored as a real, as GRDB stores it.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO shape (width) VALUES (?)", arguments: [CGFloat(1.5)])
/// let width = try CGFloat.fetchOne(db, sql: "SELECT width FROM shape")
/// ```
extension CGFloat: DatabaseValueConvertible {
    /// The value as a real.
    public var databaseValue: DatabaseValue {
        Double(self).databaseValue
    }

    /// A value from an integer or a real; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CGFloat? {
        guard let double = Double.fromDatabaseValue(dbValue) else { return nil }
        return CGFloat(double)
    }
}
