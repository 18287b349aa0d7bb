// Cursor operations that read the cursor to its end and return a value or an
// array. The cursor must be finite.

extension Cursor {
    /// The largest remaining element, according to `areInIncreasingOrder`, or
    /// nil if the cursor is exhausted. Of several largest elements, the first
    /// one is returned.
    ///
    /// ```swift
    /// let longest = try String.fetchCursor(db, sql: "SELECT name FROM player")
    ///     .max(by: { $0.count < $1.count })
    /// ```
    ///
    /// - parameter areInIncreasingOrder: Whether its first argument should be
    ///   ordered before its second argument.
    /// - throws: The error of the cursor or of `areInIncreasingOrder`.
    public func max(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var largest = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(largest, element) { largest = element }
        }
        return largest
    }

    /// The smallest remaining element, according to `areInIncreasingOrder`,
    /// or nil if the cursor is exhausted. Of several smallest elements, the
    /// first one is returned.
    ///
    /// ```swift
    /// let shortest = try String.fetchCursor(db, sql: "SELECT name FROM player")
    ///     .min(by: { $0.count < $1.count })
    /// ```
    ///
    /// - parameter areInIncreasingOrder: Whether its first argument should be
    ///   ordered before its second argument.
    /// - throws: The error of the cursor or of `areInIncreasingOrder`.
    public func min(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var smallest = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(element, smallest) { smallest = element }
        }
        return smallest
    }

    /// An array of the remaining elements but the last `n`. Empty if the
    /// cursor has `n` elements or fewer.
    ///
    /// ```swift
    /// // [1, 2, 3]
    /// let head = try AnyCursor([1, 2, 3, 4, 5]).dropLast(2)
    /// ```
    ///
    /// - precondition: `n` is not negative.
    /// - throws: The error of the cursor.
    public func dropLast(_ n: Int) throws -> [Element] {
        precondition(n >= 0, "can't drop a negative number of elements from a cursor")
        var result: [Element] = []
        // The last `n` elements read are held back in a ring: each new one
        // releases the oldest held element into the result.
        var held: [Element] = []
        held.reserveCapacity(n)
        var oldest = 0
        while let element = try next() {
            if held.count < n {
                held.append(element)
            } else if n == 0 {
                result.append(element)
            } else {
                result.append(held[oldest])
                held[oldest] = element
                oldest = (oldest + 1) % n
            }
        }
        return result
    }

    /// An array of the remaining elements but the last one. Empty if the
    /// cursor has one element or none.
    ///
    /// - throws: The error of the cursor.
    public func dropLast() throws -> [Element] {
        try dropLast(1)
    }

    /// An array of the last `maxLength` remaining elements, or of all of them
    /// if there are fewer. With a `maxLength` of zero, nothing is read.
    ///
    /// ```swift
    /// // [4, 5]
    /// let tail = try AnyCursor([1, 2, 3, 4, 5]).suffix(2)
    /// ```
    ///
    /// - precondition: `maxLength` is not negative.
    /// - throws: The error of the cursor.
    public func suffix(_ maxLength: Int) throws -> [Element] {
        precondition(maxLength >= 0, "can't take a suffix of negative length from a cursor")
        if maxLength == 0 { return [] }
        // The last `maxLength` elements read, in a ring whose oldest element
        // is at `oldest` once it is full.
        var kept: [Element] = []
        kept.reserveCapacity(maxLength)
        var oldest = 0
        while let element = try next() {
            if kept.count < maxLength {
                kept.append(element)
            } else {
                kept[oldest] = element
                oldest = (oldest + 1) % maxLength
            }
        }
        return Array(kept[oldest...] + kept[..<oldest])
    }
}

extension Cursor where Element: Comparable {
    /// The largest remaining element, or nil if the cursor is exhausted.
    ///
    /// ```swift
    /// let best = try Int.fetchCursor(db, sql: "SELECT score FROM player").max()
    /// ```
    ///
    /// - throws: The error of the cursor.
    public func max() throws -> Element? {
        try max(by: <)
    }

    /// The smallest remaining element, or nil if the cursor is exhausted.
    ///
    /// ```swift
    /// let worst = try Int.fetchCursor(db, sql: "SELECT score FROM player").min()
    /// ```
    ///
    /// - throws: The error of the cursor.
    public func min() throws -> Element? {
        try min(by: <)
    }
}

extension Cursor where Element: StringProtocol {
    /// The remaining strings, concatenated, with `separator` between two.
    ///
    /// ```swift
    /// // "Arthur, Barbara"
    /// let names = try String.fetchCursor(db, sql: "SELECT name FROM player ORDER BY name")
    ///     .joined(separator: ", ")
    /// ```
    ///
    /// - throws: The error of the cursor.
    public func joined(separator: String = "") throws -> String {
        var result = ""
        guard let first = try next() else { return result }
        result.append(contentsOf: first)
        while let element = try next() {
            result.append(separator)
            result.append(contentsOf: element)
        }
        return result
    }
}
