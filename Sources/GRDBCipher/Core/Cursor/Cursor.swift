/// A lazy sequence of elements whose iteration can throw, such as the rows of
/// a query. A cursor reads from the database as you iterate: use it inside
/// the database access that created it.
///
/// ```swift
/// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
/// while let name = try names.next() {
///     print(name)
/// }
/// ```
public protocol Cursor<Element>: AnyObject {
    /// The type of the elements.
    associatedtype Element

    /// Advances and returns the next element, or nil when there is none.
    ///
    /// - throws: An error if the element cannot be produced (a database error).
    func next() throws -> Element?

    /// Calls `body` on each remaining element, in order, until the cursor is
    /// exhausted or an error is thrown. The default implementation calls
    /// ``next()`` until it returns nil.
    ///
    /// - throws: The error of the cursor or of `body`.
    func forEach(_ body: (Element) throws -> Void) throws
}

extension Cursor {
    /// Calls `body` on each remaining element.
    ///
    /// - throws: The error of the cursor or of `body`.
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() {
            try body(element)
        }
    }

    /// A cursor of the transformed elements, computed lazily.
    public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
        MapCursor(self, transform)
    }

    /// A cursor of the non-nil transformed elements, computed lazily.
    ///
    /// The result type is GRDB's: a map to optionals, a filter of the nils,
    /// and an unwrapping map.
    public func compactMap<ElementOfResult>(_ transform: @escaping (Element) throws -> ElementOfResult?)
        -> MapCursor<FilterCursor<MapCursor<Self, ElementOfResult?>>, ElementOfResult>
    {
        // The filter lets only non-nil values through, so the unwrap cannot fail.
        map(transform).filter { $0 != nil }.map { $0.unsafelyUnwrapped }
    }

    /// A cursor of the elements that satisfy `isIncluded`, computed lazily.
    public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
        FilterCursor(self, isIncluded)
    }

    /// A cursor of at most `maxLength` elements.
    public func prefix(_ maxLength: Int) -> PrefixCursor<Self> {
        PrefixCursor(self, maxLength: maxLength)
    }

    /// A cursor that skips the first `n` elements.
    public func dropFirst(_ n: Int = 1) -> DropFirstCursor<Self> {
        DropFirstCursor(self, count: n)
    }

    /// Whether an element satisfies `predicate`. Stops at the first match.
    ///
    /// - throws: The error of the cursor or of `predicate`.
    public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
        try first(where: predicate) != nil
    }

    /// The first element that satisfies `predicate`. Stops at the first match.
    ///
    /// - throws: The error of the cursor or of `predicate`.
    public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
        while let element = try next() {
            if try predicate(element) { return element }
        }
        return nil
    }

    /// Combines the remaining elements.
    ///
    /// - throws: The error of the cursor or of `nextPartialResult`.
    public func reduce<Result>(
        _ initialResult: Result, _ nextPartialResult: (Result, Element) throws -> Result) throws -> Result
    {
        var result = initialResult
        while let element = try next() {
            result = try nextPartialResult(result, element)
        }
        return result
    }

    /// Combines the remaining elements into a mutable result.
    ///
    /// - throws: The error of the cursor or of `updateAccumulatingResult`.
    public func reduce<Result>(
        into initialResult: Result, _ updateAccumulatingResult: (inout Result, Element) throws -> Void) throws -> Result
    {
        var result = initialResult
        while let element = try next() {
            try updateAccumulatingResult(&result, element)
        }
        return result
    }

    /// Whether the cursor has no more element. Consumes one element.
    ///
    /// - throws: The error of the cursor.
    public var isEmpty: Bool {
        get throws { try next() == nil }
    }
}

extension Cursor where Element: Equatable {
    /// Whether the cursor has this element. Stops at the first match.
    ///
    /// - throws: The error of the cursor.
    public func contains(_ element: Element) throws -> Bool {
        try contains { $0 == element }
    }
}

/// A cursor of transformed elements. See ``Cursor/map(_:)``.
public final class MapCursor<Base: Cursor, Element>: Cursor {
    private let base: Base
    private let transform: (Base.Element) throws -> Element

    init(_ base: Base, _ transform: @escaping (Base.Element) throws -> Element) {
        self.base = base
        self.transform = transform
    }

    /// The next transformed element.
    ///
    /// - throws: The error of the base cursor or of the closure.
    public func next() throws -> Element? {
        try base.next().map(transform)
    }

    /// Calls `body` on each remaining transformed element. The base cursor
    /// iterates with its own `forEach`, which may differ from calls to
    /// `next()` (a cursor of a database access reads its rows that way).
    ///
    /// - throws: The error of the base cursor, of the closure, or of `body`.
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { try body(transform($0)) }
    }
}

/// A cursor of the first elements of another. See ``Cursor/prefix(_:)``.
public final class PrefixCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var remaining: Int

    init(_ base: Base, maxLength: Int) {
        precondition(maxLength >= 0, "prefix length must not be negative")
        self.base = base
        self.remaining = maxLength
    }

    /// The next element, or nil once `maxLength` elements were returned.
    ///
    /// - throws: The error of the base cursor or of the closure.
    public func next() throws -> Base.Element? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return try base.next()
    }
}

/// A cursor that skips the first elements of another. See ``Cursor/dropFirst(_:)``.
public final class DropFirstCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var toDrop: Int

    init(_ base: Base, count: Int) {
        precondition(count >= 0, "drop count must not be negative")
        self.base = base
        self.toDrop = count
    }

    /// The next element after the dropped ones.
    ///
    /// - throws: The error of the base cursor or of the closure.
    public func next() throws -> Base.Element? {
        while toDrop > 0 {
            toDrop -= 1
            guard try base.next() != nil else { return nil }
        }
        return try base.next()
    }
}

/// A cursor over a closure or a sequence.
public final class AnyCursor<Element>: Cursor {
    private let nextElement: () throws -> Element?

    /// Creates a cursor that calls `next` for each element.
    public init(_ next: @escaping () throws -> Element?) {
        self.nextElement = next
    }

    /// Creates a cursor that wraps another.
    public convenience init<C: Cursor>(_ base: C) where C.Element == Element {
        self.init { try base.next() }
    }

    /// Creates a cursor over a sequence.
    public convenience init<S: Sequence>(_ sequence: S) where S.Element == Element {
        self.init(iterator: sequence.makeIterator())
    }

    /// Creates a cursor over the elements an iterator has left.
    public convenience init(iterator: some IteratorProtocol<Element>) {
        var iterator = iterator
        self.init { iterator.next() }
    }

    /// The next element.
    ///
    /// - throws: The error of the base cursor or of the closure.
    public func next() throws -> Element? {
        try nextElement()
    }
}
