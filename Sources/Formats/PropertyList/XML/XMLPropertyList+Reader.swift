import FileSystem
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
        try limits.checkInputSize(bytes.count, format: .xml)
        return try TextDecoding.withUTF8(bytes, format: .xml) { try parse($0) }
    }
}

/// A hand-written scanner over UTF-8 bytes for the plist subset of XML.
struct XMLPlistParser {
    let text: UnsafeRawBufferPointer
    let end: Int
    var position = 0
    let limits: PropertyListLimits
    var objectCount = 0
    /// Dictionary keys already read (see XMLPropertyList+Dictionary.swift).
    var keys = XMLKeyCache()
    var keyTableScratch: [Int32] = []

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

    @inline(__always)
    func hasPrefix(_ literal: StaticString, at index: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + length <= end, let base = text.baseAddress else { return false }
        return RawMemory.bytesEqual(base + index, literal.utf8Start, count: length)
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
            guard current == UInt8(ascii: "<") else { return }
            let next = byte(at: position + 1)
            guard next == UInt8(ascii: "!") || next == UInt8(ascii: "?") else { return }
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
        try readDocument { parser, first in
            guard let (start, tag) = first else { return try parser.parseValue(depth: 0) }
            return try parser.parseValue(tag, openedAt: start, depth: 0)
        }
    }

    /// Reads the document around its root value, which `root` reads: after
    /// `<plist>` it is given nil and starts at the value's tag; for a bare
    /// value it is given that value's start tag, already read. The decoder
    /// and the validator (XMLPropertyList+Validator.swift) share it.
    mutating func readDocument<Root>(_ root: (inout XMLPlistParser, (start: Int, tag: StartTag)?) throws -> Root) throws -> Root {
        let (tagStart, tag) = try readFirstTag()
        let value: Root
        if tag.kind == .plist {
            guard !tag.isEmpty else { throw failure(.syntax, at: tagStart, "<plist/> holds no value") }
            try skipMisc()
            value = try root(&self, nil)
            try finishDocument(plistOpenedAt: tagStart)
        } else {
            // A bare value without the <plist> wrapper.
            value = try root(&self, (tagStart, tag))
            try finishDocument(plistOpenedAt: nil)
        }
        return value
    }

    /// Skips the prologue (declaration, comments, DOCTYPE) and reads the
    /// first element's start tag: `<plist>`, or a bare value.
    mutating func readFirstTag() throws -> (start: Int, tag: StartTag) {
        try skipMisc()
        if hasPrefix("<!DOCTYPE", at: position) {
            try skipDoctype()
            try skipMisc()
        }
        guard current == UInt8(ascii: "<") else {
            throw failure(.syntax, "expected the <plist> element")
        }
        let tagStart = position
        return (tagStart, try readStartTag())
    }

    /// Reads what follows the root value: `</plist>` when the document
    /// opened one at `plistOpenedAt`, then nothing but comments and spaces.
    mutating func finishDocument(plistOpenedAt tagStart: Int?) throws {
        try skipMisc()
        if let tagStart {
            try expectEndTag(.plist, openedAt: tagStart)
            try skipMisc()
        }
        guard position >= end else {
            throw failure(.syntax, "unexpected content after the root element")
        }
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

    struct StartTag {
        var kind: XMLPlistTag
        var name: Range<Int>
        var isEmpty: Bool
    }

    func name(of tag: StartTag) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: text[tag.name]), as: UTF8.self)
    }

    /// A start tag, with its attributes skipped. `position` is at `<`.
    mutating func readStartTag() throws -> StartTag {
        let tagStart = position
        position += 1
        let nameStart = position
        while position < end {
            let byte = text[position]
            if TextDecoding.isWhitespace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
            position += 1
        }
        guard position > nameStart else { throw failure(.syntax, at: tagStart, "element has no name") }
        var tag = StartTag(kind: XMLPlistTag(UnsafeRawBufferPointer(rebasing: text[nameStart..<position])),
                           name: nameStart..<position, isEmpty: false)
        while true {
            if current != UInt8(ascii: ">") { skipWhitespace() }
            guard position < end else { throw failure(.syntax, at: tagStart, "start tag <\(name(of: tag))> is not terminated") }
            let byte = text[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                return tag
            }
            if byte == UInt8(ascii: "/") {
                guard self.byte(at: position + 1) == UInt8(ascii: ">") else {
                    throw failure(.syntax, "expected '>' after '/' in <\(name(of: tag))>")
                }
                position += 2
                tag.isEmpty = true
                return tag
            }
            try skipAttribute(in: name(of: tag))
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

    /// Whether `position` is at an end tag (`</`).
    @inline(__always) var atEndTag: Bool {
        current == UInt8(ascii: "<") && byte(at: position + 1) == UInt8(ascii: "/")
    }

    /// Consumes `</name>` (whitespace allowed before `>`).
    mutating func expectEndTag(_ kind: XMLPlistTag, openedAt start: Int) throws {
        let here = position
        let expected = kind.name
        func mismatch() -> PropertyListError {
            failure(.syntax, at: here, "expected </\(expected)> to close the element opened at \(TextDecoding.location(of: start, in: text))")
        }
        guard atEndTag else {
            if position >= end { throw failure(.truncated, at: start, "<\(expected)> is not closed") }
            throw mismatch()
        }
        position += 2
        guard hasPrefix(expected, at: position) else { throw mismatch() }
        position += expected.utf8CodeUnitCount
        if current != UInt8(ascii: ">") { skipWhitespace() }
        guard current == UInt8(ascii: ">") else { throw mismatch() }
        position += 1
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws -> PropertyListValue {
        let (start, tag) = try readValueTag()
        return try parseValue(tag, openedAt: start, depth: depth)
    }

    /// The start tag of the value at `position`, and where it starts.
    mutating func readValueTag() throws -> (start: Int, tag: StartTag) {
        guard current == UInt8(ascii: "<") else {
            if position >= end { throw failure(.truncated, "input ends where a value was expected") }
            throw failure(.syntax, "expected a value element, found text")
        }
        if byte(at: position + 1) == UInt8(ascii: "/") {
            throw failure(.syntax, "expected a value element, found an end tag")
        }
        let start = position
        return (start, try readStartTag())
    }

    @inline(__always)
    mutating func countObject(at start: Int) throws {
        objectCount += 1
        guard objectCount <= limits.maximumObjectCount else {
            throw failure(.objectLimitExceeded, at: start, "more than \(limits.maximumObjectCount) objects")
        }
    }

    mutating func parseValue(_ tag: StartTag, openedAt start: Int, depth: Int) throws -> PropertyListValue {
        try countObject(at: start)
        switch tag.kind {
        case .string:
            return .string(tag.isEmpty ? "" : try readText(closing: .string, openedAt: start))
        case .integer:
            return .integer(try readInteger(tag, openedAt: start))
        case .real:
            return .real(try readReal(tag, openedAt: start))
        case .date:
            return .date(try readDate(tag, openedAt: start))
        case .true, .false:
            return .bool(try readBool(tag, openedAt: start))
        case .data:
            return .data(try readData(tag, openedAt: start, empty: Data()) { Base64.decode($0).map { Data($0) } })
        case .array:
            try checkDepth(depth, at: start)
            var elements: [PropertyListValue] = []
            if tag.isEmpty { return .array(elements) }
            try readElements(openedAt: start) { elements.append(try $0.parseValue(depth: depth + 1)) }
            return .array(elements)
        case .dict:
            try checkDepth(depth, at: start)
            return try parseDictionary(tag, openedAt: start, depth: depth)
        case .key, .plist, .unknown:
            throw misplaced(tag, openedAt: start)
        }
    }

    /// The error for a start tag that cannot begin a value.
    func misplaced(_ tag: StartTag, openedAt start: Int) -> PropertyListError {
        if tag.kind == .key { return failure(.syntax, at: start, "<key> outside a dictionary") }
        return failure(.invalidObject, at: start, "unknown element <\(name(of: tag))>")
    }

    /// Reads an array's elements with `element` until its end tag.
    mutating func readElements(openedAt start: Int, _ element: (inout XMLPlistParser) throws -> Void) throws {
        while true {
            try skipMisc()
            if atEndTag { return try expectEndTag(.array, openedAt: start) }
            try element(&self)
        }
    }

    // MARK: Scalar elements

    // The content is read into a local first: as an argument of a call on
    // `self`, the mutating read would make Swift copy the parser.

    mutating func readInteger(_ tag: StartTag, openedAt start: Int) throws -> PropertyListInteger {
        let range = try scalarContent(tag, openedAt: start)
        return try parseInteger(range, at: start)
    }

    mutating func readReal(_ tag: StartTag, openedAt start: Int) throws -> Double {
        let range = try scalarContent(tag, openedAt: start)
        return try parseReal(range, at: start)
    }

    mutating func readDate(_ tag: StartTag, openedAt start: Int) throws -> Date {
        let range = try scalarContent(tag, openedAt: start)
        guard let date = XMLDateFormat.parse(UnsafeRawBufferPointer(rebasing: text[range])) else {
            throw failure(.invalidScalar, at: start, "\(InputExcerpt.quoted(string(range))) is not a date of the form YYYY-MM-DDTHH:MM:SSZ")
        }
        return date
    }

    mutating func readBool(_ tag: StartTag, openedAt start: Int) throws -> Bool {
        if !tag.isEmpty {
            try skipMisc()
            try expectEndTag(tag.kind, openedAt: start)
        }
        return tag.kind == .true
    }

    /// A `<data>` element's base64 content, made into a value by `decode`
    /// (`empty` for `<data/>`).
    mutating func readData<Bytes>(_ tag: StartTag, openedAt start: Int, empty: Bytes,
                                  _ decode: (UnsafeRawBufferPointer) -> Result<Bytes, Base64.BadByte>) throws -> Bytes {
        if tag.isEmpty { return empty }
        let contentStart = position
        let content = try readRawContent(closing: .data, openedAt: start)
        switch decode(UnsafeRawBufferPointer(rebasing: text[content])) {
        case .success(let bytes): return bytes
        case .failure(let bad): throw failure(.invalidScalar, at: contentStart + bad.offset, "invalid base64 in <data>")
        }
    }

    func checkDepth(_ depth: Int, at start: Int) throws {
        guard depth < limits.maximumDepth else {
            throw failure(.depthLimitExceeded, at: start, "nesting deeper than \(limits.maximumDepth) levels")
        }
    }

    // MARK: Text content

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: text[range]), as: UTF8.self)
    }

    /// The byte range of a scalar element's text with surrounding whitespace
    /// trimmed, consuming the end tag. Scalars hold digits and letters only,
    /// so markup or entities inside them are an error.
    mutating func scalarContent(_ tag: StartTag, openedAt start: Int) throws -> Range<Int> {
        if tag.isEmpty { throw failure(.invalidScalar, at: start, "<\(tag.kind.name)/> is empty") }
        var range = try readRawContent(closing: tag.kind, openedAt: start)
        while range.lowerBound < range.upperBound, TextDecoding.isWhitespace(text[range.lowerBound]) {
            range = (range.lowerBound + 1)..<range.upperBound
        }
        while range.lowerBound < range.upperBound, TextDecoding.isWhitespace(text[range.upperBound - 1]) {
            range = range.lowerBound..<(range.upperBound - 1)
        }
        return range
    }

    /// The byte range of an element's content that must hold no markup,
    /// consuming the end tag.
    mutating func readRawContent(closing kind: XMLPlistTag, openedAt start: Int) throws -> Range<Int> {
        let contentStart = position
        while position < end, text[position] != UInt8(ascii: "<") { position += 1 }
        let range = contentStart..<position
        guard atEndTag || position >= end else {
            throw failure(.syntax, "unexpected markup inside <\(kind.name)>")
        }
        try expectEndTag(kind, openedAt: start)
        return range
    }

    /// An element's character data with entities and CDATA resolved and
    /// comments dropped, consuming the end tag.
    mutating func readText(closing kind: XMLPlistTag, openedAt start: Int) throws -> String {
        try readText(closing: kind, openedAt: start) { TextDecoding.string($0) }
    }

    /// Reads an element's character data as ``readText(closing:openedAt:)``
    /// does, and gives its bytes to `make`; fails when `make` returns nil
    /// (the bytes are not UTF-8).
    mutating func readText<Text>(closing kind: XMLPlistTag, openedAt start: Int,
                                 _ make: (UnsafeRawBufferPointer) -> Text?) throws -> Text {
        let contentStart = position
        // Fast path: plain text straight up to the end tag.
        while position < end {
            let byte = text[position]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { break }
            position += 1
        }
        if atEndTag {
            let raw = UnsafeRawBufferPointer(rebasing: text[contentStart..<position])
            guard let string = make(raw) else {
                throw failure(.invalidEncoding, at: contentStart, "text is not valid UTF-8")
            }
            try expectEndTag(kind, openedAt: start)
            return string
        }
        var buffer: [UInt8] = Array(UnsafeRawBufferPointer(rebasing: text[contentStart..<position]))
        while true {
            guard position < end else { throw failure(.truncated, at: start, "<\(kind.name)> is not closed") }
            let byte = text[position]
            if byte == UInt8(ascii: "&") {
                try appendEntity(to: &buffer)
            } else if byte == UInt8(ascii: "<") {
                if atEndTag { break }
                if hasPrefix("<![CDATA[", at: position) {
                    position += 9
                    let cdataStart = position
                    try skip(past: "]]>", what: "CDATA section")
                    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[cdataStart..<(position - 3)]))
                } else if hasPrefix("<!--", at: position) {
                    position += 4
                    try skip(past: "-->", what: "comment")
                } else {
                    throw failure(.syntax, "unexpected element inside <\(kind.name)>")
                }
            } else {
                buffer.append(byte)
                position += 1
            }
        }
        guard let string = buffer.withUnsafeBytes(make) else {
            throw failure(.invalidEncoding, at: contentStart, "text is not valid UTF-8")
        }
        try expectEndTag(kind, openedAt: start)
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
        let nameText = String(decoding: name, as: UTF8.self)
        position = index + 1
        switch nameText {
        case "lt": buffer.append(UInt8(ascii: "<"))
        case "gt": buffer.append(UInt8(ascii: ">"))
        case "amp": buffer.append(UInt8(ascii: "&"))
        case "apos": buffer.append(UInt8(ascii: "'"))
        case "quot": buffer.append(UInt8(ascii: "\""))
        default:
            guard nameText.hasPrefix("#") else {
                throw failure(.syntax, at: start, "unknown entity \(InputExcerpt.quoted("&" + nameText + ";"))")
            }
            let isHex = nameText.hasPrefix("#x") || nameText.hasPrefix("#X")
            let digits = nameText.dropFirst(isHex ? 2 : 1)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }),
                  let code = UInt32(digits, radix: isHex ? 16 : 10),
                  let scalar = Unicode.Scalar(code), code != 0 else {
                throw failure(.syntax, at: start, "invalid character reference \(InputExcerpt.quoted("&" + nameText + ";"))")
            }
            TextDecoding.appendUTF8(scalar.value, to: &buffer)
        }
    }
}
