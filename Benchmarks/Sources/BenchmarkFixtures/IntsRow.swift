// Shared with Benchmarks/SideBySide.

/// The row shape of the `ints` table, decoded by workload 3.
public struct IntsRow: Sendable {
    public var c0, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int64

    public init(c0: Int64, c1: Int64, c2: Int64, c3: Int64, c4: Int64,
                c5: Int64, c6: Int64, c7: Int64, c8: Int64, c9: Int64)
    {
        (self.c0, self.c1, self.c2, self.c3, self.c4) = (c0, c1, c2, c3, c4)
        (self.c5, self.c6, self.c7, self.c8, self.c9) = (c5, c6, c7, c8, c9)
    }

    /// A checksum, so that the optimizer keeps the decoding.
    public var sum: Int64 { c0 &+ c1 &+ c2 &+ c3 &+ c4 &+ c5 &+ c6 &+ c7 &+ c8 &+ c9 }
}
