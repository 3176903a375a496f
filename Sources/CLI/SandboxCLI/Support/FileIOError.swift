import FileSystem
import SystemPackage

/// A failed system call while reading or writing a file, with the reason the
/// system gave (`strerror`).
struct FileIOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done: "read", "write", "replace" ….
    var operation: String
    /// The file involved, when it is not the one the error line is already about.
    var path: String?
    /// The `errno` value.
    var code: Int32

    init(_ operation: String, path: String? = nil, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The same failure as FileSystem reported it, described as this
    /// command's `operation`.
    init(_ operation: String, path: String? = nil, _ failure: FileSystemError) {
        self.init(operation, path: path, code: failure.errno.rawValue)
    }

    var description: String {
        let reason = Errno(rawValue: code).description
        if let path { return "cannot \(operation) \(path): \(reason)" }
        return "cannot \(operation): \(reason)"
    }
}
