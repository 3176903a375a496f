/// The kinds of failure of one module's ``CodedError``, and what such an
/// error carries besides its code and message.
///
/// An enum, usually with a DocC comment on each case; `Hashable` and
/// `Sendable` because the error that carries it is compared, put in sets
/// and thrown across tasks.
public protocol ErrorCode: Hashable, Sendable {
    /// Where the failure happened, in the module's own terms: the path
    /// (``ErrorPath``, unless the module says otherwise), or the line, the
    /// `errno`, the HTTP status… whatever finds the cause.
    associatedtype Context: Hashable & Sendable = ErrorPath

    /// How an error of this kind reads: its message and its context, in
    /// the module's words, once for all its errors.
    static func describe(_ error: CodedError<Self>) -> String

    /// The kind of failure (a full disk, an exhausted quota) this code
    /// is, for callers that ask `isDiskFull` or `isOverQuota`; nil, the
    /// default, when it is none of them.
    var failureKind: FailureKind? { get }
}

extension ErrorCode {
    /// None of the kinds: a code says otherwise by implementing it.
    public var failureKind: FailureKind? { nil }
}

/// The context of most coded errors: the file, directory or domain
/// concerned, in the module's own terms (container-relative for a
/// container); empty when none.
public struct ErrorPath: Hashable, Sendable {
    /// The path; empty when none.
    public var path: String

    /// A context naming `path`.
    public init(path: String) {
        self.path = path
    }
}

extension ErrorCode where Context == ErrorPath {
    /// `<path>: <message>`, or the message alone when there is no path.
    public static func describe(_ error: CodedError<Self>) -> String {
        error.path.isEmpty ? error.message : "\(error.path): \(error.message)"
    }
}
