/// Where a substring match may end: not just before a combining mark.
///
/// Folding decomposes "é" into "e" and a combining acute, so without this
/// rule `"café" CONTAINS[c] "cafe"` would match on the bytes of the
/// decomposed form, where NSString, which compares whole characters, does
/// not. A match that ends just before a mark has split a character, and is
/// refused, in memory and in SQL alike.
enum GraphemeBoundary {
    /// Whether the scalar starting at `offset` of valid UTF-8 `bytes` is a
    /// combining mark (nonspacing, spacing or enclosing); false at the end
    /// and for ASCII.
    @inline(__always)
    static func isMark(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset < bytes.count, bytes[offset] >= 0x80 else { return false }
        guard let scalar = decodeScalar(at: offset, in: bytes)?.scalar else { return false }
        return isMark(scalar)
    }

    @inline(__always)
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// The scalar at `offset` and its length in bytes, or nil for bytes that
    /// are not well-formed UTF-8 there.
    static func decodeScalar(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (scalar: Unicode.Scalar, length: Int)? {
        let lead = bytes[offset]
        let length: Int
        var value: UInt32
        switch lead {
        case 0..<0x80: return (Unicode.Scalar(lead), 1)
        case 0xC2..<0xE0: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0..<0xF0: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0..<0xF5: length = 4; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        for index in 1..<length {
            let byte = bytes[offset + index]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
