/// A refused or failed container operation: what went wrong (``Code``),
/// the container-relative path it concerned, and a message for people.
///
/// ```swift
/// do { try container.writeAtomically(data, to: "hello.txt") }
/// catch let error as ContainerError where error.code == .writeAtRoot { … }
/// ```
public struct ContainerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: Sendable, Hashable {
        /// The path would leave the container: an absolute path, a `..`, or a
        /// symbolic link that points outside.
        case escapesContainer
        /// A write directly in the container root, where iOS apps may not
        /// create or change anything.
        case writeAtRoot
        /// A write inside the app's signed bundle.
        case writeInBundle
        /// A write into a read-only location (such as a system directory).
        case readOnly
        /// Nothing exists at the path.
        case notFound
        /// Something already exists at the destination.
        case alreadyExists
        /// Nothing exists at the path with this exact spelling, but a name
        /// differing only in letter case does: `suggestion` is that path.
        case caseMismatch(suggestion: String)
        /// The path is malformed: empty where a file is needed, contains a
        /// NUL byte, or a component or the whole path is too long.
        case invalidPath
        /// A directory was found where a file was needed.
        case isDirectory
        /// A file was found where a directory was needed.
        case notDirectory
        /// A directory to remove or replace is not empty.
        case directoryNotEmpty
        /// Too many symbolic links, or a link where none may be.
        case symbolicLinkLoop
        /// The device is full (`ENOSPC`, `EDQUOT`).
        case diskFull
        /// The file would exceed the file-size limit (`EFBIG`, `RLIMIT_FSIZE`).
        case fileTooLarge
        /// The system refused access (`EACCES`, `EPERM`).
        case permissionDenied
        /// Stored data (an Info.plist, a seal) is malformed.
        case corrupt
        /// Another system error, with its `errno`.
        case io(errno: Int32)
    }

    /// What went wrong.
    public var code: Code
    /// The container-relative (or bundle-relative) path concerned.
    public var path: String
    /// A lower-case phrase for people, without a final period.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The message and the path.
    public var description: String {
        path.isEmpty ? message : "\(message): \(path)"
    }
}

extension ContainerError {
    /// Maps a failed system call to a typed error.
    init(_ failure: SystemFailure, path: String, _ action: String) {
        let e = failure.errno
        let code: Code
        if Platform.isNotFound(e) { code = .notFound }
        else if Platform.isNotEmpty(e) { code = .directoryNotEmpty }
        else if Platform.isExists(e) { code = .alreadyExists }
        else if Platform.isNoSpace(e) { code = .diskFull }
        else if Platform.isTooLarge(e) { code = .fileTooLarge }
        else if Platform.isPermission(e) { code = .permissionDenied }
        else if Platform.isReadOnlyFS(e) { code = .readOnly }
        else if Platform.isEscape(e) { code = .escapesContainer }
        else if Platform.isLoop(e) { code = .symbolicLinkLoop }
        else if Platform.isNotDirectory(e) { code = .notDirectory }
        else if Platform.isDirectoryError(e) { code = .isDirectory }
        else if Platform.isNameTooLong(e) { code = .invalidPath }
        else { code = .io(errno: e) }
        self.init(code, path: path, "cannot \(action): \(Platform.describe(e))")
    }
}
