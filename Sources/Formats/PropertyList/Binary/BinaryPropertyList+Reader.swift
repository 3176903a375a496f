import FileSystem
import Foundation
import OrderedCollections

/// Reads Apple's binary property lists (`bplist00`).
///
/// Every offset, count and reference is checked against the file before it
/// is followed, with overflow-checked arithmetic. A container that is
/// referenced many times is decoded once and shared, so "billion laughs"
/// files cost time linear in their size; a container that contains itself
/// is an error. Nothing falls back to a text format.
///
/// Reading choices, beyond CF: sets (marker `0xC`) are read as arrays;
/// `null` (marker `0x00`), NaN, infinite or out-of-range dates (see
/// ``PropertyListValue/date(_:)``), strings in an "ASCII" object with bytes above
/// 0x7F, unpaired UTF-16 surrogates and non-string dictionary keys are
/// errors rather than being passed through.
public struct BinaryPropertyListReader: Sendable {
    /// The limits enforced while reading.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Decodes a binary property list.
    public func read(_ data: Data) throws -> PropertyListValue {
        try data.withUnsafeBytes { try read(bytes: $0) }
    }

    /// Decodes a binary property list from raw bytes.
    public func read(bytes: UnsafeRawBufferPointer) throws -> PropertyListValue {
        try decodeRoot(bytes: bytes, trailer: checkedTrailer(bytes))
    }

    /// Checks the size, magic, version and trailer of a binary property list.
    func checkedTrailer(_ bytes: UnsafeRawBufferPointer) throws -> BinaryPropertyListTrailer {
        try limits.checkInputSize(bytes.count, format: .binary)
        guard bytes.count >= 8, bytes.starts(with: "bplist".utf8) else {
            throw PropertyListError(.unrecognizedFormat, format: .binary, location: .byteOffset(0),
                                    "file does not start with the magic \"bplist\"")
        }
        // CF reads any "bplist0?" version; the others were never released.
        guard bytes[6] == UInt8(ascii: "0") else {
            let version = String(decoding: bytes[6..<8], as: UTF8.self)
            throw PropertyListError(.unrecognizedFormat, format: .binary, location: .byteOffset(6),
                                    "unsupported binary property list version \"\(version)\"")
        }
        return try BinaryPropertyListTrailer(bytes, limits: limits)
    }
}

/// The object-by-object decoder behind ``BinaryPropertyListReader``; its
/// checked reads are shared with the validator (see BinaryObjectArea.swift).
struct BinaryObjectDecoder: BinaryObjectArea {
    let layout: BinaryObjectLayout
    /// Per object: `notVisited`, `inProgress` (on the current path, so a
    /// reference to it is a cycle) or an index into `cachedValues`.
    var state: [Int32]
    var cachedValues: [PropertyListValue] = []
    /// Per object: a hash of the string's bytes with the low bit set when it
    /// is an all-ASCII string (whose byte equality is Swift string equality),
    /// else 0. Lets dictionary key uniqueness be checked without hashing strings.
    var asciiKeyHash: [UInt32]
    var keyHashScratch: [UInt32] = []
    var keyTableScratch: [Int32] = []
    /// The last dictionary's keys, by where its key references lie in the
    /// file. Dictionaries of records repeat the same key objects in the same
    /// order; those share one keys array instead of building their own.
    var lastKeys: (referencesAt: Int, count: Int, keys: ContiguousArray<String>, unique: Bool)?

    static let notVisited: Int32 = -1
    static let inProgress: Int32 = -2
    /// Data at least this long is cached, so a file that references one
    /// large blob many times cannot multiply memory use. Strings are always
    /// cached: dictionary keys repeat in nearly every file.
    static let cacheableScalarLength = 64

    init(bytes: UnsafeRawBufferPointer, trailer: BinaryPropertyListTrailer, maximumDepth: Int) {
        layout = BinaryObjectLayout(bytes: bytes, trailer: trailer, maximumDepth: maximumDepth)
        state = []
        asciiKeyHash = []
        allocateTables()
        cachedValues.reserveCapacity(trailer.objectCount)
    }

    /// A decoder of the same bytes with empty tables, for a second thread
    /// (see BinaryPropertyList+ParallelReader.swift); that thread calls
    /// ``allocateTables()`` before decoding, so the tables are built in parallel.
    func withoutTables() -> BinaryObjectDecoder {
        var copy = self
        copy.state = []
        copy.asciiKeyHash = []
        copy.cachedValues = []
        copy.keyHashScratch = []
        copy.keyTableScratch = []
        copy.lastKeys = nil
        return copy
    }

    /// Builds the per-object tables for a decoder made by ``withoutTables()``.
    mutating func allocateTables() {
        state = [Int32](repeating: Self.notVisited, count: objectCount)
        asciiKeyHash = [UInt32](repeating: 0, count: objectCount)
    }

    mutating func decodeObject(_ index: Int, depth: Int) throws -> PropertyListValue {
        let known = state[index]
        if known >= 0 { return cachedValues[Int(known)] }
        let at = try offset(of: index)
        if known == Self.inProgress { throw cycle(object: index, at: at) }
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        let low = marker & 0x0F
        switch marker >> 4 {
        case 0x4:
            let (payload, count) = try dataExtent(at: at, low: low)
            let value = PropertyListValue.data(Data(bytes: base + payload, count: count))
            return cacheIfLarge(value, index: index, length: count)
        case 0x5:
            let bytes = try asciiStringBytes(at: at, low: low)
            asciiKeyHash[index] = DictionaryKeyCheck.hash(bytes) | 1
            return cached(.string(String(decoding: bytes, as: UTF8.self)), index: index)
        case 0x6:
            let (payload, units) = try utf16StringUnits(at: at, low: low)
            let string = try decodeUTF16BigEndian(payload, units: units, object: at)
            return cached(.string(string), index: index)
        case 0xA, 0xC:
            return try decodeArray(index, at: at, low: low, depth: depth)
        case 0xD:
            return try decodeDictionary(index, at: at, low: low, depth: depth)
        default:
            return try decodeFixedSizeObject(at: at, marker: marker)
        }
    }

    @inline(__always)
    mutating func cached(_ value: PropertyListValue, index: Int) -> PropertyListValue {
        remember(value, index: index)
        return value
    }

    @inline(__always)
    mutating func cacheIfLarge(_ value: PropertyListValue, index: Int, length: Int) -> PropertyListValue {
        if length >= Self.cacheableScalarLength { remember(value, index: index) }
        return value
    }

    @inline(__always)
    mutating func remember(_ value: PropertyListValue, index: Int) {
        state[index] = Int32(truncatingIfNeeded: cachedValues.count)
        cachedValues.append(value)
    }

    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < count {
            if bytes[index] & 0x80 != 0 { return false }
            index += 1
        }
        return true
    }

    func decodeUTF16BigEndian(_ payload: Int, units: Int, object at: Int) throws -> String {
        var malformedAt: Int?
        let string = String(unsafeUninitializedCapacity: units * 3) { buffer -> Int in
            guard let start = buffer.baseAddress else { return 0 }
            let (written, malformed) = transcodeUTF16BigEndian(payload, units: units, into: start)
            malformedAt = malformed
            return malformed == nil ? written : 0
        }
        if let malformedAt { throw unpairedSurrogate(at: malformedAt, object: at) }
        return string
    }

    /// Checks a container's header (count, extent, depth) and marks it in
    /// progress; returns its count and where its references start.
    mutating func openContainer(_ index: Int, at: Int, low: UInt8, isDictionary: Bool, depth: Int) throws -> (count: Int, payload: Int) {
        let (count, payload) = try containerExtent(at: at, low: low, isDictionary: isDictionary)
        try checkDepth(depth, at: at)
        state[index] = Self.inProgress
        return (count, payload)
    }

    /// Decodes the `count` objects referenced from `start` on, at `depth`, into `values`.
    @inline(__always)
    mutating func decodeReferences<Values: RangeReplaceableCollection<PropertyListValue>>(
        _ values: inout Values, from start: Int, count: Int, depth: Int
    ) throws {
        var refAt = start
        for _ in 0..<count {
            values.append(try decodeObject(try readReference(refAt), depth: depth))
            refAt += refSize
        }
    }

    mutating func decodeArray(_ index: Int, at: Int, low: UInt8, depth: Int) throws -> PropertyListValue {
        let (count, payload) = try openContainer(index, at: at, low: low, isDictionary: false, depth: depth)
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(count)
        try decodeReferences(&elements, from: payload, count: count, depth: depth + 1)
        let value = PropertyListValue.array(elements)
        remember(value, index: index)
        return value
    }

    mutating func decodeDictionary(_ index: Int, at: Int, low: UInt8, depth: Int) throws -> PropertyListValue {
        let (count, payload) = try openContainer(index, at: at, low: low, isDictionary: true, depth: depth)
        let (keys, keysAreUnique) = try decodeKeys(from: payload, count: count, dictionaryAt: at, depth: depth + 1)
        var values = ContiguousArray<PropertyListValue>()
        values.reserveCapacity(count)
        try decodeReferences(&values, from: payload + count * refSize, count: count, depth: depth + 1)
        let value = PropertyListValue.dictionary(DictionaryKeyCheck.dictionary(keys: keys, values: values, keysAreUnique: keysAreUnique))
        remember(value, index: index)
        return value
    }

    /// Decodes a dictionary's keys, all before any value so duplicates are
    /// known first, and whether they are known to be unique.
    mutating func decodeKeys(from payload: Int, count: Int, dictionaryAt at: Int,
                             depth: Int) throws -> (keys: ContiguousArray<String>, unique: Bool) {
        // The same references decoded before give the same strings (they
        // were all strings then), so their array and verdict are reused.
        if let last = lastKeys, last.count == count,
           RawMemory.bytesEqual(base + last.referencesAt, base + payload, count: count * refSize) {
            return (last.keys, last.unique)
        }
        var keys = ContiguousArray<String>()
        keys.reserveCapacity(count)
        // Taken out of `self` (not copied), so clearing it reuses its storage.
        var keyHashes: [UInt32] = []
        swap(&keyHashes, &keyHashScratch)
        keyHashes.removeAll(keepingCapacity: true)
        try decodeKeys(&keys, hashes: &keyHashes, from: payload, count: count, dictionaryAt: at, depth: depth)
        let unique = DictionaryKeyCheck.areUnique(keys, asciiHashes: keyHashes, scratch: &keyTableScratch)
        keyHashScratch = keyHashes
        lastKeys = (payload, count, keys, unique)
        return (keys, unique)
    }

    /// Appends the `count` keys referenced from `start` on to `keys`, and
    /// their ASCII hashes (see `asciiKeyHash`) to `hashes`.
    mutating func decodeKeys(_ keys: inout ContiguousArray<String>, hashes: inout [UInt32], from start: Int,
                             count: Int, dictionaryAt at: Int, depth: Int) throws {
        var refAt = start
        for _ in 0..<count {
            let keyIndex = try readReference(refAt)
            guard case .string(let key) = try decodeObject(keyIndex, depth: depth) else {
                throw notAStringKey(object: keyIndex, dictionaryAt: at)
            }
            keys.append(key)
            hashes.append(asciiKeyHash[keyIndex])
            refAt += refSize
        }
    }
}
