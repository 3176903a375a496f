/// A migration that was refused or could not go on: what went wrong
/// (``Code``), the container-relative path it concerned, and a message for
/// people. Whatever the failure, every file is in exactly one place (its
/// source or its destination) and running the migration again resumes it.
///
/// ```swift
/// do { _ = try migration.run() }
/// catch let error as MigrationError where error.code == .conflict { … }
/// ```
public struct MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: Sendable, Hashable {
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
        case container(ContainerError.Code)
    }

    /// What went wrong.
    public var code: Code
    /// The container-relative path concerned ("" when none).
    public var path: String
    /// A lower-case phrase for people, without a final period.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String = "", _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// Wraps a container error, keeping its code and path.
    public init(_ error: ContainerError) {
        self.init(.container(error.code), path: error.path, error.message)
    }

    /// The message and the path.
    public var description: String {
        path.isEmpty || message.contains(path) ? message : "\(message): \(path)"
    }
}
