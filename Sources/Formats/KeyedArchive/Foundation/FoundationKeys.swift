import PropertyList

/// The coder keys Foundation's classes archive their contents under
/// (swift-corelibs-foundation sources, confirmed in Apple-written archives).
enum FoundationKeys {
    static let objects = "NS.objects"
    static let keys = "NS.keys"
    static let string = "NS.string"
    static let bytes = "NS.bytes"
    static let data = "NS.data"
    static let time = "NS.time"
    static let uuidBytes = "NS.uuidbytes"
    static let base = "NS.base"
    static let relative = "NS.relative"
    static let number = "NS.number"
    static let intValue = "NS.intval"
    static let doubleValue = "NS.dblval"
    static let boolValue = "NS.boolval"
    static let count = "NS.count"
    static let special = "NS.special"

    /// `NSOrderedSet`'s key for element `index`.
    static func orderedSetObject(_ index: Int) -> String { "NS.object.\(index)" }
    /// `NSCountedSet`'s key for distinct element `index` (no dot, unlike NSOrderedSet).
    static func countedSetObject(_ index: Int) -> String { "NS.object\(index)" }
    /// `NSCountedSet`'s key for the count of distinct element `index`.
    static func countedSetCount(_ index: Int) -> String { "NS.count\(index)" }
}

/// A type Foundation stores as a plain value inline in `$objects` (strings,
/// numbers, data), which may therefore also appear inline in a field.
protocol InlineArchivable: KeyedArchiveRepresentable {
    /// The value from a plain stored value, or `nil` if it is another kind.
    static func fromInline(_ value: PropertyListValue) -> Self?
}

extension KeyedUnarchiver {
    /// Reads field `key`, stored either as a reference or inline (Foundation
    /// writes `NS.string`, `NS.data` and friends inline).
    func decodeInlineOrReference<T: InlineArchivable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let stored = fields[key] else { return nil }
        if case .uid(let reference) = stored { return try decodeReference(reference, as: type, key: key) }
        guard let value = T.fromInline(stored) else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key, "expected \(T.self), found a \(stored.typeName)")
        }
        return value
    }

    /// Reads the stored field `key` as an array of references.
    func references(forKey key: String) throws -> [PropertyListUID] {
        guard let stored = fields[key] else { return [] }
        guard case .array(let items) = stored else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key, "expected an array of UIDs, found a \(stored.typeName)")
        }
        return try items.map { item in
            guard case .uid(let reference) = item else {
                throw KeyedArchiveError(.invalidReference, objectIndex: currentIndex, key: key, "expected a UID, found a \(item.typeName)")
            }
            return reference
        }
    }

    /// The `(key, object)` reference pairs of the `NSDictionary` the coder is
    /// positioned on; `NS.keys` and `NS.objects` must be equally long.
    func dictionaryReferences() throws -> Zip2Sequence<[PropertyListUID], [PropertyListUID]> {
        let keys = try references(forKey: FoundationKeys.keys)
        let objects = try references(forKey: FoundationKeys.objects)
        guard keys.count == objects.count else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: FoundationKeys.keys,
                                    "\(keys.count) keys but \(objects.count) objects")
        }
        return zip(keys, objects)
    }

    /// Reads a collection element: a reference that must not be nil.
    func element<T: KeyedArchiveRepresentable>(_ reference: PropertyListUID, as type: T.Type, key: String) throws -> T {
        guard let value = try decodeReference(reference, as: type, key: key) else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key, "a collection element is nil")
        }
        return value
    }

    /// Decodes the object at `reference`, or, when it is stored inline, converts the plain value.
    func decodeInlineOrObject<T>(at reference: PropertyListUID, classNames: [String], expected: String,
                                 inline: (PropertyListValue) -> T?,
                                 object: (KeyedUnarchiver, KeyedArchiveClass) throws -> T) throws -> T {
        let stored = try storedObject(at: reference)
        if case .dictionary = stored {
            return try decodeObject(at: reference, acceptingClassNames: classNames, object)
        }
        guard let value = inline(stored) else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: Int(reference.value), "expected \(expected), found a \(stored.typeName)")
        }
        return value
    }
}
