import Foundation
import OrderedCollections
import PropertyList

/// Writes keyed archives in Apple's `NSKeyedArchiver` format, and is the
/// coder that archivable types write their fields to.
///
/// ```swift
/// let bytes = try KeyedArchiver.archivedData(withRootObject: possessions)
/// try KeyedArchiver.archive(possessions, toFile: path)
/// ```
///
/// The layout is Apple's: `$objects[0]` is `$null`; an object gets the next
/// index when it is first met, its children follow it, and its class
/// dictionary is added after its fields (once per class); strings, numbers
/// and data sit inline in `$objects`; `encodeInteger`/`encodeBool`/
/// `encodeDouble` values sit inline in the object's own dictionary. A class
/// instance is written once however often it is referenced, so shared
/// references and cycles survive. Equal scalars of different kinds (`true`,
/// `1`, `1.0`) stay distinct.
public final class KeyedArchiver {
    /// The deepest nesting of objects written; deeper graphs are an error
    /// instead of a stack overflow.
    public var maximumDepth: Int

    var objects: [PropertyListValue] = [.string(KeyedArchiveFormat.nullMarker)]
    /// The dictionary being filled: `$top` at depth 0, else the current object's.
    var fields: OrderedDictionary<String, PropertyListValue> = [:]
    var unkeyedCount = 0
    var depth = 0
    var classReferences: [KeyedArchiveClass: UInt64] = [:]
    var identities: [ObjectIdentifier: UInt64] = [:]
    /// Keeps every archived instance alive so its `ObjectIdentifier` is not reused.
    var retained: [AnyObject] = []
    var scalars: [PropertyListValue: UInt64] = [:]
    var classOverrides: [ObjectIdentifier: KeyedArchiveClass] = [:]

    /// Creates an empty archiver; encode top-level values with
    /// `encode(_:forKey:)`, then take ``finishedTable()`` or ``encodedData(format:)``.
    public init(maximumDepth: Int = 512) {
        self.maximumDepth = maximumDepth
    }

    /// Writes `type` under `name` in this archive (for example `Possession`
    /// for a Swift type called `Inventory.Item`), keeping its superclass chain.
    public func setClassName(_ name: String, for type: any KeyedArchivable.Type) {
        classOverrides[ObjectIdentifier(type)] = KeyedArchiveClass(name, superclasses: Array(type.archiveClass.classes.dropFirst()))
    }

    /// Writes `type` with the class description `archiveClass` in this archive.
    public func setClass(_ archiveClass: KeyedArchiveClass, for type: any KeyedArchivable.Type) {
        classOverrides[ObjectIdentifier(type)] = archiveClass
    }

    /// The class written for `type`: an override, else its own ``KeyedArchivable/archiveClass``.
    public func archiveClass<T: KeyedArchivable>(for type: T.Type) -> KeyedArchiveClass {
        if !classOverrides.isEmpty, let mapped = classOverrides[ObjectIdentifier(type)] { return mapped }
        return T.archiveClass
    }

    /// The archive's tables as written so far (`$top` holds the top-level keys).
    public func finishedTable() -> KeyedArchiveTable {
        KeyedArchiveTable(top: depth == 0 ? fields : [:], objects: objects)
    }

    /// The archive as a binary (default) or XML property list.
    public func encodedData(format: PropertyListFormat = .binary) throws -> Data {
        try finishedTable().encoded(as: format)
    }
}

extension KeyedArchiver {
    /// Stores an object dictionary of class `archiveClass` whose fields
    /// `body` writes, and returns its reference. If `identity` (a class
    /// instance) was stored before, returns that reference instead, which
    /// is how shared references and cycles are kept.
    ///
    /// This is the building block of ``KeyedArchivable``; conformances of
    /// your own rarely need it directly.
    public func encodeObject(class archiveClass: KeyedArchiveClass, identity: AnyObject?,
                             _ body: (KeyedArchiver) throws -> Void) throws -> PropertyListUID {
        if let identity, let existing = identities[ObjectIdentifier(identity)] {
            return PropertyListUID(existing)
        }
        guard depth < maximumDepth else {
            throw KeyedArchiveError(.depthLimitExceeded, objectIndex: objects.count,
                                    "objects are nested more than \(maximumDepth) deep")
        }
        let index = UInt64(objects.count)
        // A placeholder until the fields are known; children take the next indices.
        objects.append(.bool(false))
        if let identity {
            identities[ObjectIdentifier(identity)] = index
            retained.append(identity)
        }
        let outerFields = fields
        let outerUnkeyed = unkeyedCount
        fields = [KeyedArchiveFormat.classKey: .uid(PropertyListUID(0))]
        unkeyedCount = 0
        depth += 1
        defer {
            fields = outerFields
            unkeyedCount = outerUnkeyed
            depth -= 1
        }
        try body(self)
        // Apple adds the class dictionary after the object's children.
        fields[KeyedArchiveFormat.classKey] = .uid(classReference(archiveClass))
        objects[Int(index)] = .dictionary(fields)
        return PropertyListUID(index)
    }

    /// Stores a plain string, number or data inline in `$objects` (once per
    /// distinct value and kind) and returns its reference.
    public func encodeInlineObject(_ value: PropertyListValue) -> PropertyListUID {
        if let existing = scalars[value] { return PropertyListUID(existing) }
        let index = UInt64(objects.count)
        objects.append(value)
        scalars[value] = index
        return PropertyListUID(index)
    }

    func classReference(_ archiveClass: KeyedArchiveClass) -> PropertyListUID {
        if let existing = classReferences[archiveClass] { return PropertyListUID(existing) }
        let index = UInt64(objects.count)
        var entry: OrderedDictionary<String, PropertyListValue> = [
            KeyedArchiveFormat.classNameKey: .string(archiveClass.name),
            KeyedArchiveFormat.classesKey: .array(archiveClass.classes.map { .string($0) }),
        ]
        if let hints = archiveClass.hints {
            entry[KeyedArchiveFormat.classHintsKey] = .array(hints.map { .string($0) })
        }
        objects.append(.dictionary(entry))
        classReferences[archiveClass] = index
        return PropertyListUID(index)
    }
}

/// The coder calls: what an archivable type's `encode(with:)` writes.
/// Keys starting with `$` are escaped as Apple does; at the top level
/// (outside any object) values land in `$top`.
extension KeyedArchiver {
    /// Stores `value` as an object reference (`UID(0)`, Apple's `$null`, for nil).
    public func encode<T: KeyedArchiveRepresentable>(_ value: T?, forKey key: String) throws {
        let reference = try value.map { try $0.archive(with: self) } ?? PropertyListUID(0)
        fields[KeyedArchiveFormat.escape(key)] = .uid(reference)
    }

    /// Stores `value` as the next un-keyed value (`$0`, `$1`, …).
    public func encodeUnkeyed<T: KeyedArchiveRepresentable>(_ value: T?) throws {
        let reference = try value.map { try $0.archive(with: self) } ?? PropertyListUID(0)
        fields[KeyedArchiveFormat.unkeyedKey(unkeyedCount)] = .uid(reference)
        unkeyedCount += 1
    }

    /// Stores an integer inline in the object (`encodeInteger:forKey:`).
    public func encodeInteger(_ value: Int, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .integer(PropertyListInteger(Int64(value)))
    }

    /// Stores a 64-bit integer inline in the object (`encodeInt64:forKey:`).
    public func encodeInt64(_ value: Int64, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .integer(PropertyListInteger(value))
    }

    /// Stores a 32-bit integer inline in the object (`encodeInt32:forKey:`, `encodeInt:forKey:`).
    public func encodeInt32(_ value: Int32, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .integer(PropertyListInteger(Int64(value)))
    }

    /// Stores a Boolean inline in the object (`encodeBool:forKey:`).
    public func encodeBool(_ value: Bool, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .bool(value)
    }

    /// Stores a double inline in the object (`encodeDouble:forKey:`).
    public func encodeDouble(_ value: Double, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .real(value)
    }

    /// Stores a float inline in the object (`encodeFloat:forKey:`), as a 32-bit real.
    public func encodeFloat(_ value: Float, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .float(value)
    }

    /// Stores raw bytes inline in the object (`encodeBytes:length:forKey:`).
    public func encodeBytes(_ value: Data, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .data(value)
    }

    /// Stores a plain property-list value in the object as it is: UIDs in
    /// it must be references this archiver returned. For writing fields
    /// whose shape no coder call produces (such as `NS.objects` arrays).
    public func encodePropertyList(_ value: PropertyListValue, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = value
    }

    /// Stores a plain property-list value under a stored key, unescaped.
    func encodeStored(_ value: PropertyListValue, storedKey: String) {
        fields[storedKey] = value
    }
}

extension KeyedArchiver {
    /// Archives `root` under `root` in `$top`, as `archivedDataWithRootObject:` does.
    public static func archivedData<T: KeyedArchiveRepresentable>(withRootObject root: T,
                                                                  format: PropertyListFormat = .binary) throws -> Data {
        let archiver = KeyedArchiver()
        try archiver.encode(root, forKey: KeyedArchiveFormat.rootKey)
        return try archiver.encodedData(format: format)
    }

    /// Archives `root` to `path` atomically (as `archiveRootObject:toFile:`
    /// does): readers see the old file or the complete new one, never a part.
    public static func archive<T: KeyedArchiveRepresentable>(_ root: T, toFile path: String,
                                                             format: PropertyListFormat = .binary) throws {
        let data = try archivedData(withRootObject: root, format: format)
        try ArchiveFiles.writeAtomically(data, to: path)
    }
}
