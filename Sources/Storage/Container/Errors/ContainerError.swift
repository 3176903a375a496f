import CodedErrors
import FileSystem

/// A refused or failed container operation: what went wrong
/// (``ContainerErrorCode``), the container-relative path it concerned, and
/// a message for people (described `<message>: <path>`).
///
/// ```swift
/// do { try container.writeAtomically(data, to: "hello.txt") }
/// catch let error as ContainerError where error.code == .writeAtRoot { … }
/// ```
public typealias ContainerError = CodedError<ContainerErrorCode>

/// The kinds of failure of a ``ContainerError``.
public enum ContainerErrorCode: ErrorCode {
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

    /// The message and then the path: a container's messages are
    /// lower-case phrases (`cannot open: …`) that the path completes.
    public static func describe(_ error: ContainerError) -> String {
        error.path.isEmpty ? error.message : "\(error.message): \(error.path)"
    }

    /// ``diskFull`` is ``CodedErrors/FailureKind/noSpace``.
    public var failureKind: FailureKind? { self == .diskFull ? .noSpace : nil }
}

extension ContainerError {
    /// Maps a failed file-system call to a typed error: the one place
    /// where system errors become container codes. The message says what
    /// the container was doing; the failure is kept as the cause, which
    /// the description adds (`cannot write: Documents/a: cannot rename …:
    /// No space left on device`).
    init(_ failure: FileSystemError, path: String, _ action: String) {
        let code: Code
        if failure.isNotFound { code = .notFound }
        else if failure.isNotEmpty { code = .directoryNotEmpty }
        else if failure.isExists { code = .alreadyExists }
        else if failure.isNoSpace { code = .diskFull }
        else if failure.isTooLarge { code = .fileTooLarge }
        else if failure.isPermission { code = .permissionDenied }
        else if failure.isReadOnlyFileSystem { code = .readOnly }
        else if failure.isEscape { code = .escapesContainer }
        else if failure.isLoop { code = .symbolicLinkLoop }
        else if failure.isNotDirectory { code = .notDirectory }
        else if failure.isDirectory { code = .isDirectory }
        else if failure.isNameTooLong { code = .invalidPath }
        else { code = .io(errno: failure.errno.rawValue) }
        self.init(code, "cannot \(action)", context: ErrorPath(path: path), underlying: failure)
    }
}
