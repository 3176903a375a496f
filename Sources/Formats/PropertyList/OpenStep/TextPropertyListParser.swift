import Foundation

/// What the OpenStep and JSON parsers share: the UTF-8 text under a
/// cursor, limits, errors with line and column, strings and `\u` escapes.
///
/// Both scan bytes, never `Character`s, and build a `String` once per
/// string value (straight from the input when it has no escapes).
///
/// Each parser is generic over what it makes (``TextParseOutput``): the
/// decoder builds values, the validator (`-lint`) runs the same code and
/// makes none, so the two accept the same inputs and fail with the same
/// errors at the same places.
protocol TextPropertyListParser {
    /// What the parser makes of what it reads: values, or nothing (`-lint`).
    associatedtype Output: TextParseOutput
    /// The format named in errors.
    static var format: PropertyListFormat { get }
    /// The input and where the parser stands in it.
    var state: TextParserState { get set }

    /// The memberwise initializer.
    init(state: TextParserState)
    /// Reads the whole input.
    mutating func parseDocument() throws -> PropertyListValue
}

/// What a text parser holds while it reads, the same for every text
/// format: the input, its limits and the parser's place in it.
struct TextParserState {
    /// The whole input as UTF-8.
    let text: UnsafeRawBufferPointer
    let limits: PropertyListLimits
    /// The offset of the next byte to read.
    var position = 0
    /// Values (keys included) read so far, for ``PropertyListLimits/maximumObjectCount``.
    var objectCount = 0
    /// Reused for strings with escapes and for data, to avoid an allocation per value.
    var scratch: [UInt8] = []
}

extension TextPropertyListParser {
    /// Whether strings, data and containers are made (decoding), or only
    /// checked (validating: strings come back empty, containers empty).
    static var buildsValues: Bool { Output.buildsValues }

    /// Checks the input size, brings the input to UTF-8 and parses it.
    static func parse(_ data: Data, limits: PropertyListLimits) throws -> PropertyListValue {
        try limits.checkInputSize(data.count, format: format)
        return try data.withUnsafeBytes { raw in
            try TextDecoding.withUTF8(raw, format: format) { utf8 in
                var parser = Self(state: TextParserState(text: utf8, limits: limits))
                return try parser.parseDocument()
            }
        }
    }

    /// Checks the input as ``parse(_:limits:)`` does, without keeping what
    /// it makes (nothing, when ``buildsValues`` is false).
    static func validate(_ data: Data, limits: PropertyListLimits) throws {
        _ = try parse(data, limits: limits)
    }

    // The state's fields by their own names, which the parsers read on every byte.
    @inline(__always) var text: UnsafeRawBufferPointer { state.text }
    @inline(__always) var limits: PropertyListLimits { state.limits }
    @inline(__always) var position: Int {
        get { state.position }
        set { state.position = newValue }
    }

    var end: Int { text.count }

    @inline(__always) func byte(at offset: Int) -> UInt8 { offset < end ? text[offset] : 0 }

    /// An error at `offset`; the line and column are worked out only now.
    func failure(_ code: PropertyListError.Code, at offset: Int, _ message: String) -> PropertyListError {
        PropertyListError(code, format: Self.format, location: TextDecoding.location(of: offset, in: text), message)
    }

    /// What stands at `offset`, for messages: `'x'`, a byte in hex, or "the end of the input".
    func describe(at offset: Int) -> String {
        guard offset < end else { return "the end of the input" }
        let byte = text[offset]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    func lineAndColumn(of offset: Int) -> String {
        TextDecoding.location(of: offset, in: text).description
    }

    @inline(__always) mutating func countObject(at offset: Int) throws {
        state.objectCount += 1
        guard state.objectCount <= limits.maximumObjectCount else {
            throw failure(.objectLimitExceeded, at: offset, "more than \(limits.maximumObjectCount) values")
        }
    }

    /// A string from UTF-8 bytes, or an encoding error at `offset`; the
    /// empty string when validating (the bytes are checked all the same).
    ///
    /// `String(validating:as:)` is not specialised in the standard library
    /// and spends most of its time looking up generic metadata, so bytes
    /// are checked here and then copied with `String(decoding:as:)`.
    @inline(__always) func makeString(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> String {
        guard Self.isValidUTF8(bytes) else {
            throw failure(.invalidEncoding, at: offset, "string is not valid UTF-8")
        }
        return Self.buildsValues ? String(decoding: bytes, as: UTF8.self) : ""
    }

    /// Whether `bytes` is well-formed UTF-8 (see ``TextDecoding/isValidUTF8(_:)``).
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool { TextDecoding.isValidUTF8(bytes) }

    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- 0x30
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- 0x57
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- 0x37
        default: nil
        }
    }

    /// Reads the hex digits of a UTF-16 escape (`\u` in JSON, `\U` in
    /// OpenStep; the reader just after the letter) into `state.scratch`. A high
    /// surrogate must be followed at once by a second escape with a low one.
    mutating func appendUTF16Escape(backslash: Int, letter: UInt8, digits: ClosedRange<Int>) throws {
        let unit = try hexUnit(backslash: backslash, letter: letter, digits: digits)
        var scalar = UInt32(unit)
        if unit & 0xFC00 == 0xD800 {
            let name = Character(Unicode.Scalar(letter))
            guard byte(at: position) == UInt8(ascii: "\\"), byte(at: position + 1) == letter else {
                throw failure(.invalidEncoding, at: backslash, "\\\(name) escape makes an unpaired UTF-16 high surrogate")
            }
            let second = position
            position += 2
            let low = try hexUnit(backslash: second, letter: letter, digits: digits)
            guard low & 0xFC00 == 0xDC00 else {
                throw failure(.invalidEncoding, at: backslash, "\\\(name) escape makes an unpaired UTF-16 high surrogate")
            }
            scalar = 0x10000 + (UInt32(unit & 0x3FF) << 10 | UInt32(low & 0x3FF))
        } else if unit & 0xFC00 == 0xDC00 {
            throw failure(.invalidEncoding, at: backslash, "\\\(Character(Unicode.Scalar(letter))) escape makes an unpaired UTF-16 low surrogate")
        }
        TextDecoding.appendUTF8(scalar, to: &state.scratch)
    }

    /// `digits` hex digits (as many as are there, up to the most) as a UTF-16 code unit.
    mutating func hexUnit(backslash: Int, letter: UInt8, digits: ClosedRange<Int>) throws -> UInt16 {
        var unit: UInt16 = 0
        var count = 0
        while count < digits.upperBound, position < end, let value = Self.hexValue(text[position]) {
            unit = unit << 4 | UInt16(value)
            count += 1
            position += 1
        }
        guard count >= digits.lowerBound else {
            let howMany = digits.count == 1 ? "\(digits.lowerBound)" : "\(digits.lowerBound) to \(digits.upperBound)"
            throw failure(.syntax, at: backslash,
                          "expected \(howMany) hex digits after \\\(Character(Unicode.Scalar(letter))), found \(describe(at: position))")
        }
        return unit
    }
}
