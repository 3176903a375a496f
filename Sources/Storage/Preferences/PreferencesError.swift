/// A preferences operation that failed, with what it was about.
///
/// ```swift
/// do { try prefs.synchronize() }
/// catch let error as PreferencesError where error.code == .storageFailed { … }
/// ```
public struct PreferencesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Hashable, Sendable {
        /// A domain or suite name that cannot name a preferences file
        /// (empty, containing `/`, or one Foundation refuses as a suite).
        case invalidDomainName
        /// A value that a property list cannot hold, or a `Codable` value
        /// that did not encode or decode.
        case invalidValue
        /// The preferences file exists but is not a property-list dictionary.
        case corruptFile
        /// Reading, writing or locking the preferences file failed.
        case storageFailed
        /// The domain is read-only from here (the global domain of an app).
        case readOnlyDomain
    }

    /// What went wrong.
    public var code: Code
    /// The file or domain concerned.
    public var path: String
    /// A sentence for people.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `<path>: <message>`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
