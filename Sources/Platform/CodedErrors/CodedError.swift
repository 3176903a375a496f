/// A failure with a kind, the path it concerned and a sentence for people:
/// the one shape of the errors of `Container`, its migrations,
/// `Preferences`, `CacheManifest` and `StorageAudit`.
///
/// Each module keeps its own error type by binding the shape to its own
/// ``ErrorCode`` enum, so the types stay distinct for `catch` and typed
/// throws while the stored properties, the initializer and the
/// description are written once, here:
///
/// ```swift
/// public enum PreferencesErrorCode: String, ErrorCode { case corruptFile, … }
/// public typealias PreferencesError = CodedError<PreferencesErrorCode>
///
/// do { try prefs.synchronize() }
/// catch let error as PreferencesError where error.code == .corruptFile { … }
/// ```
///
/// A module adds what is its own (an initializer from a lower layer's
/// error, say) in an extension of its alias.
public struct CodedError<Kind: ErrorCode>: Error, Hashable, CustomStringConvertible {
    /// The module's kinds of failure, reachable as `PreferencesError.Code`
    /// (a generic parameter is not a member type, so it is named again here).
    public typealias Code = Kind

    /// What went wrong.
    public var code: Code
    /// The file, directory or domain concerned, in the module's own terms
    /// (container-relative for a container); empty when none.
    public var path: String
    /// A sentence or phrase for people.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String = "", _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The message and the path, in the order ``ErrorCode/describe(path:message:)``
    /// of the module's code gives.
    public var description: String { Code.describe(path: path, message: message) }
}
