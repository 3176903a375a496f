import Foundation
import OrderedCollections

/// Writes Apple's binary property lists (`bplist00`).
///
/// The layout follows CF's writer: the root is object 0, objects are
/// numbered in pre-order (a dictionary's keys, then its values), counts of
/// 15 or more follow the marker as an integer object, and references and
/// offsets are 1, 2, 4 or 8 bytes wide. Every scalar (string, number, date,
/// data, UID) is stored once however often it occurs, as plistlib and
/// older CF do, so output is never larger than plistlib's.
public struct BinaryPropertyListWriter: Sendable {
    /// What is refused: nesting deeper than ``PropertyListLimits/maximumDepth``
    /// (CF could not read it back), more than ``PropertyListLimits/maximumObjectCount``
    /// objects counting every occurrence (so a value that shares sub-trees,
    /// such as one read from a "billion laughs" file, is refused instead of
    /// being expanded), and output over ``PropertyListLimits/maximumOutputSize``.
    public var limits: PropertyListLimits

    /// Creates a writer with the readers' limits by default.
    public init(limits: PropertyListLimits = .default) {
        self.limits = limits
    }

    /// The object limit counted with: every object written takes at least a
    /// byte, so more objects than ``maximumOutputSize`` can never fit.
    var objectCap: Int { min(maximumObjectCount, maximumOutputSize) }

    /// Values with at least this many objects (and a root of two or more
    /// children) are encoded on two threads; see
    /// BinaryPropertyList+ParallelWriter.swift. Tests lower or raise it to
    /// force either path.
    var parallelThreshold = 65_536

    /// Encodes `value` as a binary property list.
    public func write(_ value: PropertyListValue) throws -> Data {
        let census = try PropertyListCensus.forWriting(value, format: .binary, maximumObjectCount: maximumObjectCount,
                                                       maximumDepth: maximumDepth, maximumOutputSize: maximumOutputSize) { limit in
            var counting = self
            counting.maximumObjectCount = limit
            return try counting.census(of: value)
        }
        // Object numbers are kept in 32-bit words while writing (see ScalarTable).
        guard census.objects < Int(UInt32.max) else {
            throw PropertyListError(.objectLimitExceeded, format: .binary,
                                    "value holds \(census.objects) objects; the binary writer takes fewer than 2^32 − 1")
        }
        if census.objects >= parallelThreshold, let data = try writeInParallel(value, census: census) {
            return data
        }
        return try writeSerially(value, census: census, referenceSize: BinaryPlistEmitter.byteWidth(UInt64(census.objects)))
    }

    /// Encodes `value` on the calling thread, first with references
    /// `referenceSize` bytes wide.
    func writeSerially(_ value: PropertyListValue, census: PropertyListCensus, referenceSize: Int) throws -> Data {
        // References are as wide as the object count needs. The census counts
        // repeats, so it can only overestimate; if that changes the width,
        // write again with the exact count, which the first pass found.
        var emitter = BinaryPlistEmitter(census: census, referenceSize: referenceSize)
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
    /// Scalars already written, for uniquing (see BinaryPlistEmitter+Uniquing.swift).
    var scalars: ScalarTable
    /// The last dictionary's keys: the identity of their storage and where
    /// their references were written. Records read from one file share one
    /// keys array (see the reader), so the next such record copies those
    /// references instead of uniquing each key again. Identity is sound
    /// within one write: the value being written keeps every array alive.
    var lastKeys: (storage: UnsafeRawPointer, count: Int, slot: Int)?

    /// Whether this emitter writes a fragment for the parallel writer: no
    /// header, and each new scalar's hash kept in `hashes` so the merge need
    /// not hash it again.
    let isFragment: Bool
    /// By object number, each scalar's hash and 0 for each container
    /// (fragments only).
    var hashes: [UInt64] = []

    init(census: PropertyListCensus, referenceSize: Int) {
        self.init(referenceSize: referenceSize, isFragment: false, share: EmitterShare(census: census))
    }

    init(referenceSize: Int, isFragment: Bool, share: EmitterShare) {
        self.referenceSize = referenceSize
        self.isFragment = isFragment
        // The census counts a shared scalar each time it occurs, but it is
        // written once: a wide "bomb" (a million references to one long
        // string) would reserve gigabytes. Start at most at 64 MiB and grow.
        output = ByteBuffer(capacity: min(share.scalarBytes + share.references * referenceSize + share.objects * 2 + 64, 1 << 26))
        offsets.reserveCapacity(share.objects)
        scalars = ScalarTable(expectedCount: share.distinctScalars, maximumObjects: share.maximumObjects)
        if isFragment {
            hashes.reserveCapacity(share.objects)
        } else {
            output.append("bplist00")
        }
    }

    mutating func emit(_ value: PropertyListValue, depth: Int) throws -> Int {
        switch value {
        case .array(let elements):
            let (index, references) = try openContainer(marker: 0xA0, count: elements.count, referenceSlots: elements.count)
            _ = try elements.withUnsafeBufferPointer { try emitValues($0, upTo: $0.count, depth: depth, slot: references) }
            return index
        case .dictionary(let entries):
            let (index, references) = try openContainer(marker: 0xD0, count: entries.count, referenceSlots: entries.count * 2)
            let slot = emitKeys(entries.keys, slot: references)
            _ = try entries.values.withUnsafeBufferPointer { try emitValues($0, upTo: $0.count, depth: depth, slot: slot) }
            return index
        case .string(let string):
            return addString(string)
        case .date(let date) where !GregorianDate.isRepresentable(date.timeIntervalSinceReferenceDate):
            throw PropertyListError(.unsupportedValue, format: .binary,
                                    "date \(date.timeIntervalSinceReferenceDate) is not finite or outside the years −9999 … 9999")
        default:
            let start = output.count
            encodeScalar(value)
            return unique(from: start)
        }
    }

    /// Writes a dictionary's keys and stores their numbers in the reference
    /// slots from byte `slot` on; returns the byte after the last slot used.
    @inline(__always)
    mutating func emitKeys(_ keys: OrderedSet<String>, slot: Int) -> Int {
        let storage = keys.storageIdentity
        if let storage, let last = lastKeys, last.storage == storage, last.count == keys.count {
            let length = keys.count * referenceSize
            output.copyWritten(from: last.slot, count: length, to: slot)
            return slot + length
        }
        var next = slot
        for key in keys {
            output.storeBigEndian(UInt64(addString(key)), size: referenceSize, at: next)
            next += referenceSize
        }
        if let storage { lastKeys = (storage, keys.count, slot) }
        return next
    }

    /// Writes `values[..<limit]`, children at `depth + 1`, and stores their
    /// numbers in the reference slots from byte `slot` on; returns the byte
    /// after the last slot used. Walking the buffer lends each child to
    /// `emit` where a `for` loop over the array would copy it, retaining and
    /// releasing its storage.
    @inline(__always)
    mutating func emitValues(_ values: UnsafeBufferPointer<PropertyListValue>, upTo limit: Int, depth: Int, slot: Int) throws -> Int {
        var slot = slot
        for index in 0..<limit {
            let child = try emit(values[index], depth: depth + 1)
            output.storeBigEndian(UInt64(child), size: referenceSize, at: slot)
            slot += referenceSize
        }
        return slot
    }

    /// Numbers a container and lays down its marker, count and room for its references.
    mutating func openContainer(marker: UInt8, count: Int, referenceSlots: Int) throws -> (index: Int, references: Int) {
        let index = offsets.count
        offsets.append(output.count)
        if isFragment { hashes.append(0) }
        appendMarker(marker, count: count)
        let references = output.count
        output.append(repeating: 0, count: referenceSlots * referenceSize)
        return (index, references)
    }

    mutating func addString(_ string: String) -> Int {
        let start = output.count
        // Reading the string's own UTF-8 storage; `withUTF8` would need a
        // mutable copy (a retain and release per string).
        let isASCII: Bool
        if let appended = string.utf8.withContiguousStorageIfAvailable({ appendIfASCII($0) }) {
            isASCII = appended
        } else {
            var native = string
            isASCII = native.withUTF8 { appendIfASCII($0) }
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

    /// Appends `utf8` as an ASCII string object if it is all ASCII; returns whether it was.
    @inline(__always)
    mutating func appendIfASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard BinaryObjectDecoder.isASCII(UnsafeRawBufferPointer(utf8)) else { return false }
        appendMarker(0x50, count: utf8.count)
        output.append(UnsafeRawBufferPointer(utf8))
        return true
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

    /// Stores `values` big-endian one after another, each in a `Word`.
    @inline(__always)
    static func store<Word: FixedWidthInteger>(_ values: UnsafeBufferPointer<Int>, as _: Word.Type, to table: UnsafeMutableRawPointer) {
        for index in values.indices {
            table.storeBytes(of: Word(truncatingIfNeeded: values[index]).bigEndian,
                             toByteOffset: index * MemoryLayout<Word>.size, as: Word.self)
        }
    }

    /// Appends the offset table and trailer and hands over the bytes.
    mutating func finish() -> Data {
        let tableOffset = output.count
        let offsetSize = Self.byteWidth(UInt64(tableOffset))
        output.appendInPlace(maximumCount: offsets.count * offsetSize) { out in
            // One store a word per offset: byte by byte this took 3 ms on the large benchmark document.
            offsets.withUnsafeBufferPointer { offsets in
                let table = UnsafeMutableRawPointer(out)
                switch offsetSize {
                case 1: Self.store(offsets, as: UInt8.self, to: table)
                case 2: Self.store(offsets, as: UInt16.self, to: table)
                case 4: Self.store(offsets, as: UInt32.self, to: table)
                default: Self.store(offsets, as: UInt64.self, to: table)
                }
            }
            return offsets.count * offsetSize
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
