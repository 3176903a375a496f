#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

extension FileDescriptor {
    /// `fstatat` of the name whose bytes are `name` in this directory, links
    /// not followed; nil when nothing is there (`ENOENT`, or a component
    /// that is not a directory).
    ///
    /// For a caller that holds many names as bytes inside a larger buffer (a
    /// cache manifest's paths, cut at their last slash) and would otherwise
    /// make a `String` of each: the name is copied, NUL-terminated, into
    /// stack memory, so a lookup allocates nothing. A name with a NUL byte
    /// can name no file: it fails with `EINVAL` rather than being cut short.
    ///
    /// ```swift
    /// path.utf8.withContiguousStorageIfAvailable { bytes in
    ///     try directory.statusIfPresent(ofNameBytes: UnsafeBufferPointer(rebasing: bytes[nameStart...]))
    /// }
    /// ```
    public func statusIfPresent(ofNameBytes name: UnsafeBufferPointer<UInt8>) throws(FileSystemError) -> FileStatus? {
        let shown = { String(decoding: name, as: UTF8.self) }
        guard !name.contains(0) else { throw FileSystemError(.invalidArgument, "read the status of", path: shown()) }
        var info = CStat()
        let result = Self.withCName(name) { cName in retryingOnInterrupt { fstatat(rawValue, cName, &info, AT_SYMLINK_NOFOLLOW) } }
        guard result == 0 else {
            let failure = FileSystemError(currentErrno, "read the status of", path: shown())
            if failure.isNotFound || failure.isNotDirectory { return nil }
            throw failure
        }
        return FileStatus(info)
    }

    /// Calls `body` with `name` copied NUL-terminated into stack memory
    /// (the caller has refused a NUL inside it, or read it from a directory).
    static func withCName<T>(_ name: UnsafeBufferPointer<UInt8>, _ body: (UnsafePointer<CChar>) -> T) -> T {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(name))
            buffer[name.count] = 0
            guard let base = buffer.baseAddress else { return body("") }  // never: the capacity is at least 1
            return body(base)
        }
    }
}
