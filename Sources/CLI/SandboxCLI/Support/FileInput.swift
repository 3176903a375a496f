import FileSystem
import Foundation
import PropertyList
import SystemPackage

/// Reads a whole input file, or standard input for the path `-`.
///
/// Descriptor reads (FileSystem's) are used instead of `Data(contentsOf:)` so
/// that a missing file, a directory or an unreadable file gives the system's
/// one-line reason, and so that an oversized file is refused before it is
/// read into memory.
enum FileInput {
    /// The bytes of `path` (`-` is standard input), refusing more than `limit` bytes.
    static func read(_ path: String, limit: Int = PropertyListLimits.default.maximumInputSize) throws -> Data {
        if path == "-" { return try readAll(from: .standardInput, limit: limit) }
        let descriptor: FileDescriptor
        do { descriptor = try FileDescriptor.open(atPath: path, .readOnly) } catch { throw FileIOError("read", error) }
        defer { descriptor.closeQuietly() }
        let info: FileStatus
        do { info = try descriptor.status() } catch { throw FileIOError("read", error) }
        if info.isDirectory { throw FileIOError("read", code: Errno.isDirectory.rawValue) }
        if info.size > UInt64(max(limit, 0)) { throw tooLarge(limit) }
        // A regular file is read in one call at its size, or mapped when
        // large (no copy at all); pipes and devices are read in chunks.
        if info.isRegularFile {
            do { return try descriptor.readAll(mappedAbove: 1 << 20) } catch { throw FileIOError("read", error) }
        }
        return try readAll(from: descriptor, limit: limit)
    }

    private static func readAll(from descriptor: FileDescriptor, limit: Int) throws -> Data {
        var result = Data()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count: Int
            do { count = try descriptor.readSome(into: chunk) } catch { throw FileIOError("read", error) }
            if count == 0 { return result }
            // Checked per chunk because pipes and devices have no size up front.
            if result.count + count > limit { throw tooLarge(limit) }
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
    }

    private static func tooLarge(_ limit: Int) -> PropertyListError {
        PropertyListError(.sizeLimitExceeded, format: nil, "the input is larger than \(limit) bytes")
    }
}
