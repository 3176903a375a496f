import CodedErrors
import SystemPackage

/// A failed file-system call: the `errno` it left (swift-system's ``Errno``),
/// what was being done, and the path it concerned.
///
/// Every call in this module throws this one type, so a caller maps one
/// error to its own domain (``ContainerError``, a backup error…) in one
/// place. The classification properties say what kind of failure it is
/// without the caller naming platform constants.
///
/// ```swift
/// do { _ = try directory.openBeneath("Documents/a.txt", .readOnly) }
/// catch where error.isEscape { … }   // a link or `..` led outside
/// ```
public struct FileSystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system's error number.
    public var errno: Errno
    /// What was being done, as a verb phrase: "open", "rename", "read".
    public var operation: String
    /// The path concerned, as the caller named it (relative to a directory
    /// handle for the `*at` calls).
    public var path: String

    /// Creates an error.
    public init(_ errno: Errno, _ operation: String, path: String) {
        self.errno = errno
        self.operation = operation
        self.path = path
    }

    /// "cannot <operation> <path>: <reason>".
    public var description: String {
        path.isEmpty ? "cannot \(operation): \(errno.description)" : "cannot \(operation) \(path): \(errno.description)"
    }

    /// The system's sentence for the error number alone ("No such file or directory").
    public var reason: String { errno.description }

    /// The same failure about another path (a caller that knows the full
    /// path of a relative name).
    public func with(path: String) -> FileSystemError { FileSystemError(errno, operation, path: path) }

    // MARK: Classification

    /// Nothing exists at the path (`ENOENT`).
    public var isNotFound: Bool { errno == .noSuchFileOrDirectory }
    /// Something already exists (`EEXIST`, or `ENOTEMPTY` for a directory rename).
    public var isExists: Bool { errno == .fileExists || errno == .directoryNotEmpty }
    /// The device or quota is full (`ENOSPC`, `EDQUOT`).
    public var isNoSpace: Bool { errno == .noSpace || errno == .diskQuotaExceeded }
    /// The file would exceed the size limit (`EFBIG`).
    public var isTooLarge: Bool { errno == .fileTooLarge }
    /// The system refused access (`EACCES`, `EPERM`).
    public var isPermission: Bool { errno == .permissionDenied || errno == .notPermitted }
    /// The file system is mounted read-only (`EROFS`).
    public var isReadOnlyFileSystem: Bool { errno == .readOnlyFileSystem }
    /// Resolution would have left the directory it must stay beneath
    /// (`EXDEV`, openat2's answer; the component walk answers the same).
    public var isEscape: Bool { errno == .improperLink }
    /// Too many symbolic links, or a link where `O_NOFOLLOW` forbids one (`ELOOP`).
    public var isLoop: Bool { errno == .tooManySymbolicLinkLevels }
    /// A component that must be a directory is not (`ENOTDIR`).
    public var isNotDirectory: Bool { errno == .notDirectory }
    /// A directory where a file was needed (`EISDIR`).
    public var isDirectory: Bool { errno == .isDirectory }
    /// A directory to remove is not empty (`ENOTEMPTY`).
    public var isNotEmpty: Bool { errno == .directoryNotEmpty }
    /// A name or path is too long (`ENAMETOOLONG`).
    public var isNameTooLong: Bool { errno == .fileNameTooLong }
    /// The file system or kernel does not support the call (`ENOTSUP`, `EOPNOTSUPP`, `ENOSYS`).
    public var isUnsupported: Bool {
        errno == .notSupported || errno == .notSupportedOnSocket || errno == .noFunction
    }
}

extension FileSystemError {
    /// The file changed between a scan and the open that was to read it
    /// (``FileDescriptor/openSeen(_:as:)``): `ESTALE`.
    public var isChangedSinceScan: Bool { errno == .staleNFSFileHandle }
}

extension FileSystemError: ClassifiedError {
    /// ``CodedErrors/FailureKind/noSpace`` for a full device or quota
    /// (``isNoSpace``), so `isDiskFull` finds it beneath any error that
    /// keeps it as its cause.
    public var failureKind: FailureKind? { isNoSpace ? .noSpace : nil }
}
