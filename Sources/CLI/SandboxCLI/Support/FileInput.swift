import Foundation
import PropertyList

/// Reads a whole input file, or standard input for the path `-`.
///
/// POSIX calls are used instead of `Data(contentsOf:)` so that a missing file,
/// a directory or an unreadable file gives the system's one-line reason, and
/// so that an oversized file is refused before it is read into memory.
enum FileInput {
    /// The bytes of `path` (`-` is standard input), refusing more than `limit` bytes.
    static func read(_ path: String, limit: Int = PropertyListLimits.default.maximumInputSize) throws -> Data {
        if path == "-" { return try readAll(from: STDIN_FILENO, limit: limit) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileIOError("read") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileIOError("read") }
        if info.st_mode & S_IFMT == S_IFDIR { throw FileIOError("read", code: EISDIR) }
        if info.st_size > limit { throw tooLarge(limit) }
        return try readAll(from: descriptor, limit: limit)
    }

    private static func readAll(from descriptor: Int32, limit: Int) throws -> Data {
        var result = Data()
        let chunkSize = 1 << 16
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileIOError("read")
            }
            if count == 0 { return result }
            // Checked per chunk because pipes and devices have no size up front.
            if result.count + count > limit { throw tooLarge(limit) }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    private static func tooLarge(_ limit: Int) -> PropertyListError {
        PropertyListError(.sizeLimitExceeded, format: nil, "the input is larger than \(limit) bytes")
    }
}
