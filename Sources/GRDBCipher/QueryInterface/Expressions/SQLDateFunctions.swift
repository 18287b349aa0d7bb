/// A modifier of SQLite's date functions (`'1 days'`, `'start of month'`,
/// ...), bound as an argument.
///
/// ```swift
/// dateTime(Column("date"), .day(1), .startOfDay)   // DATETIME("date", ?, ?)
/// ```
///
/// See <https://www.sqlite.org/lang_datefunc.html>.
public enum SQLDateModifier: SQLSpecificExpressible, Sendable {
    /// Adds seconds: `'1.5 seconds'`.
    case second(Double)
    /// Adds minutes: `'5 minutes'`.
    case minute(Int)
    /// Adds hours: `'2 hours'`.
    case hour(Int)
    /// Adds days: `'1 days'`.
    case day(Int)
    /// Adds months: `'1 months'`.
    case month(Int)
    /// Adds years: `'1 years'`.
    case year(Int)
    /// Goes back to the start of the day: `'start of day'`.
    case startOfDay
    /// Goes back to the start of the month: `'start of month'`.
    case startOfMonth
    /// Goes back to the start of the year: `'start of year'`.
    case startOfYear
    /// Goes forward to the next given weekday, 0 for Sunday: `'weekday 0'`.
    case weekday(Int)
    /// Reads a number as seconds since 1970: `'unixepoch'`.
    case unixEpoch
    /// Converts UTC to local time: `'localtime'`.
    case localTime
    /// Converts local time to UTC: `'utc'`.
    case utc

    /// The modifier's text, bound as an argument.
    public var sqlExpression: SQLExpression { modifierText.sqlExpression }

    /// The text SQLite reads.
    var modifierText: String {
        switch self {
        case .second(let seconds): "\(seconds) seconds"
        case .minute(let minutes): "\(minutes) minutes"
        case .hour(let hours): "\(hours) hours"
        case .day(let days): "\(days) days"
        case .month(let months): "\(months) months"
        case .year(let years): "\(years) years"
        case .startOfDay: "start of day"
        case .startOfMonth: "start of month"
        case .startOfYear: "start of year"
        case .weekday(let weekday): "weekday \(weekday)"
        case .unixEpoch: "unixepoch"
        case .localTime: "localtime"
        case .utc: "utc"
        }
    }
}

/// `JULIANDAY(value, modifiers...)`: the date as a Julian day number.
///
/// ```swift
/// julianDay(Column("date"))            // JULIANDAY("date")
/// julianDay(Column("date"), .day(1))   // JULIANDAY("date", ?)  -- '1 days'
/// ```
public func julianDay(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    SQLExpression(.function("JULIANDAY", [value.sqlExpression] + modifiers.map({ $0.sqlExpression })))
}

/// `DATETIME(value, modifiers...)`: the date as `YYYY-MM-DD HH:MM:SS` text.
///
/// ```swift
/// dateTime(Column("date"))                 // DATETIME("date")
/// dateTime(Column("date"), .startOfDay)    // DATETIME("date", ?)  -- 'start of day'
/// ```
public func dateTime(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    SQLExpression(.function("DATETIME", [value.sqlExpression] + modifiers.map({ $0.sqlExpression })))
}
