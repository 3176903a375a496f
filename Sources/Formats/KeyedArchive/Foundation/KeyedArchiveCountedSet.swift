import OrderedCollections
import PropertyList

/// A counted set (`NSCountedSet`): distinct elements, each with how many
/// times it was added. Stored as `NS.count` (number of distinct elements),
/// then `NS.object<i>` and `NS.count<i>` for each.
public struct KeyedArchiveCountedSet<Element: Hashable & KeyedArchiveRepresentable>: Hashable, KeyedArchiveRepresentable {
    /// Each distinct element and its count, in archive order.
    public var counts: OrderedDictionary<Element, Int>

    /// Creates a counted set from element counts.
    public init(_ counts: OrderedDictionary<Element, Int> = [:]) { self.counts = counts }

    /// How many times `element` was added (0 if never).
    public func count(of element: Element) -> Int { counts[element] ?? 0 }

    /// Adds `element` once more.
    public mutating func insert(_ element: Element) { counts[element, default: 0] += 1 }

    /// `NSCountedSet`.
    public static var keyedArchiveClassNames: [String] { ["NSCountedSet"] }

    /// Stores an `NSCountedSet` object.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archiver.encodeObject(class: .countedSet, identity: nil) { coder in
            coder.encodeStored(.integer(PropertyListInteger(Int64(counts.count))), storedKey: FoundationKeys.count)
            for (index, entry) in counts.enumerated() {
                coder.encodeStored(.uid(try entry.key.archive(with: coder)), storedKey: FoundationKeys.countedSetObject(index))
                coder.encodeStored(.integer(PropertyListInteger(Int64(entry.value))), storedKey: FoundationKeys.countedSetCount(index))
            }
        }
    }

    /// Reads an `NSCountedSet`; counts must be positive integers.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeObject(at: reference, acceptingClassNames: keyedArchiveClassNames) { coder, _ in
            var counts = OrderedDictionary<Element, Int>()
            for entry in try decodeEntries(coder) { counts[entry.element, default: 0] += entry.count }
            return Self(counts)
        }
    }

    /// The `(element, count)` pairs of the counted set the coder is positioned on.
    static func decodeEntries(_ coder: KeyedUnarchiver) throws -> [(element: Element, count: Int)] {
        let distinct = try coder.decodeInteger(forKey: FoundationKeys.count)
        guard distinct >= 0, distinct <= coder.fields.count else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: coder.currentIndex, key: FoundationKeys.count, "NS.count \(distinct) does not match the object's fields")
        }
        return try (0..<distinct).map { index in
            let key = FoundationKeys.countedSetObject(index)
            guard case .uid(let reference)? = coder.fields[key] else {
                throw KeyedArchiveError(.keyNotFound, objectIndex: coder.currentIndex, key: key, "the counted set has no reference for element \(index)")
            }
            let count = try coder.decodeInteger(forKey: FoundationKeys.countedSetCount(index))
            guard count > 0 else {
                throw KeyedArchiveError(.typeMismatch, objectIndex: coder.currentIndex, key: FoundationKeys.countedSetCount(index), "count \(count) is not positive")
            }
            return (try coder.element(reference, as: Element.self, key: key), count)
        }
    }
}
