import OrderedCollections
import PropertyList

/// Resolving references: bounds, classes, secure decoding, the per-object
/// cache and cycle detection.
extension KeyedUnarchiver {
    /// The `$objects` entry `reference` points to, checked to be inside the table.
    public func storedObject(at reference: PropertyListUID) throws -> PropertyListValue {
        try objects[checkedIndex(reference)]
    }

    func checkedIndex(_ reference: PropertyListUID, key: String? = nil) throws -> Int {
        guard reference.value < UInt64(objects.count) else {
            throw KeyedArchiveError(.invalidReference, objectIndex: currentIndex, key: key,
                                    "UID \(reference.value) is outside $objects (\(objects.count) entries)")
        }
        return Int(reference.value)
    }

    /// The class of the object dictionary `entry` at `index`, validated and,
    /// under secure decoding, checked against the allowed names.
    func objectClass(of entry: OrderedDictionary<String, PropertyListValue>, at index: Int) throws -> KeyedArchiveClass {
        try objectClassAndIndex(of: entry, at: index).archiveClass
    }

    func objectClassAndIndex(of entry: OrderedDictionary<String, PropertyListValue>, at index: Int) throws -> (archiveClass: KeyedArchiveClass, classIndex: Int) {
        guard let classValue = entry[KeyedArchiveFormat.classKey] else {
            throw KeyedArchiveError(.missingClass, objectIndex: index, "the object dictionary has no $class")
        }
        guard case .uid(let classReference) = classValue else {
            throw KeyedArchiveError(.invalidClass, objectIndex: index, "$class is a \(classValue.typeName), not a UID")
        }
        let archiveClass = try classDescription(at: classReference, usedBy: index)
        if let allowed = allowedClassNames, !allowed.contains(archiveClass.name) {
            throw KeyedArchiveError(.disallowedClass, objectIndex: index,
                                    "class \(archiveClass.name) is not among the allowed classes")
        }
        return (archiveClass, Int(classReference.value))
    }

    func classDescription(at reference: PropertyListUID, usedBy index: Int) throws -> KeyedArchiveClass {
        guard reference.value < UInt64(objects.count), reference.value != 0 else {
            throw KeyedArchiveError(.invalidClass, objectIndex: index, "$class UID \(reference.value) is not a class dictionary")
        }
        let classIndex = Int(reference.value)
        if let known = classes[classIndex] { return known }
        guard case .dictionary(let entry) = objects[classIndex],
              let name = entry[KeyedArchiveFormat.classNameKey]?.stringValue else {
            throw KeyedArchiveError(.invalidClass, objectIndex: index,
                                    "$class points to object \(classIndex), which has no $classname string")
        }
        var chain: [String] = [name]
        if let listed = entry[KeyedArchiveFormat.classesKey] {
            guard case .array(let names) = listed else {
                throw KeyedArchiveError(.invalidClass, objectIndex: classIndex, "$classes is a \(listed.typeName), not an array")
            }
            chain = try names.map { item in
                guard let text = item.stringValue else {
                    throw KeyedArchiveError(.invalidClass, objectIndex: classIndex, "$classes holds a \(item.typeName)")
                }
                return text
            }
            if chain.first != name { chain.insert(name, at: 0) }
        }
        let hints = entry[KeyedArchiveFormat.classHintsKey]?.arrayValue?.compactMap(\.stringValue)
        let description = KeyedArchiveClass(name: name, classes: chain, hints: hints)
        classes[classIndex] = description
        return description
    }

    /// Decodes the object dictionary at `reference` by running `body` with
    /// this unarchiver positioned on its fields. The object's class (or one
    /// of its superclasses) must be one of `acceptingClassNames`.
    ///
    /// This is the building block of ``KeyedArchivable``; conformances of
    /// your own rarely need it directly. Passing the decoded `type` lets the
    /// class check be done once per class and type instead of per object.
    public func decodeObject<R>(at reference: PropertyListUID, acceptingClassNames: @autoclosure () -> [String],
                                decoding type: Any.Type? = nil,
                                _ body: (KeyedUnarchiver, KeyedArchiveClass) throws -> R) throws -> R {
        let index = try checkedIndex(reference)
        guard case .dictionary(let entry) = objects[index] else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: index,
                                    "expected an object of class \(acceptingClassNames().first ?? "?"), found a plain \(objects[index].typeName)")
        }
        let (archiveClass, classIndex) = try objectClassAndIndex(of: entry, at: index)
        let typeKey = type.map(ObjectIdentifier.init)
        if typeKey == nil || acceptedTypes[classIndex] != typeKey {
            let names = acceptingClassNames()
            guard archiveClass.classes.contains(where: names.contains) else {
                throw KeyedArchiveError(.typeMismatch, objectIndex: index,
                                        "expected class \(names.joined(separator: " or ")), found \(archiveClass.name)")
            }
            if let typeKey { acceptedTypes[classIndex] = typeKey }
        }
        guard depth < maximumDepth else {
            throw KeyedArchiveError(.depthLimitExceeded, objectIndex: index, "objects are nested more than \(maximumDepth) deep")
        }
        let outerFields = fields, outerIndex = currentIndex, outerUnkeyed = unkeyedCount
        fields = entry
        currentIndex = index
        unkeyedCount = 0
        depth += 1
        defer {
            fields = outerFields
            currentIndex = outerIndex
            unkeyedCount = outerUnkeyed
            depth -= 1
        }
        return try body(self, archiveClass)
    }

    /// Decodes `reference` as `T`: nil for `UID(0)`; each object once per
    /// type (shared references stay shared); an object reached again while
    /// it is still being decoded is a ``KeyedArchiveError/Code/cycle`` error
    /// (``ArchivedObject`` and ``ArchivedValue`` represent cycles instead).
    public func decodeReference<T: KeyedArchiveRepresentable>(_ reference: PropertyListUID, as type: T.Type, key: String? = nil) throws -> T? {
        if reference.value == 0 { return nil }
        let index = try checkedIndex(reference, key: key)
        // Plain strings, numbers and data refer to nothing: no cycle, no
        // sharing worth caching.
        guard case .dictionary = objects[index] else { return try T.unarchive(reference, with: self) }
        if T.self == ArchivedObject.self || T.self == ArchivedValue.self {
            return try T.unarchive(reference, with: self)
        }
        if let cached = decoded[index] as? T { return cached }
        guard !inProgress[index] else {
            throw KeyedArchiveError(.cycle, objectIndex: index, key: key,
                                    "object \(index) contains itself, which \(T.self) cannot represent")
        }
        inProgress[index] = true
        defer { inProgress[index] = false }
        do {
            let value = try T.unarchive(reference, with: self)
            decoded[index] = value
            return value
        } catch var error as KeyedArchiveError {
            if error.key == nil { error.key = key }
            throw error
        }
    }
}
