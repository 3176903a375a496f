import Foundation

extension BinaryPropertyListReader {
    /// Checks that `data` is a binary property list this reader decodes,
    /// without building its value: ``read(_:)`` succeeds exactly when this
    /// does, and fails with the same error at the same byte.
    ///
    /// One pass over the objects reachable from the root, each visited once
    /// (a file that shares sub-trees stays linear), with a table of one byte
    /// per object and a stack as deep as the nesting; nothing else is
    /// allocated. Documents of 65,536 objects or more are walked on two
    /// threads, each with its own table. `sandbox plist -lint` uses it.
    public func validate(_ data: Data) throws {
        try data.withUnsafeBytes { try validate(bytes: $0) }
    }

    /// Checks raw bytes; see ``validate(_:)``.
    public func validate(bytes: UnsafeRawBufferPointer) throws {
        let trailer = try checkedTrailer(bytes)
        try BinaryObjectValidator(bytes: bytes, trailer: trailer, maximumDepth: limits.maximumDepth).validate(root: trailer.topObject)
    }
}

/// Walks a binary property list's objects in the decoder's order (depth
/// first; a dictionary's keys, all of them, before its values), checking
/// each as `BinaryObjectDecoder` does, with the checks both share
/// (BinaryObjectArea.swift), so the first error found is the decoder's.
///
/// Iterative, with an explicit stack: nesting is bounded by the depth
/// limit, not by the thread's stack.
struct BinaryObjectValidator: BinaryObjectArea {
    let layout: BinaryObjectLayout

    /// Per object: not seen, in progress (on the current path, so a
    /// reference to it is a cycle), valid, or valid and a string.
    static let notSeen: UInt8 = 0
    static let inProgress: UInt8 = 1
    static let valid: UInt8 = 2
    static let validString: UInt8 = 3

    /// A container being walked.
    struct Frame {
        var index: Int
        /// Where the container's marker is (errors about its keys point here).
        var at: Int
        var nextReference: Int
        var referencesLeft: Int
        /// How many of `referencesLeft` are a dictionary's keys.
        var keysLeft: Int
        var depth: Int
        /// When this container is itself a dictionary key: where that
        /// dictionary is (it fails once this container is checked), else -1.
        var keyOfDictionaryAt: Int
    }

    /// The walk's tables, in memory of their own: the inner loop runs once
    /// per reference, so it works on raw pointers, without the uniqueness
    /// and bounds checks of arrays (every index is checked before use).
    struct Tables {
        let states: UnsafeMutablePointer<UInt8>
        let stack: UnsafeMutablePointer<Frame>
        var depth = 0
    }

    init(bytes: UnsafeRawBufferPointer, trailer: BinaryPropertyListTrailer, maximumDepth: Int) {
        layout = BinaryObjectLayout(bytes: bytes, trailer: trailer, maximumDepth: maximumDepth)
    }

    func validate(root: Int) throws {
        if objectCount >= BinaryPropertyListReader.parallelObjectThreshold, (try? validateInHalves(root)) == true { return }
        try withTables { tables in
            try visit(root, depth: 0, keyOfDictionaryAt: -1, &tables)
            try walk(&tables)
        }
    }

    /// Runs `body` with fresh tables, freed after it.
    func withTables(_ body: (inout Tables) throws -> Void) throws {
        // Every open container is a distinct object on the current path,
        // at a depth below the limit.
        let stackCapacity = max(1, min(maximumDepth, objectCount) + 1)
        var tables = Tables(states: .allocate(capacity: objectCount), stack: .allocate(capacity: stackCapacity))
        tables.states.initialize(repeating: Self.notSeen, count: objectCount)
        defer {
            tables.states.deallocate()
            tables.stack.deallocate()
        }
        try body(&tables)
    }

    /// Follows the references of the containers on the stack until it is empty.
    func walk(_ tables: inout Tables) throws {
        while tables.depth > 0 {
            let top = tables.stack + (tables.depth - 1)
            if top.pointee.referencesLeft == 0 {
                tables.depth -= 1
                tables.states[top.pointee.index] = Self.valid
                // A container is never a string: the decoder checks a key after decoding it.
                if top.pointee.keyOfDictionaryAt >= 0 {
                    throw notAStringKey(object: top.pointee.index, dictionaryAt: top.pointee.keyOfDictionaryAt)
                }
                continue
            }
            let child = try readReference(top.pointee.nextReference)
            top.pointee.nextReference += refSize
            top.pointee.referencesLeft -= 1
            var keyOf = -1
            if top.pointee.keysLeft > 0 {
                top.pointee.keysLeft -= 1
                keyOf = top.pointee.at
            }
            try visit(child, depth: top.pointee.depth + 1, keyOfDictionaryAt: keyOf, &tables)
        }
    }

    /// Validates a large document on two threads, as the decoder decodes it
    /// (BinaryPropertyList+ParallelReader.swift): the root's references, in
    /// the serial walk's order (a dictionary's keys, then its values), are
    /// cut in two, and each part is walked with tables of its own. Returns
    /// false when the root is not a container of at least two references;
    /// throws when either part fails, and the caller then walks serially,
    /// for the serial walk's verdict and error.
    ///
    /// The first part is a prefix of the serial walk; the second walks again
    /// what the first had validated, and meets everything else in the serial
    /// order, so a document the serial walk refuses is refused here too.
    func validateInHalves(_ root: Int) throws -> Bool {
        let at = try offset(of: root)
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        guard Self.isContainer(marker: marker) else { return false }
        let isDictionary = marker >> 4 == 0xD
        let (count, payload) = try containerExtent(at: at, low: marker & 0x0F, isDictionary: isDictionary)
        try checkDepth(0, at: at)
        let references = isDictionary ? count * 2 : count
        guard references >= 2 else { return false }
        // A dictionary's keys are cheap (a few distinct strings, or one
        // each): the first part takes all of them and half the values.
        let split = isDictionary ? count + count / 2 : count / 2
        func part(_ range: Range<Int>) throws {
            try withTables { tables in
                tables.states[root] = Self.inProgress
                let keys = isDictionary ? max(0, min(count, range.upperBound) - range.lowerBound) : 0
                tables.stack.initialize(to: Frame(index: root, at: at, nextReference: payload + range.lowerBound * refSize,
                                                  referencesLeft: range.count, keysLeft: keys, depth: 0, keyOfDictionaryAt: -1))
                tables.depth = 1
                try walk(&tables)
            }
        }
        let (front, back) = TwoThreads.run({ try part(0..<split) }, { try part(split..<references) })
        try front.get()
        try back.get()
        return true
    }

    /// Checks object `index`, or opens it on the stack when it is a container.
    /// `keyOfDictionaryAt` (-1 for none) is the dictionary whose key it is.
    @inline(__always)
    func visit(_ index: Int, depth: Int, keyOfDictionaryAt dictionaryAt: Int, _ tables: inout Tables) throws {
        let known = tables.states[index]
        if known >= Self.valid {
            if dictionaryAt >= 0, known != Self.validString {
                throw notAStringKey(object: index, dictionaryAt: dictionaryAt)
            }
            return
        }
        let at = try offset(of: index)
        if known == Self.inProgress { throw cycle(object: index, at: at) }
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        let low = marker & 0x0F
        var isString = false
        switch marker >> 4 {
        case 0x4:
            _ = try dataExtent(at: at, low: low)
        case 0x5:
            _ = try asciiStringBytes(at: at, low: low)
            isString = true
        case 0x6:
            let (payload, units) = try utf16StringUnits(at: at, low: low)
            if let unit = firstUnpairedSurrogate(payload, units: units) { throw unpairedSurrogate(at: unit, object: at) }
            isString = true
        case 0xA, 0xC, 0xD:
            let isDictionary = marker >> 4 == 0xD
            let (count, payload) = try containerExtent(at: at, low: low, isDictionary: isDictionary)
            try checkDepth(depth, at: at)
            tables.states[index] = Self.inProgress
            (tables.stack + tables.depth).initialize(to: Frame(
                index: index, at: at, nextReference: payload, referencesLeft: isDictionary ? count * 2 : count,
                keysLeft: isDictionary ? count : 0, depth: depth, keyOfDictionaryAt: dictionaryAt))
            tables.depth += 1
            return
        default:
            _ = try decodeFixedSizeObject(at: at, marker: marker)
        }
        tables.states[index] = isString ? Self.validString : Self.valid
        if dictionaryAt >= 0, !isString { throw notAStringKey(object: index, dictionaryAt: dictionaryAt) }
    }

    /// The first code unit of a big-endian UTF-16 string that is an unpaired
    /// surrogate, as the decoder counts it, or nil when they all pair.
    func firstUnpairedSurrogate(_ payload: Int, units: Int) -> Int? {
        let source = base + payload
        var index = 0
        while index < units {
            let unit = UInt16(bigEndian: source.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))
            index += 1
            if unit & 0xF800 != 0xD800 { continue }
            // A high surrogate must be followed by a low one; a low one alone is unpaired.
            guard unit & 0xFC00 == 0xD800, index < units else { return index - 1 }
            let next = UInt16(bigEndian: source.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))
            guard next & 0xFC00 == 0xDC00 else { return index - 1 }
            index += 1
        }
        return nil
    }
}
