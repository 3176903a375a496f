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
