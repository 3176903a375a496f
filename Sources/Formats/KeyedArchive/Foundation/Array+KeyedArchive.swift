import PropertyList

/// Arrays are `NSArray` objects: `{NS.objects: [UID, …]}`. `NSMutableArray`
/// reads too; write one with ``KeyedArchiveMutable``.
extension Array: KeyedArchiveRepresentable where Element: KeyedArchiveRepresentable {
    /// `NSArray` and `NSMutableArray`.
    public static var keyedArchiveClassNames: [String] { ["NSArray", "NSMutableArray"] }

    /// Stores an `NSArray` object.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archive(with: archiver, class: .array)
    }

    func archive(with archiver: KeyedArchiver, class archiveClass: KeyedArchiveClass) throws -> PropertyListUID {
        try archiver.encodeObject(class: archiveClass, identity: nil) { coder in
            var references: [PropertyListValue] = []
            references.reserveCapacity(count)
            for element in self { references.append(.uid(try element.archive(with: coder))) }
            coder.encodeStored(.array(references), storedKey: FoundationKeys.objects)
        }
    }

    /// Reads an `NSArray`/`NSMutableArray`; a nil element is an error.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> [Element] {
        try unarchiver.decodeObject(at: reference, acceptingClassNames: keyedArchiveClassNames) { coder, _ in
            try coder.references(forKey: FoundationKeys.objects).map { try coder.element($0, as: Element.self, key: FoundationKeys.objects) }
        }
    }
}

/// Sets are `NSSet` objects: `{NS.objects: [UID, …]}`. `NSMutableSet` and
/// `NSCountedSet` read too (the counts are dropped).
extension Set: KeyedArchiveRepresentable where Element: KeyedArchiveRepresentable {
    /// `NSSet`, `NSMutableSet` and `NSCountedSet`.
    public static var keyedArchiveClassNames: [String] { ["NSSet", "NSMutableSet", "NSCountedSet"] }

    /// Stores an `NSSet` object.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try Array(self).archive(with: archiver, class: .set)
    }

    /// Reads an `NSSet`, `NSMutableSet` or `NSCountedSet`.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Set<Element> {
        try unarchiver.decodeObject(at: reference, acceptingClassNames: keyedArchiveClassNames) { coder, archiveClass in
            if archiveClass.isKind(of: "NSCountedSet") {
                return Set(try KeyedArchiveCountedSet<Element>.decodeEntries(coder).map(\.element))
            }
            return Set(try coder.references(forKey: FoundationKeys.objects).map { try coder.element($0, as: Element.self, key: FoundationKeys.objects) })
        }
    }
}

/// Dictionaries are `NSDictionary` objects with parallel `NS.keys` and
/// `NS.objects` arrays. `NSMutableDictionary` reads too.
extension Dictionary: KeyedArchiveRepresentable where Key: KeyedArchiveRepresentable, Value: KeyedArchiveRepresentable {
    /// `NSDictionary` and `NSMutableDictionary`.
    public static var keyedArchiveClassNames: [String] { ["NSDictionary", "NSMutableDictionary"] }

    /// Stores an `NSDictionary` object.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archive(with: archiver, class: .dictionary)
    }

    func archive(with archiver: KeyedArchiver, class archiveClass: KeyedArchiveClass) throws -> PropertyListUID {
        try archiver.encodeObject(class: archiveClass, identity: nil) { coder in
            var keys: [PropertyListValue] = [], objects: [PropertyListValue] = []
            keys.reserveCapacity(count)
            objects.reserveCapacity(count)
            for (key, value) in self {
                keys.append(.uid(try key.archive(with: coder)))
                objects.append(.uid(try value.archive(with: coder)))
            }
            coder.encodeStored(.array(keys), storedKey: FoundationKeys.keys)
            coder.encodeStored(.array(objects), storedKey: FoundationKeys.objects)
        }
    }

    /// Reads an `NSDictionary`/`NSMutableDictionary`; the key and value
    /// arrays must have the same length and hold no nil.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> [Key: Value] {
        try unarchiver.decodeObject(at: reference, acceptingClassNames: keyedArchiveClassNames) { coder, _ in
            var result: [Key: Value] = [:]
            for (key, object) in try coder.dictionaryReferences() {
                result[try coder.element(key, as: Key.self, key: FoundationKeys.keys)] = try coder.element(object, as: Value.self, key: FoundationKeys.objects)
            }
            return result
        }
    }
}
