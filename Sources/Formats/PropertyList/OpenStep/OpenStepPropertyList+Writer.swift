import Foundation

/// Writes old-style ASCII (OpenStep) property lists.
///
/// Layout: one entry or element per line, indented with one tab per level
/// (as Xcode writes `project.pbxproj`), `key = value;` in dictionaries,
/// `,` between array elements, `{}` and `()` for empty containers, and a
/// final newline. Dictionaries keep their key order.
///
/// Strings are written unquoted when they are non-empty, consist only of
/// `A-Z a-z 0-9 _ $ / : . -` and hold no `//` or `/*` (which would start a
/// comment); otherwise they are quoted with `"`, escaping `"` and `\` and
/// writing control characters as `\n \t \r \a \b \f \v` or `\U00XX`.
/// Non-ASCII characters are written as UTF-8, unescaped; the output has no
/// byte-order mark. Data is written as lower-case hex, `<0fbd7777>`.
///
/// OpenStep has only strings, so by default other scalars are written as
/// text and **read back as strings** — the conversion is lossy:
///
/// | value | written as |
/// |---|---|
/// | integer | decimal, `-5` |
/// | real | Swift's shortest round-trip form, `0.1`, `1e+300`, `"inf"` |
/// | Boolean | `YES` / `NO` |
/// | date | `"2001-01-01 00:00:00 +0000"` (fractional seconds only when not whole) |
/// | UID | `{ CF$UID = 5; }` |
///
/// With ``typedScalars`` set, they use GNUstep's typed forms instead —
/// `<*I-5>`, `<*R0.1>`, `<*BY>` / `<*BN>`, `<*D2001-01-01 00:00:00 +0000>`,
/// `{ CF$UID = <*I5>; }` — which ``OpenStepPropertyListReader`` reads back
/// to the same value (single-precision reals come back as double-precision
/// reals). GNUstep can read them too, except a date with fractional
/// seconds. CF cannot read either form.
public struct OpenStepPropertyListWriter: Sendable {
    /// The deepest nesting of arrays and dictionaries written.
    public var maximumDepth: Int
    /// The largest output written; see ``PropertyListLimits/maximumOutputSize``.
    public var maximumOutputSize: Int = PropertyListLimits.default.maximumOutputSize
    /// Whether integers, reals, Booleans, dates and UIDs are written in
    /// GNUstep's typed forms (lossless) rather than as plain strings.
    public var typedScalars: Bool

    /// Creates a writer that writes non-string scalars as plain strings.
    public init(maximumDepth: Int = PropertyListLimits.default.maximumDepth) {
        self.init(maximumDepth: maximumDepth, typedScalars: false)
    }

    /// Creates a writer, choosing whether scalars use GNUstep's typed forms.
    public init(maximumDepth: Int = PropertyListLimits.default.maximumDepth, typedScalars: Bool) {
        self.maximumDepth = maximumDepth
        self.typedScalars = typedScalars
    }

    /// Encodes `value` as OpenStep text in UTF-8.
    ///
    /// Throws ``PropertyListError/Code/depthLimitExceeded`` for nesting
    /// deeper than ``maximumDepth`` and ``PropertyListError/Code/unsupportedValue``
    /// for a date that is not finite or lies more than 2⁵³ seconds from 2001,
    /// with the key path of the offending value.
    public func write(_ value: PropertyListValue) throws -> Data {
        try PropertyListCensus.checkTextOutput(of: value, format: .openStep, maximumDepth: maximumDepth,
                                               maximumOutputSize: maximumOutputSize)
        var emitter = OpenStepEmitter(typedScalars: typedScalars, maximumDepth: maximumDepth)
        try emitter.write(value, depth: 0)
        emitter.output.append(0x0A)
        return emitter.output.takeData()
    }
}

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
            guard OpenStepParser.isUnquotedASCII(byte) else { return false }
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
