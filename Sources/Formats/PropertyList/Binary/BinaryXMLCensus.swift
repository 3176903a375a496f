import FileSystem

/// What the XML writer's census would count for the value of a binary
/// property list, counted on the file's objects instead of a decoded tree
/// (for the binary-to-XML stream, BinaryPropertyList+XMLStream.swift).
///
/// Each container's totals are kept by its object number, so a file that
/// shares sub-trees ("billion laughs") is counted in time linear in its
/// objects, with counts saturating at `Int.max`; the writer's limits are
/// then decided from the totals, as for a decoded value.
///
/// The file must have been validated first: every reference, extent and
/// key is known good and there are no cycles.
struct BinaryXMLCensus: BinaryObjectArea {
    let layout: BinaryObjectLayout

    /// The census' counts of one object and what it holds.
    struct Totals {
        /// Objects written out, repeats counted (``PropertyListCensus/objects``).
        var objects = 1
        /// ``PropertyListCensus/minimumTextBytes``.
        var minimumTextBytes = 0
        /// ``PropertyListSharedTotals/minimumTextBytes``, which counts a
        /// dictionary's entries without their separators.
        var sharedTextBytes = 0

        mutating func add(_ other: Totals) {
            objects = Self.saturating(objects, other.objects)
            minimumTextBytes = Self.saturating(minimumTextBytes, other.minimumTextBytes)
            sharedTextBytes = Self.saturating(sharedTextBytes, other.sharedTextBytes)
        }

        static func saturating(_ a: Int, _ b: Int) -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? .max : sum
        }
    }

    /// Per object: the index of its totals in `known`, or -1.
    private var memo: [Int32]
    private var known: [Totals] = []
    /// The last dictionary's keys, by where their references lie: records
    /// repeat the same key objects, whose bytes and verdict are kept.
    private var lastKeys: (referencesAt: Int, count: Int, bytes: Int, unique: Bool)?
    /// Whether some dictionary repeats a key. The decoder keeps one entry
    /// per key (the last value, at the first key's place), which the stream
    /// cannot write without the tree: the caller decodes instead.
    private(set) var repeatsAKey = false

    init(layout: BinaryObjectLayout) {
        self.layout = layout
        memo = [Int32](repeating: -1, count: layout.objectCount)
    }

    /// The totals of object `index`.
    mutating func totals(of index: Int) throws -> Totals {
        let stored = memo[index]
        if stored >= 0 { return known[Int(stored)] }
        let at = try offset(of: index)
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        let low = marker & 0x0F
        var result = Totals()
        switch marker >> 4 {
        case 0x4:
            let (_, count) = try dataExtent(at: at, low: low)
            result.minimumTextBytes = (count + 2) / 3 * 4 + 2
        case 0x5, 0x6:
            result.minimumTextBytes = try utf8Count(ofString: index) + 2
        case 0xA, 0xC:
            let (count, payload) = try containerExtent(at: at, low: low, isDictionary: false)
            result.minimumTextBytes = 2 + count
            result.sharedTextBytes = 2 + count
            for offset in 0..<count { result.add(try totals(of: readReference(payload + offset * refSize))) }
            return remember(result, index: index)
        case 0xD:
            let (count, payload) = try containerExtent(at: at, low: low, isDictionary: true)
            let keyBytes = try keys(at: payload, count: count)
            result.objects = 1 + count
            // The census counts a separator per entry; the shared totals do not.
            result.minimumTextBytes = Totals.saturating(2 + keyBytes, count)
            result.sharedTextBytes = 2 + keyBytes
            for offset in count..<(2 * count) { result.add(try totals(of: readReference(payload + offset * refSize))) }
            return remember(result, index: index)
        default:
            result.minimumTextBytes = 1
        }
        // Scalars are not kept: they cost no more to count again.
        result.sharedTextBytes = result.minimumTextBytes
        return result
    }

    private mutating func remember(_ totals: Totals, index: Int) -> Totals {
        memo[index] = Int32(truncatingIfNeeded: known.count)
        known.append(totals)
        return totals
    }

    /// The UTF-8 length of string object `index` (ASCII or UTF-16).
    func utf8Count(ofString index: Int) throws -> Int {
        let at = try offset(of: index)
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        if marker >> 4 == 0x5 { return try asciiStringBytes(at: at, low: marker & 0x0F).count }
        let (payload, units) = try utf16StringUnits(at: at, low: marker & 0x0F)
        var bytes = 0
        var unit = 0
        while unit < units {
            let value = UInt16(bigEndian: base.loadUnaligned(fromByteOffset: payload + unit * 2, as: UInt16.self))
            if value < 0x80 {
                bytes += 1
            } else if value < 0x800 {
                bytes += 2
            } else if value & 0xFC00 == 0xD800 {
                bytes += 4 // with its low surrogate, one scalar above U+FFFF
                unit += 1
            } else {
                bytes += 3
            }
            unit += 1
        }
        return bytes
    }

    /// The census' bytes for a dictionary's keys (each its UTF-8 length + 3),
    /// noting in `repeatsAKey` when two are equal as Swift strings.
    private mutating func keys(at payload: Int, count: Int) throws -> Int {
        if let last = lastKeys, last.count == count,
           RawMemory.bytesEqual(base + last.referencesAt, base + payload, count: count * refSize) {
            if !last.unique { repeatsAKey = true }
            return last.bytes
        }
        var bytes = 0
        var strings: [String] = []
        strings.reserveCapacity(count)
        for offset in 0..<count {
            let key = try readReference(payload + offset * refSize)
            bytes = Totals.saturating(bytes, try utf8Count(ofString: key) + 3)
            strings.append(try string(key))
        }
        // Small ASCII keys (most keys) are Swift's small strings: no memory
        // of their own. Equality is Swift's, as for the decoder's dictionary.
        let unique = count < 2 || Set(strings).count == count
        if !unique { repeatsAKey = true }
        lastKeys = (payload, count, bytes, unique)
        return bytes
    }
}

extension BinaryObjectArea {
    /// String object `index` (validated) as a Swift string.
    func string(_ index: Int) throws -> String {
        let at = try offset(of: index)
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        if marker >> 4 == 0x5 { return String(decoding: try asciiStringBytes(at: at, low: marker & 0x0F), as: UTF8.self) }
        let (payload, units) = try utf16StringUnits(at: at, low: marker & 0x0F)
        return String(unsafeUninitializedCapacity: units * 3) { buffer in
            guard let start = buffer.baseAddress else { return 0 }
            return transcodeUTF16BigEndian(payload, units: units, into: start).written
        }
    }
}
