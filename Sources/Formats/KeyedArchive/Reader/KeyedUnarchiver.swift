import Foundation
import OrderedCollections
import PropertyList

/// Reads keyed archives written by Apple's `NSKeyedArchiver` (binary or
/// XML) or by ``KeyedArchiver``, and is the coder that archivable types read
/// their fields from.
///
/// ```swift
/// let items = try KeyedUnarchiver.unarchive([Possession].self, from: bytes)
/// let graph = try KeyedUnarchiver(data: bytes).decodeRootGraph()   // any archive, untyped
/// ```
///
/// Nothing in the input is trusted: every reference is bounds-checked,
/// every class dictionary validated, nesting is limited, and a value
/// type that would have to contain itself is an error, not a hang. Each
/// object is decoded once per type, so a shared reference decoded as a class
/// comes back as one shared instance, and hostile archives that share
/// sub-graphs exponentially cost linear time.
public final class KeyedUnarchiver {
    /// The archive's tables as stored.
    public let table: KeyedArchiveTable
    /// The deepest nesting of objects decoded through the typed API.
    public var maximumDepth: Int

    let objects: [PropertyListValue]
    /// The dictionary being read: `$top` at depth 0, else the current object's.
    var fields: OrderedDictionary<String, PropertyListValue>
    var currentIndex: Int?
    var unkeyedCount = 0
    var depth = 0
    var inProgress: [Bool]
    /// Each object dictionary's last decoded value, by index.
    var decoded: [Any?]
    var classes: [Int: KeyedArchiveClass] = [:]
    /// The type last found to accept each class (by class index).
    var acceptedTypes: [Int: ObjectIdentifier] = [:]
    var graphObjects: [Int: ArchivedObject] = [:]
    var pendingGraphObjects: [ArchivedObject] = []
    var fillingGraph = false
    /// Plain arrays and dictionaries already converted for the generic
    /// graph, by the identity of their stored elements: a shared plain
    /// sub-tree (a "bomb" of a few hundred bytes) is converted once and
    /// stays shared instead of expanding.
    var convertedPlainValues: [UnsafeRawPointer: ArchivedValue] = [:]
    var classAliases: [ObjectIdentifier: [String]] = [:]
    /// With secure decoding on, the only class names an object may have.
    public private(set) var allowedClassNames: Set<String>?

    /// Reads an archive's tables; references are checked as they are used.
    public convenience init(data: Data, limits: PropertyListLimits = .default, maximumDepth: Int = 512) throws {
        try self.init(table: KeyedArchiveTable(data: data, limits: limits), maximumDepth: maximumDepth)
    }

    /// Reads an archive from a file.
    public convenience init(contentsOfFile path: String, limits: PropertyListLimits = .default) throws {
        let data = try Self.contents(ofFile: path)
        do {
            try self.init(data: data, limits: limits)
        } catch var error as KeyedArchiveError {
            error.path = path
            throw error
        }
    }

    static func contents(ofFile path: String) throws -> Data {
        try ArchiveFiles.read(path)
    }

    /// Wraps tables already read.
    public init(table: KeyedArchiveTable, maximumDepth: Int = 512) {
        self.table = table
        self.objects = table.objects
        self.fields = table.top
        self.maximumDepth = maximumDepth
        self.inProgress = Array(repeating: false, count: table.objects.count)
        self.decoded = Array(repeating: nil, count: table.objects.count)
    }

    /// Turns on secure decoding: from now on an object whose class is not
    /// one of `types`' class names (``KeyedArchiveRepresentable/keyedArchiveClassNames``,
    /// plus names mapped with ``setClass(_:forClassName:)``) is a
    /// ``KeyedArchiveError/Code/disallowedClass`` error. Plain strings,
    /// numbers and data need no class and are always allowed.
    public func requireSecureDecoding(allowing types: [any KeyedArchiveRepresentable.Type]) {
        var names = Set<String>()
        for type in types {
            names.formUnion(type.keyedArchiveClassNames)
            names.formUnion(classAliases[ObjectIdentifier(type)] ?? [])
        }
        allowedClassNames = names
    }

    /// Turns on secure decoding with an explicit list of class names.
    public func requireSecureDecoding(allowingClassNames names: Set<String>) {
        allowedClassNames = names
    }

    /// Reads objects of class `name` (an Objective-C name such as `MBFile`)
    /// as `type`, in addition to the type's own class name.
    public func setClass(_ type: any KeyedArchiveRepresentable.Type, forClassName name: String) {
        classAliases[ObjectIdentifier(type), default: []].append(name)
        if allowedClassNames != nil, allowedClassNames?.isDisjoint(with: type.keyedArchiveClassNames) == false {
            allowedClassNames?.insert(name)
        }
    }

    /// The class names `type` is read from: its own and any mapped with ``setClass(_:forClassName:)``.
    public func classNames<T: KeyedArchiveRepresentable>(for type: T.Type) -> [String] {
        guard !classAliases.isEmpty, let aliases = classAliases[ObjectIdentifier(type)] else { return T.keyedArchiveClassNames }
        return T.keyedArchiveClassNames + aliases
    }
}

/// The coder calls: what an archivable type's `init(from:)` reads from the
/// current object (or from `$top` at the top level).
extension KeyedUnarchiver {
    /// The coder keys of the current object, unescaped, without `$class`
    /// and un-keyed values.
    public var allKeys: [String] { fields.keys.compactMap(KeyedArchiveFormat.unescape) }

    /// Whether the current object has a value for `key`.
    public func containsValue(forKey key: String) -> Bool {
        fields[KeyedArchiveFormat.escape(key)] != nil
    }

    /// The value stored for `key` as it is in the archive (a UID for an
    /// object, a plain value for a primitive), or `nil`.
    public func decodePropertyList(forKey key: String) -> PropertyListValue? {
        fields[KeyedArchiveFormat.escape(key)]
    }

    /// Reads the object stored for `key`; a missing key or nil is an error.
    public func decode<T: KeyedArchiveRepresentable>(_ type: T.Type, forKey key: String) throws -> T {
        guard let value = try decodeIfPresent(type, forKey: key) else {
            throw KeyedArchiveError(.keyNotFound, objectIndex: currentIndex, key: key,
                                    containsValue(forKey: key) ? "the value is nil, expected \(T.self)" : "no value for the key")
        }
        return value
    }

    /// Reads the object stored for `key`, or `nil` if the key is missing or holds nil.
    public func decodeIfPresent<T: KeyedArchiveRepresentable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let stored = fields[KeyedArchiveFormat.escape(key)] else { return nil }
        guard case .uid(let reference) = stored else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key,
                                    "expected an object reference, found a \(stored.typeName) stored inline (use decodeInteger/decodeBool/decodeDouble)")
        }
        return try decodeReference(reference, as: type, key: key)
    }

    /// Reads the next un-keyed value (`$0`, `$1`, …), or `nil` if there is none or it is nil.
    public func decodeUnkeyed<T: KeyedArchiveRepresentable>(_ type: T.Type) throws -> T? {
        let key = KeyedArchiveFormat.unkeyedKey(unkeyedCount)
        unkeyedCount += 1
        guard let stored = fields[key] else { return nil }
        guard case .uid(let reference) = stored else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key,
                                    "expected an object reference, found a \(stored.typeName)")
        }
        return try decodeReference(reference, as: type, key: key)
    }

    /// Reads an integer (`decodeIntegerForKey:`). As in Foundation, a missing
    /// key reads as 0; a value that is not a number or does not fit is an error.
    public func decodeInteger(forKey key: String) throws -> Int {
        try decodeInt64(forKey: key, as: Int.self)
    }

    /// Reads a 64-bit integer (`decodeInt64ForKey:`); a missing key reads as 0.
    public func decodeInt64(forKey key: String) throws -> Int64 {
        try decodeInt64(forKey: key, as: Int64.self)
    }

    /// Reads a 32-bit integer (`decodeInt32ForKey:`); a missing key reads as 0.
    public func decodeInt32(forKey key: String) throws -> Int32 {
        try decodeInt64(forKey: key, as: Int32.self)
    }

    /// Reads a Boolean (`decodeBoolForKey:`); a missing key reads as false,
    /// a number reads as whether it is non-zero.
    public func decodeBool(forKey key: String) throws -> Bool {
        guard let value = try primitive(forKey: key) else { return false }
        switch value {
        case .bool(let flag): return flag
        case .integer(let integer): return integer.bitPattern != 0
        case .real, .float: return value.realValue != 0
        default: throw primitiveMismatch(value, "a Boolean", key)
        }
    }

    /// Reads a double (`decodeDoubleForKey:`); a missing key reads as 0, an integer is converted.
    public func decodeDouble(forKey key: String) throws -> Double {
        guard let value = try primitive(forKey: key) else { return 0 }
        switch value {
        case .real(let real): return real
        case .float(let real): return Double(real)
        case .integer(let integer):
            return integer.int64Value.map(Double.init) ?? Double(integer.bitPattern)
        case .bool(let flag): return flag ? 1 : 0
        default: throw primitiveMismatch(value, "a real", key)
        }
    }

    /// Reads a float (`decodeFloatForKey:`); a missing key reads as 0.
    public func decodeFloat(forKey key: String) throws -> Float {
        Float(try decodeDouble(forKey: key))
    }

    /// Reads raw bytes (`decodeBytesForKey:`), or `nil` if the key is missing.
    public func decodeBytes(forKey key: String) throws -> Data? {
        guard let value = try primitive(forKey: key) else { return nil }
        guard case .data(let bytes) = value else { throw primitiveMismatch(value, "data", key) }
        return bytes
    }

    private func decodeInt64<T: FixedWidthInteger>(forKey key: String, as type: T.Type) throws -> T {
        guard let value = try primitive(forKey: key) else { return 0 }
        switch value {
        case .integer(let integer):
            guard let result = integer.exactly(as: T.self) else {
                throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key, "\(integer) does not fit in \(T.self)")
            }
            return result
        case .bool(let flag):
            return flag ? 1 : 0
        case .real(let real):
            // Foundation truncates a real read as an integer.
            guard real.isFinite, let result = T(exactly: real.rounded(.towardZero)) else {
                throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key, "\(real) does not fit in \(T.self)")
            }
            return result
        default:
            throw primitiveMismatch(value, "an integer", key)
        }
    }

    /// The plain value for `key`; an NSNumber stored as an object is looked through.
    private func primitive(forKey key: String) throws -> PropertyListValue? {
        guard let stored = fields[KeyedArchiveFormat.escape(key)] else { return nil }
        guard case .uid(let reference) = stored else { return stored }
        if reference.value == 0 { return nil }
        let object = try storedObject(at: reference)
        if case .dictionary = object {
            return try decodeReference(reference, as: PropertyListValue.self, key: key)
        }
        return object
    }

    private func primitiveMismatch(_ value: PropertyListValue, _ expected: String, _ key: String) -> KeyedArchiveError {
        KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key, "expected \(expected), found a \(value.typeName)")
    }
}

extension KeyedUnarchiver {
    /// Reads `type` from an archive's `root` object.
    public static func unarchive<T: KeyedArchiveRepresentable>(_ type: T.Type, from data: Data,
                                                               allowedTypes: [any KeyedArchiveRepresentable.Type]? = nil) throws -> T {
        let unarchiver = try KeyedUnarchiver(data: data)
        if let allowedTypes { unarchiver.requireSecureDecoding(allowing: allowedTypes) }
        return try unarchiver.decodeRoot(type)
    }

    /// Reads `type` from the `root` object of the archive at `path`.
    public static func unarchive<T: KeyedArchiveRepresentable>(_ type: T.Type, fromFile path: String,
                                                               allowedTypes: [any KeyedArchiveRepresentable.Type]? = nil) throws -> T {
        let unarchiver = try KeyedUnarchiver(contentsOfFile: path)
        if let allowedTypes { unarchiver.requireSecureDecoding(allowing: allowedTypes) }
        do {
            return try unarchiver.decodeRoot(type)
        } catch var error as KeyedArchiveError {
            error.path = path
            throw error
        }
    }

    /// Reads the `root` entry of `$top` as `type`; a missing or nil root is
    /// a ``KeyedArchiveError/Code/missingRoot`` error.
    public func decodeRoot<T: KeyedArchiveRepresentable>(_ type: T.Type) throws -> T {
        try decodeTopLevel(type, forKey: KeyedArchiveFormat.rootKey)
    }

    /// Reads the entry `key` of `$top` as `type`.
    public func decodeTopLevel<T: KeyedArchiveRepresentable>(_ type: T.Type, forKey key: String) throws -> T {
        guard let stored = table.top[KeyedArchiveFormat.escape(key)] else {
            throw KeyedArchiveError(.missingRoot, key: key, "$top has no \(InputExcerpt.quoted(key)) entry")
        }
        guard case .uid(let reference) = stored else {
            throw KeyedArchiveError(.invalidReference, key: key, "$top[\(InputExcerpt.quoted(key))] is a \(stored.typeName), not a UID")
        }
        guard let value = try withTopLevel({ try decodeReference(reference, as: type, key: key) }) else {
            throw KeyedArchiveError(.missingRoot, key: key, "$top[\(InputExcerpt.quoted(key))] is nil")
        }
        return value
    }

    func withTopLevel<R>(_ body: () throws -> R) rethrows -> R {
        let outerFields = fields, outerIndex = currentIndex, outerDepth = depth
        fields = table.top
        currentIndex = nil
        depth = 0
        defer {
            fields = outerFields
            currentIndex = outerIndex
            depth = outerDepth
        }
        return try body()
    }
}

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
