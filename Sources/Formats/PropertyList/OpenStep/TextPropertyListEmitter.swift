import Foundation

/// What the OpenStep and JSON writers share: walking arrays and
/// dictionaries, the depth limit, and key paths in errors. A conforming
/// emitter supplies the punctuation and the scalars.
protocol TextPropertyListEmitter {
    /// The format named in errors.
    static var format: PropertyListFormat { get }
    var maximumDepth: Int { get }
    var output: ByteBuffer { get set }

    /// Writes `{` (dictionary) or the array opener.
    mutating func openContainer(dictionary: Bool)
    /// Writes what comes before member `index` at `depth`: separator,
    /// newline and indentation, and for a dictionary the key and its
    /// separator from the value.
    mutating func beginMember(_ index: Int, key: String?, depth: Int)
    /// Writes what follows a member's value.
    mutating func endMember(dictionary: Bool)
    /// Writes the closer of a container at `depth` that had `count` members.
    mutating func closeContainer(dictionary: Bool, count: Int, depth: Int)
    /// Writes any value that is not an array or dictionary.
    mutating func writeScalar(_ value: PropertyListValue) throws
    /// For each byte 0x00…0x0D, the letter of its short escape (`n` for
    /// `\n`), or `.` when it is written as a hex escape instead.
    static var controlEscapeLetters: StaticString { get }
    /// What follows `\` in a hex escape before the byte's two hex digits.
    static var hexEscapePrefix: StaticString { get }
}

extension TextPropertyListEmitter {
    /// The whole document for `value`: refused before anything is written
    /// if it would be over `maximumOutputSize` bytes, else written from the
    /// top, with a newline after it when `finalNewline` is set.
    consuming func document(_ value: PropertyListValue, maximumOutputSize: Int, finalNewline: Bool = false) throws -> Data {
        try PropertyListCensus.checkTextOutput(of: value, format: Self.format, maximumDepth: maximumDepth,
                                               maximumOutputSize: maximumOutputSize)
        try write(value, depth: 0)
        if finalNewline { output.append(0x0A) }
        return output.takeData()
    }

    /// Writes `value`, nested `depth` containers deep.
    ///
    /// Errors start with an empty key path; each container on the way out
    /// puts its key or index in front, so success costs nothing extra.
    mutating func write(_ value: PropertyListValue, depth: Int) throws {
        switch value {
        case .dictionary(let entries):
            try checkDepth(depth)
            openContainer(dictionary: true)
            for (index, (key, element)) in entries.enumerated() {
                beginMember(index, key: key, depth: depth + 1)
                do { try write(element, depth: depth + 1) } catch let error as PropertyListError { throw error.inside(key: key) }
                endMember(dictionary: true)
            }
            closeContainer(dictionary: true, count: entries.count, depth: depth)
        case .array(let elements):
            try checkDepth(depth)
            openContainer(dictionary: false)
            for (index, element) in elements.enumerated() {
                beginMember(index, key: nil, depth: depth + 1)
                do { try write(element, depth: depth + 1) } catch let error as PropertyListError { throw error.inside(index: index) }
                endMember(dictionary: false)
            }
            closeContainer(dictionary: false, count: elements.count, depth: depth)
        default:
            try writeScalar(value)
        }
    }

    func checkDepth(_ depth: Int) throws {
        guard depth < maximumDepth else {
            throw PropertyListError.writing(.depthLimitExceeded, format: Self.format, "value nests deeper than \(maximumDepth) levels")
        }
    }

    /// The error for a date that cannot be written as text.
    static func unwritableDate(_ interval: Double) -> PropertyListError {
        .writing(.unsupportedValue, format: format, "date \(interval) s from 2001 cannot be written as text")
    }

    mutating func appendHexByte(_ byte: UInt8, digits: StaticString) {
        digits.withUTF8Buffer { hex in
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0x0F)])
        }
    }

    /// Appends `utf8`, escaping `"`, `\` and bytes below 0x20 with a
    /// backslash: a short escape from ``controlEscapeLetters`` where there
    /// is one, else ``hexEscapePrefix`` and two hex digits.
    mutating func appendEscaping(_ utf8: UnsafeBufferPointer<UInt8>) {
        let raw = UnsafeRawBufferPointer(utf8)
        var runStart = 0
        for index in 0..<raw.count {
            let byte = raw[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            output.append(UnsafeRawBufferPointer(rebasing: raw[runStart..<index]))
            runStart = index + 1
            output.append(UInt8(ascii: "\\"))
            let letter = Self.controlEscapeLetters.withUTF8Buffer { letters in
                Int(byte) < letters.count ? letters[Int(byte)] : UInt8(ascii: ".")
            }
            if byte >= 0x20 {
                output.append(byte) // `"` and `\` escape themselves
            } else if letter != UInt8(ascii: ".") {
                output.append(letter)
            } else {
                output.append(Self.hexEscapePrefix)
                appendHexByte(byte, digits: "0123456789ABCDEF")
            }
        }
        output.append(UnsafeRawBufferPointer(rebasing: raw[runStart...]))
    }
}
