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
        // References are as wide as the object count needs. The census counts
        // repeats, so it can only overestimate; if that changes the width,
        // write again with the exact count, which the first pass found.
        var emitter = BinaryPlistEmitter(census: census, referenceSize: BinaryPlistEmitter.byteWidth(UInt64(census.objects)))
        _ = try emitter.emit(value, depth: 0)
        let exactSize = BinaryPlistEmitter.byteWidth(UInt64(emitter.objectCount))
        if exactSize != emitter.referenceSize {
            emitter = BinaryPlistEmitter(census: census, referenceSize: exactSize)
            _ = try emitter.emit(value, depth: 0)
        }
        return emitter.finish()
    }
}

/// Writes objects straight into the output in object-number order: a
/// container's slot (marker, count, references) is laid down when it is
/// numbered and its references are filled in once its children have numbers;
/// a scalar is encoded in place and dropped again if an equal one exists.
struct BinaryPlistEmitter {
    var output: ByteBuffer
    let referenceSize: Int
    /// Byte offset of every object, by object number.
    var offsets: [Int] = []
    var objectCount: Int { offsets.count }
    /// Open-addressed table of scalar objects keyed by a hash of their bytes
    /// (see `entry(hash:object:)`).
    var uniqueTable: [UInt64]
    var uniqueCount = 0

    init(census: PropertyListCensus, referenceSize: Int) {
        self.referenceSize = referenceSize
        output = ByteBuffer(capacity: census.scalarBytes + census.references * referenceSize + census.objects * 2 + 64)
        offsets.reserveCapacity(census.objects)
        var tableSize = 1024
        // Dictionary keys repeat far more than other scalars; grow if this guess is low.
        while tableSize < (census.scalars - census.keys + 512) * 2 { tableSize <<= 1 }
        uniqueTable = Array(repeating: 0, count: tableSize)
        output.append("bplist00")
    }

    mutating func emit(_ value: PropertyListValue, depth: Int) throws -> Int {
        switch value {
        case .array(let elements):
            let (index, references) = try openContainer(marker: 0xA0, count: elements.count, referenceSlots: elements.count)
            var slot = references
            for element in elements {
                let child = try emit(element, depth: depth + 1)
                output.storeBigEndian(UInt64(child), size: referenceSize, at: slot)
                slot += referenceSize
            }
            return index
        case .dictionary(let entries):
            let (index, references) = try openContainer(marker: 0xD0, count: entries.count, referenceSlots: entries.count * 2)
            var slot = references
            for key in entries.keys {
                let child = try addString(key)
                output.storeBigEndian(UInt64(child), size: referenceSize, at: slot)
                slot += referenceSize
            }
            for element in entries.values {
                let child = try emit(element, depth: depth + 1)
                output.storeBigEndian(UInt64(child), size: referenceSize, at: slot)
                slot += referenceSize
            }
            return index
        case .string(let string):
            return try addString(string)
        case .date(let date) where !GregorianDate.isRepresentable(date.timeIntervalSinceReferenceDate):
            throw PropertyListError(.unsupportedValue, format: .binary,
                                    "date \(date.timeIntervalSinceReferenceDate) is not finite or outside the years −9999 … 9999")
        default:
            let start = output.count
            encodeScalar(value)
            return unique(from: start)
        }
    }

    /// Numbers a container and lays down its marker, count and room for its references.
    mutating func openContainer(marker: UInt8, count: Int, referenceSlots: Int) throws -> (index: Int, references: Int) {
        let index = offsets.count
        offsets.append(output.count)
        appendMarker(marker, count: count)
        let references = output.count
        output.append(repeating: 0, count: referenceSlots * referenceSize)
        return (index, references)
    }

    mutating func addString(_ string: String) throws -> Int {
        let start = output.count
        var utf8View = string
        let isASCII = utf8View.withUTF8 { utf8 in
            guard BinaryObjectDecoder.isASCII(UnsafeRawBufferPointer(utf8)) else { return false }
            appendMarker(0x50, count: utf8.count)
            output.append(UnsafeRawBufferPointer(utf8))
            return true
        }
        if !isASCII {
            let units = string.utf16.count
            appendMarker(0x60, count: units)
            output.appendInPlace(maximumCount: units * 2) { out in
                var written = 0
                for unit in string.utf16 {
                    out[written] = UInt8(truncatingIfNeeded: unit >> 8)
                    out[written + 1] = UInt8(truncatingIfNeeded: unit)
                    written += 2
                }
                return written
            }
        }
        return unique(from: start)
    }

    mutating func encodeScalar(_ value: PropertyListValue) {
        switch value {
        case .bool(let flag):
            output.append(flag ? 0x09 : 0x08)
        case .integer(let integer):
            appendInteger(integer)
        case .real(let real):
            output.append(0x23)
            output.appendBigEndian(real.bitPattern, size: 8)
        case .float(let real):
            output.append(0x22)
            output.appendBigEndian(UInt64(real.bitPattern), size: 4)
        case .date(let date):
            output.append(0x33)
            output.appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
        case .data(let data):
            appendMarker(0x40, count: data.count)
            data.withUnsafeBytes { output.append($0) }
        case .uid(let uid):
            let size = Self.byteWidth(uid.value)
            output.append(0x80 | UInt8(size - 1))
            output.appendBigEndian(uid.value, size: size)
        case .string, .array, .dictionary:
            break // handled by the caller
        }
    }

    /// CF's integer encoding: the bit pattern read as unsigned picks 1, 2, 4
    /// or 8 bytes, so negatives take 8; values above `Int64.max` take 16.
    mutating func appendInteger(_ integer: PropertyListInteger) {
        let bits = integer.bitPattern
        if integer.needsSixteenBytes {
            output.append(0x14)
            output.append(repeating: 0, count: 8)
            output.appendBigEndian(bits, size: 8)
        } else {
            let size = Self.byteWidth(bits)
            output.append(0x10 | UInt8(size.trailingZeroBitCount))
            output.appendBigEndian(bits, size: size)
        }
    }

    /// A marker with its count: in the low nibble below 15, else nibble 0xF
    /// followed by an integer object.
    @inline(__always)
    mutating func appendMarker(_ marker: UInt8, count: Int) {
        if count < 15 {
            output.append(marker | UInt8(count))
        } else {
            output.append(marker | 0x0F)
            appendInteger(PropertyListInteger(UInt64(count)))
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
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
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

    /// Returns the number of an existing scalar equal to the bytes written
    /// since `start` (dropping them), or numbers them as a new object.
    ///
    /// Encodings are self-delimiting (the marker gives the length), so equal
    /// prefixes of the candidate's length mean equal objects.
    mutating func unique(from start: Int) -> Int {
        let written = output.written
        let length = written.count - start
        let candidate = UnsafeRawBufferPointer(rebasing: written[start...])
        let hash = Self.hash(candidate)
        let mask = uniqueTable.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let existing = uniqueTable[slot]
            if existing == 0 { break }
            if existing & 0xFFFF_FFFF_0000_0000 == hash & 0xFFFF_FFFF_0000_0000 {
                let object = Int(existing & 0xFFFF_FFFF) - 1
                let offset = offsets[object]
                if offset + length <= start, let base = written.baseAddress, let other = candidate.baseAddress,
                   Platform.bytesEqual(base + offset, other, count: length) {
                    output.truncate(to: start)
                    return object
                }
            }
            slot = (slot + 1) & mask
        }
        let index = offsets.count
        offsets.append(start)
        uniqueTable[slot] = Self.entry(hash: hash, object: index)
        uniqueCount += 1
        if uniqueCount * 2 > uniqueTable.count { growTable() } // only if the census guess was low
        return index
    }

    mutating func growTable() {
        var table = [UInt64](repeating: 0, count: uniqueTable.count * 2)
        let mask = table.count - 1
        let written = output.written
        for existing in uniqueTable where existing != 0 {
            let start = offsets[Int(existing & 0xFFFF_FFFF) - 1]
            let length = Self.encodedLength(in: written, at: start)
            let hash = Self.hash(UnsafeRawBufferPointer(rebasing: written[start..<(start + length)]))
            var slot = Int(truncatingIfNeeded: hash) & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = existing
        }
        uniqueTable = table
    }

    /// The length of the scalar encoded at `start` (used only when rehashing).
    static func encodedLength(in bytes: UnsafeRawBufferPointer, at start: Int) -> Int {
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        func counted(unit: Int) -> Int {
            guard low == 0x0F else { return 1 + low * unit }
            let size = 1 << Int(bytes[start + 1] & 0x0F)
            var count = 0
            for index in 0..<size { count = count << 8 | Int(bytes[start + 2 + index]) }
            return 2 + size + count * unit
        }
        switch marker >> 4 {
        case 0x0: return 1
        case 0x1, 0x2: return 1 + (1 << low)
        case 0x3: return 9
        case 0x4, 0x5: return counted(unit: 1)
        case 0x6: return counted(unit: 2)
        case 0x8: return 2 + low
        default: return 1
        }
    }

    /// Appends the offset table and trailer and hands over the bytes.
    mutating func finish() -> Data {
        let tableOffset = output.count
        let offsetSize = Self.byteWidth(UInt64(tableOffset))
        output.appendInPlace(maximumCount: offsets.count * offsetSize) { out in
            var written = 0
            for offset in offsets {
                var shift = (offsetSize - 1) * 8
                while shift >= 0 {
                    out[written] = UInt8(truncatingIfNeeded: offset >> shift)
                    shift -= 8
                    written += 1
                }
            }
            return written
        }
        output.append(repeating: 0, count: 6)
        output.append(UInt8(offsetSize))
        output.append(UInt8(referenceSize))
        output.appendBigEndian(UInt64(offsets.count), size: 8)
        output.appendBigEndian(0, size: 8)
        output.appendBigEndian(UInt64(tableOffset), size: 8)
        return output.takeData()
    }
}
