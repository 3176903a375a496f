import Foundation

/// Reads back the text OpenStep files use for scalars, which that format
/// can only store as strings: integers, reals, `YES`/`NO`, and dates as
/// `2001-01-01 00:00:00 +0000` (or the XML form).
enum OpenStepScalarText {
    static func value(of text: String) -> PropertyListValue? {
        switch text {
        case "YES", "true": return .bool(true)
        case "NO", "false": return .bool(false)
        default: break
        }
        if let integer = Int64(text) { return .integer(PropertyListInteger(integer)) }
        if let unsigned = UInt64(text) { return .integer(PropertyListInteger(unsigned)) }
        if let real = Double(text), text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true {
            return .real(real)
        }
        if let date = XMLDateFormat.parse(text) { return .date(date) }
        // "YYYY-MM-DD HH:MM:SS +0000": only UTC is written by our writers.
        if text.hasSuffix(" +0000"), text.count == 25 {
            let isoText = String(text.prefix(10)) + "T" + String(text.dropFirst(11).prefix(8)) + "Z"
            if let date = XMLDateFormat.parse(isoText) { return .date(date) }
        }
        return nil
    }
}
