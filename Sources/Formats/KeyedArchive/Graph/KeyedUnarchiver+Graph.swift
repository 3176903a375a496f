import Foundation
import OrderedCollections
import PropertyList

/// Reading an archive generically into ``ArchivedObject``s. Objects are
/// created before their fields are read and filled from a work list, so
/// cycles are kept and no input can make this recurse deeply.
extension KeyedUnarchiver {
    /// Reads the `root` entry of `$top` generically; a missing root is a
    /// ``KeyedArchiveError/Code/missingRoot`` error.
    public func decodeRootGraph() throws -> ArchivedValue {
        guard let stored = table.top[KeyedArchiveFormat.rootKey] else {
            throw KeyedArchiveError(.missingRoot, key: KeyedArchiveFormat.rootKey, "$top has no \"root\" entry")
        }
        return try withTopLevel { try graphValue(stored, key: KeyedArchiveFormat.rootKey) }
    }

    /// Reads every entry of `$top` generically (keys unescaped).
    public func decodeTopLevelGraph() throws -> OrderedDictionary<String, ArchivedValue> {
        try withTopLevel {
            var result = OrderedDictionary<String, ArchivedValue>()
            for (storedKey, value) in table.top {
                result[KeyedArchiveFormat.unescape(storedKey) ?? storedKey] = try graphValue(value, key: storedKey)
            }
            return result
        }
    }

    /// The generic object at `reference`, with everything it reaches read.
    public func graphObject(at reference: PropertyListUID) throws -> ArchivedObject {
        let object = try shell(at: checkedIndex(reference))
        try fillPendingObjects()
        return object
    }

    private func graphValue(_ stored: PropertyListValue, key: String) throws -> ArchivedValue {
        let value = try convert(stored, key: key)
        try fillPendingObjects()
        return value
    }

    /// The object for `$objects[index]`, created (not yet filled) on first use.
    private func shell(at index: Int) throws -> ArchivedObject {
        if let existing = graphObjects[index] { return existing }
        let object: ArchivedObject
        switch objects[index] {
        case .dictionary(let entry):
            object = ArchivedObject(class: try objectClass(of: entry, at: index))
            pendingGraphObjects.append(object)
        case .array, .uid:
            throw KeyedArchiveError(.invalidObject, objectIndex: index, "$objects holds a bare \(objects[index].typeName)")
        case let value:
            object = ArchivedObject(inline: value)
        }
        object.archiveIndex = index
        graphObjects[index] = object
        return object
    }

    /// Fills every created object. Re-entered from a Foundation reading
    /// (which asks for its elements' objects), it returns at once and
    /// leaves the work list to the outer loop, so depth stays constant.
    private func fillPendingObjects() throws {
        guard !fillingGraph else { return }
        fillingGraph = true
        defer { fillingGraph = false }
        while let object = pendingGraphObjects.popLast() {
            guard let index = object.archiveIndex, case .dictionary(let entry) = objects[index] else { continue }
            var unkeyed: [Int: ArchivedValue] = [:]
            for (storedKey, value) in entry where storedKey != KeyedArchiveFormat.classKey {
                let converted = try convert(value, key: storedKey)
                if let position = KeyedArchiveFormat.unkeyedIndex(storedKey), position < entry.count {
                    unkeyed[position] = converted
                } else {
                    object.fields[KeyedArchiveFormat.unescape(storedKey) ?? storedKey] = converted
                }
            }
            if let last = unkeyed.keys.max() {
                object.unkeyed = (0...last).map { unkeyed[$0] ?? .null }
            }
            object.foundationValue = foundationValue(of: object, at: index)
        }
    }

    private func convert(_ stored: PropertyListValue, key: String) throws -> ArchivedValue {
        switch stored {
        case .uid(let reference):
            if reference.value == 0 { return .null }
            return .object(try shell(at: checkedIndex(reference, key: key)))
        case .array(let elements):
            let identity = SharedStorage.identity(of: elements)
            if let identity, let done = convertedPlainValues[identity] { return done }
            let result = ArchivedValue.array(try elements.map { try convert($0, key: key) })
            if let identity { convertedPlainValues[identity] = result }
            return result
        case .dictionary(let entries):
            let identity = SharedStorage.identity(of: entries)
            if let identity, let done = convertedPlainValues[identity] { return done }
            var converted = OrderedDictionary<String, ArchivedValue>()
            for (entryKey, value) in entries { converted[entryKey] = try convert(value, key: key) }
            let result = ArchivedValue.dictionary(converted)
            if let identity { convertedPlainValues[identity] = result }
            return result
        default:
            return .scalar(stored)
        }
    }

    /// The object's Foundation reading, through the same decoders the typed
    /// API uses (elements as generic values). A malformed Foundation object
    /// keeps its raw fields and gets no reading; it never fails the archive.
    private func foundationValue(of object: ArchivedObject, at index: Int) -> ArchivedFoundationValue? {
        guard let archiveClass = object.archiveClass, let kind = FoundationClassKind(archiveClass) else { return nil }
        let reference = PropertyListUID(UInt64(index))
        return try? withTopLevel { () throws -> ArchivedFoundationValue in
            switch kind {
            case .string: return .string(try String.unarchive(reference, with: self))
            case .data: return .data(try Data.unarchive(reference, with: self))
            case .number: return .number(try ArchivedNumber.unarchive(reference, with: self, expected: "a number") { $0 })
            case .date: return .date(try Date.unarchive(reference, with: self))
            case .array: return .array(try [ArchivedValue].unarchive(reference, with: self))
            case .orderedSet: return .orderedSet(Array(try OrderedSet<ArchivedValue>.unarchive(reference, with: self)))
            case .uuid: return .uuid(try UUID.unarchive(reference, with: self))
            case .url: return .url(try URL.unarchive(reference, with: self))
            case .null: return .null
            case .value: return .special(try KeyedArchiveSpecialValue.unarchive(reference, with: self))
            case .set:
                return .set(try decodeObject(at: reference, acceptingClassNames: archiveClass.classes) { coder, _ in
                    try coder.references(forKey: FoundationKeys.objects).map { try coder.element($0, as: ArchivedValue.self, key: FoundationKeys.objects) }
                })
            case .countedSet:
                return .countedSet(try decodeObject(at: reference, acceptingClassNames: archiveClass.classes) { coder, _ in
                    try KeyedArchiveCountedSet<ArchivedValue>.decodeEntries(coder).map { .init(element: $0.element, count: $0.count) }
                })
            case .dictionary:
                return .dictionary(try decodeObject(at: reference, acceptingClassNames: archiveClass.classes) { coder, _ in
                    try coder.dictionaryReferences().map { key, value in
                        .init(key: try coder.element(key, as: ArchivedValue.self, key: FoundationKeys.keys),
                              value: try coder.element(value, as: ArchivedValue.self, key: FoundationKeys.objects))
                    }
                })
            }
        }
    }
}

extension KeyedUnarchiver {
    /// Empties every generic object this unarchiver created (fields,
    /// un-keyed values, Foundation readings) and forgets them.
    ///
    /// Objects in a cycle keep each other alive, as any reference cycle
    /// does; a program that reads untrusted archives generically and keeps
    /// running calls this when it is done with the graph, so their memory is
    /// freed. The objects stay valid but empty.
    public func discardGraph() {
        for object in graphObjects.values {
            object.fields = [:]
            object.unkeyed = []
            object.foundationValue = nil
        }
        graphObjects = [:]
        pendingGraphObjects = []
        convertedPlainValues = [:]
    }
}
