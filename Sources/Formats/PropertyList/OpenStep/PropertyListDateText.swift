import Foundation

/// Dates as text for the OpenStep and JSON formats, neither of which has a
/// date type of its own.
///
/// Calendar arithmetic is proleptic Gregorian in UTC, as CF uses for XML
/// dates, so a date before 1582 names the same day in every format.
/// Fractional seconds are written with the fewest digits that read back to
/// the same `Date`, and only when the date is not a whole second.
enum PropertyListDateText {
    /// The largest distance from 2001 written as text (2⁵³ seconds, about
    /// 285 million years): beyond it whole seconds are no longer exact.
    static let maximumMagnitude: Double = 9_007_199_254_740_992

    /// The calendar fields of a moment, in UTC.
    struct Fields: Equatable {
        var year: Int64
        var month: Int
        var day: Int
        var hour: Int
        var minute: Int
        var second: Int
    }

    /// How a date is laid out.
    enum Style {
        /// `2001-01-01 00:00:00 +0000`, as GNUstep writes `<*D…>` dates.
        case openStep
        /// `2001-01-01T00:00:00Z`, ISO 8601 / RFC 3339.
        case iso8601
    }

    static let secondsFrom1970To2001: Int64 = 978_307_200

    // MARK: Calendar arithmetic

    /// Days from 1970-01-01 to the given day. Years are counted from March
    /// so the leap day falls at the end of each year, and whole 400-year
    /// cycles (146 097 days each) are split off first so negative years
    /// work with plain division.
    static func daysSince1970(year: Int64, month: Int, day: Int) -> Int64 {
        let marchYear = month > 2 ? year : year - 1
        let monthFromMarch = Int64(month > 2 ? month - 3 : month + 9)
        let cycle = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearInCycle = marchYear - cycle * 400
        let dayInYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1
        let dayInCycle = yearInCycle * 365 + yearInCycle / 4 - yearInCycle / 100 + dayInYear
        // 719 468 days separate 0000-03-01 from 1970-01-01.
        return cycle * 146_097 + dayInCycle - 719_468
    }

    /// The calendar fields of a whole number of seconds since 2001, for
    /// magnitudes up to ``maximumMagnitude``.
    static func fields(secondsSince2001 seconds: Int64) -> Fields {
        let unixSeconds = seconds + secondsFrom1970To2001
        let secondOfDay = ((unixSeconds % 86_400) + 86_400) % 86_400
        let daysFromMarch0000 = (unixSeconds - secondOfDay) / 86_400 + 719_468
        let cycle = (daysFromMarch0000 >= 0 ? daysFromMarch0000 : daysFromMarch0000 - 146_096) / 146_097
        let dayInCycle = daysFromMarch0000 - cycle * 146_097
        // Leap days before `dayInCycle` are subtracted so that 365 divides evenly.
        let yearInCycle = (dayInCycle - dayInCycle / 1_460 + dayInCycle / 36_524 - dayInCycle / 146_096) / 365
        let dayInYear = dayInCycle - (365 * yearInCycle + yearInCycle / 4 - yearInCycle / 100)
        let monthFromMarch = (5 * dayInYear + 2) / 153
        let month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
        return Fields(
            year: cycle * 400 + yearInCycle + (month <= 2 ? 1 : 0),
            month: month,
            day: Int(dayInYear - (153 * monthFromMarch + 2) / 5 + 1),
            hour: Int(secondOfDay / 3_600),
            minute: Int(secondOfDay % 3_600 / 60),
            second: Int(secondOfDay % 60))
    }

    static func secondsSince2001(_ fields: Fields) -> Int64 {
        let days = daysSince1970(year: fields.year, month: fields.month, day: fields.day)
        return days * 86_400 + Int64(fields.hour * 3_600 + fields.minute * 60 + fields.second) - secondsFrom1970To2001
    }

    static func daysIn(month: Int, year: Int64) -> Int {
        switch month {
        case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // MARK: Writing

    /// Appends `date` in `style`; returns `false` (appending nothing) when
    /// it is NaN, infinite or too far from 2001 to write.
    static func append(_ date: Date, style: Style, to output: inout ByteBuffer) -> Bool {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite, abs(interval) < maximumMagnitude else { return false }
        let whole = interval.rounded(.down)
        let seconds = Int64(whole)
        let fields = fields(secondsSince2001: seconds)
        if fields.year < 0 { output.append(UInt8(ascii: "-")) }
        appendPadded(fields.year.magnitude, width: 4, to: &output)
        output.append(UInt8(ascii: "-"))
        appendPadded(UInt64(fields.month), width: 2, to: &output)
        output.append(UInt8(ascii: "-"))
        appendPadded(UInt64(fields.day), width: 2, to: &output)
        output.append(style == .iso8601 ? UInt8(ascii: "T") : UInt8(ascii: " "))
        appendPadded(UInt64(fields.hour), width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(UInt64(fields.minute), width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(UInt64(fields.second), width: 2, to: &output)
        if whole != interval {
            output.append(UInt8(ascii: "."))
            output.append(utf8: fractionDigits(of: interval, wholeSeconds: seconds))
        }
        output.append(style == .iso8601 ? "Z" : " +0000")
        return true
    }

    static func appendPadded(_ value: UInt64, width: Int, to output: inout ByteBuffer) {
        var digits = 1
        var limit: UInt64 = 10
        while value >= limit, digits < 20 {
            digits += 1
            limit = limit.multipliedReportingOverflow(by: 10).partialValue
        }
        for _ in digits..<max(width, digits) { output.append(UInt8(ascii: "0")) }
        output.appendDecimal(value)
    }

    /// The shortest decimal digits `d` for which `wholeSeconds + 0.d` reads
    /// back (through ``fraction(digits:)``) as exactly `interval`.
    static func fractionDigits(of interval: Double, wholeSeconds: Int64) -> String {
        let part = interval - Double(wholeSeconds)
        var best = ""
        for places in 1...17 {
            let text = String(format: "%.\(places)f", part)
            // Rounding up to "1.000…" would need a carry into the seconds; more places avoid it.
            guard text.hasPrefix("0.") else { continue }
            let digits = String(text.dropFirst(2))
            best = digits
            if Double(wholeSeconds) + fraction(digits: digits) == interval { break }
        }
        return best
    }

    /// The value of the decimal fraction `0.digits`.
    static func fraction(digits: String) -> Double {
        Double("0." + digits) ?? 0
    }

    // MARK: Reading

    /// Parses `YYYY-MM-DD HH:MM:SS[.fraction] ±HHMM` (GNUstep's `<*D…>`
    /// form; the year may have up to nine digits and a leading `-`).
    static func parseOpenStep(_ text: UnsafeRawBufferPointer) -> Date? {
        var scanner = DigitScanner(text: text)
        let negativeYear = scanner.skip(UInt8(ascii: "-"))
        // Nine digits at most keeps the arithmetic below far from overflowing.
        guard let year = scanner.number(minDigits: 4, maxDigits: 9),
              scanner.skip(UInt8(ascii: "-")), let month = scanner.number(minDigits: 2, maxDigits: 2),
              scanner.skip(UInt8(ascii: "-")), let day = scanner.number(minDigits: 2, maxDigits: 2),
              scanner.skip(UInt8(ascii: " ")), let hour = scanner.number(minDigits: 2, maxDigits: 2),
              scanner.skip(UInt8(ascii: ":")), let minute = scanner.number(minDigits: 2, maxDigits: 2),
              scanner.skip(UInt8(ascii: ":")), let second = scanner.number(minDigits: 2, maxDigits: 2)
        else { return nil }
        var fractionText = ""
        if scanner.skip(UInt8(ascii: ".")) {
            let start = scanner.position
            guard scanner.number(minDigits: 1, maxDigits: 40) != nil else { return nil }
            fractionText = String(decoding: text[start..<scanner.position], as: UTF8.self)
        }
        guard scanner.skip(UInt8(ascii: " ")) else { return nil }
        let zoneSign: Int64
        if scanner.skip(UInt8(ascii: "+")) { zoneSign = 1 } else if scanner.skip(UInt8(ascii: "-")) { zoneSign = -1 } else { return nil }
        guard let zone = scanner.number(minDigits: 4, maxDigits: 4), scanner.isAtEnd else { return nil }
        let fields = Fields(year: negativeYear ? -year : year, month: Int(month), day: Int(day),
                            hour: Int(hour), minute: Int(minute), second: Int(second))
        guard (1...12).contains(fields.month), (1...daysIn(month: fields.month, year: fields.year)).contains(fields.day),
              fields.hour < 24, fields.minute < 60, fields.second < 60, zone / 100 < 24, zone % 100 < 60
        else { return nil }
        let seconds = secondsSince2001(fields) - zoneSign * (zone / 100 * 3_600 + zone % 100 * 60)
        guard abs(Double(seconds)) < maximumMagnitude else { return nil }
        let interval = fractionText.isEmpty ? Double(seconds) : Double(seconds) + fraction(digits: fractionText)
        return Date(timeIntervalSinceReferenceDate: interval)
    }

    /// Reads fixed-width decimal fields.
    struct DigitScanner {
        let text: UnsafeRawBufferPointer
        var position = 0

        var isAtEnd: Bool { position == text.count }

        mutating func skip(_ byte: UInt8) -> Bool {
            guard position < text.count, text[position] == byte else { return false }
            position += 1
            return true
        }

        /// A run of `minDigits…maxDigits` decimal digits.
        mutating func number(minDigits: Int, maxDigits: Int) -> Int64? {
            var value: Int64 = 0
            var count = 0
            while position < text.count, count < maxDigits, case let digit = text[position] &- 0x30, digit < 10 {
                value = value &* 10 &+ Int64(digit)
                count += 1
                position += 1
            }
            return count >= minDigits ? value : nil
        }
    }
}
