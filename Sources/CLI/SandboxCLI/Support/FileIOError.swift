import Foundation

/// A failed system call while reading or writing a file, with the reason the
/// system gave (`strerror`).
struct FileIOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done: "read", "write", "replace" ….
    var operation: String
    /// The file involved, when it is not the one the error line is already about.
    var path: String?
    /// The `errno` value.
    var code: Int32

    init(_ operation: String, path: String? = nil, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    var description: String {
        let reason = String(cString: strerror(code))
        if let path { return "cannot \(operation) \(path): \(reason)" }
        return "cannot \(operation): \(reason)"
    }
}
