/// Whether ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``
/// prints the name of each table above its rows.
public enum DumpTableHeaderOptions: Sendable {
    /// Table names are printed only when several tables are dumped.
    case automatic

    /// Table names are always printed.
    case always
}
