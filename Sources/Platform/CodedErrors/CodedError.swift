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
///
/// An error made from another one keeps it as its ``underlying`` cause
/// (``caused(by:)``) instead of quoting it in the message: the message
/// says what this layer was doing, the description adds the cause's, and
/// a caller at the top still finds the cause (``CausedError``):
///
/// ```swift
/// catch { throw PreferencesError(.storageFailed, path: p, "cannot save the domain").caused(by: error) }
/// ```
@dynamicMemberLookup
public struct CodedError<Kind: ErrorCode>: Error, Hashable, CustomStringConvertible, CausedError, ClassifiedError {
    /// The module's kinds of failure, reachable as `PreferencesError.Code`
    /// (a generic parameter is not a member type, so it is named again here).
    public typealias Code = Kind

    /// What went wrong.
    public var code: Code
    /// A sentence or phrase for people.
    public var message: String
    /// Where it went wrong, in the module's terms.
    public var context: Code.Context
    /// The error this one was made from, if any: kept, not compared
    /// (``==(_:_:)``), and described after the message.
    public var underlying: (any Error)?

    /// Creates an error, made from `underlying` if given.
    public init(_ code: Code, _ message: String, context: Code.Context, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.context = context
        self.underlying = underlying
    }

    /// The same error, made from `cause`.
    public func caused(by cause: any Error) -> Self {
        var error = self
        error.underlying = cause
        return error
    }

    /// The code's kind of failure (``ErrorCode/failureKind``); a cause's
    /// kind is found through the chain (`isDiskFull`), not here.
    public var failureKind: FailureKind? { code.failureKind }

    /// A field of the context, as if it were the error's own.
    public subscript<Value>(dynamicMember field: WritableKeyPath<Code.Context, Value>) -> Value {
        get { context[keyPath: field] }
        set { context[keyPath: field] = newValue }
    }

    /// The error in words, as ``ErrorCode/describe(_:)`` of the module's
    /// code gives, then its cause's description, once: not again when the
    /// message already quotes it.
    public var description: String { describing(Code.describe(self)) }

    /// Whether two errors have the same code, message and context. The
    /// causes are not compared (an `any Error` cannot be): two errors
    /// that say the same are the same, whatever they were made from.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.context == rhs.context
    }

    /// Hashes the code, message and context, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(context)
    }
}

extension CodedError where Code.Context == ErrorPath {
    /// Creates an error about `path`.
    public init(_ code: Code, path: String = "", _ message: String) {
        self.init(code, message, context: ErrorPath(path: path))
    }
}
