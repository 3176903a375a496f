import Foundation

/// The object area of a binary property list as the decoder
/// (`BinaryObjectDecoder`) and the validator (`BinaryObjectValidator`)
/// both see it, with the checked reads they share: offsets, counts,
/// references, extents, and the objects that need no allocation.
///
/// Sharing them is what makes the two passes refuse the same files with the
/// same error at the same byte: `sandbox plist -lint` validates, and
/// every other command decodes.
protocol BinaryObjectArea {
    var layout: BinaryObjectLayout { get }
}

/// Where a binary property list's objects are and how they are addressed,
/// from its validated trailer.
struct BinaryObjectLayout {
    let base: UnsafeRawPointer
    /// Objects live in `8 ..< objectAreaEnd`; the offset table starts there.
    let objectAreaEnd: Int
    let offsetIntSize, refSize, objectCount, maximumDepth: Int

    init(bytes: UnsafeRawBufferPointer, trailer: BinaryPropertyListTrailer, maximumDepth: Int) {
        // A non-empty buffer always has a base address; an empty one cannot pass the trailer checks.
        base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1).unsafelyUnwrapped
        objectAreaEnd = trailer.offsetTableOffset
        offsetIntSize = trailer.offsetIntSize
        refSize = trailer.objectRefSize
        objectCount = trailer.objectCount
        self.maximumDepth = maximumDepth
    }
}

extension BinaryObjectArea {
    /// Whether an object's marker byte is an array's, a set's or a
    /// dictionary's: the objects that hold references.
    @inline(__always)
    static func isContainer(marker: UInt8) -> Bool {
        let kind = marker >> 4
        return kind == 0xA || kind == 0xC || kind == 0xD
    }

    @inline(__always) var base: UnsafeRawPointer { layout.base }
    @inline(__always) var objectAreaEnd: Int { layout.objectAreaEnd }
    @inline(__always) var offsetIntSize: Int { layout.offsetIntSize }
    @inline(__always) var refSize: Int { layout.refSize }
    @inline(__always) var objectCount: Int { layout.objectCount }
    @inline(__always) var maximumDepth: Int { layout.maximumDepth }

    func failure(_ code: PropertyListError.Code, _ offset: Int, _ message: String) -> PropertyListError {
        PropertyListError(code, format: .binary, location: .byteOffset(offset), message)
    }

    /// A big-endian unsigned integer of 1 to 8 bytes. The caller has checked the extent.
    @inline(__always)
    func readUInt(_ at: Int, _ size: Int) -> UInt64 {
        switch size {
        case 1: return UInt64(base.load(fromByteOffset: at, as: UInt8.self))
        case 2: return UInt64(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
        case 8: return UInt64(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        default:
            var value: UInt64 = 0
            for index in 0..<size { value = value << 8 | UInt64(base.load(fromByteOffset: at + index, as: UInt8.self)) }
            return value
        }
    }

    /// Checks that `length` bytes from `start` lie inside the object area.
    @inline(__always)
    func checkExtent(_ start: Int, _ length: Int, object at: Int, _ what: String) throws {
        let (end, overflow) = start.addingReportingOverflow(length)
        guard !overflow, end <= objectAreaEnd else {
            throw failure(.outOfBounds, at, "\(what) of \(length) bytes runs past the object area (ends at \(objectAreaEnd))")
        }
    }

    @inline(__always)
    func offset(of object: Int) throws -> Int {
        let entry = objectAreaEnd + object * offsetIntSize
        let offset = readUInt(entry, offsetIntSize)
        guard offset >= 8, offset < UInt64(objectAreaEnd) else {
            throw failure(.outOfBounds, entry, "object \(object) has offset \(offset), outside the object area 8..<\(objectAreaEnd)")
        }
        return Int(offset)
    }

    /// The element count of the object at `at` and where its payload starts.
    func readCount(at: Int, low: UInt8) throws -> (count: Int, payload: Int) {
        if low != 0x0F { return (Int(low), at + 1) }
        try checkExtent(at + 1, 1, object: at, "count marker")
        let marker = base.load(fromByteOffset: at + 1, as: UInt8.self)
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw failure(.invalidObject, at + 1, String(format: "count is not a 1-8 byte integer (marker 0x%02X)", marker))
        }
        let size = 1 << Int(marker & 0x0F)
        try checkExtent(at + 2, size, object: at, "count")
        let count = readUInt(at + 2, size)
        guard count <= UInt64(Int.max) else { throw failure(.outOfBounds, at + 2, "count \(count) is too large") }
        return (Int(count), at + 2 + size)
    }

    @inline(__always)
    func readReference(_ at: Int) throws -> Int {
        let reference = readUInt(at, refSize)
        guard reference < UInt64(objectCount) else {
            throw failure(.outOfBounds, at, "reference \(reference) is not below the object count \(objectCount)")
        }
        return Int(reference)
    }

    func decodeInteger(at: Int, low: UInt8) throws -> PropertyListValue {
        guard low <= 4 else {
            throw failure(.invalidObject, at, "integer of \(1 << Int(min(low, 15))) bytes; at most 16 are allowed")
        }
        let size = 1 << Int(low)
        try checkExtent(at + 1, size, object: at, "integer")
        switch size {
        case 8:
            return .integer(PropertyListInteger(Int64(bitPattern: readUInt(at + 1, 8))))
        case 16:
            // CF writes values above Int64.max with a zero high half. A
            // sign-extended high half also appears in the wild for negatives.
            let high = readUInt(at + 1, 8), lowHalf = readUInt(at + 9, 8)
            if high == 0 { return .integer(PropertyListInteger(lowHalf)) }
            if high == UInt64.max, Int64(bitPattern: lowHalf) < 0 {
                return .integer(PropertyListInteger(Int64(bitPattern: lowHalf)))
            }
            throw failure(.invalidScalar, at, "16-byte integer is outside −2^63 … 2^64−1")
        default:
            return .integer(PropertyListInteger(readUInt(at + 1, size)))
        }
    }

    /// Decodes the object at `at` when its kind has a fixed size and needs
    /// no allocation (booleans, integers, reals, dates, UIDs), and throws for
    /// every other marker: the caller handles data, strings and containers first.
    func decodeFixedSizeObject(at: Int, marker: UInt8) throws -> PropertyListValue {
        let low = marker & 0x0F
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            case 0x00: throw failure(.invalidObject, at, "null objects (marker 0x00) are not property-list values")
            default: throw unknownMarker(marker, at: at)
            }
        case 0x1:
            return try decodeInteger(at: at, low: low)
        case 0x2:
            if low == 2 {
                try checkExtent(at + 1, 4, object: at, "real")
                return .float(Float(bitPattern: UInt32(readUInt(at + 1, 4))))
            } else if low == 3 {
                try checkExtent(at + 1, 8, object: at, "real")
                return .real(Double(bitPattern: readUInt(at + 1, 8)))
            }
            throw failure(.invalidObject, at, "real of \(1 << Int(low)) bytes; only 4 and 8 are allowed")
        case 0x3:
            guard low == 3 else { throw unknownMarker(marker, at: at) }
            try checkExtent(at + 1, 8, object: at, "date")
            let seconds = Double(bitPattern: readUInt(at + 1, 8))
            guard GregorianDate.isRepresentable(seconds) else {
                throw failure(.invalidScalar, at, "date \(seconds) is not finite or outside the years −9999 … 9999")
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x8:
            let size = Int(low) + 1
            try checkExtent(at + 1, size, object: at, "UID")
            return .uid(PropertyListUID(readUInt(at + 1, size)))
        default:
            throw unknownMarker(marker, at: at)
        }
    }

    func unknownMarker(_ marker: UInt8, at: Int) -> PropertyListError {
        failure(.invalidObject, at, String(format: "unknown object marker 0x%02X", marker))
    }

    /// Where a data object's bytes start, and how many there are.
    @inline(__always)
    func dataExtent(at: Int, low: UInt8) throws -> (payload: Int, count: Int) {
        let (count, payload) = try readCount(at: at, low: low)
        try checkExtent(payload, count, object: at, "data")
        return (payload, count)
    }

    /// An ASCII string object's bytes, checked to be ASCII.
    @inline(__always)
    func asciiStringBytes(at: Int, low: UInt8) throws -> UnsafeRawBufferPointer {
        let (count, payload) = try readCount(at: at, low: low)
        try checkExtent(payload, count, object: at, "ASCII string")
        let bytes = UnsafeRawBufferPointer(start: base + payload, count: count)
        guard BinaryObjectDecoder.isASCII(bytes) else {
            throw failure(.invalidEncoding, at, "ASCII string object contains a byte above 0x7F")
        }
        return bytes
    }

    /// Where a UTF-16 string object's big-endian code units start, and how
    /// many there are (their pairing is checked by the caller).
    @inline(__always)
    func utf16StringUnits(at: Int, low: UInt8) throws -> (payload: Int, units: Int) {
        let (count, payload) = try readCount(at: at, low: low)
        let (length, overflow) = count.multipliedReportingOverflow(by: 2)
        guard !overflow else { throw failure(.outOfBounds, at, "UTF-16 string length \(count) overflows") }
        try checkExtent(payload, length, object: at, "UTF-16 string")
        return (payload, count)
    }

    /// Transcodes the `units` big-endian UTF-16 code units at `payload`
    /// into UTF-8 at `buffer` (room for `units × 3` bytes): the bytes
    /// written, or the first unpaired surrogate's code unit.
    func transcodeUTF16BigEndian(_ payload: Int, units: Int,
                                 into buffer: UnsafeMutablePointer<UInt8>) -> (written: Int, malformedAt: Int?) {
        let source = base + payload
        var written = 0
        var index = 0
        while index < units {
            let unit = UInt16(bigEndian: source.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))
            var scalar = UInt32(unit)
            if unit < 0x80 {
                buffer[written] = UInt8(unit)
                written += 1
                index += 1
                continue
            }
            if unit & 0xFC00 == 0xD800 {
                guard index + 1 < units else { return (written, index) }
                let next = UInt16(bigEndian: source.loadUnaligned(fromByteOffset: (index + 1) * 2, as: UInt16.self))
                guard next & 0xFC00 == 0xDC00 else { return (written, index) }
                scalar = 0x10000 + ((UInt32(unit) & 0x3FF) << 10 | (UInt32(next) & 0x3FF))
                index += 1
            } else if unit & 0xFC00 == 0xDC00 {
                return (written, index)
            }
            if scalar < 0x800 {
                buffer[written] = UInt8(0xC0 | scalar >> 6)
                buffer[written + 1] = UInt8(0x80 | scalar & 0x3F)
                written += 2
            } else if scalar < 0x10000 {
                buffer[written] = UInt8(0xE0 | scalar >> 12)
                buffer[written + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
                buffer[written + 2] = UInt8(0x80 | scalar & 0x3F)
                written += 3
            } else {
                buffer[written] = UInt8(0xF0 | scalar >> 18)
                buffer[written + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                buffer[written + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                buffer[written + 3] = UInt8(0x80 | scalar & 0x3F)
                written += 4
            }
            index += 1
        }
        return (written, nil)
    }

    func unpairedSurrogate(at unit: Int, object at: Int) -> PropertyListError {
        failure(.invalidEncoding, at, "UTF-16 string has an unpaired surrogate at code unit \(unit)")
    }

    /// A container's element count and where its references start, checked
    /// to lie inside the object area (a dictionary has two references per entry).
    func containerExtent(at: Int, low: UInt8, isDictionary: Bool) throws -> (count: Int, payload: Int) {
        let (count, payload) = try readCount(at: at, low: low)
        let (length, overflow) = count.multipliedReportingOverflow(by: isDictionary ? refSize * 2 : refSize)
        guard !overflow else {
            throw failure(.outOfBounds, at, isDictionary ? "dictionary of \(count) entries overflows" : "array of \(count) references overflows")
        }
        try checkExtent(payload, length, object: at, isDictionary ? "dictionary" : "array")
        return (count, payload)
    }

    /// Refuses a container at `depth` (the root is at 0) deeper than the limit.
    @inline(__always)
    func checkDepth(_ depth: Int, at: Int) throws {
        guard depth < maximumDepth else {
            throw failure(.depthLimitExceeded, at, "nesting deeper than \(maximumDepth) levels")
        }
    }

    func cycle(object index: Int, at: Int) -> PropertyListError {
        failure(.cycle, at, "object \(index) contains itself")
    }

    func notAStringKey(object keyIndex: Int, dictionaryAt at: Int) -> PropertyListError {
        failure(.invalidKey, at, "dictionary key (object \(keyIndex)) is not a string")
    }
}
