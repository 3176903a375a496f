import Foundation
import PropertyList

/// A value as plain text, for `-extract keypath raw`, with `plutil`'s rules:
///
/// | type | text |
/// |---|---|
/// | string | the string itself |
/// | integer, real | the number (`42`, `0.5`; whole reals without a fraction) |
/// | bool | `true` or `false` |
/// | date | RFC 3339 in UTC, `2024-01-31T13:45:00Z` |
/// | data | Base64 |
/// | dictionary | its keys, sorted, one per line |
/// | array | its element count |
/// | uid | the referenced index |
enum PlistRawText {
    /// The text for `value`, without a trailing newline.
    static func text(for value: PropertyListValue) throws(PropertyListError) -> String {
        switch value {
        case .string(let string): return string
        case .integer(let integer): return integer.description
        case .real(let real): return PlistTextFormatting.number(real)
        case .float(let float): return PlistTextFormatting.number(float)
        case .bool(let bool): return bool ? "true" : "false"
        case .date(let date):
            guard let text = DateText.iso8601(date) else {
                throw PropertyListError(.unsupportedValue, format: nil, "the date (\(date.timeIntervalSinceReferenceDate) s after 2001) cannot be written as text")
            }
            return text
        case .data(let data): return data.base64EncodedString()
        case .dictionary(let entries): return PlistTextFormatting.sortedEntries(entries).map(\.key).joined(separator: "\n")
        case .array(let elements): return String(elements.count)
        case .uid(let uid): return String(uid.value)
        }
    }
}
