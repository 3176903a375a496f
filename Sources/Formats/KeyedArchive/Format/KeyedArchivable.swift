import PropertyList

/// A value that can be stored in a keyed archive as an object, that is, as
/// an entry of `$objects` that other objects refer to by UID.
///
/// Strings, numbers, data, dates, UUIDs, URLs, arrays, dictionaries, sets
/// and ``ArchivedObject`` conform already, using Foundation's class names
/// and keys so that Apple's unarchiver reads them. Your own types conform
/// through ``KeyedArchivable``, which fills in these requirements.
public protocol KeyedArchiveRepresentable {
    /// The class names this type reads (its own and those it accepts, such as
    /// `NSMutableArray` for an array). Secure decoding allows exactly these
    /// names for a type listed as allowed.
    static var keyedArchiveClassNames: [String] { get }

    /// Writes this value into `archiver`'s object table and returns its reference.
    func archive(with archiver: KeyedArchiver) throws -> PropertyListUID

    /// Reads the value at `reference` (never `UID(0)`, always inside `$objects`).
    static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Self
}

/// A type that archives itself through a keyed coder, as an Objective-C
/// class does with `encodeWithCoder:` and `initWithCoder:`.
///
/// Works for structs and classes alike. A class instance archived twice is
/// stored once and read back as one shared instance; a struct is stored
/// wherever it occurs.
///
/// ```swift
/// struct Possession: KeyedArchivable {
///     static let archiveClass = KeyedArchiveClass("Possession")
///     var name: String
///     var valueInDollars: Int
///     func encode(with coder: KeyedArchiver) throws {
///         try coder.encode(name, forKey: "possessionName")
///         coder.encodeInteger(valueInDollars, forKey: "valueInDollars")
///     }
///     init(from coder: KeyedUnarchiver) throws {
///         name = try coder.decode(String.self, forKey: "possessionName")
///         valueInDollars = try coder.decodeInteger(forKey: "valueInDollars")
///     }
/// }
/// ```
public protocol KeyedArchivable: KeyedArchiveRepresentable {
    /// The class written for this type: the name Objective-C code knows it
    /// by and its superclass chain. Defaults to the Swift type name on
    /// `NSObject`. ``KeyedArchiver/setClassName(_:for:)`` overrides it per archive.
    static var archiveClass: KeyedArchiveClass { get }

    /// Writes this value's fields.
    func encode(with coder: KeyedArchiver) throws

    /// Reads a value from the fields of the object being decoded.
    init(from coder: KeyedUnarchiver) throws
}

extension KeyedArchivable {
    /// The Swift type name, on `NSObject`.
    public static var archiveClass: KeyedArchiveClass { KeyedArchiveClass(String(describing: Self.self)) }

    /// The name of ``archiveClass``.
    public static var keyedArchiveClassNames: [String] { [archiveClass.name] }

    /// Writes an object dictionary with this type's class and fields; a
    /// class instance already written is referred to, not written again.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        let identity: AnyObject? = Self.self is AnyObject.Type ? self as AnyObject : nil
        return try archiver.encodeObject(class: archiver.archiveClass(for: Self.self), identity: identity) { coder in
            try encode(with: coder)
        }
    }

    /// Reads an object dictionary whose class is this type's (or mapped to it).
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeObject(at: reference, acceptingClassNames: unarchiver.classNames(for: Self.self), decoding: Self.self) { coder, _ in
            try Self(from: coder)
        }
    }
}
