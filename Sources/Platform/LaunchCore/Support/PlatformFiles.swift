// The file reads the ELF reader and the library search make, behind the
// module's import ladder: this module has no Foundation and no FileSystem
// (the trampoline links nothing more than it needs).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Top-level, so `ELFFile.close()` can reach libc's `close`.
private func closeFile(_ fd: Int32) { _ = close(fd) }

/// An ELF file open for reading at offsets.
struct ELFFile {
    let fd: Int32
    let size: UInt64

    init(path: String) throws(ELFError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ELFError(.unreadable, "cannot open \(path): \(Platform.describe(errno))") }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            closeFile(fd)
            throw ELFError(.unreadable, "\(path) is not a regular file")
        }
        self.fd = fd
        self.size = UInt64(info.st_size)
    }

    func read(at offset: UInt64, count: Int) throws(ELFError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pread(fd, base + done, count - done, off_t(offset) + off_t(done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw ELFError(.truncated, offset: offset, "the file ended early") }
            done += got
        }
        return buffer
    }

    func close() { closeFile(fd) }
}

extension Platform {
    /// Whether `path` names a regular file (links followed, as the loader does).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The path with every link resolved, or nil.
    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The names in a directory, unsorted; empty when it cannot be read.
    static func directoryEntries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// A small text file whole (at most `limit` bytes), or nil.
    static func readSmallTextFile(_ path: String, limit: Int = 1 << 20) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while result.count < limit {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            result.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: result.prefix(limit), as: UTF8.self)
    }
}
