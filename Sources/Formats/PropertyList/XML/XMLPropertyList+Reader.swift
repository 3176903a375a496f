import Foundation
import OrderedCollections

/// Reads Apple's XML property lists.
///
/// Accepts UTF-8, and UTF-16 or UTF-32 with or without a byte-order mark;
/// either Apple DOCTYPE public id (or none); comments and processing
/// instructions between elements; CDATA sections; the five predefined
/// entities and character references. A one-entry dictionary
/// `{CF$UID = n}` is read as a ``PropertyListUID``, as CF does.
///
/// Refused, with a typed error and the line and column: entity
/// declarations in an internal DTD subset (the "billion laughs" vector),
/// unknown entities, mismatched tags, content after the root element, and
/// nesting deeper than ``PropertyListLimits/maximumDepth``.
///
/// Lenient where CF is strict but the meaning is clear: dates may omit
/// trailing fields or carry fractional seconds (`2020-01-01T10:00:00.5Z`),
/// as the DTD's "smaller units may be omitted" allows; comments may appear
/// inside text.
public struct XMLPropertyListReader: Sendable {
    /// The limits enforced while reading.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Decodes an XML property list.
    public func read(_ data: Data) throws -> PropertyListValue {
        try data.withUnsafeBytes { try read(bytes: $0) }
    }

    /// Decodes an XML property list from raw bytes.
    public func read(bytes: UnsafeRawBufferPointer) throws -> PropertyListValue {
        guard bytes.count <= limits.maximumInputSize else {
            throw PropertyListError(.sizeLimitExceeded, format: .xml, location: .byteOffset(0),
                                    "input of \(bytes.count) bytes is over the limit of \(limits.maximumInputSize)")
        }
        return try TextDecoding.withUTF8(bytes, format: .xml) { utf8 in
            var parser = XMLPlistParser(text: utf8, limits: limits)
            return try parser.parseDocument()
        }
    }
}

/// A hand-written scanner over UTF-8 bytes for the plist subset of XML.
struct XMLPlistParser {
    let text: UnsafeRawBufferPointer
    let end: Int
    var position = 0
    let limits: PropertyListLimits
    var objectCount = 0

    init(text: UnsafeRawBufferPointer, limits: PropertyListLimits) {
        self.text = text
        self.end = text.count
        self.limits = limits
    }

    // MARK: Errors

    func failure(_ code: PropertyListError.Code, at offset: Int? = nil, _ message: String) -> PropertyListError {
        PropertyListError(code, format: .xml, location: TextDecoding.location(of: offset ?? position, in: text), message)
    }

    // MARK: Low-level scanning

    @inline(__always) func byte(at index: Int) -> UInt8 { index < end ? text[index] : 0 }

    @inline(__always) var current: UInt8 { position < end ? text[position] : 0 }

    func hasPrefix(_ literal: StaticString, at index: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + length <= end else { return false }
        return literal.withUTF8Buffer { prefix in
            for offset in 0..<length where text[index + offset] != prefix[offset] { return false }
            return true
        }
    }

    mutating func skipWhitespace() {
        while position < end, TextDecoding.isWhitespace(text[position]) { position += 1 }
    }

    /// Moves past the next occurrence of `terminator`, or fails.
    mutating func skip(past terminator: StaticString, what: String) throws {
        let start = position
        while position < end {
            if text[position] == terminator.utf8Start.pointee, hasPrefix(terminator, at: position) {
                position += terminator.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw failure(.syntax, at: start, "\(what) is not terminated")
    }

    /// Skips whitespace, comments and processing instructions between elements.
    mutating func skipMisc() throws {
        while true {
            skipWhitespace()
            if hasPrefix("<!--", at: position) {
                position += 4
                try skip(past: "-->", what: "comment")
            } else if hasPrefix("<?", at: position) {
                position += 2
                try skip(past: "?>", what: "processing instruction")
            } else {
                return
            }
        }
    }

    // MARK: Document

    mutating func parseDocument() throws -> PropertyListValue {
        try skipMisc()
        if hasPrefix("<!DOCTYPE", at: position) {
            try skipDoctype()
            try skipMisc()
        }
        guard current == UInt8(ascii: "<") else {
            throw failure(.syntax, "expected the <plist> element")
        }
        let tagStart = position
        let tag = try readStartTag()
        let value: PropertyListValue
        if tag.name == "plist" {
            guard !tag.isEmpty else { throw failure(.syntax, at: tagStart, "<plist/> holds no value") }
            try skipMisc()
            value = try parseValue(depth: 0)
            try skipMisc()
            try expectEndTag("plist", openedAt: tagStart)
        } else {
            // A bare value without the <plist> wrapper.
            value = try parseValue(tag, openedAt: tagStart, depth: 0)
        }
        try skipMisc()
        guard position >= end else {
            throw failure(.syntax, "unexpected content after the root element")
        }
        return value
    }

    mutating func skipDoctype() throws {
        let start = position
        position += 9
        while position < end {
            let byte = text[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                return
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                position += 1
                while position < end, text[position] != byte { position += 1 }
                guard position < end else { throw failure(.syntax, at: start, "quoted string in DOCTYPE is not terminated") }
            } else if byte == UInt8(ascii: "[") {
                throw failure(.syntax, "internal DTD subsets (entity declarations) are not allowed in property lists")
            }
            position += 1
        }
        throw failure(.syntax, at: start, "DOCTYPE is not terminated")
    }

    // MARK: Tags

    /// A start tag's name, with its attributes skipped. `position` is at `<`.
    mutating func readStartTag() throws -> (name: String, isEmpty: Bool) {
        let tagStart = position
        position += 1
        let nameStart = position
        while position < end {
            let byte = text[position]
            if TextDecoding.isWhitespace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
            position += 1
        }
        guard position > nameStart else { throw failure(.syntax, at: tagStart, "element has no name") }
        let name = Self.tagName(UnsafeRawBufferPointer(rebasing: text[nameStart..<position]))
        while true {
            skipWhitespace()
            guard position < end else { throw failure(.syntax, at: tagStart, "start tag <\(name)> is not terminated") }
            let byte = text[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                return (name, false)
            }
            if byte == UInt8(ascii: "/") {
                guard self.byte(at: position + 1) == UInt8(ascii: ">") else { throw failure(.syntax, "expected '>' after '/' in <\(name)>") }
                position += 2
                return (name, true)
            }
            try skipAttribute(in: name)
        }
    }

    /// Tag names used by plists come back as shared constants, so the common
    /// case allocates nothing.
    static func tagName(_ bytes: UnsafeRawBufferPointer) -> String {
        switch bytes.count {
        case 3 where bytes.elementsEqual("key".utf8): return "key"
        case 4 where bytes.elementsEqual("dict".utf8): return "dict"
        case 4 where bytes.elementsEqual("real".utf8): return "real"
        case 4 where bytes.elementsEqual("date".utf8): return "date"
        case 4 where bytes.elementsEqual("data".utf8): return "data"
        case 4 where bytes.elementsEqual("true".utf8): return "true"
        case 5 where bytes.elementsEqual("array".utf8): return "array"
        case 5 where bytes.elementsEqual("plist".utf8): return "plist"
        case 5 where bytes.elementsEqual("false".utf8): return "false"
        case 6 where bytes.elementsEqual("string".utf8): return "string"
        case 7 where bytes.elementsEqual("integer".utf8): return "integer"
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }

    mutating func skipAttribute(in tag: String) throws {
        let nameStart = position
        while position < end {
            let byte = text[position]
            if TextDecoding.isWhitespace(byte) || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
            position += 1
        }
        guard position > nameStart else { throw failure(.syntax, "attribute without a name in <\(tag)>") }
        skipWhitespace()
        guard current == UInt8(ascii: "=") else { throw failure(.syntax, "expected '=' after an attribute name in <\(tag)>") }
        position += 1
        skipWhitespace()
        let quote = current
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw failure(.syntax, "attribute value in <\(tag)> is not quoted")
        }
        let valueStart = position
        position += 1
        while position < end, text[position] != quote {
            if text[position] == UInt8(ascii: "<") { throw failure(.syntax, "'<' inside an attribute value of <\(tag)>") }
            position += 1
        }
        guard position < end else { throw failure(.syntax, at: valueStart, "attribute value in <\(tag)> is not terminated") }
        position += 1
    }

    /// Consumes `</name>` (whitespace allowed before `>`).
    mutating func expectEndTag(_ name: String, openedAt start: Int) throws {
        let here = position
        guard current == UInt8(ascii: "<"), byte(at: position + 1) == UInt8(ascii: "/") else {
            throw failure(.syntax, "expected </\(name)> to close the element opened at \(TextDecoding.location(of: start, in: text))")
        }
        position += 2
        let nameStart = position
        var utf8Name = name
        let matches = utf8Name.withUTF8 { expected -> Bool in
            guard nameStart + expected.count <= end else { return false }
            return UnsafeRawBufferPointer(rebasing: text[nameStart..<(nameStart + expected.count)]).elementsEqual(expected)
        }
        position += name.utf8.count
        guard matches else {
            throw failure(.syntax, at: here, "mismatched end tag: expected </\(name)> to close the element opened at \(TextDecoding.location(of: start, in: text))")
        }
        skipWhitespace()
        guard current == UInt8(ascii: ">") else {
            throw failure(.syntax, at: here, "mismatched end tag: expected </\(name)>")
        }
        position += 1
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws -> PropertyListValue {
        guard current == UInt8(ascii: "<") else {
            if position >= end { throw failure(.truncated, "input ends where a value was expected") }
            throw failure(.syntax, "expected a value element, found text")
        }
        if byte(at: position + 1) == UInt8(ascii: "/") {
            throw failure(.syntax, "expected a value element, found an end tag")
        }
        let start = position
        let tag = try readStartTag()
        return try parseValue(tag, openedAt: start, depth: depth)
    }

    mutating func countObject(at start: Int) throws {
        objectCount += 1
        guard objectCount <= limits.maximumObjectCount else {
            throw failure(.objectLimitExceeded, at: start, "more than \(limits.maximumObjectCount) objects")
        }
    }

    mutating func parseValue(_ tag: (name: String, isEmpty: Bool), openedAt start: Int, depth: Int) throws -> PropertyListValue {
        try countObject(at: start)
        switch tag.name {
        case "string":
            return .string(tag.isEmpty ? "" : try readText(closing: "string", openedAt: start))
        case "integer":
            return .integer(try parseInteger(try scalarText(tag, openedAt: start), at: start))
        case "real":
            return .real(try parseReal(try scalarText(tag, openedAt: start), at: start))
        case "true", "false":
            if !tag.isEmpty {
                try skipMisc()
                try expectEndTag(tag.name, openedAt: start)
            }
            return .bool(tag.name == "true")
        case "date":
            return .date(try parseDate(try scalarText(tag, openedAt: start), at: start))
        case "data":
            if tag.isEmpty { return .data(Data()) }
            let contentStart = position
            let content = try readRawContent(closing: "data", openedAt: start)
            switch Base64.decode(UnsafeRawBufferPointer(rebasing: text[content])) {
            case .success(let bytes): return .data(Data(bytes))
            case .failure(let bad): throw failure(.invalidScalar, at: contentStart + bad.offset, "invalid base64 in <data>")
            }
        case "array":
            try checkDepth(depth, at: start)
            var elements: [PropertyListValue] = []
            if tag.isEmpty { return .array(elements) }
            while true {
                try skipMisc()
                if current == UInt8(ascii: "<"), byte(at: position + 1) == UInt8(ascii: "/") {
                    try expectEndTag("array", openedAt: start)
                    return .array(elements)
                }
                elements.append(try parseValue(depth: depth + 1))
            }
        case "dict":
            try checkDepth(depth, at: start)
            return try parseDictionary(tag, openedAt: start, depth: depth)
        case "key":
            throw failure(.syntax, at: start, "<key> outside a dictionary")
        default:
            throw failure(.invalidObject, at: start, "unknown element <\(tag.name)>")
        }
    }

    func checkDepth(_ depth: Int, at start: Int) throws {
        guard depth < limits.maximumDepth else {
            throw failure(.depthLimitExceeded, at: start, "nesting deeper than \(limits.maximumDepth) levels")
        }
    }

    mutating func parseDictionary(_ tag: (name: String, isEmpty: Bool), openedAt start: Int, depth: Int) throws -> PropertyListValue {
        var entries = OrderedDictionary<String, PropertyListValue>()
        if tag.isEmpty { return .dictionary(entries) }
        while true {
            try skipMisc()
            if current == UInt8(ascii: "<"), byte(at: position + 1) == UInt8(ascii: "/") {
                try expectEndTag("dict", openedAt: start)
                break
            }
            let keyStart = position
            guard current == UInt8(ascii: "<") else { throw failure(.syntax, "expected <key> in dictionary, found text") }
            let keyTag = try readStartTag()
            guard keyTag.name == "key" else {
                throw failure(.syntax, at: keyStart, "expected <key> in dictionary, found <\(keyTag.name)>")
            }
            let key = keyTag.isEmpty ? "" : try readText(closing: "key", openedAt: keyStart)
            try skipMisc()
            guard position < end else { throw failure(.truncated, "input ends after the dictionary key \"\(key)\"") }
            entries[key] = try parseValue(depth: depth + 1)
        }
        // CF's convention for keyed-archive references in XML.
        if entries.count == 1, let reference = entries["CF$UID"], case .integer(let number) = reference,
           let value = number.uint64Value {
            return .uid(PropertyListUID(value))
        }
        return .dictionary(entries)
    }

    // MARK: Text content

    /// Text of a scalar element with surrounding whitespace trimmed.
    mutating func scalarText(_ tag: (name: String, isEmpty: Bool), openedAt start: Int) throws -> String {
        if tag.isEmpty { throw failure(.invalidScalar, at: start, "<\(tag.name)/> is empty") }
        let text = try readText(closing: tag.name, openedAt: start)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The byte range of an element's content that must hold no markup
    /// (used for `<data>`), consuming the end tag.
    mutating func readRawContent(closing name: String, openedAt start: Int) throws -> Range<Int> {
        let contentStart = position
        while position < end, text[position] != UInt8(ascii: "<") { position += 1 }
        let range = contentStart..<position
        try expectEndTag(name, openedAt: start)
        return range
    }

    /// An element's character data with entities and CDATA resolved and
    /// comments dropped, consuming the end tag.
    mutating func readText(closing name: String, openedAt start: Int) throws -> String {
        let contentStart = position
        // Fast path: plain text straight up to the end tag.
        while position < end {
            let byte = text[position]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { break }
            position += 1
        }
        if current == UInt8(ascii: "<"), byte(at: position + 1) == UInt8(ascii: "/") {
            let raw = UnsafeRawBufferPointer(rebasing: text[contentStart..<position])
            guard let string = TextDecoding.string(raw) else {
                throw failure(.invalidEncoding, at: contentStart, "text is not valid UTF-8")
            }
            try expectEndTag(name, openedAt: start)
            return string
        }
        var buffer: [UInt8] = Array(UnsafeRawBufferPointer(rebasing: text[contentStart..<position]))
        while true {
            guard position < end else { throw failure(.truncated, at: start, "<\(name)> is not closed") }
            let byte = text[position]
            if byte == UInt8(ascii: "&") {
                try appendEntity(to: &buffer)
            } else if byte == UInt8(ascii: "<") {
                if self.byte(at: position + 1) == UInt8(ascii: "/") { break }
                if hasPrefix("<![CDATA[", at: position) {
                    position += 9
                    let cdataStart = position
                    try skip(past: "]]>", what: "CDATA section")
                    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[cdataStart..<(position - 3)]))
                } else if hasPrefix("<!--", at: position) {
                    position += 4
                    try skip(past: "-->", what: "comment")
                } else {
                    throw failure(.syntax, "unexpected element inside <\(name)>")
                }
            } else {
                buffer.append(byte)
                position += 1
            }
        }
        guard let string = buffer.withUnsafeBytes({ TextDecoding.string($0) }) else {
            throw failure(.invalidEncoding, at: contentStart, "text is not valid UTF-8")
        }
        try expectEndTag(name, openedAt: start)
        return string
    }

    mutating func appendEntity(to buffer: inout [UInt8]) throws {
        let start = position
        var index = position + 1
        while index < end, index - start <= 12, text[index] != UInt8(ascii: ";") { index += 1 }
        guard index < end, text[index] == UInt8(ascii: ";") else {
            throw failure(.syntax, at: start, "entity reference is not terminated by ';'")
        }
        let name = UnsafeRawBufferPointer(rebasing: text[(start + 1)..<index])
        position = index + 1
        switch name.count {
        case 2 where name.elementsEqual("lt".utf8): buffer.append(UInt8(ascii: "<"))
        case 2 where name.elementsEqual("gt".utf8): buffer.append(UInt8(ascii: ">"))
        case 3 where name.elementsEqual("amp".utf8): buffer.append(UInt8(ascii: "&"))
        case 4 where name.elementsEqual("apos".utf8): buffer.append(UInt8(ascii: "'"))
        case 4 where name.elementsEqual("quot".utf8): buffer.append(UInt8(ascii: "\""))
        default:
            guard name.first == UInt8(ascii: "#") else {
                throw failure(.syntax, at: start, "unknown entity &\(String(decoding: name, as: UTF8.self));")
            }
            let isHex = name.count > 1 && (name[1] == UInt8(ascii: "x") || name[1] == UInt8(ascii: "X"))
            let digits = String(decoding: name.dropFirst(isHex ? 2 : 1), as: UTF8.self)
            guard !digits.isEmpty, let code = UInt32(digits, radix: isHex ? 16 : 10),
                  let scalar = Unicode.Scalar(code), code != 0 else {
                throw failure(.syntax, at: start, "invalid character reference &\(String(decoding: name, as: UTF8.self));")
            }
            TextDecoding.appendUTF8(scalar.value, to: &buffer)
        }
    }

    // MARK: Scalars

    func parseInteger(_ text: String, at start: Int) throws -> PropertyListInteger {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else {
            throw failure(.invalidScalar, at: start, "\"\(text)\" is not an integer in −2^63 … 2^64−1")
        }
        if !negative { return PropertyListInteger(magnitude) }
        guard magnitude <= UInt64(Int64.max) + 1 else {
            throw failure(.invalidScalar, at: start, "\"\(text)\" is below −2^63")
        }
        return PropertyListInteger(Int64(bitPattern: 0 &- magnitude))
    }

    func parseReal(_ text: String, at start: Int) throws -> Double {
        switch text.lowercased() {
        case "nan", "+nan", "-nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        // Swift's parser also takes "nan(…)", hex floats and "infinity"
        // spellings; keep to the DTD's decimal grammar.
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
              !text.contains(where: { $0 == "x" || $0 == "X" || $0 == "n" || $0 == "N" }),
              let value = Double(text) else {
            throw failure(.invalidScalar, at: start, "\"\(text)\" is not a real number")
        }
        return value
    }

    func parseDate(_ text: String, at start: Int) throws -> Date {
        guard let date = XMLDateFormat.parse(text) else {
            throw failure(.invalidScalar, at: start, "\"\(text)\" is not a date of the form YYYY-MM-DDTHH:MM:SSZ")
        }
        return date
    }
}
