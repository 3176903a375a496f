/// Conversions between seconds since 2001-01-01T00:00:00Z and calendar
/// fields in the proleptic Gregorian calendar, as CF uses for XML dates
/// (swift-foundation's Codable path uses a Julian/Gregorian hybrid before
/// 1582 and disagrees; we follow CF and plistlib).
struct GregorianDate: Equatable {
    var year: Int64
    var month, day, hour, minute, second: Int

    static let secondsFrom1970To2001: Int64 = 978_307_200

    /// The dates every reader and writer accepts: finite, in the years
    /// −9999 … 9999 that the XML form's four-digit year can spell (Python's
    /// plistlib cannot even go beyond 9999). CF takes any double, NaN
    /// included, and Foundation's `Date.description` then traps on it.
    static let representableSeconds: Range<Double> = {
        let first = daysSince1970(year: -9999, month: 1, day: 1) * 86_400 - secondsFrom1970To2001
        let afterLast = daysSince1970(year: 10_000, month: 1, day: 1) * 86_400 - secondsFrom1970To2001
        return Double(first)..<Double(afterLast)
    }()

    /// Whether `seconds` since 2001 is a date property lists may hold.
    static func isRepresentable(_ seconds: Double) -> Bool {
        representableSeconds.contains(seconds)
    }

    /// Days since 1970-01-01 of a civil date (after H. Hinnant's algorithm).
    static func daysSince1970(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int64) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Seconds since the 2001 reference date.
    var secondsSince2001: Int64 {
        let days = Self.daysSince1970(year: year, month: month, day: day)
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Self.secondsFrom1970To2001
    }

    /// The calendar fields of a whole number of seconds since 2001. The caller keeps
    /// `seconds` within ±2⁵⁶ so no arithmetic overflows.
    init(secondsSince2001 seconds: Int64) {
        let unix = seconds + Self.secondsFrom1970To2001
        var days = unix / 86_400
        var remainder = unix % 86_400
        if remainder < 0 {
            remainder += 86_400
            days -= 1
        }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        month = Int(mp < 10 ? mp + 3 : mp - 9)
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = Int(remainder / 3600)
        minute = Int(remainder % 3600 / 60)
        second = Int(remainder % 60)
    }

    init(year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }
}
