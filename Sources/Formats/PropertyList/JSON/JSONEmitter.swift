import Foundation

/// The text generator behind ``JSONPropertyListWriter``.
struct JSONEmitter: TextPropertyListEmitter {
    static let format = PropertyListFormat.json
    let prettyPrinted: Bool
    let maximumDepth: Int
    var output = ByteBuffer(capacity: 4096)

    /// A newline and the indentation for `depth`, when pretty printing.
    mutating func newline(_ depth: Int) {
        guard prettyPrinted else { return }
        output.append(0x0A)
        for _ in 0..<depth { output.append("  ") }
    }

    mutating func openContainer(dictionary: Bool) {
        output.append(dictionary ? UInt8(ascii: "{") : UInt8(ascii: "["))
    }

    mutating func beginMember(_ index: Int, key: String?, depth: Int) {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        newline(depth)
        if let key {
            writeString(key)
            output.append(prettyPrinted ? ": " : ":")
        }
    }

    mutating func endMember(dictionary: Bool) {}

    mutating func closeContainer(dictionary: Bool, count: Int, depth: Int) {
        if count > 0 { newline(depth) }
        output.append(dictionary ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    mutating func writeScalar(_ value: PropertyListValue) throws {
        switch value {
        case .string(let string):
            writeString(string)
        case .integer(let number):
            output.appendDecimal(number)
        case .real(let number):
            guard number.isFinite else { throw Self.notFinite(number.description) }
            output.append(utf8: number.description)
        case .float(let number):
            guard number.isFinite else { throw Self.notFinite(number.description) }
            // Written as the double it widens to, so reading it back gives that exact value.
            output.append(utf8: Double(number).description)
        case .bool(let flag):
            output.append(flag ? "true" : "false")
        case .date(let date):
            output.append(UInt8(ascii: "\""))
            guard PropertyListDateText.append(date, style: .iso8601, to: &output) else {
                throw Self.unwritableDate(date.timeIntervalSinceReferenceDate)
            }
            output.append(UInt8(ascii: "\""))
        case .data(let data):
            output.append(UInt8(ascii: "\""))
            output.append(utf8: data.base64EncodedString())
            output.append(UInt8(ascii: "\""))
        case .uid(let uid):
            output.append(prettyPrinted ? "{\"CF$UID\": " : "{\"CF$UID\":")
            output.appendDecimal(uid.value)
            output.append(UInt8(ascii: "}"))
        case .array, .dictionary:
            break // `write(_:depth:)` handles containers before calling here
        }
    }

    static func notFinite(_ text: String) -> PropertyListError {
        .writing(.unsupportedValue, format: .json, "JSON has no number for the real \(text)")
    }

    /// A JSON string: `"` `\` and U+0000…U+001F escaped, the rest as UTF-8.
    mutating func writeString(_ string: String) {
        var string = string
        output.append(UInt8(ascii: "\""))
        string.withUTF8 { utf8 in
            appendEscaping(utf8)
        }
        output.append(UInt8(ascii: "\""))
    }

    /// RFC 8259's `\b \t \n \f \r`; `\u00XX` for the rest.
    static let controlEscapeLetters: StaticString = "........btn.fr"
    static let hexEscapePrefix: StaticString = "u00"
}
