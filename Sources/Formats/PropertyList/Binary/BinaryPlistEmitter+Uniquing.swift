import FileSystem

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
