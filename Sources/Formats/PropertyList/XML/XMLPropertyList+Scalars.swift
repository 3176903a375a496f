import Foundation

extension XMLPlistParser {
    // MARK: Scalars

    /// Decimal or `0x` hexadecimal, with an optional sign (whitespace may
    /// follow the sign, as CF allows), in −2⁶³ … 2⁶⁴−1.
    func parseInteger(_ range: Range<Int>, at start: Int) throws -> PropertyListInteger {
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
            while index < range.upperBound, TextDecoding.isWhitespace(text[index]) { index += 1 }
        }
        var radix: UInt64 = 10
        if index + 1 < range.upperBound, text[index] == UInt8(ascii: "0"),
           text[index + 1] == UInt8(ascii: "x") || text[index + 1] == UInt8(ascii: "X") {
            radix = 16
            index += 2
        }
        var magnitude: UInt64 = 0
        var valid = index < range.upperBound
        while valid, index < range.upperBound {
            let byte = text[index]
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: valid = false; continue
            }
            let (scaled, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = scaled.addingReportingOverflow(digit)
            if overflow1 || overflow2 { valid = false; continue }
            magnitude = sum
            index += 1
        }
        guard valid else {
            throw failure(.invalidScalar, at: start, "\(InputExcerpt.quoted(string(range))) is not an integer in −2^63 … 2^64−1")
        }
        if !negative { return PropertyListInteger(magnitude) }
        guard magnitude <= UInt64(Int64.max) + 1 else {
            throw failure(.invalidScalar, at: start, "\(InputExcerpt.quoted(string(range))) is below −2^63")
        }
        return PropertyListInteger(Int64(bitPattern: 0 &- magnitude))
    }

    /// The DTD's decimal form, plus CF's spellings of NaN and infinity.
    func parseReal(_ range: Range<Int>, at start: Int) throws -> Double {
        let bytes = UnsafeRawBufferPointer(rebasing: text[range])
        var sawDigit = false
        var plain = !bytes.isEmpty
        for (offset, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): break
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                if offset != 0, bytes[offset - 1] | 0x20 != UInt8(ascii: "e") { plain = false }
            default: plain = false
            }
        }
        let text = string(range)
        if plain, sawDigit, let value = Double(text) { return value }
        switch text.lowercased() {
        case "nan", "+nan", "-nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: throw failure(.invalidScalar, at: start, "\(InputExcerpt.quoted(text)) is not a real number")
        }
    }
}
