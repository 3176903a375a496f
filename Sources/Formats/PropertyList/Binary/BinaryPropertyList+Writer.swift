import Foundation

/// Writes Apple's binary property lists (`bplist00`).
///
/// The layout follows CF's writer: the root is object 0, objects are
/// numbered in pre-order (a dictionary's keys, then its values), counts of
/// 15 or more follow the marker as an integer object, and references and
/// offsets are 1, 2, 4 or 8 bytes wide. Every scalar (string, number, date,
/// data, UID) is stored once however often it occurs, as plistlib and
/// older CF do, so output is never larger than plistlib's.
public struct BinaryPropertyListWriter: Sendable {
    /// The deepest nesting written; deeper values would be unreadable by CF.
    public var maximumDepth: Int
    /// The most objects (counting every occurrence) a value may have. A value
    /// that shares sub-trees, such as one read from a "billion laughs" file,
    /// is refused here instead of being expanded.
    public var maximumObjectCount: Int

    /// Creates a writer.
    public init(maximumDepth: Int = PropertyListLimits.default.maximumDepth,
                maximumObjectCount: Int = PropertyListLimits.default.maximumObjectCount) {
        self.maximumDepth = maximumDepth
        self.maximumObjectCount = maximumObjectCount
    }

    /// Encodes `value` as a binary property list.
    public func write(_ value: PropertyListValue) throws -> Data {
        let census = try PropertyListCensus(of: value, format: .binary, maximumObjectCount: maximumObjectCount, maximumDepth: maximumDepth)
        var flattener = BinaryObjectFlattener(maximumDepth: maximumDepth, census: census)
        _ = try flattener.flatten(value, depth: 0)
        return flattener.serialize()
    }
}

/// Numbers the objects of a value, uniques its scalars by their encoded
/// bytes, then lays the objects out.
struct BinaryObjectFlattener {
    /// One object of the output: a scalar's encoded bytes in `scalarBytes`,
    /// or a container's references in `references`.
    struct FlatObject {
        var start: Int
        /// A scalar's byte count, or a container's element count.
        var count: UInt32
        var marker: UInt8 // 0 for a scalar, else the container marker (0xA0 or 0xD0)
    }

    let maximumDepth: Int
    var objects: [FlatObject] = []
    var scalarBytes: [UInt8] = []
    var references: [Int32] = []
    var pending: [Int32] = []
    /// Open-addressed table of scalar objects, keyed by a hash of their bytes
    /// (see `entry(hash:object:)`).
    var uniqueTable: [UInt64] = Array(repeating: 0, count: 1024)
    var uniqueCount = 0

    init(maximumDepth: Int, census: PropertyListCensus) {
        self.maximumDepth = maximumDepth
        objects.reserveCapacity(census.objects)
        references.reserveCapacity(census.references)
        scalarBytes.reserveCapacity(census.scalarBytes)
        var tableSize = 1024
        // Dictionary keys repeat far more than other scalars; grow if this guess is low.
        while tableSize < (census.scalars - census.keys + 512) * 2 { tableSize <<= 1 }
        uniqueTable = Array(repeating: 0, count: tableSize)
    }

    mutating func flatten(_ value: PropertyListValue, depth: Int) throws -> Int {
        switch value {
        case .date(let date) where !GregorianDate.isRepresentable(date.timeIntervalSinceReferenceDate):
            throw PropertyListError(.unsupportedValue, format: .binary,
                                    "date \(date.timeIntervalSinceReferenceDate) is not finite or outside the years −9999 … 9999")
        case .array(let elements):
            try checkDepth(depth)
            let index = objects.count
            objects.append(FlatObject(start: 0, count: try Self.count(elements.count), marker: 0xA0))
            let mark = pending.count
            for element in elements { pending.append(Int32(truncatingIfNeeded: try flatten(element, depth: depth + 1))) }
            finishContainer(index, mark: mark)
            return index
        case .dictionary(let entries):
            try checkDepth(depth)
            let index = objects.count
            objects.append(FlatObject(start: 0, count: try Self.count(entries.count), marker: 0xD0))
            let mark = pending.count
            for key in entries.keys { pending.append(Int32(truncatingIfNeeded: try addString(key))) }
            for element in entries.values { pending.append(Int32(truncatingIfNeeded: try flatten(element, depth: depth + 1))) }
            finishContainer(index, mark: mark)
            return index
        case .string(let string):
            return try addString(string)
        default:
            let start = scalarBytes.count
            encodeScalar(value)
            return try unique(from: start)
        }
    }

    func checkDepth(_ depth: Int) throws {
        guard depth < maximumDepth else {
            throw PropertyListError(.depthLimitExceeded, format: .binary, "value nests deeper than \(maximumDepth) levels")
        }
    }

    mutating func finishContainer(_ index: Int, mark: Int) {
        objects[index].start = references.count
        references.append(contentsOf: pending[mark...])
        pending.removeSubrange(mark...)
    }

    /// Counts and sizes are kept in 32 bits; the limits keep real values far below.
    static func count(_ count: Int) throws -> UInt32 {
        guard let narrow = UInt32(exactly: count), narrow < UInt32(Int32.max) else {
            throw PropertyListError(.unsupportedValue, format: .binary, "an object of \(count) elements or bytes is too large to write")
        }
        return narrow
    }

    mutating func addString(_ string: String) throws -> Int {
        let start = scalarBytes.count
        var utf8View = string
        let isASCII = utf8View.withUTF8 { utf8 in
            guard BinaryObjectDecoder.isASCII(UnsafeRawBufferPointer(utf8)) else { return false }
            appendMarker(0x50, count: utf8.count, to: &scalarBytes)
            scalarBytes.append(contentsOf: utf8)
            return true
        }
        if !isASCII {
            appendMarker(0x60, count: string.utf16.count, to: &scalarBytes)
            for unit in string.utf16 {
                scalarBytes.append(UInt8(truncatingIfNeeded: unit >> 8))
                scalarBytes.append(UInt8(truncatingIfNeeded: unit))
            }
        }
        return try unique(from: start)
    }

    mutating func encodeScalar(_ value: PropertyListValue) {
        switch value {
        case .bool(let flag):
            scalarBytes.append(flag ? 0x09 : 0x08)
        case .integer(let integer):
            Self.appendInteger(integer, to: &scalarBytes)
        case .real(let real):
            scalarBytes.append(0x23)
            appendBigEndian(real.bitPattern, size: 8)
        case .float(let real):
            scalarBytes.append(0x22)
            appendBigEndian(UInt64(real.bitPattern), size: 4)
        case .date(let date):
            scalarBytes.append(0x33)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
        case .data(let data):
            appendMarker(0x40, count: data.count, to: &scalarBytes)
            scalarBytes.append(contentsOf: data)
        case .uid(let uid):
            let size = Self.byteWidth(uid.value)
            scalarBytes.append(0x80 | UInt8(size - 1))
            appendBigEndian(uid.value, size: size)
        case .string, .array, .dictionary:
            break // handled by the caller
        }
    }

    @inline(__always)
    mutating func appendBigEndian(_ value: UInt64, size: Int) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            scalarBytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// CF's integer encoding: the bit pattern read as unsigned picks 1, 2, 4
    /// or 8 bytes, so negatives take 8; values above `Int64.max` take 16.
    static func appendInteger(_ integer: PropertyListInteger, to output: inout [UInt8]) {
        let bits = integer.bitPattern
        if integer.needsSixteenBytes {
            output.append(0x14)
            output.append(contentsOf: repeatElement(0, count: 8))
            appendBigEndian(bits, size: 8, to: &output)
        } else if bits <= 0xFF {
            output.append(0x10)
            output.append(UInt8(bits))
        } else if bits <= 0xFFFF {
            output.append(0x11)
            appendBigEndian(bits, size: 2, to: &output)
        } else if bits <= 0xFFFF_FFFF {
            output.append(0x12)
            appendBigEndian(bits, size: 4, to: &output)
        } else {
            output.append(0x13)
            appendBigEndian(bits, size: 8, to: &output)
        }
    }

    @inline(__always)
    static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// A marker with its count: in the low nibble below 15, else nibble 0xF
    /// followed by an integer object.
    @inline(__always)
    func appendMarker(_ marker: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(marker | UInt8(count))
        } else {
            output.append(marker | 0x0F)
            Self.appendInteger(PropertyListInteger(UInt64(count)), to: &output)
        }
    }

    /// The smallest of 1, 2, 4 and 8 bytes that holds `value`.
    static func byteWidth(_ value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    /// A 64-bit hash of a scalar's encoded bytes, finished with MurmurHash3's
    /// mixer so every bit of the input reaches the low bits the table uses.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= bytes.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash = (hash << 31) | (hash >> 33)
            index += 8
        }
        var tail: UInt64 = 0
        while index < bytes.count {
            tail = tail << 8 | UInt64(bytes[index])
            index += 1
        }
        hash ^= tail
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return hash
    }

    /// A table entry: the hash's high 32 bits, then the object number plus one
    /// (so 0 means empty). Comparing the stored hash first avoids most byte
    /// comparisons on collisions.
    @inline(__always)
    static func entry(hash: UInt64, object: Int) -> UInt64 {
        (hash & 0xFFFF_FFFF_0000_0000) | UInt64(object + 1)
    }

    /// Returns the number of an existing object with the bytes appended
    /// since `start` (dropping them), or makes them a new object.
    mutating func unique(from start: Int) throws -> Int {
        let length = scalarBytes.count - start
        let storedLength = try Self.count(length)
        let hash = scalarBytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[start...])) }
        let mask = uniqueTable.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let found: Int = scalarBytes.withUnsafeBufferPointer { all in
            while true {
                let existing = uniqueTable[slot]
                if existing == 0 { return -1 }
                if existing & 0xFFFF_FFFF_0000_0000 == hash & 0xFFFF_FFFF_0000_0000 {
                    let object = objects[Int(existing & 0xFFFF_FFFF) - 1]
                    if object.count == storedLength, let base = all.baseAddress,
                       memcmp(base + object.start, base + start, length) == 0 {
                        return Int(existing & 0xFFFF_FFFF) - 1
                    }
                }
                slot = (slot + 1) & mask
            }
        }
        if found >= 0 {
            scalarBytes.removeSubrange(start...)
            return found
        }
        let index = objects.count
        objects.append(FlatObject(start: start, count: storedLength, marker: 0))
        uniqueTable[slot] = Self.entry(hash: hash, object: index)
        uniqueCount += 1
        if uniqueCount * 2 > uniqueTable.count { growTable() } // only if the census was off
        return index
    }

    mutating func growTable() {
        var table = [UInt64](repeating: 0, count: uniqueTable.count * 2)
        let mask = table.count - 1
        scalarBytes.withUnsafeBufferPointer { all in
            for existing in uniqueTable where existing != 0 {
                let object = objects[Int(existing & 0xFFFF_FFFF) - 1]
                let hash = Self.hash(UnsafeBufferPointer(rebasing: all[object.start..<(object.start + Int(object.count))]))
                var slot = Int(truncatingIfNeeded: hash) & mask
                while table[slot] != 0 { slot = (slot + 1) & mask }
                table[slot] = existing
            }
        }
        uniqueTable = table
    }

    /// The bytes a marker and its count take (see `appendMarker`).
    @inline(__always)
    static func markerSize(count: Int) -> Int {
        count < 15 ? 1 : 2 + byteWidth(UInt64(count))
    }

    /// Lays out header, objects, offset table and trailer in one buffer of
    /// the exact size: a first pass sizes every object, the second writes
    /// objects and their offsets together.
    func serialize() -> Data {
        let refSize = Self.byteWidth(UInt64(objects.count))
        var objectBytes = 0
        for object in objects {
            if object.marker == 0 {
                objectBytes += Int(object.count)
            } else {
                let referenceCount = object.marker == 0xD0 ? Int(object.count) * 2 : Int(object.count)
                objectBytes += Self.markerSize(count: Int(object.count)) + referenceCount * refSize
            }
        }
        let tableOffset = 8 + objectBytes
        let offsetSize = Self.byteWidth(UInt64(tableOffset))
        let total = tableOffset + objects.count * offsetSize + 32
        var data = Data(count: total)
        data.withUnsafeMutableBytes { output in
            guard let out = output.baseAddress else { return }
            @inline(__always) func store(_ value: UInt64, size: Int, at position: Int) {
                var shift = (size - 1) * 8
                var index = position
                while shift >= 0 {
                    out.storeBytes(of: UInt8(truncatingIfNeeded: value >> UInt64(shift)), toByteOffset: index, as: UInt8.self)
                    shift -= 8
                    index += 1
                }
            }
            for (index, byte) in "bplist00".utf8.enumerated() { out.storeBytes(of: byte, toByteOffset: index, as: UInt8.self) }
            var position = 8
            var offsetAt = tableOffset
            scalarBytes.withUnsafeBytes { scalars in
                references.withUnsafeBufferPointer { references in
                    for object in objects {
                        store(UInt64(position), size: offsetSize, at: offsetAt)
                        offsetAt += offsetSize
                        let count = Int(object.count)
                        if object.marker == 0 {
                            if let source = scalars.baseAddress { (out + position).copyMemory(from: source + object.start, byteCount: count) }
                            position += count
                            continue
                        }
                        if count < 15 {
                            out.storeBytes(of: object.marker | UInt8(count), toByteOffset: position, as: UInt8.self)
                            position += 1
                        } else {
                            out.storeBytes(of: object.marker | 0x0F, toByteOffset: position, as: UInt8.self)
                            let width = Self.byteWidth(UInt64(count))
                            out.storeBytes(of: 0x10 | UInt8(width.trailingZeroBitCount), toByteOffset: position + 1, as: UInt8.self)
                            store(UInt64(count), size: width, at: position + 2)
                            position += 2 + width
                        }
                        let referenceCount = object.marker == 0xD0 ? count * 2 : count
                        for reference in references[object.start..<(object.start + referenceCount)] {
                            store(UInt64(reference), size: refSize, at: position)
                            position += refSize
                        }
                    }
                }
            }
            let trailer = offsetAt
            out.storeBytes(of: UInt8(offsetSize), toByteOffset: trailer + 6, as: UInt8.self)
            out.storeBytes(of: UInt8(refSize), toByteOffset: trailer + 7, as: UInt8.self)
            store(UInt64(objects.count), size: 8, at: trailer + 8)
            store(UInt64(tableOffset), size: 8, at: trailer + 24)
        }
        return data
    }
}
