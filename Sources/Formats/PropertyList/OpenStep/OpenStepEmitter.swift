import Foundation

/// The text generator behind ``OpenStepPropertyListWriter``.
struct OpenStepEmitter: TextPropertyListEmitter {
    static let format = PropertyListFormat.openStep
    let typedScalars: Bool
    let maximumDepth: Int
    var output = ByteBuffer(capacity: 4096)

    mutating func openContainer(dictionary: Bool) {
        output.append(dictionary ? UInt8(ascii: "{") : UInt8(ascii: "("))
    }

    mutating func beginMember(_ index: Int, key: String?, depth: Int) {
        output.append(index > 0 && key == nil ? ",\n" : "\n")
        for _ in 0..<depth { output.append(0x09) }
        if let key {
            writeString(key)
            output.append(" = ")
        }
    }

    mutating func endMember(dictionary: Bool) {
        if dictionary { output.append(UInt8(ascii: ";")) }
    }

    mutating func closeContainer(dictionary: Bool, count: Int, depth: Int) {
        if count > 0 {
            output.append(0x0A)
            for _ in 0..<depth { output.append(0x09) }
        }
        output.append(dictionary ? UInt8(ascii: "}") : UInt8(ascii: ")"))
    }

    /// Strings, data, and integers, reals, Booleans, dates and UIDs typed or as text.
    mutating func writeScalar(_ value: PropertyListValue) throws {
        switch value {
        case .string(let string):
            writeString(string)
        case .data(let data):
            output.append(UInt8(ascii: "<"))
            data.withUnsafeBytes { bytes in
                for byte in bytes { appendHexByte(byte, digits: "0123456789abcdef") }
            }
            output.append(UInt8(ascii: ">"))
        case .integer(let number):
            if typedScalars { output.append("<*I") }
            output.appendDecimal(number)
            if typedScalars { output.append(UInt8(ascii: ">")) }
        case .real(let number):
            writeTyped("R", number.description)
        case .float(let number):
            // Written as the double it widens to, so reading it back gives that exact value.
            writeTyped("R", Double(number).description)
        case .bool(let flag):
            if typedScalars { output.append(flag ? "<*BY>" : "<*BN>") } else { output.append(flag ? "YES" : "NO") }
        case .date(let date):
            output.append(typedScalars ? "<*D" : "\"")
            guard PropertyListDateText.append(date, style: .openStep, to: &output) else {
                throw Self.unwritableDate(date.timeIntervalSinceReferenceDate)
            }
            output.append(typedScalars ? UInt8(ascii: ">") : UInt8(ascii: "\""))
        case .uid(let uid):
            output.append("{ CF$UID = ")
            if typedScalars { output.append("<*I") }
            output.appendDecimal(uid.value)
            if typedScalars { output.append(UInt8(ascii: ">")) }
            output.append("; }")
        case .array, .dictionary:
            break // `write(_:depth:)` handles containers before calling here
        }
    }

    /// `<*Xtext>` when typed, else `text` as a string (quoted when needed).
    mutating func writeTyped(_ letter: StaticString, _ text: String) {
        guard typedScalars else { return writeString(text) }
        output.append("<*")
        output.append(letter)
        output.append(utf8: text)
        output.append(UInt8(ascii: ">"))
    }

    /// Whether `utf8` can be written without quotes and read back the same.
    static func canStandUnquoted(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !utf8.isEmpty else { return false }
        var previous: UInt8 = 0
        for byte in utf8 {
            guard OpenStepParser<DecodedText>.isUnquotedASCII(byte) else { return false }
            // `//` and `/*` would be read as the start of a comment.
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: "/") || byte == UInt8(ascii: "*") { return false }
            previous = byte
        }
        return true
    }

    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            if Self.canStandUnquoted(utf8) { return output.append(UnsafeRawBufferPointer(utf8)) }
            output.append(UInt8(ascii: "\""))
            appendEscaping(utf8)
            output.append(UInt8(ascii: "\""))
        }
    }

    /// `\a \b \t \n \v \f \r`, which CF's reader knows; `\U00XX` for the rest.
    static let controlEscapeLetters: StaticString = ".......abtnvfr"
    static let hexEscapePrefix: StaticString = "U00"
}
