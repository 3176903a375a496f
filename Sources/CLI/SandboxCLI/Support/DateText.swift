import Foundation

/// Dates as text, in UTC and the proleptic Gregorian calendar (as CF and
/// XML property lists use it), computed with integer arithmetic.
///
/// Foundation's formatters are avoided on purpose: `Date.description` traps on
/// the NaN and huge dates a binary property list may hold, and its calendar
/// switches to Julian before 1582.
enum DateText {
    /// The calendar fields of a date, to the whole second (rounded down).
    struct Fields: Hashable, Sendable {
        var year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64
    }

    /// Seconds between 1970 and a date beyond which text is not attempted
    /// (about 300 000 years), so the arithmetic cannot overflow.
    static let largestMagnitude = 1e13

    /// The fields of `date`, or `nil` if it is NaN, infinite or out of range.
    static func fields(of date: Date) -> Fields? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < largestMagnitude else { return nil }
        let total = Int64(seconds)
        let days = floorDivide(total, 86_400)
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        return Fields(year: year, month: month, day: day, hour: secondOfDay / 3600,
                      minute: secondOfDay % 3600 / 60, second: secondOfDay % 60)
    }

    /// `2024-01-31 13:45:00 +0000`, the shape `plutil -p` shows; an
    /// unrepresentable date shows its raw interval instead.
    static func readable(_ date: Date) -> String {
        guard let f = fields(of: date) else { return "<date \(date.timeIntervalSinceReferenceDate)>" }
        return "\(year(f.year))-\(two(f.month))-\(two(f.day)) \(two(f.hour)):\(two(f.minute)):\(two(f.second)) +0000"
    }

    /// `2024-01-31T13:45:00Z` (RFC 3339 in UTC, as XML property lists write
    /// dates), or `nil` for an unrepresentable date.
    static func iso8601(_ date: Date) -> String? {
        guard let f = fields(of: date) else { return nil }
        return "\(year(f.year))-\(two(f.month))-\(two(f.day))T\(two(f.hour)):\(two(f.minute)):\(two(f.second))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ`, optionally with a fraction of a second
    /// (`…:SS.25Z`) and a `-` before the year; `nil` if malformed or out of range.
    static func parseISO8601(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        let negative = scanner.take(UInt8(ascii: "-"))
        guard let rawYear = scanner.number(minimumDigits: 4, maximumDigits: 9),
              scanner.take(UInt8(ascii: "-")), let month = scanner.number(digits: 2),
              scanner.take(UInt8(ascii: "-")), let day = scanner.number(digits: 2),
              scanner.take(UInt8(ascii: "T")), let hour = scanner.number(digits: 2),
              scanner.take(UInt8(ascii: ":")), let minute = scanner.number(digits: 2),
              scanner.take(UInt8(ascii: ":")), let second = scanner.number(digits: 2)
        else { return nil }
        var fraction = 0.0
        if scanner.take(UInt8(ascii: ".")) {
            let digits = scanner.digits()
            guard (1...9).contains(digits.count),
                  let value = Double("0." + String(decoding: digits, as: UTF8.self)) else { return nil }
            fraction = value
        }
        guard scanner.take(UInt8(ascii: "Z")), scanner.atEnd else { return nil }
        let year = negative ? -rawYear : rawYear
        guard (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = days(fromCivilYear: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    // MARK: - Calendar arithmetic

    /// Days since 1970-01-01 of a proleptic Gregorian date. The calendar is
    /// counted in 400-year eras (146 097 days each) starting on 1 March, so
    /// that the leap day falls at the end of the counted year.
    static func days(fromCivilYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let era = floorDivide(marchYear, 400)
        let yearOfEra = marchYear - era * 400
        let marchMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01; the inverse of
    /// ``days(fromCivilYear:month:day:)``.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    private static func two(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// At least four digits, with a leading `-` before year 0.
    private static func year(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// A cursor over ASCII bytes for the fixed-layout date grammar.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func digits() -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return bytes[start..<index]
        }

        mutating func number(digits count: Int) -> Int64? {
            number(minimumDigits: count, maximumDigits: count)
        }

        mutating func number(minimumDigits: Int, maximumDigits: Int) -> Int64? {
            let run = digits()
            guard (minimumDigits...maximumDigits).contains(run.count) else { return nil }
            return run.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        }
    }
}
