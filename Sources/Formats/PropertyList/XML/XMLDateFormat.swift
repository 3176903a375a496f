import Foundation

/// The `<date>` text form: `YYYY-MM-DDTHH:MM:SSZ` in UTC, proleptic Gregorian.
///
/// Writing floors to whole seconds, as CF does: sub-second precision is
/// lost in XML (binary keeps the exact `Double`). Reading also takes the
/// shortened forms the DTD allows (`2020-01-01Z`, `2020-01Z`) and a
/// fractional second (`…:05.25Z`).
enum XMLDateFormat {
    /// Appends the date as text, or returns `false` if it has no calendar
    /// form (see `GregorianDate.representableSeconds`).
    static func append(_ date: Date, to output: inout ByteBuffer) -> Bool {
        let interval = date.timeIntervalSinceReferenceDate.rounded(.down)
        guard GregorianDate.isRepresentable(interval) else { return false }
        let fields = GregorianDate(secondsSince2001: Int64(interval))
        // CF prints the year with "%04d": at least four characters, sign included.
        if fields.year < 0 {
            output.append(UInt8(ascii: "-"))
            appendPadded(UInt64(-fields.year), width: 3, to: &output)
        } else {
            appendPadded(UInt64(fields.year), width: 4, to: &output)
        }
        output.append(UInt8(ascii: "-"))
        appendPadded(UInt64(fields.month), width: 2, to: &output)
        output.append(UInt8(ascii: "-"))
        appendPadded(UInt64(fields.day), width: 2, to: &output)
        output.append(UInt8(ascii: "T"))
        appendPadded(UInt64(fields.hour), width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(UInt64(fields.minute), width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(UInt64(fields.second), width: 2, to: &output)
        output.append(UInt8(ascii: "Z"))
        return true
    }

    static func appendPadded(_ value: UInt64, width: Int, to output: inout ByteBuffer) {
        var digits = 1
        var scale: UInt64 = 10
        while value >= scale, digits < 20 {
            digits += 1
            if scale > UInt64.max / 10 { break }
            scale *= 10
        }
        for _ in digits..<max(width, digits) { output.append(UInt8(ascii: "0")) }
        output.appendDecimal(value)
    }

    /// The text of `date`, or `nil` if it has no calendar form.
    static func string(_ date: Date) -> String? {
        var buffer = ByteBuffer(capacity: 24)
        guard append(date, to: &buffer) else { return nil }
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// Parses the date text, or returns `nil`.
    static func parse(_ text: String) -> Date? {
        Array(text.utf8).withUnsafeBytes { parse($0) }
    }

    /// Parses the date text from UTF-8 bytes, or returns `nil`.
    static func parse(_ text: UnsafeRawBufferPointer) -> Date? {
        var bytes = text[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        func number(maxDigits: Int, exactDigits: Int? = nil) -> Int64? {
            var value: Int64 = 0
            var count = 0
            while let byte = bytes.first, byte >= 0x30, byte <= 0x39, count < maxDigits {
                value = value * 10 + Int64(byte - 0x30)
                count += 1
                bytes = bytes.dropFirst()
            }
            guard count > 0, exactDigits.map({ $0 == count }) ?? true else { return nil }
            return value
        }
        func consume(_ char: Character) -> Bool {
            guard bytes.first == char.asciiValue else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        guard var year = number(maxDigits: 4) else { return nil }
        if negative { year = -year }
        var month: Int64 = 1, day: Int64 = 1, hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0
        var fraction = 0.0
        if consume("-") {
            guard let value = number(maxDigits: 2, exactDigits: 2) else { return nil }
            month = value
            if consume("-") {
                guard let value = number(maxDigits: 2, exactDigits: 2) else { return nil }
                day = value
                if consume("T") {
                    guard let h = number(maxDigits: 2, exactDigits: 2) else { return nil }
                    hour = h
                    if consume(":") {
                        guard let m = number(maxDigits: 2, exactDigits: 2) else { return nil }
                        minute = m
                        if consume(":") {
                            guard let s = number(maxDigits: 2, exactDigits: 2) else { return nil }
                            second = s
                            if consume(".") {
                                var scale = 0.1
                                var digits = 0
                                while let byte = bytes.first, byte >= 0x30, byte <= 0x39 {
                                    fraction += Double(byte - 0x30) * scale
                                    scale /= 10
                                    digits += 1
                                    bytes = bytes.dropFirst()
                                }
                                guard digits > 0 else { return nil }
                            }
                        }
                    }
                }
            }
        }
        guard consume("Z"), bytes.isEmpty else { return nil }
        guard (1...12).contains(month), day >= 1, day <= Int64(GregorianDate.daysIn(month: Int(month), year: year)),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        let fields = GregorianDate(year: year, month: Int(month), day: Int(day), hour: Int(hour), minute: Int(minute), second: Int(second))
        return Date(timeIntervalSinceReferenceDate: Double(fields.secondsSince2001) + fraction)
    }
}
