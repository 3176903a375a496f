/// A growable byte buffer for the writers: appends without per-byte
/// bounds bookkeeping beyond one capacity check.
struct ByteBuffer {
    var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    @inline(__always) mutating func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always) mutating func append(_ raw: UnsafeRawBufferPointer) { bytes.append(contentsOf: raw) }

    @inline(__always) mutating func append(_ string: StaticString) {
        string.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` big-endian in `size` bytes (1…8).
    @inline(__always) mutating func appendBigEndian(_ value: UInt64, size: Int) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// Appends the UTF-8 bytes of `string`.
    @inline(__always) mutating func append(utf8 string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends an integer in decimal.
    mutating func appendDecimal(_ value: PropertyListInteger) {
        if value.isNegative {
            bytes.append(UInt8(ascii: "-"))
            // The magnitude of a two's-complement pattern, Int64.min included.
            appendDecimal(0 &- value.bitPattern)
        } else {
            appendDecimal(value.bitPattern)
        }
    }

    /// Appends an unsigned integer in decimal.
    mutating func appendDecimal(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes of scratch, enough for 20 digits
        withUnsafeMutableBytes(of: &digits) { scratch in
            var remaining = value
            var position = scratch.count
            while remaining > 0 {
                position -= 1
                scratch[position] = UInt8(truncatingIfNeeded: remaining % 10) &+ 0x30
                remaining /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[position...]))
        }
    }
}
