import OrderedCollections

/// What a value would count written out, found by visiting each shared
/// container once: a decoded "bomb" of a few hundred bytes whose census
/// would visit 2^40 nodes is measured in 40 steps.
///
/// Writers count objects one by one (their census sizes buffers and splits
/// work); only when that count runs long do they ask this, to tell a value
/// that is merely large from one that cannot be written at all.
struct PropertyListSharedTotals {
    /// Objects written out, repeats counted (saturating at `Int.max`).
    var objects = 0
    /// See ``PropertyListCensus/minimumTextBytes``.
    var minimumTextBytes = 0
    /// See ``PropertyListCensus/minimumBinaryBytes``.
    var minimumBinaryBytes = 0

    private init() {}

    /// Totals counted elsewhere (the binary-to-XML stream counts them on the
    /// file's objects).
    init(objects: Int, minimumTextBytes: Int, minimumBinaryBytes: Int) {
        self.objects = objects
        self.minimumTextBytes = minimumTextBytes
        self.minimumBinaryBytes = minimumBinaryBytes
    }

    /// Totals of `value`; throws ``PropertyListError/Code/depthLimitExceeded``
    /// past `maximumDepth`.
    init(of value: PropertyListValue, format: PropertyListFormat, maximumDepth: Int) throws {
        var memo: [UnsafeRawPointer: PropertyListSharedTotals] = [:]
        self = try Self.totals(value, depth: 0, format: format, maximumDepth: maximumDepth, memo: &memo)
        minimumBinaryBytes = minimumBinaryBytes &+ 40
    }

    private static func totals(_ value: PropertyListValue, depth: Int, format: PropertyListFormat, maximumDepth: Int,
                               memo: inout [UnsafeRawPointer: PropertyListSharedTotals]) throws -> PropertyListSharedTotals {
        var result = PropertyListSharedTotals()
        result.objects = 1
        switch value {
        case .array(let elements):
            guard depth < maximumDepth else { throw PropertyListCensus.tooDeep(format, maximumDepth) }
            let identity = SharedStorage.identity(of: elements)
            if let identity, let known = memo[identity] { return known }
            result.minimumTextBytes = 2 + elements.count
            result.minimumBinaryBytes = 1 + elements.count
            for element in elements {
                result.add(try totals(element, depth: depth + 1, format: format, maximumDepth: maximumDepth, memo: &memo))
            }
            if let identity { memo[identity] = result }
        case .dictionary(let entries):
            guard depth < maximumDepth else { throw PropertyListCensus.tooDeep(format, maximumDepth) }
            let identity = SharedStorage.identity(of: entries)
            if let identity, let known = memo[identity] { return known }
            var keyBytes = 0
            for key in entries.keys { keyBytes += key.utf8.count + 3 }
            result.objects = 1 + entries.count
            result.minimumTextBytes = 2 + keyBytes
            result.minimumBinaryBytes = 1 + 2 * entries.count
            for element in entries.values {
                result.add(try totals(element, depth: depth + 1, format: format, maximumDepth: maximumDepth, memo: &memo))
            }
            if let identity { memo[identity] = result }
        case .string(let string): result.minimumTextBytes = string.utf8.count + 2
        case .data(let data): result.minimumTextBytes = (data.count + 2) / 3 * 4 + 2
        default: result.minimumTextBytes = 1
        }
        return result
    }

    /// Adds a child's totals, saturating: a bomb's counts pass `Int.max`.
    private mutating func add(_ other: PropertyListSharedTotals) {
        objects = Self.saturating(objects, other.objects)
        minimumTextBytes = Self.saturating(minimumTextBytes, other.minimumTextBytes)
        minimumBinaryBytes = Self.saturating(minimumBinaryBytes, other.minimumBinaryBytes)
    }

    private static func saturating(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}

extension PropertyListCensus {
    /// The census a writer needs, counted one by one, but refused in
    /// bounded time when the value cannot be written: objects are counted
    /// singly up to a few million; past that, the value's totals with
    /// shared containers counted once decide whether it fits
    /// (`maximumObjectCount`, `maximumOutputSize`) before the full count.
    /// `count(limit)` takes the census with an object limit.
    static func forWriting(_ value: PropertyListValue, format: PropertyListFormat, maximumObjectCount: Int,
                           maximumDepth: Int, maximumOutputSize: Int,
                           count: (Int) throws -> PropertyListCensus) throws -> PropertyListCensus {
        try checkedCount(format: format, maximumObjectCount: maximumObjectCount, maximumOutputSize: maximumOutputSize,
                         count: count, leastBytes: { $0.leastBytes(format) },
                         sharedTotals: { try PropertyListSharedTotals(of: value, format: format, maximumDepth: maximumDepth) })
    }

    /// ``forWriting(_:format:maximumObjectCount:maximumDepth:maximumOutputSize:count:)``
    /// for any count: `count(limit)` counts (throwing `objectLimitExceeded`
    /// past `limit`), `leastBytes` is the fewest bytes a count can be written
    /// in, `sharedTotals` the totals with shared containers counted once. The
    /// binary-to-XML stream passes counts taken on the file's objects, so it
    /// refuses what the writer refuses, with the same error.
    static func checkedCount<Counted>(format: PropertyListFormat, maximumObjectCount: Int, maximumOutputSize: Int,
                                      count: (Int) throws -> Counted, leastBytes: (Counted) -> Int,
                                      sharedTotals: () throws -> PropertyListSharedTotals) throws -> Counted {
        // Every object written takes at least a byte.
        let cap = min(maximumObjectCount, maximumOutputSize)
        let quick = min(cap, 1 << 22)
        let census: Counted
        do {
            census = try count(quick)
        } catch let quickError as PropertyListError where quickError.code == .objectLimitExceeded && quick < cap {
            let totals = try sharedTotals()
            let least = format == .binary ? totals.minimumBinaryBytes : totals.minimumTextBytes
            if totals.objects > cap || least > maximumOutputSize {
                if totals.objects > maximumObjectCount && maximumObjectCount <= maximumOutputSize {
                    throw tooManyObjects(format, maximumObjectCount)
                }
                throw tooLarge(format, least: least, maximumOutputSize)
            }
            census = try count(cap)
        } catch {
            throw retyped(error, format: format, maximumObjectCount: maximumObjectCount, maximumOutputSize: maximumOutputSize)
        }
        let least = leastBytes(census)
        guard least <= maximumOutputSize else { throw tooLarge(format, least: least, maximumOutputSize) }
        return census
    }
}
