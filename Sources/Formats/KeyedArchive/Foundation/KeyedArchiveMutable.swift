import Foundation
import OrderedCollections
import PropertyList

/// Writes a string, data or collection as Foundation's mutable class
/// (`NSMutableString {NS.string}`, `NSMutableData {NS.data}`,
/// `NSMutableArray`, `NSMutableDictionary`, `NSMutableSet`,
/// `NSMutableOrderedSet`), as Apple's archiver does for mutable objects.
/// Reading accepts both the mutable and the immutable class.
public struct KeyedArchiveMutable<Wrapped: KeyedArchiveRepresentable>: KeyedArchiveRepresentable {
    /// The value.
    public var value: Wrapped

    /// Wraps `value`.
    public init(_ value: Wrapped) { self.value = value }

    /// The wrapped type's class names.
    public static var keyedArchiveClassNames: [String] { Wrapped.keyedArchiveClassNames }

    /// Stores the value under its mutable class; types without one are stored as usual.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        if let mutable = value as? MutableArchivable { return try mutable.archiveMutable(with: archiver) }
        return try value.archive(with: archiver)
    }

    /// Reads the wrapped value.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Self {
        Self(try Wrapped.unarchive(reference, with: unarchiver))
    }
}

/// A value with a mutable Foundation class to write.
protocol MutableArchivable {
    func archiveMutable(with archiver: KeyedArchiver) throws -> PropertyListUID
}

extension String: MutableArchivable {
    func archiveMutable(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archiver.encodeObject(class: .mutableString, identity: nil) { $0.encodeStored(.string(self), storedKey: FoundationKeys.string) }
    }
}

extension Data: MutableArchivable {
    func archiveMutable(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archiver.encodeObject(class: .mutableData, identity: nil) { $0.encodeStored(.data(self), storedKey: FoundationKeys.data) }
    }
}

extension Array: MutableArchivable where Element: KeyedArchiveRepresentable {
    func archiveMutable(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archive(with: archiver, class: .mutableArray)
    }
}

extension Set: MutableArchivable where Element: KeyedArchiveRepresentable {
    func archiveMutable(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try Array(self).archive(with: archiver, class: KeyedArchiveClass("NSMutableSet", superclasses: ["NSSet", "NSObject"]))
    }
}

extension Dictionary: MutableArchivable where Key: KeyedArchiveRepresentable, Value: KeyedArchiveRepresentable {
    func archiveMutable(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archive(with: archiver, class: KeyedArchiveClass("NSMutableDictionary", superclasses: ["NSDictionary", "NSObject"]))
    }
}

extension OrderedSet: MutableArchivable where Element: KeyedArchiveRepresentable {
    func archiveMutable(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archive(with: archiver, class: KeyedArchiveClass("NSMutableOrderedSet", superclasses: ["NSOrderedSet", "NSObject"]))
    }
}
