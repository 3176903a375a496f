import FileSystem
import Foundation

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
        let at = try offset(of: index)
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        let low = marker & 0x0F
        // Only containers are kept, so only they are looked up (a scalar's
        // look-up would be a cache miss in a table of every object).
        if Self.isContainer(marker: marker) {
            let stored = memo[index]
            if stored >= 0 { return known[Int(stored)] }
        }
        if let container = try containerShare(at: at, marker: marker) {
            var result = container.own
            result.add(try childTotals(payload: container.payload, count: container.count,
                                       isDictionary: container.isDictionary, 0..<container.count))
            return remember(result, index: index)
        }
        var result = Totals()
        switch marker >> 4 {
        case 0x4:
            let (_, count) = try dataExtent(at: at, low: low)
            result.minimumTextBytes = (count + 2) / 3 * 4 + 2
        case 0x5, 0x6:
            result.minimumTextBytes = try utf8Count(ofString: index) + 2
        default:
            result.minimumTextBytes = 1
        }
        // Scalars are not kept: they cost no more to count again.
        result.sharedTextBytes = result.minimumTextBytes
        return result
    }

    /// The totals of object `root`; when the file has many objects and the
    /// root is a container, its children (a dictionary's values) are
    /// counted on two threads, each with tables of its own, claiming runs
    /// of children as it goes, while the first also counts the root's own
    /// share (a large dictionary's key set, which would otherwise be counted
    /// before the threads start). Totals are sums, so they do not depend on
    /// the cut, and a key is repeated when either thread finds it. Of the
    /// errors met, the root's own share's comes first, then the lowest run's.
    static func totals(ofRoot root: Int, layout: BinaryObjectLayout) throws -> (totals: Totals, repeatsAKey: Bool) {
        var front = BinaryXMLCensus(layout: layout)
        let at = try front.offset(of: root)
        let marker = front.base.load(fromByteOffset: at, as: UInt8.self)
        guard layout.objectCount >= XMLPropertyListWriter.parallelObjectThreshold, isContainer(marker: marker) else {
            return (try front.totals(of: root), front.repeatsAKey)
        }
        let isDictionary = marker >> 4 == 0xD
        let (count, payload) = try front.containerExtent(at: at, low: marker & 0x0F, isDictionary: isDictionary)
        guard count >= 2 else { return (try front.totals(of: root), front.repeatsAKey) }
        let runs = CensusRuns(count: count)
        // One thread's share: claims runs of the root's children until none is left.
        func countRuns(_ census: inout BinaryXMLCensus) -> Totals {
            var sum = Totals(objects: 0)
            while let (run, range) = runs.claim() {
                do {
                    sum.add(try census.childTotals(payload: payload, count: count, isDictionary: isDictionary, range))
                } catch {
                    runs.fail(run, error)
                }
            }
            return sum
        }
        let (first, second) = TwoThreads.run({ () -> (Totals, Totals?, Bool) in
            var own: Totals?
            do {
                own = try front.containerShare(at: at, marker: marker)?.own
            } catch {
                runs.fail(-1, error)
            }
            let sum = countRuns(&front)
            return (sum, own, front.repeatsAKey)
        }, { () -> (Totals, Bool) in
            var back = BinaryXMLCensus(layout: layout)
            let sum = countRuns(&back)
            return (sum, back.repeatsAKey)
        })
        // Neither closure throws: failures are kept in `runs`.
        let (frontSum, own, frontRepeatsAKey) = try first.get()
        let (backSum, backRepeatsAKey) = try second.get()
        if let failure = runs.failure { throw failure }
        guard var result = own else { return (try front.totals(of: root), front.repeatsAKey) }
        result.add(frontSum)
        result.add(backSum)
        return (result, frontRepeatsAKey || backRepeatsAKey)
    }

    /// A container's own share of the totals (itself, its tags and, for a
    /// dictionary, its keys) and where its references are; nil for a scalar.
    private mutating func containerShare(at: Int, marker: UInt8)
        throws -> (own: Totals, payload: Int, count: Int, isDictionary: Bool)? {
        switch marker >> 4 {
        case 0xA, 0xC:
            let (count, payload) = try containerExtent(at: at, low: marker & 0x0F, isDictionary: false)
            return (Totals(objects: 1, minimumTextBytes: 2 + count, sharedTextBytes: 2 + count), payload, count, false)
        case 0xD:
            let (count, payload) = try containerExtent(at: at, low: marker & 0x0F, isDictionary: true)
            let keyBytes = try keys(at: payload, count: count)
            // The census counts a separator per entry; the shared totals do not.
            let own = Totals(objects: 1 + count, minimumTextBytes: Totals.saturating(2 + keyBytes, count), sharedTextBytes: 2 + keyBytes)
            return (own, payload, count, true)
        default:
            return nil
        }
    }

    /// The totals of the children at offsets `range` of a container whose
    /// `count` references start at `payload` (a dictionary's values: its
    /// keys are in its own share).
    private mutating func childTotals(payload: Int, count: Int, isDictionary: Bool, _ range: Range<Int>) throws -> Totals {
        var result = Totals(objects: 0)
        let first = isDictionary ? count : 0
        for offset in range { result.add(try totals(of: readReference(payload + (first + offset) * refSize))) }
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
        for offset in 0..<count {
            bytes = Totals.saturating(bytes, try utf8Count(ofString: readReference(payload + offset * refSize)) + 3)
        }
        let unique: Bool
        if count >= 32, let distinct = try asciiKeysAreDistinct(payload: payload, count: count) {
            unique = distinct
        } else {
            // Sized up front: a dictionary of many keys would otherwise grow
            // and rehash the set several times. Equality is Swift's, as for
            // the decoder's dictionary.
            var strings = Set<String>(minimumCapacity: count)
            var distinct = true
            for offset in 0..<count {
                guard strings.insert(try string(readReference(payload + offset * refSize))).inserted else {
                    distinct = false
                    break
                }
            }
            unique = distinct
        }
        if !unique { repeatsAKey = true }
        lastKeys = (payload, count, bytes, unique)
        return bytes
    }
}

extension BinaryXMLCensus {
    /// Whether the `count` keys whose references start at `payload` are
    /// distinct, when every one is an ASCII string object; nil when some key
    /// is stored as UTF-16 (the caller compares Swift strings then). Two
    /// ASCII strings are equal as Swift strings exactly when their bytes
    /// are (ASCII text has one canonical form), so the keys are compared as
    /// bytes, in an open-addressed table hashed with `Hasher` (seeded per
    /// process, as `Set`'s is), without making a string per key. Nil too
    /// for an object area past 4 GiB (the table keeps 32-bit offsets).
    fileprivate func asciiKeysAreDistinct(payload: Int, count: Int) throws -> Bool? {
        // A slot holds a key's object offset (never 0: objects start at
        // byte 8) under the high half of its hash; 0 while empty.
        guard objectAreaEnd <= Int(UInt32.max) else { return nil }
        var slots = 16
        while slots < count + count / 2 { slots <<= 1 }
        let mask = slots - 1
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: slots)
        table.initialize(repeating: 0, count: slots)
        defer { table.deallocate() }
        for position in 0..<count {
            let at = try offset(of: readReference(payload + position * refSize))
            let marker = base.load(fromByteOffset: at, as: UInt8.self)
            guard marker >> 4 == 0x5 else { return nil }
            let bytes = try asciiStringBytes(at: at, low: marker & 0x0F)
            var hasher = Hasher()
            hasher.combine(bytes: bytes)
            let hash = UInt64(UInt(bitPattern: hasher.finalize()))
            var slot = Int(truncatingIfNeeded: hash) & mask
            while table[slot] != 0 {
                let other = table[slot]
                if other >> 32 == hash >> 32 {
                    let otherAt = Int(truncatingIfNeeded: other & 0xFFFF_FFFF)
                    let otherBytes = try asciiStringBytes(at: otherAt, low: base.load(fromByteOffset: otherAt, as: UInt8.self) & 0x0F)
                    if otherBytes.count == bytes.count, bytes.count == 0
                        || RawMemory.bytesEqual(otherBytes.baseAddress ?? base, bytes.baseAddress ?? base, count: bytes.count) {
                        return false
                    }
                }
                slot = (slot + 1) & mask
            }
            table[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(at)
        }
        return true
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

/// The runs of the root's children the census' two threads claim, in order,
/// and the error of the lowest failing run (-1: the root's own share).
private final class CensusRuns: Sendable {
    private struct State {
        var next = 0
        var failedRun = Int.max
        var failure: (any Error)?
    }

    private let count: Int
    private let runLength: Int
    private let state = Locked(State())

    init(count: Int) {
        self.count = count
        // About 64 runs: few enough that claiming costs nothing, many
        // enough that the two threads end together.
        runLength = max(count / 64, 1)
    }

    /// The error of the lowest failing run, once both threads are done.
    var failure: (any Error)? { state.withLock { $0.failure } }

    /// The next run's number and children, or nil when none is left.
    func claim() -> (Int, Range<Int>)? {
        state.withLock { state in
            let start = state.next * runLength
            guard start < count else { return nil }
            state.next += 1
            return (state.next - 1, start..<min(start + runLength, count))
        }
    }

    func fail(_ run: Int, _ error: any Error) {
        state.withLock { state in
            if run < state.failedRun { (state.failedRun, state.failure) = (run, error) }
        }
    }
}
