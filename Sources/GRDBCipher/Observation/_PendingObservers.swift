// TEMPORARY stand-ins until helper-observers is merged. Not committed.
import Foundation
public struct DatabaseRegion: Sendable, Equatable, CustomStringConvertible {
    var tables: Set<String>?
    public init() { tables = [] }
    init(tables: Set<String>?) { self.tables = tables }
    public static let fullDatabase = DatabaseRegion(tables: nil)
    public mutating func formUnion(_ other: DatabaseRegion) {
        guard let t = tables, let o = other.tables else { tables = nil; return }
        tables = t.union(o)
    }
    public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool { tables?.contains(eventKind.tableName) ?? true }
    public func isModified(by event: DatabaseEvent) -> Bool { tables?.contains(event.tableName) ?? true }
    func observableRegion(_ db: Database) throws -> DatabaseRegion { self }
    public var description: String { tables.map { $0.sorted().joined(separator: ",") } ?? "full database" }
}
public protocol DatabaseRegionConvertible: Sendable { func databaseRegion(_ db: Database) throws -> DatabaseRegion }
extension DatabaseRegion: DatabaseRegionConvertible { public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self } }
public enum DatabaseEventKind: Sendable {
    case insert(tableName: String), delete(tableName: String), update(tableName: String, columnNames: Set<String>)
    public var tableName: String { switch self { case .insert(let t), .delete(let t), .update(let t, _): t } }
}
public struct DatabaseEvent { public var tableName: String; public var databaseName: String }
public protocol TransactionObserver: AnyObject {
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool
    func databaseDidChange(with event: DatabaseEvent)
    func databaseDidCommit(_ db: Database)
    func databaseDidRollback(_ db: Database)
    func databaseDidChange()
}
extension TransactionObserver { public func stopObservingDatabaseChangesUntilNextTransaction() {} }
extension Database {
    public enum TransactionObservationExtent { case observerLifetime }
    public func add(transactionObserver: some TransactionObserver, extent: TransactionObservationExtent) {}
    public func remove(transactionObserver: some TransactionObserver) {}
    func recordingSelectedRegion<T>(_ body: () throws -> T) rethrows -> (T, DatabaseRegion) { (try body(), .fullDatabase) }
}
public protocol DatabaseCancellable: Sendable { func cancel() }
public final class AnyDatabaseCancellable: DatabaseCancellable {
    private let c: LockedValue<(@Sendable () -> Void)?>
    public init(cancel: @escaping @Sendable () -> Void) { c = LockedValue(cancel) }
    deinit { cancel() }
    public func cancel() { let f = c.withLock { f in defer { f = nil }; return f }; f?() }
}
extension Table: DatabaseRegionConvertible { public func databaseRegion(_ db: Database) throws -> DatabaseRegion { DatabaseRegion(tables: [tableName]) } }
