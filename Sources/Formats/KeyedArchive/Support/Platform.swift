// The module's only libc calls, behind one import ladder: writing a file
// atomically (temporary file, fsync, rename, fsync of the directory).
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum Platform {
    /// Writes `data` to `path` so that a reader sees either the old file or
    /// the whole new one, even after a power cut: the bytes go to a
    /// temporary file in the same directory, are flushed to disk, and the
    /// file is renamed over `path`; the directory is flushed last so the
    /// rename itself survives.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array((directory.isEmpty ? "." : directory).utf8CString.dropLast())
        template += Array("/.\(name).tmp-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw failure("cannot create a temporary file", path) }
        let temporaryPath = template.withUnsafeBufferPointer { buffer in
            String(cString: Array(buffer))
        }
        var finished = false
        defer {
            if !finished { unlink(temporaryPath) }
        }
        // mkstemp creates 0600; archives are ordinary user files.
        _ = fchmod(descriptor, 0o644)
        let written = data.withUnsafeBytes { raw -> Bool in
            guard var pointer = raw.baseAddress else { return true }
            var remaining = raw.count
            while remaining > 0 {
                let count = write(descriptor, pointer, remaining)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                remaining -= count
                pointer += count
            }
            return true
        }
        guard written else {
            let error = failure("cannot write", path)
            close(descriptor)
            throw error
        }
        guard fsync(descriptor) == 0 else {
            let error = failure("cannot flush", path)
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure("cannot close", path) }
        guard rename(temporaryPath, path) == 0 else { throw failure("cannot rename the temporary file onto", path) }
        finished = true
        let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private static func failure(_ what: String, _ path: String) -> KeyedArchiveError {
        let reason = String(cString: strerror(errno))
        return KeyedArchiveError(.fileIO, path: path, "\(what) \(path): \(reason)")
    }
}
