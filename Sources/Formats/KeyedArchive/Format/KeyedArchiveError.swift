import CodedErrors
import PropertyList
/// An error reading or writing a keyed archive: what went wrong, and where
/// (and, for a file, the file system's error as its cause).
///
/// Every problem an archive can have — a damaged property list, a reference
/// outside `$objects`, a missing class, a type the caller did not allow —
/// is one of these, never a crash. Match on ``code``; show ``description``.
///
/// ```swift
/// do { _ = try KeyedUnarchiver.unarchive(Possession.self, from: bytes) }
/// catch let error as KeyedArchiveError where error.code == .missingRoot { … }
/// ```
public struct KeyedArchiveError: Error, Hashable, Sendable, CustomStringConvertible, CausedError {
    /// The kind of failure.
    public var code: Code
    /// The `$objects` index of the object being read or written, if any.
    public var objectIndex: Int?
    /// The coder key being read or written, if any.
    public var key: String?
    /// The file being read or written, if any.
    public var path: String?
    /// A sentence saying what was wrong.
    public var message: String
    /// The error behind it (reading or writing the file), if any: kept,
    /// not compared.
    @UncomparedCause public var underlying: (any Error)? = nil

    /// Creates an error.
    public init(_ code: Code, objectIndex: Int? = nil, key: String? = nil, path: String? = nil, _ message: String,
                underlying: (any Error)? = nil) {
        self.code = code
        self.objectIndex = objectIndex
        self.key = key
        self.path = path
        self.message = message
        self.underlying = underlying
    }

    /// The kind of a ``KeyedArchiveError``.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The bytes are not a readable property list (the message carries the property-list error).
        case invalidPropertyList
        /// The property list is not a keyed archive: no top-level dictionary, `$top` or `$objects`.
        case notAnArchive
        /// `$archiver` is missing or is not `NSKeyedArchiver`.
        case wrongArchiver
        /// `$version` is missing or is not 100000.
        case unsupportedVersion
        /// `$top` has no `root` entry (or the requested top-level key).
        case missingRoot
        /// A UID points outside `$objects`, or a reference is not a UID.
        case invalidReference
        /// An object dictionary has no `$class` entry.
        case missingClass
        /// A `$class` reference does not lead to a `{$classname, $classes}` dictionary.
        case invalidClass
        /// An `$objects` entry has a shape no archiver writes (an array, a bare UID…).
        case invalidObject
        /// A value is not of the type the caller asked for.
        case typeMismatch
        /// A required key is absent.
        case keyNotFound
        /// Secure decoding met a class the caller did not allow.
        case disallowedClass
        /// An object contains itself where the decoded type cannot (a value type).
        case cycle
        /// Objects are nested deeper than the configured limit.
        case depthLimitExceeded
        /// A value cannot be written in a keyed archive.
        case unsupportedValue
        /// Reading or writing the file failed.
        case fileIO

        public var description: String { rawValue }
    }

    public var description: String {
        var text = "keyed archive: \(message)"
        var places: [String] = []
        if let objectIndex { places.append("object \(objectIndex)") }
        if let key { places.append("key \(InputExcerpt.quoted(key))") }
        if let path { places.append(path) }
        if !places.isEmpty { text += " (at \(places.joined(separator: ", ")))" }
        return describing(text)
    }
}
