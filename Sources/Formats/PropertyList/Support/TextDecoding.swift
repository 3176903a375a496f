/// Turns the bytes of a text property list (XML or OpenStep) into UTF-8,
/// whatever Unicode encoding they came in, and maps byte offsets back to
/// lines and columns for error messages.
enum TextDecoding {
    enum Encoding { case utf8, utf16BigEndian, utf16LittleEndian, utf32BigEndian, utf32LittleEndian }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The encoding of `bytes` and the length of its byte-order mark.
    ///
    /// Without a mark, UTF-16 and UTF-32 are recognised from the zero bytes
    /// around the first (ASCII) character, as XML 1.0 appendix F suggests.
    static func detectEncoding(_ bytes: UnsafeRawBufferPointer) -> (Encoding, bomLength: Int) {
        let count = bytes.count
        let b0 = count > 0 ? bytes[0] : 1, b1 = count > 1 ? bytes[1] : 1
        let b2 = count > 2 ? bytes[2] : 1, b3 = count > 3 ? bytes[3] : 1
        if b0 == 0xEF, b1 == 0xBB, b2 == 0xBF { return (.utf8, 3) }
        if b0 == 0x00, b1 == 0x00, b2 == 0xFE, b3 == 0xFF { return (.utf32BigEndian, 4) }
        if b0 == 0xFF, b1 == 0xFE, b2 == 0x00, b3 == 0x00, count >= 4 { return (.utf32LittleEndian, 4) }
        if b0 == 0xFE, b1 == 0xFF { return (.utf16BigEndian, 2) }
        if b0 == 0xFF, b1 == 0xFE { return (.utf16LittleEndian, 2) }
        guard count >= 4 else { return (.utf8, 0) }
        if b0 == 0, b1 == 0, b2 == 0, b3 != 0 { return (.utf32BigEndian, 0) }
        if b0 != 0, b1 == 0, b2 == 0, b3 == 0 { return (.utf32LittleEndian, 0) }
        if b0 == 0, b1 != 0 { return (.utf16BigEndian, 0) }
        if b0 != 0, b1 == 0 { return (.utf16LittleEndian, 0) }
        return (.utf8, 0)
    }

    /// Calls `body` with the input as UTF-8 bytes: the input itself when it
    /// already is UTF-8 (minus any BOM), else a transcoded copy.
    static func withUTF8<R>(
        _ bytes: UnsafeRawBufferPointer, format: PropertyListFormat,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        let (encoding, bomLength) = detectEncoding(bytes)
        let payload = UnsafeRawBufferPointer(rebasing: bytes[bomLength...])
        if encoding == .utf8 { return try body(payload) }
        let utf8 = try transcode(payload, from: encoding, format: format)
        return try utf8.withUnsafeBytes { try body($0) }
    }

    /// The first bytes of `bytes` as UTF-8, for format detection.
    static func utf8Prefix(of bytes: [UInt8], format: PropertyListFormat) -> [UInt8] {
        bytes.withUnsafeBytes { raw in
            let (encoding, bomLength) = detectEncoding(raw)
            let payload = UnsafeRawBufferPointer(rebasing: raw[bomLength...])
            if encoding == .utf8 { return Array(payload) }
            // Cut to whole code units; a prefix may end mid-character.
            let unit = (encoding == .utf16BigEndian || encoding == .utf16LittleEndian) ? 2 : 4
            let whole = UnsafeRawBufferPointer(rebasing: payload[..<(payload.count / unit * unit)])
            return (try? transcode(whole, from: encoding, format: format)) ?? []
        }
    }

    static func transcode(_ bytes: UnsafeRawBufferPointer, from encoding: Encoding, format: PropertyListFormat) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        func fail(_ offset: Int, _ why: String) -> PropertyListError {
            PropertyListError(.invalidEncoding, format: format, location: .byteOffset(offset), why)
        }
        switch encoding {
        case .utf8:
            output.append(contentsOf: bytes)
        case .utf16BigEndian, .utf16LittleEndian:
            guard bytes.count % 2 == 0 else { throw fail(bytes.count - 1, "UTF-16 text has an odd number of bytes") }
            let bigEndian = encoding == .utf16BigEndian
            var index = 0
            while index < bytes.count {
                let unit = bigEndian ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
                    : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
                var scalar = UInt32(unit)
                if unit & 0xFC00 == 0xD800 {
                    guard index + 3 < bytes.count else { throw fail(index, "UTF-16 text ends inside a surrogate pair") }
                    let low = bigEndian ? UInt16(bytes[index + 2]) << 8 | UInt16(bytes[index + 3])
                        : UInt16(bytes[index + 3]) << 8 | UInt16(bytes[index + 2])
                    guard low & 0xFC00 == 0xDC00 else { throw fail(index, "unpaired UTF-16 high surrogate") }
                    scalar = 0x10000 + ((UInt32(unit) & 0x3FF) << 10 | (UInt32(low) & 0x3FF))
                    index += 2
                } else if unit & 0xFC00 == 0xDC00 {
                    throw fail(index, "unpaired UTF-16 low surrogate")
                }
                appendUTF8(scalar, to: &output)
                index += 2
            }
        case .utf32BigEndian, .utf32LittleEndian:
            guard bytes.count % 4 == 0 else { throw fail(bytes.count - bytes.count % 4, "UTF-32 text is not a whole number of code units") }
            let bigEndian = encoding == .utf32BigEndian
            var index = 0
            while index < bytes.count {
                let b = (0..<4).map { UInt32(bytes[index + $0]) }
                let scalar = bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
                guard scalar < 0x110000, scalar & 0xFFFFF800 != 0xD800 else {
                    throw fail(index, "invalid UTF-32 code point \(scalar)")
                }
                appendUTF8(scalar, to: &output)
                index += 4
            }
        }
        return output
    }

    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The 1-based line and column (counted in Unicode scalars) of `offset`
    /// in UTF-8 `text`. Computed only when an error is reported.
    static func location(of offset: Int, in text: UnsafeRawBufferPointer) -> PropertyListError.Location {
        var line = 1, column = 1
        var index = 0
        let end = min(offset, text.count)
        while index < end {
            let byte = text[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return .text(line: line, column: column)
    }

    /// A string from UTF-8 bytes, or `nil` if they are not valid UTF-8.
    @inline(__always)
    static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        // ASCII fast path: no validation work beyond the scan.
        var allASCII = true
        for byte in bytes where byte >= 0x80 {
            allASCII = false
            break
        }
        if allASCII { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether `bytes` is well-formed UTF-8: no stray continuation bytes,
    /// overlong forms, surrogates or scalars above U+10FFFF.
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var index = 0
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // Sequence length and the allowed range of the second byte, per the Unicode standard's table 3-7.
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard count - index >= length, (low...high).contains(bytes[index + 1]) else { return false }
            for next in index + 2 ..< index + length where bytes[next] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }
}
