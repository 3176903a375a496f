import Foundation

/// Writes command output: to standard output, or to a file replaced atomically.
///
/// A file is never left half-written: the bytes go to a temporary file in the
/// same directory, which is flushed and then renamed over the destination, so
/// a reader sees either the old or the new contents. (A later Container module
/// will own the project's atomic I/O; this is the CLI's own minimal version.)
enum FileOutput {
    /// Writes `data` to standard output.
    static func writeToStandardOutput(_ data: Data) throws {
        try writeAll(data, to: STDOUT_FILENO, operation: "write to standard output")
    }

    /// Whether standard error is a terminal (progress bars are drawn only there).
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes `text` to standard error, ignoring failures: there is nowhere
    /// left to report them.
    static func writeToStandardError(_ text: String) {
        try? writeAll(Data(text.utf8), to: STDERR_FILENO, operation: "write to standard error")
    }

    /// Replaces the file at `path` with `data` atomically, keeping the
    /// permission bits of the file it replaces.
    ///
    /// When `path` is a symbolic link the link's target is replaced, so the
    /// link keeps working, as a plain write through it would.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let destination = resolvingSymbolicLink(path)
        var existing = stat()
        let existingMode: mode_t? = stat(destination, &existing) == 0 ? existing.st_mode & 0o7777 : nil
        let (temporaryPath, descriptor) = try createTemporaryFile(beside: destination, for: path)
        do {
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, operation: "write", path: path)
            if let existingMode, fchmod(descriptor, existingMode) != 0 { throw FileIOError("write", path: path) }
            // Flush before the rename, so a crash cannot leave the new name on empty blocks.
            if fsync(descriptor) != 0 { throw FileIOError("write", path: path) }
        } catch {
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, destination) == 0 else {
            let failure = FileIOError("replace", path: path)
            unlink(temporaryPath)
            throw failure
        }
        syncDirectory(of: destination)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, operation: String, path: String? = nil) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileIOError(operation, path: path)
                }
                offset += written
            }
        }
    }

    /// Creates `.<name>.sandbox-<random>` next to `destination`, readable and
    /// writable as the umask allows (`mkstemp` would force mode 0600).
    private static func createTemporaryFile(beside destination: String, for path: String) throws -> (String, Int32) {
        let (directory, name) = split(destination)
        for _ in 0..<32 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let temporaryPath = directory + "/." + name.prefix(100) + ".sandbox-" + suffix
            let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (temporaryPath, descriptor) }
            if errno != EEXIST { throw FileIOError("write", path: path) }
        }
        throw FileIOError("write", path: path, code: EEXIST)
    }

    /// Flushes the directory entry of the rename. Best effort: some file
    /// systems refuse `fsync` on directories, and the data itself is safe.
    private static func syncDirectory(of path: String) {
        let descriptor = open(split(path).directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func resolvingSymbolicLink(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) else {
            return path
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The directory and last component of `path` ("." for a bare name).
    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
