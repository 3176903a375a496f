import CodedErrors

/// A migration that was refused or could not go on: what went wrong
/// (``MigrationErrorCode``), the container-relative path it concerned, and
/// a message for people. Whatever the failure, every file is in exactly
/// one place (its source or its destination) and running the migration
/// again resumes it.
///
/// ```swift
/// do { _ = try migration.run() }
/// catch let error as MigrationError where error.code == .conflict { … }
/// ```
public typealias MigrationError = CodedError<MigrationErrorCode>

/// The kinds of failure of a ``MigrationError``.
public enum MigrationErrorCode: ErrorCode {
    /// The destination already holds a different item of the same name
    /// (found when planning, or a different file appeared at both places).
    case conflict
    /// The journal in the container is unreadable or belongs to another
    /// migration (other source or destination).
    case corruptJournal
    /// The job was stopped by its progress handler, cancelled, or its
    /// app was killed (the launch watchdog); it resumes when run again.
    case stopped
    /// A container operation failed (disk full, permission, a link
    /// where a directory was expected…): the container's code.
    case container(ContainerErrorCode)

    /// As a container error reads (`<message>: <path>`), but the path only
    /// once when a wrapped container message already names it.
    public static func describe(_ error: MigrationError) -> String {
        error.path.isEmpty || error.message.contains(error.path) ? error.message : "\(error.message): \(error.path)"
    }

    /// A container failure's kind (a full disk).
    public var failureKind: FailureKind? {
        if case .container(let code) = self { return code.failureKind }
        return nil
    }
}

extension MigrationError {
    /// Wraps a container error, keeping its code, path and message, and
    /// the error itself as the cause (it reads as the container error did).
    public init(_ error: ContainerError) {
        self.init(.container(error.code), error.message, context: error.context, underlying: error)
    }
}
