/// An item a backup left out because it changed under the backup: swapped
/// for a link, a directory or another file between the walk that saw it
/// and the read that was to copy it. Its content is never read through
/// what replaced it; the next backup takes it as it then is.
public struct BackupSkippedFile: Sendable, Hashable, CustomStringConvertible {
    /// Why it was left out.
    public enum Reason: String, Sendable, Hashable {
        /// Its device, inode or kind is no longer what the walk saw (or the
        /// directory holding it was swapped), or it is gone.
        case changedSinceScan
    }

    /// The item's domain.
    public var domain: String
    /// Its path in the domain.
    public var relativePath: String
    /// Why it was left out.
    public var reason: Reason
    /// Details (the failed check or call).
    public var message: String

    public init(domain: String, relativePath: String, reason: Reason, message: String) {
        self.domain = domain
        self.relativePath = relativePath
        self.reason = reason
        self.message = message
    }

    /// `domain/path: reason (message)`.
    public var description: String { "\(domain)/\(relativePath): \(reason.rawValue) (\(message))" }
}
