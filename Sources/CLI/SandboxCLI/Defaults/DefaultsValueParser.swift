import ArgumentParser
import Foundation
import OrderedCollections
import PropertyList

/// What `defaults write` was asked to do with a key.
enum DefaultsWriteAction: Equatable {
    /// Replace the value.
    case set(PropertyListValue)
    /// Append to the array (a new array if the key is missing).
    case arrayAdd([PropertyListValue])
    /// Add or replace entries of the dictionary (a new one if the key is missing).
    case dictionaryAdd(OrderedDictionary<String, PropertyListValue>)
}

/// The value grammar of `defaults write`, after the key:
///
///     <value_rep> | -string s | -data hex | -int[eger] n | -float f | -bool[ean] b | -date d
///     | -array item… | -array-add item… | -dict key item… | -dict-add key item…
///
/// An item is one of the typed scalars or a plain string. A lone
/// `<value_rep>` is old-style property-list text (`"(a, b)"`, `"{k = v;}"`,
/// `<0a0b>`); text that does not parse is a string, as in `defaults`.
enum DefaultsValueParser {
    static func parse(_ tokens: [String]) throws -> DefaultsWriteAction {
        guard let first = tokens.first else { throw ValidationError("write needs a value after the key") }
        let rest = tokens.dropFirst()
        switch first {
        case "-array": return .set(.array(try items(rest)))
        case "-array-add": return .arrayAdd(try items(rest))
        case "-dict": return .set(.dictionary(try pairs(rest)))
        case "-dict-add": return .dictionaryAdd(try pairs(rest))
        default:
            var index = tokens.startIndex
            let value = try item(tokens, at: &index)
            guard index == tokens.endIndex else {
                throw ValidationError("unexpected '\(tokens[index])' after the value; quote a value with spaces")
            }
            if !isTypeFlag(first) { return .set(valueRepresentation(first)) }
            return .set(value)
        }
    }

    /// Old-style property-list text, or the string itself.
    static func valueRepresentation(_ text: String) -> PropertyListValue {
        guard let value = try? OpenStepPropertyListReader().read(Data(text.utf8)) else { return .string(text) }
        return value
    }

    private static func items(_ tokens: ArraySlice<String>) throws -> [PropertyListValue] {
        var result: [PropertyListValue] = []
        var index = tokens.startIndex
        while index < tokens.endIndex { result.append(try item(tokens, at: &index)) }
        return result
    }

    private static func pairs(_ tokens: ArraySlice<String>) throws -> OrderedDictionary<String, PropertyListValue> {
        var result = OrderedDictionary<String, PropertyListValue>()
        var index = tokens.startIndex
        while index < tokens.endIndex {
            let key = tokens[index]
            if isTypeFlag(key) { throw ValidationError("a dictionary key must be a plain string, not \(key)") }
            index += 1
            guard index < tokens.endIndex else { throw ValidationError("the dictionary key \(key) has no value") }
            result[key] = try item(tokens, at: &index)
        }
        return result
    }

    /// One typed scalar (`-int 3`) or plain string, advancing `index` past it.
    private static func item<C: RandomAccessCollection<String>>(_ tokens: C, at index: inout C.Index) throws -> PropertyListValue
    where C.Index == Int {
        let flag = tokens[index]
        index += 1
        guard isTypeFlag(flag) else { return .string(flag) }
        guard index < tokens.endIndex else { throw ValidationError("\(flag) needs a value") }
        let text = tokens[index]
        index += 1
        return try scalar(flag, text)
    }

    private static let typeFlags: Set<String> = [
        "-string", "-data", "-int", "-integer", "-float", "-bool", "-boolean", "-date",
    ]

    private static func isTypeFlag(_ token: String) -> Bool { typeFlags.contains(token) }

    private static func scalar(_ flag: String, _ text: String) throws -> PropertyListValue {
        switch flag {
        case "-string":
            return .string(text)
        case "-int", "-integer":
            guard let number = Int64(text) else { throw ValidationError("\(flag): '\(text)' is not an integer") }
            return .integer(PropertyListInteger(number))
        case "-float":
            guard let number = Double(text), number.isFinite else { throw ValidationError("-float: '\(text)' is not a number") }
            return .real(number)
        case "-bool", "-boolean":
            switch text.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: throw ValidationError("\(flag): '\(text)' is not yes, no, true or false")
            }
        case "-date":
            guard let date = DateText.parseISO8601(text) else {
                throw ValidationError("-date: '\(text)' is not an ISO 8601 date such as 2024-01-31T13:45:00Z")
            }
            return .date(date)
        default:
            guard let bytes = hexBytes(text) else { throw ValidationError("-data: '\(text)' is not hexadecimal") }
            return .data(bytes)
        }
    }

    private static func hexBytes(_ text: String) -> Data? {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
