import Foundation
import OrderedCollections

/// Writes Apple's XML property lists in CF's layout.
///
/// The output matches `CFPropertyListCreateData` byte for byte where CF is
/// well defined: the same header and DOCTYPE, one element per line
/// indented with tabs, `<true/>`, `<dict/>` and `<array/>` for empty
/// containers, base64 lines of 76 − 8 × indent characters, and dates as
/// `YYYY-MM-DDTHH:MM:SSZ`. Where CF's output is lossy or not XML, this
/// writer differs on purpose:
/// - reals are written in their shortest form that reads back exactly
///   (`0.1`, not CF's `0.10000000000000001`); `nan`, `+infinity` and
///   `-infinity` as CF spells them;
/// - a carriage return is written as `&#13;` so XML parsers keep it;
/// - characters XML 1.0 forbids (controls other than tab, newline and
///   carriage return) are refused with ``PropertyListError/Code/unsupportedValue``,
///   where CF writes them raw and produces a file no XML parser accepts.
///
/// Dictionary keys are written in insertion order; sort them with
/// ``PropertyListWriteOptions/sortsKeys`` to get CF's order.
/// Dates lose their fractional seconds (floored), as with CF.
public struct XMLPropertyListWriter: Sendable {
    /// What is refused: nesting deeper than ``PropertyListLimits/maximumDepth``,
    /// more than ``PropertyListLimits/maximumObjectCount`` objects counting
    /// every occurrence (so a value sharing sub-trees cannot expand into an
    /// unbounded document), and output over ``PropertyListLimits/maximumOutputSize``.
    public var limits: PropertyListLimits

    /// Creates a writer with the readers' limits by default.
    public init(limits: PropertyListLimits = .default) {
        self.limits = limits
    }

    static let header: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// Encodes `value` as an XML property list.
    public func write(_ value: PropertyListValue) throws -> Data {
        try write(value, parallelThreshold: Self.parallelObjectThreshold)
    }

    /// Encodes `value`, on two threads when it has at least `parallelThreshold`
    /// objects (see XMLPropertyList+ParallelWriter.swift).
    func write(_ value: PropertyListValue, parallelThreshold: Int) throws -> Data {
        let census = try PropertyListCensus.forWriting(value, format: .xml, maximumObjectCount: maximumObjectCount,
                                                       maximumDepth: maximumDepth, maximumOutputSize: maximumOutputSize) { limit in
            try PropertyListCensus(of: value, format: .xml, maximumObjectCount: limit, maximumDepth: maximumDepth)
        }
        // Tags, indentation and base64 roughly double the scalar bytes
        // (never reserving much more than the output may be).
        let capacity = min(census.scalarBytes * 2 + census.objects * 24 + 256, maximumOutputSize + 4096)
        if census.objects >= parallelThreshold, let data = try writeInHalves(value, capacity: capacity) {
            return data
        }
        var emitter = XMLPlistEmitter(maximumDepth: maximumDepth)
        emitter.output.reserve(capacity)
        emitter.output.append(Self.header)
        try emitter.emit(value, indent: 0)
        emitter.output.append("</plist>\n")
        return emitter.output.takeData()
    }
}

struct XMLPlistEmitter {
    var output = ByteBuffer(capacity: 4096)
    let maximumDepth: Int

    init(maximumDepth: Int) { self.maximumDepth = maximumDepth }

    /// An emitter appending to `output` (which shares its storage with the caller's buffer).
    init(maximumDepth: Int, output: ByteBuffer) {
        self.maximumDepth = maximumDepth
        self.output = output
    }

    /// An error about the value being written. Its key path starts empty;
    /// each container puts its key or index in front as the error passes up
    /// (`within(_:)`), so a successful write builds no path strings.
    func failure(_ message: String) -> PropertyListError {
        PropertyListError(.unsupportedValue, format: .xml, location: .keyPath(""), message)
    }

    /// Writes `element` below the key or index `component`, naming it in any error's key path (`key.1.name`, as plutil's key paths).
    @inline(__always)
    mutating func emit(_ element: PropertyListValue, indent: Int, within component: @autoclosure () -> String) throws {
        try Self.within(component()) { try emit(element, indent: indent) }
    }

    /// Runs `body`, which writes something below the key or index
    /// `component`, putting `component` in front of any error's key path.
    @inline(__always)
    static func within(_ component: @autoclosure () -> String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as PropertyListError {
            guard case .keyPath(let rest) = error.location else { throw error }
            var prefixed = error
            prefixed.location = .keyPath(rest.isEmpty ? component() : component() + "." + rest)
            throw prefixed
        }
    }

    /// Runs `body`, which writes the dictionary key `key()`, naming the key
    /// as the key path of any error (a key cannot be written, say, with a
    /// control character).
    @inline(__always)
    static func writingKey(_ key: () -> String, _ body: () throws -> Void) throws {
        do { try body() } catch let error as PropertyListError {
            var named = error
            named.location = .keyPath(key())
            throw named
        }
    }

    @inline(__always) mutating func tabs(_ count: Int) {
        output.append(repeating: 0x09, count: count)
    }

    mutating func emit(_ value: PropertyListValue, indent: Int) throws {
        tabs(indent)
        switch value {
        case .string(let string):
            var string = string
            try string.withUTF8 { try appendStringElement(utf8: $0) }
        case .integer(let integer):
            appendIntegerElement(integer)
        case .real(let real):
            appendRealElement(real)
        case .float(let real):
            appendRealElement(Double(real))
        case .bool(let flag):
            appendBoolElement(flag)
        case .date(let date):
            guard appendDateElement(date) else {
                throw failure("date \(date.timeIntervalSinceReferenceDate) has no calendar form")
            }
        case .data(let data):
            data.withUnsafeBytes { appendDataElement($0, indent: indent) }
        case .uid(let uid):
            output.append("<dict>\n")
            tabs(indent + 1)
            output.append("<key>CF$UID</key>\n")
            tabs(indent + 1)
            output.append("<integer>")
            output.appendDecimal(uid.value)
            output.append("</integer>\n")
            tabs(indent)
            output.append("</dict>\n")
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append("<array/>\n")
                return
            }
            try checkDepth(indent)
            output.append("<array>\n")
            try emitElements(elements, elements.indices, indent: indent + 1)
            tabs(indent)
            output.append("</array>\n")
        case .dictionary(let entries):
            guard !entries.isEmpty else {
                output.append("<dict/>\n")
                return
            }
            try checkDepth(indent)
            output.append("<dict>\n")
            try emitEntries(entries, 0..<entries.count, indent: indent + 1)
            tabs(indent)
            output.append("</dict>\n")
        }
    }

    // The scalar elements, each with its newline, the writer after the
    // indent: written from decoded values by `emit` and from a binary
    // file's bytes by the streaming converter, spelled here once.

    @inline(__always)
    mutating func appendIntegerElement(_ integer: PropertyListInteger) {
        output.append("<integer>")
        output.appendDecimal(integer)
        output.append("</integer>\n")
    }

    @inline(__always)
    mutating func appendRealElement(_ real: Double) {
        output.append("<real>")
        Self.appendReal(real, to: &output)
        output.append("</real>\n")
    }

    @inline(__always)
    mutating func appendBoolElement(_ flag: Bool) {
        output.append(flag ? "<true/>\n" : "<false/>\n")
    }

    /// False, with the element unfinished, when the date has no calendar
    /// form; the caller fails the whole document then.
    @inline(__always)
    mutating func appendDateElement(_ date: Date) -> Bool {
        output.append("<date>")
        guard XMLDateFormat.append(date, to: &output) else { return false }
        output.append("</date>\n")
        return true
    }

    /// `<string>…</string>` and a newline, the reader after the indent.
    @inline(__always)
    mutating func appendStringElement(utf8: UnsafeBufferPointer<UInt8>) throws {
        output.append("<string>")
        try appendEscaped(utf8: utf8)
        output.append("</string>\n")
    }

    /// `<data>`, `bytes` in base64 lines (CF's: 76 − 8 × indent characters
    /// each) and `</data>`, the reader after the indent.
    mutating func appendDataElement(_ bytes: UnsafeRawBufferPointer, indent: Int) {
        output.append("<data>\n")
        Base64.appendLines(bytes, lineLength: 76 - 8 * min(indent, 8), indent: indent, to: &output)
        tabs(indent)
        output.append("</data>\n")
    }

    /// Writes `elements[range]`, each at `indent`, naming its index in any error's key path.
    mutating func emitElements(_ elements: [PropertyListValue], _ range: Range<Int>, indent: Int) throws {
        for index in range {
            try emit(elements[index], indent: indent, within: String(index))
        }
    }

    /// Writes the entries at offsets `range` of `entries`, key and value at
    /// `indent`, naming the key in any error's key path.
    mutating func emitEntries(_ entries: OrderedDictionary<String, PropertyListValue>, _ range: Range<Int>,
                              indent: Int) throws {
        let keys = entries.keys
        let values = entries.values
        for offset in range {
            let key = keys[offset]
            tabs(indent)
            output.append("<key>")
            try Self.writingKey({ key }) { try appendEscaped(key) }
            output.append("</key>\n")
            try emit(values[offset], indent: indent, within: key)
        }
    }

    func checkDepth(_ depth: Int) throws {
        guard depth < maximumDepth else {
            throw PropertyListError(.depthLimitExceeded, format: .xml, location: .keyPath(""),
                                    "value nests deeper than \(maximumDepth) levels")
        }
    }

    /// Escapes `<`, `>` and `&` (as CF does) and carriage returns; refuses
    /// characters XML 1.0 cannot carry.
    mutating func appendEscaped(_ string: String) throws {
        var string = string
        try string.withUTF8 { try appendEscaped(utf8: $0) }
    }

    /// ``appendEscaped(_:)`` of well-formed UTF-8 bytes (the binary-to-XML
    /// stream writes strings straight from the input).
    mutating func appendEscaped(utf8: UnsafeBufferPointer<UInt8>) throws {
        var runStart = 0
        var index = 0
        let count = utf8.count
        while index < count {
            // Eight bytes at a time while none can need escaping: most text.
            if index + 8 <= count, let start = utf8.baseAddress,
               !Self.mayNeedEscaping(UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = utf8[index]
            index += 1
            // Fast skip: nothing at or above '?' needs escaping, but for the
            // UTF-8 lead byte of U+FFFE and U+FFFF.
            guard byte < 0x3F || byte == 0xEF else { continue }
            let replacement: StaticString
            switch byte {
            case 0xEF:
                if index + 1 < count, utf8[index] == 0xBF, utf8[index + 1] & 0xFE == 0xBE {
                    throw failure("string contains a non-character (U+FFFE or U+FFFF), which XML 1.0 cannot represent")
                }
                continue
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "&"): replacement = "&amp;"
            case 0x0D: replacement = "&#13;"
            case 0x09, 0x0A: continue
            case ..<0x20: throw failure("string contains the control character U+\(String(byte, radix: 16, uppercase: true)), which XML 1.0 cannot represent")
            default: continue
            }
            output.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[runStart..<(index - 1)]))
            output.append(replacement)
            runStart = index
        }
        output.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[runStart...]))
    }

    /// Whether any of the eight bytes in `word` is one the escaping loop
    /// must look at: a control character, `&`, `<`, `>`, or 0xEF (the lead
    /// byte of U+FFFE and U+FFFF). Never false for such a word; may be true
    /// for others, which the loop then passes byte by byte.
    @inline(__always)
    static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        return (word &- ones &* 0x20) & ~word & highs != 0 // a byte below 0x20
            || hasZeroByte(word ^ (ones &* 0x26)) || hasZeroByte(word ^ (ones &* 0x3C))
            || hasZeroByte(word ^ (ones &* 0x3E)) || hasZeroByte(word ^ (ones &* 0xEF))
    }

    /// The shortest text that reads back as exactly `real`, without a
    /// trailing `.0`; CF's spellings for the special values.
    static func appendReal(_ real: Double, to output: inout ByteBuffer) {
        if real.isNaN {
            output.append("nan")
        } else if real.isInfinite {
            output.append(real < 0 ? "-infinity" : "+infinity")
        } else if real == real.rounded(), abs(real) < 1e15 {
            output.appendDecimal(PropertyListInteger(Int64(real)))
            if real == 0, real.sign == .minus, output.last == UInt8(ascii: "0") {
                output.removeLast()
                output.append("-0")
            }
        } else {
            // `description`'s text, written straight into the output: a
            // Double writes its digits as ASCII (`_writeASCII`), where
            // `description` would allocate a String for most of them.
            let start = output.count
            var text = ASCIIOutput(output: output)
            real.write(to: &text)
            let end = output.count
            if end - start >= 2, output.written[end - 2] == UInt8(ascii: "."), output.written[end - 1] == UInt8(ascii: "0") {
                output.truncate(to: end - 2)
            }
        }
    }
}
