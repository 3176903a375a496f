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
            var halves = BinaryObjectDecoder(bytes: bytes, trailer: trailer, maximumDepth: limits.maximumDepth)
            if let value = try? halves.decodeRootInHalves(trailer.topObject) { return value }
        }
        // A fresh decoder: a failed split may have left the root marked in progress.
        var decoder = BinaryObjectDecoder(bytes: bytes, trailer: trailer, maximumDepth: limits.maximumDepth)
        return try decoder.decodeObject(trailer.topObject, depth: 0)
    }
}

/// What one thread decoded of the root's children.
struct DecodedHalf {
    var keys = ContiguousArray<String>()
    var keyHashes: [UInt32] = []
    var values = ContiguousArray<PropertyListValue>()
}

extension BinaryObjectDecoder {
    /// Decodes the container `index` with its children split over this
    /// decoder and a second one on another thread. Returns `nil` when `index`
    /// is not an array or dictionary of at least two children; throws if
    /// either half fails (the caller then decodes serially for the serial error).
    mutating func decodeRootInHalves(_ index: Int) throws -> PropertyListValue? {
        let at = try offset(of: index)
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        guard Self.isContainer(marker: marker) else { return nil }
        let isDictionary = marker >> 4 == 0xD
        let (count, payload) = try openContainer(index, at: at, low: marker & 0x0F, isDictionary: isDictionary, depth: 0)
        guard count >= 2 else { return nil }
        let split = count / 2
        let keysAt = isDictionary ? payload : nil
        let valuesAt = isDictionary ? payload + count * refSize : payload
        var second = withoutTables()
        let (front, back) = TwoThreads.run({
            // The front half's arrays receive the back's, so they get room for all.
            try decodeChildren(0..<split, capacity: count, keysAt: keysAt, valuesAt: valuesAt, dictionaryAt: at)
        }, {
            second.allocateTables()
            // The root is on the path of every object below it, as it is for the first decoder.
            second.state[index] = Self.inProgress
            return try second.decodeChildren(split..<count, capacity: count - split, keysAt: keysAt,
                                             valuesAt: valuesAt, dictionaryAt: at)
        })
        var whole = try front.get()
        let backHalf = try back.get()
        whole.values.append(contentsOf: backHalf.values)
        guard isDictionary else { return .array(Array(whole.values)) }
        whole.keys.append(contentsOf: backHalf.keys)
        whole.keyHashes.append(contentsOf: backHalf.keyHashes)
        let unique = DictionaryKeyCheck.areUnique(whole.keys, asciiHashes: whole.keyHashes, scratch: &keyTableScratch)
        return .dictionary(DictionaryKeyCheck.dictionary(keys: whole.keys, values: whole.values, keysAreUnique: unique))
    }

    /// Decodes the root's children in `range`: their keys first when the
    /// root is a dictionary (`keysAt`), then their values.
    private mutating func decodeChildren(_ range: Range<Int>, capacity: Int, keysAt: Int?, valuesAt: Int,
                                         dictionaryAt at: Int) throws -> DecodedHalf {
        var half = DecodedHalf()
        if let keysAt {
            half.keys.reserveCapacity(capacity)
            half.keyHashes.reserveCapacity(capacity)
            try decodeKeys(&half.keys, hashes: &half.keyHashes, from: keysAt + range.lowerBound * refSize,
                           count: range.count, dictionaryAt: at, depth: 1)
        }
        half.values.reserveCapacity(capacity)
        try decodeReferences(&half.values, from: valuesAt + range.lowerBound * refSize, count: range.count, depth: 1)
        return half
    }
}
