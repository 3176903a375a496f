import PropertyList

/// Foundation's `NSNull` singleton: an object that stands for "no value"
/// inside collections, which cannot hold nil.
public struct KeyedArchiveNull: Hashable, Sendable, KeyedArchiveRepresentable {
    /// The null value.
    public init() {}

    /// `NSNull`.
    public static var keyedArchiveClassNames: [String] { ["NSNull"] }

    /// Stores an `NSNull` object (a dictionary with only `$class`).
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archiver.encodeObject(class: .null, identity: nil) { _ in }
    }

    /// Reads an `NSNull` object.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> KeyedArchiveNull {
        try unarchiver.decodeObject(at: reference, acceptingClassNames: keyedArchiveClassNames) { _, _ in KeyedArchiveNull() }
    }
}
