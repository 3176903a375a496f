import CodedErrors
import FileSystem
import SystemPackage

/// A failed system call while reading or writing a file, with the reason the
/// system gave (`strerror`) and, where FileSystem reported it, the failure
/// itself as its cause.
struct FileIOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done: "read", "write", "replace" ….
    var operation: String
    /// The file involved, when it is not the one the error line is already about.
    var path: String?
    /// The `errno` value.
    var code: Int32
    /// FileSystem's own report, kept so a caller can still ask what kind of
    /// failure it was (`cause?.isNoSpace`) and the message can say what was
    /// refused ("it is a block device").
    var cause: FileSystemError?

    init(_ operation: String, path: String? = nil, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The same failure as FileSystem reported it, described as this
    /// command's `operation`.
    init(_ operation: String, path: String? = nil, _ failure: FileSystemError) {
        self.init(operation, path: path, code: failure.errno.rawValue)
        cause = failure
    }

    var description: String {
        let reason = Errno(rawValue: code).description
        // FileSystem's operation says more than ours where it explains
        // itself ("write output to (it is a block device)").
        let operation = cause.map { $0.operation.contains("(") ? $0.operation : self.operation } ?? self.operation
        if let path { return "cannot \(operation) \(path): \(reason)" }
        return "cannot \(operation): \(reason)"
    }
}

extension FileIOError: CausedError {
    /// FileSystem's report, when there was one.
    var underlying: (any Error)? { cause }
}
