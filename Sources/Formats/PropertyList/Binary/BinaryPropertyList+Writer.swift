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

    /// Creates a writer.
    public init(maximumDepth: Int = PropertyListLimits.default.maximumDepth) {
        self.maximumDepth = maximumDepth
    }

    /// Encodes `value` as a binary property list.
    public func write(_ value: PropertyListValue) throws -> Data {
        var flattener = BinaryObjectFlattener(maximumDepth: maximumDepth)
        _ = try flattener.flatten(value, depth: 0)
        return Data(flattener.serialize())
    }
}

/// Numbers the objects of a value, uniques its scalars by their encoded
/// bytes, then lays the objects out.
struct BinaryObjectFlattener {
    /// One object of the output: a scalar's encoded bytes in `scalarBytes`,
    /// or a container's references in `references`.
    struct FlatObject {
        var marker: UInt8 // 0 for a scalar, else the container marker (0xA0 or 0xD0)
        var start: Int
        var count: Int
    }

    let maximumDepth: Int
    var objects: [FlatObject] = []
    var scalarBytes: [UInt8] = []
    var references: [Int] = []
    var pending: [Int] = []
    /// Open-addressed table of object numbers, keyed by a hash of the scalar's bytes.
    var uniqueTable: [Int32] = Array(repeating: -1, count: 1024)
    var uniqueCount = 0

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
        objects.reserveCapacity(1024)
    }

    mutating func flatten(_ value: PropertyListValue, depth: Int) throws -> Int {
        switch value {
        case .date(let date) where !GregorianDate.isRepresentable(date.timeIntervalSinceReferenceDate):
            throw PropertyListError(.unsupportedValue, format: .binary,
                                    "date \(date.timeIntervalSinceReferenceDate) is not finite or outside the years −9999 … 9999")
        case .array(let elements):
            try checkDepth(depth)
            let index = objects.count
            objects.append(FlatObject(marker: 0xA0, start: 0, count: elements.count))
            let mark = pending.count
            for element in elements { pending.append(try flatten(element, depth: depth + 1)) }
            finishContainer(index, mark: mark)
            return index
        case .dictionary(let entries):
            try checkDepth(depth)
            let index = objects.count
            objects.append(FlatObject(marker: 0xD0, start: 0, count: entries.count))
            let mark = pending.count
            for key in entries.keys { pending.append(addString(key)) }
            for element in entries.values { pending.append(try flatten(element, depth: depth + 1)) }
            finishContainer(index, mark: mark)
            return index
        case .string(let string):
            return addString(string)
        default:
            let start = scalarBytes.count
            encodeScalar(value)
            return unique(from: start)
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

    mutating func addString(_ string: String) -> Int {
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
        return unique(from: start)
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

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= bytes.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            index += 8
        }
        var tail: UInt64 = 0
        while index < bytes.count {
            tail = tail << 8 | UInt64(bytes[index])
            index += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 29)
    }

    /// Returns the number of an existing object with the bytes appended
    /// since `start` (dropping them), or makes them a new object.
    mutating func unique(from start: Int) -> Int {
        let length = scalarBytes.count - start
        let found: Int = scalarBytes.withUnsafeBufferPointer { all in
            let candidate = UnsafeBufferPointer(rebasing: all[start...])
            let mask = uniqueTable.count - 1
            var slot = Int(truncatingIfNeeded: Self.hash(candidate)) & mask
            while true {
                let existing = uniqueTable[slot]
                if existing < 0 { return -1 - slot }
                let object = objects[Int(existing)]
                if object.count == length, let base = all.baseAddress,
                   memcmp(base + object.start, base + start, length) == 0 {
                    return Int(existing)
                }
                slot = (slot + 1) & mask
            }
        }
        if found >= 0 {
            scalarBytes.removeSubrange(start...)
            return found
        }
        let index = objects.count
        objects.append(FlatObject(marker: 0, start: start, count: length))
        uniqueTable[-1 - found] = Int32(truncatingIfNeeded: index)
        uniqueCount += 1
        if uniqueCount * 2 > uniqueTable.count { growTable() }
        return index
    }

    mutating func growTable() {
        var table = [Int32](repeating: -1, count: uniqueTable.count * 2)
        let mask = table.count - 1
        scalarBytes.withUnsafeBufferPointer { all in
            for existing in uniqueTable where existing >= 0 {
                let object = objects[Int(existing)]
                var slot = Int(truncatingIfNeeded: Self.hash(UnsafeBufferPointer(rebasing: all[object.start..<(object.start + object.count)]))) & mask
                while table[slot] >= 0 { slot = (slot + 1) & mask }
                table[slot] = existing
            }
        }
        uniqueTable = table
    }

    /// Lays out header, objects, offset table and trailer.
    func serialize() -> [UInt8] {
        let refSize = Self.byteWidth(UInt64(objects.count))
        var output: [UInt8] = []
        output.reserveCapacity(8 + scalarBytes.count + references.count * refSize + objects.count * 9 + 32)
        output.append(contentsOf: "bplist00".utf8)
        var offsets = [Int](repeating: 0, count: objects.count)
        scalarBytes.withUnsafeBufferPointer { scalars in
            for (number, object) in objects.enumerated() {
                offsets[number] = output.count
                if object.marker == 0 {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: scalars[object.start..<(object.start + object.count)]))
                    continue
                }
                let referenceCount = object.marker == 0xD0 ? object.count * 2 : object.count
                appendMarker(object.marker, count: object.count, to: &output)
                for reference in references[object.start..<(object.start + referenceCount)] {
                    Self.appendBigEndian(UInt64(reference), size: refSize, to: &output)
                }
            }
        }
        let tableOffset = output.count
        let offsetSize = Self.byteWidth(UInt64(tableOffset))
        for offset in offsets { Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &output) }
        output.append(contentsOf: repeatElement(0, count: 6))
        output.append(UInt8(offsetSize))
        output.append(UInt8(refSize))
        Self.appendBigEndian(UInt64(objects.count), size: 8, to: &output)
        Self.appendBigEndian(0, size: 8, to: &output)
        Self.appendBigEndian(UInt64(tableOffset), size: 8, to: &output)
        return output
    }
}
