/// The kinds of failure of one module's ``CodedError``.
///
/// An enum, usually with a DocC comment on each case; `Hashable` and
/// `Sendable` because the error that carries it is compared, put in sets
/// and thrown across tasks.
public protocol ErrorCode: Hashable, Sendable {
    /// How an error of this kind reads: by default `<path>: <message>`, or
    /// the message alone when there is no path. A module whose messages are
    /// phrases that the path completes (`cannot open: Documents/a`) says so
    /// here, once for all its errors.
    static func describe(path: String, message: String) -> String
}

extension ErrorCode {
    /// `<path>: <message>`, or the message alone when there is no path.
    public static func describe(path: String, message: String) -> String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
