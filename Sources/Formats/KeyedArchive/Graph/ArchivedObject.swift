import Foundation
import OrderedCollections
import PropertyList

/// One entry of `$objects`, read or written without a Swift type for its
/// class: the class chain and the raw coder fields, plus what Foundation
/// value it is when its class is one Foundation archives.
///
/// This is how an archive of classes nobody registered (`Note`,
/// `MBFile`, `NSAffineTransform`) is still read completely, and how such an
/// object is written:
///
/// ```swift
/// let file = ArchivedObject(className: "MBFile", fields: [
///     "RelativePath": .string("Library/Preferences/x.plist"),
///     "Mode": .integer(0o100644), "Size": .integer(42),
/// ])
/// let bytes = try KeyedArchiver.archivedData(withRootObject: file)
/// ```
///
/// Instances are shared exactly as the archive shares them; an archive with
/// a cycle reads as objects that refer to each other (which, like any
/// reference cycle, stays alive until you clear a field).
public final class ArchivedObject: Hashable, KeyedArchiveRepresentable {
    /// The class, or `nil` for a plain string, number or data stored inline in `$objects`.
    public var archiveClass: KeyedArchiveClass?
    /// The plain value, for an inline entry.
    public var inlineValue: PropertyListValue?
    /// The coder keys (unescaped) and their values, in stored order, without
    /// `$class` and un-keyed values.
    public var fields: OrderedDictionary<String, ArchivedValue>
    /// Values written without keys (`$0`, `$1`, …), in order.
    public var unkeyed: [ArchivedValue]
    /// The object's index in `$objects`, when it was read from an archive.
    public internal(set) var archiveIndex: Int?
    /// The Foundation value this object is, when read from an archive and
    /// its class (or a superclass) is one Foundation archives and its
    /// fields are well-formed; `nil` otherwise.
    public internal(set) var foundationValue: ArchivedFoundationValue?

    /// Creates an object of class `className` on `superclasses`.
    public init(className: String, superclasses: [String] = ["NSObject"],
                fields: OrderedDictionary<String, ArchivedValue> = [:], unkeyed: [ArchivedValue] = []) {
        self.archiveClass = KeyedArchiveClass(className, superclasses: superclasses)
        self.fields = fields
        self.unkeyed = unkeyed
    }

    /// Creates an object of class `archiveClass`.
    public init(class archiveClass: KeyedArchiveClass, fields: OrderedDictionary<String, ArchivedValue> = [:],
                unkeyed: [ArchivedValue] = []) {
        self.archiveClass = archiveClass
        self.fields = fields
        self.unkeyed = unkeyed
    }

    /// Creates an inline entry: a plain string, number or data.
    public init(inline value: PropertyListValue) {
        self.inlineValue = value
        self.fields = [:]
        self.unkeyed = []
        self.foundationValue = ArchivedFoundationValue(inline: value)
    }

    /// The class name, or `nil` for an inline entry.
    public var className: String? { archiveClass?.name }

    /// The field `key`.
    public subscript(key: String) -> ArchivedValue? {
        get { fields[key] }
        set { fields[key] = newValue }
    }

    deinit {
        // A long chain would otherwise be freed by nested deinits; see
        // ArchivedObject+Teardown.swift.
        if !fields.isEmpty || !unkeyed.isEmpty || foundationValue?.holdsValues == true { releaseChildrenIteratively() }
    }

    public static func == (lhs: ArchivedObject, rhs: ArchivedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Any class: a generic object reads every object.
    public static var keyedArchiveClassNames: [String] { [] }

    /// Writes the object with its class and fields (an inline entry inline);
    /// an instance already written is referred to, not written again.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        guard let archiveClass else {
            guard let inlineValue else {
                throw KeyedArchiveError(.unsupportedValue, "an archived object has neither a class nor an inline value")
            }
            return archiver.encodeInlineObject(inlineValue)
        }
        return try archiver.encodeObject(class: archiveClass, identity: self) { coder in
            for (key, value) in fields {
                coder.encodePropertyList(try value.fieldValue(with: coder), forKey: key)
            }
            for (index, value) in unkeyed.enumerated() {
                coder.encodeStored(try value.fieldValue(with: coder), storedKey: KeyedArchiveFormat.unkeyedKey(index))
            }
        }
    }

    /// Reads the object at `reference` and everything it reaches, generically.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> ArchivedObject {
        try unarchiver.graphObject(at: reference)
    }
}

extension ArchivedValue {
    /// The stored form of this value as a field.
    func fieldValue(with archiver: KeyedArchiver) throws -> PropertyListValue {
        switch self {
        case .null: .uid(PropertyListUID(0))
        case .scalar(let value): value
        case .object(let object): .uid(try object.archive(with: archiver))
        case .array(let elements): .array(try elements.map { try $0.fieldValue(with: archiver) })
        case .dictionary(let entries): .dictionary(try entries.mapValues { try $0.fieldValue(with: archiver) })
        }
    }
}

/// Tearing a graph down without recursion.
///
/// An object's fields hold the next object, so releasing the head of a
/// chain 100,000 objects long would run 100,000 nested `deinit`s and
/// overflow the stack (a hostile archive is exactly such a chain). Instead,
/// an object being freed moves its children onto a work list, and each
/// child that nothing else holds gives up its own children there before it
/// is released: every `deinit` then finds its object already empty.
extension ArchivedObject {
    /// Empties this object's children onto `pending`. Plain arrays and
    /// dictionaries the reader shares are looked into once (`visited`, by
    /// the identity of their storage): a hostile archive's shared plain
    /// values would otherwise be walked 2^n times.
    func moveChildren(into pending: inout [ArchivedObject], visited: inout Set<UnsafeRawPointer>) {
        var values: [ArchivedValue] = Array(fields.values)
        values.append(contentsOf: unkeyed)
        if let foundationValue { values.append(contentsOf: foundationValue.childValues) }
        fields = [:]
        unkeyed = []
        foundationValue = nil
        while let value = values.popLast() {
            switch value {
            case .object(let object): pending.append(object)
            case .array(let elements):
                let identity = SharedStorage.identity(of: elements)
                if let identity, !visited.insert(identity).inserted { continue }
                values.append(contentsOf: elements)
            case .dictionary(let entries):
                let identity = SharedStorage.identity(of: entries)
                if let identity, !visited.insert(identity).inserted { continue }
                values.append(contentsOf: entries.values)
            case .null, .scalar: break
            }
        }
    }

    /// Called from `deinit`: releases the children one at a time.
    func releaseChildrenIteratively() {
        var pending: [ArchivedObject] = []
        var visited: Set<UnsafeRawPointer> = []
        moveChildren(into: &pending, visited: &visited)
        while var object = pending.popLast() {
            // Only an object nobody else holds may be emptied: it is going
            // away with this reference, and its children with it.
            if isKnownUniquelyReferenced(&object) { object.moveChildren(into: &pending, visited: &visited) }
        }
    }
}

extension ArchivedFoundationValue {
    /// Whether this reading holds generic values at all (cheap to ask).
    var holdsValues: Bool {
        switch self {
        case .array, .set, .orderedSet, .countedSet, .dictionary: true
        case .string, .number, .data, .date, .uuid, .url, .null, .special: false
        }
    }

    /// The generic values this reading holds (elements, keys, values).
    var childValues: [ArchivedValue] {
        switch self {
        case .array(let values), .set(let values), .orderedSet(let values): values
        case .countedSet(let elements): elements.map(\.element)
        case .dictionary(let entries): entries.flatMap { [$0.key, $0.value] }
        case .string, .number, .data, .date, .uuid, .url, .null, .special: []
        }
    }
}
