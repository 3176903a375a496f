import Dispatch

/// Large documents are decoded on two threads: the root container's
/// children (a dictionary's keys and values, or an array's elements) are
/// split in half and each half is decoded by its own ``BinaryObjectDecoder``.
///
/// The decoders share nothing but the input bytes, so neither waits for the
/// other; an object both halves reference is decoded once per half (twice
/// at most, so the cost stays linear in the file). If either half fails,
/// the document is decoded again on one thread, so a broken document gets
/// exactly the error a serial decode reports (a dictionary's keys are all
/// read before its values, objects decoded once are not checked again).
extension BinaryPropertyListReader {
    /// Documents with fewer objects than this are decoded on one thread: the
    /// second thread's start-up and tables cost more than it saves.
    static let parallelObjectThreshold = 65_536

    /// Decodes `trailer.topObject`, splitting its children over two threads
    /// when the document has at least `parallelThreshold` objects and its
    /// root is a container.
    func decodeRoot(bytes: UnsafeRawBufferPointer, trailer: BinaryPropertyListTrailer,
                    parallelThreshold: Int = Self.parallelObjectThreshold) throws -> PropertyListValue {
        if trailer.objectCount >= parallelThreshold {
            let first = DecoderBox(BinaryObjectDecoder(bytes: bytes, trailer: trailer, maximumDepth: limits.maximumDepth))
            if let value = try? first.decodeRootInHalves(trailer.topObject) { return value }
        }
        var decoder = BinaryObjectDecoder(bytes: bytes, trailer: trailer, maximumDepth: limits.maximumDepth)
        return try decoder.decodeObject(trailer.topObject, depth: 0)
    }
}

/// One thread's decoder and what it decoded of the root's children.
///
/// `@unchecked Sendable`: during the parallel phase each box is used by
/// exactly one thread, and `concurrentPerform` returns only after both
/// threads finish, which orders their writes before the caller's reads.
final class DecoderBox: @unchecked Sendable {
    var decoder: BinaryObjectDecoder
    var keys = ContiguousArray<String>()
    var keyHashes: [UInt32] = []
    var values = ContiguousArray<PropertyListValue>()
    var error: (any Error)?

    init(_ decoder: BinaryObjectDecoder) { self.decoder = decoder }

    /// Decodes the container `index` with its children split over two
    /// threads. Returns `nil` when `index` is not an array or dictionary of
    /// at least two children; throws if either half fails (the caller then
    /// decodes serially for the serial error).
    func decodeRootInHalves(_ index: Int) throws -> PropertyListValue? {
        let at = try decoder.offset(of: index)
        let marker = decoder.base.load(fromByteOffset: at, as: UInt8.self)
        let kind = marker >> 4
        guard kind == 0xA || kind == 0xC || kind == 0xD else { return nil }
        let isDictionary = kind == 0xD
        let (count, payload) = try decoder.openContainer(index, at: at, low: marker & 0x0F, isDictionary: isDictionary, depth: 0)
        guard count >= 2 else { return nil }
        let refSize = decoder.refSize
        let split = count / 2
        let second = DecoderBox(decoder.withoutTables())
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let box = part == 0 ? self : second
            if part == 1 {
                box.decoder.allocateTables()
                // The root is on the path of every object below it, as it is for the first decoder.
                box.decoder.state[index] = BinaryObjectDecoder.inProgress
            }
            let range = part == 0 ? 0..<split : split..<count
            box.decodeChildren(range, of: count, keysAt: isDictionary ? payload : nil,
                               valuesAt: isDictionary ? payload + count * refSize : payload, dictionaryAt: at)
        }
        if let error = error ?? second.error { throw error }
        values.append(contentsOf: second.values)
        guard isDictionary else { return .array(Array(values)) }
        keys.append(contentsOf: second.keys)
        keyHashes.append(contentsOf: second.keyHashes)
        let unique = DictionaryKeyCheck.areUnique(keys, asciiHashes: keyHashes, scratch: &decoder.keyTableScratch)
        return .dictionary(DictionaryKeyCheck.dictionary(keys: keys, values: values, keysAreUnique: unique))
    }

    /// Decodes the root's children in `range`: their keys first when the
    /// root is a dictionary, then their values. Records the first error.
    private func decodeChildren(_ range: Range<Int>, of count: Int, keysAt: Int?, valuesAt: Int, dictionaryAt at: Int) {
        let refSize = decoder.refSize
        // The first half's arrays receive the second's, so they get room for all.
        let capacity = range.lowerBound == 0 ? count : range.count
        do {
            if let keysAt {
                keys.reserveCapacity(capacity)
                keyHashes.reserveCapacity(capacity)
                try decoder.decodeKeys(&keys, hashes: &keyHashes, from: keysAt + range.lowerBound * refSize,
                                       count: range.count, dictionaryAt: at, depth: 1)
            }
            values.reserveCapacity(capacity)
            try decoder.decodeReferences(&values, from: valuesAt + range.lowerBound * refSize, count: range.count, depth: 1)
        } catch {
            self.error = error
        }
    }
}
