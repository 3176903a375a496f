import Foundation

/// Dates as text for the OpenStep and JSON formats, neither of which has a
/// date type of its own.
///
/// Calendar arithmetic is proleptic Gregorian in UTC, as CF uses for XML
/// dates, so a date before 1582 names the same day in every format.
/// Fractional seconds are written with the fewest digits that read back to
/// the same `Date`, and only when the date is not a whole second.
enum PropertyListDateText {
    /// The calendar fields of a moment, in UTC.
    typealias Fields = GregorianDate

    /// How a date is laid out.
    enum Style {
        /// `2001-01-01 00:00:00 +0000`, as GNUstep writes `<*D…>` dates.
        case openStep
        /// `2001-01-01T00:00:00Z`, ISO 8601 / RFC 3339.
        case iso8601
    }

    static func daysIn(month: Int, year: Int64) -> Int { GregorianDate.daysIn(month: month, year: year) }

    static func secondsSince2001(_ fields: Fields) -> Int64 { fields.secondsSince2001 }

    // MARK: Writing

    /// Appends `date` in `style`; returns `false` (appending nothing) when
    /// it is NaN, infinite or too far from 2001 to write.
    static func append(_ date: Date, style: Style, to output: inout ByteBuffer) -> Bool {
        let interval = date.timeIntervalSinceReferenceDate
        guard GregorianDate.isRepresentable(interval) else { return false }
        let whole = interval.rounded(.down)
        let seconds = Int64(whole)
        let fields = GregorianDate(secondsSince2001: seconds)
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
        XMLDateFormat.appendPadded(value, width: width, to: &output)
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
        guard GregorianDate.isRepresentable(Double(seconds)) else { return nil }
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
