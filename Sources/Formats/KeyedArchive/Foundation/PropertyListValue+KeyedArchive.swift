import Foundation
import OrderedCollections
import PropertyList

/// Plain property-list values as archive objects — the basis of the
/// Codable bridge. Writing: strings, numbers and data inline, dates as
/// `NSDate`, arrays as `NSArray`, dictionaries as `NSDictionary`. Reading
/// also turns sets and ordered sets into arrays, UUIDs and URLs into
/// strings, and an object of any other class into a dictionary of its
/// coder keys, so Codable types can read archives of custom classes.
extension PropertyListValue: KeyedArchiveRepresentable {
    /// Every Foundation class this value reads.
    public static var keyedArchiveClassNames: [String] { Array(FoundationClassKind.byName.keys).sorted() }

    /// Stores the value; a UID has no archive form and is an error.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        switch self {
        case .string, .integer, .real, .float, .bool, .data:
            return archiver.encodeInlineObject(self)
        case .date(let date):
            return try date.archive(with: archiver)
        case .array(let elements):
            return try elements.archive(with: archiver)
        case .dictionary(let entries):
            return try archiver.encodeObject(class: .dictionary, identity: nil) { coder in
                var keys: [PropertyListValue] = [], objects: [PropertyListValue] = []
                for (key, value) in entries {
                    keys.append(.uid(coder.encodeInlineObject(.string(key))))
                    objects.append(.uid(try value.archive(with: coder)))
                }
                coder.encodeStored(.array(keys), storedKey: FoundationKeys.keys)
                coder.encodeStored(.array(objects), storedKey: FoundationKeys.objects)
            }
        case .uid(let uid):
            throw KeyedArchiveError(.unsupportedValue, "a \(uid) cannot be archived as a value")
        }
    }

    /// Reads any object as a plain value (see the type's discussion).
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> PropertyListValue {
        let stored = try unarchiver.storedObject(at: reference)
        guard case .dictionary(let entry) = stored else {
            if case .uid = stored { throw KeyedArchiveError(.invalidObject, objectIndex: Int(reference.value), "$objects holds a bare UID") }
            return stored
        }
        let archiveClass = try unarchiver.objectClass(of: entry, at: Int(reference.value))
        switch FoundationClassKind(archiveClass) {
        case .string: return .string(try String.unarchive(reference, with: unarchiver))
        case .data: return .data(try Data.unarchive(reference, with: unarchiver))
        case .number: return try ArchivedNumber.unarchive(reference, with: unarchiver, expected: "a number") { $0 }
        case .date: return .date(try Date.unarchive(reference, with: unarchiver))
        case .array: return .array(try [PropertyListValue].unarchive(reference, with: unarchiver))
        case .orderedSet: return .array(Array(try OrderedSet<PropertyListValue>.unarchive(reference, with: unarchiver)))
        case .set, .countedSet: return .array(Array(try Set<PropertyListValue>.unarchive(reference, with: unarchiver)))
        case .uuid: return .string(try UUID.unarchive(reference, with: unarchiver).uuidString)
        case .url: return .string(try URL.unarchive(reference, with: unarchiver).absoluteString)
        case .dictionary:
            return try unarchiver.decodeObject(at: reference, acceptingClassNames: archiveClass.classes) { coder, _ in
                var entries = OrderedDictionary<String, PropertyListValue>()
                for (key, object) in try coder.dictionaryReferences() {
                    entries[try coder.element(key, as: String.self, key: FoundationKeys.keys)] = try coder.element(object, as: PropertyListValue.self, key: FoundationKeys.objects)
                }
                return .dictionary(entries)
            }
        case .null:
            throw KeyedArchiveError(.typeMismatch, objectIndex: Int(reference.value), "NSNull has no property-list form")
        case .value, nil:
            return try unarchiver.decodeObject(at: reference, acceptingClassNames: archiveClass.classes) { coder, _ in
                var entries = OrderedDictionary<String, PropertyListValue>()
                // A nil field is left out, which Codable reads as a missing optional.
                for (storedKey, value) in coder.fields where value != .uid(PropertyListUID(0)) {
                    guard let key = KeyedArchiveFormat.unescape(storedKey) else { continue }
                    entries[key] = try coder.plainValue(value, key: key)
                }
                return .dictionary(entries)
            }
        }
    }
}

extension KeyedUnarchiver {
    /// A field's value with its references resolved to plain values.
    func plainValue(_ value: PropertyListValue, key: String) throws -> PropertyListValue {
        switch value {
        case .uid(let reference):
            guard let resolved = try decodeReference(reference, as: PropertyListValue.self, key: key) else {
                throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key, "nil has no property-list form")
            }
            return resolved
        case .array(let elements):
            return .array(try elements.map { try plainValue($0, key: key) })
        case .dictionary(let entries):
            var result = OrderedDictionary<String, PropertyListValue>()
            for (entryKey, entryValue) in entries { result[entryKey] = try plainValue(entryValue, key: key) }
            return .dictionary(result)
        default:
            return value
        }
    }
}
