import OrderedCollections
import PropertyList

/// Ordered sets are `NSOrderedSet` objects with one key per element:
/// `NS.object.0`, `NS.object.1`, … `NSMutableOrderedSet` reads too.
extension OrderedSet: KeyedArchiveRepresentable where Element: KeyedArchiveRepresentable {
    /// `NSOrderedSet` and `NSMutableOrderedSet`.
    public static var keyedArchiveClassNames: [String] { ["NSOrderedSet", "NSMutableOrderedSet"] }

    /// Stores an `NSOrderedSet` object.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archive(with: archiver, class: .orderedSet)
    }

    func archive(with archiver: KeyedArchiver, class archiveClass: KeyedArchiveClass) throws -> PropertyListUID {
        try archiver.encodeObject(class: archiveClass, identity: nil) { coder in
            for (index, element) in enumerated() {
                coder.encodeStored(.uid(try element.archive(with: coder)), storedKey: FoundationKeys.orderedSetObject(index))
            }
        }
    }

    /// Reads an `NSOrderedSet`/`NSMutableOrderedSet`, element by element until a key is missing.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> OrderedSet<Element> {
        try unarchiver.decodeObject(at: reference, acceptingClassNames: keyedArchiveClassNames) { coder, _ in
            var result = OrderedSet<Element>()
            var index = 0
            while case let key = FoundationKeys.orderedSetObject(index), let stored = coder.fields[key] {
                guard case .uid(let element) = stored else {
                    throw KeyedArchiveError(.invalidReference, objectIndex: coder.currentIndex, key: key, "expected a UID, found a \(stored.typeName)")
                }
                result.append(try coder.element(element, as: Element.self, key: key))
                index += 1
            }
            return result
        }
    }
}
