/// A failure with a kind, a sentence for people and where it happened:
/// the one shape of the errors of `Container`, its migrations,
/// `Preferences`, `CacheManifest`, `StorageAudit`, `LaunchCore`, `Store`,
/// `MobileBackup`, `Keychain`, `Device` and `CloudBackup`.
///
/// Each module keeps its own error type by binding the shape to its own
/// ``ErrorCode`` enum, so the types stay distinct for `catch` and typed
/// throws while the stored properties and the description's plumbing are
/// written once, here:
///
/// ```swift
/// public enum PreferencesErrorCode: String, ErrorCode { case corruptFile, … }
/// public typealias PreferencesError = CodedError<PreferencesErrorCode>
///
/// do { try prefs.synchronize() }
/// catch let error as PreferencesError where error.code == .corruptFile { … }
/// ```
///
/// What an error says besides its message (the path, a line, an `errno`)
/// is its code's ``ErrorCode/Context``, read through the error itself
/// (`error.path`, `error.line`). A module adds its own initializer (the
/// arguments its call sites pass) in an extension of its alias.
@dynamicMemberLookup
public struct CodedError<Kind: ErrorCode>: Error, Hashable, CustomStringConvertible {
    /// The module's kinds of failure, reachable as `PreferencesError.Code`
    /// (a generic parameter is not a member type, so it is named again here).
    public typealias Code = Kind

    /// What went wrong.
    public var code: Code
    /// A sentence or phrase for people.
    public var message: String
    /// Where it went wrong, in the module's terms.
    public var context: Code.Context

    /// Creates an error.
    public init(_ code: Code, _ message: String, context: Code.Context) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// A field of the context, as if it were the error's own.
    public subscript<Value>(dynamicMember field: WritableKeyPath<Code.Context, Value>) -> Value {
        get { context[keyPath: field] }
        set { context[keyPath: field] = newValue }
    }

    /// The error in words, as ``ErrorCode/describe(_:)`` of the module's
    /// code gives.
    public var description: String { Code.describe(self) }
}

extension CodedError where Code.Context == ErrorPath {
    /// Creates an error about `path`.
    public init(_ code: Code, path: String = "", _ message: String) {
        self.init(code, message, context: ErrorPath(path: path))
    }
}
