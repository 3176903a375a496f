import FileSystem
import OrderedCollections

/// A container root whose values the parallel binary writer cuts in two:
/// the front half writes the root, all its keys and `values[..<boundary]`;
/// the back half writes `values[boundary...]` as a fragment.
struct RootSplit {
    let marker: UInt8
    let keys: OrderedSet<String>?
    /// The array's elements or the dictionary's values.
    let values: [PropertyListValue]
    let boundary: Int
    /// About what part of all objects the back half holds.
    let backFraction: Double

    /// Splits `value` where the front half (root and keys included) first
    /// holds half the objects, or returns nil if the root has fewer than
    /// two children to split between.
    init?(_ value: PropertyListValue, census: PropertyListCensus) {
        switch value {
        case .array(let elements):
            (marker, keys, values) = (0xA0, nil, elements)
        case .dictionary(let entries):
            (marker, keys, values) = (0xD0, entries.keys, entries.values.elements)
        default:
            return nil
        }
        let ends = census.rootChildEnds
        guard values.count >= 2, ends.count == values.count, census.objects > 0 else { return nil }
        // `ends` rises with the index: find the first value that brings the
        // front to half, keeping at least one value on each side.
        let half = (census.objects + 1) / 2
        var low = 1
        var high = values.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle - 1] < half { low = middle + 1 } else { high = middle }
        }
        boundary = low
        backFraction = Double(census.objects - ends[low - 1]) / Double(census.objects)
    }
}

extension BinaryPlistEmitter {
    /// Writes the split's root with its keys and the values before its
    /// boundary, and returns the byte offset of the reference slot of the
    /// first value left to the back half (those slots stay zero until the
    /// merge fills them).
    mutating func emitRoot(of split: RootSplit) throws -> Int {
        let count = split.values.count
        let (_, references) = try openContainer(marker: split.marker, count: count,
                                                referenceSlots: count + (split.keys?.count ?? 0))
        let slot = split.keys.map { emitKeys($0, slot: references) } ?? references
        return try split.values.withUnsafeBufferPointer { try emitValues($0, upTo: split.boundary, depth: 0, slot: slot) }
    }

    /// Writes `values` and their descendants as a fragment numbered from 0,
    /// and returns each value's local object number.
    mutating func emitFragment(_ values: ArraySlice<PropertyListValue>) throws -> [Int] {
        var numbers: [Int] = []
        numbers.reserveCapacity(values.count)
        for value in values {
            numbers.append(try emit(value, depth: 1))
        }
        return numbers
    }
}

/// Copies a range of a fragment's objects into the merged output: the kept
/// scalars as they are (runs of adjacent ones in one copy), the containers
/// with every reference rewritten to its final number.
struct FragmentCopy {
    let fragment: BinaryPlistEmitter
    /// Final numbers by local number; below `firstNew` for dropped scalars.
    let numbers: UnsafeBufferPointer<UInt32>
    let firstNew: Int
    let referenceSize: Int

    /// Copies the kept objects among `locals` to `destination`, which is
    /// byte `origin` of the output, and stores their offsets at `offsets`.
    func copy(_ locals: Range<Int>, to destination: UnsafeMutableRawPointer, origin: Int,
              offsets: UnsafeMutablePointer<Int>?) {
        let source = fragment.output.written
        guard let from = source.baseAddress, let offsets else { return }
        fragment.offsets.withUnsafeBufferPointer { starts in
            var written = 0
            var kept = 0
            // Kept scalars not copied yet: they sit together in the fragment
            // too, as nothing dropped or rewritten lies between them.
            var runStart = 0
            var runLength = 0
            for local in locals {
                let start = starts[local]
                let length = (local + 1 < starts.count ? starts[local + 1] : source.count) - start
                guard Int(numbers[local]) >= firstNew else {
                    (destination + written - runLength).copyMemory(from: from + runStart, byteCount: runLength)
                    runLength = 0
                    continue
                }
                offsets[kept] = origin + written
                kept += 1
                if BinaryPlistEmitter.isContainer(source[start]) {
                    (destination + written - runLength).copyMemory(from: from + runStart, byteCount: runLength)
                    runLength = 0
                    copyContainer(from: from + start, length: length, to: destination + written)
                } else {
                    if runLength == 0 { runStart = start }
                    runLength += length
                }
                written += length
            }
            (destination + written - runLength).copyMemory(from: from + runStart, byteCount: runLength)
        }
    }

    /// Copies a container's marker and count, then its references mapped to final numbers.
    @inline(__always)
    func copyContainer(from source: UnsafeRawPointer, length: Int, to destination: UnsafeMutableRawPointer) {
        // A count of 15 or more follows the marker as an integer object: marker 0x1n and 2^n bytes.
        let marker = source.load(as: UInt8.self)
        let header = marker & 0x0F == 0x0F ? 2 + (1 << Int(source.load(fromByteOffset: 1, as: UInt8.self) & 0x0F)) : 1
        destination.copyMemory(from: source, byteCount: header)
        var position = header
        while position < length {
            let local = Self.loadReference(source + position, size: referenceSize)
            Self.storeReference(numbers[local], size: referenceSize, to: destination + position)
            position += referenceSize
        }
    }

    @inline(__always)
    static func loadReference(_ pointer: UnsafeRawPointer, size: Int) -> Int {
        switch size {
        case 1: Int(pointer.load(as: UInt8.self))
        case 2: Int(UInt16(bigEndian: pointer.loadUnaligned(as: UInt16.self)))
        case 4: Int(UInt32(bigEndian: pointer.loadUnaligned(as: UInt32.self)))
        default: Int(truncatingIfNeeded: UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)))
        }
    }

    @inline(__always)
    static func storeReference(_ value: UInt32, size: Int, to pointer: UnsafeMutableRawPointer) {
        switch size {
        case 1: pointer.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        case 2: pointer.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, as: UInt16.self)
        case 4: pointer.storeBytes(of: value.bigEndian, as: UInt32.self)
        default: pointer.storeBytes(of: UInt64(value).bigEndian, as: UInt64.self)
        }
    }
}

/// The parallel writer's merge: appends a fragment (the back half, numbered
/// from 0 with its own scalar table) to the front half so that the result is
/// what one emitter would have written for the whole value.
///
/// Both halves number objects in first-occurrence pre-order, and a fragment
/// holds each of its distinct scalars once. Walking the fragment's objects in
/// order, dropping the scalars the front already holds and numbering the
/// rest on from the front's count therefore gives every object the number the
/// serial writer gives it, and the kept objects' bytes follow one another in
/// the serial writer's order.
///
/// The merge runs in three phases: the look-ups in the front's table (only
/// reads, so the two threads split them), the numbering of new objects (a
/// cheap serial pass that also finds where each thread's copy goes), and
/// the copy with references rewritten (two threads again).
extension BinaryPlistEmitter {
    /// Marks a fragment object that the front does not hold.
    static let unnumbered = UInt32.max

    /// Phase 1: for each fragment object in `locals`, stores the front's
    /// number of an equal scalar in `numbers`, or `unnumbered`.
    ///
    /// The look-ups are independent of each other, so the processor overlaps
    /// their cache misses on the table.
    func lookUp(_ fragment: BinaryPlistEmitter, _ locals: Range<Int>, into numbers: UnsafeMutableBufferPointer<UInt32>) {
        let written = output.written
        let source = fragment.output.written
        fragment.offsets.withUnsafeBufferPointer { starts in
            fragment.hashes.withUnsafeBufferPointer { hashes in
                for local in locals {
                    let start = starts[local]
                    let end = local + 1 < starts.count ? starts[local + 1] : source.count
                    guard !Self.isContainer(source[start]) else {
                        numbers[local] = Self.unnumbered
                        continue
                    }
                    let candidate = UnsafeRawBufferPointer(rebasing: source[start..<end])
                    let found = find(candidate, hash: hashes[local], before: written.count, in: written).object
                    numbers[local] = found >= 0 ? UInt32(truncatingIfNeeded: found) : Self.unnumbered
                }
            }
        }
    }

    /// Phase 2: numbers the objects phase 1 left unnumbered, on from this
    /// emitter's count, and says where the copy of the objects from
    /// `copySplit` on starts.
    func numberNewObjects(of fragment: BinaryPlistEmitter, _ numbers: UnsafeMutableBufferPointer<UInt32>,
                          copySplit: Int) -> MergeLayout {
        var layout = MergeLayout(objectCount: offsets.count, bytes: 0, splitObjects: 0, splitBytes: 0)
        let total = fragment.output.count
        fragment.offsets.withUnsafeBufferPointer { starts in
            for local in 0..<starts.count {
                if local == copySplit {
                    layout.splitObjects = layout.objectCount - offsets.count
                    layout.splitBytes = layout.bytes
                }
                guard numbers[local] == Self.unnumbered else { continue }
                numbers[local] = UInt32(truncatingIfNeeded: layout.objectCount)
                layout.objectCount += 1
                layout.bytes += (local + 1 < starts.count ? starts[local + 1] : total) - starts[local]
            }
        }
        return layout
    }

    /// Phase 3: appends the fragment's new objects (those `numbers` gives a
    /// number from this emitter's count on), their references rewritten to
    /// final numbers, the two halves of the fragment on two threads.
    mutating func append(_ fragment: BinaryPlistEmitter, numbers: UnsafeBufferPointer<UInt32>,
                         layout: MergeLayout, copySplit: Int) {
        let firstNew = offsets.count
        let origin = output.count
        let size = referenceSize
        offsets.append(contentsOf: repeatElement(0, count: layout.objectCount - firstNew))
        offsets.withUnsafeMutableBufferPointer { offsets in
            let newOffsets = offsets.baseAddress.map { $0 + firstNew }
            output.appendInPlace(maximumCount: layout.bytes) { out in
                let destination = UnsafeMutableRawPointer(out)
                let part = FragmentCopy(fragment: fragment, numbers: numbers, firstNew: firstNew, referenceSize: size)
                let copy = { (locals: Range<Int>, objects: Int, bytes: Int) in
                    part.copy(locals, to: destination + bytes, origin: origin + bytes, offsets: newOffsets.map { $0 + objects })
                }
                _ = TwoThreads.run({ copy(0..<copySplit, 0, 0) },
                                   { copy(copySplit..<fragment.offsets.count, layout.splitObjects, layout.splitBytes) })
                return layout.bytes
            }
        }
    }

    /// Writes the final numbers of the back half's top-level values into the
    /// root's empty reference slots, which start at byte `slot`.
    mutating func fillRootSlots(from slot: Int, locals: [Int], numbers: UnsafeBufferPointer<UInt32>) {
        var slot = slot
        for local in locals {
            output.storeBigEndian(UInt64(numbers[local]), size: referenceSize, at: slot)
            slot += referenceSize
        }
    }

    /// Whether an object's marker byte is an array's or a dictionary's (the
    /// only containers this writer makes).
    @inline(__always)
    static func isContainer(_ marker: UInt8) -> Bool {
        marker >> 4 == 0xA || marker >> 4 == 0xD
    }
}

/// The outcome of numbering a fragment's new objects.
struct MergeLayout {
    /// Objects in the merged output.
    var objectCount: Int
    /// Bytes of the fragment's new objects.
    var bytes: Int
    /// New objects, and their bytes, before the copy's split point.
    var splitObjects: Int
    var splitBytes: Int
}

/// How much of a value one emitter writes, so it can size its output,
/// offset list and scalar table once instead of growing them.
struct EmitterShare {
    /// Objects, counting repeats.
    var objects: Int
    /// References held by containers.
    var references: Int
    /// An estimate of the bytes scalars take when encoded.
    var scalarBytes: Int
    /// A guess at the number of distinct scalars (the table grows if it is low).
    var distinctScalars: Int
    /// The most objects the whole value can have; object numbers stay below it.
    var maximumObjects: Int

    /// All of the value the census counted.
    init(census: PropertyListCensus) {
        objects = census.objects
        references = census.references
        scalarBytes = census.scalarBytes
        // Dictionary keys repeat far more than other scalars, so they are left
        // out of the guess at the number of distinct scalars.
        distinctScalars = census.scalars - census.keys + 512
        maximumObjects = census.objects
    }

    /// The share of the parallel writer's front half, which holds about
    /// `1 − backFraction` of the objects. Its buffers are sized for the whole
    /// value because the back half's bytes and offsets are appended to them.
    static func front(_ census: PropertyListCensus, backFraction: Double) -> EmitterShare {
        var share = EmitterShare(census: census)
        share.distinctScalars = Self.scaled(share.distinctScalars, by: 1 - backFraction) + 512
        return share
    }

    /// The share of the parallel writer's back half, which holds about
    /// `backFraction` of the objects.
    static func back(_ census: PropertyListCensus, backFraction: Double) -> EmitterShare {
        var share = EmitterShare(census: census)
        share.objects = Self.scaled(share.objects, by: backFraction)
        share.references = Self.scaled(share.references, by: backFraction)
        share.scalarBytes = Self.scaled(share.scalarBytes, by: backFraction)
        share.distinctScalars = Self.scaled(share.distinctScalars, by: backFraction) + 512
        return share
    }

    private static func scaled(_ count: Int, by fraction: Double) -> Int {
        Int((Double(count) * fraction).rounded(.up))
    }
}

/// The binary writer's scalar uniquing: every string, number, date, data and
/// UID is written once, and later equal scalars refer to the first.
///
/// A scalar is encoded in place at the end of the output, hashed, and looked
/// up; on a hit the fresh bytes are dropped again. The table is open
/// addressed with 32-bit words: the object number in the low bits and as
/// many hash bits as are left above it, so a probe rejects most non-matching
/// neighbours without loading the object's offset and bytes. Most of the
/// writer's time went to cache misses on this table; 32-bit words sized for
/// the expected distinct scalars (load ≤ ½) make it a quarter of the earlier
/// 64-bit table sized for all scalars (4 MiB instead of 16 MiB on the large
/// benchmark document), which keeps far more of it in cache.
///
/// A small direct-mapped front cache for recent scalars was tried and gave
/// nothing measurable: the repeated scalars (dictionary keys, booleans, small
/// numbers) keep their own table lines in cache anyway; the misses are the
/// first occurrences, which no cache can catch.
struct ScalarTable {
    /// Keeps `words` allocated; replaced when the table grows.
    var storage: ZeroedTable<UInt32>
    var words: UnsafeMutablePointer<UInt32>
    var mask: Int
    /// Low bits holding the object number plus one (0 marks an empty word).
    let objectMask: UInt32
    var count = 0

    /// A table for about `expectedCount` distinct scalars among at most
    /// `maximumObjects` objects (which must be below 2^32 − 1).
    init(expectedCount: Int, maximumObjects: Int) {
        var size = 1024
        while size < expectedCount { size <<= 1 }
        storage = ZeroedTable(count: size)
        words = storage.words
        mask = size - 1
        let objectBits = 64 - UInt64(maximumObjects + 1).leadingZeroBitCount
        objectMask = objectBits >= 32 ? UInt32.max : (1 << UInt32(objectBits)) - 1
    }

    @inline(__always)
    func word(hash: UInt64, object: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: hash >> 32) & ~objectMask | UInt32(truncatingIfNeeded: object + 1)
    }
}

extension BinaryPlistEmitter {
    /// Returns the number of an existing scalar equal to the bytes written
    /// since `start` (dropping them), or numbers them as a new object.
    mutating func unique(from start: Int) -> Int {
        let written = output.written
        let candidate = UnsafeRawBufferPointer(rebasing: written[start...])
        let hash = Self.hash(candidate)
        let (object, slot) = find(candidate, hash: hash, before: start, in: written)
        if object >= 0 {
            output.truncate(to: start)
            return object
        }
        let index = offsets.count
        offsets.append(start)
        if isFragment { hashes.append(hash) }
        scalars.words[slot] = scalars.word(hash: hash, object: index)
        scalars.count += 1
        if scalars.count * 2 > scalars.mask { growTable() } // only if the census guess was low
        return index
    }

    /// Looks up a scalar equal to the encoded bytes `candidate` among the
    /// objects written before byte `limit` of `written`: returns its number
    /// and its slot, or −1 and the empty slot where it belongs.
    ///
    /// Encodings are self-delimiting (the marker gives the length), so equal
    /// prefixes of the candidate's length mean equal objects.
    @inline(__always)
    func find(_ candidate: UnsafeRawBufferPointer, hash: UInt64, before limit: Int,
              in written: UnsafeRawBufferPointer) -> (object: Int, slot: Int) {
        let objectMask = scalars.objectMask
        let tag = scalars.word(hash: hash, object: -1)
        var slot = Int(truncatingIfNeeded: hash) & scalars.mask
        while true {
            let existing = scalars.words[slot]
            if existing == 0 { return (-1, slot) }
            if existing & ~objectMask == tag {
                let object = Int(existing & objectMask) - 1
                if matches(object, candidate, before: limit, in: written) { return (object, slot) }
            }
            slot = (slot + 1) & scalars.mask
        }
    }

    /// Whether object `object`, written before byte `limit`, has the bytes of `candidate`.
    @inline(__always)
    func matches(_ object: Int, _ candidate: UnsafeRawBufferPointer, before limit: Int,
                 in written: UnsafeRawBufferPointer) -> Bool {
        let offset = offsets[object]
        let length = candidate.count
        guard offset + length <= limit, let base = written.baseAddress, let other = candidate.baseAddress else { return false }
        let existing = base + offset
        // Most scalars are a few bytes long: compare words here rather than call memcmp.
        if length <= 32 {
            var index = 0
            while index + 8 <= length {
                if existing.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    != other.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
                index += 8
            }
            while index < length {
                if existing.load(fromByteOffset: index, as: UInt8.self)
                    != other.load(fromByteOffset: index, as: UInt8.self) { return false }
                index += 1
            }
            return true
        }
        return RawMemory.bytesEqual(existing, other, count: length)
    }

    /// Doubles the table. The words keep too few hash bits to place them
    /// again, so each object's bytes are hashed anew.
    mutating func growTable() {
        let storage = ZeroedTable<UInt32>(count: (scalars.mask + 1) * 2)
        let table = storage.words
        let mask = storage.count - 1
        let written = output.written
        for index in 0...scalars.mask where scalars.words[index] != 0 {
            let existing = scalars.words[index]
            let start = offsets[Int(existing & scalars.objectMask) - 1]
            let length = Self.encodedLength(in: written, at: start)
            let hash = Self.hash(UnsafeRawBufferPointer(rebasing: written[start..<(start + length)]))
            var slot = Int(truncatingIfNeeded: hash) & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = existing
        }
        scalars.storage = storage
        scalars.words = table
        scalars.mask = mask
    }

    /// A 64-bit hash of a scalar's encoded bytes, finished with MurmurHash3's
    /// mixer so every bit of the input reaches the bits the tables use.
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
}
