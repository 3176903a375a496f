#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

// Directory entries: every call names an entry of this directory, so a
// caller holding a confined directory never builds a path from outside.
extension FileDescriptor {
    /// Creates the directory `name`.
    public func makeDirectory(_ name: String, permissions: UInt32 = 0o755) throws(FileSystemError) {
        guard mkdirat(rawValue, name, mode_t(permissions)) == 0 else {
            throw FileSystemError(currentErrno, "create the directory", path: name)
        }
    }

    /// Creates the directory `name` unless a directory is already there
    /// (anything else there is `EEXIST`).
    public func makeDirectoryIfMissing(_ name: String, permissions: UInt32 = 0o755) throws(FileSystemError) {
        do { try makeDirectory(name, permissions: permissions) } catch {
            guard error.isExists, let existing = try? status(of: name), existing.isDirectory else { throw error }
        }
    }

    /// Removes the file, link or empty directory `name`.
    public func remove(_ name: String, directory: Bool = false) throws(FileSystemError) {
        guard unlinkat(rawValue, name, directory ? AT_REMOVEDIR : 0) == 0 else {
            throw FileSystemError(currentErrno, "remove", path: name)
        }
    }

    /// Removes `name` if it is there (a missing one is fine).
    public func removeIfPresent(_ name: String, directory: Bool = false) throws(FileSystemError) {
        do { try remove(name, directory: directory) } catch { if !error.isNotFound { throw error } }
    }

    /// Renames `name` to `newName` in `directory`. With `replace` false an
    /// existing destination is `EEXIST` rather than replaced
    /// (`RENAME_NOREPLACE`, or a hard link then unlink where the file system
    /// lacks it).
    public func rename(_ name: String, to directory: FileDescriptor, _ newName: String,
                       replace: Bool = true) throws(FileSystemError) {
        if replace {
            guard renameat(rawValue, name, directory.rawValue, newName) == 0 else {
                throw FileSystemError(currentErrno, "rename", path: name)
            }
            return
        }
        #if os(Linux)
        let noReplace: UInt32 = 1  // RENAME_NOREPLACE
        if c_renameat2(rawValue, name, directory.rawValue, newName, noReplace) == 0 { return }
        guard errno == EINVAL || errno == ENOSYS else { throw FileSystemError(currentErrno, "rename", path: name) }
        #endif
        // No RENAME_NOREPLACE here: a hard link fails on an existing name,
        // then the old name goes. Directories cannot be linked; they are
        // checked, then renamed (a narrow window).
        if linkat(rawValue, name, directory.rawValue, newName, 0) == 0 {
            _ = unlinkat(rawValue, name, 0)
            return
        }
        guard errno == EPERM || errno == EXDEV else { throw FileSystemError(currentErrno, "rename", path: name) }
        if (try? directory.status(of: newName)) != nil { throw FileSystemError(.fileExists, "rename", path: newName) }
        guard renameat(rawValue, name, directory.rawValue, newName) == 0 else {
            throw FileSystemError(currentErrno, "rename", path: name)
        }
    }

    /// Swaps two existing names atomically (`renameat2(RENAME_EXCHANGE)`):
    /// afterwards `second` names what `first` named and the other way round.
    /// False where the system or file system cannot (the caller renames).
    public func exchange(_ first: String, _ second: String, in directory: FileDescriptor? = nil) throws(FileSystemError) -> Bool {
        #if os(Linux)
        let exchange: UInt32 = 2  // RENAME_EXCHANGE
        if c_renameat2(rawValue, first, (directory ?? self).rawValue, second, exchange) == 0 { return true }
        if errno == EINVAL || errno == ENOSYS || errno == ENOTSUP || errno == EOPNOTSUPP { return false }
        throw FileSystemError(currentErrno, "exchange", path: first)
        #else
        return false
        #endif
    }

    /// A second name, `newName` in `directory`, for the file `name` (never
    /// following a link). False where the file system cannot link (`EXDEV`,
    /// `EPERM`, `EMLINK`, unsupported): the caller copies instead.
    public func hardLink(_ name: String, to directory: FileDescriptor, _ newName: String) throws(FileSystemError) -> Bool {
        if linkat(rawValue, name, directory.rawValue, newName, 0) == 0 { return true }
        switch errno {
        case EXDEV, EPERM, EMLINK, ENOTSUP: return false
        default: throw FileSystemError(currentErrno, "link", path: name)
        }
    }

    /// Creates the symbolic link `name` with `target` as its text.
    public func makeSymbolicLink(_ name: String, target: String) throws(FileSystemError) {
        guard symlinkat(target, rawValue, name) == 0 else {
            throw FileSystemError(currentErrno, "create the link", path: name)
        }
    }

    /// The names in this directory, without "." and "..", in directory order.
    public func entries() throws(FileSystemError) -> [String] {
        var names: [String] = []
        try forEachEntry { name throws(FileSystemError) in names.append(String(cString: name)) }
        return names
    }

    /// The names, sorted bytewise (a stable order for backups and listings).
    ///
    /// The names are read into one buffer and their places sorted with
    /// `memcmp`, and strings are made once, in order: sorting the strings
    /// themselves (`utf8.lexicographicallyPrecedes`, or `memcmp` through
    /// `withUTF8`) retained and released them at every comparison, a fifth
    /// of a large tree walk. A name that is not valid UTF-8 comes back with
    /// U+FFFD in place of its bad bytes, which no lookup finds:
    /// ``sortedEntryNames()`` keeps its bytes.
    public func sortedEntries() throws(FileSystemError) -> [String] {
        try sortedEntryBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The names' bytes, sorted bytewise, each made into an element by `make`.
    func sortedEntryBytes<Element>(_ make: (UnsafeBufferPointer<UInt8>) -> Element) throws(FileSystemError) -> [Element] {
        var bytes: [UInt8] = []
        var names: [(start: Int, count: Int)] = []
        try forEachEntry { name throws(FileSystemError) in
            let count = strlen(name)
            names.append((bytes.count, count))
            name.withMemoryRebound(to: UInt8.self, capacity: count) { bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
        }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return names.map { _ in make(UnsafeBufferPointer(start: nil, count: 0)) } }
            names.sort { first, second in
                let order = memcmp(base + first.start, base + second.start, min(first.count, second.count))
                return order != 0 ? order < 0 : first.count < second.count
            }
            return names.map { make(UnsafeBufferPointer(start: base + $0.start, count: $0.count)) }
        }
    }

    /// Calls `body` with each entry's NUL-terminated name (not "." or
    /// ".."), straight from `readdir`'s buffer: no string is made per entry,
    /// which is most of a large walk's cost.
    public func forEachEntry(_ body: (UnsafePointer<CChar>) throws(FileSystemError) -> Void) throws(FileSystemError) {
        let fd = retryingOnInterrupt { openat(rawValue, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw FileSystemError(currentErrno, "list", path: ".") }
        guard let stream = fdopendir(fd) else {
            let failure = FileSystemError(currentErrno, "list", path: ".")
            _ = c_close(fd)
            throw failure
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let failure: FileSystemError? = withUnsafePointer(to: &entry.pointee.d_name) { pointer -> FileSystemError? in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { name -> FileSystemError? in
                    if name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0)) { return nil }
                    do throws(FileSystemError) { try body(name) } catch { return error }
                    return nil
                }
            }
            if let failure { throw failure }
        }
    }
}
