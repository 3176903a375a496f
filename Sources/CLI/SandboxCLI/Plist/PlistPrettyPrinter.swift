import Foundation
import PropertyList

/// Renders a value for people, in the shape `plutil -p` uses:
///
/// ```text
/// {
///   "Name" => "Possessions"
///   "Items" => [
///     0 => 42
///     1 => {length = 3, bytes = 0x010203}
///   ]
/// }
/// ```
///
/// This is not a format: it is not meant for parsing and may change between
/// releases. Keys are sorted (see ``PlistTextFormatting/sortedEntries(_:)``),
/// strings are shown without escaping, dates in UTC.
enum PlistPrettyPrinter {
    /// The most values printed. A binary file may reuse one sub-tree many
    /// times (a "billion laughs" file), which printing expands; past this
    /// budget the print is refused instead of running for hours.
    static let defaultMaximumValueCount = 1 << 24

    /// The text for `value`, ending in a newline.
    static func render(_ value: PropertyListValue, maximumValueCount: Int = defaultMaximumValueCount) throws(PropertyListError) -> String {
        guard expandedCount(of: value, upTo: maximumValueCount) <= maximumValueCount else {
            throw PropertyListError(.objectLimitExceeded, format: nil,
                                    "printing would expand shared values to more than \(maximumValueCount) values")
        }
        var output = ""
        append(value, indent: 0, to: &output)
        return output
    }

    /// How many values printing `value` visits, counting a shared sub-tree
    /// each time it appears, stopping once past `limit`.
    static func expandedCount(of value: PropertyListValue, upTo limit: Int) -> Int {
        var count = 0
        var pending = [value]
        while let next = pending.popLast(), count <= limit {
            count += 1
            switch next {
            case .array(let elements): pending.append(contentsOf: elements)
            case .dictionary(let entries): pending.append(contentsOf: entries.values)
            default: break
            }
        }
        return count
    }

    private static func append(_ value: PropertyListValue, indent: Int, to output: inout String) {
        switch value {
        case .dictionary(let entries):
            output += "{\n"
            for (key, child) in PlistTextFormatting.sortedEntries(entries) {
                output += String(repeating: " ", count: indent + 2) + "\"\(key)\" => "
                append(child, indent: indent + 2, to: &output)
            }
            output += String(repeating: " ", count: indent) + "}\n"
        case .array(let elements):
            output += "[\n"
            for (index, child) in elements.enumerated() {
                output += String(repeating: " ", count: indent + 2) + "\(index) => "
                append(child, indent: indent + 2, to: &output)
            }
            output += String(repeating: " ", count: indent) + "]\n"
        case .string(let string): output += "\"\(string)\"\n"
        case .integer(let integer): output += "\(integer)\n"
        case .real(let real): output += PlistTextFormatting.number(real) + "\n"
        case .float(let float): output += PlistTextFormatting.number(float) + "\n"
        case .bool(let bool): output += bool ? "true\n" : "false\n"
        case .date(let date): output += DateText.readable(date) + "\n"
        case .data(let data): output += describe(data) + "\n"
        case .uid(let uid): output += "<CFKeyedArchiverUID>{value = \(uid.value)}\n"
        }
    }

    /// `{length = 3, bytes = 0x010203}`, CF's description of data: bytes in
    /// groups of four; past 24 bytes only the first 16 and the last 8.
    static func describe(_ data: Data) -> String {
        let bytes = [UInt8](data)
        let shown = bytes.count > 24 ? hex(bytes.prefix(16)) + " ... " + hex(bytes.suffix(8)) : hex(bytes[...])
        return "{length = \(bytes.count), bytes = 0x\(shown)}"
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        for (offset, byte) in bytes.enumerated() {
            if offset > 0 && offset % 4 == 0 { text += " " }
            if byte < 16 { text += "0" }
            text += String(byte, radix: 16)
        }
        return text
    }
}
