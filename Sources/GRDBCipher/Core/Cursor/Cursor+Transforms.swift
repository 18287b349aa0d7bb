// Lazy cursor transforms: each returns a cursor that does its work inside
// `next()`, one base element at a time. Nothing is read when the transform is
// created.

extension Cursor {
    /// A cursor of pairs `(n, x)`, where `n` counts from zero and `x` is an
    /// element of this cursor.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, sql: "SELECT name FROM player ORDER BY score DESC")
    /// let ranked = names.enumerated()
    /// while let (rank, name) = try ranked.next() {
    ///     print("\(rank + 1). \(name)")
    /// }
    /// ```
    public func enumerated() -> EnumeratedCursor<Self> {
        EnumeratedCursor(self)
    }

    /// A cursor that skips the leading elements that satisfy `predicate`, then
    /// returns all the others.
    ///
    /// Once `predicate` returns false it is not called again.
    ///
    /// ```swift
    /// // [3, 1]
    /// let rest = try Array(AnyCursor([1, 2, 3, 1]).drop(while: { $0 < 3 }))
    /// ```
    public func drop(while predicate: @escaping (Element) throws -> Bool) -> DropWhileCursor<Self> {
        DropWhileCursor(self, predicate: predicate)
    }

    /// A cursor of the leading elements that satisfy `predicate`. It ends at
    /// the first element that does not, which is read from this cursor but
    /// not returned.
    ///
    /// Once `predicate` returns false it is not called again.
    ///
    /// ```swift
    /// // [1, 2]
    /// let head = try Array(AnyCursor([1, 2, 3, 1]).prefix(while: { $0 < 3 }))
    /// ```
    public func prefix(while predicate: @escaping (Element) throws -> Bool) -> PrefixWhileCursor<Self> {
        PrefixWhileCursor(self, predicate: predicate)
    }

    /// A cursor of the elements of the cursors that `transform` returns for
    /// each element, concatenated.
    ///
    /// ```swift
    /// let teamIDs = try Int64.fetchCursor(db, sql: "SELECT id FROM team")
    /// let players = teamIDs.flatMap { id in
    ///     try String.fetchCursor(db, sql: "SELECT name FROM player WHERE teamID = ?", arguments: [id])
    /// }
    /// ```
    public func flatMap<SegmentOfResult>(_ transform: @escaping (Element) throws -> SegmentOfResult)
        -> FlattenCursor<MapCursor<Self, SegmentOfResult>>
        where SegmentOfResult: Cursor
    {
        FlattenCursor(map(transform))
    }

    /// A cursor of the elements of the sequences that `transform` returns for
    /// each element, concatenated.
    ///
    /// ```swift
    /// // ["a", "b", "c"]
    /// let letters = try Array(AnyCursor(["ab", "c"]).flatMap { $0 })
    /// ```
    public func flatMap<SegmentOfResult>(_ transform: @escaping (Element) throws -> SegmentOfResult)
        -> FlattenCursor<MapCursor<Self, AnyCursor<SegmentOfResult.Element>>>
        where SegmentOfResult: Sequence
    {
        FlattenCursor(map { try AnyCursor(transform($0)) })
    }
}

extension Cursor where Element: Cursor {
    /// A cursor of the elements of this cursor's cursors, concatenated.
    public func joined() -> FlattenCursor<Self> {
        FlattenCursor(self)
    }
}

extension Cursor where Element: Sequence {
    /// A cursor of the elements of this cursor's sequences, concatenated.
    ///
    /// ```swift
    /// // [1, 2, 3]
    /// let numbers = try Array(AnyCursor([[1, 2], [], [3]]).joined())
    /// ```
    public func joined() -> FlattenCursor<MapCursor<Self, AnyCursor<Element.Element>>> {
        flatMap { $0 }
    }
}

extension Sequence {
    /// A cursor of the elements of the cursors that `transform` returns for
    /// each element of this sequence, concatenated. `transform` is called
    /// lazily, as the cursor is iterated.
    ///
    /// ```swift
    /// let names = [1, 2].flatMap { teamID in
    ///     try String.fetchCursor(db, sql: "SELECT name FROM player WHERE teamID = ?", arguments: [teamID])
    /// }
    /// ```
    public func flatMap<SegmentOfResult: Cursor>(_ transform: @escaping (Element) throws -> SegmentOfResult)
        -> FlattenCursor<MapCursor<AnyCursor<Element>, SegmentOfResult>>
    {
        AnyCursor(self).flatMap(transform)
    }
}

/// A cursor of elements paired with their position. See ``Cursor/enumerated()``.
public final class EnumeratedCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var offset = 0

    init(_ base: Base) {
        self.base = base
    }

    /// The next element and its position, counted from zero.
    ///
    /// - throws: The error of the base cursor.
    public func next() throws -> (Int, Base.Element)? {
        guard let element = try base.next() else { return nil }
        let pair = (offset, element)
        offset += 1
        return pair
    }

    /// Calls `body` on each remaining element and its position, through
    /// the base cursor's own `forEach` (see `MapCursor.forEach(_:)`).
    ///
    /// - throws: The error of the base cursor or of `body`.
    public func forEach(_ body: ((Int, Base.Element)) throws -> Void) throws {
        try base.forEach { element in
            let pair = (offset, element)
            offset += 1
            try body(pair)
        }
    }
}

/// A cursor of the elements of another that satisfy a predicate. See
/// ``Cursor/filter(_:)``.
public final class FilterCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let isIncluded: (Base.Element) throws -> Bool

    init(_ base: Base, _ isIncluded: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
    }

    /// The next element that satisfies the predicate.
    ///
    /// - throws: The error of the base cursor or of the predicate.
    public func next() throws -> Base.Element? {
        while let element = try base.next() {
            if try isIncluded(element) { return element }
        }
        return nil
    }

    /// Calls `body` on each remaining element that satisfies the predicate,
    /// through the base cursor's own `forEach` (see `MapCursor.forEach(_:)`).
    ///
    /// - throws: The error of the base cursor, of the predicate, or of `body`.
    public func forEach(_ body: (Base.Element) throws -> Void) throws {
        try base.forEach { element in
            if try isIncluded(element) { try body(element) }
        }
    }
}

/// A cursor of the elements of a cursor of cursors, concatenated. See
/// `Cursor/joined()` and `Cursor/flatMap(_:)`.
public final class FlattenCursor<Base: Cursor>: Cursor where Base.Element: Cursor {
    private let base: Base
    /// The inner cursor being read, nil before the first and between two.
    private var segment: Base.Element?

    init(_ base: Base) {
        self.base = base
    }

    /// The next element of the current inner cursor, moving on to the next
    /// inner cursor when this one is exhausted.
    ///
    /// - throws: The error of the base cursor or of an inner cursor.
    public func next() throws -> Base.Element.Element? {
        while true {
            if let segment {
                if let element = try segment.next() { return element }
                // Release the exhausted segment before reading the next one:
                // a database cursor resets its statement when it goes away.
                self.segment = nil
            }
            guard let nextSegment = try base.next() else { return nil }
            segment = nextSegment
        }
    }
}

/// A cursor that skips the leading elements of another that satisfy a
/// predicate. See ``Cursor/drop(while:)``.
public final class DropWhileCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var isDropping = true

    init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    /// The next element after the skipped ones.
    ///
    /// - throws: The error of the base cursor or of the predicate.
    public func next() throws -> Base.Element? {
        guard isDropping else { return try base.next() }
        while let element = try base.next() {
            if try !predicate(element) {
                isDropping = false
                return element
            }
        }
        return nil
    }
}

/// A cursor of the leading elements of another that satisfy a predicate. See
/// ``Cursor/prefix(while:)``.
public final class PrefixWhileCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var isTaking = true

    init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    /// The next element, or nil from the first element that fails the
    /// predicate on.
    ///
    /// - throws: The error of the base cursor or of the predicate.
    public func next() throws -> Base.Element? {
        guard isTaking, let element = try base.next() else { return nil }
        if try predicate(element) { return element }
        isTaking = false
        return nil
    }
}
