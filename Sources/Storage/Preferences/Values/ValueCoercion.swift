import Foundation
import PropertyList

/// The conversions Foundation's typed accessors make, so `bool(forKey:)` of
/// the string `"YES"` or the integer `1` is `true` here too.
///
/// Strings are read as `NSString`'s `boolValue`, `integerValue` and
/// `doubleValue` read them: leading whitespace is skipped, the longest
/// numeric prefix counts, and text that is not a number gives zero.
enum ValueCoercion {
    static func bool(_ value: PropertyListValue) -> Bool? {
        switch value {
        case .bool(let flag): flag
        case .integer(let integer): integer.bitPattern != 0
        case .real(let real): real != 0
        case .float(let real): real != 0
        case .string(let text): stringBool(text)
        default: nil
        }
    }

    static func integer(_ value: PropertyListValue) -> Int? {
        switch value {
        case .integer(let integer): Int(truncatingIfNeeded: integer.isNegative ? Int64(bitPattern: integer.bitPattern)
                                        : Int64(clamping: integer.bitPattern))
        case .real(let real): truncated(real)
        case .float(let real): truncated(Double(real))
        case .bool(let flag): flag ? 1 : 0
        case .string(let text): stringInteger(text)
        default: nil
        }
    }

    static func double(_ value: PropertyListValue) -> Double? {
        switch value {
        case .real(let real): real
        case .float(let real): Double(real)
        case .integer(let integer): integer.isNegative ? Double(Int64(bitPattern: integer.bitPattern)) : Double(integer.bitPattern)
        case .bool(let flag): flag ? 1 : 0
        case .string(let text): stringDouble(text)
        default: nil
        }
    }

    /// `string(forKey:)`: strings, and numbers as `NSNumber.stringValue` spells them.
    static func string(_ value: PropertyListValue) -> String? {
        switch value {
        case .string(let text): text
        case .integer(let integer): integer.description
        case .real(let real): numberText(real)
        case .float(let real): numberText(Double(real))
        case .bool(let flag): flag ? "1" : "0"
        default: nil
        }
    }

    // MARK: NSString's numeric readings

    /// `NSString.boolValue`: true when the first character after whitespace,
    /// a sign and leading zeros is one of `Y y T t 1…9`.
    static func stringBool(_ text: String) -> Bool {
        var bytes = text.utf8.drop { isSpace($0) }
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        bytes = bytes.drop { $0 == UInt8(ascii: "0") }
        guard let first = bytes.first else { return false }
        return "YyTt123456789".utf8.contains(first)
    }

    /// `NSString.integerValue`: the leading decimal integer, clamped to
    /// `Int`'s range, or 0.
    static func stringInteger(_ text: String) -> Int {
        var bytes = text.utf8.drop { isSpace($0) }
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var magnitude = 0
        var overflowed = false
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { overflowed = true; break }
            magnitude = sum
        }
        if overflowed { return negative ? Int.min : Int.max }
        return negative ? -magnitude : magnitude
    }

    /// `NSString.doubleValue`: the leading decimal number, or 0.
    static func stringDouble(_ text: String) -> Double {
        let bytes = Array(text.utf8.drop { isSpace($0) })
        var end = 0
        func digits() -> Int {
            let start = end
            while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
            return end - start
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
        var count = digits()
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
            end += 1
            count += digits()
        }
        guard count > 0 else { return 0 }
        let mantissaEnd = end
        if end < bytes.count, bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E") {
            end += 1
            if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
            if digits() == 0 { end = mantissaEnd }
        }
        return Double(String(decoding: bytes[0..<end], as: UTF8.self)) ?? 0
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// A double truncated toward zero into `Int`, saturating; NaN is 0.
    private static func truncated(_ real: Double) -> Int {
        if real.isNaN { return 0 }
        if real >= Double(Int.max) { return Int.max }
        if real <= Double(Int.min) { return Int.min }
        return Int(real)
    }

    /// `NSNumber.stringValue` of a double: whole values without a fraction
    /// ("3", not "3.0"), others in their shortest round-tripping form.
    private static func numberText(_ real: Double) -> String {
        if real.isFinite, real == real.rounded(), abs(real) < 1e15 { return String(Int64(real)) }
        return "\(real)"
    }
}
