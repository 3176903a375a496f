import Foundation
import OrderedCollections

/// A count of what a value holds, taken before writing so writers can size
/// their buffers once, and refuse values that would expand without bound.
struct PropertyListCensus {
    /// Every array, dictionary and scalar, counting repeats.
    var objects = 0
    /// Scalars (including dictionary keys), counting repeats.
    var scalars = 0
    /// Dictionary keys, counting repeats.
    var keys = 0
    /// References held by containers (a dictionary entry holds two).
    var references = 0
    /// An estimate of the bytes scalars take when encoded.
    var scalarBytes = 0
    /// The fewest bytes any text format (XML, JSON, OpenStep) can write
    /// this value in: every string and key with its quotes, every datum in
    /// base64, one byte per other scalar and two per container, repeats
    /// counted (text cannot share).
    var minimumTextBytes = 0
    /// With `recordingRootChildren`: `objects` as counted after each child of
    /// a container root (each value, for a dictionary), so the binary writer
    /// can split the root's children into halves of about equal work.
    private(set) var rootChildEnds: [Int] = []
    private let recordsRootChildren: Bool
    /// The last dictionary's keys (their storage's identity and count) and
    /// their byte estimate; see `keyBytes(_:)`.
    private var lastKeys: (storage: UnsafeRawPointer, count: Int, bytes: Int)?

    init(of value: PropertyListValue, format: PropertyListFormat, maximumObjectCount: Int,
         maximumDepth: Int = PropertyListLimits.default.maximumDepth, recordingRootChildren: Bool = false) throws {
        recordsRootChildren = recordingRootChildren
        if recordingRootChildren { reserveRootChildEnds(for: value) }
        try count(value, depth: 0, format: format, maximumObjectCount: maximumObjectCount, maximumDepth: maximumDepth)
    }

    /// Counts the root container of `value` with all its keys but only its
    /// first `boundary` values, and `objects` after each: the front part of
    /// the parallel binary writer's census.
    init(rootOf value: PropertyListValue, valuesBefore boundary: Int, format: PropertyListFormat,
         maximumObjectCount: Int, maximumDepth: Int) throws {
        recordsRootChildren = true
        reserveRootChildEnds(for: value)
        try count(value, depth: 0, format: format, maximumObjectCount: maximumObjectCount, maximumDepth: maximumDepth,
                  valueLimit: boundary)
    }

    /// Counts `values` as children of the root, and `objects` after each:
    /// the back part of the parallel binary writer's census. A caller that
    /// adds it to the front part must check the object limit on the sum.
    init(rootValues values: ArraySlice<PropertyListValue>, format: PropertyListFormat,
         maximumObjectCount: Int, maximumDepth: Int) throws {
        recordsRootChildren = true
        try countRootValues(values, format: format, maximumObjectCount: maximumObjectCount, maximumDepth: maximumDepth)
    }

    /// Counts `values` as the root's children that follow those counted so far.
    mutating func countRootValues(_ values: ArraySlice<PropertyListValue>, format: PropertyListFormat,
                                  maximumObjectCount: Int, maximumDepth: Int) throws {
        for value in values {
            try count(value, depth: 1, format: format, maximumObjectCount: maximumObjectCount, maximumDepth: maximumDepth)
        }
    }

    private mutating func reserveRootChildEnds(for value: PropertyListValue) {
        switch value {
        case .array(let elements): rootChildEnds.reserveCapacity(elements.count)
        case .dictionary(let entries): rootChildEnds.reserveCapacity(entries.count)
        default: break
        }
    }

    /// Adds the counts of the values that follow this census' values.
    mutating func add(_ following: PropertyListCensus) {
        let base = objects
        objects += following.objects
        scalars += following.scalars
        keys += following.keys
        references += following.references
        scalarBytes += following.scalarBytes
        minimumTextBytes += following.minimumTextBytes
        rootChildEnds.reserveCapacity(rootChildEnds.count + following.rootChildEnds.count)
        for end in following.rootChildEnds { rootChildEnds.append(base + end) }
    }

    /// Counts `value`; with `valueLimit`, a container's first `valueLimit`
    /// values only (its keys all the same).
    private mutating func count(_ value: PropertyListValue, depth: Int, format: PropertyListFormat,
                                maximumObjectCount: Int, maximumDepth: Int, valueLimit: Int? = nil) throws {
        objects += 1
        guard objects <= maximumObjectCount else { throw Self.tooManyObjects(format, maximumObjectCount) }
        switch value {
        case .array(let elements):
            guard depth < maximumDepth else { throw Self.tooDeep(format, maximumDepth) }
            references += elements.count
            minimumTextBytes += 2 + elements.count
            for element in elements[..<(valueLimit ?? elements.count)] {
                try count(element, depth: depth + 1, format: format, maximumObjectCount: maximumObjectCount, maximumDepth: maximumDepth)
            }
        case .dictionary(let entries):
            guard depth < maximumDepth else { throw Self.tooDeep(format, maximumDepth) }
            references += entries.count * 2
            scalars += entries.count
            keys += entries.count
            objects += entries.count
            let keys = keyBytes(entries.keys)
            scalarBytes += keys
            // A key's estimate is its UTF-8 length + 3; written, it takes at
            // least its length + 2 quotes, + a separator from its value.
            minimumTextBytes += 2 + keys + entries.count
            for element in entries.values.elements[..<(valueLimit ?? entries.count)] {
                try count(element, depth: depth + 1, format: format, maximumObjectCount: maximumObjectCount, maximumDepth: maximumDepth)
            }
        case .string(let string):
            scalars += 1
            scalarBytes += string.utf8.count + 3
            minimumTextBytes += string.utf8.count + 2
        case .data(let data):
            scalars += 1
            scalarBytes += data.count + 3
            minimumTextBytes += (data.count + 2) / 3 * 4 + 2
        default:
            scalars += 1
            scalarBytes += 9
            minimumTextBytes += 1
        }
        if depth == 1, recordsRootChildren { rootChildEnds.append(objects) }
    }

    /// The encoded size estimate of `keys`. Records read from one file share
    /// one keys array (see the binary reader), so the last array's sum is
    /// kept by its storage's identity, sound while the value is alive.
    private mutating func keyBytes(_ keys: OrderedSet<String>) -> Int {
        let storage = keys.storageIdentity
        if let storage, let last = lastKeys, last.storage == storage, last.count == keys.count { return last.bytes }
        var bytes = 0
        for key in keys { bytes += key.utf8.count + 3 }
        if let storage { lastKeys = (storage, keys.count, bytes) }
        return bytes
    }

    /// The fewest bytes a binary property list can write this value in:
    /// scalars are shared, but every container is written out, with one
    /// byte of marker and at least one byte per reference it holds.
    var minimumBinaryBytes: Int { (objects - scalars) + references + 40 }

    /// Throws ``PropertyListError/Code/outputLimitExceeded`` when the least
    /// `format` can write this value in is over `maximumOutputSize` bytes:
    /// checked before a writer allocates anything.
    func checkOutputSize(_ format: PropertyListFormat, maximumOutputSize: Int) throws {
        let least = leastBytes(format)
        guard least <= maximumOutputSize else { throw Self.tooLarge(format, least: least, maximumOutputSize) }
    }

    /// The fewest bytes `format` can write this value in.
    func leastBytes(_ format: PropertyListFormat) -> Int {
        format == .binary ? minimumBinaryBytes : minimumTextBytes
    }

    static func tooManyObjects(_ format: PropertyListFormat, _ maximumObjectCount: Int) -> PropertyListError {
        PropertyListError(.objectLimitExceeded, format: format,
                          "value holds more than \(maximumObjectCount) objects (counting shared ones each time)")
    }

    static func tooLarge(_ format: PropertyListFormat, least: Int, _ maximumOutputSize: Int) -> PropertyListError {
        PropertyListError(.outputLimitExceeded, format: format,
                          "value would take at least \(least) bytes written out (shared values repeat), over the limit of \(maximumOutputSize)")
    }

    /// Counts `value` for a text writer that needs no census of its own
    /// (JSON, OpenStep) and refuses it if its output would be over
    /// `maximumOutputSize`, in bounded time and before any output (see
    /// ``forWriting(_:format:maximumObjectCount:maximumDepth:maximumOutputSize:count:)``).
    static func checkTextOutput(of value: PropertyListValue, format: PropertyListFormat, maximumDepth: Int,
                                maximumOutputSize: Int) throws {
        do {
            _ = try forWriting(value, format: format, maximumObjectCount: PropertyListLimits.default.maximumObjectCount,
                               maximumDepth: maximumDepth + 1, maximumOutputSize: maximumOutputSize) { limit in
                try PropertyListCensus(of: value, format: format, maximumObjectCount: limit, maximumDepth: maximumDepth + 1)
            }
        } catch let error as PropertyListError where error.code == .depthLimitExceeded {
            return  // too deep to write: the writer says so, with the key path
        }
    }

    /// A writer counts at most `min(maximumObjectCount, maximumOutputSize)`
    /// objects, since each takes at least a byte: when the output limit was
    /// the lower one, running out of objects means the output is too large,
    /// and the error says so.
    static func retyped(_ error: Error, format: PropertyListFormat, maximumObjectCount: Int,
                        maximumOutputSize: Int) -> Error {
        guard let error = error as? PropertyListError, error.code == .objectLimitExceeded,
              maximumOutputSize < maximumObjectCount else { return error }
        return PropertyListError(.outputLimitExceeded, format: format,
                                 "value would take more than \(maximumOutputSize) bytes written out (shared values repeat), over the output limit")
    }

    static func tooDeep(_ format: PropertyListFormat, _ maximumDepth: Int) -> PropertyListError {
        PropertyListError(.depthLimitExceeded, format: format, "value nests deeper than \(maximumDepth) levels")
    }
}
