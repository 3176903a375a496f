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
