/// An item a backup left out, and why: it changed under the backup
/// (swapped for a link, a directory or another file between the walk that
/// saw it and the read that was to copy it: its content is never read
/// through what replaced it, and the next backup takes it as it then is),
/// or its name cannot be written to a backup at all.
public struct BackupSkippedFile: Sendable, Hashable, CustomStringConvertible {
    /// Why it was left out.
    public enum Reason: String, Sendable, Hashable {
        /// Its device, inode or kind is no longer what the walk saw (or the
        /// directory holding it was swapped), or it is gone.
        case changedSinceScan
        /// Its name, or a directory's above it, is not valid UTF-8: a
        /// backup's paths are UTF-8 text (and iOS makes no other names),
        /// so it and all it holds are left out, by name, not dropped in
        /// silence.
        case nameNotUTF8
        /// Its do-not-back-up flag could not be read, so whether it belongs
        /// in the backup is unknown.
        case flagUnreadable
        /// Its path is longer than a backup's paths may be.
        case pathTooLong
    }

    /// The item's domain.
    public var domain: String
    /// Its path in the domain.
    public var relativePath: String
    /// Why it was left out.
    public var reason: Reason
    /// Details (the failed check or call).
    public var message: String

    /// `domain/path: reason (message)`.
    public var description: String { "\(domain)/\(relativePath): \(reason.rawValue) (\(message))" }
}
